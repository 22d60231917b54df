package content

import (
	"context"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/document"
)

// The reads GitBook's clients make beyond the spec: a page's document
// alone, a document by id, a page's meta links, reusable contents (and the
// space's variables) and the
// semantic changes of a revision. Each checks the reading right from the
// ids it is given (source), as the other reads do.

// PageDocument reads the document of a page at at. Pages without a body
// (groups, links) have no document: NotFound.
func (s *Service) PageDocument(ctx context.Context, at At, pageID string) (document.JSONDocument, error) {
	v, err := s.Page(ctx, at, pageID, FormatDocument, false)
	if err != nil {
		return document.JSONDocument{}, err
	}
	if v.Document == nil {
		return document.JSONDocument{}, apperr.NotFoundf("page %s has no document", pageID)
	}
	return *v.Document, nil
}

// Document reads a document of a space by id. A document's id is the
// documentId of the page that carries it (the hash of its body, see
// Page.Document); a document is found while a page of the space's current
// revision carries it, and is rendered as that page's (its relative links
// resolve from that page).
func (s *Service) Document(ctx context.Context, spaceID, documentID string) (document.JSONDocument, error) {
	src, _, ix, err := s.load(ctx, At{SpaceID: spaceID})
	if err != nil {
		return document.JSONDocument{}, err
	}
	var page *Page
	ix.Walk(func(p *Page, _ int) bool {
		if page != nil {
			return false
		}
		if p.Type == TypeDocument && p.Document == documentID {
			page = p
			return false
		}
		return true
	})
	if page == nil && documentID != "" {
		// A reusable content's document: rendered as its own read does.
		for _, rc := range ix.ReusableContents() {
			if rc.Document == documentID {
				file := ix.GitPathOfReusable(rc.ID)
				return s.indexDocument(ctx, src, ix, nil, file, document.Resolver{Locator: ix, Reusables: ix, File: file}, rc.Document)
			}
		}
	}
	if page == nil || documentID == "" {
		return document.JSONDocument{}, apperr.NotFoundf("document %s not found", documentID)
	}
	return s.indexDocument(ctx, src, ix, page, ix.GitPath(page.ID), document.Resolver{Locator: ix, PageID: page.ID, Reusables: ix}, page.Document)
}

// indexDocument renders the stored document id, the body of page (nil for
// a reusable content's) whose file is file, read through r; a visitor
// reads it with its includes and conditions resolved first.
func (s *Service) indexDocument(ctx context.Context, src source, ix *Index, page *Page, file string, r document.Resolver, id string) (document.JSONDocument, error) {
	body, err := s.Repo.Document(ctx, src.space.ID, id)
	if err != nil {
		return document.JSONDocument{}, err
	}
	if src.visitor {
		if body, _, err = s.resolveBody(ctx, src.space.ID, indexIncludes{ix}, page, file, body, *visitorAudience()); err != nil {
			return document.JSONDocument{}, err
		}
	}
	doc := document.ToDocument(body, r)
	if err := s.resolveBlocks(ctx, src, doc.Nodes); err != nil {
		return document.JSONDocument{}, err
	}
	return doc, nil
}

// MetaLinks are a page's meta links (the reference's
// RevisionPageMetaLinks): its canonical URL and alternates.
type MetaLinks struct {
	Canonical  *Ref  `json:"canonical,omitempty" doc:"The page's canonical target (none in Galley yet)"`
	Alternates []Ref `json:"alternates" doc:"The page's alternates (none in Galley yet)"`
}

// PageMetaLinks reads the meta links of a page at at. Galley authors no
// meta links yet: a page has none, an unknown page is not found.
func (s *Service) PageMetaLinks(ctx context.Context, at At, pageID string) (MetaLinks, error) {
	_, tr, err := s.open(ctx, at)
	if err != nil {
		return MetaLinks{}, err
	}
	sub, _, err := tr.subtree(ctx, pageID)
	if err != nil {
		return MetaLinks{}, err
	}
	if sub == nil {
		return MetaLinks{}, apperr.NotFoundf("page %s not found", pageID)
	}
	return MetaLinks{Alternates: []Ref{}}, nil
}

// ReusableContent reads a reusable content at at (the space's current
// revision, a change request's or a revision's; metadata false leaves out
// its git blob): one lookup of the tree's read index. An unknown id is not
// found.
func (s *Service) ReusableContent(ctx context.Context, at At, id string, metadata bool) (RevisionReusableContent, error) {
	src, rc, _, err := s.reusableContent(ctx, at, id)
	if err != nil {
		return RevisionReusableContent{}, err
	}
	return ReusableContentView(rc, s.options(src, metadata)), nil
}

// ReusableContentDocument reads the document of a reusable content at at
// (its body as a document tree; an empty body is an empty document), as
// stored or evaluated and dereferenced as o asks. Links in it resolve
// from its file (an import stores links to pages as /pages/<id>, which
// resolve from anywhere).
func (s *Service) ReusableContentDocument(ctx context.Context, at At, id string, o DocumentOptions) (document.JSONDocument, error) {
	src, rc, tr, err := s.reusableContent(ctx, at, id)
	if err != nil {
		return document.JSONDocument{}, err
	}
	body, err := s.Repo.Document(ctx, src.space.ID, rc.Document)
	if err != nil {
		return document.JSONDocument{}, err
	}
	loc := &locator{ctx: ctx, tr: tr}
	r := document.Resolver{Locator: loc, Reusables: loc}
	if rc.Git != nil {
		r.File = rc.Git.Path
	}
	if src.visitor {
		if body, _, err = s.resolveBody(ctx, src.space.ID, tr, nil, r.File, body, *visitorAudience()); err != nil {
			return document.JSONDocument{}, err
		}
	}
	doc := document.ToDocument(body, r)
	if loc.err != nil {
		return document.JSONDocument{}, loc.err
	}
	if err := s.shapeDocument(ctx, src.space.ID, tr, nil, &doc, o); err != nil {
		return document.JSONDocument{}, err
	}
	if err := s.resolveBlocks(ctx, src, doc.Nodes); err != nil {
		return document.JSONDocument{}, err
	}
	return doc, nil
}

// ReusableContentSource reads a reusable content at at with its markdown
// body (for the readers and authoring that show or edit it).
func (s *Service) ReusableContentSource(ctx context.Context, at At, id string) (ReusableContent, string, error) {
	src, rc, _, err := s.reusableContent(ctx, at, id)
	if err != nil {
		return ReusableContent{}, "", err
	}
	body, err := s.Repo.Document(ctx, src.space.ID, rc.Document)
	return *rc, body, err
}

func (s *Service) reusableContent(ctx context.Context, at At, id string) (source, *ReusableContent, *TreeReader, error) {
	src, tr, err := s.open(ctx, at)
	if err != nil {
		return source{}, nil, nil, err
	}
	rc, err := tr.ReusableContent(ctx, id)
	if err != nil {
		return source{}, nil, nil, err
	}
	if rc == nil {
		return source{}, nil, nil, apperr.NotFoundf("reusable content %s not found", id)
	}
	return src, rc, tr, nil
}

// Variables reads the space's variables at at (nil for none).
func (s *Service) Variables(ctx context.Context, at At) (Variables, error) {
	_, tr, err := s.open(ctx, at)
	if err != nil {
		return nil, err
	}
	return tr.Variables(ctx)
}
