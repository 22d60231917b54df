package httpapi_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
)

// An operation states its permission or is not registered: Register
// panics on a route without one (or with one that is not a permission),
// so that no process serves an undeclared operation.
func TestRegisterRefusesAnOperationWithoutPermission(t *testing.T) {
	for _, needs := range []access.Permission{"", "read contents", access.Anyone.OrSelf(), access.InstanceAdmin.OrAuthor()} {
		api := httpapi.New(httpapi.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		func() {
			defer func() {
				r := recover()
				if r == nil || !strings.Contains(r.(string), "getThing") {
					t.Errorf("needs %q: Register did not refuse the operation (%v)", needs, r)
				}
			}()
			httpapi.Register(api, httpapi.Op{ID: "getThing", Needs: needs, Method: http.MethodGet, Path: "/v1/thing", Tag: "t"},
				func(ctx context.Context, in *struct{}) (*echoOut, error) { return &echoOut{}, nil })
		}()
		if len(api.Routes()) != 0 {
			t.Errorf("needs %q: the operation was registered", needs)
		}
	}
}

// The document states each operation's permission: the extension, a
// sentence of the description, and no security for the public ones.
func TestDocumentStatesThePermission(t *testing.T) {
	doc := newEchoAPI(false).Huma.OpenAPI()
	for path, want := range map[string]struct {
		needs  access.Permission
		public bool
	}{"/v1/things/{id}": {access.Anyone, true}, "/v1/private": {access.SignedIn, false}} {
		item := doc.Paths[path]
		op := item.Put
		if op == nil {
			op = item.Get
		}
		if got := op.Extensions[httpapi.PermissionExtension]; got != string(want.needs) {
			t.Errorf("%s: %s = %v, want %q", path, httpapi.PermissionExtension, got, want.needs)
		}
		if !strings.Contains(op.Description, "Needs: "+string(want.needs)+".") {
			t.Errorf("%s: description %q", path, op.Description)
		}
		if public := op.Security != nil && len(op.Security) == 0; public != want.public {
			t.Errorf("%s: public %v, want %v", path, public, want.public)
		}
	}
}
