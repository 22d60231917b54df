package local_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/families"
	"github.com/galleydocs/galley/shared/app/local"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/store/boltstore"
)

// Input hardening (issue 16, item 6), as classes: each test goes over every
// operation of the API's OpenAPI document.

const hardToken = "gb_hardening_admin_token_0123456789"

type operation struct {
	method, path string // path as registered: /v1/spaces/{spaceId}/content/path/{pagePath...}
	op           *huma.Operation
}

// apiDoc is every family's operations, and the registry of their schemas.
func apiDoc(t *testing.T) ([]operation, huma.Registry) {
	t.Helper()
	api := app.NewAPI(app.Config{}, families.NewRoot(&deps.Deps{}), families.All()...)
	doc := api.Huma.OpenAPI()
	var ops []operation
	for p, item := range doc.Paths {
		for m, op := range map[string]*huma.Operation{"GET": item.Get, "POST": item.Post, "PUT": item.Put,
			"PATCH": item.Patch, "DELETE": item.Delete} {
			if op != nil {
				ops = append(ops, operation{m, p, op})
			}
		}
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].path+ops[i].method < ops[j].path+ops[j].method })
	if len(ops) < 50 {
		t.Fatalf("only %d operations in the document", len(ops))
	}
	return ops, doc.Components.Schemas
}

// handler is the local service, in-process, with its administrator's token.
func handler(t *testing.T) http.Handler {
	t.Helper()
	l, err := local.Open(context.Background(), config(t.TempDir(), hardToken))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	// Tests need no durability: no fsync per write.
	db := l.Deps.Store.(*boltstore.Store).DB()
	db.NoSync, db.NoGrowSync = true, true
	return l.Handler
}

// fill puts values into the path's parameters: "x1" unless given.
func fill(path string, values map[string]string) string {
	return regexp.MustCompile(`\{([^}]+)\}`).ReplaceAllStringFunc(path, func(m string) string {
		name := strings.TrimSuffix(m[1:len(m)-1], "...")
		if v, ok := values[name]; ok {
			return v
		}
		return "x1"
	})
}

// leak matches what an error message must not carry: Go type names,
// pointers, source files, the decoder's own wording.
var leak = regexp.MustCompile(`\*?\b[a-z][a-z0-9]*\.[A-Z][A-Za-z0-9]*\b|\b0x[0-9a-fA-F]{4,}|\.go\b|json: |Go (struct|value)`)

// errorShape checks an error answer: JSON {"error":{"code":status,
// "message":...}} with a clean message, which it returns.
func errorShape(t *testing.T, what string, status int, ct string, body []byte) string {
	t.Helper()
	var e struct {
		Error *struct {
			Code    int     `json:"code"`
			Message *string `json:"message"`
		} `json:"error"`
	}
	if !strings.HasPrefix(ct, "application/json") {
		t.Errorf("%s: Content-Type %q, body %q", what, ct, body)
	}
	if err := json.Unmarshal(body, &e); err != nil || e.Error == nil || e.Error.Message == nil {
		t.Errorf("%s: not the error shape: %q (%v)", what, body, err)
		return ""
	}
	if e.Error.Code != status {
		t.Errorf("%s: error.code %d, status %d", what, e.Error.Code, status)
	}
	if leak.MatchString(*e.Error.Message) {
		t.Errorf("%s: message carries internals: %q", what, *e.Error.Message)
	}
	return *e.Error.Message
}

// do sends a request as the administrator; headers are name, value pairs
// set after the defaults.
func do(h http.Handler, method, target string, body []byte, headers ...string) *httptest.ResponseRecorder {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req := httptest.NewRequest(method, "/", rd)
	req.URL, _ = url.ParseRequestURI(target)
	req.RequestURI = target
	req.Header.Set("Authorization", "Bearer "+hardToken)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

// Path ids and query values with NUL, invalid UTF-8, control characters or
// bidi overrides answer 400 naming the parameter, for every operation.
func TestEveryOperationRefusesBadParameterText(t *testing.T) {
	ops, _ := apiDoc(t)
	h := handler(t)
	bad := map[string]string{"NUL": "a\x00b", "invalid UTF-8": "a\xffb", "control": "a\x1bb", "newline": "a\nb",
		"C1": "a\u0085b", "bidi override": "a\u202eb", "bidi isolate": "a\u2066b"}
	n := 0
	for _, o := range ops {
		for _, p := range o.op.Parameters {
			if p.In != "path" && p.In != "query" {
				continue
			}
			for kind, v := range bad {
				target := fill(o.path, nil)
				if p.In == "path" {
					target = fill(o.path, map[string]string{p.Name: url.PathEscape(v)})
				} else {
					target += "?" + url.Values{p.Name: {v}}.Encode()
				}
				var body []byte
				if o.op.RequestBody != nil {
					body = []byte("{}")
				}
				w := do(h, o.method, target, body)
				what := fmt.Sprintf("%s %s %s %s", o.method, o.path, p.Name, kind)
				if w.Code != http.StatusBadRequest {
					t.Errorf("%s: %d %s", what, w.Code, w.Body)
					continue
				}
				if msg := errorShape(t, what, w.Code, w.Header().Get("Content-Type"), w.Body.Bytes()); !strings.HasPrefix(msg, p.Name+": ") {
					t.Errorf("%s: message %q does not name the parameter", what, msg)
				}
				n++
			}
		}
	}
	t.Logf("%d requests", n)
}

// wrongValues are JSON values of every type but the schema's, null
// included where the schema does not allow it (required or not).
func wrongValues(s *huma.Schema) []any {
	byType := map[string][]any{
		"string":  {1, true, []any{"s"}, map[string]any{}},
		"integer": {"1", true, []any{1}, map[string]any{}, 1.5},
		"number":  {"1", true, []any{1}, map[string]any{}},
		"boolean": {"true", 1, []any{true}, map[string]any{}},
		"array":   {"s", 1, true, map[string]any{}},
		"object":  {"s", 1, true, []any{map[string]any{}}},
	}
	vs, ok := byType[s.Type]
	if !ok {
		return nil
	}
	if !s.Nullable {
		vs = append(vs, nil)
	}
	return vs
}

// Every field of every JSON body, given a value of every other JSON type
// (and, in arrays, items of the wrong type), answers 400 naming the field.
func TestEveryOperationRefusesWrongJSONTypes(t *testing.T) {
	ops, reg := apiDoc(t)
	h := handler(t)
	resolve := func(s *huma.Schema) *huma.Schema {
		if s != nil && s.Ref != "" {
			return reg.SchemaFromRef(s.Ref)
		}
		return s
	}
	n := 0
	for _, o := range ops {
		if o.op.RequestBody == nil || o.op.RequestBody.Content["application/json"] == nil {
			continue
		}
		root := resolve(o.op.RequestBody.Content["application/json"].Schema)
		if root == nil || root.Type != "object" {
			continue
		}
		type field struct {
			path   []string
			schema *huma.Schema
		}
		var fields []field
		for name, ps := range root.Properties {
			ps = resolve(ps)
			fields = append(fields, field{[]string{name}, ps})
			if ps.Type == "object" { // one level down
				for sub, ss := range ps.Properties {
					fields = append(fields, field{[]string{name, sub}, resolve(ss)})
				}
			}
		}
		for _, f := range fields {
			vals := wrongValues(f.schema)
			if f.schema.Type == "array" {
				if items := resolve(f.schema.Items); items != nil {
					for _, v := range wrongValues(items) {
						vals = append(vals, []any{v})
					}
				}
			}
			for _, v := range vals {
				var body any = v
				for i := len(f.path) - 1; i >= 0; i-- {
					body = map[string]any{f.path[i]: body}
				}
				raw, _ := json.Marshal(body)
				w := do(h, o.method, fill(o.path, nil), raw)
				what := fmt.Sprintf("%s %s %s", o.method, o.path, raw)
				if w.Code != http.StatusBadRequest {
					t.Errorf("%s: %d %s", what, w.Code, w.Body)
					continue
				}
				msg := errorShape(t, what, w.Code, w.Header().Get("Content-Type"), w.Body.Bytes())
				if !strings.Contains(msg, strings.Join(f.path, ".")) {
					t.Errorf("%s: message %q does not name %s", what, msg, strings.Join(f.path, "."))
				}
				n++
			}
		}
	}
	t.Logf("%d requests", n)
}

// A key twice, or two keys differing only in case, answer 400 naming it.
func TestEveryOperationRefusesDuplicateKeys(t *testing.T) {
	ops, reg := apiDoc(t)
	h := handler(t)
	n := 0
	for _, o := range ops {
		if o.op.RequestBody == nil || o.op.RequestBody.Content["application/json"] == nil {
			continue
		}
		key := "title"
		if s := o.op.RequestBody.Content["application/json"].Schema; s != nil && s.Ref != "" {
			for name := range reg.SchemaFromRef(s.Ref).Properties {
				key = name
				break
			}
		}
		upper := strings.ToUpper(key[:1]) + key[1:]
		if upper == key {
			upper = strings.ToLower(key[:1]) + key[1:]
		}
		for _, body := range []string{
			`{"` + key + `":null,"` + key + `":null}`,
			`{"` + key + `":null,"` + upper + `":null}`,
			`{"outer":[{"` + key + `":1,"` + key + `":2}]}`,
		} {
			w := do(h, o.method, fill(o.path, nil), []byte(body))
			what := fmt.Sprintf("%s %s %s", o.method, o.path, body)
			if w.Code != http.StatusBadRequest {
				t.Errorf("%s: %d %s", what, w.Code, w.Body)
				continue
			}
			if msg := errorShape(t, what, w.Code, w.Header().Get("Content-Type"), w.Body.Bytes()); !strings.Contains(msg, key) && !strings.Contains(msg, upper) {
				t.Errorf("%s: message %q does not name the key", what, msg)
			}
			n++
		}
	}
	t.Logf("%d requests", n)
}

// Every error answer is the error shape: the router's 404 and 405 (Allow
// lists only the path's methods), bad JSON, a body too large, and, from a
// real server, the errors net/http writes itself.
func TestEveryErrorIsTheErrorShape(t *testing.T) {
	ops, _ := apiDoc(t)
	h := handler(t)
	methods := map[string]map[string]bool{}
	for _, o := range ops {
		if methods[o.path] == nil {
			methods[o.path] = map[string]bool{}
		}
		methods[o.path][o.method] = true
		if o.method == "GET" {
			methods[o.path]["HEAD"] = true
		}
	}
	for p, ms := range methods {
		var want []string
		for _, m := range []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"} {
			if ms[m] {
				want = append(want, m)
			}
		}
		for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE"} {
			if ms[m] {
				continue
			}
			w := do(h, m, fill(p, nil), nil)
			what := m + " " + p
			if w.Code != http.StatusMethodNotAllowed {
				t.Errorf("%s: %d, want 405", what, w.Code)
				continue
			}
			errorShape(t, what, w.Code, w.Header().Get("Content-Type"), w.Body.Bytes())
			if got := w.Header().Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("%s: X-Content-Type-Options %q, want nosniff", what, got)
			}
			if got := w.Header().Get("Allow"); got != strings.Join(want, ", ") {
				t.Errorf("%s: Allow %q, want %q", what, got, strings.Join(want, ", "))
			}
		}
	}
	for _, target := range []string{"/nowhere", "/v1/nowhere/%00", "/v1/spaces/x1/nowhere/a%C0b"} {
		w := do(h, "GET", target, nil)
		if w.Code != 404 {
			t.Errorf("GET %s: %d", target, w.Code)
		}
		errorShape(t, "GET "+target, w.Code, w.Header().Get("Content-Type"), w.Body.Bytes())
	}
	for _, o := range ops {
		if o.op.RequestBody == nil || o.op.RequestBody.Content["application/json"] == nil {
			continue
		}
		for _, c := range []struct {
			body   []byte
			status int
		}{
			{[]byte(`{"title":`), 400},
			{[]byte(`{"title" 1}`), 400},
			{[]byte(`[1,2`), 400},
			{append(append([]byte(`{"title":"`), bytes.Repeat([]byte("a"), 64<<20)...), `"}`...), 413},
		} {
			w := do(h, o.method, fill(o.path, nil), c.body)
			what := fmt.Sprintf("%s %s %.20q", o.method, o.path, c.body)
			if w.Code != c.status {
				t.Errorf("%s: %d %s, want %d", what, w.Code, w.Body, c.status)
				continue
			}
			errorShape(t, what, w.Code, w.Header().Get("Content-Type"), w.Body.Bytes())
		}
	}

	// What net/http answers before any handler.
	s := start(t, config(t.TempDir(), hardToken))
	addr := strings.TrimPrefix(s.url, "http://")
	for name, raw := range map[string]string{
		"malformed request line": "GET /v1/\x00 HTTP/1.1\r\nHost: x\r\n\r\n",
		"bad escape":             "GET /v1/%zz HTTP/1.1\r\nHost: x\r\n\r\n",
		"malformed header":       "GET /v1/ HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n",
		"no host":                "GET /v1/ HTTP/1.1\r\n\r\n",
		"headers too large":      "GET /v1/ HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", 2<<20) + "\r\n\r\n",
	} {
		conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
		go func() { _, _ = io.WriteString(conn, raw) }()
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			conn.Close()
			continue
		}
		body, _ := io.ReadAll(res.Body)
		conn.Close()
		if res.StatusCode < 400 || res.StatusCode > 499 {
			t.Errorf("%s: status %d", name, res.StatusCode)
		}
		errorShape(t, name, res.StatusCode, res.Header.Get("Content-Type"), body)
	}
}

// stringField is a string in an operation's JSON body: its location as
// segments (a name, or "[]" for an array's items) and its schema.
type stringField struct {
	o      operation
	segs   []string
	schema *huma.Schema
}

// location is the field's name in messages: mergeRules.rules[0].users[0].
func (f stringField) location() string {
	var b strings.Builder
	for _, s := range f.segs {
		if s == "[]" {
			b.WriteString("[0]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}

// body is a JSON body holding v at the field's location, and nothing else.
func (f stringField) body(v any, segs ...string) []byte {
	if segs == nil {
		segs = f.segs
	}
	for i := len(segs) - 1; i >= 0; i-- {
		if segs[i] == "[]" {
			v = []any{v}
		} else {
			v = map[string]any{segs[i]: v}
		}
	}
	raw, _ := json.Marshal(v)
	return raw
}

// bodyStrings lists every string of every operation's JSON body, at any
// depth: in objects, arrays, additional properties and every alternative
// of oneOf, anyOf and allOf. Read-only fields (an answer's fields a PUT or
// PATCH accepts and ignores: docs/http.md) are left out: nothing of them
// is kept.
func bodyStrings(ops []operation, reg huma.Registry) []stringField {
	var out []stringField
	var walk func(o operation, s *huma.Schema, segs []string, depth int)
	walk = func(o operation, s *huma.Schema, segs []string, depth int) {
		if s != nil && s.ReadOnly {
			return
		}
		if s != nil && s.Ref != "" {
			s = reg.SchemaFromRef(s.Ref)
		}
		if s == nil || depth > 12 {
			return
		}
		if s.Type == huma.TypeString && len(segs) > 0 {
			out = append(out, stringField{o, slices.Clone(segs), s})
		}
		for name, p := range s.Properties {
			walk(o, p, append(segs, name), depth+1)
		}
		if s.Items != nil {
			walk(o, s.Items, append(segs, "[]"), depth+1)
		}
		for _, alts := range [][]*huma.Schema{s.OneOf, s.AnyOf, s.AllOf} {
			for _, alt := range alts {
				walk(o, alt, segs, depth+1)
			}
		}
	}
	for _, o := range ops {
		if o.op.RequestBody != nil && o.op.RequestBody.Content["application/json"] != nil {
			walk(o, o.op.RequestBody.Content["application/json"].Schema, nil, 0)
		}
	}
	return out
}

// idName matches the names of body fields that name another record: they
// must be ids (ids.ID, whose schema has httpapi.IDPattern).
var idName = regexp.MustCompile(`(?i)^(\w*id|\w*ids|parent|members|users|spaces|sections|organization|site|space|collection|` +
	`siteSpace|siteSection|defaultTeam|defaultSiteSpace|defaultSiteSection|page|node|into|revision|emails?|basename|spec|target|owner|team|user)$`)

// notIDs are body fields named like ids that name no record of Galley's.
var notIDs = map[string]string{
	"repoCacheID":                 "GitBook's repository cache, accepted and ignored",
	"entityID":                    "a SAML identity provider's issuer URI, compared, never a key",
	"clientId":                    "Galley's client id at an OpenID Connect provider, sent to it, never a key",
	"claims.email":                "the name of an ID token's claim, never a key",
	"styling.font.id":             "a custom font's id, kept inside the site's customization",
	"styling.headingFont.id":      "a custom font's id, kept inside the site's customization",
	"styling.monospaceFont.id":    "a custom font's id, kept inside the site's customization",
	"source.props.page":           "a tag's name or an operation's path in an OpenAPI spec, compared, never a key",
	"events.responseId":           insightsID,
	"events.session.visitorId":    insightsID,
	"events.session.sessionId":    insightsID,
	"events.location.revision":    insightsID,
	"events.location.page":        insightsID,
	"events.location.siteSection": insightsID,
	"events.location.siteSpace":   insightsID,
	"events.location.space":       insightsID,
	"events.result.spaceId":       insightsID,
	"events.result.pageId":        insightsID,
	"events.result.recordId":      insightsID,
}

// insightsID is why an insights event's ids (trackEventsInSiteById: where
// it happened, as the renderer says) are not ids.ID: they are counted as
// values of counters whose keys are hashes, never a storage key, and are
// at most insights.MaxID characters.
const insightsID = "an insights event's id, counted in a counter keyed by a hash"

// Every id a body names (ids.ID: a parent, members, a space to add, an
// invited address, ...) with a NUL, another control character, a
// bidirectional control, too many characters or the wrong JSON type
// answers 400 naming the field, before any operation runs: no such id
// reaches a storage key. The fields come from the document, so a new id
// field is covered once it is an ids.ID, and a field named like an id that
// is not one fails the test.
func TestEveryOperationRefusesBadBodyIDs(t *testing.T) {
	ops, reg := apiDoc(t)
	h := handler(t)
	var idFields []stringField
	have := map[string]bool{}
	for _, f := range bodyStrings(ops, reg) {
		if f.schema.Pattern == httpapi.IDPattern {
			if !have[f.o.method+" "+f.o.path+" "+f.location()] {
				idFields = append(idFields, f)
				have[f.o.method+" "+f.o.path+" "+f.location()] = true
			}
			continue
		}
		name := f.segs[len(f.segs)-1]
		if name == "[]" && len(f.segs) > 1 {
			name = f.segs[len(f.segs)-2]
		}
		var named []string
		for _, s := range f.segs {
			if s != "[]" {
				named = append(named, s)
			}
		}
		if idName.MatchString(name) && len(f.schema.Enum) == 0 && notIDs[strings.Join(named, ".")] == "" {
			t.Errorf("%s %s %s: named like an id, but not an ids.ID (or listed in notIDs)", f.o.method, f.o.path, f.location())
		}
	}
	// The requests of issue 23, each a 500 before.
	for _, want := range []string{
		"POST /v1/orgs/{organizationId}/spaces parent",
		"PATCH /v1/spaces/{spaceId} parent",
		"POST /v1/orgs/{organizationId}/collections parent",
		"POST /v1/collections/{collectionId}/move parent",
		"POST /v1/collections/{collectionId}/move position.before.collection",
		"POST /v1/orgs/{organizationId}/sites/{siteId}/site-spaces spaceId",
		"POST /v1/orgs/{organizationId}/sites/{siteId}/sections spaceId",
		"POST /v1/orgs/{organizationId}/sites spaces[0]",
		"PUT /v1/orgs/{organizationId}/teams members[0]",
		"POST /v1/orgs/{organizationId}/saml defaultTeam",
		"POST /v1/orgs/{organizationId}/invites emails[0]",
		"POST /v1/orgs/{organizationId}/invites emails[0].email",
		"POST /v1/collections/{collectionId}/transfer organization",
	} {
		if !have[want] {
			t.Errorf("%s: not an id field", want)
		}
	}
	bad := map[string]string{"NUL": "a\x00b", "control": "a\x1bb", "newline": "a\nb", "tab": "a\tb", "DEL": "a\x7fb",
		"C1": "a\u0085b", "bidi override": "a\u202eb", "bidi isolate": "a\u2066b", "Arabic letter mark": "a\u061cb"}
	n := 0
	check := func(f stringField, what string, w *httptest.ResponseRecorder, prefix string) {
		t.Helper()
		if w.Code != http.StatusBadRequest {
			t.Errorf("%s: %d %s", what, w.Code, w.Body)
			return
		}
		if msg := errorShape(t, what, w.Code, w.Header().Get("Content-Type"), w.Body.Bytes()); !strings.HasPrefix(msg, prefix) {
			t.Errorf("%s: message %q does not start with %q", what, msg, prefix)
		}
		n++
	}
	for _, f := range idFields {
		target := fill(f.o.path, nil)
		loc := f.location()
		for kind, v := range bad {
			w := do(h, f.o.method, target, f.body(v))
			check(f, fmt.Sprintf("%s %s %s %s", f.o.method, f.o.path, loc, kind), w, loc+": contains a")
		}
		maxLen := 64
		if f.schema.MaxLength != nil {
			maxLen = *f.schema.MaxLength
		}
		w := do(h, f.o.method, target, f.body(strings.Repeat("a", maxLen+1)))
		check(f, fmt.Sprintf("%s %s %s too long", f.o.method, f.o.path, loc), w, loc+": expected length <= "+strconv.Itoa(maxLen))
		// Go's decoder fills a field from a key of any case.
		segs := slices.Clone(f.segs)
		segs[0] = strings.ToUpper(segs[0])
		w = do(h, f.o.method, target, f.body("a\x00b", segs...))
		check(f, fmt.Sprintf("%s %s %s upper case", f.o.method, f.o.path, loc), w, segs[0])
		for _, v := range []any{1, true, map[string]any{}} {
			w := do(h, f.o.method, target, f.body(v))
			what := fmt.Sprintf("%s %s %s %v", f.o.method, f.o.path, loc, v)
			if w.Code != http.StatusBadRequest {
				t.Errorf("%s: %d %s", what, w.Code, w.Body)
				continue
			}
			if msg := errorShape(t, what, w.Code, w.Header().Get("Content-Type"), w.Body.Bytes()); !strings.Contains(msg, f.segs[0]) {
				t.Errorf("%s: message %q does not name %s", what, msg, f.segs[0])
			}
			n++
		}
	}
	t.Logf("%d id fields, %d requests", len(idFields), n)
}

// nullField is a value of an operation's JSON body: its location and
// whether its schema allows null.
type nullField struct {
	f        stringField
	nullable bool
}

// bodyNullFields lists every value of every operation's JSON body, at any
// depth (objects, arrays, and the alternatives of oneOf and anyOf, a
// location under several alternatives listed once, nullable when one of
// them allows null), but free-form values (no type: any value goes).
func bodyNullFields(ops []operation, reg huma.Registry) []nullField {
	var out []nullField
	for _, o := range ops {
		if o.op.RequestBody == nil || o.op.RequestBody.Content["application/json"] == nil {
			continue
		}
		at := map[string]int{} // location -> index in out
		var allows func(s *huma.Schema, depth int) bool
		allows = func(s *huma.Schema, depth int) bool {
			if s != nil && s.Ref != "" {
				s = reg.SchemaFromRef(s.Ref)
			}
			if s == nil || s.Nullable || slices.Contains(s.Enum, nil) {
				return true
			}
			if s.Type != "" {
				return false
			}
			alts := append(slices.Clone(s.OneOf), s.AnyOf...)
			for _, a := range alts {
				if allows(a, depth+1) {
					return true
				}
			}
			return len(alts) == 0
		}
		var walk func(s *huma.Schema, segs []string, depth int)
		walk = func(s *huma.Schema, segs []string, depth int) {
			if s != nil && s.Ref != "" {
				s = reg.SchemaFromRef(s.Ref)
			}
			if s == nil || depth > 12 {
				return
			}
			alts := append(slices.Clone(s.OneOf), s.AnyOf...)
			if len(segs) > 0 && (s.Type != "" || len(alts) > 0) {
				f := stringField{o, slices.Clone(segs), s}
				if i, ok := at[f.location()]; ok {
					out[i].nullable = out[i].nullable || allows(s, 0)
				} else {
					at[f.location()] = len(out)
					out = append(out, nullField{f, allows(s, 0)})
				}
			}
			for name, p := range s.Properties {
				walk(p, append(segs, name), depth+1)
			}
			if s.Items != nil {
				walk(s.Items, append(segs, "[]"), depth+1)
			}
			for _, alt := range alts {
				walk(alt, segs, depth+1)
			}
		}
		walk(o.op.RequestBody.Content["application/json"].Schema, nil, 0)
	}
	return out
}

// null where a body's schema does not allow it answers 400 naming the
// field, at every depth, whether the field is required or not (huma's own
// validation lets null through in an optional field, which Go then reads
// as the field left out); null where the schema allows it (PATCH: remove
// the field) is not refused for being null. The fields come from the
// document, so a new field is covered once it is declared.
func TestEveryOperationRefusesNullWhereTheSchemaDoes(t *testing.T) {
	ops, reg := apiDoc(t)
	h := handler(t)
	fields := bodyNullFields(ops, reg)
	refused, allowed := 0, 0
	var nullable []string
	for _, nf := range fields {
		f := nf.f
		loc := f.location()
		w := do(h, f.o.method, fill(f.o.path, nil), f.body(nil))
		what := fmt.Sprintf("%s %s %s: null", f.o.method, f.o.path, loc)
		if !nf.nullable {
			if w.Code != http.StatusBadRequest {
				t.Errorf("%s: %d %s", what, w.Code, w.Body)
				continue
			}
			msg := errorShape(t, what, w.Code, w.Header().Get("Content-Type"), w.Body.Bytes())
			if !strings.HasPrefix(msg, loc+": expected ") || !strings.HasSuffix(msg, ", got null") {
				t.Errorf("%s: message %q, want %q", what, msg, loc+": expected <type>, got null")
			}
			refused++
			continue
		}
		nullable = append(nullable, f.o.method+" "+f.o.path+" "+loc)
		if w.Code == http.StatusBadRequest && strings.Contains(w.Body.String(), loc+": ") &&
			strings.Contains(w.Body.String(), "null") {
			t.Errorf("%s: refused though the schema allows null: %s", what, w.Body)
		}
		allowed++
	}
	// Fields whose null means something, each declared so.
	for _, want := range []string{
		"PATCH /v1/spaces/{spaceId} emoji",
		"PATCH /v1/spaces/{spaceId} parent",
		"PATCH /v1/collections/{collectionId} description",
		"PATCH /v1/orgs/{organizationId} defaultContent",
		"PATCH /v1/orgs/{organizationId} logo",
		"PATCH /v1/orgs/{organizationId}/sites/{siteId} proxy",
		"PATCH /v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId} condition",
		"PUT /v1/orgs/{organizationId}/sites/{siteId}/redirects redirects[0].destination",
		"PATCH /v1/orgs/{organizationId}/saml/{samlProviderId} defaultTeam",
	} {
		if !slices.Contains(nullable, want) {
			t.Errorf("%s: not declared nullable", want)
		}
	}
	t.Logf("%d fields: %d refuse null, %d allow it", len(fields), refused, allowed)
}

// Every body string of format uri takes only a URI, which has a scheme
// (RFC 3986; huma's check takes "" and relative references): "" and a
// relative reference answer 400 naming the field.
func TestEveryOperationRefusesURIsWithoutScheme(t *testing.T) {
	ops, reg := apiDoc(t)
	h := handler(t)
	n, fields := 0, 0
	for _, f := range bodyStrings(ops, reg) {
		if f.schema.Format != "uri" {
			continue
		}
		fields++
		loc := f.location()
		for _, v := range []string{"", "relative/path", "//host.example/x", "https:"} {
			w := do(h, f.o.method, fill(f.o.path, nil), f.body(v))
			what := fmt.Sprintf("%s %s %s %q", f.o.method, f.o.path, loc, v)
			if w.Code != http.StatusBadRequest {
				t.Errorf("%s: %d %s", what, w.Code, w.Body)
				continue
			}
			if msg := errorShape(t, what, w.Code, w.Header().Get("Content-Type"), w.Body.Bytes()); !strings.HasPrefix(msg, loc+": expected a URI") {
				t.Errorf("%s: message %q", what, msg)
			}
			n++
		}
	}
	if fields < 15 {
		t.Errorf("only %d uri fields", fields)
	}
	t.Logf("%d uri fields, %d requests", fields, n)
}
