package testkit

import (
	"context"
	"testing"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/families"
	"github.com/galleydocs/galley/shared/app/wire/spaceswire"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/httpapi/apitest"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/spaces"
)

// Ctx is the context of the named user, for calls of the services.
func (a *API) Ctx(name string) context.Context {
	return access.WithCaller(a.Kit.Ctx, a.Caller(name))
}

// NewSpace creates a space titled title in the organization orgID as the
// named user, through the spaces service, and returns its id.
func (a *API) NewSpace(t testing.TB, user, orgID, title string) string {
	t.Helper()
	sp, _, err := spaceswire.Service(a.Root).Create(a.Ctx(user), orgID, spaces.Create{Title: title})
	if err != nil {
		t.Fatal(err)
	}
	return sp.ID
}

// Serve returns another API of the named families on the fixture's store
// (its users and organizations), on a new root to which provide gives
// first the services it should not build as a process does (app.Service):
// how a test serves a service configured otherwise.
func (a *API) Serve(t testing.TB, names []string, provide func(r *app.Root)) *httpapi.API {
	t.Helper()
	fams := served(t, names)
	root := families.NewRoot(a.Kit.Deps)
	t.Cleanup(root.Close)
	provide(root)
	return app.NewAPI(app.Config{APIURL: "https://api.test", AppURL: "https://app.test"}, root, fams...)
}

// served returns the named families (as package families names them).
func served(t testing.TB, names []string) []app.Family {
	t.Helper()
	var fams []app.Family
	for _, n := range names {
		f, err := families.ByName(n)
		if err != nil {
			t.Fatal(err)
		}
		fams = append(fams, f)
	}
	return fams
}

// User creates a user of no organization, named name, and adds it to the
// fixture's Users and Tokens.
func (a *API) User(name string) model.User {
	u, tok := a.Kit.User(name)
	a.Users[name], a.Tokens[name] = u, tok
	return u
}

// WithToken is a client of the API sending token as is ("" for none): for
// tables of callers that include tokens no user holds.
func (a *API) WithToken(t testing.TB, token string) *apitest.Client { return Client(t, a.API, token) }
