package changerequests_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

// orgFixture is an organization with change requests in a space every
// member reads, in a space only its admins read, and in another
// organization.
type orgFixture struct {
	*fixture
	hidden string
	// subjects of the requests by name: c1 (open, editor), c2 (draft,
	// editor), c3 (archived, admin), c4 (open, admin) in the readable
	// space; h1 (open, admin) in the hidden one; o1 (open) in the other
	// organization.
	ids map[string]string
}

func setupOrg(t *testing.T, k *testkit.Kit) *orgFixture {
	f := &orgFixture{fixture: setupOn(t, k), ids: map[string]string{}}
	admin := f.as(t, f.admin)
	f.hidden = admin.Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.org.ID+"/spaces", map[string]any{"title": "Hidden"}).Map(t)["id"].(string)
	admin.Expect(http.StatusOK, "PATCH", "/v1/spaces/"+f.hidden, map[string]any{"defaultLevel": nil})
	other := f.as(t, f.outsider).Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.other.ID+"/spaces", map[string]any{"title": "Theirs"}).Map(t)["id"].(string)
	make := func(name, token, space, status string) {
		crs := "/v1/spaces/" + space + "/change-requests"
		cr := f.as(t, token).Expect(http.StatusCreated, "POST", crs, map[string]any{"subject": name}).Map(t)
		f.ids[name] = cr["id"].(string)
		if status != "draft" {
			f.as(t, token).Expect(http.StatusOK, "PATCH", crs+"/"+f.ids[name], map[string]any{"status": status})
		}
	}
	make("c1", f.editor, f.space, "open")
	make("h1", f.admin, f.hidden, "open")
	make("o1", f.outsider, other, "open")
	make("c2", f.editor, f.space, "draft")
	make("c3", f.admin, f.space, "archived")
	make("c4", f.admin, f.space, "open")
	return f
}

// subjects lists every page of an organization's list (limit per page) as
// the token sees it: the requests' subjects in order.
func (f *orgFixture) subjects(t *testing.T, token, query string, limit int) string {
	t.Helper()
	var out []string
	for _, it := range testkit.Items(t, f.as(t, token), "/v1/orgs/"+f.org.ID+"/change-requests"+query, limit) {
		out = append(out, it["subject"].(string))
	}
	return strings.Join(out, " ")
}

// The organization's list shows the requests of the spaces the caller
// reads, never those of a space they cannot read or of another
// organization; its statuses are merged newest first, paged by one token.
func TestOrganizationListShowsOnlyWhatTheCallerReads(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setupOrg(t, k)
		for _, c := range []struct{ name, token, query, want string }{
			{"admin, default open", f.admin, "", "c4 h1 c1"},
			{"reader, default open", f.reader, "", "c4 c1"},
			{"reader, every status", f.reader, "?status=open&status=draft&status=archived&status=merged", "c4 c3 c2 c1"},
			{"admin, every status", f.admin, "?status=open&status=draft&status=archived", "c4 c3 c2 h1 c1"},
			{"guest reads no space", f.guest, "?status=open&status=draft&status=archived", ""},
			{"creator", f.reader, "?status=open&status=draft&creator=" + f.editorID, "c2 c1"},
			{"space", f.admin, "?space=" + f.hidden, "h1"},
			{"space the caller cannot read", f.reader, "?space=" + f.hidden, ""},
			{"topic: none in Galley", f.admin, "?topic=t1", ""},
			{"style guide run: none in Galley", f.admin, "?styleguideRun=r1", ""},
			{"finding all", f.admin, "?finding=all", "c4 h1 c1"},
		} {
			t.Run(c.name, func(t *testing.T) {
				for _, limit := range []int{1, 2, 50} {
					if got := f.subjects(t, c.token, c.query, limit); got != c.want {
						t.Errorf("limit %d: %q, want %q", limit, got, c.want)
					}
				}
			})
		}
		// Updating a request moves it first by update, not by creation.
		f.as(t, f.editor).Expect(http.StatusOK, "PATCH", f.cr(f.ids["c1"]), map[string]any{"subject": "c1"})
		f.as(t, f.editor).Expect(http.StatusOK, "PATCH", f.cr(f.ids["c1"]), map[string]any{"subject": "c1 again"})
		if got := f.subjects(t, f.reader, "", 1); got != "c1 again c4" {
			t.Errorf("by update: %q", got)
		}
		if got := f.subjects(t, f.reader, "?orderBy=createdAt", 1); got != "c4 c1 again" {
			t.Errorf("by creation: %q", got)
		}
		// The other organization's admin sees theirs only.
		other := f.as(t, f.outsider).Expect(http.StatusOK, "GET", "/v1/orgs/"+f.other.ID+"/change-requests", nil).Map(t)["items"].([]any)
		if len(other) != 1 || other[0].(map[string]any)["subject"] != "o1" {
			t.Errorf("the other organization's list: %v", other)
		}
	})
}

func TestOrganizationListFiltersByContributorAndRequestedReviewer(t *testing.T) {
	f := setupOrg(t, testkit.New(t))
	f.author(t, f.reviewer, f.ids["c4"], insert("", "", "# By the reviewer\n"))
	f.as(t, f.admin).Expect(http.StatusOK, "POST", f.cr(f.ids["c1"])+"/requested-reviewers", map[string]any{"users": []string{f.reviewerID}})
	if got := f.subjects(t, f.reader, "?contributor="+f.reviewerID, 50); got != "c4" {
		t.Errorf("contributor: %q", got)
	}
	if got := f.subjects(t, f.reader, "?requestedReviewer="+f.reviewerID, 50); got != "c1" {
		t.Errorf("requested reviewer: %q", got)
	}
	if got := f.subjects(t, f.reader, "?requestedReviewer="+f.readerID, 50); got != "" {
		t.Errorf("requested reviewer nobody asked: %q", got)
	}
}

// The site filter keeps the requests of the spaces the site's site spaces
// show, of those the caller reads; a site the caller cannot find (unknown,
// of another organization, hidden from a guest) is a 400 naming site.
func TestOrganizationListFiltersBySite(t *testing.T) {
	f := setupOrg(t, testkit.New(t))
	admin := f.as(t, f.admin)
	newSite := func(org string, token string, spaces ...string) string {
		sites := "/v1/orgs/" + org + "/sites"
		id := f.as(t, token).Expect(http.StatusCreated, "POST", sites, map[string]any{"title": "Docs"}).Map(t)["id"].(string)
		for _, sp := range spaces {
			f.as(t, token).Expect(http.StatusCreated, "POST", sites+"/"+id+"/site-spaces", map[string]any{"spaceId": sp})
		}
		return id
	}
	shown := newSite(f.org.ID, f.admin, f.space)
	hidden := newSite(f.org.ID, f.admin, f.hidden)
	empty := newSite(f.org.ID, f.admin)
	theirs := newSite(f.other.ID, f.outsider)
	for _, c := range []struct{ name, token, query, want string }{
		{"admin, the site of the readable space", f.admin, "?site=" + shown, "c4 c1"},
		{"reader, the site of the readable space", f.reader, "?site=" + shown + "&status=open&status=draft&status=archived", "c4 c3 c2 c1"},
		{"admin, the site of the hidden space", f.admin, "?site=" + hidden, "h1"},
		{"reader, the site of the space they cannot read", f.reader, "?site=" + hidden, ""},
		{"a site with no site space", f.admin, "?site=" + empty, ""},
		{"site and space", f.admin, "?site=" + shown + "&space=" + f.hidden, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, limit := range []int{1, 2, 50} {
				if got := f.subjects(t, c.token, c.query, limit); got != c.want {
					t.Errorf("limit %d: %q, want %q", limit, got, c.want)
				}
			}
		})
	}
	// A page token holds the site: it is refused with another.
	next := admin.Expect(http.StatusOK, "GET", "/v1/orgs/"+f.org.ID+"/change-requests?limit=1&site="+shown, nil).Map(t)["next"].(map[string]any)["page"].(string)
	list := "/v1/orgs/" + f.org.ID + "/change-requests"
	testkit.Check(t, f.api, []testkit.Case{
		{"unknown site", f.admin, "GET", list + "?site=s1", nil, http.StatusBadRequest, "site"},
		{"site of another organization", f.admin, "GET", list + "?site=" + theirs, nil, http.StatusBadRequest, "site"},
		{"guest: sites are hidden", f.guest, "GET", list + "?site=" + shown, nil, http.StatusBadRequest, "site"},
		{"outsider", f.outsider, "GET", list + "?site=" + shown, nil, http.StatusNotFound, ""},
		{"token of another site", f.admin, "GET", list + "?site=" + hidden + "&page=" + next, nil, http.StatusBadRequest, "page"},
	})
}

func TestOrganizationListRefusals(t *testing.T) {
	f := setup(t)
	list := "/v1/orgs/" + f.org.ID + "/change-requests"
	testkit.Check(t, f.api, []testkit.Case{
		{"no token", "", "GET", list, nil, http.StatusUnauthorized, ""},
		{"outsider", f.outsider, "GET", list, nil, http.StatusNotFound, ""},
		{"unknown status", f.reader, "GET", list + "?status=closed", nil, http.StatusBadRequest, "status"},
		{"unknown order", f.reader, "GET", list + "?orderBy=number", nil, http.StatusBadRequest, "orderBy"},
		{"token of another list", f.reader, "GET", list + "?page=" + f.pageOfSpaceList(t), nil, http.StatusBadRequest, "page"},
	})
}

// pageOfSpaceList is a page token of the space's list of requests.
func (f *fixture) pageOfSpaceList(t *testing.T) string {
	t.Helper()
	f.create(t, f.editor, "one")
	f.create(t, f.editor, "two")
	for _, n := range []int{1, 2} {
		f.as(t, f.editor).Expect(http.StatusOK, "PATCH", f.cr(n), map[string]any{"status": "open"})
	}
	next := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.crs()+"?limit=1", nil).Map(t)["next"].(map[string]any)
	return next["page"].(string)
}

// A request's changes are what it changed against its base, in GitBook's
// shape; its contributors are its creator and those who changed it.
func TestChangesAndContributors(t *testing.T) {
	f := setup(t)
	f.create(t, f.admin, "Two pages")
	f.author(t, f.editor, 1, insert("", "", "# One\n"))
	f.author(t, f.editor, 1, insert("", "", "# Two\n"))
	all := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(1)+"/changes", nil).Map(t)
	changes := all["changes"].([]any)
	if len(changes) != 2 || changes[0].(map[string]any)["type"] != "page_created" || all["more"] != nil {
		t.Fatalf("changes %v", all)
	}
	one := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(1)+"/changes?limit=1", nil).Map(t)
	if len(one["changes"].([]any)) != 1 || one["more"] != float64(1) {
		t.Errorf("limit 1: %v", one)
	}
	cs := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(1)+"/contributors", nil).Map(t)["items"].([]any)
	got := []string{}
	for _, c := range cs {
		m := c.(map[string]any)
		got = append(got, fmt.Sprintf("%s:%v:%s", m["user"].(map[string]any)["displayName"], m["count"], m["actionType"]))
	}
	if strings.Join(got, " ") != "admin:0:edit edit:2:edit" {
		t.Errorf("contributors %v", got)
	}
	testkit.Check(t, f.api, []testkit.Case{
		{"changes, no token", "", "GET", f.cr(1) + "/changes", nil, http.StatusUnauthorized, ""},
		{"changes, outsider", f.outsider, "GET", f.cr(1) + "/changes", nil, http.StatusNotFound, ""},
		{"changes, guest", f.guest, "GET", f.cr(1) + "/changes", nil, http.StatusNotFound, ""},
		{"changes, limit 0", f.reader, "GET", f.cr(1) + "/changes?limit=0", nil, http.StatusBadRequest, "limit"},
		{"changes, unknown request", f.reader, "GET", f.cr(9) + "/changes", nil, http.StatusNotFound, ""},
		{"contributors, no token", "", "GET", f.cr(1) + "/contributors", nil, http.StatusUnauthorized, ""},
		{"contributors, outsider", f.outsider, "GET", f.cr(1) + "/contributors", nil, http.StatusNotFound, ""},
		{"contributors, unknown request", f.reader, "GET", f.cr(9) + "/contributors", nil, http.StatusNotFound, ""},
	})
}
