package families_test

import (
	"slices"
	"testing"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/families"
	"github.com/galleydocs/galley/shared/app/wire/changerequestswire"
	"github.com/galleydocs/galley/shared/app/wire/contentwire"
	"github.com/galleydocs/galley/shared/app/wire/openapiwire"
	"github.com/galleydocs/galley/shared/deps"
)

// Local mode's root builds each service once, however many families use
// it: the API's authenticator is the root's users service, the change
// requests read content through the root's content service, and every
// family's service is built, once.
func TestLocalRootBuildsEachServiceOnce(t *testing.T) {
	r := families.NewRoot(&deps.Deps{})
	api := app.NewAPI(app.Config{}, r, families.All()...)
	families.JobHandlers(r)
	built := r.Built()

	if api.Config().Auth != app.Users(r) {
		t.Error("the API authenticates with another users service than the root's (a second token cache)")
	}
	if changerequestswire.Service(r).Content() != contentwire.Service(r) {
		t.Error("change requests read content through another content service than the root's (second tree index caches)")
	}
	seen := map[string]bool{}
	for _, s := range built {
		if seen[s] {
			t.Errorf("%s built twice", s)
		}
		seen[s] = true
	}
	for _, want := range []string{"*users.Service", "*spaces.Service", "*orgs.Service", "*collections.Service",
		"*customfields.Service", "*sites.Service", "*content.Service", "*openapispecs.Service", "content.Specs",
		"openapispecs.Parser", "*changerequests.Service", "changerequests.Records", "*comments.Service",
		"changerequests.ReviewCommenter", "changerequests.SiteSpaces", "*search.Service", "*sso.Service", "*translations.Service",
		"*gitsync.Service", "*imports.Service", "*reader.Service"} {
		if !seen[want] {
			t.Errorf("the local root did not build %s; it built %v", want, built)
		}
	}
	// Asking again builds nothing.
	app.NewAPI(app.Config{}, r, families.All()...)
	families.JobHandlers(r)
	if got := r.Built(); !slices.Equal(got, built) {
		t.Errorf("serving the families again built %v; first %v", got[len(built):], built)
	}
}

// A service provided after another was built without it fails the start:
// a process never holds services built with and without it.
func TestRootRefusesALateOptionalService(t *testing.T) {
	r := app.NewRoot(&deps.Deps{})
	contentwire.Service(r) // without specs, as in the comments function
	defer func() {
		if recover() == nil {
			t.Error("providing the specs after content was built did not panic")
		}
	}()
	openapiwire.ProvideSpecs(r)
}

// closer is a service holding something to release; closed records the
// order in which the root closed them.
type closer struct {
	name   string
	closed *[]string
}

func (c *closer) Close() { *c.closed = append(*c.closed, c.name) }

type (
	first  struct{ *closer }
	second struct{ *closer }
	plain  struct{}
)

// Closing a root closes every built service that can be closed (search's
// index directories), the last built first, and only those.
func TestRootClosesItsServicesLastBuiltFirst(t *testing.T) {
	r := app.NewRoot(&deps.Deps{})
	var closed []string
	app.Service(r, func() first { return first{&closer{"first", &closed}} })
	app.Service(r, func() plain { return plain{} })
	app.Service(r, func() second { return second{&closer{"second", &closed}} })
	r.Close()
	if want := []string{"second", "first"}; !slices.Equal(closed, want) {
		t.Errorf("closed %v, want %v", closed, want)
	}
}
