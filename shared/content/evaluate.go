package content

import (
	"context"
	"strings"

	"github.com/galleydocs/galley/shared/condition"
	"github.com/galleydocs/galley/shared/document"
)

// GitBook's evaluated and dereferenced of a document read
// (getReusableContentDocumentInRevisionById): the document as stored, or
// with its expressions and conditional blocks evaluated, its
// reusable-content blocks replaced by the documents they name. The API
// has no visitor: an evaluation reads the space's variables (and a page's
// own), the visitor's claims as missing (docs/content.md, "Where content
// goes out").

// DocumentOptions are a document read's evaluated and dereferenced.
type DocumentOptions struct {
	// Evaluated is "" or "false" (expressions and conditional blocks as
	// stored), "true" (all evaluated: an expression becomes its value's
	// text, or nothing without one; a conditional block its inner blocks
	// when its condition holds, or nothing) or "deterministic-only" (only
	// those that read no visitor claim).
	Evaluated string
	// Dereferenced is "" or "false" (reusable-content blocks as stored),
	// "true" or "reusable-contents" (each replaced by the blocks of the
	// reusable content it names, of the same revision, its own
	// reusable-content blocks in turn, at most document.MaxIncludeDepth
	// deep; one that names nothing is kept). Reusable contents are the
	// only references Galley expands, so "true" is "reusable-contents".
	Dereferenced string
}

func (o DocumentOptions) evaluates() bool {
	return o.Evaluated == "true" || o.Evaluated == "deterministic-only"
}

func (o DocumentOptions) dereferences() bool {
	return o.Dereferenced == "true" || o.Dereferenced == "reusable-contents"
}

// shaper applies DocumentOptions to the nodes of one revision's document.
type shaper struct {
	ctx     context.Context
	s       *Service
	spaceID string
	tr      *TreeReader
	o       DocumentOptions
	env     condition.Env
	err     error
}

// shape applies the options to nodes; stack holds the reusable contents
// being expanded.
func (sh *shaper) shape(nodes []document.Node, stack []string) []document.Node {
	out := make([]document.Node, 0, len(nodes))
	for _, n := range nodes {
		if sh.err != nil {
			return out
		}
		typ, _ := n["type"].(string)
		data, _ := n["data"].(map[string]any)
		switch {
		case typ == "expression" && sh.o.evaluates():
			e, err := condition.Parse(str(data["expression"]))
			if err == nil && sh.o.Evaluated == "deterministic-only" && e.ReadsClaims() {
				break
			}
			if err == nil {
				if v, ok := e.Value(sh.env); ok {
					out = append(out, document.Node{"object": "text", "leaves": []document.Node{
						{"object": "leaf", "text": condition.Text(v), "marks": []document.Node{}}}})
				}
			}
			continue
		case typ == document.ConditionalType && sh.o.evaluates():
			e, err := condition.Parse(str(data["expression"]))
			if err == nil && sh.o.Evaluated == "deterministic-only" && e.ReadsClaims() {
				break
			}
			if err == nil && e.Holds(sh.env) {
				out = append(out, sh.shape(children(n), stack)...)
			}
			continue
		case typ == "reusable-content" && sh.o.dereferences():
			if inner, ok := sh.reusable(data, stack); ok {
				out = append(out, inner...)
				continue
			}
		}
		out = append(out, sh.within(n, stack))
	}
	return out
}

// within is n with its children (nodes, fragments' nodes) shaped.
func (sh *shaper) within(n document.Node, stack []string) document.Node {
	kids, hasKids := n["nodes"]
	frags, hasFrags := n["fragments"]
	if !hasKids && !hasFrags {
		return n
	}
	c := make(document.Node, len(n))
	for k, v := range n {
		c[k] = v
	}
	if hasKids {
		if ns := asNodes(kids); ns != nil {
			c["nodes"] = sh.shape(ns, stack)
		}
	}
	if hasFrags {
		if fs := asNodes(frags); fs != nil {
			shaped := make([]document.Node, len(fs))
			for i, f := range fs {
				shaped[i] = sh.within(f, stack)
			}
			c["fragments"] = shaped
		}
	}
	return c
}

// reusable is the shaped blocks of the reusable content a reusable-content
// block names; ok is false when it names none of the revision (another
// space's, an unknown id), a cycle or one too deep.
func (sh *shaper) reusable(data map[string]any, stack []string) ([]document.Node, bool) {
	ref, _ := data["ref"].(map[string]any)
	id := str(ref["reusableContent"])
	if id == "" || (str(ref["space"]) != "" && str(ref["space"]) != sh.spaceID) || len(stack) >= document.MaxIncludeDepth {
		return nil, false
	}
	for _, s := range stack {
		if s == id {
			return nil, false
		}
	}
	rc, err := sh.tr.ReusableContent(sh.ctx, id)
	if err != nil || rc == nil {
		sh.err = err
		return nil, false
	}
	body, err := sh.s.Repo.Document(sh.ctx, sh.spaceID, rc.Document)
	if err != nil {
		sh.err = err
		return nil, false
	}
	loc := &locator{ctx: sh.ctx, tr: sh.tr}
	r := document.Resolver{Locator: loc, Reusables: loc}
	if rc.Git != nil {
		r.File = rc.Git.Path
	}
	doc := document.ToDocument(body, r)
	if loc.err != nil {
		sh.err = loc.err
		return nil, false
	}
	return sh.shape(doc.Nodes, append(stack[:len(stack):len(stack)], id)), true
}

func children(n document.Node) []document.Node { return asNodes(n["nodes"]) }

// asNodes reads a list of nodes ([]Node as built, []any as decoded).
func asNodes(v any) []document.Node {
	switch x := v.(type) {
	case []document.Node:
		return x
	case []any:
		out := make([]document.Node, 0, len(x))
		for _, e := range x {
			if m, ok := e.(map[string]any); ok {
				out = append(out, m)
			}
		}
		return out
	}
	return nil
}

func str(v any) string {
	s, _ := v.(string)
	return strings.TrimSpace(s)
}

// shapeDocument applies o to a document of the revision tr reads (page:
// the page whose variables expressions read; nil for a reusable content).
func (s *Service) shapeDocument(ctx context.Context, spaceID string, tr *TreeReader, page *Page, doc *document.JSONDocument, o DocumentOptions) error {
	if !o.evaluates() && !o.dereferences() {
		return nil
	}
	sh := &shaper{ctx: ctx, s: s, spaceID: spaceID, tr: tr, o: o}
	if o.evaluates() {
		vars, err := tr.Variables(ctx)
		if err != nil {
			return err
		}
		sh.env.SpaceVars = vars
		if page != nil {
			sh.env.PageVars = page.Variables
		}
	}
	doc.Nodes = sh.shape(doc.Nodes, nil)
	return sh.err
}
