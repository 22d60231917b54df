package gitsync_test

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/app/wire/changerequestswire"
	"github.com/galleydocs/galley/shared/changerequests"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/gitsync"
	"github.com/galleydocs/galley/shared/gitsync/gitjob"
	"github.com/galleydocs/galley/shared/gitsync/gitstate"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/store"
)

// syncBoth sets a space's automatic sync (what the sync settings' API
// sets) to both directions with a commit message template.
func (f *fixture) syncBoth(t testing.TB, spaceID, template string) {
	t.Helper()
	err := store.Retry(f.Kit.Ctx, func() error {
		st, v, err := gitstate.Get(f.Kit.Ctx, f.Kit.Deps.Store, spaceID)
		if err != nil {
			return err
		}
		st.Direction, st.CommitTemplate = model.SyncBoth, template
		return f.Kit.Deps.Store.Write(f.Kit.Ctx, gitstate.WriteOp(st, v))
	})
	if err != nil {
		t.Fatal(err)
	}
}

// propose opens a change request as user whose content is the space's
// head changed by fn (nil: no change).
func (f *fixture) propose(t testing.TB, spaceID, user, subject string, fn func(ix *content.Index, body func(string) string, put func(string) string)) model.ChangeRequest {
	t.Helper()
	crs := changerequestswire.Service(f.Root)
	ctx := f.Ctx(user)
	cr, _, err := crs.Create(ctx, spaceID, changerequests.Create{Subject: subject})
	if err != nil {
		t.Fatal(err)
	}
	if fn == nil {
		return cr
	}
	repo := content.NewRepo(f.Kit.Deps)
	_, cr, err = crs.LandOnRequest(ctx, spaceID, cr.ID, f.Users[user].ID,
		func(ctx context.Context, base model.Revision, ix *content.Index) (model.Revision, []store.Op, error) {
			fn(ix, func(doc string) string {
				b, err := repo.Document(ctx, spaceID, doc)
				if err != nil {
					t.Fatal(err)
				}
				return b
			}, func(body string) string {
				h, err := repo.PutDocument(ctx, spaceID, body)
				if err != nil {
					t.Fatal(err)
				}
				return h
			})
			rev, err := repo.NewRevision(ctx, spaceID, content.RevisionEdits, []string{base.ID}, ix)
			return rev, nil, err
		})
	if err != nil {
		t.Fatal(err)
	}
	return cr
}

// appendTo changes the body of the page imported from file rel.
func appendTo(rel, text string) func(ix *content.Index, body func(string) string, put func(string) string) {
	return func(ix *content.Index, body func(string) string, put func(string) string) {
		found := false
		ix.Walk(func(p *content.Page, _ int) bool {
			if !found && p.Git != nil && p.Git.Path == rel {
				c := *p
				c.Document = put(body(p.Document) + text)
				ix.Put(c)
				found = true
			}
			return !found
		})
		if !found {
			panic("no page from " + rel)
		}
	}
}

func (f *fixture) merge(t testing.TB, spaceID, user, crID string) changerequests.Result {
	t.Helper()
	res, err := changerequestswire.Service(f.Root).Merge(f.Ctx(user), spaceID, crID)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func (f *fixture) spaceRecord(t testing.TB, spaceID string) model.Space {
	t.Helper()
	sp, _, err := spaces.ReadLive(f.Kit.Ctx, f.Kit.Deps.Store, spaceID)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

func (f *fixture) gitState(t testing.TB, spaceID string) model.GitSync {
	t.Helper()
	st, _, err := gitstate.Get(f.Kit.Ctx, f.Kit.Deps.Store, spaceID)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// pushImport queues the import a push to the synced branch makes (an
// automatic job, with the credentials the space keeps sealed) and runs it.
func (f *fixture) pushImport(t testing.TB, spaceID string) {
	t.Helper()
	st := f.gitState(t, spaceID)
	raw, err := json.Marshal(gitjob.Payload{SpaceID: spaceID, URL: st.LastURL, Ref: st.LastRef, Auth: st.AuthFor(st.LastURL), Auto: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.queue.Enqueue(f.Kit.Ctx, queue.Job{ID: "push-" + st.LastCommit[:8] + "-" + time.Now().Format("150405.000000000"),
		Kind: gitsync.ImportKind, Group: spaceID, Payload: raw}); err != nil {
		t.Fatal(err)
	}
	f.work(t)
}

// Merging a change request in a space synced both ways pushes exactly one
// commit, authored by the merger and committed by Galley, with the
// template's message; the import its push triggers changes nothing; a
// merge that changes nothing commits nothing. On GitBook's real
// repositories.
func TestMergeExportsOneCommitByTheMerger(t *testing.T) {
	for _, c := range []struct{ name, branch string }{
		{"git-sync-normalization", "master"}, {"gitbook-docs", "main"}, {"sodadata-docs", "main"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ref := map[string]any{"ref": "refs/heads/" + c.branch}
			f := setup(t)
			bare := f.git.fromBundle(t, "repo", fixtureBundle(t, c.name))
			sp := f.space(t)
			f.importRepo(t, sp, "repo", ref)
			f.succeeded(t, sp, "import")
			f.syncBoth(t, sp, "DOCS-{change_request_number}: {change_request_subject} (by {user_name})")
			head0 := strings.TrimSpace(gitOK(bare, "rev-parse", c.branch))

			// A merge without change: no commit.
			empty := f.propose(t, sp, "admin", "Nothing", nil)
			if res := f.merge(t, sp, "admin", empty.ID); res.Result != changerequests.ResultMerge {
				t.Fatalf("merge: %+v", res)
			}
			f.work(t)
			f.succeeded(t, sp, "export of an empty merge")
			if got := strings.TrimSpace(gitOK(bare, "rev-parse", c.branch)); got != head0 {
				t.Fatalf("a merge without change pushed %s", got)
			}

			// A merge with an edit: one commit.
			_, _, ix := f.head(t, sp)
			var rel string
			ix.Walk(func(p *content.Page, _ int) bool {
				if rel == "" && p.Type == content.TypeDocument && p.Document != "" && p.Git != nil {
					rel = p.Git.Path
				}
				return rel == ""
			})
			cr := f.propose(t, sp, "admin", "Improve one page", appendTo(rel, "\nMerged in Galley.\n"))
			start := time.Now()
			res := f.merge(t, sp, "admin", cr.ID)
			f.work(t)
			t.Logf("%s: merge to pushed commit %v", c.name, time.Since(start))
			f.succeeded(t, sp, "export of the merge")
			head1 := strings.TrimSpace(gitOK(bare, "rev-parse", c.branch))
			if n := strings.TrimSpace(gitOK(bare, "rev-list", "--count", head0+".."+head1)); n != "1" {
				t.Fatalf("the merge made %s commits", n)
			}
			admin := f.Users["admin"]
			meta := strings.Split(strings.TrimSpace(gitOK(bare, "log", "-1", "--format=%an%n%ae%n%cn%n%ce%n%s", head1)), "\n")
			want := []string{admin.DisplayName, admin.Email, "Galley", gitjob.CommitterEmail,
				"DOCS-" + strconv.Itoa(cr.Number) + ": Improve one page (by " + admin.DisplayName + ")"}
			if strings.Join(meta, "|") != strings.Join(want, "|") {
				t.Fatalf("commit (author, email, committer, email, subject) %q, want %q", meta, want)
			}
			if changed := strings.TrimSpace(gitOK(bare, "diff", "--name-only", head0, head1)); !strings.HasSuffix(changed, rel) || strings.Contains(changed, "\n") {
				t.Fatalf("the merge changed %q, want only %s", changed, rel)
			}
			st := f.gitState(t, sp)
			if st.LastCommit != head1 || st.LastRevision != res.Revision {
				t.Fatalf("state after the export: commit %s revision %s, want %s %s", st.LastCommit, st.LastRevision, head1, res.Revision)
			}

			// The import the push triggers: no revision, no change request.
			before := f.spaceRecord(t, sp)
			f.pushImport(t, sp)
			f.succeeded(t, sp, "import of Galley's own commit")
			if !slices.Contains(f.gitState(t, sp).Pushed, head1) {
				t.Fatalf("the pushed commit %s is not recorded", head1)
			}
			after := f.spaceRecord(t, sp)
			if after.Revision != before.Revision || after.ChangeRequests != before.ChangeRequests {
				t.Fatalf("importing Galley's own commit: head %s -> %s, requests %d -> %d",
					before.Revision, after.Revision, before.ChangeRequests, after.ChangeRequests)
			}

			// Someone else pushes a commit with the same tree: its import
			// makes no revision and no request, and nothing is pushed back.
			work := t.TempDir()
			git(t, work, "clone", "-q", "-b", c.branch, bare, ".")
			git(t, work, "commit", "-q", "--allow-empty", "-m", "Same tree")
			git(t, work, "push", "-q", "origin", c.branch)
			same := strings.TrimSpace(git(t, work, "rev-parse", "HEAD"))
			f.pushImport(t, sp)
			f.succeeded(t, sp, "import of an unchanged tree")
			if got := f.spaceRecord(t, sp); got.Revision != after.Revision || got.ChangeRequests != after.ChangeRequests {
				t.Fatalf("importing an unchanged tree: head %s -> %s, requests %d -> %d",
					after.Revision, got.Revision, after.ChangeRequests, got.ChangeRequests)
			}
			if got := strings.TrimSpace(gitOK(bare, "rev-parse", c.branch)); got != same {
				t.Fatalf("after importing an unchanged tree the branch is at %s, want %s (nothing pushed)", got, same)
			}
		})
	}
}

// The branch moved and the space changed: the automatic export pushes
// nothing and drops nothing; the branch's commit becomes an open change
// request, git/info says conflict; once that request is merged, one commit
// on top of the branch carries both sides.
func TestConflictBecomesAChangeRequest(t *testing.T) {
	f := setup(t)
	bare, sp := f.syncedThreeFiles(t)
	theirs := f.git.commit(t, "repo", "Edit the guide in Git", map[string]string{"guide.md": "# Guide\n\nRead me, from Git.\n"})

	cr := f.propose(t, sp, "admin", "Edit the FAQ", appendTo("faq.md", "\nFrom Galley.\n"))
	merged := f.merge(t, sp, "admin", cr.ID)
	f.work(t)

	if got := strings.TrimSpace(gitOK(bare, "rev-parse", "main")); got != theirs {
		t.Fatalf("the branch moved from %s to %s: pushed over the repository's commit", theirs, got)
	}
	sp1 := f.spaceRecord(t, sp)
	if sp1.Revision != merged.Revision {
		t.Fatalf("the space's head moved from the merge %s to %s", merged.Revision, sp1.Revision)
	}
	conflict, pages := f.openConflict(t, sp, theirs)
	if !strings.Contains(bodyAt(pages, "guide"), "from Git") || strings.Contains(bodyAt(pages, "faq"), "From Galley") {
		t.Fatalf("the request holds guide %q, faq %q", bodyAt(pages, "guide"), bodyAt(pages, "faq"))
	}
	// Another merge meanwhile waits too.
	more := f.propose(t, sp, "edit", "More", appendTo("README.md", "\nAgain.\n"))
	f.merge(t, sp, "admin", more.ID)
	f.work(t)
	if got := strings.TrimSpace(gitOK(bare, "rev-parse", "main")); got != theirs {
		t.Fatalf("a merge during the conflict pushed %s", got)
	}
	if n := f.spaceRecord(t, sp).ChangeRequests; n != conflict.Number+1 {
		t.Fatalf("%d requests: the waiting export proposed the commit again", n)
	}

	// Merging the request resolves it: one commit over the repository's.
	if res := f.merge(t, sp, "admin", conflict.ID); res.Result != changerequests.ResultMerge {
		t.Fatalf("merge of the conflict request: %+v", res)
	}
	f.work(t)
	f.succeeded(t, sp, "export after the conflict")
	head := strings.TrimSpace(gitOK(bare, "rev-parse", "main"))
	if parent := strings.TrimSpace(gitOK(bare, "rev-parse", head+"^")); parent != theirs {
		t.Fatalf("the export's parent is %s, want the repository's %s", parent, theirs)
	}
	for file, want := range map[string]string{"guide.md": "from Git", "faq.md": "From Galley", "README.md": "Again."} {
		if got := gitOK(bare, "show", head+":"+file); !strings.Contains(got, want) {
			t.Errorf("%s after the conflict: %q, want %q in it", file, got, want)
		}
	}
	if st := f.gitState(t, sp); st.Conflict != nil || st.LastCommit != head {
		t.Fatalf("state after: conflict %+v, last commit %s (head %s)", st.Conflict, st.LastCommit, head)
	}
}

// openConflict checks that the space waits on a conflict over commit:
// recorded in the state, said by git/info, its change request open
// against the last sync's revision; it answers the request and its pages.
func (f *fixture) openConflict(t testing.TB, sp, commit string) (model.ChangeRequest, map[string]snapshotPage) {
	t.Helper()
	st := f.gitState(t, sp)
	if st.Conflict == nil || st.Conflict.Commit != commit {
		t.Fatalf("conflict %+v, want one over %s", st.Conflict, commit)
	}
	op := f.info(t, sp)["operation"].(map[string]any)
	if msg, _ := op["error"].(string); op["state"] != "failure" || !strings.HasPrefix(msg, "conflict: ") || !strings.Contains(msg, "#"+strconv.Itoa(st.Conflict.Number)) {
		t.Fatalf("git/info operation %v", op)
	}
	conflict, _, err := changerequestswire.Service(f.Root).Get(f.Ctx("admin"), sp, st.Conflict.ChangeRequest)
	if err != nil {
		t.Fatal(err)
	}
	if conflict.Status != model.CROpen || conflict.Base() != st.LastRevision {
		t.Fatalf("conflict request %+v (last sync %s)", conflict, st.LastRevision)
	}
	_, pages, _ := f.revision(t, sp, conflict.Revision)
	return conflict, pages
}

// syncedThreeFiles imports a repository "repo" of three pages (README,
// guide, faq) into a new space synced both ways; it answers the bare
// repository and the space.
func (f *fixture) syncedThreeFiles(t testing.TB) (string, string) {
	t.Helper()
	bare := f.git.repo(t, "repo", map[string]string{
		"README.md": "# Home\n\nWelcome.\n", "guide.md": "# Guide\n\nRead me.\n", "faq.md": "# FAQ\n\nAsk.\n"})
	sp := f.space(t)
	f.importRepo(t, sp, "repo", nil)
	f.succeeded(t, sp, "import")
	f.syncBoth(t, sp, "")
	return bare, sp
}

// Overlapping edits: the conflict request's merge answers the conflicts
// (nothing merged), and the space keeps its edit.
func TestConflictingEditsAreShownInTheRequest(t *testing.T) {
	f := setup(t)
	bare := f.git.repo(t, "repo", map[string]string{"README.md": "# Home\n\nWelcome.\n", "guide.md": "# Guide\n\nRead me.\n"})
	sp := f.space(t)
	f.importRepo(t, sp, "repo", nil)
	f.syncBoth(t, sp, "")
	theirs := f.git.commit(t, "repo", "Git's guide", map[string]string{"guide.md": "# Guide\n\nRead me, says Git.\n"})
	cr := f.propose(t, sp, "admin", "Galley's guide", func(ix *content.Index, body func(string) string, put func(string) string) {
		appendTo("guide.md", "")(ix, func(string) string { return "Read me, says Galley.\n" }, put)
	})
	f.merge(t, sp, "admin", cr.ID)
	f.work(t)
	st := f.gitState(t, sp)
	if st.Conflict == nil || strings.TrimSpace(gitOK(bare, "rev-parse", "main")) != theirs {
		t.Fatalf("conflict %+v", st.Conflict)
	}
	res := f.merge(t, sp, "admin", st.Conflict.ChangeRequest)
	if res.Result != changerequests.ResultConflicts || len(res.Conflicts) == 0 {
		t.Fatalf("merging the conflict request: %+v", res)
	}
	_, pages, _ := f.head(t, sp)
	if !strings.Contains(bodyAt(pages, "guide"), "says Galley") {
		t.Fatalf("the space's guide %q", bodyAt(pages, "guide"))
	}
}

// A push while the space has edits not exported yet (the export on merge
// not run, or Git to Galley only): the automatic import proposes the
// commit instead of replacing the space's content.
func TestPushImportWithSpaceEditsBecomesAChangeRequest(t *testing.T) {
	f := setup(t)
	f.git.repo(t, "repo", map[string]string{"README.md": "# Home\n\nWelcome.\n", "guide.md": "# Guide\n\nRead me.\n"})
	sp := f.space(t)
	f.importRepo(t, sp, "repo", nil)
	f.edit(t, sp, f.pageOf(t, sp, "README.md"), func(b string) string { return b + "\nEdited directly.\n" })
	f.git.commit(t, "repo", "Git's guide", map[string]string{"guide.md": "# Guide\n\nRead me, says Git.\n"})
	head := f.spaceRecord(t, sp).Revision
	f.pushImport(t, sp)
	if got := f.spaceRecord(t, sp).Revision; got != head {
		t.Fatalf("the push's import moved the head %s to %s", head, got)
	}
	st := f.gitState(t, sp)
	if st.Conflict == nil {
		t.Fatal("no conflict recorded")
	}
	_, pages, _ := f.revision(t, sp, st.Conflict.Revision)
	if !strings.Contains(bodyAt(pages, "guide"), "says Git") {
		t.Fatalf("the request's guide %q", bodyAt(pages, "guide"))
	}
	cr, _, err := changerequestswire.Service(f.Root).Get(f.Ctx("admin"), sp, st.Conflict.ChangeRequest)
	if err != nil || cr.CreatedBy != f.Users["admin"].ID || cr.Status != model.CROpen {
		t.Fatalf("the request %+v (%v): want open, made by the space's creator", cr, err)
	}
}

// pageOf is the id of the head's page imported from rel.
func (f *fixture) pageOf(t testing.TB, spaceID, rel string) string {
	t.Helper()
	_, _, ix := f.head(t, spaceID)
	id := ""
	ix.Walk(func(p *content.Page, _ int) bool {
		if p.Git != nil && p.Git.Path == rel {
			id = p.ID
		}
		return id == ""
	})
	if id == "" {
		t.Fatalf("no page from %s", rel)
	}
	return id
}

// bodyAt is the body of the page at path among pages (f.revision's).
func bodyAt(pages map[string]snapshotPage, path string) string {
	for _, p := range pages {
		if p.Path == path {
			return p.Body
		}
	}
	return ""
}

// A direct edit of the live space (a revision landed as its head, as a
// content import does) is exported too, authored by its user.
func TestDirectEditIsExported(t *testing.T) {
	f := setup(t)
	bare := f.git.repo(t, "repo", map[string]string{"README.md": "# Home\n\nWelcome.\n", "guide.md": "# Guide\n\nRead me.\n"})
	sp := f.space(t)
	f.importRepo(t, sp, "repo", nil)
	f.syncBoth(t, sp, "")
	head0 := strings.TrimSpace(gitOK(bare, "rev-parse", "main"))
	repo := content.NewRepo(f.Kit.Deps)
	_, _, err := changerequestswire.Service(f.Root).LandOnSpace(f.Ctx("edit"), sp, false,
		func(ctx context.Context, base model.Revision, ix *content.Index) (model.Revision, []store.Op, error) {
			appendTo("guide.md", "\nEdited directly.\n")(ix, func(doc string) string {
				b, _ := repo.Document(ctx, sp, doc)
				return b
			}, func(body string) string {
				h, _ := repo.PutDocument(ctx, sp, body)
				return h
			})
			rev, err := repo.NewRevision(ctx, sp, content.RevisionEdits, []string{base.ID}, ix)
			return rev, nil, err
		})
	if err != nil {
		t.Fatal(err)
	}
	f.work(t)
	head1 := strings.TrimSpace(gitOK(bare, "rev-parse", "main"))
	if n := strings.TrimSpace(gitOK(bare, "rev-list", "--count", head0+".."+head1)); n != "1" {
		t.Fatalf("the edit made %s commits", n)
	}
	u := f.Users["edit"]
	if got, want := strings.TrimSpace(gitOK(bare, "log", "-1", "--format=%ae %s", head1)), u.Email+" Edit in Galley by "+u.DisplayName; got != want {
		t.Fatalf("commit %q, want %q", got, want)
	}
	if !strings.Contains(gitOK(bare, "show", head1+":guide.md"), "Edited directly.") {
		t.Fatal("the edit is not in the commit")
	}
}
