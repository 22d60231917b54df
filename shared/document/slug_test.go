package document

import (
	"strings"
	"testing"
)

func TestSlug(t *testing.T) {
	for _, tc := range []struct{ in, fallback, want string }{
		{"Getting Started", "page", "getting-started"},
		{"  API: v2 / Errors ", "page", "api-v2-errors"},
		{"???", "page", "page"},
		{"???", "space", "space"},
		{"Überblick", "page", "überblick"},
		// The character that brings it to MaxSlug bytes ends it.
		{strings.Repeat("a", 99) + " bc d", "page", strings.Repeat("a", 99) + "-b"},
	} {
		if got := Slug(tc.in, tc.fallback); got != tc.want {
			t.Errorf("Slug(%q, %q) = %q, want %q", tc.in, tc.fallback, got, tc.want)
		}
	}
}

func TestHeadingIDAndHeadingAnchorDiffer(t *testing.T) {
	for _, tc := range []struct{ in, id, anchor string }{
		{"Set up", "set-up", "set-up"},
		{"Café au lait!", "", "café-au-lait"},
		{"Page", "", "page"},
		{"???", "", ""},
		{"v2.0 — notes", "v2-0-notes", "v2-0-—-notes"},
	} {
		if got := HeadingID(tc.in); got != tc.id {
			t.Errorf("HeadingID(%q) = %q, want %q", tc.in, got, tc.id)
		}
		if got := HeadingAnchor(tc.in); got != tc.anchor {
			t.Errorf("HeadingAnchor(%q) = %q, want %q", tc.in, got, tc.anchor)
		}
	}
}
