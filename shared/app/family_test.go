package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/orgsroot"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/secret"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/testkit"
)

// secretOutage is the real store whose reads of the installation's secret
// fail while down is set (a fault injected into the real component); it
// counts those reads.
type secretOutage struct {
	store.Store
	down  atomic.Bool
	reads atomic.Int32
}

func (s *secretOutage) Get(ctx context.Context, pk, sk string) (store.Item, error) {
	if k := keys.InstanceSecret(); pk == k.PK && sk == k.SK {
		s.reads.Add(1)
		if s.down.Load() {
			return store.Item{}, errors.New("injected: table unreachable")
		}
	}
	return s.Store.Get(ctx, pk, sk)
}

// When the installation's secret cannot be read, a list answers 500 and
// logs the cause once; the next request reads the store again (no key is
// kept from the failure, and none is made up), and once the store answers
// the lists page with the secret kept in the table.
func TestUnreadableCursorSecretAnswers500UntilTheStoreRecovers(t *testing.T) {
	ctx := context.Background()
	st := testkit.BoltStore(t)
	k := testkit.NewOn(t, st)
	alice, token := k.User("alice")
	bob, _ := k.User("bob")
	org := k.Org("Acme", map[string]model.Role{alice.ID: model.RoleAdmin, bob.ID: model.RoleRead})
	stored, err := secret.New(st).Key(ctx) // the installation has its secret
	if err != nil {
		t.Fatal(err)
	}

	api := func(s store.Store, logs *bytes.Buffer) http.Handler {
		d, err := app.NewDeps(ctx, app.Config{}, deps.Deps{Store: s, Blobs: k.Deps.Blobs,
			Logger: slog.New(slog.NewJSONHandler(logs, nil))})
		if err != nil {
			t.Fatal(err)
		}
		return app.NewAPI(app.Config{}, app.NewRoot(d), app.NewFamily("orgs", "OrganizationsFunction", orgsroot.Routes)).Handler()
	}
	list := func(h http.Handler, page string) (int, string) {
		target := "/v1/orgs/" + org.ID + "/members?limit=1"
		if page != "" {
			target += "&page=" + page
		}
		req := httptest.NewRequest("GET", target, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		var body struct {
			Next *struct {
				Page string `json:"page"`
			} `json:"next"`
		}
		_ = json.Unmarshal(rec.Body.Bytes(), &body)
		if body.Next != nil {
			return rec.Code, body.Next.Page
		}
		return rec.Code, ""
	}
	errorRecords := func(logs *bytes.Buffer) []string {
		var out []string
		for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
			if strings.Contains(line, `"level":"ERROR"`) {
				out = append(out, line)
			}
		}
		return out
	}

	outage := &secretOutage{Store: st}
	outage.down.Store(true)
	var logs bytes.Buffer
	h := api(outage, &logs)
	for i := 1; i <= 2; i++ {
		if code, _ := list(h, ""); code != http.StatusInternalServerError {
			t.Fatalf("request %d with the secret unreadable: %d, want 500", i, code)
		}
		if n := outage.reads.Load(); n != int32(i) {
			t.Fatalf("after request %d the secret was read %d times: a failure was kept", i, n)
		}
		errs := errorRecords(&logs)
		if len(errs) != i || !strings.Contains(errs[i-1], "injected: table unreachable") {
			t.Fatalf("after request %d, error records %q: want one per request, with the cause", i, errs)
		}
	}

	outage.down.Store(false)
	code, next := list(h, "")
	if code != http.StatusOK || next == "" {
		t.Fatalf("once the store answers: %d, next %q", code, next)
	}
	if code, last := list(h, next); code != http.StatusOK || last != "" {
		t.Fatalf("second page: %d, next %q", code, last)
	}
	// The token was signed with the secret in the table, not a stand-in: a
	// process that never saw the outage reads it.
	if code, _ := list(api(st, &bytes.Buffer{}), next); code != http.StatusOK {
		t.Fatalf("the token in another process: %d, want 200", code)
	}
	if now, err := secret.New(st).Key(ctx); err != nil || !bytes.Equal(now, stored) {
		t.Fatalf("the installation's secret changed: %x -> %x (%v)", stored, now, err)
	}
}
