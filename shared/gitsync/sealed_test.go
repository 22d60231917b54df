package gitsync_test

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// sealedAsBefore seals plain as Git Sync did before sealing moved to
// package secret, written out here from that code: AES-256-GCM keyed with
// HMAC-SHA256(the installation's key, "galley job credentials v1"), a
// random nonce before the ciphertext, "git" as associated data, unpadded
// standard base64.
func sealedAsBefore(t *testing.T, f *fixture, plain string) string {
	t.Helper()
	key, err := f.Root.Deps.Secret.Key(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte("galley job credentials v1"))
	block, err := aes.NewCipher(m.Sum(nil))
	if err != nil {
		t.Fatal(err)
	}
	g, err := cipher.NewGCM(block)
	if err != nil {
		t.Fatal(err)
	}
	nonce := make([]byte, g.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		t.Fatal(err)
	}
	return base64.RawStdEncoding.EncodeToString(g.Seal(nonce, nonce, []byte(plain), []byte("git")))
}

// Settings sealed before the move still work: the stored webhook secret
// verifies a push, and the stored credentials authenticate its import.
func TestSealedBeforeTheMoveStillOpen(t *testing.T) {
	f := setup(t)
	sp := f.synced(t, "docs", nil)
	_, err := records.Update(t.Context(), f.Root.Deps.Store, keys.GitSync(sp), nil, func(st *model.GitSync) ([]store.Op, error) {
		if st.SyncAuth == "" || st.WebhookSecret == "" {
			t.Fatalf("nothing sealed to replace: %+v", st)
		}
		st.SyncAuth = sealedAsBefore(t, f, gitUser+"\x00"+gitPassword)
		st.WebhookSecret = sealedAsBefore(t, f, hookSecret)
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
