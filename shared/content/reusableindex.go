package content

import (
	"context"
	"encoding/json"
	"fmt"
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
	v, err := tr.lookup(ctx, lookupReusable, id)
	if err != nil || v == nil {
		return nil, err
	}
	var rc ReusableContent
	if err := json.Unmarshal(v, &rc); err != nil {
		return nil, fmt.Errorf("decode tree index: %w", err)
	}
	return &rc, nil
}

// ReusableContentAtGitPath is the id of the reusable content imported from
// a file (its path from the docs' root), or "" (Index.ReusableContentAtGitPath).
func (tr *TreeReader) ReusableContentAtGitPath(ctx context.Context, file string) (string, error) {
	v, err := tr.lookup(ctx, lookupInclude, file)
	if err != nil || v == nil {
		return "", err
	}
	var id string
	if err := json.Unmarshal(v, &id); err != nil {
		return "", fmt.Errorf("decode tree index: %w", err)
	}
	return id, nil
}

// Variables returns the space's variables of the tree (nil for none).
func (tr *TreeReader) Variables(ctx context.Context) (Variables, error) {
	v, err := tr.lookup(ctx, lookupVariables, "")
	if err != nil || v == nil {
		return nil, err
	}
	var vars Variables
	if err := json.Unmarshal(v, &vars); err != nil {
		return nil, fmt.Errorf("decode tree index: %w", err)
	}
	return vars, nil
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
