package gitsync_test

import (
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/gitsync/gitstate"
)

// The synced files live in a blob the state names (SyncedList), not in
// the state's record; a state written before, with the list inline, is
// still read: its export deletes the file of a page it moved (a file is
// deleted only when it is among the synced ones), and the export moves
// the list into a blob.
func TestStateWithTheSyncedFilesInlineStillExports(t *testing.T) {
	f := setup(t)
	bare := f.git.repo(t, "docs", map[string]string{
		"README.md": "# Home\n\nSee the [guide](guide.md).\n",
		"guide.md":  "# Guide\n\nSteps.\n",
	})
	sp, _, ix := f.importNew(t, "docs", nil)
	ctx, store, blobs := f.Kit.Ctx, f.Kit.Deps.Store, f.Kit.Deps.Blobs
	st, v, err := gitstate.Get(ctx, store, sp)
	if err != nil {
		t.Fatal(err)
	}
	if st.SyncedList == "" || st.Synced != nil {
		t.Fatalf("after an import: list %q, inline %v; want a list's blob and nothing inline", st.SyncedList, st.Synced)
	}
	files, err := gitstate.ReadSynced(ctx, blobs, sp, st.SyncedList)
	if err != nil || len(files) != 2 {
		t.Fatalf("synced files %+v (%v)", files, err)
	}
	// As a state written before the list moved: inline, and no blob.
	if err := blobs.Delete(ctx, gitstate.SyncedKey(sp, st.SyncedList)); err != nil {
		t.Fatal(err)
	}
	st.Synced, st.SyncedList = files, ""
	if err := store.Write(ctx, gitstate.WriteOp(st, v)); err != nil {
		t.Fatal(err)
	}

	guide := ix.ByPath("guide").ID
	f.editPage(t, sp, guide, func(p *content.Page, _ *content.Index) { p.Slug = "steps" })
	f.exportTo(t, sp, "docs", "move the guide", nil)
	tree := strings.Fields(gitOK(bare, "ls-tree", "-r", "--name-only", "main"))
	if strings.Join(tree, " ") != "README.md SUMMARY.md steps.md" {
		t.Errorf("files after the export: %v; want guide.md moved to steps.md", tree)
	}
	st, _, err = gitstate.Get(ctx, store, sp)
	if err != nil {
		t.Fatal(err)
	}
	if st.SyncedList == "" || st.Synced != nil {
		t.Fatalf("after the export: list %q, inline %v", st.SyncedList, st.Synced)
	}
	if !syncedPage(t, f, st, guide, "steps.md") {
		t.Errorf("the moved page's synced file is not steps.md")
	}
}
