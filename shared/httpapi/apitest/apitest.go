// Package apitest drives an API in tests and checks every response against
// the API's own OpenAPI document: the status must be one the operation
// declares, and the body must validate against that response's schema.
package apitest

import (
	"bytes"
	"encoding/json"

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

// New returns a client of api.
func New(t testing.TB, api *httpapi.API) *Client {
	c := &Client{t: t, api: api, handler: api.Handler()}
	for path, item := range api.Huma.OpenAPI().Paths {
		// A wildcard ({name...}: the rest of the path) spans slashes.
		re := regexp.MustCompile("^" + param.ReplaceAllStringFunc(regexp.QuoteMeta(path), func(p string) string {
			if strings.Contains(p, `\.\.\.`) {
				return ".+"
			}
			return "[^/]+"
		}) + "$")
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
		if res.Status >= 500 {
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
	if mt == nil || mt.Schema == nil || len(res.Body) == 0 {
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
}
