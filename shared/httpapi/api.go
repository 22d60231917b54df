// Package httpapi holds Galley's HTTP conventions, in one place: the error
// shape and the table from error kinds to statuses, validation through huma,
// authentication, request ids and logs, paging tokens, PATCH semantics, and
// absolute URLs. Families register their operations on an API with Register.
package httpapi

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"
	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/ids"
)

// MaxBodyBytes is the largest request body accepted by default (1 MiB);
// larger bodies answer 413. Operations that take files set their own limit.
const MaxBodyBytes = 1 << 20

// Authenticator resolves a bearer token to its caller.
type Authenticator interface {
	// Authenticate returns the caller owning token, or an Unauthorized error.
	Authenticate(ctx context.Context, token string) (access.Caller, error)
}

// Config configures an API.
type Config struct {
	Logger *slog.Logger
	Auth   Authenticator
	// APIURL is the absolute base of API URLs (urls.location); empty means
	// derived from each request's scheme and host.
	APIURL string
	// AppURL is the base of application URLs (urls.app); empty means APIURL.
	AppURL string
	// Version is reported by GET /v1/.
	Version string
	// Build is the build date reported by GET /v1/.
	Build string
	// Metrics, when set, receives one CloudWatch embedded-metric-format
	// record per request (see metrics.go); Family names the dimension.
	Metrics *slog.Logger
	Family  string
	// RateLimit limits callers by class (ratelimit.go); the zero value
	// none.
	RateLimit RateLimit
	// Lazy defers each operation's registration (huma reflects its input
	// and output types into schemas, validators and the document) to the
	// operation's first request, which then pays for that operation only.
	// A Lambda function serves few of its family's operations per
	// instance, so building them all before its first invocation is most
	// of its start-up (docs/functions.md, "Init"). A lazy API's OpenAPI
	// document holds no operation: what reads it (the generated document,
	// the test client) builds an eager API.
	Lazy bool
	// Idempotency keeps the answers of Idempotent operations; nil: the
	// header is ignored.
	Idempotency Idempotency
}

// Route is one operation an API serves.
type Route struct {
	Method, Path string
}

// API is one set of operations behind one http.Handler: a family's, in its
// Lambda function, or every family's, in the local server.
type API struct {
	Huma   huma.API
	mux    *http.ServeMux
	cfg    Config
	routes []Route
	limit  *limiter // nil: no rate limit
	// classes is each operation's class for the limiter, by its mux
	// pattern ("GET /v1/spaces/{spaceId}"); written by Register only,
	// before the API serves.
	classes map[string]opClass
	// middlewares run around every operation, in order (Use).
	middlewares []func(huma.Context, func(huma.Context))
	// bodies holds, by operation id, what strictJSON checks in the body
	// beyond its syntax (inputs.go); written when an operation is
	// registered, which a lazy API does while serving.
	bodiesMu sync.RWMutex
	bodies   map[string]bodyRules
}

// New returns an empty API.
func New(cfg Config) *API {
	installErrors()
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	mux := http.NewServeMux()
	a := &API{Huma: humago.New(mux, humaConfig(cfg.Version)), mux: mux, cfg: cfg, limit: newLimiter(cfg.RateLimit),
		classes: map[string]opClass{}, bodies: map[string]bodyRules{}}
	a.Use(a.authenticate, a.strictJSON, a.idempotent)
	return a
}

// humaConfig is the configuration of the API's huma API (and, in a lazy
// API, of each operation's: a fresh one each time, since it holds the
// schema registry).
func humaConfig(version string) huma.Config {
	hc := huma.DefaultConfig("Galley API", version)
	hc.Info.Description = "Galley: a self-hostable documentation publishing service with a GitBook-compatible API."
	hc.OpenAPIPath, hc.DocsPath, hc.SchemasPath = "", "", ""
	// Bodies' Nulls fields are filled as they are decoded (patch.go).
	hc.Formats = maps.Clone(hc.Formats)
	hc.Formats["application/json"], hc.Formats["json"] = jsonFormat(), jsonFormat()
	// No "$schema" links in bodies: responses carry only the API's fields.
	hc.CreateHooks = nil
	hc.Components.SecuritySchemes = map[string]*huma.SecurityScheme{
		"bearer": {Type: "http", Scheme: "bearer", Description: "An API token: Authorization: Bearer <token>"},
	}
	hc.Security = []map[string][]string{{"bearer": {}}}
	// Ids named in bodies have one schema (inputs.go).
	hc.Components.Schemas.RegisterTypeAlias(reflect.TypeFor[ids.ID](), reflect.TypeFor[idSchema]())
	return hc
}

// Use adds middlewares around every operation registered after it.
func (a *API) Use(mw ...func(huma.Context, func(huma.Context))) {
	a.middlewares = append(a.middlewares, mw...)
	a.Huma.UseMiddleware(mw...)
}

// Routes lists the operations registered so far.
func (a *API) Routes() []Route { return append([]Route(nil), a.routes...) }

// Config returns the API's configuration.
func (a *API) Config() Config { return a.cfg }

// publicMeta marks, in an operation's metadata, one that needs no token;
// visitorMeta one a site visitor's token may call.
const (
	publicMeta  = "galley-public"
	visitorMeta = "galley-visitor"
)

// Op describes one operation: its method, path, id, success status and
// the permission it needs.
type Op struct {
	ID, Method, Path, Summary string
	Tag                       string
	Status                    int
	// Needs is the permission the operation's service checks (the route
	// line states it, the API's document shows it: x-galley-permission
	// and "Needs: ..." in the description). access.Anyone and
	// access.SignedLink operations take no token; every operation
	// declares one (Register refuses none).
	Needs        access.Permission
	MaxBodyBytes int64
	// Hidden operations are left out of the API's OpenAPI document (the
	// reader's pages: HTML for visitors, not the API).
	Hidden bool
	// Visitor operations are the reads a site visitor's token (package
	// sitetoken: GitBook's renderer reading a published site) may call;
	// every other operation refuses such a token (401). The services still
	// check that what is read belongs to the token's site.
	Visitor bool
	// Expensive operations (imports, Git, PDF rendering, OpenAPI fetches:
	// seconds of a worker or a browser each) count against a rate limit of
	// their own per caller, authenticated callers too (docs/http.md,
	// "Rate limits").
	Expensive bool
	// Also lists the operation's other success statuses with what each
	// says (GitBook's pairs: a DELETE answers 205 when it removed
	// something, 204 when there was nothing to remove; a PUT 200 when it
	// updated, 201 when it created). The handler picks one by setting its
	// output's Status field (Removed does it for deletes); a response
	// with a body is documented with the default status's body.
	Also map[int]string
	// Idempotent operations (POST creates whose repeat would make a second
	// record) accept an Idempotency-Key header: a retry with the same key
	// and request replays the first answer (idempotency.go,
	// docs/faults.md). The document lists the header and the 422.
	Idempotent bool
}

// RemovedOut is the answer of a DELETE that says whether something was
// removed (205) or there was nothing to remove (204).
type RemovedOut struct{ Status int }

// Removed answers a delete: 205 when removed, 204 when there was nothing
// to remove. The operation declares both (Status 205, Also 204).
func Removed(removed bool, err error) (*RemovedOut, error) {
	if err != nil {
		return nil, err
	}
	if !removed {
		return &RemovedOut{Status: http.StatusNoContent}, nil
	}
	return &RemovedOut{Status: http.StatusResetContent}, nil
}

// NothingToRemove is the description of a removal's 204.
func NothingToRemove(what string) map[int]string {
	return map[int]string{http.StatusNoContent: "There was no such " + what}
}

// RegisterDelete adds op as a DELETE whose service says whether it
// removed something: 205 when remove did, 204 when there was no such what
// (op.Method, Status and Also are set here).
func RegisterDelete[I any](a *API, op Op, what string, remove func(context.Context, *I) (bool, error)) {
	op.Method, op.Status, op.Also = http.MethodDelete, http.StatusResetContent, NothingToRemove(what)
	Register(a, op, func(ctx context.Context, in *I) (*RemovedOut, error) { return Removed(remove(ctx, in)) })
}

// PermissionExtension is the OpenAPI extension stating an operation's
// permission (Op.Needs).
const PermissionExtension = "x-galley-permission"

// Register adds an operation whose handler returns service errors; they are
// mapped to responses here, the one place that does it. An operation
// without a valid permission (Op.Needs) is a programming error: Register
// panics, so that no process serves an undeclared operation.
func Register[I, O any](a *API, op Op, h func(context.Context, *I) (*O, error)) {
	if !op.Needs.Valid() {
		panic(fmt.Sprintf("httpapi: operation %s declares no valid permission (Op.Needs %q)", op.ID, op.Needs))
	}
	hop := huma.Operation{
		OperationID:   op.ID,
		Method:        op.Method,
		Path:          op.Path,
		Summary:       op.Summary,
		Description:   needsSentence(op),
		Extensions:    map[string]any{PermissionExtension: string(op.Needs)},
		Tags:          []string{op.Tag},
		DefaultStatus: op.Status,
		MaxBodyBytes:  op.MaxBodyBytes,
		Hidden:        op.Hidden,
		// 429: the rate limits (every operation, ratelimit.go); 503: AWS
		// throttling or failing through the SDK's retries (errors.go).
		Errors: []int{400, 401, 403, 404, 409, 413, 415, 429, 503},
	}
	if hop.MaxBodyBytes == 0 {
		hop.MaxBodyBytes = MaxBodyBytes
	}
	if len(op.Also) > 0 {
		hop.Responses = map[string]*huma.Response{}
		for status, desc := range op.Also {
			hop.Responses[strconv.Itoa(status)] = &huma.Response{Description: desc}
		}
	}
	if op.Needs.Public() {
		hop.Security = []map[string][]string{}
		hop.Metadata = map[string]any{publicMeta: true}
	}
	if op.Idempotent {
		if hop.Metadata == nil {
			hop.Metadata = map[string]any{}
		}
		hop.Metadata[idempotentMeta] = true
		hop.Parameters = append(hop.Parameters, idempotencyParam())
		hop.Errors = append(hop.Errors, http.StatusUnprocessableEntity)
	}
	if op.Visitor {
		if hop.Metadata == nil {
			hop.Metadata = map[string]any{}
		}
		hop.Metadata[visitorMeta] = true
	}
	a.routes = append(a.routes, Route{Method: op.Method, Path: op.Path})
	a.classes[strings.ToUpper(op.Method)+" "+op.Path] = opClass{expensive: op.Expensive}
	handler := func(ctx context.Context, in *I) (*O, error) {
		out, err := h(ctx, in)
		if err != nil {
			return nil, problem(ctx, err)
		}
		return out, nil
	}
	in, out := reflect.TypeFor[I](), reflect.TypeFor[O]()
	if !a.cfg.Lazy {
		hop.RequestBody = answerFieldsBody(a.Huma.OpenAPI().Components.Schemas, &hop, in, out)
		huma.Register(a.Huma, hop, handler)
		alsoBodies(hop, op)
		a.noteBody(a.Huma, op)
		return
	}
	// Lazy: the route is the API's now; the operation is built on its first
	// request, on a huma API of its own (its own schema registry, so that
	// operations built by concurrent requests share nothing).
	var (
		once  sync.Once
		serve http.HandlerFunc
	)
	build := func() {
		var c capture
		api := humago.NewAdapter(&c, "")
		hapi := huma.NewAPI(humaConfig(a.cfg.Version), api)
		hapi.UseMiddleware(a.middlewares...)
		hop := hop
		hop.RequestBody = answerFieldsBody(hapi.OpenAPI().Components.Schemas, &hop, in, out)
		huma.Register(hapi, hop, handler)
		alsoBodies(hop, op)
		a.noteBody(hapi, op)
		serve = c.handler
	}
	a.mux.HandleFunc(strings.ToUpper(op.Method)+" "+op.Path, func(w http.ResponseWriter, r *http.Request) {
		once.Do(build)
		serve(w, r)
	})
}

// RegisterRaw adds an operation that h serves as it is, outside huma:
// no schema, no place in the API's OpenAPI document, none of the
// operation middlewares (authentication, strict JSON, idempotency); the
// request middleware of Handler (request id, log line, recovery, rate
// limits) still applies, and the route is the API's (template.yaml routes
// it). It is for protocols with shapes, errors and authentication of their
// own: SCIM (package scim, docs/scim.md). Op.Needs must still be valid;
// Op.Summary, Tag, Status and the flags are not used.
func RegisterRaw(a *API, op Op, h http.Handler) {
	if !op.Needs.Valid() {
		panic(fmt.Sprintf("httpapi: operation %s declares no valid permission (Op.Needs %q)", op.ID, op.Needs))
	}
	a.routes = append(a.routes, Route{Method: op.Method, Path: op.Path})
	a.classes[strings.ToUpper(op.Method)+" "+op.Path] = opClass{}
	a.mux.Handle(strings.ToUpper(op.Method)+" "+op.Path, h)
}

// needsSentence is the sentence of an operation's description that states
// its permission.
func needsSentence(op Op) string {
	s := "Needs: " + string(op.Needs) + "."
	if op.Visitor {
		s += " A site visitor's token may call it too."
	}
	return s
}

// alsoBodies gives op's other success statuses that carry a body (201
// beside a 200) the body of its default status. huma filled that one in
// hop.Responses, the map Register was given.
func alsoBodies(hop huma.Operation, op Op) {
	def := hop.Responses[strconv.Itoa(op.Status)]
	if op.Status == 0 {
		def = hop.Responses[strconv.Itoa(http.StatusOK)]
	}
	if def == nil {
		return
	}
	for status := range op.Also {
		if r := hop.Responses[strconv.Itoa(status)]; r != nil && r.Content == nil &&
			status != http.StatusNoContent && status != http.StatusResetContent {
			r.Content, r.Headers = def.Content, def.Headers
		}
	}
}

// capture is the mux of a lazily built operation: it keeps the one
// handler huma registers, which the API's own mux (same pattern, so the
// same path values) calls.
type capture struct{ handler http.HandlerFunc }

func (c *capture) HandleFunc(_ string, h func(http.ResponseWriter, *http.Request)) { c.handler = h }
func (c *capture) ServeHTTP(w http.ResponseWriter, r *http.Request)                { c.handler(w, r) }

// noteBody keeps what strictJSON checks in op's JSON body (its
// uniqueItems arrays, its ids and where it refuses null), read from the document of the huma API
// it was built on.
func (a *API) noteBody(h huma.API, op Op) {
	item := h.OpenAPI().Paths[op.Path]
	if item == nil {
		return
	}
	reg := h.OpenAPI().Components.Schemas
	for _, o := range []*huma.Operation{item.Get, item.Post, item.Put, item.Patch, item.Delete} {
		if o != nil && o.OperationID == op.ID && o.RequestBody != nil && o.RequestBody.Content["application/json"] != nil {
			s := o.RequestBody.Content["application/json"].Schema
			rules := bodyRules{unique: uniqueArrays(reg, s, "", 0), ids: idTree(reg, s, 0),
				nulls: nullTree(reg, s, map[*huma.Schema]*nullNode{})}
			if !rules.nulls.refusesNull(map[*nullNode]bool{}) {
				rules.nulls = nil
			}
			if len(rules.unique) > 0 || rules.ids != nil || rules.nulls != nil {
				a.bodiesMu.Lock()
				a.bodies[op.ID] = rules
				a.bodiesMu.Unlock()
			}
		}
	}
}

// authenticate identifies the caller of every non-public operation. A
// public one needs no caller; a token it is sent is checked only for the
// rate limiter, when it has not verified it lately (ratelimit.go).
func (a *API) authenticate(ctx huma.Context, next func(huma.Context)) {
	if op := ctx.Operation(); op != nil && op.Metadata[publicMeta] == true {
		if info := requestInfoFrom(ctx.Context()); a.limit != nil && info != nil && info.limit.needsCheck() {
			_, err := a.cfg.Auth.Authenticate(ctx.Context(), bearerToken(ctx.Header("Authorization")))
			if err == nil || apperr.KindOf(err) == apperr.Unauthorized {
				a.limit.noteAuthentication(&info.limit, err == nil)
			}
		}
		next(ctx)
		return
	}
	token := bearerToken(ctx.Header("Authorization"))
	if token == "" {
		_ = huma.WriteErr(a.Huma, ctx, http.StatusUnauthorized, "missing bearer token in the Authorization header")
		return
	}
	caller, err := a.cfg.Auth.Authenticate(ctx.Context(), token)
	info := requestInfoFrom(ctx.Context())
	if a.limit != nil && info != nil && (err == nil || apperr.KindOf(err) == apperr.Unauthorized) {
		// The limiter counts this token as authenticated from now on,
		// or, refused, as anonymous again.
		a.limit.noteAuthentication(&info.limit, err == nil)
	}
	if err != nil {
		status, msg, _ := classify(err)
		if status == http.StatusInternalServerError {
			LoggerFrom(ctx.Context()).ErrorContext(ctx.Context(), "authenticate", "err", err.Error())
		}
		_ = huma.WriteErr(a.Huma, ctx, status, msg)
		return
	}
	if caller.Site != nil && (ctx.Operation() == nil || ctx.Operation().Metadata[visitorMeta] != true) {
		_ = huma.WriteErr(a.Huma, ctx, http.StatusUnauthorized, "a site token only reads its site's published content")
		return
	}
	if info != nil {
		info.userID = caller.UserID
	}
	next(huma.WithContext(ctx, access.WithCaller(ctx.Context(), caller)))
}

// RawJSON is a response whose body is already encoded.
type RawJSON struct {
	ContentType string `header:"Content-Type"`
	Body        []byte
}
