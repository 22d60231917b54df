package httpapi

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"
	"github.com/galleydocs/galley/shared/ids"
)

// badText says what is wrong with a path or query value the API refuses:
// invalid UTF-8, NUL and other control characters (C0, DEL, C1), and the
// bidirectional controls that make text read other than it is stored
// (U+061C, U+200E-U+200F, U+202A-U+202E, U+2066-U+2069). "" when fine.
func badText(s string) string {
	if !utf8.ValidString(s) {
		return "invalid UTF-8"
	}
	for _, r := range s {
		switch {
		case r == 0:
			return "contains a NUL character"
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			return "contains a control character"
		case r == 0x061c || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
			return "contains a bidirectional control character"
		}
	}
	return ""
}

// badParams checks r's path parameters (named by the ServeMux pattern that
// matched, "GET /v1/spaces/{spaceId}") and query parameters before any
// operation sees them, so that no id reaches a storage key and no value a
// log line with characters it cannot hold. It returns the message of the
// 400 answer, naming the parameter, or "".
func badParams(r *http.Request, pattern string) string {
	if _, p, ok := strings.Cut(pattern, " "); ok {
		pattern = p
	}
	pat := strings.Split(pattern, "/")
	segs := strings.Split(r.URL.EscapedPath(), "/")
	for i, p := range pat {
		if len(p) < 3 || p[0] != '{' || p[len(p)-1] != '}' || i >= len(segs) {
			continue
		}
		name, raw := p[1:len(p)-1], segs[i]
		if rest, ok := strings.CutSuffix(name, "..."); ok {
			name, raw = rest, strings.Join(segs[i:], "/")
		}
		v, err := url.PathUnescape(raw)
		if err != nil {
			return name + ": malformed percent-encoding"
		}
		if msg := badText(v); msg != "" {
			return name + ": " + msg
		}
	}
	if r.URL.RawQuery == "" {
		return ""
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return "query: malformed query string"
	}
	for name, vs := range q {
		if msg := badText(name); msg != "" {
			return "query parameter name " + msg
		}
		for _, v := range vs {
			if msg := badText(v); msg != "" {
				return name + ": " + msg
			}
		}
	}
	return ""
}

// strictJSON refuses a JSON body with a key twice in one object, or two
// keys that differ only in case: Go's decoder (and so huma) matches keys
// to fields regardless of case and keeps the last, so {"title":"a",
// "Title":"b"} would be validated as one thing and stored as another. It
// reads the body (within the operation's limit) before huma does and gives
// it back; a body that is not JSON is left to huma's own error. It also
// refuses ids huma's pattern lets through and null where the schema does
// not allow it (nulls.go).
func (a *API) strictJSON(ctx huma.Context, next func(huma.Context)) {
	op := ctx.Operation()
	if op == nil || op.RequestBody == nil || op.RequestBody.Content["application/json"] == nil {
		next(ctx)
		return
	}
	if ct := ctx.Header("Content-Type"); ct != "" && !isJSONType(ct) {
		next(ctx)
		return
	}
	r, _ := humago.Unwrap(ctx)
	if r == nil || r.Body == nil || r.Body == http.NoBody {
		next(ctx)
		return
	}
	limit := op.MaxBodyBytes
	if limit <= 0 {
		limit = MaxBodyBytes
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, limit))
	var rest io.Reader = r.Body // beyond the limit: huma answers 413
	if err != nil {
		rest = errReader{err}
	}
	r.Body = readCloser{io.MultiReader(bytes.NewReader(data), rest), r.Body}
	if err == nil && int64(len(data)) < limit {
		a.bodiesMu.RLock()
		rules := a.bodies[op.OperationID]
		a.bodiesMu.RUnlock()
		msg := checkBody(data, rules.ids, rules.nulls)
		if msg == "" && len(rules.unique) > 0 {
			msg = checkUniqueArrays(data, rules.unique)
		}
		if msg != "" {
			_ = huma.WriteErr(a.Huma, ctx, http.StatusBadRequest, msg)
			return
		}
	}
	next(ctx)
}

func isJSONType(ct string) bool {
	mt, _, _ := strings.Cut(ct, ";")
	mt = strings.ToLower(strings.TrimSpace(mt))
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

type readCloser struct {
	io.Reader
	io.Closer
}

// bodyRules is what strictJSON checks in an operation's body beyond its
// syntax.
type bodyRules struct {
	unique []string  // uniqueArrays
	ids    *idNode   // idTree
	nulls  *nullNode // nullTree
}

// checkBody returns "<path>: ..." for the first problem in data: an object
// with a key twice or two keys equal regardless of case, an id (at a
// location idAt marks) that is too long or holds a character badText
// refuses, or a null where nulls refuses it. "" when there is none or
// data is not JSON.
func checkBody(data []byte, idAt *idNode, nulls *nullNode) string {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	msg, _ := walkJSON(dec, "", idAt, nulls)
	return msg
}

// fold is a key as Go's decoder matches it: upper then lower case folds as
// it does (ſ, K).
func fold(key string) string { return strings.ToLower(strings.ToUpper(key)) }

// walkJSON reads one value from dec; path is its location (items[0].title),
// idAt where the value's ids are (nil: it holds none), nulls where it
// refuses null.
func walkJSON(dec *json.Decoder, path string, idAt *idNode, nulls *nullNode) (string, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", err
	}
	switch tok {
	case nil:
		return nulls.refuses(path), nil
	case json.Delim('{'):
		seen := map[string]string{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return "", err
			}
			key, _ := kt.(string)
			sub := key
			if path != "" {
				sub = path + "." + key
			}
			folded := fold(key)
			if prev, ok := seen[folded]; ok {
				if prev == key {
					return sub + ": duplicate key", nil
				}
				return sub + ": duplicates key " + strconv.Quote(prev) + " (keys are matched regardless of case)", nil
			}
			seen[folded] = key
			if msg, err := walkJSON(dec, sub, idAt.property(folded), nulls.property(folded)); msg != "" || err != nil {
				return msg, err
			}
		}
		_, err = dec.Token() // }
		return "", err
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if msg, err := walkJSON(dec, path+"["+strconv.Itoa(i)+"]", idAt.item(), nulls.item()); msg != "" || err != nil {
				return msg, err
			}
		}
		_, err = dec.Token() // ]
		return "", err
	}
	if s, ok := tok.(string); ok {
		if msg := nulls.badURI(path, s); msg != "" {
			return msg, nil
		}
	}
	if s, ok := tok.(string); ok && idAt != nil && idAt.id {
		if msg := badText(s); msg != "" {
			return path + ": " + msg, nil
		}
		if utf8.RuneCountInString(s) > idAt.maxLen {
			return path + ": expected length <= " + strconv.Itoa(idAt.maxLen), nil
		}
	}
	return "", nil
}

// IDPattern is the pattern of ids named in bodies (ids.ID) in the API's
// document: no C0 or C1 control character, no DEL. It is written with
// \xHH escapes, read alike by ECMA-262 (the document's dialect), Python
// (schemathesis) and Go (huma); the bidirectional controls badText also
// refuses have no escape common to the three, so the pattern leaves them
// out; strictJSON refuses them too (docs/http.md says so).
const IDPattern = `^[^\x00-\x1F\x7F-\x9F]*$`

// idSchema stands for ids.ID in schemas (humaConfig registers it as its
// alias): a string of at most ids.MaxLen characters matching IDPattern. A
// field may set a larger maxLength (an email address).
type idSchema string

// Schema implements huma.SchemaProvider.
func (idSchema) Schema(huma.Registry) *huma.Schema {
	n := ids.MaxLen
	return &huma.Schema{Type: huma.TypeString, MaxLength: &n, Pattern: IDPattern}
}

// IDSchema is the schema of an id named in a body, for types that write
// their own schema (one of several forms): r's schema of ids.ID, with
// maxLen when it is not 0.
func IDSchema(r huma.Registry, maxLen int) *huma.Schema {
	s := r.Schema(reflect.TypeFor[ids.ID](), false, "")
	if maxLen > 0 {
		s.MaxLength = &maxLen
	}
	return s
}

// idNode tells where a body holds ids: the string schemas with IDPattern,
// found in the operation's schema by idTree. Properties are keyed by their
// folded name, since Go's decoder fills a field from a key of any case
// (which huma's validation, matching exact names, lets through).
type idNode struct {
	id     bool // a string here is an id
	maxLen int
	props  map[string]*idNode
	items  *idNode // array items
	extra  *idNode // additionalProperties
}

func (n *idNode) property(folded string) *idNode {
	if n == nil {
		return nil
	}
	if p, ok := n.props[folded]; ok {
		return p
	}
	return n.extra
}

func (n *idNode) item() *idNode {
	if n == nil {
		return nil
	}
	return n.items
}

// idTree is where schema s holds ids, nil when it holds none. The
// alternatives of oneOf, anyOf and allOf are merged: a value's JSON type
// tells which applies.
func idTree(reg huma.Registry, s *huma.Schema, depth int) *idNode {
	if s != nil && s.Ref != "" {
		s = reg.SchemaFromRef(s.Ref)
	}
	if s == nil || depth > 12 {
		return nil
	}
	var n *idNode
	if s.Type == huma.TypeString && s.Pattern == IDPattern {
		n = &idNode{id: true, maxLen: ids.MaxLen}
		if s.MaxLength != nil {
			n.maxLen = *s.MaxLength
		}
	}
	for name, p := range s.Properties {
		if c := idTree(reg, p, depth+1); c != nil {
			n = mergeIDs(n, &idNode{props: map[string]*idNode{fold(name): c}})
		}
	}
	if c := idTree(reg, s.Items, depth+1); c != nil {
		n = mergeIDs(n, &idNode{items: c})
	}
	if ap, ok := s.AdditionalProperties.(*huma.Schema); ok {
		if c := idTree(reg, ap, depth+1); c != nil {
			n = mergeIDs(n, &idNode{extra: c})
		}
	}
	for _, alts := range [][]*huma.Schema{s.OneOf, s.AnyOf, s.AllOf} {
		for _, alt := range alts {
			n = mergeIDs(n, idTree(reg, alt, depth+1))
		}
	}
	return n
}

// mergeIDs is where a or b holds ids.
func mergeIDs(a, b *idNode) *idNode {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	out := &idNode{id: a.id || b.id, maxLen: max(a.maxLen, b.maxLen),
		items: mergeIDs(a.items, b.items), extra: mergeIDs(a.extra, b.extra)}
	if len(a.props)+len(b.props) > 0 {
		out.props = map[string]*idNode{}
		for k, v := range a.props {
			out.props[k] = v
		}
		for k, v := range b.props {
			out.props[k] = mergeIDs(out.props[k], v)
		}
	}
	return out
}

// uniqueArrays lists the body locations ("languages", "a.b") of arrays
// declared uniqueItems in schema. Huma checks their uniqueness by putting
// each item in a map, which panics on an array or object item ("hash of
// unhashable type"), before it checks the items' type; checkUniqueArrays
// answers those 400 first.
func uniqueArrays(reg huma.Registry, s *huma.Schema, path string, depth int) []string {
	if s != nil && s.Ref != "" {
		s = reg.SchemaFromRef(s.Ref)
	}
	if s == nil || depth > 4 {
		return nil
	}
	var out []string
	if s.Type == "array" && s.UniqueItems {
		out = append(out, path)
	}
	for name, p := range s.Properties {
		sub := name
		if path != "" {
			sub = path + "." + name
		}
		out = append(out, uniqueArrays(reg, p, sub, depth+1)...)
	}
	return out
}

// checkUniqueArrays returns "<location>[i]: expected a string, number or
// boolean" for the first array or object item of one of the arrays at
// locations in data, "" otherwise (or when data is not JSON).
func checkUniqueArrays(data []byte, locations []string) string {
	var v any
	if json.Unmarshal(data, &v) != nil {
		return ""
	}
	for _, loc := range locations {
		cur := v
		for _, name := range strings.Split(loc, ".") {
			m, _ := cur.(map[string]any)
			cur = m[name]
		}
		arr, _ := cur.([]any)
		for i, item := range arr {
			switch item.(type) {
			case []any, map[string]any:
				return loc + "[" + strconv.Itoa(i) + "]: expected a string, number or boolean"
			}
		}
	}
	return ""
}
