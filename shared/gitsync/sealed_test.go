package gitsync_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/secret"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/testkit"
)

// Values sealed by Git Sync's own seal, before it moved to package secret,
// for an installation whose key is sealedBeforeKey: the credentials
// gitUser, NUL, gitPassword, and hookSecret.
const (
	sealedBeforeKey    = "galley-test-instance-key-0000001"
	sealedBeforeAuth   = "zYo4l7sSY0QK7iMBu/pv+X6qL/04bYp7c8CwfejnZV8J9986yCPozGqzNdrrpllQV1NW3N7I0qIg3P1I9w"
	sealedBeforeSecret = "g9cYy32r5Yh2bTKyzFt4Qa6YVnbnTDpZ98PlD7L4tBVFGDFx9XMfyZzE09zHDdaNGKw"
)

// Settings sealed before the move still work: the stored webhook secret
// verifies a push (and another does not), and the stored credentials
// authenticate its import.
func TestSealedBeforeTheMoveStillOpen(t *testing.T) {
	k := testkit.New(t)
	k.Deps.Secret = secret.Fixed([]byte(sealedBeforeKey))
	f := setupOn(t, k)
	sp := f.synced(t, "docs", nil)
	_, err := records.Update(t.Context(), k.Deps.Store, keys.GitSync(sp), nil, func(st *model.GitSync) ([]store.Op, error) {
		if st.Auth == "" || st.WebhookSecret == "" {
			t.Fatalf("nothing sealed to replace: %+v", st)
		}
		st.Auth, st.WebhookSecret = sealedBeforeAuth, sealedBeforeSecret
		return nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	after := f.git.commit(t, "docs", "Change", map[string]string{"guide.md": "# Guide\n\nSealed before.\n"})
	push := githubPush("refs/heads/main", strings.Repeat("1", 40), after)
	f.hook(t, http.StatusUnauthorized, sp, push, "X-GitHub-Event", "push", "X-GitHub-Delivery", "s0",
		"X-Hub-Signature-256", "sha256="+sign("another-secret-0123", push), "Authorization", "")
	f.hook(t, http.StatusAccepted, sp, push, "X-GitHub-Event", "push", "X-GitHub-Delivery", "s1",
		"X-Hub-Signature-256", "sha256="+sign(hookSecret, push), "Authorization", "")
	f.work(t)
	if got := f.pageBody(t, sp, "01 guide"); got != "Sealed before.\n" {
		t.Fatalf("guide after the push: %q (the stored credentials did not open?)", got)
	}
}

// legacyAuth rewrites a space's stored state as states were written
// before the two credential fields became one: its sealed credentials
// under field ("syncAuth", the settings', or "sealedAuth", the last
// request's), without auth and authURL.
func (f *fixture) legacyAuth(t *testing.T, sp, field string) {
	t.Helper()
	it, m := f.storedState(t, sp)
	if m["auth"] == nil || m["authURL"] == nil {
		t.Fatalf("no credentials stored: %s", it.Data)
	}
	m[field] = m["auth"]
	delete(m, "auth")
	delete(m, "authURL")
	var err error
	if it.Data, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	it.Version++
	if err := f.Kit.Deps.Store.Write(t.Context(), store.PutIfVersion(it, it.Version-1)); err != nil {
		t.Fatal(err)
	}
}

// storedState answers a space's stored state: the item, and its
// top-level fields.
func (f *fixture) storedState(t *testing.T, sp string) (store.Item, map[string]any) {
	t.Helper()
	k := keys.GitSync(sp)
	it, err := f.Kit.Deps.Store.Get(t.Context(), k.PK, k.SK)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(it.Data, &m); err != nil {
		t.Fatal(err)
	}
	return it, m
}

// The settings' credentials stored the old way (syncAuth) still open the
// repository for a webhook's import, and the state's next write keeps
// them in the one field.
func TestCredentialsStoredAsSyncAuthStillOpen(t *testing.T) {
	f := setup(t)
	sp := f.synced(t, "docs", nil)
	f.legacyAuth(t, sp, "syncAuth")
	if st := f.gitState(t, sp); st.AuthFor(st.SyncURL) == "" {
		t.Fatalf("the old field was not read: %+v", st)
	}
	after := f.git.commit(t, "docs", "Change", map[string]string{"guide.md": "# Guide\n\nStored the old way.\n"})
	push := githubPush("refs/heads/main", strings.Repeat("1", 40), after)
	f.hook(t, http.StatusAccepted, sp, push, "X-GitHub-Event", "push", "X-GitHub-Delivery", "old-1",
		"X-Hub-Signature-256", "sha256="+sign(hookSecret, push), "Authorization", "")
	f.work(t)
	if got := f.pageBody(t, sp, "01 guide"); got != "Stored the old way.\n" {
		t.Fatalf("guide after the push: %q (the stored credentials did not open?)", got)
	}
	if _, m := f.storedState(t, sp); m["auth"] == nil || m["syncAuth"] != nil {
		t.Fatalf("credentials after a write: auth %v, syncAuth %v", m["auth"], m["syncAuth"])
	}
}

// A request's credentials stored the old way (sealedAuth, no sync
// settings) still open the repository for a merge's export.
func TestCredentialsStoredAsSealedAuthStillOpen(t *testing.T) {
	f := setup(t)
	bare, sp := f.syncedThreeFiles(t)
	f.legacyAuth(t, sp, "sealedAuth")
	before := strings.TrimSpace(gitOK(bare, "rev-parse", "main"))
	cr := f.propose(t, sp, "admin", "Edit the FAQ", appendTo("faq.md", "\nStored the old way.\n"))
	f.merge(t, sp, "admin", cr.ID)
	f.work(t)
	f.succeeded(t, sp, "the merge's export")
	head := strings.TrimSpace(gitOK(bare, "rev-parse", "main"))
	if head == before || !strings.Contains(gitOK(bare, "show", head+":faq.md"), "Stored the old way.") {
		t.Fatalf("the merge was not exported (branch %s, was %s)", head, before)
	}
	if _, m := f.storedState(t, sp); m["auth"] == nil || m["sealedAuth"] != nil {
		t.Fatalf("credentials after a write: auth %v, sealedAuth %v", m["auth"], m["sealedAuth"])
	}
}
