package content

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/document"
)

// Computed pages (docs/content.md, "Computed pages").
//
// A page of type computed stores the source it is computed from (the
// reference's ComputedContentSourceRevision; Galley computes
// builtin:openapi, an API reference generated from one of the
// organization's OpenAPI specs). Reads compute it unless asked not to
// (computed=false, At.NoCompute): the page becomes a document page whose
// children are the generated pages, one per tag of the spec's latest
// version (grouping by-tag, the default) or one per operation
// (by-operation), each holding one openapi-operation block per operation.
// Generation happens at read time from the version's operations list (one
// small blob), so a new version of the spec shows without any step, and
// nothing generated is stored: generated pages have ids derived from the
// computed page's id and their tag or operation, stable across reads.

// TypeComputed is the type of a page computed from a source.
const TypeComputed = "computed"

// ComputedOpenAPI is the computed source Galley knows.
const ComputedOpenAPI = "builtin:openapi"

// ComputedSource is what a page is computed from (the reference's
// ComputedContentSourceRevisionOpenAPI on a computed page, and
// ComputedContentSourceDocumentOpenAPI on the pages it generates).
type ComputedSource struct {
	Type         string               `json:"type" enum:"builtin:openapi"`
	Dependencies ComputedDependencies `json:"dependencies"`
	Props        ComputedProps        `json:"props"`
}

// ComputedDependencies are what a computation depends on: the spec.
type ComputedDependencies struct {
	Spec ComputedSpecDependency `json:"spec"`
}

// ComputedSpecDependency names the spec (Ref) and, in computed reads, what
// it resolved to (Value; null when the organization has no such spec).
type ComputedSpecDependency struct {
	Ref OpenAPIRef `json:"ref"`
	// Value is set by computed reads only; it is never stored.
	Value *ComputedSpecValue `json:"value,omitempty"`
	// Resolved tells the view to write value, null included.
	Resolved bool `json:"-"`
}

// MarshalJSON writes value (null for an unknown spec) when resolved.
func (d ComputedSpecDependency) MarshalJSON() ([]byte, error) {
	if d.Resolved {
		return json.Marshal(struct {
			Ref   OpenAPIRef         `json:"ref"`
			Value *ComputedSpecValue `json:"value"`
		}{d.Ref, d.Value})
	}
	return json.Marshal(struct {
		Ref OpenAPIRef `json:"ref"`
	}{d.Ref})
}

// OpenAPIRef names an OpenAPI spec of the organization (the reference's
// ContentRefOpenAPI): its slug.
type OpenAPIRef struct {
	Kind string `json:"kind" enum:"openapi"`
	Spec string `json:"spec" doc:"Slug of the OpenAPI specification (Galley also accepts its id or the URL it is fetched from)"`
}

// ComputedSpecValue is the spec a dependency resolved to.
type ComputedSpecValue struct {
	Object      string `json:"object" enum:"openapi-spec"`
	ID          string `json:"id"`
	Slug        string `json:"slug"`
	LastVersion string `json:"lastVersion,omitempty"`
}

// Grouping of the generated pages.
const (
	GroupByTag       = "by-tag"
	GroupByOperation = "by-operation"
)

// ComputedProps are a computation's parameters: models, downloadLink and
// grouping on a computed page; doc, page and method on a generated one.
type ComputedProps struct {
	Models       *bool  `json:"models,omitempty"`
	DownloadLink *bool  `json:"downloadLink,omitempty"`
	Grouping     string `json:"grouping,omitempty" enum:"by-tag,by-operation"`
	Doc          string `json:"doc,omitempty" enum:"models,operations,info,operation,tag"`
	Page         string `json:"page,omitempty"`
	Method       string `json:"method,omitempty"`
}

// Specs is what content asks of the organization's OpenAPI specs to
// compute pages and resolve OpenAPI blocks (package openapispecs answers
// it; content cannot import it). The caller's right to read the content was
// checked by content: the specs asked about are those of the space's
// organization, read on the content's behalf.
type Specs interface {
	// FindSpec finds the organization's spec ref names: its slug, its id,
	// or the URL it is fetched from. ok is false when there is none.
	FindSpec(ctx context.Context, orgID, ref string) (spec SpecInfo, ok bool, err error)
	// SpecOperations lists the operations of the spec's latest version
	// (none when it has no version yet).
	SpecOperations(ctx context.Context, spec SpecInfo) ([]SpecOperation, error)
	// SpecOperationReader reads the spec's latest version once and answers
	// a lookup of its operations (nil before the first version).
	SpecOperationReader(ctx context.Context, spec SpecInfo) (func(method, path string) *OperationDetail, error)
}

// SpecInfo is a spec as content sees it.
type SpecInfo struct {
	ID, OrgID, Slug string
	// LastVersion is the id of its latest version ("" before the first).
	LastVersion string
}

// SpecOperation is an operation of a spec's version.
type SpecOperation struct {
	Path, Method string
	Tags         []string
}

// tag is the tag an operation's page is generated under: its first, or
// DefaultTag.
func (op SpecOperation) tag() string {
	if len(op.Tags) > 0 && strings.TrimSpace(op.Tags[0]) != "" {
		return op.Tags[0]
	}
	return DefaultTag
}

// DefaultTag is the title of the generated page of the operations that
// have no tag.
const DefaultTag = "Other"

// generated is one page a computed page generates.
type generated struct {
	page Page
	ops  []SpecOperation
	doc  ComputedProps
}

// generatedID derives a generated page's id from its computed page's and
// its key: "<page id>-<12 hex digits>", so that a read of it finds the
// computed page.
func generatedID(pageID, key string) string {
	h := sha256.Sum256([]byte(pageID + "\x00" + key))
	return pageID + "-" + hex.EncodeToString(h[:6])
}

// computedPageOf is the id of the computed page a generated id derives
// from, or "".
func computedPageOf(id string) string {
	i := strings.LastIndexByte(id, '-')
	if i <= 0 || len(id)-i-1 != 12 {
		return ""
	}
	return id[:i]
}

// computation is a computed page's source resolved against the specs.
type computation struct {
	spec  SpecInfo
	found bool
	ops   []SpecOperation
}

// resolve finds the spec p is computed from and its operations.
func (s *Service) resolveComputed(ctx context.Context, orgID string, p *Page) (computation, error) {
	if s.specs == nil || p.Computed == nil || p.Computed.Type != ComputedOpenAPI {
		return computation{}, nil
	}
	spec, ok, err := s.specs.FindSpec(ctx, orgID, p.Computed.Dependencies.Spec.Ref.Spec)
	if err != nil || !ok {
		return computation{}, err
	}
	ops, err := s.specs.SpecOperations(ctx, spec)
	if err != nil {
		return computation{}, err
	}
	return computation{spec: spec, found: true, ops: ops}, nil
}

// generate lays out the pages a computed page generates: one per tag (an
// operation goes under its first tag; those without one under
// DefaultTag), in the order the tags first appear in the operations list
// (by path, then method), or one per operation.
func generate(p *Page, c computation) []generated {
	if !c.found {
		return nil
	}
	var out []generated
	slugs := map[string]bool{}
	newPage := func(key, title string) Page {
		slug := document.Slug(title, "page")
		if slug == "" {
			slug = "page"
		}
		for base, n := slug, 2; slugs[slug]; n++ {
			slug = base + "-" + strconv.Itoa(n)
		}
		slugs[slug] = true
		return Page{ID: generatedID(p.ID, key), Parent: p.ID, Type: TypeDocument, Title: title, Slug: slug,
			CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt}
	}
	if p.Computed.Props.Grouping == GroupByOperation {
		for _, op := range c.ops {
			title := strings.ToUpper(op.Method) + " " + op.Path
			out = append(out, generated{page: newPage("operation:"+op.Method+" "+op.Path, title), ops: []SpecOperation{op},
				doc: ComputedProps{Doc: "operation", Page: op.Path, Method: op.Method}})
		}
		return out
	}
	index := map[string]int{}
	for _, op := range c.ops {
		tag := op.tag()
		i, ok := index[tag]
		if !ok {
			i = len(out)
			index[tag] = i
			out = append(out, generated{page: newPage("tag:"+tag, tag), doc: ComputedProps{Doc: "tag", Page: tag}})
		}
		out[i].ops = append(out[i].ops, op)
	}
	return out
}

// dependency is the computed page's spec dependency as computed reads
// show it: resolved, with its value.
func (c computation) dependency(p *Page) ComputedDependencies {
	d := ComputedSpecDependency{Ref: p.Computed.Dependencies.Spec.Ref, Resolved: true}
	if c.found {
		d.Ref.Spec = c.spec.Slug
		d.Value = &ComputedSpecValue{Object: "openapi-spec", ID: c.spec.ID, Slug: c.spec.Slug, LastVersion: c.spec.LastVersion}
	}
	return ComputedDependencies{Spec: d}
}

// operationsDocument is a generated page's body: one openapi-operation
// block per operation (headless on a page of one operation, whose title
// says it).
func operationsDocument(slug string, ops []SpecOperation, headless bool) document.JSONDocument {
	nodes := make([]document.Node, 0, len(ops))
	for _, op := range ops {
		data := document.Node{"ref": document.Node{"kind": "openapi", "spec": slug}, "path": op.Path, "method": op.Method}
		if headless {
			data["headless"] = true
		}
		nodes = append(nodes, document.VoidBlock("openapi-operation", data))
	}
	return document.JSONDocument{Object: "document", Data: map[string]any{}, Nodes: nodes}
}

// computedView renders a computed page computed: a document page (its
// body empty: the reference's "info" document) with the generated pages
// as children.
func (s *Service) computedView(p *Page, path string, o Options, c computation) (RevisionPage, []generated) {
	q := *p
	q.Type = TypeDocument
	v := PageView(&q, path, o)
	deps := c.dependency(p)
	v.Computed = &ComputedSource{Type: ComputedOpenAPI, Dependencies: deps, Props: ComputedProps{Doc: "info", Page: specName(p, c)}}
	v.ComputedSeed = p.ID
	gen := generate(p, c)
	v.Pages = make([]RevisionPage, 0, len(gen))
	for i := range gen {
		v.Pages = append(v.Pages, generatedView(&gen[i], path, o, deps))
	}
	return v, gen
}

func specName(p *Page, c computation) string {
	if c.found {
		return c.spec.Slug
	}
	if n := p.Computed.Dependencies.Spec.Ref.Spec; n != "" {
		return n
	}
	return p.ID
}

// generatedView renders a generated page under its computed page's path.
func generatedView(g *generated, parentPath string, o Options, deps ComputedDependencies) RevisionPage {
	path := g.page.Slug
	if parentPath != "" {
		path = parentPath + "/" + g.page.Slug
	}
	v := PageView(&g.page, path, o)
	v.Computed = &ComputedSource{Type: ComputedOpenAPI, Dependencies: deps, Props: g.doc}
	v.ComputedSeed = g.page.ID
	return v
}

// expandComputed computes the computed pages of a rendered tree in place
// (tree reads: revision and pages).
func (s *Service) expandComputed(ctx context.Context, src source, pages []RevisionPage, o Options, lookup func(id string) *Page) error {
	if s.specs == nil || src.noCompute {
		return nil
	}
	for i := range pages {
		v := &pages[i]
		if v.Type == TypeComputed {
			p := lookup(v.ID)
			if p == nil || p.Computed == nil {
				continue
			}
			c, err := s.resolveComputed(ctx, src.space.OrgID, p)
			if err != nil {
				return err
			}
			*v, _ = s.computedView(p, v.Path, o, c)
			continue
		}
		if err := s.expandComputed(ctx, src, v.Pages, o, lookup); err != nil {
			return err
		}
	}
	return nil
}

// computedPage answers a read of a computed page, computed: see
// computedView; its body is empty.
func (s *Service) computedPage(ctx context.Context, src source, p *Page, path, format string, o Options) (RevisionPage, error) {
	c, err := s.resolveComputed(ctx, src.space.OrgID, p)
	if err != nil {
		return RevisionPage{}, err
	}
	v, _ := s.computedView(p, path, o, c)
	switch format {
	case FormatMarkdown:
		q := *p
		q.Type = TypeDocument
		md := RenderMarkdown(&q, "", FrontDescription)
		v.Markdown = &md
	default:
		v.Document = &document.JSONDocument{Object: "document", Data: map[string]any{}, Nodes: []document.Node{}}
	}
	return v, nil
}

// generated answers a read of a page a computed page generates, by id; ok
// is false when id names none.
func (s *Service) generated(ctx context.Context, src source, tr *TreeReader, id, format string, metadata bool) (RevisionPage, bool, error) {
	parent := computedPageOf(id)
	if parent == "" || s.specs == nil || src.noCompute {
		return RevisionPage{}, false, nil
	}
	return s.generatedOf(ctx, src, tr, parent, func(g *generated) bool { return g.page.ID == id }, format, metadata)
}

// generatedAt answers a read of a generated page by path: the computed
// page's path and the generated page's slug.
func (s *Service) generatedAt(ctx context.Context, src source, tr *TreeReader, parentPath, slug, format string, metadata bool) (RevisionPage, bool, error) {
	if s.specs == nil || src.noCompute {
		return RevisionPage{}, false, nil
	}
	parent, err := tr.PageAtPath(ctx, parentPath)
	if err != nil || parent == "" {
		return RevisionPage{}, false, err
	}
	return s.generatedOf(ctx, src, tr, parent, func(g *generated) bool { return g.page.Slug == slug }, format, metadata)
}

func (s *Service) generatedOf(ctx context.Context, src source, tr *TreeReader, parent string, match func(*generated) bool, format string, metadata bool) (RevisionPage, bool, error) {
	sub, _, err := tr.subtree(ctx, parent)
	if err != nil || sub == nil {
		return RevisionPage{}, false, err
	}
	p := &sub[0].Page
	if p.Type != TypeComputed || p.Computed == nil {
		return RevisionPage{}, false, nil
	}
	c, err := s.resolveComputed(ctx, src.space.OrgID, p)
	if err != nil {
		return RevisionPage{}, false, err
	}
	o := s.options(src, metadata)
	view, gen := s.computedView(p, sub[0].Path, o, c)
	for i := range gen {
		g := &gen[i]
		if !match(g) {
			continue
		}
		v := view.Pages[i]
		headless := p.Computed.Props.Grouping == GroupByOperation
		switch format {
		case FormatMarkdown:
			var b strings.Builder
			for j, op := range g.ops {
				if j > 0 {
					b.WriteString("\n")
				}
				b.WriteString(`{% openapi-operation spec="` + c.spec.Slug + `" path="` + op.Path + `" method="` + op.Method + `" %}` + "\n")
			}
			md := RenderMarkdown(&g.page, b.String(), FrontDescription)
			v.Markdown = &md
		default:
			doc := operationsDocument(c.spec.Slug, g.ops, headless)
			v.Document = &doc
		}
		return v, true, nil
	}
	return RevisionPage{}, false, nil
}

// resolveBlocks resolves the OpenAPI blocks of a document against the
// organization's specs, in place: an openapi-operation block names its
// spec by slug (given its slug, id or source URL), and a swagger block
// ({% openapi src %} or {% swagger src %}) whose URL is a spec's source
// URL (or whose src is a spec's slug) becomes an openapi-operation block
// of that spec. Blocks of unknown specs, and inline swagger operations,
// stay as written.
func (s *Service) resolveBlocks(ctx context.Context, src source, nodes []document.Node) error {
	if s.specs == nil || src.noCompute {
		return nil
	}
	found := map[string]*SpecInfo{}
	find := func(ref string) (*SpecInfo, error) {
		if ref == "" {
			return nil, nil
		}
		if sp, ok := found[ref]; ok {
			return sp, nil
		}
		sp, ok, err := s.specs.FindSpec(ctx, src.space.OrgID, ref)
		if err != nil {
			return nil, err
		}
		if !ok {
			found[ref] = nil
			return nil, nil
		}
		found[ref] = &sp
		return &sp, nil
	}
	var walk func(nodes []document.Node) error
	walk = func(nodes []document.Node) error {
		for _, n := range nodes {
			if n["object"] == "block" {
				if err := resolveBlock(n, find); err != nil {
					return err
				}
			}
			for _, key := range []string{"nodes", "fragments"} {
				if kids, ok := n[key].([]document.Node); ok {
					if err := walk(kids); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	return walk(nodes)
}

func resolveBlock(n document.Node, find func(string) (*SpecInfo, error)) error {
	data, _ := n["data"].(document.Node)
	ref, _ := data["ref"].(document.Node)
	if data == nil || ref == nil {
		return nil
	}
	switch n["type"] {
	case "openapi-operation":
		name, _ := ref["spec"].(string)
		sp, err := find(name)
		if err != nil || sp == nil {
			return err
		}
		ref["spec"] = sp.Slug
	case "swagger":
		var name string
		switch ref["kind"] {
		case "url":
			name, _ = ref["url"].(string)
		case "file":
			// {% openapi src="slug" %}: a src that is no URL reads as a
			// file; a spec of that slug wins.
			name, _ = ref["file"].(string)
		}
		if base, ok := data["baseUrl"]; ok && ref["kind"] == "url" && ref["url"] == base {
			// An inline {% swagger %} (no src) describes its operation
			// itself: its ref is its base URL.
			return nil
		}
		sp, err := find(name)
		if err != nil || sp == nil {
			return err
		}
		n["type"] = "openapi-operation"
		data["ref"] = document.Node{"kind": "openapi", "spec": sp.Slug}
	}
	return nil
}

// Computed content on demand (POST .../content/computed/revision and
// .../computed/document): what a computed page with this source would
// show, without a page. seed stands for the computed page's id, from which
// the generated pages' ids derive (the same seed, the same ids).

// ComputeRevision answers the pages source generates, as a computed page
// whose id is seed would have them.
func (s *Service) ComputeRevision(ctx context.Context, at At, cs ComputedSource, seed string) ([]RevisionPage, error) {
	src, p, c, err := s.onDemand(ctx, at, cs, seed)
	if err != nil {
		return nil, err
	}
	v, _ := s.computedView(p, "", s.options(src, true), c)
	return v.Pages, nil
}

// ComputeDocument answers the document of one generated page (props.doc
// tag: the operations of the tag props.page; operation: the operation at
// props.page and props.method, headless; operations: every operation at
// path props.page) or of the computed page itself (info) or of models,
// which Galley does not generate (both empty documents).
func (s *Service) ComputeDocument(ctx context.Context, at At, cs ComputedSource, seed string) (document.JSONDocument, error) {
	_, _, c, err := s.onDemand(ctx, at, cs, seed)
	if err != nil {
		return document.JSONDocument{}, err
	}
	props := cs.Props
	var ops []SpecOperation
	switch props.Doc {
	case "info", "models":
		return operationsDocument(c.spec.Slug, nil, false), nil
	case "tag", "operations", "operation":
	default:
		return document.JSONDocument{}, apperr.Field("source.props.doc", "one of info, models, tag, operations, operation")
	}
	if props.Page == "" {
		return document.JSONDocument{}, apperr.Field("source.props.page", "required for doc %s", props.Doc)
	}
	for _, op := range c.ops {
		switch props.Doc {
		case "tag":
			if op.tag() == props.Page {
				ops = append(ops, op)
			}
		case "operations":
			if op.Path == props.Page {
				ops = append(ops, op)
			}
		case "operation":
			if op.Path == props.Page && op.Method == props.Method {
				ops = append(ops, op)
			}
		}
	}
	if len(ops) == 0 {
		return document.JSONDocument{}, apperr.Field("source.props.page", "the latest version of OpenAPI spec %s has no %s %q", c.spec.Slug, props.Doc, strings.TrimSpace(props.Method+" "+props.Page))
	}
	return operationsDocument(c.spec.Slug, ops, props.Doc == "operation"), nil
}

// onDemand checks the caller may read the space's content and resolves
// source against the organization's specs, as the computed page seed.
func (s *Service) onDemand(ctx context.Context, at At, cs ComputedSource, seed string) (source, *Page, computation, error) {
	src, err := s.source(ctx, at)
	if err != nil {
		return src, nil, computation{}, err
	}
	if cs.Type != ComputedOpenAPI {
		return src, nil, computation{}, apperr.Field("source.type", "Galley computes %s content only", ComputedOpenAPI)
	}
	if cs.Dependencies.Spec.Ref.Spec == "" {
		return src, nil, computation{}, apperr.Field("source.dependencies.spec.ref.spec", "an OpenAPI spec's slug is required")
	}
	if s.specs == nil {
		return src, nil, computation{}, apperr.Field("source", "this server computes no content")
	}
	p := &Page{ID: seed, Type: TypeComputed, Title: cs.Dependencies.Spec.Ref.Spec, Computed: &cs}
	c, err := s.resolveComputed(ctx, src.space.OrgID, p)
	if err != nil {
		return src, nil, c, err
	}
	if !c.found {
		return src, nil, c, apperr.Field("source.dependencies.spec.ref.spec", "the organization has no OpenAPI spec %q", cs.Dependencies.Spec.Ref.Spec)
	}
	return src, p, c, nil
}
