package content

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/galleydocs/galley/shared/apperr"
)

// Change kinds of an authoring batch.
const (
	InsertPage  = "insert_page"
	UpdatePage  = "update_page"
	DeletePage  = "delete_page"
	InsertFiles = "insert_files"
)

// Change is one change of an authoring batch.
//
//   - insert_page: a page under Into (a page id or the ref of a page
//     inserted earlier in the batch; "" or absent: the top level), at index
//     At among its siblings (absent: last), of PageType (document by
//     default). A document's Markdown is authored markdown: frontmatter, a
//     leading "# " heading for the title, the body. Title, Slug,
//     Description, Emoji, Icon, Hidden override what the markdown says.
//     The slug defaults to the title's, made unique among the siblings. A
//     link page needs URL; a group, which sits at the top level, a title.
//     Ref names the new page for later changes of the batch.
//   - update_page: Page (id or ref) gets the fields given; Markdown
//     replaces its body (and its title when it has a heading); Into or At
//     move it.
//   - delete_page: Page and its descendants are removed.
//   - insert_files: Files are added; markdown of the batch may point at a
//     file as /files/<ref>, which becomes /files/<fileId>.
type Change struct {
	Type        string
	Ref         string
	Page        string
	Into        *string
	At          *int
	PageType    string
	Markdown    *string
	Title       *string
	Slug        *string
	Description *string
	Emoji       *string
	Icon        *string
	Hidden      *bool
	URL         *string
	Files       []File
	// FileRefs are the refs of Files, one each ("" for none).
	FileRefs []string
}

// Editor applies a batch of changes to a tree.
type Editor struct {
	Index *Index
	Now   time.Time
	// NewID makes page ids.
	NewID func() string
	// PutDocument stores a body and returns its hash.
	PutDocument func(body string) (string, error)
	// Refs maps the batch's refs (pages and files) to ids.
	Refs map[string]string
	// fileRefs are the refs naming files.
	fileRefs map[string]string
}

var reFileLink = regexp.MustCompile(`/files/([A-Za-z0-9_.-]+)`)

// Apply applies changes in order; the first invalid change fails the batch
// with an Invalid error naming it (changes[i].field). The tree may be left
// half changed: callers apply batches to a fresh index.
func (e *Editor) Apply(changes []Change) error {
	if e.Refs == nil {
		e.Refs = map[string]string{}
	}
	e.fileRefs = map[string]string{}
	// Files first get their ids, so that pages of the batch may point at
	// files inserted after them.
	for i, c := range changes {
		if c.Type != InsertFiles {
			continue
		}
		for j, ref := range c.FileRefs {
			if ref == "" {
				continue
			}
			if _, dup := e.Refs[ref]; dup {
				return apperr.Field(fmt.Sprintf("changes[%d].files[%d].ref", i, j), "ref %q is used twice in the batch", ref)
			}
			e.Refs[ref] = c.Files[j].ID
			e.fileRefs[ref] = c.Files[j].ID
		}
	}
	for i, c := range changes {
		field := func(name string) string { return fmt.Sprintf("changes[%d].%s", i, name) }
		var err error
		switch c.Type {
		case InsertPage:
			err = e.insert(c, field)
		case UpdatePage:
			err = e.update(c, field)
		case DeletePage:
			var id string
			if id, err = e.page(c.Page, field("page")); err == nil {
				e.Index.Remove(e.Index.Subtree(id)...)
			}
		case InsertFiles:
			for _, f := range c.Files {
				e.Index.PutFile(f)
			}
		default:
			err = apperr.Field(field("type"), "unknown change %q", c.Type)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// page resolves a page id or ref of the batch to an existing page's id.
func (e *Editor) page(ref, field string) (string, error) {
	if ref == "" {
		return "", apperr.Field(field, "a page is required")
	}
	id := ref
	if mapped, ok := e.Refs[ref]; ok {
		id = mapped
	}
	if e.Index.Page(id) == nil {
		return "", apperr.Field(field, "page %s not found", ref)
	}
	return id, nil
}

// parent resolves Into: "" is the top level.
func (e *Editor) parent(into *string, typ string, field func(string) string) (string, error) {
	if into == nil || *into == "" {
		return "", nil
	}
	id, err := e.page(*into, field("into"))
	if err != nil {
		return "", err
	}
	switch e.Index.Page(id).Type {
	case TypeLink:
		return "", apperr.Field(field("into"), "a link page has no children")
	}
	if typ == TypeGroup {
		return "", apperr.Field(field("into"), "groups sit at the top level")
	}
	return id, nil
}

// body resolves the batch's file refs in a body.
func (e *Editor) body(body string) string {
	if len(e.fileRefs) == 0 {
		return body
	}
	return reFileLink.ReplaceAllStringFunc(body, func(m string) string {
		if id, ok := e.fileRefs[strings.TrimPrefix(m, "/files/")]; ok {
			return "/files/" + id
		}
		return m
	})
}

// setMarkdown applies authored markdown to p: title (if it has a heading),
// frontmatter, body.
func (e *Editor) setMarkdown(p *Page, md string, field func(string) string) error {
	a, err := ParseMarkdown(md)
	if err != nil {
		return apperr.Field(field("markdown"), "%s", err.Error())
	}
	if p.Type != TypeDocument && a.Body != "" {
		return apperr.Field(field("markdown"), "a %s page has no body", p.Type)
	}
	if a.Title != "" {
		p.Title = a.Title
	}
	if err := checkFrontmatter(a.Front); err != nil {
		return apperr.Field(field("markdown"), "%s", err.Error())
	}
	a.Front.Apply(p)
	if p.Type == TypeDocument {
		hash, err := e.PutDocument(e.body(a.Body))
		if err != nil {
			return err
		}
		p.Document = hash
	}
	return nil
}

// checkFrontmatter validates the values frontmatter may set.
func checkFrontmatter(f Frontmatter) error {
	if f.Description != nil && len(*f.Description) > 300 {
		return fmt.Errorf("description: expected length <= 300")
	}
	for name, v := range map[string]*string{"emoji": f.Emoji, "icon": f.Icon} {
		if v != nil && len(*v) > 50 {
			return fmt.Errorf("%s: expected length <= 50", name)
		}
	}
	if l := f.Layout; l != nil {
		if l.Width != nil && *l.Width != "default" && *l.Width != "wide" {
			return fmt.Errorf("layout.width: expected default or wide")
		}
		if l.CoverSize != nil && *l.CoverSize != "hero" && *l.CoverSize != "full" {
			return fmt.Errorf("layout.coverSize: expected hero or full")
		}
	}
	return nil
}

// fields applies the explicit fields of a change.
func (e *Editor) fields(p *Page, c Change, field func(string) string) error {
	if c.Title != nil {
		p.Title = strings.TrimSpace(*c.Title)
	}
	if c.Description != nil {
		p.Description = *c.Description
	}
	if c.Emoji != nil {
		p.Emoji, p.Icon = *c.Emoji, ""
	}
	if c.Icon != nil {
		p.Icon, p.Emoji = *c.Icon, ""
	}
	if c.Hidden != nil {
		p.Hidden = *c.Hidden
	}
	if c.URL != nil {
		if p.Type != TypeLink {
			return apperr.Field(field("url"), "only link pages have a url")
		}
		p.Target = &Ref{Kind: "url", URL: *c.URL}
	}
	if p.Title == "" {
		return apperr.Field(field("title"), "a page needs a title: a leading # heading in its markdown, or title")
	}
	return nil
}

func (e *Editor) insert(c Change, field func(string) string) error {
	typ := c.PageType
	if typ == "" {
		typ = TypeDocument
	}
	if c.Ref != "" {
		if _, dup := e.Refs[c.Ref]; dup {
			return apperr.Field(field("ref"), "ref %q is used twice in the batch", c.Ref)
		}
	}
	parent, err := e.parent(c.Into, typ, field)
	if err != nil {
		return err
	}
	p := Page{ID: e.NewID(), Parent: parent, Type: typ, CreatedAt: e.Now, UpdatedAt: e.Now}
	if c.Markdown != nil {
		if err := e.setMarkdown(&p, *c.Markdown, field); err != nil {
			return err
		}
	}
	if err := e.fields(&p, c, field); err != nil {
		return err
	}
	if typ == TypeLink && p.Target == nil {
		return apperr.Field(field("url"), "a link page needs a url")
	}
	if typ != TypeLink {
		if err := e.slug(&p, c.Slug, field); err != nil {
			return err
		}
	}
	at := -1
	if c.At != nil {
		at = *c.At
	}
	p.Pos = e.Index.PosAt(parent, at, "")
	e.Index.Put(p)
	if c.Ref != "" {
		e.Refs[c.Ref] = p.ID
	}
	return nil
}

// slug sets an explicit slug (which must be free among the siblings) or
// keeps the page's own, else derives one from the title.
func (e *Editor) slug(p *Page, explicit *string, field func(string) string) error {
	if explicit != nil {
		if e.Index.SlugTaken(p.Parent, *explicit, p.ID) {
			return apperr.Field(field("slug"), "slug %q is taken by another page of the same parent", *explicit)
		}
		p.Slug = *explicit
		return nil
	}
	base := p.Slug
	if base == "" {
		base = Slugify(p.Title)
	}
	p.Slug = e.Index.UniqueSlug(p.Parent, base, p.ID)
	return nil
}

func (e *Editor) update(c Change, field func(string) string) error {
	id, err := e.page(c.Page, field("page"))
	if err != nil {
		return err
	}
	if c.PageType != "" && c.PageType != e.Index.Page(id).Type {
		return apperr.Field(field("pageType"), "a page's type cannot change")
	}
	p := *e.Index.Page(id)
	if c.Markdown != nil {
		if err := e.setMarkdown(&p, *c.Markdown, field); err != nil {
			return err
		}
	}
	if err := e.fields(&p, c, field); err != nil {
		return err
	}
	moved := c.Into != nil || c.At != nil
	if moved {
		parent := p.Parent
		if c.Into != nil {
			if parent, err = e.parent(c.Into, p.Type, field); err != nil {
				return err
			}
			if parent != "" && e.Index.IsDescendant(parent, id) {
				return apperr.Field(field("into"), "a page cannot move under itself")
			}
		}
		at := -1
		if c.At != nil {
			at = *c.At
		}
		p.Parent, p.Pos = parent, e.Index.PosAt(parent, at, id)
	}
	if p.Type != TypeLink && (c.Slug != nil || moved) {
		if err := e.slug(&p, c.Slug, field); err != nil {
			return err
		}
	}
	p.UpdatedAt = e.Now
	e.Index.Put(p)
	return nil
}
