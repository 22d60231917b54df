package local_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// Read-modify-write (issue 23): for every PUT and PATCH, a GET answer
// sent back unchanged is accepted and changes nothing (docs/http.md,
// "Read-only fields").

// roundTrip is how one PUT or PATCH operation gets its GET answer.
type roundTrip struct {
	// get is the path of the GET answering the record, with {names} of
	// the fixture; "" means the write's own path.
	get string
	// list: get answers a list ({items}), and the record is its item of
	// id {id} (the last parameter of the write's path).
	list bool
	// add is what the write needs that the GET answer lacks (fields the
	// answer never carries, such as an OpenAPI spec's source).
	add map[string]any
	// moves, when set, says why the GET answer may differ afterwards
	// (the write is accepted, but is not a no-op by design).
	moves string
	// none, when set, says why the operation has no GET answer to send
	// back; the operation is then not tried.
	none string
}

// roundTrips has an entry for every PUT and PATCH of the API (the test
// fails on one without), keyed "METHOD path".
var roundTrips = map[string]roundTrip{
	"PATCH /v1/admin/users/{userId}":                            {get: "/v1/admin/users", list: true},
	"PATCH /v1/collections/{collectionId}":                      {},
	"PATCH /v1/orgs/{organizationId}":                           {},
	"PATCH /v1/orgs/{organizationId}/custom-fields/{fieldName}": {},
	"PATCH /v1/orgs/{organizationId}/link-invites/{inviteId}":   {},
	"PATCH /v1/orgs/{organizationId}/members/{userId}":          {},
	"PUT /v1/orgs/{organizationId}/openapi/{specSlug}": {add: map[string]any{"source": map[string]any{"text": petsSpec}},
		moves: "a PUT re-reads the spec's source and processes it again (how a spec is refreshed): updatedAt and the processing fields move"},
	"PATCH /v1/orgs/{organizationId}/openapi/{specSlug}": {},
	"PATCH /v1/users/{userId}":                           {},
	"PATCH /v1/spaces/{spaceId}/change-requests/{changeRequestId}/conversations/{conversationId}":              {get: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/conversations", list: true},
	"PATCH /v1/orgs/{organizationId}/saml/{samlProviderId}":                                                    {},
	"PATCH /v1/orgs/{organizationId}/oidc/{oidcProviderId}":                                                    {},
	"PATCH /v1/orgs/{organizationId}/sites/{siteId}":                                                           {},
	"PUT /v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema":                                             {},
	"PUT /v1/orgs/{organizationId}/sites/{siteId}/customization":                                               {},
	"PATCH /v1/orgs/{organizationId}/sites/{siteId}/publishing/auth":                                           {},
	"PATCH /v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}":                                {get: "/v1/orgs/{organizationId}/sites/{siteId}/redirects", list: true},
	"PATCH /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}":                       {get: "/v1/orgs/{organizationId}/sites/{siteId}/section-groups", list: true},
	"PATCH /v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}":                                  {get: "/v1/orgs/{organizationId}/sites/{siteId}/sections", list: true},
	"PATCH /v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}":                                 {get: "/v1/orgs/{organizationId}/sites/{siteId}/share-links", list: true},
	"PATCH /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}":                                 {get: "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces", list: true},
	"PATCH /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization":                   {},
	"PATCH /v1/orgs/{organizationId}/webhooks/{webhookId}":                                                     {},
	"PATCH /v1/orgs/{organizationId}/teams/{teamId}":                                                           {},
	"PUT /v1/orgs/{organizationId}/translations/{translationSettingsId}":                                       {},
	"PATCH /v1/spaces/{spaceId}":                                                                               {},
	"PATCH /v1/spaces/{spaceId}/change-requests/{changeRequestId}":                                             {},
	"PUT /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}":                          {},
	"PUT /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}": {},
	"PUT /v1/spaces/{spaceId}/comments/{commentId}":                                                            {},
	"PUT /v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}":                                   {},
	"PUT /v1/orgs/{organizationId}/teams":                                                                      {none: "creates a team; GET answers the list of teams"},
	"PUT /v1/orgs/{organizationId}/storage/files/{fileId}":                                                     {none: "writes an uploaded file's bytes through a signed URL; its GET answers the bytes through another link"},
	"PUT /v1/orgs/{organizationId}/sites/{siteId}/redirects":                                                   {none: "creates or updates redirects in bulk ({redirects}); GET answers the list"},
	"PATCH /v1/spaces/{spaceId}/custom-fields":                                                                 {none: "takes {values} by field name; GET answers a list of entries"},
	"PATCH /v1/orgs/{organizationId}/sites/{siteId}/external-links/{siteExternalLinkId}":                       {none: "GitBook has no read of one external link: getSiteStructure shows it among the structure"},
	"PATCH /v1/spaces/{spaceId}/permissions/users/{userId}":                                                    {none: "takes {role}; GET answers the list of grants"},
	"PATCH /v1/spaces/{spaceId}/permissions/teams/{teamId}":                                                    {none: "takes {role}; GET answers the list of grants"},
	"PATCH /v1/collections/{collectionId}/permissions/users/{userId}":                                          {none: "takes {role}; GET answers the list of grants"},
	"PATCH /v1/collections/{collectionId}/permissions/teams/{teamId}":                                          {none: "takes {role}; GET answers the list of grants"},
	"PATCH /v1/orgs/{organizationId}/sites/{siteId}/permissions/users/{userId}":                                {none: "takes {role}; GET answers the list of grants"},
	"PATCH /v1/orgs/{organizationId}/sites/{siteId}/permissions/teams/{teamId}":                                {none: "takes {role}; GET answers the list of grants"},
	"PUT /v1/orgs/{organizationId}/teams/{teamId}/members":                                                     {none: "takes {add, remove, memberships}; GET answers the list of members"},
	"PUT /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}":                                            {none: "adds a member ({role}); GitBook has no read of one team member"},
	"PATCH /v1/orgs/{organizationId}/sites/{siteId}/structure/sort":                                            {none: "moves an item ({item, position}); no GET answers that shape"},
	"PUT /v1/spaces/{spaceId}/git/settings":                                                                    {none: "the fixture's space has no Git Sync settings (GET answers empty ones, which a PUT refuses: url and branch are required); the answer carries fields the body has not (credentials, webhookSecretSet, webhookPath)"},
}

const petsSpec = "openapi: 3.0.3\ninfo: {title: Pets, version: '1'}\npaths:\n  /pets:\n    get:\n      responses:\n        200: {description: ok}\n"

// rtFixture is one of each record, created over HTTP; ids holds the
// path parameters' values.
type rtFixture struct {
	t   *testing.T
	h   http.Handler
	ids map[string]string
}

func (f *rtFixture) must(method, path string, body any) map[string]any {
	f.t.Helper()
	var raw []byte
	if body != nil {
		raw, _ = json.Marshal(body)
	}
	w := do(f.h, method, fill(path, f.ids), raw)
	if w.Code < 200 || w.Code > 299 {
		f.t.Fatalf("%s %s: %d %s", method, path, w.Code, w.Body)
	}
	var m map[string]any
	if w.Body.Len() > 0 {
		if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
			f.t.Fatalf("%s %s: %v", method, path, err)
		}
	}
	return m
}

func newRTFixture(t *testing.T) *rtFixture {
	f := &rtFixture{t: t, h: handler(t), ids: map[string]string{}}
	id := func(m map[string]any) string { return m["id"].(string) }
	f.ids["userId"] = id(f.must("GET", "/v1/user", nil))
	f.ids["organizationId"] = id(f.must("POST", "/v1/orgs", map[string]any{"title": "Acme"}))
	org := "/v1/orgs/{organizationId}"
	f.ids["spaceId"] = id(f.must("POST", org+"/spaces", map[string]any{"title": "Handbook"}))
	other := id(f.must("POST", org+"/spaces", map[string]any{"title": "API"}))
	f.ids["collectionId"] = id(f.must("POST", org+"/collections", map[string]any{"title": "Guides"}))
	f.ids["fieldName"] = f.must("POST", org+"/custom-fields", map[string]any{"name": "owner", "type": "text", "title": "Owner"})["name"].(string)
	f.ids["inviteId"] = id(f.must("POST", org+"/link-invites", map[string]any{"role": "read"}))
	f.must("POST", org+"/openapi", map[string]any{"slug": "pets", "source": map[string]any{"text": petsSpec}})
	f.ids["specSlug"] = "pets"
	f.ids["samlProviderId"] = id(f.must("POST", org+"/saml", map[string]any{"label": "Okta"}))
	f.ids["oidcProviderId"] = id(f.must("POST", org+"/oidc", map[string]any{"label": "Keycloak", "issuer": "https://idp.example.com/realms/acme", "clientId": "galley", "clientSecret": "s3cret"}))
	f.ids["teamId"] = id(f.must("PUT", org+"/teams", map[string]any{"title": "Writers"}))
	f.ids["translationSettingsId"] = id(f.must("POST", org+"/translations", map[string]any{"title": "French", "languages": []string{"fr"}}))
	f.ids["webhookId"] = id(f.must("POST", org+"/webhooks", map[string]any{"url": "https://hooks.example.com/galley", "secret": "whsec-0123456789abcdef", "events": []string{"site_published"}}))
	// A delivery (the ping's: queued, never run by the handler alone).
	f.ids["deliveryId"] = id(f.must("POST", org+"/webhooks/{webhookId}/ping", nil))
	f.ids["adminUserId"] = id(f.must("POST", "/v1/admin/users", map[string]any{"email": "ann@example.com", "displayName": "Ann"})["user"].(map[string]any))

	f.ids["siteId"] = id(f.must("POST", org+"/sites", map[string]any{"title": "Docs", "spaces": []string{f.ids["spaceId"]}}))
	site := org + "/sites/{siteId}"
	f.ids["siteSectionId"] = id(f.must("POST", site+"/sections", map[string]any{"spaceId": other, "title": "API"}))
	f.ids["siteSectionGroupId"] = id(f.must("POST", site+"/section-groups", map[string]any{"title": "Reference"}))
	items := f.must("GET", site+"/site-spaces", nil)["items"].([]any)
	f.ids["siteSpaceId"] = items[0].(map[string]any)["id"].(string)
	f.ids["shareLinkId"] = id(f.must("POST", site+"/share-links", map[string]any{"name": "Reviewers"}))
	// Settings of their own (updatedAt set), not the defaults.
	cust := f.must("GET", site+"/customization", nil)
	cust["title"] = "Acme docs"
	f.must("PUT", site+"/customization", cust)
	f.must("PATCH", site+"/site-spaces/{siteSpaceId}/customization", map[string]any{"title": "Handbook docs"})
	f.ids["siteRedirectId"] = id(f.must("POST", site+"/redirects", map[string]any{"source": "/old", "destination": map[string]any{"kind": "external", "url": "https://example.com/new"}}))
	f.ids["siteExternalLinkId"] = id(f.must("POST", site+"/external-links", map[string]any{"title": "Status", "url": "https://status.example.com"}))

	sp := "/v1/spaces/{spaceId}"
	f.ids["changeRequestId"] = id(f.must("POST", sp+"/change-requests", map[string]any{"subject": "Typos"}))
	body := map[string]any{"body": map[string]any{"markdown": "Looks good"}}
	f.ids["commentId"] = id(f.must("POST", sp+"/comments", body))
	f.ids["commentReplyId"] = id(f.must("POST", sp+"/comments/{commentId}/replies", body))
	f.ids["crCommentId"] = id(f.must("POST", sp+"/change-requests/{changeRequestId}/comments", body))
	f.ids["crReplyId"] = id(f.must("POST", sp+"/change-requests/{changeRequestId}/comments/{crCommentId}/replies", body))
	return f
}

// params are the fixture's ids for one path: the change request's comment
// and reply where the path is a change request's, the created user for
// the admin's operations.
func (f *rtFixture) params(path string) map[string]string {
	ids := map[string]string{}
	for k, v := range f.ids {
		ids[k] = v
	}
	if strings.Contains(path, "/change-requests/{changeRequestId}/comments") {
		ids["commentId"], ids["commentReplyId"] = f.ids["crCommentId"], f.ids["crReplyId"]
	}
	// A change request's conversations are its comment threads.
	ids["conversationId"] = f.ids["crCommentId"]
	if strings.HasPrefix(path, "/v1/admin/") {
		ids["userId"] = f.ids["adminUserId"]
	}
	return ids
}

// answer is the record's GET answer, as sent: the whole body, or its item
// in a list.
func (f *rtFixture) answer(t *testing.T, path string, rt roundTrip, ids map[string]string) []byte {
	t.Helper()
	get := rt.get
	if get == "" {
		get = path
	}
	w := do(f.h, "GET", fill(get, ids), nil)
	if w.Code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", get, w.Code, w.Body)
	}
	if !rt.list {
		return w.Body.Bytes()
	}
	want := ids[lastParam(path)]
	var page struct {
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &page); err != nil {
		t.Fatal(err)
	}
	for _, it := range page.Items {
		var v struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(it, &v) == nil && v.ID == want {
			return it
		}
	}
	t.Fatalf("GET %s: no item %s in %s", get, want, w.Body)
	return nil
}

func lastParam(path string) string {
	i := strings.LastIndex(path, "{")
	return strings.TrimSuffix(path[i+1:strings.LastIndex(path, "}")], "...")
}

func TestGetAnswerSentBackChangesNothing(t *testing.T) {
	ops, _ := apiDoc(t)
	var writes []string
	for _, o := range ops {
		if o.method == "PUT" || o.method == "PATCH" {
			writes = append(writes, o.method+" "+o.path)
		}
	}
	sort.Strings(writes)
	for _, w := range writes {
		if _, ok := roundTrips[w]; !ok {
			t.Errorf("%s: no entry in roundTrips (its GET answer sent back, or why it has none)", w)
		}
	}
	for k := range roundTrips {
		if i := sort.SearchStrings(writes, k); i == len(writes) || writes[i] != k {
			t.Errorf("roundTrips names %s, which the API lacks", k)
		}
	}

	f := newRTFixture(t)
	for _, key := range writes {
		rt, ok := roundTrips[key]
		if !ok || rt.none != "" {
			continue
		}
		method, path, _ := strings.Cut(key, " ")
		t.Run(key, func(t *testing.T) {
			ids := f.params(path)
			before := f.answer(t, path, rt, ids)
			body := before
			if rt.add != nil {
				var m map[string]any
				if err := json.Unmarshal(before, &m); err != nil {
					t.Fatal(err)
				}
				for k, v := range rt.add {
					m[k] = v
				}
				body, _ = json.Marshal(m)
			}
			w := do(f.h, method, fill(path, ids), body)
			if w.Code < 200 || w.Code > 299 {
				t.Fatalf("%s with its GET answer: %d %s\nsent %s", key, w.Code, w.Body, body)
			}
			if rt.moves != "" {
				return
			}
			after := f.answer(t, path, rt, ids)
			if d := jsonDiff(before, after); d != "" {
				t.Errorf("the GET answer changed:\n%s", d)
			}
		})
	}
}

// jsonDiff lists the members of two JSON values that differ, "" when none.
func jsonDiff(a, b []byte) string {
	var va, vb any
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	if da.Decode(&va) != nil || db.Decode(&vb) != nil {
		return "not JSON"
	}
	var out []string
	var walk func(path string, x, y any)
	walk = func(path string, x, y any) {
		mx, okx := x.(map[string]any)
		my, oky := y.(map[string]any)
		if okx && oky {
			for k := range mx {
				walk(path+"."+k, mx[k], my[k])
			}
			for k := range my {
				if _, ok := mx[k]; !ok {
					walk(path+"."+k, nil, my[k])
				}
			}
			return
		}
		if !reflect.DeepEqual(x, y) {
			jx, _ := json.Marshal(x)
			jy, _ := json.Marshal(y)
			out = append(out, path+": "+string(jx)+" -> "+string(jy))
		}
	}
	walk("", va, vb)
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// Read-only fields are ignored whatever their value; other unknown fields
// are still refused; a comment's body sent back as a document tree is
// accepted only when it is the body's own.
func TestReadOnlyFieldsAreIgnoredAndTyposRefused(t *testing.T) {
	f := newRTFixture(t)
	space := fill("/v1/spaces/{spaceId}", f.ids)
	w := do(f.h, "PATCH", space, []byte(`{"id":"another","object":"space","createdAt":"2001-01-01T00:00:00Z","title":"Renamed"}`))
	if w.Code != http.StatusOK {
		t.Fatalf("PATCH with other read-only values: %d %s", w.Code, w.Body)
	}
	got := f.must("GET", "/v1/spaces/{spaceId}", nil)
	if got["id"] != f.ids["spaceId"] || got["object"] != "space" || got["title"] != "Renamed" || got["createdAt"] == "2001-01-01T00:00:00Z" {
		t.Errorf("after PATCH: %v", got)
	}
	for body, field := range map[string]string{
		`{"tittle":"Typo"}`:         "tittle",
		`{"urls":{"location":1}}`:   "urls.location",
		`{"updatedAt":"yesterday"}`: "updatedAt",
		`{"object":"collection"}`:   "object",
	} {
		w := do(f.h, "PATCH", space, []byte(body))
		if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), field) {
			t.Errorf("PATCH %s: %d %s, want 400 naming %s", body, w.Code, w.Body, field)
		}
	}
	comment := fill("/v1/spaces/{spaceId}/comments/{commentId}", f.ids)
	c := f.must("GET", "/v1/spaces/{spaceId}/comments/{commentId}", nil)
	before := mustJSON(c)
	doc := c["body"].(map[string]any)["document"].(map[string]any)
	doc["nodes"] = []any{}
	raw, _ := json.Marshal(map[string]any{"body": map[string]any{"document": doc}})
	if w := do(f.h, "PUT", comment, raw); w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "body.document") {
		t.Errorf("PUT a changed document: %d %s, want 400 naming body.document", w.Code, w.Body)
	}
	if d := jsonDiff(before, mustJSON(f.must("GET", "/v1/spaces/{spaceId}/comments/{commentId}", nil))); d != "" {
		t.Errorf("a refused PUT changed the comment: %s", d)
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
