package lambdarun

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	lambdaevents "github.com/aws/aws-lambda-go/events"

	"github.com/galleydocs/galley/shared/app/families"
)

// GatewayMatches tells whether API Gateway's HTTP API routes a request for
// path to the route routePath: segment by segment, a {name} parameter
// taking one non-empty segment and a {name+} the rest; a trailing slash of
// the request is not part of the match (API Gateway routes /v1/ to the
// route /v1, and refuses routes ending in a slash: families.GatewayPath).
func GatewayMatches(routePath, path string) bool {
	if len(path) > 1 {
		path = strings.TrimSuffix(path, "/")
	}
	rs, ps := strings.Split(routePath, "/"), strings.Split(path, "/")
	for i, r := range rs {
		if strings.HasSuffix(r, "+}") {
			return i < len(ps) && ps[i] != ""
		}
		if i >= len(ps) {
			return false
		}
		if strings.HasPrefix(r, "{") {
			if ps[i] == "" {
				return false
			}
			continue
		}
		if r != ps[i] {
			return false
		}
	}
	return len(rs) == len(ps)
}

// specificity ranks a route path as API Gateway picks among matching
// routes: more literal segments first, then a greedy parameter last.
func specificity(routePath string) int {
	n := 0
	for _, seg := range strings.Split(routePath, "/") {
		switch {
		case strings.HasSuffix(seg, "+}"):
			n -= 1000
		case !strings.HasPrefix(seg, "{"):
			n += 10
		}
	}
	return n
}

// ResponseMax is the most a synchronous Lambda invocation answers (6 MB):
// the gateway answers 500 to a larger response, as API Gateway does.
const ResponseMax = 6 * 1024 * 1024

// KilledHeader is set on the answer of a request whose function's process
// exited before answering (API Gateway answers 500 then, as here): it
// tells a test such a 500 from one the code answered.
const KilledHeader = "X-Lambdarun-Killed"

// route is one of the template's HttpApi events: a method and a path, and
// the function it invokes.
type route struct {
	method, path string
	fn           string
}

// Gateway is a loopback API Gateway (HTTP API, payload format 2.0): it
// routes a request by the template's routes (families.Functions, from
// which template.yaml's HttpApi events are generated and checked), turns
// it into the event API Gateway sends, invokes the function, and turns
// its answer into the HTTP answer. A function that fails (an error
// answer, a process killed, its timeout) answers 500 {"message":"Internal
// Server Error"} (503 past the timeout), as API Gateway does.
type Gateway struct {
	routes    []route
	functions map[string]*Function
	seq       atomic.Int64
	killed    atomic.Int64
}

// NewGateway routes to functions, by family name (functions/<name>).
func NewGateway(functions map[string]*Function) *Gateway {
	g := &Gateway{functions: functions}
	for _, f := range families.Functions() {
		for _, r := range f.Routes {
			g.routes = append(g.routes, route{method: r.Method, path: families.GatewayPath(r.Path), fn: f.Family})
		}
	}
	return g
}

// Killed is how many requests were answered 500 because their process
// exited.
func (g *Gateway) Killed() int { return int(g.killed.Load()) }

// FunctionOf is the function (its family's name) a request for method and
// path reaches.
func (g *Gateway) FunctionOf(method, path string) (string, bool) {
	r, ok := g.match(method, path)
	return r.fn, ok
}

func (g *Gateway) match(method, path string) (route, bool) {
	var best route
	found := false
	for _, r := range g.routes {
		if r.method == method && GatewayMatches(r.path, path) && (!found || specificity(r.path) > specificity(best.path)) {
			best, found = r, true
		}
	}
	return best, found
}

// Event is the API Gateway event (payload 2.0) of req, routed to rt.
func (g *Gateway) event(req *http.Request, rt route) ([]byte, error) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, err
	}
	ev := lambdaevents.APIGatewayV2HTTPRequest{
		Version: "2.0", RouteKey: rt.method + " " + rt.path,
		RawPath: req.URL.EscapedPath(), RawQueryString: req.URL.RawQuery,
		Headers: map[string]string{},
		RequestContext: lambdaevents.APIGatewayV2HTTPRequestContext{
			RouteKey: rt.method + " " + rt.path, AccountID: "000000000000", Stage: "$default",
			RequestID: fmt.Sprintf("gw-%d", g.seq.Add(1)), APIID: "loopback", DomainName: req.Host,
			TimeEpoch: time.Now().UnixMilli(),
			HTTP: lambdaevents.APIGatewayV2HTTPRequestContextHTTPDescription{Method: req.Method, Path: req.URL.Path,
				Protocol: "HTTP/1.1", SourceIP: "127.0.0.1", UserAgent: req.UserAgent()},
		},
	}
	for k, vs := range req.Header {
		if strings.EqualFold(k, "Cookie") {
			for _, v := range vs {
				ev.Cookies = append(ev.Cookies, strings.Split(v, "; ")...)
			}
			continue
		}
		ev.Headers[strings.ToLower(k)] = strings.Join(vs, ",")
	}
	ev.Headers["host"] = req.Host
	if q := req.URL.Query(); len(q) > 0 {
		ev.QueryStringParameters = map[string]string{}
		for k, vs := range q {
			ev.QueryStringParameters[k] = strings.Join(vs, ",")
		}
	}
	if len(body) > 0 {
		if utf8.Valid(body) {
			ev.Body = string(body)
		} else {
			ev.Body, ev.IsBase64Encoded = base64.StdEncoding.EncodeToString(body), true
		}
	}
	return json.Marshal(ev)
}

func (g *Gateway) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	rt, ok := g.match(req.Method, req.URL.Path)
	if !ok {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"message":"Not Found"}`))
		return
	}
	fn := g.functions[rt.fn]
	if fn == nil {
		http.Error(w, "lambdarun: no function "+rt.fn, http.StatusBadGateway)
		return
	}
	ev, err := g.event(req, rt)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	out, err := fn.Invoke(req.Context(), ev)
	if err != nil {
		w.Header().Set("Content-Type", "application/json")
		status := http.StatusInternalServerError
		switch {
		case errors.Is(err, ErrKilled):
			g.killed.Add(1)
			w.Header().Set(KilledHeader, "1")
		case errors.Is(err, context.DeadlineExceeded):
			status = http.StatusServiceUnavailable
		}
		w.WriteHeader(status)
		_, _ = fmt.Fprintf(w, `{"message":%q}`, http.StatusText(status))
		return
	}
	if len(out) > ResponseMax {
		// Lambda refuses the response (Function.ResponseSizeTooLarge),
		// and API Gateway answers 500.
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = fmt.Fprintf(w, `{"message":%q}`, http.StatusText(http.StatusInternalServerError))
		return
	}
	var res lambdaevents.APIGatewayV2HTTPResponse
	if err := json.Unmarshal(out, &res); err != nil {
		http.Error(w, "lambdarun: the function's answer is not API Gateway's: "+string(out), http.StatusBadGateway)
		return
	}
	for k, v := range res.Headers {
		w.Header().Set(k, v)
	}
	for k, vs := range res.MultiValueHeaders {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	for _, c := range res.Cookies {
		w.Header().Add("Set-Cookie", c)
	}
	body := []byte(res.Body)
	if res.IsBase64Encoded {
		if body, err = base64.StdEncoding.DecodeString(res.Body); err != nil {
			http.Error(w, "lambdarun: base64 body: "+err.Error(), http.StatusBadGateway)
			return
		}
	}
	w.WriteHeader(res.StatusCode)
	_, _ = w.Write(body)
}
