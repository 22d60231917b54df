package gitsync_test

import (
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
		if st.SyncAuth == "" || st.WebhookSecret == "" {
			t.Fatalf("nothing sealed to replace: %+v", st)
		}
		st.SyncAuth, st.WebhookSecret = sealedBeforeAuth, sealedBeforeSecret
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
