package content

import (
	"context"
	"strings"

	"github.com/galleydocs/galley/shared/condition"
	"github.com/galleydocs/galley/shared/document"
)

// Pages as readers are shown them (issue 25, items 3 to 5): a body with
// its includes replaced by the reusable contents they name (of the same
// revision), its inline expressions by their values and its conditional
// blocks by their inner blocks when their condition holds for the
// visitor, or by nothing (document.Resolve). The reader's HTML and .md
// pages, llms-full.txt, the MCP getPage and the site search read pages so;
// the API's reads keep the source (docs/content.md, "Where content goes
// out").

// includeReader is what resolution reads of a revision besides the body:
// its reusable contents (by id and by the file they came from) and the
// space's variables. A TreeReader (lazy reads of the tree's index) or an
// Index (a loaded tree, through indexIncludes).
type includeReader interface {
	ReusableContent(ctx context.Context, id string) (*ReusableContent, error)
	ReusableContentAtGitPath(ctx context.Context, file string) (string, error)
	Variables(ctx context.Context) (Variables, error)
}

// indexIncludes reads a loaded tree as an includeReader.
type indexIncludes struct{ ix *Index }

func (i indexIncludes) ReusableContent(_ context.Context, id string) (*ReusableContent, error) {
	return i.ix.ReusableContent(id), nil
}

func (i indexIncludes) ReusableContentAtGitPath(_ context.Context, file string) (string, error) {
	return i.ix.ReusableContentAtGitPath(file), nil
}

func (i indexIncludes) Variables(context.Context) (Variables, error) { return i.ix.Variables(), nil }

// Audience is who a body is resolved for.
type Audience struct {
	// Claims are the visitor's claims (the unsigned ones under
	// "unsigned"; nil for an anonymous visitor), as the sites family
	// resolves them.
	Claims map[string]any
	// Anyone resolves for every visitor at once (the site search's index):
	// conditional blocks whose condition reads the visitor's claims are
	// left out (document.ResolveOptions.Anyone).
	Anyone bool
}

// visitorAudience is who a site visitor reading the API (a site token,
// which carries no claims) is shown bodies as: every visitor at once, so
// that no block hidden from some visitor reaches them through the API.
// The reader and the MCP read with the visitor's claims (ShownPage).
func visitorAudience() *Audience { return &Audience{Anyone: true} }

// resolveBody is a page's body as aud sees it, with the constructs that
// showed nothing. Relative links are read from file (the page's file
// where Galley writes it, as ToDocument reads them); an include is looked
// for from there, then from the file the page came from (Git Sync), as
// Index.ReusableContentAt does.
func (s *Service) resolveBody(ctx context.Context, spaceID string, r includeReader, p *Page, file, body string, aud Audience) (string, []document.Problem, error) {
	if !strings.Contains(body, "{%") && !strings.Contains(body, "<code class=\"expression\">") {
		return body, nil, nil
	}
	vars, err := r.Variables(ctx)
	if err != nil {
		return "", nil, err
	}
	var pageVars map[string]any
	if p != nil {
		pageVars = p.Variables
	}
	var readErr error
	o := document.ResolveOptions{
		Env:    condition.Env{Claims: aud.Claims, SpaceVars: vars, PageVars: pageVars},
		File:   file,
		Anyone: aud.Anyone,
		Include: func(t document.IncludeTarget) (document.Included, bool) {
			if readErr != nil {
				return document.Included{}, false
			}
			inc, ok, err := s.included(ctx, spaceID, r, t)
			if !ok && err == nil && t.Path != "" && p != nil && p.Git != nil && p.Git.Path != "" && p.Git.Path != file {
				// The path as written, read from the file the page came from.
				if alt := IncludeFile(p.Git.Path, document.RelativePath(file, t.Path)); alt != "" && alt != t.Path {
					t.Path = alt
					inc, ok, err = s.included(ctx, spaceID, r, t)
				}
			}
			if err != nil {
				readErr = err
			}
			return inc, ok
		},
	}
	out, problems := document.Resolve(body, o)
	if readErr != nil {
		return "", nil, readErr
	}
	return out, problems, nil
}

// included reads the reusable content an include names: by id (GitBook's
// /reusable-content/<id>, Galley's /reusable-contents/<id>) or by the
// file it came from. An include of another space's reusable content
// names nothing here: a reader sees the contents of the space they read.
func (s *Service) included(ctx context.Context, spaceID string, r includeReader, t document.IncludeTarget) (document.Included, bool, error) {
	id := t.ID
	switch {
	case id != "":
		if t.Space != "" && t.Space != spaceID {
			return document.Included{}, false, nil
		}
	case strings.HasPrefix("/"+t.Path, reusableLinkPrefix):
		id = strings.TrimPrefix("/"+t.Path, reusableLinkPrefix)
	default:
		var err error
		if id, err = r.ReusableContentAtGitPath(ctx, t.Path); err != nil || id == "" {
			return document.Included{}, false, err
		}
	}
	rc, err := r.ReusableContent(ctx, id)
	if err != nil || rc == nil {
		return document.Included{}, false, err
	}
	body, err := s.Repo.Document(ctx, spaceID, rc.Document)
	if err != nil {
		return document.Included{}, false, err
	}
	inc := document.Included{Body: body}
	if rc.Git != nil {
		inc.File = rc.Git.Path
	}
	return inc, true, nil
}

// ShownPage reads a page at at as Page does, its body resolved for aud:
// what the reader shows of it.
func (s *Service) ShownPage(ctx context.Context, at At, pageID, format string, aud Audience) (RevisionPage, error) {
	src, tr, err := s.open(ctx, at)
	if err != nil {
		return RevisionPage{}, err
	}
	return s.pageFor(ctx, src, tr, pageID, format, false, &aud)
}

// ShownPageByPath reads the page at a path as PageByPath does, its body
// resolved for aud.
func (s *Service) ShownPageByPath(ctx context.Context, at At, path, format string, aud Audience) (RevisionPage, error) {
	return s.pageByPath(ctx, at, path, format, false, &aud)
}

// IndexedBody is the body of a page of a loaded revision as the site
// search indexes it: resolved for every visitor at once (Audience.Anyone).
func (s *Service) IndexedBody(ctx context.Context, spaceID string, ix *Index, p *Page, body string) (string, error) {
	out, _, err := s.resolveBody(ctx, spaceID, indexIncludes{ix}, p, ix.GitPath(p.ID), body, Audience{Anyone: true})
	return out, err
}

// ReusableAtGitPath is document.ReusableLocator's: the id of the reusable
// content an include's path names (the file it came from, or Galley's
// /reusable-contents/<id> form read from the root), or "".
func (ix *Index) ReusableAtGitPath(file string) string {
	if id, ok := strings.CutPrefix("/"+file, reusableLinkPrefix); ok {
		if ix.reusable[id] != nil {
			return id
		}
		return ""
	}
	return ix.ReusableContentAtGitPath(file)
}

// GitPathOfReusable is document.ReusableLocator's: the file a reusable
// content came from or was written to ("" when it has none yet, or there
// is none of that id).
func (ix *Index) GitPathOfReusable(id string) string {
	if rc := ix.reusable[id]; rc != nil && rc.Git != nil {
		return rc.Git.Path
	}
	return ""
}

// ReusableAtGitPath is Index.ReusableAtGitPath through the read index.
func (l *locator) ReusableAtGitPath(file string) string {
	if id, ok := strings.CutPrefix("/"+file, reusableLinkPrefix); ok {
		rc, err := l.tr.ReusableContent(l.ctx, id)
		l.fail(err)
		if rc == nil {
			return ""
		}
		return id
	}
	id, err := l.tr.ReusableContentAtGitPath(l.ctx, file)
	l.fail(err)
	return id
}

// GitPathOfReusable is Index.GitPathOfReusable through the read index.
func (l *locator) GitPathOfReusable(id string) string {
	rc, err := l.tr.ReusableContent(l.ctx, id)
	l.fail(err)
	if rc != nil && rc.Git != nil {
		return rc.Git.Path
	}
	return ""
}
