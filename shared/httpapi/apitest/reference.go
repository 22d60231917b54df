package apitest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// GitBook's own OpenAPI documents, beside the repository in
// ../shared/reference (read at run time, never copied into the repo): the
// one of @gitbook/api 0.130.0 (OpenAPI 3.0) and the current one, 0.202.0
// (OpenAPI 3.1), from which the official client is built. Every 2xx JSON
// answer a test receives through a Client is validated against the
// response schema each of them declares for the same operation and status
// (operations found by method and path template, without the /v1 prefix).
// Operations a reference lacks are not checked against it; the operations
// beyond the spec (../shared/spec/operations.tsv) are checked against the
// current document only, which wins for them where the two differ.
var referenceFiles = []string{"gitbook-openapi.json", "gitbook-openapi-0.202.0.json"}

// reference is one of GitBook's documents, compiled lazily: an operation's
// response schema is compiled the first time a test meets it.
type reference struct {
	name string
	// tag is "old" (0.130.0) or "new" (0.202.0), as deviations name them.
	tag string
	ops []refOp
	// specOps are the spec's operations (reference ids).
	specOps map[string]bool

	mu       sync.Mutex
	compiler *jsonschema.Compiler
	compiled map[string]*jsonschema.Schema
}

type refOp struct {
	method, template string
	re               *regexp.Regexp
	id               string
	// responses: status -> JSON pointer of the application/json schema.
	responses map[string]string
}

// references are loaded once per test binary: they are read-only after
// loading but for the compiled-schema cache, which a mutex guards.
var references = sync.OnceValues(loadReferences)

// ReferenceDir is where GitBook's documents are: ../shared/reference
// beside the module's root.
func ReferenceDir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared", "reference"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("apitest: no go.mod above the working directory")
		}
		dir = parent
	}
}

func loadReferences() ([]*reference, error) {
	dir, err := ReferenceDir()
	if err != nil {
		return nil, err
	}
	specOps, err := loadSpecOperations(filepath.Join(dir, "..", "spec", "operations.tsv"))
	if err != nil {
		return nil, fmt.Errorf("apitest: the spec's operations (../shared/spec/operations.tsv): %w", err)
	}
	var refs []*reference
	for _, name := range referenceFiles {
		r, err := loadReference(filepath.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("apitest: GitBook's reference %s (expected in ../shared/reference): %w", name, err)
		}
		r.specOps = specOps
		refs = append(refs, r)
	}
	return refs, nil
}

// loadSpecOperations reads the reference operation ids of the spec's
// operations: only those are checked against the older document too (for
// the operations beyond the spec the current document wins).
func loadSpecOperations(path string) (map[string]bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	ops := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n")[1:] {
		if f := strings.Split(line, "\t"); len(f) >= 4 && f[3] != "" {
			ops[f[3]] = true
		}
	}
	return ops, nil
}

func loadReference(path string) (*reference, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		return nil, err
	}
	root, _ := doc.(map[string]any)
	version, _ := root["openapi"].(string)
	if strings.HasPrefix(version, "3.0") {
		// OpenAPI 3.0's schema dialect: nullable, boolean exclusive bounds.
		convert30(root)
		// The 0.130.0 document requires properties it never defines
		// (Space.type, Site.defaultSpace, a misspelt `organizaitons`): the
		// current document defines them otherwise or dropped them, so
		// those requirements are not checked.
		dropUndefinedRequired(root)
		// 0.130.0 defines the conditional block (DocumentBlockIf) but does
		// not yet list it among a document's top-level blocks, where the
		// current document allows it: it is accepted there in both.
		topLevelIf(root)
	}
	// GitBook's oneOfs are discriminated unions whose branches overlap (a
	// document page also matches the computed page's schema): JSON
	// Schema's oneOf, which wants exactly one branch, would refuse every
	// such answer, so they are checked as anyOf.
	oneOfAsAnyOf(root)
	emptyDocumentAsNoContent(root)
	url := "file:///reference/" + filepath.Base(path)
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseRegexpEngine(lenientRegexp)
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	tag := "new"
	if strings.HasPrefix(version, "3.0") {
		tag = "old"
	}
	r := &reference{name: filepath.Base(path), tag: tag, compiler: c, compiled: map[string]*jsonschema.Schema{}}
	paths, _ := root["paths"].(map[string]any)
	for tmpl, item := range paths {
		methods, _ := item.(map[string]any)
		re := templateRegexp("/v1", tmpl)
		for method, o := range methods {
			op, ok := o.(map[string]any)
			if !ok || method == "parameters" {
				continue
			}
			id, _ := op["operationId"].(string)
			ro := refOp{method: strings.ToUpper(method), template: tmpl, re: re, id: id, responses: map[string]string{}}
			responses, _ := op["responses"].(map[string]any)
			for status, resp := range responses {
				rm, _ := resp.(map[string]any)
				if ref, ok := rm["$ref"].(string); ok {
					// A shared response: #/components/responses/X.
					rm = lookup(root, ref)
				}
				content, _ := rm["content"].(map[string]any)
				if mt, ok := content["application/json"].(map[string]any); ok && mt["schema"] != nil {
					if ref, ok := responses[status].(map[string]any)["$ref"].(string); ok {
						ro.responses[status] = url + ref + "/content/application~1json/schema"
					} else {
						ro.responses[status] = url + "#/paths/" + escapePointer(tmpl) + "/" + method + "/responses/" + status + "/content/application~1json/schema"
					}
				}
			}
			r.ops = append(r.ops, ro)
		}
	}
	// Literal segments win over parameters (/spaces/{id}/content/path/{p}
	// before a broader match): sort by the number of parameters.
	sortOps(r.ops)
	return r, nil
}

func sortOps(ops []refOp) {
	params := func(o refOp) int { return strings.Count(o.template, "{") }
	for i := 1; i < len(ops); i++ {
		for j := i; j > 0 && params(ops[j]) < params(ops[j-1]); j-- {
			ops[j], ops[j-1] = ops[j-1], ops[j]
		}
	}
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// lookup follows a local JSON pointer (#/a/b) in doc.
func lookup(doc map[string]any, ref string) map[string]any {
	var cur any = doc
	for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
		m, _ := cur.(map[string]any)
		cur = m[strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")]
	}
	m, _ := cur.(map[string]any)
	return m
}

// convert30 rewrites OpenAPI 3.0 schema keywords into JSON Schema 2020-12
// in place: `nullable: true` admits null; boolean exclusiveMinimum and
// exclusiveMaximum become numeric.
func convert30(v any) {
	eachObject(v, func(x map[string]any) {
		if n, ok := x["nullable"].(bool); ok {
			delete(x, "nullable")
			if n {
				switch t := x["type"].(type) {
				case string:
					x["type"] = []any{t, "null"}
				default:
					inner := map[string]any{}
					for k, val := range x {
						inner[k] = val
						delete(x, k)
					}
					x["anyOf"] = []any{inner, map[string]any{"type": "null"}}
				}
				// enum lists must admit null too.
				if e, ok := x["enum"].([]any); ok {
					x["enum"] = append(e, nil)
				}
			}
		}
		for _, k := range []string{"exclusiveMinimum", "exclusiveMaximum"} {
			if b, ok := x[k].(bool); ok {
				bound := "minimum"
				if k == "exclusiveMaximum" {
					bound = "maximum"
				}
				if b {
					x[k] = x[bound]
					delete(x, bound)
				} else {
					delete(x, k)
				}
			}
		}
	})
}

// eachObject calls fn on every object of a JSON value, children first.
func eachObject(v any, fn func(map[string]any)) {
	switch x := v.(type) {
	case map[string]any:
		for _, child := range x {
			eachObject(child, fn)
		}
		fn(x)
	case []any:
		for _, child := range x {
			eachObject(child, fn)
		}
	}
}

// emptyDocumentAsNoContent rewrites the "Empty" variant of GitBook's
// Document union ({} with additionalProperties false). Document pages
// are allOf(page, Document): there the empty variant forbids the page's
// own fields, so a page listed without its content (as every tree lists
// them) could never validate. It is read as meant: neither markdown nor
// document.
func emptyDocumentAsNoContent(doc map[string]any) {
	d := lookup(doc, "#/components/schemas/Document")
	for _, key := range []string{"anyOf", "oneOf"} {
		branches, _ := d[key].([]any)
		for i, b := range branches {
			m, _ := b.(map[string]any)
			props, _ := m["properties"].(map[string]any)
			if m != nil && m["additionalProperties"] == false && len(props) == 0 {
				branches[i] = map[string]any{"not": map[string]any{"anyOf": []any{
					map[string]any{"required": []any{"markdown"}}, map[string]any{"required": []any{"document"}}}}}
			}
		}
	}
}

// topLevelIf adds the conditional block to the top-level blocks of a
// document that defines it without listing it there.
func topLevelIf(doc map[string]any) {
	const ifRef = "#/components/schemas/DocumentBlockIf"
	if lookup(doc, ifRef) == nil {
		return
	}
	top := lookup(doc, "#/components/schemas/DocumentBlocksTopLevels")
	for _, key := range []string{"oneOf", "anyOf"} {
		branches, ok := top[key].([]any)
		if !ok {
			continue
		}
		for _, b := range branches {
			if m, _ := b.(map[string]any); m["$ref"] == ifRef {
				return
			}
		}
		top[key] = append(branches, map[string]any{"$ref": ifRef})
		return
	}
}

// oneOfAsAnyOf renames every oneOf to anyOf, in place.
func oneOfAsAnyOf(v any) {
	eachObject(v, func(x map[string]any) {
		if o, ok := x["oneOf"]; ok {
			if _, clash := x["anyOf"]; !clash {
				delete(x, "oneOf")
				x["anyOf"] = o
			}
		}
	})
}

// dropUndefinedRequired removes, in every schema with properties, the
// required names that are not among them.
func dropUndefinedRequired(v any) {
	eachObject(v, func(x map[string]any) {
		props, ok := x["properties"].(map[string]any)
		req, ok2 := x["required"].([]any)
		if !ok || !ok2 {
			return
		}
		kept := req[:0:0]
		for _, name := range req {
			if n, _ := name.(string); props[n] != nil {
				kept = append(kept, name)
			}
		}
		x["required"] = kept
	})
}

// lenientRegexp compiles patterns with Go's regexp; a pattern Go cannot
// compile (lookaheads) matches everything rather than failing the schema.
func lenientRegexp(s string) (jsonschema.Regexp, error) {
	re, err := regexp.Compile(s)
	if err != nil {
		return anything(s), nil
	}
	return re, nil
}

type anything string

func (a anything) MatchString(string) bool { return true }
func (a anything) String() string          { return string(a) }

// check validates body, the answer to method path with status, against
// the reference's schema for the same operation and status. It returns
// "" when the reference has no such operation, status or JSON schema.
func (r *reference) check(method, path string, status int, body any) (string, error) {
	for _, op := range r.ops {
		if op.method != method || !op.re.MatchString(path) {
			continue
		}
		loc, ok := op.responses[strconv.Itoa(status)]
		if !ok || deviations[r.tag+":"+op.id] != "" || (r.tag == "old" && !r.specOps[op.id]) {
			return "", nil
		}
		sch, err := r.schema(loc)
		if err != nil {
			return op.id, fmt.Errorf("compile %s: %w", loc, err)
		}
		if err := sch.Validate(body); err != nil {
			return op.id, err
		}
		return op.id, nil
	}
	return "", nil
}

func (r *reference) schema(loc string) (*jsonschema.Schema, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.compiled[loc]; ok {
		return s, nil
	}
	s, err := r.compiler.Compile(loc)
	if err != nil {
		return nil, err
	}
	r.compiled[loc] = s
	return s, nil
}

// checkReferences validates a 2xx JSON answer against both of GitBook's
// documents; it returns one message per reference the body fails.
func checkReferences(method, path string, status int, raw []byte) ([]string, error) {
	refs, err := references()
	if err != nil {
		return nil, err
	}
	body, err := jsonschema.UnmarshalJSON(strings.NewReader(string(raw)))
	if err != nil {
		return nil, nil // not JSON: our own document's check reports it
	}
	var failures []string
	for _, r := range refs {
		id, err := r.check(method, path, status, body)
		if err != nil {
			failures = append(failures, fmt.Sprintf("GitBook's %s, operation %s: %v", r.name, id, err))
		}
	}
	return failures, nil
}

// Schema checks a JSON document (raw: a webhook's payload, say) against
// one of the current reference's component schemas
// (#/components/schemas/<name> of gitbook-openapi-0.202.0.json), for
// shapes GitBook documents outside its operations' answers.
func Schema(name string, raw []byte) error {
	refs, err := references()
	if err != nil {
		return err
	}
	body, err := jsonschema.UnmarshalJSON(strings.NewReader(string(raw)))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	for _, r := range refs {
		if r.tag != "new" {
			continue
		}
		sch, err := r.schema("file:///reference/" + r.name + "#/components/schemas/" + escapePointer(name))
		if err != nil {
			return err
		}
		return sch.Validate(body)
	}
	return fmt.Errorf("no current reference document")
}
