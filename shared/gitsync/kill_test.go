package gitsync_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/gitsync/gitjob"
	"github.com/galleydocs/galley/shared/gitsync/gitstate"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/queue/sqsqueue"
	"github.com/galleydocs/galley/shared/testkit"
)

// setupKill is the Git family over testkit.Killable: DynamoDB Local, a
// FIFO queue of moto's SQS delivered through sqsqueue.Handler, a worker
// killed between two storage calls, leases expired by jumping the clock.
func setupKill(t *testing.T) *killFixture {
	kl := testkit.NewKillable(t, true)
	f := &killFixture{setupOn(t, kl.Kit, "git", "changerequests"), kl}
	f.Kit.Deps.Queue = f.SQS.Queue
	return f
}

type killFixture struct {
	*fixture
	testkit.Killable
}

// state reads a space's Git Sync state as stored (no read of the API's,
// which may hand its jobs out again).
func (f *killFixture) state(t testing.TB, spaceID string) model.GitSync {
	t.Helper()
	st, _, err := gitstate.Get(context.Background(), f.Kit.Deps.Store, spaceID)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// concluded checks that a space's job ended once and left nothing
// running: the operation a success, the job among the concluded ones, no
// lease, nothing pending, nothing left in the queue.
func (f *killFixture) concluded(t testing.TB, spaceID, what string) {
	t.Helper()
	st := f.state(t, spaceID)
	op := st.Operation
	if op == nil || op.State != model.GitSuccess || !slices.Contains(st.Done, op.JobID) || st.Lease != nil || len(st.Pending) != 0 {
		t.Fatalf("%s: operation %+v, lease %v, pending %v", what, op, st.Lease, st.Pending)
	}
	if n, _ := f.SQS.Deliver(t, f.svc.Handlers()); n != 0 {
		t.Fatalf("%s: %d messages left in the queue", what, n)
	}
}

// killEach asks for a job with start (a new one each time), kills its
// worker after its nth storage call for n = 0, stride, 2×stride... until
// a run needs no more, checks what readers see meanwhile with between,
// then delivers it again and checks its outcome with ended. Every other
// kill also loses the message (past the dead-letter queue): the first
// read of the state after the lease hands the job out again. It answers
// how many storage calls a whole run makes.
func (f *killFixture) killEach(t *testing.T, stride int, start func(n int), read func(), between, ended func(n int)) int {
	t.Helper()
	for n := 0; ; n += stride {
		start(n)
		f.Killer.Arm(n)
		_, failed := f.SQS.Deliver(t, f.svc.Handlers())
		calls, refused := f.Killer.Calls()
		f.Killer.Disarm()
		if refused == 0 {
			if len(failed) != 0 {
				t.Fatalf("a whole run of %d calls failed: %v", calls, failed)
			}
			ended(n)
			return calls
		}
		if len(failed) == 0 {
			// Killed after its outcome was written, in a step whose
			// failure the job only logs (an import's site redirects).
			ended(n)
			continue
		}
		between(n)
		if n/stride%2 == 1 {
			f.SQS.Purge(t)
			read() // within the lease: nothing sent
			if got, _ := f.SQS.Deliver(t, f.svc.Handlers()); got != 0 {
				t.Fatalf("killed after %d calls: a read within the lease sent %d jobs", n, got)
			}
			f.Clock.Jump(gitjob.LeaseTTL)
			read()
		}
		if got, failed := f.SQS.Deliver(t, f.svc.Handlers()); got != 1 || len(failed) != 0 {
			t.Fatalf("killed after %d calls, delivered again: %d messages, failed %v", n, got, failed)
		}
		ended(n)
	}
}

// A space's import and export (of a page edited or added), their worker
// killed after each storage
// call (each is a step boundary), then delivered again (or, the message
// lost, handed out again by a read after the lease): each import lands
// one revision on the head it started from, each export pushes one
// commit; meanwhile readers see the head before or the whole import, and
// after, nothing running.
func TestGitJobsKilledAtEachStepEndOnce(t *testing.T) {
	f := setupKill(t)
	f.git.repo(t, "docs", map[string]string{"README.md": "# Docs\n\nHello.\n", "guide.md": "# Guide\n\nSteps.\n"})
	var sp, before string
	info := func() { f.info(t, sp) }
	calls := f.killEach(t, 1, func(int) {
		sp = f.space(t)
		before = f.Kit.Head(t, sp)
		f.As(t, "edit").Expect(http.StatusNoContent, "POST", "/v1/spaces/"+sp+"/git/import", map[string]any{"url": f.git.url("docs"), "ref": "refs/heads/main"})
	}, info, func(n int) {
		head, _, _ := f.head(t, sp)
		if st := f.state(t, sp); head.ID != before && (head.ID != st.LastRevision || st.Operation.State != model.GitSuccess) {
			t.Fatalf("import killed after %d calls: head %s, the state's %s (%s)", n, head.ID, st.LastRevision, st.Operation.State)
		}
	}, func(n int) {
		f.concluded(t, sp, "import")
		head, _, _ := f.head(t, sp)
		if st := f.state(t, sp); head.ID != st.LastRevision || !slices.Equal(head.Parents, []string{before}) {
			t.Fatalf("import killed after %d calls: head %s (parents %v), the state's %s, before %s", n, head.ID, head.Parents, st.LastRevision, before)
		}
	})
	t.Logf("an import makes %d storage calls; killed after each", calls)

	bare := f.git.root + "/docs.git"
	var tip string
	calls = f.killEach(t, 1, func(n int) {
		if n%2 == 0 {
			f.editFirstPage(t, sp, fmt.Sprint("Edit ", n))
		} else {
			f.addPage(t, sp, fmt.Sprint("Page ", n))
		}
		tip = git(t, bare, "rev-parse", "refs/heads/main")
		f.As(t, "edit").Expect(http.StatusNoContent, "POST", "/v1/spaces/"+sp+"/git/export",
			map[string]any{"url": f.git.url("docs"), "ref": "refs/heads/main", "commitMessage": "Export"})
	}, info, func(int) {}, func(n int) {
		f.concluded(t, sp, "export")
		if c := git(t, bare, "rev-list", "--count", tip+"..refs/heads/main"); c != "1" {
			t.Fatalf("export killed after %d calls: %s commits, want 1", n, c)
		}
		if st := f.state(t, sp); st.LastCommit != git(t, bare, "rev-parse", "refs/heads/main") {
			t.Fatalf("export killed after %d calls: the state's commit %s is not the branch's", n, st.LastCommit)
		}
	})
	t.Logf("an export makes %d storage calls; killed after each", calls)
}

// A job whose lease expires GitMaxHandOuts+1 times without an outcome
// (its worker killed each time and its message lost) is concluded failed
// as interrupted by the read after the last lease: git/info shows it
// failed, not running, and a late delivery of it changes nothing.
func TestGitJobLostForGoodFailsVisibly(t *testing.T) {
	f := setupKill(t)
	f.git.repo(t, "docs", map[string]string{"README.md": "# Docs\n\nHello.\n"})
	sp := f.space(t)
	before := f.Kit.Head(t, sp)
	f.As(t, "edit").Expect(http.StatusNoContent, "POST", "/v1/spaces/"+sp+"/git/import", map[string]any{"url": f.git.url("docs"), "ref": "refs/heads/main"})
	ev, _ := f.SQS.Receive(t) // kept for a late delivery
	for i := 0; i <= model.GitMaxHandOuts; i++ {
		f.SQS.Purge(t)
		f.Clock.Jump(gitjob.LeaseTTL)
		got := f.info(t, sp)
		op := got["operation"].(map[string]any)
		pending := got["galleySync"].(map[string]any)["pending"].([]any)
		if i < model.GitMaxHandOuts {
			if op["state"] != "running" || len(pending) != 1 || pending[0].(map[string]any)["handedOut"] != float64(i+1) {
				t.Fatalf("lease %d expired: operation %v, pending %v", i+1, op, pending)
			}
			continue
		}
		last := got["galleySync"].(map[string]any)["lastImport"].(map[string]any)
		if op["state"] != "failure" || len(pending) != 0 || last["problem"] != model.GitErrInterrupted {
			t.Fatalf("lease expired for good: operation %v, pending %v, last import %v", op, pending, last)
		}
	}
	if n, _ := f.SQS.Deliver(t, f.svc.Handlers()); n != 0 {
		t.Fatalf("%d jobs sent after the job was given up", n)
	}
	if res, err := sqsqueue.Handler(f.svc.Handlers())(context.Background(), ev); err != nil || len(res.BatchItemFailures) != 0 {
		t.Fatalf("late delivery: %+v %v", res, err)
	}
	if head := f.Kit.Head(t, sp); head != before {
		t.Errorf("a late delivery of the job given up imported: head %s, was %s", head, before)
	}
	if st := f.state(t, sp); st.Operation.State != model.GitFailure || st.Lease != nil {
		t.Errorf("after the late delivery: %+v, lease %v", st.Operation, st.Lease)
	}
}

// An export killed after it kept its push intent (the blob
// spaces/<id>/git-pushes/<jobId>), whose lease then expires for good: the
// intent stays while the job may still be handed out, and is deleted when
// the job is concluded interrupted (no blob left for ever).
func TestInterruptedExportDropsItsPushIntent(t *testing.T) {
	f := setupKill(t)
	f.git.repo(t, "docs", map[string]string{"README.md": "# Docs\n\nHello.\n"})
	sp := f.space(t)
	f.As(t, "edit").Expect(http.StatusNoContent, "POST", "/v1/spaces/"+sp+"/git/import", map[string]any{"url": f.git.url("docs"), "ref": "refs/heads/main"})
	if n, failed := f.SQS.Deliver(t, f.svc.Handlers()); n != 1 || len(failed) != 0 {
		t.Fatalf("import: %d messages, failed %v", n, failed)
	}
	f.addPage(t, sp, "Kept")
	f.As(t, "edit").Expect(http.StatusNoContent, "POST", "/v1/spaces/"+sp+"/git/export",
		map[string]any{"url": f.git.url("docs"), "ref": "refs/heads/main", "commitMessage": "Export"})
	pending := f.state(t, sp).Pending
	if len(pending) != 1 {
		t.Fatalf("pending %v, want the export", pending)
	}
	key := "spaces/" + sp + "/git-pushes/" + pending[0].JobID
	intent := func() bool {
		t.Helper()
		_, err := f.Kit.Deps.Blobs.Get(context.Background(), key)
		if err != nil && !errors.Is(err, blob.ErrNotFound) {
			t.Fatal(err)
		}
		return err == nil
	}
	// Killed after its nth storage call, n = 0, 1, ... until the intent
	// is kept (the message delivered again each time).
	for n := 0; !intent(); n++ {
		f.Killer.Arm(n)
		_, failed := f.SQS.Deliver(t, f.svc.Handlers())
		_, refused := f.Killer.Calls()
		f.Killer.Disarm()
		if refused == 0 || len(failed) == 0 {
			t.Fatalf("the export ran whole after %d calls without its intent kept", n)
		}
	}
	for i := 0; i <= model.GitMaxHandOuts; i++ {
		f.SQS.Purge(t)
		f.Clock.Jump(gitjob.LeaseTTL)
		op := f.info(t, sp)["operation"].(map[string]any)
		if i < model.GitMaxHandOuts && (op["state"] != "running" || !intent()) {
			t.Fatalf("lease %d expired: operation %v, intent kept %v; want running and kept", i+1, op, intent())
		}
		if i == model.GitMaxHandOuts && (op["state"] != "failure" || intent()) {
			t.Fatalf("lease expired for good: operation %v, intent kept %v; want failure and no intent", op, intent())
		}
	}
	if st := f.state(t, sp); st.Operation.Code != model.GitErrInterrupted || len(st.Pending) != 0 {
		t.Errorf("the export's outcome %+v, pending %v; want interrupted, nothing pending", st.Operation, st.Pending)
	}
}

// A site's import and export (docs.yaml, three spaces; each export of a
// page edited or added), their worker
// killed after every third storage call, then delivered again (or handed
// out again by a read after the lease): each ends a success once, each
// space's content imported once, one commit per export, no space left
// leased.
func TestSiteGitJobsKilledMidwayEndOnce(t *testing.T) {
	f := setupKill(t)
	site := f.git.repo(t, "site", siteFiles())
	var siteID string
	info := func() {
		f.As(t, "admin").Expect(http.StatusOK, "GET", "/v1/orgs/"+f.Org.ID+"/sites/"+siteID+"/git/info", nil)
	}
	concluded := func(what string, n int) model.SiteGitSync {
		t.Helper()
		sst := f.siteState(t, siteID)
		if sst.Operation == nil || sst.Operation.State != model.GitSuccess || len(sst.Pending) != 0 {
			t.Fatalf("%s killed after %d calls: %+v, pending %v", what, n, sst.Operation, sst.Pending)
		}
		for key, node := range sst.Nodes {
			if node.SpaceID == "" {
				continue
			}
			if st := f.state(t, node.SpaceID); st.Lease != nil {
				t.Fatalf("%s killed after %d calls: space %s left leased: %v", what, n, key, st.Lease)
			}
		}
		if got, _ := f.SQS.Deliver(t, f.svc.Handlers()); got != 0 {
			t.Fatalf("%s: %d messages left in the queue", what, got)
		}
		return sst
	}
	calls := f.killEach(t, 3, func(int) {
		siteID = f.newSite(t)
		f.As(t, "admin").Expect(http.StatusNoContent, "POST", "/v1/orgs/"+f.Org.ID+"/sites/"+siteID+"/git/import", map[string]any{"url": f.git.url("site"), "ref": "refs/heads/main"})
	}, info, func(int) {}, func(n int) {
		sst := concluded("site import", n)
		guide := sst.Nodes["guide-en"].SpaceID
		gh, pages, _ := f.head(t, guide)
		if gst := f.state(t, guide); gh.ID != gst.LastRevision || len(gh.Parents) != 1 || len(pages) == 0 {
			t.Fatalf("site import killed after %d calls: head %s (parents %v, %d pages), the state's %s", n, gh.ID, gh.Parents, len(pages), gst.LastRevision)
		}
	})
	t.Logf("a site import makes %d storage calls; killed after every third", calls)

	guide := f.siteState(t, siteID).Nodes["guide-en"].SpaceID
	var tip string
	calls = f.killEach(t, 3, func(n int) {
		if n/3%2 == 0 {
			f.editFirstPage(t, guide, fmt.Sprint("Edit ", n))
		} else {
			f.addPage(t, guide, fmt.Sprint("Page ", n))
		}
		tip = git(t, site, "rev-parse", "refs/heads/main")
		f.As(t, "admin").Expect(http.StatusNoContent, "POST", "/v1/orgs/"+f.Org.ID+"/sites/"+siteID+"/git/export",
			map[string]any{"url": f.git.url("site"), "ref": "refs/heads/main", "commitMessage": "Export the site"})
	}, info, func(int) {}, func(n int) {
		concluded("site export", n)
		if c := git(t, site, "rev-list", "--count", tip+"..refs/heads/main"); c != "1" {
			t.Fatalf("site export killed after %d calls: %s commits, want 1", n, c)
		}
	})
	t.Logf("a site export makes %d storage calls; killed after every third", calls)
}

// addPage adds a page titled title to a space through a merged change
// request.
func (f *fixture) addPage(t *testing.T, spaceID, title string) {
	t.Helper()
	crs := "/v1/spaces/" + spaceID + "/change-requests"
	c := f.As(t, "edit")
	n := c.Expect(http.StatusCreated, "POST", crs, map[string]any{"subject": title}).Map(t)["number"].(float64)
	cr := fmt.Sprintf("%s/%d", crs, int(n))
	c.Expect(http.StatusOK, "POST", cr+"/content?compat=false", map[string]any{"changes": []map[string]any{
		{"operation": "insert_page", "ref": "p", "document": map[string]any{"markdown": "# " + title + "\n\nText of " + title + ".\n"}}}})
	f.As(t, "admin").Expect(http.StatusOK, "POST", cr+"/merge", nil)
}
