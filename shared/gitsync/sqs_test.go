package gitsync_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/galleydocs/galley/shared/gitsync/gitstate"
	"github.com/galleydocs/galley/shared/queue/sqsqueue"
	"github.com/galleydocs/galley/shared/testkit"
)

// deliverTwice runs the one message of the FIFO queue through
// sqsqueue.Handler twice (SQS delivering it again, as after a visibility
// timeout whose worker's delete was lost), then deletes it.
func deliverTwice(t *testing.T, f *fixture, w *testkit.SQSWorker) {
	t.Helper()
	h := sqsqueue.Handler(f.svc.Handlers())
	for i := range 2 {
		ev, msgs := w.Receive(t)
		if len(msgs) != 1 {
			t.Fatalf("delivery %d: %d messages, want 1", i+1, len(msgs))
		}
		if res, err := h(context.Background(), ev); err != nil || len(res.BatchItemFailures) != 0 {
			t.Fatalf("delivery %d: %+v %v", i+1, res, err)
		}
	}
	if n, _ := w.Deliver(t, f.svc.Handlers()); n != 1 {
		t.Fatalf("%d messages at the third receive, want the same one", n)
	}
	if n, _ := w.Deliver(t, f.svc.Handlers()); n != 0 {
		t.Fatalf("%d messages left", n)
	}
}

// Every Git job kind, on DynamoDB Local, sent to a FIFO queue of moto's
// SQS and delivered twice through the worker's handler: one revision per
// import, one commit per export, for a space and for a site.
func TestSQSDuplicateDeliveryOfEveryGitJob(t *testing.T) {
	f := setupOn(t, testkit.NewOn(t, testkit.DynamoStore(t)))
	w := testkit.NewSQSWorker(t, true)
	f.Kit.Deps.Queue = w.Queue
	ctx := f.Kit.Ctx

	// git-import: one revision on top of the head.
	f.git.repo(t, "docs", map[string]string{"README.md": "# Docs\n\nHello.\n", "guide.md": "# Guide\n\nSteps.\n"})
	sp := f.space(t)
	before := f.Kit.Head(t, sp)
	f.As(t, "edit").Expect(http.StatusNoContent, "POST", "/v1/spaces/"+sp+"/git/import", map[string]any{"url": f.git.url("docs"), "ref": "refs/heads/main"})
	deliverTwice(t, f, w)
	f.succeeded(t, sp, "import")
	head, _, _ := f.head(t, sp)
	st, _, err := gitstate.Get(ctx, f.Kit.Deps.Store, sp)
	if err != nil {
		t.Fatal(err)
	}
	if head.ID != st.LastRevision || len(head.Parents) != 1 || head.Parents[0] != before || st.Lease != nil {
		t.Errorf("import delivered twice: head %s (parents %v), state's %s, before %s, lease %v", head.ID, head.Parents, st.LastRevision, before, st.Lease)
	}

	// git-export: one commit.
	f.editFirstPage(t, sp, "More.")
	bare := f.git.root + "/docs.git"
	tip := git(t, bare, "rev-parse", "refs/heads/main")
	f.As(t, "edit").Expect(http.StatusNoContent, "POST", "/v1/spaces/"+sp+"/git/export",
		map[string]any{"url": f.git.url("docs"), "ref": "refs/heads/main", "commitMessage": "Export"})
	deliverTwice(t, f, w)
	f.succeeded(t, sp, "export")
	if n := git(t, bare, "rev-list", "--count", tip+"..refs/heads/main"); n != "1" {
		t.Errorf("export delivered twice: %s commits, want 1", n)
	}

	// git-site-import: each space's content once; git-site-export: one commit.
	site := f.git.repo(t, "site", siteFiles())
	siteID := f.newSite(t)
	f.As(t, "admin").Expect(http.StatusNoContent, "POST", "/v1/orgs/"+f.Org.ID+"/sites/"+siteID+"/git/import", map[string]any{"url": f.git.url("site"), "ref": "refs/heads/main"})
	deliverTwice(t, f, w)
	sst := f.siteState(t, siteID)
	if sst.Operation == nil || sst.Operation.State != "success" {
		t.Fatalf("site import: %+v", sst.Operation)
	}
	guide := sst.Nodes["guide-en"].SpaceID
	gh, _, _ := f.head(t, guide)
	if gst, _, _ := gitstate.Get(ctx, f.Kit.Deps.Store, guide); gh.ID != gst.LastRevision || len(gh.Parents) != 1 || gst.Lease != nil {
		t.Errorf("site import delivered twice: head %s (parents %v), state's %s, lease %v", gh.ID, gh.Parents, gst.LastRevision, gst.Lease)
	}
	f.editFirstPage(t, guide, "More English.")
	siteTip := git(t, site, "rev-parse", "refs/heads/main")
	f.As(t, "admin").Expect(http.StatusNoContent, "POST", "/v1/orgs/"+f.Org.ID+"/sites/"+siteID+"/git/export",
		map[string]any{"url": f.git.url("site"), "ref": "refs/heads/main", "commitMessage": "Export the site"})
	deliverTwice(t, f, w)
	if n := git(t, site, "rev-list", "--count", siteTip+"..refs/heads/main"); n != "1" {
		t.Errorf("site export delivered twice: %s commits, want 1", n)
	}
}
