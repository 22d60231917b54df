package document

import (
	"fmt"
	"testing"
)

func TestExtractLinks(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       []RawLink
	}{
		{"LinksAndImagesInOrderUnderTheirHeading", "[a](a.md) ![i](/files/f)\n\n## Set up\n\n[b](https://x.test \"title\")\n",
			[]RawLink{{Href: "a.md"}, {Href: "/files/f", Image: true}, {Href: "https://x.test", Anchor: "set-up"}}},
		{"NoneInCodeBlocksOrCodeSpans", "```md\n[a](a.md)\n```\n`[b](b.md)` [c](c.md)\n", []RawLink{{Href: "c.md"}}},
		{"NoneWhenEscapedOrUnclosed", "\\[a](a.md) [b](b.md\n", nil},
		{"AnImageInsideALink", "[![i](/files/f)](page.md)\n", []RawLink{{Href: "/files/f", Image: true}, {Href: "page.md"}}},
		{"NoneInPlainText", "Just words [and brackets].\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ExtractLinks(tc.body); fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}
