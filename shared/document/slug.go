package document

import (
	"strings"
	"unicode"
)

// The slug rules. A page slug and the anchors of headings come from text
// by different rules on purpose (the differences are observable, in page
// paths, in links and in published HTML):
//
//   - Slug: a page's (or a site level's) slug: letters and digits lowered,
//     other runs of characters as one "-".
//   - HeadingID: the anchor that links name a heading by (link checks,
//     search sections): a Slug that is plain ASCII, and never "page".
//   - HeadingAnchor: the id the published reader writes on a heading
//     element: ASCII letters and digits and every non-ASCII character
//     kept, no length limit.

// MaxSlug is the length in bytes a Slug stops growing at.
const MaxSlug = 100

// Slug makes a slug of a title: its letters and digits lower-cased, words
// joined by "-"; fallback when nothing remains. It stops at the character
// that brings it to MaxSlug bytes, so it may end a few bytes past it (a
// dash and a multi-byte letter).
func Slug(title, fallback string) string {
	var b strings.Builder
	dash := false
	for _, r := range title {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(unicode.ToLower(r))
		default:
			dash = true
		}
		if b.Len() >= MaxSlug {
			break
		}
	}
	if b.Len() == 0 {
		return fallback
	}
	return b.String()
}

// HeadingID is the anchor of a heading as links name it ("" when its text
// makes none).
func HeadingID(text string) string {
	if id := Slug(text, ""); reHeadID.MatchString(id) && id != "page" {
		return id
	}
	return ""
}

// HeadingAnchor is the id a published page gives a heading element.
func HeadingAnchor(text string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(text) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c > 127:
			b.WriteRune(c)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}
