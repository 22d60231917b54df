package gitsync_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/galleydocs/galley/shared/gitsync"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/queue"
)

// raceTheExport runs the queued jobs and, when an export sends its push
// (the receive-pack POST, after it fetched the branch and read its
// advertisement), commits files to the repository's main first, as
// another client pushing at that moment; it answers that commit.
func (f *fixture) raceTheExport(t *testing.T, name string, files map[string]string) string {
	t.Helper()
	at, resume := make(chan struct{}), make(chan struct{})
	var once sync.Once
	gate := func(r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/git-receive-pack") {
			once.Do(func() { at <- struct{}{}; <-resume })
		}
	}
	f.git.gate.Store(&gate)
	defer f.git.gate.Store(nil)
	h := map[string]queue.Handler{gitsync.ImportKind: f.svc.Handle, gitsync.ExportKind: f.svc.Handle}
	done := make(chan error, 1)
	go func() { done <- f.queue.Drain(context.Background(), h) }()
	select {
	case <-at:
	case err := <-done:
		t.Fatalf("the jobs ended without pushing (%v)", err)
	}
	theirs := f.git.commit(t, name, "Edit the guide in Git meanwhile", files)
	close(resume)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	return theirs
}

// A merge's export whose push the server refuses because the branch moved
// after the export fetched it is a conflict like one found at the fetch:
// nothing pushed over the new commit, the commit proposed as a change
// request against the last sync, and merging that request exports both.
func TestBranchMovedDuringThePushBecomesAConflict(t *testing.T) {
	f := setup(t)
	bare, sp := f.syncedThreeFiles(t)
	last := f.gitState(t, sp)

	cr := f.propose(t, sp, "admin", "Edit the FAQ", appendTo("faq.md", "\nFrom Galley.\n"))
	f.merge(t, sp, "admin", cr.ID)
	theirs := f.raceTheExport(t, "repo", map[string]string{"guide.md": "# Guide\n\nRead me, from Git.\n"})

	if got := strings.TrimSpace(gitOK(bare, "rev-parse", "main")); got != theirs {
		t.Fatalf("the branch is at %s, want the concurrent commit %s", got, theirs)
	}
	if st := f.gitState(t, sp); st.LastCommit != last.LastCommit || st.LastRevision != last.LastRevision {
		t.Fatalf("the last sync moved from %s to %s", last.LastCommit, st.LastCommit)
	}
	conflict, pages := f.openConflict(t, sp, theirs)
	if !strings.Contains(bodyAt(pages, "guide"), "from Git") {
		t.Fatalf("the request's guide %q", bodyAt(pages, "guide"))
	}

	f.merge(t, sp, "admin", conflict.ID)
	f.work(t)
	f.succeeded(t, sp, "export after the conflict")
	head := strings.TrimSpace(gitOK(bare, "rev-parse", "main"))
	if parent := strings.TrimSpace(gitOK(bare, "rev-parse", head+"^")); parent != theirs {
		t.Fatalf("the export's parent is %s, want the concurrent commit %s", parent, theirs)
	}
	for file, want := range map[string]string{"guide.md": "from Git", "faq.md": "From Galley"} {
		if got := gitOK(bare, "show", head+":"+file); !strings.Contains(got, want) {
			t.Errorf("%s after the conflict: %q, want %q in it", file, got, want)
		}
	}
}

// An export asked for by hand whose push is refused because the branch
// moved fails as the conflict it is (never pushed over), not as a
// transport error.
func TestBranchMovedDuringAnExportOnRequestFailsAsAConflict(t *testing.T) {
	f := setup(t)
	bare := f.git.repo(t, "repo", map[string]string{"README.md": "# Home\n\nWelcome.\n", "guide.md": "# Guide\n\nRead me.\n"})
	sp := f.space(t)
	f.importRepo(t, sp, "repo", nil)
	f.edit(t, sp, f.pageOf(t, sp, "README.md"), func(b string) string { return b + "\nEdited directly.\n" })
	f.As(t, "edit").Expect(http.StatusNoContent, "POST", "/v1/spaces/"+sp+"/git/export",
		map[string]any{"url": f.git.url("repo"), "ref": "refs/heads/main", "commitMessage": "Export"})
	theirs := f.raceTheExport(t, "repo", map[string]string{"guide.md": "# Guide\n\nRead me, from Git.\n"})

	if got := strings.TrimSpace(gitOK(bare, "rev-parse", "main")); got != theirs {
		t.Fatalf("the branch is at %s, want the concurrent commit %s", got, theirs)
	}
	st := f.gitState(t, sp)
	if op := st.Operation; op == nil || op.State != model.GitFailure || op.Code != model.GitErrConflict || !strings.Contains(op.Error, "moved while the export pushed") {
		t.Fatalf("operation %+v", op)
	}
	if st.Conflict != nil {
		t.Fatalf("an export on request proposed a change request: %+v", st.Conflict)
	}
}
