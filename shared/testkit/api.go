package testkit

import (
	"testing"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/families"
	"github.com/galleydocs/galley/shared/app/wire/siteswire"
	"github.com/galleydocs/galley/shared/app/wire/spaceswire"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/httpapi/apitest"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/sites"
	"github.com/galleydocs/galley/shared/spaces"
)

// Roles names the members of an API fixture's organization: one a role,
// and a guest (a member without a role). Outsider is the user of another
// organization.
func Roles() []string {
	return []string{"admin", "create", "review", "edit", "comment", "read", "guest"}
}

// Outsider is the name of the API fixture's user who belongs to another
// organization only (Other, which they administer).
const Outsider = "outsider"

// API is the fixture most tests of a family start from: the families' API
// on the kit's store, built as a process builds it (local mode's root,
// families.NewRoot, and app.NewAPI with the named families), an
// organization with a member of every role, an outsider, and clients.
type API struct {
	Kit  *Kit
	Root *app.Root
	API  *httpapi.API
	// Org has a member of each of Roles; Other is the outsider's.
	Org, Other model.Organization
	// Users and Tokens by name: each of Roles, Outsider, and the extra
	// members (Member).
	Users  map[string]model.User
	Tokens map[string]string

	space, site string
}

// APIOption changes an API fixture.
type APIOption func(*apiOptions)

type apiOptions struct {
	extra          []member
	inOther        []string
	apiURL, appURL string
}

type member struct {
	name string
	role model.Role
}

// Member adds a member of Org, named name, with role (model.RoleGuest for
// a guest), after those of Roles.
func Member(name string, role model.Role) APIOption {
	return func(o *apiOptions) { o.extra = append(o.extra, member{name, role}) }
}

// AlsoInOther makes the named members of Org members of Other too, with
// the same role.
func AlsoInOther(names ...string) APIOption {
	return func(o *apiOptions) { o.inOther = append(o.inOther, names...) }
}

// URLs sets the API's base URLs (httpapi.Config's APIURL and AppURL;
// "https://api.test" and "https://app.test" by default). Empty ones are
// taken from each request, as a process without API_URL does: for tests
// that serve the API on a listener that others call back (SAML).
func URLs(apiURL, appURL string) APIOption {
	return func(o *apiOptions) { o.apiURL, o.appURL = apiURL, appURL }
}

// NewAPI returns the fixture on k serving the named families (as package
// families names them: "spaces", "comments", ...).
func NewAPI(t testing.TB, k *Kit, names []string, opts ...APIOption) *API {
	t.Helper()
	o := apiOptions{apiURL: "https://api.test", appURL: "https://app.test"}
	for _, opt := range opts {
		opt(&o)
	}
	fams := served(t, names)
	root := families.NewRoot(k.Deps)
	t.Cleanup(root.Close)
	a := &API{Kit: k, Root: root, Users: map[string]model.User{}, Tokens: map[string]string{},
		API: app.NewAPI(app.Config{APIURL: o.apiURL, AppURL: o.appURL}, root, fams...)}
	members, roles := map[string]model.Role{}, map[string]model.Role{}
	add := func(name string, role model.Role) {
		u, tok := k.User(name)
		a.Users[name], a.Tokens[name] = u, tok
		members[u.ID], roles[name] = role, role
	}
	for _, name := range Roles() {
		role := model.Role(name)
		if name == "guest" {
			role = model.RoleGuest
		}
		add(name, role)
	}
	for _, m := range o.extra {
		add(m.name, m.role)
	}
	a.Org = k.Org("Acme", members)
	u, tok := k.User(Outsider)
	a.Users[Outsider], a.Tokens[Outsider] = u, tok
	others := map[string]model.Role{u.ID: model.RoleAdmin}
	for _, name := range o.inOther {
		others[a.Users[name].ID] = roles[name]
	}
	a.Other = k.Org("Other", others)
	return a
}

// As is a client of the API acting as the named user ("" for none).
func (a *API) As(t testing.TB, name string) *apitest.Client { return Client(t, a.API, a.Tokens[name]) }

// Caller is the context of the named user, for calls of the services.
func (a *API) Caller(name string) access.Caller {
	return access.Caller{UserID: a.Users[name].ID}
}

// Space returns the id of the space "Docs" of Org, created by the admin
// through the spaces service on first call.
func (a *API) Space(t testing.TB) string {
	t.Helper()
	if a.space == "" {
		ctx := access.WithCaller(a.Kit.Ctx, a.Caller("admin"))
		sp, _, err := spaceswire.Service(a.Root).Create(ctx, a.Org.ID, spaces.Create{Title: "Docs"})
		if err != nil {
			t.Fatal(err)
		}
		a.space = sp.ID
	}
	return a.space
}

// Site returns the id of a site "Docs" of Org showing Space,
// created by the admin through the sites service on first call.
func (a *API) Site(t testing.TB) string {
	t.Helper()
	if a.site == "" {
		ctx := access.WithCaller(a.Kit.Ctx, a.Caller("admin"))
		s, _, err := siteswire.Service(a.Root).Create(ctx, a.Org.ID, sites.CreateSite{Title: "Docs", SpaceIDs: []string{a.Space(t)}})
		if err != nil {
			t.Fatal(err)
		}
		a.site = s.ID
	}
	return a.site
}
