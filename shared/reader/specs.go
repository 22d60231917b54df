package reader

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/galleydocs/galley/shared/content"
)

// A page showing an OpenAPI spec's operations (a computed API reference
// page, the pages it generates, a page with OpenAPI blocks) changes when
// the spec gets a new version, though its revision does not: its ETag
// hashes the versions of the specs it shows (docs/reader.md, "Caching"),
// and a revision's page tree, generated from the specs' versions, is
// built again when one changes.

// maxBodySpecs bounds the pages (by visitor's claims) whose specs a
// revision's navigation remembers.
const maxBodySpecs = 4096

// bodySpecs remembers which specs the OpenAPI blocks of a revision's
// pages name, by page and visitor's claims (a conditional block may hold
// one): learned from the page's body as the visitor is shown it, the
// first time an answer of that page is asked, so that the ETag of the
// next one needs no read of the page. Every process learns the same
// (ETags agree across instances).
type bodySpecs struct {
	mu sync.Mutex
	m  map[string][]string
}

func newBodySpecs() *bodySpecs { return &bodySpecs{m: map[string][]string{}} }

func (b *bodySpecs) get(key string) ([]string, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	refs, ok := b.m[key]
	return refs, ok
}

// put remembers a page's specs; when full, nothing more is kept (those
// pages' specs are read with each answer).
func (b *bodySpecs) put(key string, refs []string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.m) < maxBodySpecs {
		b.m[key] = refs
	}
}

// specRefsOf lists the specs a document's OpenAPI blocks name, sorted,
// each once: an openapi-operation block's spec, a swagger block's source
// URL or file (it shows a spec's operation once a spec of that source
// exists).
func specRefsOf(nodes []map[string]any) []string {
	var refs []string
	var walk func(nodes []map[string]any)
	walk = func(nodes []map[string]any) {
		for _, n := range nodes {
			if n["object"] == "block" {
				ref, _ := dataOf(n)["ref"].(map[string]any)
				switch n["type"] {
				case "openapi-operation":
					refs = append(refs, str(ref, "spec"))
				case "swagger":
					refs = append(refs, str(ref, "url"), str(ref, "file"))
				}
			}
			walk(nodesOf(n["nodes"]))
			walk(nodesOf(n["fragments"]))
		}
	}
	walk(nodes)
	refs = slices.DeleteFunc(refs, func(r string) bool { return r == "" })
	slices.Sort(refs)
	return slices.Compact(refs)
}

// specVersions are the versions of the specs refs name
// (content.SpecVersions), asked once per request (st.specs).
func (s *Service) specVersions(st *site, at content.At, refs []string) (map[string]string, error) {
	var ask []string
	for _, r := range refs {
		if _, ok := st.specs[r]; !ok {
			ask = append(ask, r)
		}
	}
	if len(ask) > 0 {
		got, err := s.content.SpecVersions(st.vctx, at, ask)
		if err != nil {
			return nil, err
		}
		if st.specs == nil {
			st.specs = map[string]string{}
		}
		maps.Copy(st.specs, got)
	}
	out := make(map[string]string, len(refs))
	for _, r := range refs {
		out[r] = st.specs[r]
	}
	return out, nil
}

// pageSpecs is what a page's ETag adds for the specs it shows: each
// spec's ref and version, "" for a page showing none. A computed or
// generated page shows its spec; a document page the specs of its
// OpenAPI blocks, as the visitor is shown it: remembered per revision
// (bodySpecs), else read, and then the page read is returned for the
// answer to use (rp nil otherwise).
func (s *Service) pageSpecs(st *site, p *navPage, at content.At) (string, *content.RevisionPage, error) {
	var refs []string
	var rp *content.RevisionPage
	switch {
	case p.Spec != "":
		refs = []string{p.Spec}
	case p.Type == content.TypeDocument:
		claims, _ := json.Marshal(st.res.Claims)
		key := p.ID + "\x00" + string(claims)
		var ok bool
		if refs, ok = st.nav.bodySpecs.get(key); !ok {
			read, err := s.content.ShownPage(st.vctx, at, p.ID, content.FormatDocument, st.audience())
			if err != nil {
				return "", nil, err
			}
			rp = &read
			if read.Document != nil {
				refs = specRefsOf(read.Document.Nodes)
			}
			st.nav.bodySpecs.put(key, refs)
		}
	}
	if len(refs) == 0 {
		return "", rp, nil
	}
	vs, err := s.specVersions(st, at, refs)
	if err != nil {
		return "", nil, err
	}
	var b strings.Builder
	for _, r := range refs {
		b.WriteString(" spec " + r + "=" + vs[r])
	}
	return b.String(), rp, nil
}
