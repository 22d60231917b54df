package httpapi

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"
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
// it back; a body that is not JSON is left to huma's own error.
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
		msg := duplicateKey(data)
		a.uniqueMu.RLock()
		locs := a.unique[op.OperationID]
		a.uniqueMu.RUnlock()
		if msg == "" && len(locs) > 0 {
			msg = checkUniqueArrays(data, locs)
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

// duplicateKey returns "<path>: ..." for the first object in data with a
// key twice or two keys equal regardless of case, "" when there is none or
// data is not JSON.
func duplicateKey(data []byte) string {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	msg, _ := walkJSON(dec, "")
	return msg
}

// walkJSON reads one value from dec; path is its location (items[0].title).
func walkJSON(dec *json.Decoder, path string) (string, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", err
	}
	switch tok {
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
			// Upper then lower: folds as Go's decoder does (ſ, K).
			folded := strings.ToLower(strings.ToUpper(key))
			if prev, ok := seen[folded]; ok {
				if prev == key {
					return sub + ": duplicate key", nil
				}
				return sub + ": duplicates key " + strconv.Quote(prev) + " (keys are matched regardless of case)", nil
			}
			seen[folded] = key
			if msg, err := walkJSON(dec, sub); msg != "" || err != nil {
				return msg, err
			}
		}
		_, err = dec.Token() // }
		return "", err
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if msg, err := walkJSON(dec, path+"["+strconv.Itoa(i)+"]"); msg != "" || err != nil {
				return msg, err
			}
		}
		_, err = dec.Token() // ]
		return "", err
	}
	return "", nil
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
