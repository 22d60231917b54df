package gitstate_test

import (
	"testing"

	"github.com/galleydocs/galley/shared/gitsync/gitstate"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/testkit"
)

// Editors read the synced files from the state's blob and keep them by
// the blob's name: a second page's link reads no blob; a list past the
// bound is read each time; a state with its list inline (written before
// the blob) still gives its links.
func TestEditorsKeepTheSyncedFilesOfABlob(t *testing.T) {
	k := testkit.New(t)
	blobs := &testkit.CountingBlobs{Store: k.Deps.Blobs}
	synced := []model.SyncedFile{{Path: "guide/start.md", Page: "p1"}, {Path: "api.md", Page: "p2"}, {Path: "SUMMARY.md"}}
	write := func(spaceID string, st model.GitSync) {
		t.Helper()
		st.SpaceID, st.LastCommit, st.LastURL, st.LastRef = spaceID, "abc", "https://github.com/acme/docs", "refs/heads/main"
		if err := k.Deps.Store.Write(k.Ctx, gitstate.WriteOp(st, 0)); err != nil {
			t.Fatal(err)
		}
	}
	list, err := gitstate.PutSynced(k.Ctx, blobs, "s1", synced)
	if err != nil {
		t.Fatal(err)
	}
	write("s1", model.GitSync{SyncedList: list})
	write("s2", model.GitSync{Synced: synced}) // inline, as before

	url := func(es *gitstate.Editors, spaceID, page string) string {
		t.Helper()
		e, ok, err := es.Of(k.Ctx, spaceID)
		if err != nil || !ok {
			t.Fatalf("%s: editor %v (%v)", spaceID, ok, err)
		}
		return e.URL(page, "")
	}
	es := gitstate.NewEditors(k.Deps.Store, blobs, 100)
	blobs.Reset()
	for _, c := range []struct{ space, page, want string }{
		{"s1", "p1", "https://github.com/acme/docs/edit/main/guide/start.md"},
		{"s1", "p2", "https://github.com/acme/docs/edit/main/api.md"},
		{"s2", "p1", "https://github.com/acme/docs/edit/main/guide/start.md"},
		{"s2", "p3", ""},
	} {
		if got := url(es, c.space, c.page); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.space, c.page, got, c.want)
		}
	}
	if n := blobs.Gets.Load(); n != 1 {
		t.Errorf("%d blob reads for two links of one list; want 1", n)
	}

	small := gitstate.NewEditors(k.Deps.Store, blobs, 1) // the list's 2 pages do not fit
	blobs.Reset()
	url(small, "s1", "p1")
	url(small, "s1", "p1")
	if n := blobs.Gets.Load(); n != 2 {
		t.Errorf("%d blob reads past the bound; want 2", n)
	}
}
