package search

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSectionsSplitAtHeadingsAsPlainText(t *testing.T) {
	body := "Intro with **bold**, a [link](x.md) and ![an image](/files/f).\n\n" +
		"## Set *up*\n\n- [x] done item\n1. first\n> quoted `code`\n\n{% hint style=\"info\" %}\nHinted.\n{% endhint %}\n\n" +
		"```sh\n# not a heading\nrun it\n```\n\n---\n\n### Last\n"
	got := Sections(body)
	want := []Section{
		{Text: "Intro with bold, a link and an image."},
		{Anchor: "set-up", Heading: "Set up", Text: "done item first quoted code Hinted. # not a heading run it"},
		{Anchor: "last", Heading: "Last"},
	}
	if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got := Sections("## Only\n\ntext\n"); len(got) != 1 || got[0].Heading != "Only" {
		t.Errorf("a body starting with a heading has no empty first section: %q", got)
	}
}

func TestExcerpt(t *testing.T) {
	text := strings.Repeat("word ", 100) + "needle " + strings.Repeat("ünïcode ", 100)
	for _, at := range []int{0, strings.Index(text, "needle"), len(text) - 1} {
		e := Excerpt(text, at, 120)
		if len(e) > 120+2*len("…") || !utf8.ValidString(e) {
			t.Errorf("at %d: %q", at, e)
		}
		if at > 0 && at < len(text)-1 && !strings.Contains(e, "needle") {
			t.Errorf("at %d: the match is not in %q", at, e)
		}
	}
	if e := Excerpt("short text", 3, 120); e != "short text" {
		t.Errorf("a short text is whole: %q", e)
	}
}
