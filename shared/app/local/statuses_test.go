package local_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

// Success statuses that say what happened (issue 32): where GitBook's
// current document gives an operation two success statuses (a DELETE's 205
// "removed" and 204 "did not exist", a PUT's 200 "updated" and 201
// "created"), Galley's document declares both and each branch answers its
// own. The operations where Galley answers one status on purpose are listed
// with the reason.

// oneStatus are GitBook's two-status operations Galley serves with one
// status, and why.
var oneStatus = map[string]string{
	// The spec (service-api.md) gives one status, and the spec wins.
	"DELETE /orgs/{}/members/{}":                "spec: 204",
	"DELETE /orgs/{}/teams/{}":                  "spec: 204",
	"DELETE /orgs/{}/saml/{}":                   "spec: 204",
	"DELETE /orgs/{}/sites/{}":                  "a site missing or not the caller's is a 404, as for every read (docs/http.md)",
	"DELETE /spaces/{}":                         "a space missing or not the caller's is a 404, as for every read (docs/http.md)",
	"DELETE /collections/{}":                    "a collection missing or not the caller's is a 404, as for every read (docs/http.md)",
	"POST /orgs/{}/sites/{}/site-spaces":        "204 is GitBook's option to answer without the representation; Galley always returns it (201)",
	"PATCH /spaces/{}/change-requests/{}":       "204 is GitBook's option to answer without the representation; Galley always returns it (200)",
	"PATCH /orgs/{}/sites/{}/section-groups/{}": "204 is GitBook's option to answer without the representation; Galley always returns it (200)",
	"PATCH /orgs/{}/sites/{}/sections/{}":       "204 is GitBook's option to answer without the representation; Galley always returns it (200)",
	"PATCH /orgs/{}/sites/{}/site-spaces/{}":    "204 is GitBook's option to answer without the representation; Galley always returns it (200)",
}

var paramRe = regexp.MustCompile(`\{[^}]+\}`)

// twoStatusOps are GitBook's operations with more than one success status,
// keyed "METHOD /path" with parameters as {}, and those statuses.
func twoStatusOps(t *testing.T) map[string][]string {
	t.Helper()
	var doc struct {
		Paths map[string]map[string]struct {
			Responses map[string]any `json:"responses"`
		} `json:"paths"`
	}
	testkit.ReferenceDocument(t, &doc)
	out := map[string][]string{}
	for p, ops := range doc.Paths {
		for m, op := range ops {
			var ok []string
			for code := range op.Responses {
				if strings.HasPrefix(code, "2") {
					ok = append(ok, code)
				}
			}
			if len(ok) > 1 {
				slices.Sort(ok)
				out[strings.ToUpper(m)+" "+paramRe.ReplaceAllString(p, "{}")] = ok
			}
		}
	}
	if len(out) < 20 {
		t.Fatalf("only %d operations with two success statuses in GitBook's document", len(out))
	}
	return out
}

// TestTwoSuccessStatusesAreDeclared: every such operation Galley serves
// declares GitBook's statuses in Galley's document, unless listed above.
func TestTwoSuccessStatusesAreDeclared(t *testing.T) {
	ours := map[string][]string{}
	ops, _ := apiDoc(t)
	for _, o := range ops {
		var ok []string
		for code := range o.op.Responses {
			if strings.HasPrefix(code, "2") {
				ok = append(ok, code)
			}
		}
		slices.Sort(ok)
		ours[o.method+" "+paramRe.ReplaceAllString(strings.TrimPrefix(o.path, "/v1"), "{}")] = ok
	}
	served := 0
	for key, want := range twoStatusOps(t) {
		got, ok := ours[key]
		if !ok {
			continue
		}
		served++
		if why, one := oneStatus[key]; one {
			if len(got) != 1 {
				t.Errorf("%s: listed as one status (%s) but declares %v", key, why, got)
			}
			continue
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: declares %v, GitBook's document %v", key, got, want)
		}
	}
	if served < 15 {
		t.Fatalf("only %d of GitBook's two-status operations are served", served)
	}
	for key := range oneStatus {
		if _, ok := ours[key]; !ok {
			t.Errorf("oneStatus lists %s, which Galley does not serve", key)
		}
	}
}

// TestTwoSuccessStatusesAnswerWhatHappened: each declared pair, both
// branches, through the local server: a removal answers 205, the same
// removal again 204; a PUT that creates 201, again 200.
func TestTwoSuccessStatusesAnswerWhatHappened(t *testing.T) {
	h := handler(t)
	req := func(t *testing.T, token string, want int, method, path string, body any) map[string]any {
		t.Helper()
		var data []byte
		if body != nil {
			data, _ = json.Marshal(body)
		}
		w := doAs(h, token, method, path, data)
		if w.Code != want {
			t.Fatalf("%s %s: %d, want %d: %s", method, path, w.Code, want, w.Body)
		}
		var m map[string]any
		_ = json.Unmarshal(w.Body.Bytes(), &m)
		return m
	}
	admin := func(t *testing.T, want int, method, path string, body any) map[string]any {
		t.Helper()
		return req(t, hardToken, want, method, path, body)
	}
	id := func(m map[string]any) string { return m["id"].(string) }

	org := id(admin(t, 201, "POST", "/v1/orgs", map[string]any{"title": "Acme"}))
	o := "/v1/orgs/" + org
	space := id(admin(t, 201, "POST", o+"/spaces", map[string]any{"title": "Guide"}))
	other := id(admin(t, 201, "POST", o+"/spaces", map[string]any{"title": "Other"}))
	site := o + "/sites/" + id(admin(t, 201, "POST", o+"/sites", map[string]any{"title": "Docs", "spaces": []string{space}}))
	ss := admin(t, 200, "GET", site+"/site-spaces", nil)["items"].([]any)[0].(map[string]any)["id"].(string)
	bob := admin(t, 201, "POST", "/v1/admin/users", map[string]any{"email": "bob@example.com", "displayName": "Bob"})
	bobID := bob["user"].(map[string]any)["id"].(string)
	admin(t, 200, "POST", o+"/invites", map[string]any{"emails": []any{map[string]any{"email": "bob@example.com", "role": "review"}}})
	cr := "/v1/spaces/" + space + "/change-requests/" + id(admin(t, 201, "POST", "/v1/spaces/"+space+"/change-requests", map[string]any{"subject": "x"}))
	say := map[string]any{"body": map[string]any{"markdown": "hi"}}
	team := id(admin(t, 201, "PUT", o+"/teams", map[string]any{"title": "Writers"}))
	col := id(admin(t, 201, "POST", o+"/collections", map[string]any{"title": "Shelf"}))

	type removal struct {
		name   string
		create func(t *testing.T) string // the path to DELETE
	}
	comment := func(base string) func(t *testing.T) string {
		return func(t *testing.T) string {
			return base + "/comments/" + id(admin(t, 200, "POST", base+"/comments", say))
		}
	}
	reply := func(base string) func(t *testing.T) string {
		return func(t *testing.T) string {
			c := base + "/comments/" + id(admin(t, 200, "POST", base+"/comments", say))
			return c + "/replies/" + id(admin(t, 200, "POST", c+"/replies", say))
		}
	}
	removals := []removal{
		{"requested reviewer", func(t *testing.T) string {
			admin(t, 200, "POST", cr+"/requested-reviewers", map[string]any{"users": []string{bobID}})
			return cr + "/requested-reviewers/" + bobID
		}},
		{"space comment", comment("/v1/spaces/" + space)},
		{"space comment reply", reply("/v1/spaces/" + space)},
		{"change request comment", comment(cr)},
		{"change request comment reply", reply(cr)},
		{"site space customization", func(t *testing.T) string {
			admin(t, 200, "PATCH", site+"/site-spaces/"+ss+"/customization", map[string]any{"title": "Hi"})
			return site + "/site-spaces/" + ss + "/customization"
		}},
		{"redirect", func(t *testing.T) string {
			return site + "/redirects/" + id(admin(t, 201, "POST", site+"/redirects",
				map[string]any{"source": "/old", "destination": map[string]any{"kind": "site-space", "siteSpaceId": ss}}))
		}},
		// (The first section takes the site spaces of the site in it: last.)
		{"section group", func(t *testing.T) string {
			return site + "/section-groups/" + id(admin(t, 201, "POST", site+"/section-groups", map[string]any{"title": "Group"}))
		}},
		{"section", func(t *testing.T) string {
			return site + "/sections/" + id(admin(t, 201, "POST", site+"/sections", map[string]any{"spaceId": other}))
		}},
		{"site space", func(t *testing.T) string {
			return site + "/site-spaces/" + id(admin(t, 201, "POST", site+"/site-spaces", map[string]any{"spaceId": other}))
		}},
		{"share link", func(t *testing.T) string {
			return site + "/share-links/" + id(admin(t, 201, "POST", site+"/share-links", map[string]any{"name": "x"}))
		}},
		{"invite link", func(t *testing.T) string {
			return o + "/link-invites/" + id(admin(t, 201, "POST", o+"/link-invites", map[string]any{"role": "read"}))
		}},
		{"translation", func(t *testing.T) string {
			return o + "/translations/" + id(admin(t, 201, "POST", o+"/translations", map[string]any{"title": "T"}))
		}},
		{"SCIM token", func(t *testing.T) string {
			return o + "/scim/tokens/" + id(admin(t, 201, "POST", o+"/scim/tokens", map[string]any{"name": "Okta"}))
		}},
		{"webhook", func(t *testing.T) string {
			return o + "/webhooks/" + id(admin(t, 201, "POST", o+"/webhooks", map[string]any{"url": "https://hooks.example.com/x", "secret": "whsec-0123456789abcdef", "events": []string{"site_published"}}))
		}},
		{"openapi spec", func(t *testing.T) string {
			admin(t, 201, "PUT", o+"/openapi/pets", map[string]any{"source": map[string]any{"text": petsSpec}})
			admin(t, 200, "PUT", o+"/openapi/pets", map[string]any{"source": map[string]any{"text": petsSpec}})
			return o + "/openapi/pets"
		}},
		{"space user grant", func(t *testing.T) string {
			admin(t, 204, "POST", "/v1/spaces/"+space+"/permissions", map[string]any{"role": "read", "users": []string{bobID}})
			return "/v1/spaces/" + space + "/permissions/users/" + bobID
		}},
		{"space team grant", func(t *testing.T) string {
			admin(t, 204, "POST", "/v1/spaces/"+space+"/permissions", map[string]any{"role": "read", "teams": []string{team}})
			return "/v1/spaces/" + space + "/permissions/teams/" + team
		}},
		{"collection user grant", func(t *testing.T) string {
			admin(t, 204, "POST", "/v1/collections/"+col+"/permissions", map[string]any{"role": "read", "users": []string{bobID}})
			return "/v1/collections/" + col + "/permissions/users/" + bobID
		}},
		{"collection team grant", func(t *testing.T) string {
			admin(t, 204, "POST", "/v1/collections/"+col+"/permissions", map[string]any{"role": "read", "teams": []string{team}})
			return "/v1/collections/" + col + "/permissions/teams/" + team
		}},
		{"site user grant", func(t *testing.T) string {
			admin(t, 204, "POST", site+"/permissions", map[string]any{"role": "read", "users": []string{bobID}})
			return site + "/permissions/users/" + bobID
		}},
		{"site team grant", func(t *testing.T) string {
			admin(t, 204, "POST", site+"/permissions", map[string]any{"role": "read", "teams": []string{team}})
			return site + "/permissions/teams/" + team
		}},
		{"team member", func(t *testing.T) string {
			admin(t, 204, "PUT", o+"/teams/"+team+"/members/"+bobID, nil)
			return o + "/teams/" + team + "/members/" + bobID
		}},
		{"external link", func(t *testing.T) string {
			// External links need a site structured in sections.
			admin(t, 201, "POST", site+"/sections", map[string]any{"spaceId": other})
			return site + "/external-links/" + id(admin(t, 201, "POST", site+"/external-links", map[string]any{"title": "Status", "url": "https://status.example.com"}))
		}},
	}
	for _, r := range removals {
		t.Run(r.name, func(t *testing.T) {
			path := r.create(t)
			admin(t, http.StatusResetContent, "DELETE", path, nil)
			admin(t, http.StatusNoContent, "DELETE", path, nil)
		})
	}
	// A removal in what the caller cannot see is still a 404, never a 204.
	stranger := bob["token"].(string)
	req(t, stranger, 404, "DELETE", "/v1/orgs/"+id(admin(t, 201, "POST", "/v1/orgs", map[string]any{"title": "Private"}))+"/link-invites/x", nil)
	// Every declared pair is exercised above.
	declared := 0
	ops, _ := apiDoc(t)
	for _, op := range ops {
		if op.op.Responses[strconv.Itoa(http.StatusResetContent)] != nil && op.op.Responses[strconv.Itoa(http.StatusNoContent)] != nil {
			declared++
		}
	}
	if declared != len(removals) {
		t.Errorf("%d operations declare 205 and 204, %d are exercised here", declared, len(removals))
	}
}

// doAs is do with the given bearer token.
func doAs(h http.Handler, token, method, target string, body []byte) *httptest.ResponseRecorder {
	w := do(h, method, target, body, "Authorization", "Bearer "+token)
	return w
}

// GET /v1/ (GitBook's getApiInformation, "/" under the /v1 base) and
// GET /v1 answer alike: API Gateway routes both to the route /v1 and
// passes the path as the client wrote it (infra's
// TestTemplateRoutesReachEveryServedPath checks the route).
func TestAPIInformationWithAndWithoutSlash(t *testing.T) {
	h := handler(t)
	a, b := do(h, "GET", "/v1/", nil), do(h, "GET", "/v1", nil)
	if a.Code != http.StatusOK || b.Code != http.StatusOK || a.Body.String() != b.Body.String() {
		t.Fatalf("GET /v1/: %d %s; GET /v1: %d %s", a.Code, a.Body, b.Code, b.Body)
	}
}

// A site visitor's token (GitBook's renderer) may call only the reads
// declared with their routes (httpapi.Op's Visitor): each is a GET (or the
// site search and its prewarm, POSTs that read; or the site's insights
// events), of a site's published view or of content (shared/sites/doc.go).
func TestVisitorOperationsAreReads(t *testing.T) {
	ops, _ := apiDoc(t)
	n := 0
	for _, o := range ops {
		if o.op.Metadata["galley-visitor"] != true {
			continue
		}
		n++
		read := o.method == http.MethodGet || (o.method == http.MethodPost && (strings.HasSuffix(o.path, "/search") || strings.HasSuffix(o.path, "/search/prewarm")))
		// And the renderer's events of the site it reads
		// (trackEventsInSiteById): counted by the insights worker, they
		// change no record the visitor reads.
		read = read || (o.method == http.MethodPost && o.path == "/v1/orgs/{organizationId}/sites/{siteId}/insights/events")
		if !read || !(strings.HasPrefix(o.path, "/v1/spaces/{spaceId}") || strings.Contains(o.path, "/sites/{siteId}") ||
			strings.HasPrefix(o.path, "/v1/orgs/{organizationId}/published")) {
			t.Errorf("%s %s is declared for site visitors", o.method, o.path)
		}
	}
	if n < 20 {
		t.Fatalf("only %d operations for site visitors", n)
	}
}
