package openapispecs

import (
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/galleydocs/galley/shared/content"
)

// Where an operation is served and which credentials it takes: what the
// reader's API playground sends a request with (docs/reader.md, "API
// playground").

// maxServers bounds the servers listed for one operation.
const maxServers = 10

// serverVar is a {variable} of a server URL template.
var serverVar = regexp.MustCompile(`\{[^{}/]*\}`)

// servers lists an operation's servers: its own, else its path's, else the
// document's; a Swagger 2.0 document's schemes, host and basePath; an
// OpenAPI 3 document naming none is served at "/" (the specification's
// default), relative to where it came from (source).
func servers(doc, item, op map[string]any, source string) []content.OperationServer {
	list := arr(op["servers"])
	if len(list) == 0 {
		list = arr(item["servers"])
	}
	if len(list) == 0 {
		list = arr(doc["servers"])
	}
	if len(list) == 0 {
		if _, v2 := doc["swagger"]; v2 {
			list = swagger2Servers(doc, source)
		} else {
			list = []any{map[string]any{"url": "/"}}
		}
	}
	var out []content.OperationServer
	for _, x := range list {
		s := obj(x)
		u := absoluteTemplate(str(s["url"]), source)
		if u == "" {
			continue
		}
		srv := content.OperationServer{URL: u, Description: str(s["description"])}
		vars := obj(s["variables"])
		for _, name := range slices.Sorted(maps.Keys(vars)) {
			v := obj(vars[name])
			sv := content.ServerVariable{Name: name, Default: scalarText(v["default"]), Description: str(v["description"])}
			for _, e := range arr(v["enum"]) {
				sv.Enum = append(sv.Enum, scalarText(e))
			}
			srv.Variables = append(srv.Variables, sv)
		}
		out = append(out, srv)
		if len(out) == maxServers {
			break
		}
	}
	return out
}

// swagger2Servers makes OpenAPI 3 servers of a Swagger 2.0 document: one
// per scheme (else the source's scheme, else https), at its host (else
// the source's) and basePath.
func swagger2Servers(doc map[string]any, source string) []any {
	host, base := str(doc["host"]), str(doc["basePath"])
	src, _ := url.Parse(source)
	if host == "" && src != nil {
		host = src.Host
	}
	if host == "" {
		return nil
	}
	schemes := arr(doc["schemes"])
	if len(schemes) == 0 {
		s := "https"
		if src != nil && src.Scheme == "http" {
			s = "http"
		}
		schemes = []any{s}
	}
	var out []any
	for _, s := range schemes {
		if sc := str(s); sc == "http" || sc == "https" {
			out = append(out, map[string]any{"url": sc + "://" + host + base})
		}
	}
	return out
}

// absoluteTemplate makes a server URL template absolute, against the
// document's source URL when it is relative; "" when it is not an http(s)
// URL or cannot be made one. The {variables} are kept as written.
func absoluteTemplate(tmpl, source string) string {
	if tmpl == "" || strings.ContainsAny(tmpl, " \t\r\n\"'\\<>`") {
		return ""
	}
	// The variables are swapped for tokens a URL parser keeps as they are.
	var names []string
	masked := serverVar.ReplaceAllStringFunc(tmpl, func(v string) string {
		names = append(names, v)
		return "galleyvar" + strconv.Itoa(len(names)-1) + "x"
	})
	u, err := url.Parse(masked)
	if err != nil {
		return ""
	}
	// A scheme that is a variable ("{protocol}://...") is checked when
	// the variables have values (the reader's serverOrigins).
	varScheme := strings.HasPrefix(masked, "galleyvar0x://")
	if varScheme {
		u.Scheme = "https"
	}
	if !u.IsAbs() {
		base, err := url.Parse(source)
		if err != nil || source == "" || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
			return ""
		}
		u = base.ResolveReference(u)
		u.RawQuery, u.Fragment = "", ""
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return ""
	}
	out := u.String()
	if varScheme {
		out = names[0] + strings.TrimPrefix(out, "https")
	}
	for i := len(names) - 1; i >= 0; i-- {
		out = strings.ReplaceAll(out, "galleyvar"+strconv.Itoa(i)+"x", names[i])
	}
	return out
}

// scalarText writes a variable's value (a string, else JSON).
func scalarText(v any) string {
	if v == nil {
		return ""
	}
	return paramText(v)
}

// security lists the alternatives of credentials an operation accepts:
// its security requirements, else the document's, each scheme described
// from the document's securitySchemes (Swagger 2.0: securityDefinitions;
// its basic type read as http basic). A requirement naming an unknown
// scheme is left out.
func security(doc, op map[string]any) [][]content.SecurityScheme {
	reqs, ok := op["security"]
	if !ok {
		reqs = doc["security"]
	}
	defs := obj(obj(doc["components"])["securitySchemes"])
	if defs == nil {
		defs = obj(doc["securityDefinitions"])
	}
	var out [][]content.SecurityScheme
	for _, r := range arr(reqs) {
		req := obj(r)
		alt := []content.SecurityScheme{}
		known := true
		for _, name := range slices.Sorted(maps.Keys(req)) {
			d := resolve(doc, obj(defs[name]))
			if d == nil {
				known = false
				break
			}
			s := content.SecurityScheme{Name: name, Type: str(d["type"]), Scheme: strings.ToLower(str(d["scheme"])),
				In: str(d["in"]), Param: str(d["name"]), Description: str(d["description"])}
			if s.Type == "basic" {
				s.Type, s.Scheme = "http", "basic"
			}
			alt = append(alt, s)
		}
		if known {
			out = append(out, alt)
		}
	}
	return out
}
