package document

import "testing"

func TestSplitFindsFrontmatterTitleAndBody(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      Source
	}{
		{"AllParts", "---\na: 1\n---\n\n# T\n\nB\n", Source{Front: "a: 1", Title: 14, Body: 19}},
		{"EmptyFrontmatter", "---\n---\n# T\n\nB", Source{Title: 8, Body: 13}},
		{"NoFrontmatterNoTitle", "\nB\n", Source{Title: -1, Body: 1}},
		{"Unclosed", "---\na: 1\n# T\n", Source{Unclosed: true, Title: -1, Body: 0}},
		{"ClosedWithoutNewline", "---\na: 1\n---", Source{Unclosed: true, Title: -1, Body: 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Split(tc.src); got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestParseIsStrictAndParseLenientIsNot(t *testing.T) {
	a, err := Parse("\ufeff---\r\ndescription: d\r\n---\r\n\r\n# Title #\r\n\r\nBody\r\n\r\n")
	if err != nil || a.Title != "Title" || a.Front.Description == nil || *a.Front.Description != "d" || a.Body != "Body\n" {
		t.Fatalf("Parse = %+v, %v", a, err)
	}
	if a, err := Parse("---\nemoji: x\n---"); err != nil || a.Front.Emoji == nil || a.Body != "" || a.Title != "" {
		t.Errorf("frontmatter ending the source: %+v, %v", a, err)
	}
	if l := ParseLenient("---\nemoji: x\n---"); l.Front.Emoji != nil || l.Body != "---\nemoji: x\n---\n" {
		t.Errorf("lenient, frontmatter ending the source: %+v", l)
	}
	for _, src := range []string{"---\ndescription: d\n# T\n", "---\nunknown: 1\ndescription: d\n---\n# T\n", "---\n: [\n---\n# T\nB\n"} {
		if _, err := Parse(src); err == nil {
			t.Errorf("Parse(%q) took it", src)
		}
	}
	if l := ParseLenient("---\ndescription: d\n# T\n"); l.Title != "" || l.Body != "---\ndescription: d\n# T\n" {
		t.Errorf("lenient, unclosed: %+v", l)
	}
	if l := ParseLenient("---\nunknown: 1\ndescription: d\n---\n# T\n"); l.Front.Description == nil || l.Title != "T" {
		t.Errorf("lenient, unknown key: %+v", l)
	}
	if l := ParseLenient("---\n: [\n---\n# T\nB\n"); l.Front != (Frontmatter{}) || l.Title != "T" || l.Body != "B\n" {
		t.Errorf("lenient, malformed: %+v", l)
	}
}

func TestComposeReadsBack(t *testing.T) {
	md := Compose(map[string]any{"emoji": "x", "description": "d"}, "T", "B\n")
	if want := "---\ndescription: d\nemoji: x\n---\n\n# T\n\nB\n"; md != want {
		t.Fatalf("Compose = %q, want %q", md, want)
	}
	a, err := Parse(md)
	if err != nil || a.Title != "T" || *a.Front.Emoji != "x" || a.Body != "B\n" {
		t.Errorf("read back %+v, %v", a, err)
	}
	if md := Compose(nil, "T", ""); md != "# T\n" {
		t.Errorf("no frontmatter, no body: %q", md)
	}
}
