package infra_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/gitsync/gitstate"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/testenv"
)

// gitKill is the Git worker's binary killed at random points of its jobs
// (killRig, FIFO queue), for one space synced with a repository served on
// loopback.
type gitKill struct {
	*killRig
	repo  *testenv.PushableRepo
	space string
}

func newGitKill(tb testing.TB, seed uint64) *gitKill {
	tb.Helper()
	g := &gitKill{killRig: newKillRig(tb, "gitworker", true, seed), repo: testenv.NewPushableRepo(tb, "docs")}
	g.space = g.api.Expect(http.StatusCreated, "POST", "/v1/orgs/"+g.org+"/spaces", map[string]any{"title": "Docs"}).Map(tb)["id"].(string)
	// The first import, whole: how long a run takes sets the window.
	g.setWindow(tb, "import", func() {
		g.api.Expect(http.StatusNoContent, "POST", "/v1/spaces/"+g.space+"/git/import", map[string]any{"url": g.repo.URL, "ref": "refs/heads/main"})
	})
	return g
}

// state reads the space's Git Sync state.
func (g *gitKill) state(tb testing.TB) model.GitSync {
	tb.Helper()
	st, _, err := gitstate.Get(context.Background(), g.st, g.space)
	if err != nil {
		tb.Fatal(err)
	}
	return st
}

// settled checks that the space's last job ended once: a success, among
// the concluded jobs, no lease, nothing pending (0 stuck jobs).
func (g *gitKill) settled(tb testing.TB, what string) model.GitSync {
	tb.Helper()
	st := g.state(tb)
	if op := st.Operation; op == nil || op.State != model.GitSuccess || !strings.Contains(" "+strings.Join(st.Done, " ")+" ", " "+op.JobID+" ") ||
		st.Lease != nil || len(st.Pending) != 0 {
		tb.Fatalf("%s: operation %+v, lease %v, pending %v", what, st.Operation, st.Lease, st.Pending)
	}
	return st
}

// head is the space's head revision id and its parents.
func (g *gitKill) head(tb testing.TB) (string, []string) {
	tb.Helper()
	var rev struct {
		ID      string   `json:"id"`
		Parents []string `json:"parents"`
	}
	g.api.Expect(http.StatusOK, "GET", "/v1/spaces/"+g.space+"/content", nil).JSON(tb, &rev)
	return rev.ID, rev.Parents
}

// round asks for one job and works it with SIGKILLs: even rounds an
// export of a page added through a change request (one commit holding
// the page), odd rounds an import of a commit pushed to the branch (one
// revision on the head, holding the page).
func (g *gitKill) round(tb testing.TB, i int) {
	tb.Helper()
	marker := fmt.Sprintf("marker-%d-%d", i, g.rng.Int())
	head, _ := g.head(tb)
	if i%2 == 0 {
		crs := "/v1/spaces/" + g.space + "/change-requests"
		n := g.api.Expect(http.StatusCreated, "POST", crs, map[string]any{"subject": marker}).Map(tb)["number"].(float64)
		cr := fmt.Sprintf("%s/%d", crs, int(n))
		g.api.Expect(http.StatusOK, "POST", cr+"/content?compat=false", map[string]any{"changes": []map[string]any{
			{"operation": "insert_page", "ref": "p", "document": map[string]any{"markdown": "# Page " + marker + "\n\n" + marker + "\n"}}}})
		g.api.Expect(http.StatusOK, "POST", cr+"/merge", nil)
		tip := g.repo.Head(tb)
		g.api.Expect(http.StatusNoContent, "POST", "/v1/spaces/"+g.space+"/git/export",
			map[string]any{"url": g.repo.URL, "ref": "refs/heads/main", "commitMessage": "Export " + marker})
		g.work1(tb, true)
		st := g.settled(tb, "export "+marker)
		if c := strings.TrimSpace(testenv.Git(tb, g.repo.Bare, "rev-list", "--count", tip+"..refs/heads/main")); c != "1" {
			tb.Fatalf("export %s: %s commits, want 1", marker, c)
		}
		if !strings.Contains(testenv.Git(tb, g.repo.Bare, "grep", "-l", marker, "refs/heads/main"), ".md") || st.LastCommit != g.repo.Head(tb) {
			tb.Fatalf("export %s: the page is not in the branch's commit, or the state's commit %s is not the branch's", marker, st.LastCommit)
		}
		return
	}
	g.repo.Commit(tb, marker+".md", "# "+marker+"\n\n"+marker+"\n")
	g.api.Expect(http.StatusNoContent, "POST", "/v1/spaces/"+g.space+"/git/import", map[string]any{"url": g.repo.URL, "ref": "refs/heads/main"})
	g.work1(tb, true)
	st := g.settled(tb, "import "+marker)
	now, parents := g.head(tb)
	if now != st.LastRevision || len(parents) != 1 || parents[0] != head {
		tb.Fatalf("import %s: head %s (parents %v), the state's %s, before %s", marker, now, parents, st.LastRevision, head)
	}
	g.api.Expect(http.StatusOK, "GET", "/v1/spaces/"+g.space+"/content/path/"+marker, nil)
}

// The Git worker as a process, killed with SIGKILL at random points of
// imports and exports, then delivered the message again: each job ends a
// success once (nothing left running, leased or pending), each export one
// commit holding its page, each import one revision holding its page.
// Short (a few rounds): BenchmarkWorkerSIGKILL runs many.
func TestGitWorkerSIGKILLedEndsOnce(t *testing.T) {
	t.Parallel()
	g := newGitKill(t, uint64(time.Now().UnixNano()))
	g.rounds(t, 4, g.round)
}
