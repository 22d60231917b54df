package gitstate_test

import (
	"testing"

	"github.com/galleydocs/galley/shared/gitsync/gitstate"
	"github.com/galleydocs/galley/shared/model"
)

// Edit URLs are made for https github.com and gitlab.com repositories
// only, without credentials or ".git"; a page's synced file wins over the
// file it knows; the docs' root prefixes both.
func TestEditorURLs(t *testing.T) {
	synced := []model.SyncedFile{{Path: "guide/start.md", Page: "p1"}, {Path: "SUMMARY.md"}, {Path: ".gitbook/assets/a.png", File: "f1"}}
	for _, c := range []struct {
		url, ref, dir, page, file string
		want                      string
	}{
		{"https://github.com/acme/docs", "refs/heads/main", "", "p1", "x.md", "https://github.com/acme/docs/edit/main/guide/start.md"},
		{"https://github.com/acme/docs.git", "refs/heads/main", "", "p2", "new/page.md", "https://github.com/acme/docs/edit/main/new/page.md"},
		{"https://x-access-token:s3cret@github.com/acme/docs.git", "refs/heads/release/v2", "docs", "p1", "", "https://github.com/acme/docs/edit/release/v2/docs/guide/start.md"},
		{"https://gitlab.com/acme/team/docs.git", "refs/heads/main", "", "p2", "a b/Ünï.md", "https://gitlab.com/acme/team/docs/-/edit/main/a%20b/%C3%9Cn%C3%AF.md"},
		{"https://oauth2:tok@gitlab.com/acme/docs", "refs/heads/main", "", "p1", "", "https://gitlab.com/acme/docs/-/edit/main/guide/start.md"},
		{"http://github.com/acme/docs", "refs/heads/main", "", "p1", "", ""},
		{"https://github.com:8443/acme/docs", "refs/heads/main", "", "p1", "", ""},
		{"https://github.example.com/acme/docs", "refs/heads/main", "", "p1", "", ""},
		{"https://bitbucket.org/acme/docs", "refs/heads/main", "", "p1", "", ""},
		{"https://github.com/acme", "refs/heads/main", "", "p1", "", ""},
		{"https://github.com/acme/docs/extra", "refs/heads/main", "", "p1", "", ""},
		{"https://github.com/acme/docs?x=1", "refs/heads/main", "", "p1", "", ""},
		{"https://github.com/acme/docs", "refs/tags/v1", "", "p1", "", ""},
		{"https://github.com/acme/docs", "refs/heads/main", "", "p2", "", ""},
		{"https://github.com/acme/docs", "refs/heads/main", "", "p2", "../../etc/passwd", "https://github.com/acme/docs/edit/main/etc/passwd"},
	} {
		st := model.GitSync{SpaceID: "s", LastCommit: "abc", LastURL: c.url, LastRef: c.ref, Dir: c.dir, Synced: synced}
		got := ""
		if e, ok := gitstate.NewEditor(st); ok {
			got = e.URL(c.page, c.file)
		}
		if got != c.want {
			t.Errorf("%s %s %s %q: %q, want %q", c.url, c.ref, c.page, c.file, got, c.want)
		}
	}
	// Never synced: no editor, whatever the last request named.
	if _, ok := gitstate.NewEditor(model.GitSync{URL: "https://github.com/acme/docs", Ref: "refs/heads/main"}); ok {
		t.Error("a state that never synced has an editor")
	}
}
