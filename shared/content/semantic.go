package content

import (
	"context"
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
// page_moved).
type SemanticChange struct {
	Type       string            `json:"type" enum:"page_created,page_edited,page_deleted,page_moved"`
	Page       ChangedPage       `json:"page"`
	Attributes *ChangeAttributes `json:"attributes,omitempty" doc:"What an edit changed (page_edited)"`
	Parent     *ChangedParent    `json:"parent,omitempty" doc:"The page's parent before and after (page_moved; absent at the top level)"`
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
// parent's pages (a first revision's to empty content): pages created,
// edited (title, description, slug, document, emoji, a link's target),
// moved (to another parent) and deleted, at most limit of them (new pages'
// order, then deleted pages'). Changes to other attributes (layout, cover,
// visibility, order among siblings) are not reported.
func (s *Service) SemanticChanges(ctx context.Context, at At, limit int) (SemanticChanges, error) {
	src, err := s.source(ctx, at)
	if err != nil {
		return SemanticChanges{}, err
	}
	rev, ix, err := s.Repo.Load(ctx, src.space.ID, src.revision)
	if err != nil {
		return SemanticChanges{}, err
	}
	old := NewIndex(&Tree{})
	if len(rev.Parents) > 0 {
		if _, old, err = s.Repo.Load(ctx, src.space.ID, rev.Parents[0]); err != nil {
			return SemanticChanges{}, err
		}
	}
	all := PageChanges(old, ix)
	out := SemanticChanges{Changes: all}
	if limit > 0 && len(all) > limit {
		out.Changes, out.More = all[:limit], len(all)-limit
	}
	if rev.MergedFrom != "" {
		cr, err := s.ChangeRequestView(ctx, at.Bases, src.space, rev.MergedFrom)
		if err != nil {
			return SemanticChanges{}, err
		}
		out.MergedFrom = &cr
	}
	return out, nil
}

// PageChanges lists the changes from old's pages to ix's.
func PageChanges(old, ix *Index) []SemanticChange {
	oldPaths, paths := old.Paths(), ix.Paths()
	changed := func(p *Page, path string) ChangedPage {
		return ChangedPage{ID: p.ID, Type: p.Type, Title: p.Title, Path: path}
	}
	parentOf := func(in *Index, ps map[string]string, id string) *ChangedPage {
		if id == "" {
			return nil
		}
		c := changed(in.Page(id), ps[id])
		return &c
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
	}
	return a, ok
}

func sameRef(a, b *Ref) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
