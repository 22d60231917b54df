package imports_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/families"
	"github.com/galleydocs/galley/shared/app/wire/changerequestswire"
	"github.com/galleydocs/galley/shared/changerequests"
	"github.com/galleydocs/galley/shared/gitsync/gitjob"
	"github.com/galleydocs/galley/shared/gitsync/gitstate"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/queue/queuetest"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/testkit"
)

// A direct import into a Git-synced space, served by the imports
// function's own root (as in AWS, without the providers local mode's root
// adds for the other families), queues the space's export on the Git
// queue, as a merge does; an import into a change request queues nothing.
func TestImportIntoASyncedSpaceQueuesItsExport(t *testing.T) {
	k := testkit.New(t)
	q := &queuetest.Memory{}
	k.Deps.Queue = q
	f := setupOn(t, k)
	err := store.Retry(k.Ctx, func() error {
		st, v, err := gitstate.Get(k.Ctx, k.Deps.Store, f.space)
		if err != nil {
			return err
		}
		st.Direction, st.LastURL, st.LastRef = model.SyncBoth, "https://git.example.com/acme/docs.git", "refs/heads/main"
		st.LastCommit = "0123456789abcdef0123456789abcdef01234567"
		return k.Deps.Store.Write(k.Ctx, gitstate.WriteOp(st, v))
	})
	if err != nil {
		t.Fatal(err)
	}
	fam, err := families.ByName("imports")
	if err != nil {
		t.Fatal(err)
	}
	root := app.NewRoot(k.Deps)
	t.Cleanup(root.Close)
	fn := testkit.Client(t, app.NewAPI(app.Config{APIURL: "https://api.test", AppURL: "https://app.test"}, root, fam), f.Tokens["edit"])
	srv, _ := site(t)
	q.Take()

	res := fn.Expect(http.StatusCreated, "POST", "/v1/spaces/"+f.space+"/content/import",
		map[string]any{"url": srv.URL + "/docs/api", "source": "html"}).Map(t)
	jobs := q.Take()
	if len(jobs) != 1 || jobs[0].Kind != gitjob.ExportKind || jobs[0].Group != f.space {
		t.Fatalf("queued %+v, want the space's export", jobs)
	}
	var p gitjob.Payload
	if err := json.Unmarshal(jobs[0].Payload, &p); err != nil {
		t.Fatal(err)
	}
	if p.Revision != res["revision"] || !p.Auto || p.URL != "https://git.example.com/acme/docs.git" || p.Ref != "refs/heads/main" ||
		p.UserID != f.Users["edit"].ID {
		t.Fatalf("the export's payload %+v, want the import's revision %v by the importer", p, res["revision"])
	}
	if st, _, _ := gitstate.Get(k.Ctx, k.Deps.Store, f.space); len(st.Pending) != 1 || st.Pending[0].JobID != jobs[0].ID {
		t.Fatalf("git/info's pending jobs %+v", st.Pending)
	}

	cr, _, err := changerequestswire.Service(f.Root).Create(f.Ctx("edit"), f.space, changerequests.Create{Subject: "Imported"})
	if err != nil {
		t.Fatal(err)
	}
	fn.Expect(http.StatusCreated, "POST", "/v1/spaces/"+f.space+"/change-requests/"+cr.ID+"/content/import",
		map[string]any{"url": srv.URL + "/docs/guide", "source": "html"})
	if jobs := q.Take(); len(jobs) != 0 {
		t.Fatalf("an import into a change request queued %+v", jobs)
	}
}
