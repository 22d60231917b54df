package content

import (
	"context"
)

// The read index's keys of reusable contents and variables (treeindex.go):
// a reusable content by id, a reusable content's id by the file it came
// from (its path from the docs' root), and the space's variables (one key,
// ""). An index of a tree without them has none of these keys, so trees
// and indexes stored before they existed read as having none.
const (
	lookupReusable  = "rc"
	lookupInclude   = "include"
	lookupVariables = "vars"
)

// ReusableContent returns a reusable content of the tree, or nil.
func (tr *TreeReader) ReusableContent(ctx context.Context, id string) (*ReusableContent, error) {
	return lookupAs[ReusableContent](ctx, tr, lookupReusable, id)
}

// ReusableContentAtGitPath is the id of the reusable content imported from
// a file (its path from the docs' root), or "" (Index.ReusableContentAtGitPath).
func (tr *TreeReader) ReusableContentAtGitPath(ctx context.Context, file string) (string, error) {
	id, err := lookupAs[string](ctx, tr, lookupInclude, file)
	if err != nil || id == nil {
		return "", err
	}
	return *id, nil
}

// Variables returns the space's variables of the tree (nil for none).
func (tr *TreeReader) Variables(ctx context.Context) (Variables, error) {
	vars, err := lookupAs[Variables](ctx, tr, lookupVariables, "")
	if err != nil || vars == nil {
		return nil, err
	}
	return *vars, nil
}

// Page returns a page of the tree with its path, or nil (one lookup and
// one chunk).
func (tr *TreeReader) Page(ctx context.Context, id string) (*Page, string, error) {
	pos, err := tr.position(ctx, id)
	if err != nil || pos < 0 {
		return nil, "", err
	}
	e, err := tr.entries(ctx, pos, pos+1)
	if err != nil {
		return nil, "", err
	}
	return &e[0].Page, e[0].Path, nil
}

// ReusableContentAt is Index.ReusableContentAt through the read index.
func (l *locator) ReusableContentAt(pageID, target string) string {
	if id, ok := reusableIDTarget(target); ok {
		rc, err := l.tr.ReusableContent(l.ctx, id)
		l.fail(err)
		if rc == nil {
			return ""
		}
		return id
	}
	var p *Page
	var gitPath string
	if pageID != "" {
		var err error
		if p, _, err = l.tr.Page(l.ctx, pageID); err != nil {
			l.fail(err)
			return ""
		}
		if p != nil {
			gitPath = l.GitPath(pageID)
		}
	}
	for _, from := range includeFroms(p, gitPath) {
		if f := IncludeFile(from, target); f != "" {
			id, err := l.tr.ReusableContentAtGitPath(l.ctx, f)
			l.fail(err)
			if id != "" {
				return id
			}
		}
	}
	return ""
}

// ReusableContentTarget is Index.ReusableContentTarget.
func (l *locator) ReusableContentTarget(id string) string { return ReusableContentLink(id) }
