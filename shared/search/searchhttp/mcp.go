package searchhttp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/search"
	"github.com/galleydocs/galley/shared/sites"
)

// A published site's MCP endpoint, <site>/~gitbook/mcp (GitBook's path):
// the Model Context Protocol's "Streamable HTTP" transport without
// sessions and without server-sent events. Each POST carries one JSON-RPC
// 2.0 message (or a batch) and is answered in JSON; the tools search the
// site and read a page's markdown as the visitor (search.SiteAgent).
// docs/reader.md, "MCP endpoint".

// The protocol versions served: the latest, and all of them for messages.
const (
	mcpLatest   = "2025-06-18"
	mcpVersions = "2025-06-18, 2025-03-26, 2024-11-05"
)

func supportedVersion(v string) bool {
	switch v {
	case "2025-06-18", "2025-03-26", "2024-11-05":
		return true
	}
	return false
}

// JSON-RPC error codes.
const (
	rpcParseError     = -32700
	rpcInvalidRequest = -32600
	rpcMethodNotFound = -32601
	rpcInvalidParams  = -32602
	rpcInternalError  = -32603
)

type mcpIn struct {
	OrgID           string `path:"orgId" maxLength:"64"`
	Basename        string `path:"basename" maxLength:"128"`
	ShareKey        string `query:"shareKey" maxLength:"128"`
	JWTToken        string `query:"jwt_token" maxLength:"8192" doc:"A visitor token of a visitor-auth site"`
	VisitorToken    string `cookie:"galley_visitor" maxLength:"8192"`
	Authorization   string `header:"Authorization" maxLength:"8300" doc:"Bearer and a visitor token of a visitor-auth site"`
	ProtocolVersion string `header:"MCP-Protocol-Version" maxLength:"64"`
	Origin          string `header:"Origin" maxLength:"2048"`
	// body is read by Resolve, as sent: huma would validate a declared
	// JSON body before the JSON-RPC errors could answer it.
	body     []byte
	tooLarge bool
	unsigned map[string]string
}

// Resolve reads the URL's unsigned claims (visitor.<name>=<value>), as
// the reader does.
func (in *mcpIn) Resolve(ctx huma.Context) []error {
	if r := ctx.BodyReader(); r != nil {
		b, err := io.ReadAll(io.LimitReader(r, httpapi.MaxBodyBytes+1))
		if err != nil {
			return []error{&huma.ErrorDetail{Location: "body", Message: "could not read the body"}}
		}
		in.body, in.tooLarge = b, len(b) > httpapi.MaxBodyBytes
	}
	u := ctx.URL()
	for k, v := range u.Query() {
		if name, ok := strings.CutPrefix(k, "visitor."); ok && name != "" && len(v) > 0 {
			if in.unsigned == nil {
				in.unsigned = map[string]string{}
			}
			if len(in.unsigned) >= 32 {
				return []error{&huma.ErrorDetail{Location: "query", Message: "too many visitor.<name> parameters"}}
			}
			in.unsigned[name] = v[0]
		}
	}
	return nil
}

// visitorToken is the request's visitor token: the Authorization
// header's, else the URL's jwt_token, else the reader's cookie.
func (in *mcpIn) visitorToken() string {
	if scheme, tok, ok := strings.Cut(in.Authorization, " "); ok && strings.EqualFold(scheme, "bearer") && strings.TrimSpace(tok) != "" {
		return strings.TrimSpace(tok)
	}
	if in.JWTToken != "" {
		return in.JWTToken
	}
	return in.VisitorToken
}

type mcpOut struct {
	Status       int
	ContentType  string `header:"Content-Type"`
	CacheControl string `header:"Cache-Control"`
	Robots       string `header:"X-Robots-Tag"`
	Allow        string `header:"Allow"`
	Auth         string `header:"WWW-Authenticate"`
	NoSniff      string `header:"X-Content-Type-Options"`
	CSP          string `header:"Content-Security-Policy"`
	Referrer     string `header:"Referrer-Policy"`
	Body         []byte
}

// secured sets the headers every answer of the endpoint carries, as the
// reader's answers that are not pages (docs/reader.md, "Security headers").
func (out *mcpOut) secured() *mcpOut {
	if out != nil {
		out.NoSniff, out.CSP, out.Referrer = "nosniff", dataPolicy, referrerPolicy
	}
	return out
}

// rpcRequest is a JSON-RPC message as received: a request (with an id),
// a notification (without) or a response the client sends back.
type rpcRequest struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type rpcResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

func rpcFail(id json.RawMessage, code int, format string, args ...any) *rpcResponse {
	if id == nil {
		id = json.RawMessage("null")
	}
	return &rpcResponse{JSONRPC: "2.0", ID: id, Error: &rpcError{Code: code, Message: fmt.Sprintf(format, args...)}}
}

// mcpServer answers the messages of one POST for one opened site.
type mcpServer struct {
	agent *search.SiteAgent
	tools []map[string]any
}

// mcpTools are the tools, with their input schemas (JSON Schema objects).
func mcpTools() []map[string]any {
	return []map[string]any{
		mcpTool("searchDocumentation", "Search the documentation",
			"Search this documentation site. Returns the matching pages with their titles, published URLs and excerpts; read one with getPage.",
			"query", "What to search for", 512),
		mcpTool("getPage", "Read a page",
			"Read a page of this documentation site as markdown, by its published URL (as searchDocumentation gives it) or its path within the site.",
			"url", "The page's published URL, or its path within the site", 4096),
	}
}

// mcpTool is a tool whose input is one required, non-empty string
// argument (arg, described by argDoc, at most maxLength characters).
func mcpTool(name, title, description, arg, argDoc string, maxLength int) map[string]any {
	return map[string]any{
		"name":        name,
		"title":       title,
		"description": description,
		"inputSchema": map[string]any{
			"type":                 "object",
			"properties":           map[string]any{arg: map[string]any{"type": "string", "description": argDoc, "minLength": 1, "maxLength": maxLength}},
			"required":             []string{arg},
			"additionalProperties": false,
		},
	}
}

// handle answers one message; nil when it needs no answer (a
// notification, or a response from the client).
func (m *mcpServer) handle(ctx context.Context, raw json.RawMessage) *rpcResponse {
	var req rpcRequest
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return rpcFail(nil, rpcInvalidRequest, "a JSON-RPC message is an object")
	}
	if err := json.Unmarshal(raw, &req); err != nil {
		return rpcFail(nil, rpcInvalidRequest, "not a JSON-RPC 2.0 message")
	}
	id := req.ID
	if len(id) > 0 && id[0] != '"' && id[0] != '-' && (id[0] < '0' || id[0] > '9') {
		// An id is a string or a number.
		return rpcFail(nil, rpcInvalidRequest, "id must be a string or a number")
	}
	if req.JSONRPC != "2.0" {
		return rpcFail(id, rpcInvalidRequest, `jsonrpc must be "2.0"`)
	}
	if req.Method == "" {
		if len(id) > 0 && (req.Result != nil || req.Error != nil) {
			return nil // a response to a request the server never sends
		}
		return rpcFail(id, rpcInvalidRequest, "method is required")
	}
	if len(id) == 0 {
		return nil // notifications (notifications/initialized, cancelled...) need nothing
	}
	result, fail := m.call(ctx, req.Method, req.Params)
	if fail != nil {
		fail.ID = id
		return fail
	}
	return &rpcResponse{JSONRPC: "2.0", ID: id, Result: result}
}

// params decodes a method's params (an object, or absent) into v.
func params(raw json.RawMessage, v any) *rpcResponse {
	if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" {
		return nil
	} else if t[0] != '{' {
		return rpcFail(nil, rpcInvalidParams, "params must be an object")
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return rpcFail(nil, rpcInvalidParams, "invalid params: %s", paramsError(err))
	}
	return nil
}

// paramsError names the field of a decoding error without Go's types.
func paramsError(err error) string {
	if te, ok := err.(*json.UnmarshalTypeError); ok {
		return fmt.Sprintf("%s: expected %s", te.Field, jsonKind(te.Type.Kind().String()))
	}
	return "malformed"
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "string"
	case "map", "struct":
		return "object"
	case "slice":
		return "array"
	}
	return goKind
}

func (m *mcpServer) call(ctx context.Context, method string, raw json.RawMessage) (any, *rpcResponse) {
	switch method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		if fail := params(raw, &p); fail != nil {
			return nil, fail
		}
		if p.ProtocolVersion == "" {
			return nil, rpcFail(nil, rpcInvalidParams, "protocolVersion is required")
		}
		v := mcpLatest
		if supportedVersion(p.ProtocolVersion) {
			v = p.ProtocolVersion
		}
		return map[string]any{
			"protocolVersion": v,
			"capabilities":    map[string]any{"tools": map[string]any{"listChanged": false}},
			"serverInfo":      map[string]any{"name": m.agent.Title(), "version": "galley"},
			"instructions": "The documentation site " + m.agent.Title() + ": searchDocumentation finds pages, " +
				"getPage reads one as markdown.",
		}, nil
	case "ping":
		return map[string]any{}, nil
	case "tools/list":
		var p struct {
			Cursor string `json:"cursor"`
		}
		if fail := params(raw, &p); fail != nil {
			return nil, fail
		}
		return map[string]any{"tools": m.tools}, nil
	case "tools/call":
		return m.callTool(ctx, raw)
	}
	return nil, rpcFail(nil, rpcMethodNotFound, "method not found: %s", method)
}

// toolResult is a tools/call result: text content, isError for a tool
// that failed (the agent may read why and try otherwise).
func toolResult(text string, isError bool) map[string]any {
	return map[string]any{"content": []map[string]any{{"type": "text", "text": text}}, "isError": isError}
}

func (m *mcpServer) callTool(ctx context.Context, raw json.RawMessage) (any, *rpcResponse) {
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if fail := params(raw, &p); fail != nil {
		return nil, fail
	}
	var args struct {
		Query *string `json:"query"`
		URL   *string `json:"url"`
	}
	if p.Name != "searchDocumentation" && p.Name != "getPage" {
		return nil, rpcFail(nil, rpcInvalidParams, "unknown tool: %q", p.Name)
	}
	if t := bytes.TrimSpace(p.Arguments); len(t) == 0 || t[0] != '{' {
		return nil, rpcFail(nil, rpcInvalidParams, "arguments must be an object")
	}
	if err := json.Unmarshal(p.Arguments, &args); err != nil {
		return nil, rpcFail(nil, rpcInvalidParams, "invalid arguments: %s", paramsError(err))
	}
	var text string
	var err error
	switch p.Name {
	case "searchDocumentation":
		if args.Query == nil {
			return nil, rpcFail(nil, rpcInvalidParams, "arguments.query (a string) is required")
		}
		var res search.SiteResults
		if res, err = m.agent.Search(ctx, *args.Query); err == nil {
			text = searchText(res)
		}
	case "getPage":
		if args.URL == nil {
			return nil, rpcFail(nil, rpcInvalidParams, "arguments.url (a string) is required")
		}
		var pg search.AgentPage
		if pg, err = m.agent.Page(ctx, *args.URL); err == nil {
			text = pg.Markdown
		}
	}
	if err != nil {
		if httpapi.StatusOf(err) == http.StatusInternalServerError {
			httpapi.LoggerFrom(ctx).Error("mcp tool", "tool", p.Name, "err", err.Error())
			return nil, rpcFail(nil, rpcInternalError, "Internal error")
		}
		return toolResult(httpapi.MessageOf(err), true), nil
	}
	return toolResult(text, false), nil
}

// searchText writes a search's results as markdown: by site space, each
// page with its URL, ancestors, description and matching sections.
func searchText(res search.SiteResults) string {
	var b strings.Builder
	n := 0
	for _, g := range res.Groups {
		n += len(g.Pages)
	}
	if n == 0 {
		fmt.Fprintf(&b, "No page of %s matches %q.\n", res.SiteTitle, res.Query)
		return b.String()
	}
	fmt.Fprintf(&b, "%d pages of %s match %q.\n", n, res.SiteTitle, res.Query)
	for _, g := range res.Groups {
		fmt.Fprintf(&b, "\n## %s\n", g.Title)
		for _, p := range g.Pages {
			fmt.Fprintf(&b, "\n### %s\nURL: %s\n", p.Title, p.URL)
			if len(p.Ancestors) > 0 {
				fmt.Fprintf(&b, "In: %s\n", strings.Join(p.Ancestors, " › "))
			}
			if p.Description != "" {
				fmt.Fprintf(&b, "Description: %s\n", strings.ReplaceAll(p.Description, "\n", " "))
			}
			for _, s := range p.Sections {
				if s.Heading != "" && s.URL != p.URL {
					fmt.Fprintf(&b, "- %s (%s)", s.Heading, s.URL)
				} else {
					b.WriteString("-")
				}
				if s.Excerpt != "" {
					fmt.Fprintf(&b, ": %s", strings.ReplaceAll(s.Excerpt, "\n", " "))
				}
				b.WriteByte('\n')
			}
		}
	}
	return b.String()
}

// serveMCP answers one POST: the messages' answers as JSON, or 202 when
// none needs one. The site is opened first (its audience decides 404 or
// 401 for the whole endpoint).
func serveMCP(ctx context.Context, s *search.Service, tools []map[string]any, in *mcpIn) (*mcpOut, error) {
	path := "/sites/" + in.OrgID
	if in.Basename != "" {
		path += "/" + in.Basename
	}
	agent, err := s.SiteAgent(ctx, search.SiteAgentRequest{AppURL: httpapi.AppURL(ctx), SitePath: path, ShareKey: in.ShareKey,
		Visitor: sites.Visitor{Token: in.visitorToken(), Unsigned: in.unsigned}})
	if err != nil {
		if apperr.Is(err, apperr.Unauthorized) {
			// A visitor-auth site: the visitor token goes in the
			// Authorization header (no fallback URL: agents do not sign in).
			body, _ := json.Marshal(map[string]any{"error": map[string]any{"code": http.StatusUnauthorized,
				"message": "this site needs a visitor token: Authorization: Bearer <token>"}})
			return &mcpOut{Status: http.StatusUnauthorized, ContentType: "application/json", CacheControl: "no-store",
				Auth: `Bearer realm="site"`, Body: body}, nil
		}
		return nil, err
	}
	out := &mcpOut{Status: http.StatusOK, ContentType: "application/json", CacheControl: "no-store", Robots: "noindex"}
	fail := func(status int, r *rpcResponse) (*mcpOut, error) {
		out.Status = status
		out.Body, _ = json.Marshal(r)
		return out, nil
	}
	if in.Origin != "" && !strings.EqualFold(strings.TrimRight(in.Origin, "/"), agent.Origin()) {
		// Browsers' cross-site requests (DNS rebinding, other sites'
		// scripts) are refused, as the transport asks.
		return fail(http.StatusForbidden, rpcFail(nil, rpcInvalidRequest, "origin %s may not use this endpoint", in.Origin))
	}
	if in.ProtocolVersion != "" && !supportedVersion(in.ProtocolVersion) {
		return fail(http.StatusBadRequest, rpcFail(nil, rpcInvalidRequest, "unsupported MCP-Protocol-Version %q (supported: %s)",
			in.ProtocolVersion, mcpVersions))
	}
	if in.tooLarge {
		return fail(http.StatusRequestEntityTooLarge, rpcFail(nil, rpcInvalidRequest, "the body is larger than %d bytes", httpapi.MaxBodyBytes))
	}
	body := bytes.TrimSpace(in.body)
	if !json.Valid(body) {
		return fail(http.StatusBadRequest, rpcFail(nil, rpcParseError, "parse error: the body is not JSON"))
	}
	m := &mcpServer{agent: agent, tools: tools}
	if body[0] != '[' {
		r := m.handle(ctx, body)
		if r == nil {
			out.Status, out.ContentType = http.StatusAccepted, ""
			return out, nil
		}
		if r.Error != nil && r.Error.Code == rpcInvalidRequest {
			out.Status = http.StatusBadRequest
		}
		out.Body, err = json.Marshal(r)
		return out, err
	}
	var batch []json.RawMessage
	if err := json.Unmarshal(body, &batch); err != nil || len(batch) == 0 {
		return fail(http.StatusBadRequest, rpcFail(nil, rpcInvalidRequest, "a batch is a non-empty array of messages"))
	}
	if len(batch) > maxBatch {
		return fail(http.StatusBadRequest, rpcFail(nil, rpcInvalidRequest, "a batch holds at most %d messages", maxBatch))
	}
	var answers []*rpcResponse
	for _, raw := range batch {
		if r := m.handle(ctx, raw); r != nil {
			answers = append(answers, r)
		}
	}
	if len(answers) == 0 {
		out.Status, out.ContentType = http.StatusAccepted, ""
		return out, nil
	}
	out.Body, err = json.Marshal(answers)
	return out, err
}

// maxBatch bounds the messages of one batch (each may be a search).
const maxBatch = 20

type mcpNotAllowedIn struct {
	OrgID    string `path:"orgId" maxLength:"64"`
	Basename string `path:"basename" maxLength:"128"`
}

// registerMCP adds the MCP endpoint of published sites (hidden from the
// API's document: it speaks JSON-RPC to agents). GET (a server-sent events
// stream) and DELETE (ending a session) are not offered: 405.
func registerMCP(api *httpapi.API, s *search.Service) {
	tools := mcpTools()
	post := func(ctx context.Context, in *mcpIn) (*mcpOut, error) {
		out, err := serveMCP(ctx, s, tools, in)
		return out.secured(), err
	}
	notAllowed := func(ctx context.Context, in *mcpNotAllowedIn) (*mcpOut, error) {
		body, _ := json.Marshal(map[string]any{"error": map[string]any{"code": http.StatusMethodNotAllowed,
			"message": "this MCP endpoint takes POST only: no server-sent events stream, no sessions"}})
		out := &mcpOut{Status: http.StatusMethodNotAllowed, ContentType: "application/json", Allow: http.MethodPost,
			CacheControl: "no-store", Body: body}
		return out.secured(), nil
	}
	for _, p := range []struct{ id, path string }{
		{"SiteMCPById", "/sites/{orgId}/~gitbook/mcp"},
		{"SiteMCP", "/sites/{orgId}/{basename}/~gitbook/mcp"},
	} {
		httpapi.Register(api, httpapi.Op{ID: "post" + p.id, Needs: access.Anyone, Method: http.MethodPost, Path: p.path, Tag: "Reader", Hidden: true,
			Summary: "A published site's MCP endpoint (Streamable HTTP, JSON answers, no sessions)"}, post)
		for _, method := range []string{http.MethodGet, http.MethodDelete} {
			httpapi.Register(api, httpapi.Op{ID: strings.ToLower(method) + p.id, Needs: access.Anyone, Method: method, Path: p.path, Tag: "Reader", Hidden: true,
				Summary: "Not offered by a site's MCP endpoint (405, Allow: POST)"}, notAllowed)
		}
	}
}
