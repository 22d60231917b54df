// Package apitest drives an API in tests and checks every response against
// the API's own OpenAPI document: the status must be one the operation
// declares, and the body must validate against that response's schema.
package apitest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/galleydocs/galley/shared/httpapi"
)

// Client sends requests to an API's handler and validates the answers.
type Client struct {
	t       testing.TB
	api     *httpapi.API
	handler http.Handler
	ops     []route
	// Token is sent as the bearer token unless a request sets its own.
	Token string
}

type route struct {
	method string
	re     *regexp.Regexp
	op     *huma.Operation
}

var param = regexp.MustCompile(`\{[^}]+\}`)

// templateRegexp matches the paths of an OpenAPI path template (under
// prefix): each {parameter} is one segment, but a wildcard ({name...},
// the rest of the path) and a page path ({pagePath}: a slug path, in
// GitBook's documents) span slashes.
func templateRegexp(prefix, template string) *regexp.Regexp {
	parts := param.Split(template, -1)
	names := param.FindAllString(template, -1)
	var b strings.Builder
	b.WriteString("^" + regexp.QuoteMeta(prefix))
	for i, p := range parts {
		b.WriteString(regexp.QuoteMeta(p))
		if i < len(names) {
			if strings.HasSuffix(names[i], "...}") || names[i] == "{pagePath}" {
				b.WriteString(".+")
			} else {
				b.WriteString("[^/]+")
			}
		}
	}
	return regexp.MustCompile(b.String() + "$")
}

// Through sends the client's requests to h (the same API served another
// way: a loopback API Gateway before the functions' processes), still
// validated against api's document; it answers c.
func (c *Client) Through(h http.Handler) *Client {
	c.handler = h
	return c
}

// New returns a client of api.
func New(t testing.TB, api *httpapi.API) *Client {
	c := &Client{t: t, api: api, handler: api.Handler()}
	for path, item := range api.Huma.OpenAPI().Paths {
		re := templateRegexp("", path)
		for method, op := range map[string]*huma.Operation{"GET": item.Get, "POST": item.Post, "PUT": item.Put, "PATCH": item.Patch, "DELETE": item.Delete} {
			if op != nil {
				c.ops = append(c.ops, route{method: method, re: re, op: op})
			}
		}
	}
	return c
}

// Response is a checked response.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body.
func (r Response) JSON(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %s: %v", r.Body, err)
	}
}

// Map decodes the body as an object.
func (r Response) Map(t testing.TB) map[string]any {
	var m map[string]any
	r.JSON(t, &m)
	return m
}

// Do sends a request. body may be nil, a string or []byte (sent as is), or
// a value (sent as JSON). Header "Authorization" defaults to c.Token.
func (c *Client) Do(method, path string, body any, headers ...string) Response {
	c.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			c.t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req := httptest.NewRequest(method, path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i+1] == "" {
			req.Header.Del(headers[i])
		} else {
			req.Header.Set(headers[i], headers[i+1])
		}
	}
	rec := httptest.NewRecorder()
	c.handler.ServeHTTP(rec, req)
	res := Response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
	c.check(method, req.URL.Path, res)
	return res
}

// Expect sends a request and fails the test unless the status is want.
func (c *Client) Expect(want int, method, path string, body any, headers ...string) Response {
	c.t.Helper()
	res := c.Do(method, path, body, headers...)
	if res.Status != want {
		c.t.Fatalf("%s %s: status %d, want %d; body %s", method, path, res.Status, want, res.Body)
	}
	return res
}

// isJSON tells whether a Content-Type is JSON (downloads answer their
// file's own type).
func isJSON(contentType string) bool {
	mt, _, _ := strings.Cut(contentType, ";")
	mt = strings.TrimSpace(mt)
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// check validates a response against the document.
func (c *Client) check(method, path string, res Response) {
	c.t.Helper()
	if res.Status >= 400 {
		var e struct {
			Error *struct {
				Code    *int    `json:"code"`
				Message *string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(res.Body, &e); err != nil || e.Error == nil || e.Error.Code == nil || e.Error.Message == nil {
			c.t.Fatalf("%s %s: error %d without the error shape: %s", method, path, res.Status, res.Body)
		}
		if *e.Error.Code != res.Status {
			c.t.Fatalf("%s %s: error.code %d differs from status %d", method, path, *e.Error.Code, res.Status)
		}
		// 503 is a dependency throttling or failing (docs/faults.md), an
		// answer every operation declares, which tells when to come back;
		// any other 5xx is a server fault.
		if res.Status == http.StatusServiceUnavailable && res.Header.Get("Retry-After") == "" {
			c.t.Fatalf("%s %s: 503 without Retry-After: %s", method, path, res.Body)
		}
		if res.Status >= 500 && res.Status != http.StatusServiceUnavailable {
			c.t.Fatalf("%s %s: server error %d: %s", method, path, res.Status, res.Body)
		}
	}
	var op *huma.Operation
	for _, r := range c.ops {
		if r.method == method && r.re.MatchString(path) {
			op = r.op
			break
		}
	}
	if op == nil {
		return // unknown routes answer 404/405 in the error shape, checked above
	}
	resp := op.Responses[strconv.Itoa(res.Status)]
	if resp == nil {
		c.t.Fatalf("%s %s: status %d is not declared by operation %s", method, path, res.Status, op.OperationID)
	}
	mt := resp.Content["application/json"]
	if mt == nil || mt.Schema == nil || len(res.Body) == 0 || !isJSON(res.Header.Get("Content-Type")) {
		return
	}
	var v any
	if err := json.Unmarshal(res.Body, &v); err != nil {
		c.t.Fatalf("%s %s: body is not JSON: %s", method, path, res.Body)
	}
	result := &huma.ValidateResult{}
	huma.Validate(c.api.Huma.OpenAPI().Components.Schemas, mt.Schema, huma.NewPathBuffer([]byte{}, 0), huma.ModeReadFromServer, v, result)
	if len(result.Errors) > 0 {
		msgs := make([]string, len(result.Errors))
		for i, e := range result.Errors {
			msgs[i] = e.Error()
		}
		c.t.Fatalf("%s %s: response does not match the OpenAPI document (%s):\n%s\nbody: %s", method, path, op.OperationID, strings.Join(msgs, "\n"), res.Body)
	}
	if res.Status < 300 {
		failures, err := checkReferences(method, path, res.Status, res.Body)
		if err != nil {
			c.t.Fatal(err)
		}
		if len(failures) > 0 {
			if f := os.Getenv("GALLEY_REFCHECK_LOG"); f != "" {
				lf, _ := os.OpenFile(f, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
				fmt.Fprintf(lf, "%s %s %d\n%s\n\n", method, path, res.Status, strings.Join(failures, "\n"))
				lf.Close()
				return
			}
			c.t.Fatalf("%s %s: the answer does not match GitBook's schema:\n%s\nbody: %s", method, path, strings.Join(failures, "\n"), res.Body)
		}
	}
}
