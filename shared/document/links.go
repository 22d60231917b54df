package document

import "strings"

// RawLink is a link or an image of a page body as written.
type RawLink struct {
	Href  string `json:"h"`
	Image bool   `json:"i,omitempty"`
	// Anchor is the id of the heading the link is under ("" above the
	// first heading).
	Anchor string `json:"a,omitempty"`
	// Include: the link is an include's target as written ({% include
	// "<Href>" %}), read from the page's file.
	Include bool `json:"n,omitempty"`
}

// ExtractLinks returns the links and images of a markdown body, in order.
// Code blocks and code spans hold none.
func ExtractLinks(body string) []RawLink {
	var out []RawLink
	anchor := ""
	fence := ""
	for _, line := range strings.Split(body, "\n") {
		t := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		}
		if m := reFence.FindStringSubmatch(line); m != nil {
			fence = m[1]
			continue
		}
		if m := reHeading.FindStringSubmatch(t); m != nil {
			anchor = HeadingID(m[2])
		}
		for i := 0; i < len(line); i++ {
			switch c := line[i]; {
			case c == '\\':
				i++
			case c == '`':
				n := 1
				for i+n < len(line) && line[i+n] == '`' {
					n++
				}
				if end := strings.Index(line[i+n:], strings.Repeat("`", n)); end >= 0 {
					i += n + end + n - 1
				} else {
					i += n - 1
				}
			case c == '[':
				label, target, end, ok := closing(line, i)
				if !ok {
					continue
				}
				image := i > 0 && line[i-1] == '!'
				// A link's label may hold an image ([![alt](img)](target)).
				for _, l := range ExtractLinks(label) {
					l.Anchor = anchor
					out = append(out, l)
				}
				if target != "" {
					out = append(out, RawLink{Href: target, Image: image, Anchor: anchor})
				}
				i = end - 1
			}
		}
	}
	return out
}
