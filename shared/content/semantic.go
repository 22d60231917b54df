package content

import (
	"context"
	"reflect"
)

// SemanticChanges are the changes a revision made to its parent's pages
// (the reference's RevisionSemanticChanges).
type SemanticChanges struct {
	Changes    []SemanticChange `json:"changes"`
	More       int              `json:"more,omitempty" doc:"How many changes were left out above the limit"`
	MergedFrom *ChangeRequest   `json:"mergedFrom,omitempty" doc:"The change request merged (merge revisions)"`
}

// SemanticChange is one change (the reference's RevisionSemanticChange
// variants for pages: page_created, page_edited, page_deleted,
// page_moved; for reusable contents: reusable_content_created,
// reusable_content_edited, reusable_content_deleted; for the space's
// variables: variables_edited).
type SemanticChange struct {
	Type            string                     `json:"type" enum:"page_created,page_edited,page_deleted,page_moved,reusable_content_created,reusable_content_edited,reusable_content_deleted,variables_edited"`
	Page            *ChangedPage               `json:"page,omitempty" doc:"The page (page_* changes)"`
	ReusableContent *ChangedReusableContent    `json:"reusableContent,omitempty" doc:"The reusable content (reusable_content_* changes)"`
	Variables       map[string]ChangedVariable `json:"variables,omitempty" doc:"The space's variables that changed, before and after (variables_edited)"`
	Attributes      *ChangeAttributes          `json:"attributes,omitempty" doc:"What an edit changed (page_edited, reusable_content_edited)"`
	Parent          *ChangedParent             `json:"parent,omitempty" doc:"The page's parent before and after (page_moved; absent at the top level)"`
}

// ChangedReusableContent names a changed reusable content (the
// reference's ChangedRevisionReusableContent).
type ChangedReusableContent struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Document string `json:"document,omitempty" doc:"Its document's id (absent when empty)"`
}

// ChangedVariable is a variable before and after (absent: not set).
type ChangedVariable struct {
	Before any `json:"before,omitempty" doc:"A string, a number or a boolean"`
	After  any `json:"after,omitempty" doc:"A string, a number or a boolean"`
}

// ChangedVariables are a page's variables before and after.
type ChangedVariables struct {
	Before Variables `json:"before,omitempty"`
	After  Variables `json:"after,omitempty"`
}

// ChangedPage names a changed page (the reference's ChangedRevisionPage).
type ChangedPage struct {
	ID    string `json:"id"`
	Type  string `json:"type" enum:"document,group,link,computed"`
	Title string `json:"title"`
	Path  string `json:"path,omitempty"`
}

// ChangedParent is a moved page's parent before and after.
type ChangedParent struct {
	Before *ChangedPage `json:"before,omitempty"`
	After  *ChangedPage `json:"after,omitempty"`
}

// ChangeAttributes are the attributes an edit changed, before and after.
type ChangeAttributes struct {
	Title       *ChangedString `json:"title,omitempty"`
	Description *ChangedString `json:"description,omitempty"`
	Slug        *ChangedString `json:"slug,omitempty"`
	Document    *ChangedString `json:"document,omitempty" doc:"The document ids before and after"`
	Emoji       *ChangedString `json:"emoji,omitempty"`
	Target      *ChangedRef    `json:"target,omitempty"`
	// Variables are a document page's variables before and after.
	Variables *ChangedVariables `json:"variables,omitempty"`
}

// ChangedString is a string attribute before and after.
type ChangedString struct {
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
}

// ChangedRef is a link's target before and after.
type ChangedRef struct {
	Before *Ref `json:"before,omitempty"`
	After  *Ref `json:"after,omitempty"`
}

// SemanticChanges reads the changes of a revision of a space to its first
// parent's content (a first revision's to empty content): pages created,
// edited (title, description, slug, document, emoji, a link's target, a
// document's variables), moved (to another parent) and deleted (new pages'
// order, then deleted pages'); then reusable contents created, edited
// (title, document) and deleted (by id); then the space's variables
// edited (one change listing each name that changed); at most limit of
// them. Changes to other attributes (layout, cover, visibility, order
// among siblings, Git blobs) are not reported.
func (s *Service) SemanticChanges(ctx context.Context, at At, limit int) (SemanticChanges, error) {
	src, rev, ix, err := s.load(ctx, at)
	if err != nil {
		return SemanticChanges{}, err
	}
	old := NewIndex(&Tree{})
	if len(rev.Parents) > 0 {
		if _, old, err = s.Repo.Load(ctx, src.space.ID, rev.Parents[0]); err != nil {
			return SemanticChanges{}, err
		}
	}
	out := Diff(old, ix, limit)
	if out.MergedFrom, err = s.mergedFrom(ctx, at, src, rev); err != nil {
		return SemanticChanges{}, err
	}
	return out, nil
}

// Diff lists the changes from old's content to ix's (SemanticChanges):
// pages, then reusable contents and variables; at most limit of them (0:
// all), with how many more there are.
func Diff(old, ix *Index, limit int) SemanticChanges {
	all := append(PageChanges(old, ix), ExtraChanges(old, ix)...)
	out := SemanticChanges{Changes: all}
	if limit > 0 && len(all) > limit {
		out.Changes, out.More = all[:limit], len(all)-limit
	}
	return out
}

// PageChanges lists the changes from old's pages to ix's.
func PageChanges(old, ix *Index) []SemanticChange {
	oldPaths, paths := old.Paths(), ix.Paths()
	changed := func(p *Page, path string) *ChangedPage {
		return &ChangedPage{ID: p.ID, Type: p.Type, Title: p.Title, Path: path}
	}
	parentOf := func(in *Index, ps map[string]string, id string) *ChangedPage {
		if id == "" {
			return nil
		}
		return changed(in.Page(id), ps[id])
	}
	out := []SemanticChange{}
	ix.Walk(func(p *Page, _ int) bool {
		was := old.Page(p.ID)
		if was == nil {
			out = append(out, SemanticChange{Type: "page_created", Page: changed(p, paths[p.ID])})
			return true
		}
		if a, ok := pageEdits(was, p); ok {
			out = append(out, SemanticChange{Type: "page_edited", Page: changed(p, paths[p.ID]), Attributes: a})
		}
		if was.Parent != p.Parent {
			out = append(out, SemanticChange{Type: "page_moved", Page: changed(p, paths[p.ID]),
				Parent: &ChangedParent{Before: parentOf(old, oldPaths, was.Parent), After: parentOf(ix, paths, p.Parent)}})
		}
		return true
	})
	old.Walk(func(p *Page, _ int) bool {
		if ix.Page(p.ID) == nil {
			out = append(out, SemanticChange{Type: "page_deleted", Page: changed(p, oldPaths[p.ID])})
		}
		return true
	})
	return out
}

func pageEdits(was, p *Page) (*ChangeAttributes, bool) {
	a := &ChangeAttributes{}
	ok := false
	str := func(before, after string) *ChangedString {
		if before == after {
			return nil
		}
		ok = true
		return &ChangedString{Before: before, After: after}
	}
	a.Title = str(was.Title, p.Title)
	a.Emoji = str(was.Emoji, p.Emoji)
	if p.Type == TypeLink {
		if !sameRef(was.Target, p.Target) {
			a.Target, ok = &ChangedRef{Before: was.Target, After: p.Target}, true
		}
		return a, ok
	}
	a.Slug = str(was.Slug, p.Slug)
	if p.Type == TypeDocument {
		a.Description = str(was.Description, p.Description)
		a.Document = str(was.Document, p.Document)
		if (len(was.Variables) > 0 || len(p.Variables) > 0) && !reflect.DeepEqual(was.Variables, p.Variables) {
			a.Variables, ok = &ChangedVariables{Before: was.Variables, After: p.Variables}, true
		}
	}
	return a, ok
}

// ExtraChanges lists the changes from old's reusable contents and space
// variables to ix's.
func ExtraChanges(old, ix *Index) []SemanticChange {
	var out []SemanticChange
	changed := func(rc ReusableContent) *ChangedReusableContent {
		return &ChangedReusableContent{ID: rc.ID, Title: rc.Title, Document: rc.Document}
	}
	for _, rc := range ix.ReusableContents() {
		was := old.ReusableContent(rc.ID)
		if was == nil {
			out = append(out, SemanticChange{Type: "reusable_content_created", ReusableContent: changed(rc)})
			continue
		}
		a := &ChangeAttributes{}
		if was.Title != rc.Title {
			a.Title = &ChangedString{Before: was.Title, After: rc.Title}
		}
		if was.Document != rc.Document {
			a.Document = &ChangedString{Before: was.Document, After: rc.Document}
		}
		if a.Title != nil || a.Document != nil {
			out = append(out, SemanticChange{Type: "reusable_content_edited", ReusableContent: changed(rc), Attributes: a})
		}
	}
	for _, rc := range old.ReusableContents() {
		if ix.ReusableContent(rc.ID) == nil {
			out = append(out, SemanticChange{Type: "reusable_content_deleted", ReusableContent: changed(rc)})
		}
	}
	vars := map[string]ChangedVariable{}
	for k, v := range ix.variables {
		if w, ok := old.variables[k]; !ok || w != v {
			vars[k] = ChangedVariable{Before: old.variables[k], After: v}
		}
	}
	for k, w := range old.variables {
		if _, ok := ix.variables[k]; !ok {
			vars[k] = ChangedVariable{Before: w}
		}
	}
	if len(vars) > 0 {
		out = append(out, SemanticChange{Type: "variables_edited", Variables: vars})
	}
	return out
}

func sameRef(a, b *Ref) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
