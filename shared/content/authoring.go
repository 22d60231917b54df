package content

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/condition"
	"github.com/galleydocs/galley/shared/document"
)

// Change kinds of an authoring batch.
const (
	InsertPage  = "insert_page"
	UpdatePage  = "update_page"
	DeletePage  = "delete_page"
	RevertPage  = "revert_page"
	InsertFiles = "insert_files"
)

// Change is one change of an authoring batch.
//
//   - insert_page: a page under Into (a page id or the ref of a page
//     inserted earlier in the batch; "" or absent: the top level), at index
//     At among its siblings (absent: last), of PageType (document by
//     default). A document's Markdown is authored markdown: frontmatter, a
//     leading "# " heading for the title, the body. Title, Slug,
//     Description, Emoji, Icon, Hidden, Condition override what the
//     markdown says.
//     The slug defaults to the title's, made unique among the siblings. A
//     link page needs URL; a group, which sits at the top level, a title.
//     A computed page needs Computed (builtin:openapi and its spec); its
//     children are generated when it is read, so nothing goes into it.
//     Ref names the new page for later changes of the batch.
//   - update_page: Page (id or ref) gets the fields given; Markdown
//     replaces its body (and its title when it has a heading); Into or At
//     move it.
//   - delete_page: Page and its descendants are removed.
//   - revert_page: Page goes back to what it is in Revision (the
//     request's base when empty, see Editor.Revision): a page the request
//     added is removed, one it deleted comes back (with its descendants
//     the request deleted), one it changed gets that revision's document
//     and metadata back, where it now is. Block-level reverts are not
//     supported.
//   - insert_files: Files are added; markdown of the batch may point at a
//     file as /files/<ref>, which becomes /files/<fileId>.
type Change struct {
	Type          string
	Ref           string
	Page          string
	Into          *string
	At            *int
	PageType      string
	Markdown      *string
	Title         *string
	Slug          *string
	Description   *string
	Emoji         *string
	Icon          *string
	Hidden        *bool
	NoIndex       *bool
	NoRobotsIndex *bool
	// Condition sets the page's condition ("" removes it); it must parse
	// (package condition).
	Condition *string
	URL       *string
	// Computed is what a page of type computed is computed from.
	Computed *ComputedSource
	Revision string
	Block    []string
	Files    []File
	// FileRefs are the refs of Files, one each ("" for none).
	FileRefs []string
	// ReusableContent is the reusable content (id or ref) of
	// update_reusable_content and delete_reusable_content.
	ReusableContent string
	// Variables are update_variables' names to values (nil removes one).
	Variables map[string]any
}

// Editor applies a batch of changes to a tree.
type Editor struct {
	Index *Index
	Now   time.Time
	// NewID makes page ids.
	NewID func() string
	// PutDocument stores a body and returns its hash.
	PutDocument func(body string) (string, error)
	// Revision loads the tree of a revision of the space for revert_page
	// ("" is the request's base); nil refuses revert_page.
	Revision func(id string) (*Index, error)
	// Refs maps the batch's refs (pages and files) to ids.
	Refs map[string]string
	// fileRefs and pageRefs are the refs naming files and pages inserted
	// by the batch.
	fileRefs, pageRefs map[string]string
	// reusableRefs are the refs naming reusable contents inserted by the
	// batch; checks the includes of its bodies (authoring_reusable.go).
	reusableRefs map[string]string
	checks       []includeCheck
	// Outcomes are the pages the batch affected, one entry each, in the
	// order they were first touched.
	Outcomes []Outcome
}

// Outcome kinds (the reference's ChangeRequestContentUpdateChange).
const (
	PageCreated = "created_page"
	PageUpdated = "updated_page"
	PageDeleted = "deleted_page"
)

// Outcome is what a batch did to one page.
type Outcome struct {
	Kind, Page, Ref string
}

// touch records what a change did to a page, folding it into an earlier
// outcome of the same page: a page created then deleted by the batch is
// no outcome, created then updated stays created, deleted then restored
// is updated.
func (e *Editor) touch(kind, id, ref string) {
	for i, o := range e.Outcomes {
		if o.Page != id {
			continue
		}
		switch {
		case o.Kind == PageCreated && kind == PageDeleted:
			e.Outcomes = append(e.Outcomes[:i], e.Outcomes[i+1:]...)
		case o.Kind == PageCreated:
		case o.Kind == PageDeleted && kind == PageCreated:
			e.Outcomes[i].Kind = PageUpdated
		default:
			e.Outcomes[i].Kind = kind
		}
		return
	}
	e.Outcomes = append(e.Outcomes, Outcome{Kind: kind, Page: id, Ref: ref})
}

// remove deletes pages, recording them.
func (e *Editor) remove(ids []string) {
	for _, id := range ids {
		e.touch(PageDeleted, id, "")
	}
	e.Index.Remove(ids...)
}

// reLinkTarget finds the destinations of markdown links and images
// ("](target" up to the closing parenthesis, a space or an anchor) and of
// GitBook blocks' url, src and href attributes ({% content-ref url=… %},
// {% file src=… %}, <img src=…>).
var reLinkTarget = regexp.MustCompile(`(?:\]\(<?|\b(?:url|src|href)=")([^)\s>#"]+)`)

// Apply applies changes in order; the first invalid change fails the batch
// with an Invalid error naming it (changes[i].field). The tree may be left
// half changed: callers apply batches to a fresh index.
func (e *Editor) Apply(changes []Change) error {
	if e.Refs == nil {
		e.Refs = map[string]string{}
	}
	e.fileRefs, e.pageRefs, e.reusableRefs, e.checks = map[string]string{}, map[string]string{}, map[string]string{}, nil
	// Files and pages inserted with a ref first get their ids, so that
	// pages of the batch may point at those inserted after them.
	for i, c := range changes {
		if c.Type == InsertPage && c.Ref != "" {
			if _, dup := e.Refs[c.Ref]; dup {
				return apperr.Field(fmt.Sprintf("changes[%d].ref", i), "ref %q is used twice in the batch", c.Ref)
			}
			if e.Index.ByPath(c.Ref) != nil {
				return apperr.Field(fmt.Sprintf("changes[%d].ref", i), "ref %q is the path of an existing page", c.Ref)
			}
			id := e.NewID()
			e.Refs[c.Ref], e.pageRefs[c.Ref] = id, id
			continue
		}
		if c.Type == InsertReusableContent && c.Ref != "" {
			if err := e.reserveReusableRef(c, i); err != nil {
				return err
			}
			continue
		}
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
				e.remove(e.Index.Subtree(id))
			}
		case RevertPage:
			err = e.revert(c, field)
		case InsertFiles:
			for _, f := range c.Files {
				e.Index.PutFile(f)
			}
		case InsertReusableContent:
			err = e.insertReusable(c, field)
		case UpdateReusableContent:
			err = e.updateReusable(c, field)
		case DeleteReusableContent:
			err = e.deleteReusable(c, field)
		case UpdateVariables:
			err = e.updateVariables(c, field)
		default:
			err = apperr.Field(field("operation"), "unknown change %q", c.Type)
		}
		if err != nil {
			return err
		}
	}
	return e.checkIncludes()
}

// page resolves a page id or ref of the batch to an existing page's id.
func (e *Editor) page(ref, field string) (string, error) {
	return resolveRef(ref, field, "page", e.Refs, func(id string) bool { return e.Index.Page(id) != nil })
}

// resolveRef resolves an id or a ref of the batch (refs) to the id of an
// existing record of kind; field names the request's field in refusals.
func resolveRef(ref, field, kind string, refs map[string]string, exists func(string) bool) (string, error) {
	if ref == "" {
		return "", apperr.Field(field, "a %s is required", kind)
	}
	id := ref
	if mapped, ok := refs[ref]; ok {
		id = mapped
	}
	if !exists(id) {
		return "", apperr.Field(field, "%s %s not found", kind, ref)
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
	case TypeComputed:
		return "", apperr.Field(field("into"), "a computed page's children are generated")
	}
	if typ == TypeGroup {
		return "", apperr.Field(field("into"), "groups sit at the top level")
	}
	return id, nil
}

// body resolves the batch's refs in a body's link destinations: a page
// ref as ./<ref>.md (or <ref>.md) becomes /pages/<id>; a file ref as
// ./<ref>, <ref> or /files/<ref> becomes /files/<id>.
func (e *Editor) body(body string) string {
	if len(e.fileRefs) == 0 && len(e.pageRefs) == 0 {
		return body
	}
	return reLinkTarget.ReplaceAllStringFunc(body, func(m string) string {
		sub := reLinkTarget.FindStringSubmatch(m)
		prefix, target := m[:len(m)-len(sub[1])], sub[1]
		name := strings.TrimPrefix(target, "./")
		if ref, ok := strings.CutSuffix(name, ".md"); ok {
			if id, ok := e.pageRefs[ref]; ok {
				return prefix + "/pages/" + id
			}
		}
		if id, ok := e.fileRefs[strings.TrimPrefix(name, "/files/")]; ok && (name == target || strings.HasPrefix(target, "./") || strings.HasPrefix(target, "/files/")) {
			return prefix + "/files/" + id
		}
		return m
	})
}

// setMarkdown applies authored markdown to p: title (if it has a heading),
// frontmatter, body.
func (e *Editor) setMarkdown(p *Page, md string, field func(string) string) error {
	a, err := document.Parse(md)
	if err != nil {
		return apperr.Field(field("document.markdown"), "%s", err.Error())
	}
	if p.Type != TypeDocument && a.Body != "" {
		return apperr.Field(field("document.markdown"), "a %s page has no body", p.Type)
	}
	if a.Title != "" {
		p.Title = a.Title
	}
	if err := checkFrontmatter(a.Front); err != nil {
		return apperr.Field(field("document.markdown"), "%s", err.Error())
	}
	ApplyFrontmatter(a.Front, p)
	if p.Type == TypeDocument {
		body, err := e.includes(e.body(a.Body), "", field("document"))
		if err != nil {
			return err
		}
		hash, err := e.PutDocument(body)
		if err != nil {
			return err
		}
		p.Document = hash
	}
	return nil
}

// checkFrontmatter validates the values frontmatter may set.
func checkFrontmatter(f document.Frontmatter) error {
	if f.If != nil && strings.TrimSpace(*f.If) != "" {
		if _, err := condition.Parse(*f.If); err != nil {
			return fmt.Errorf("if: %v", err)
		}
	}
	if f.Vars != nil {
		if _, err := CheckVariables(*f.Vars); err != nil {
			return fmt.Errorf("vars: %v", err)
		}
	}
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
	// An emoji replaces the icon and an icon the emoji; "" removes one.
	if c.Emoji != nil {
		p.Emoji = *c.Emoji
		if p.Emoji != "" {
			p.Icon = ""
		}
	}
	if c.Icon != nil {
		p.Icon = *c.Icon
		if p.Icon != "" {
			p.Emoji = ""
		}
	}
	if c.Hidden != nil {
		p.Hidden = *c.Hidden
	}
	if c.NoIndex != nil {
		p.NoIndex = *c.NoIndex
	}
	if c.NoRobotsIndex != nil {
		p.NoRobotsIndex = *c.NoRobotsIndex
	}
	if c.Condition != nil {
		src := strings.TrimSpace(*c.Condition)
		if src != "" {
			if err := condition.Validate(field("condition"), src); err != nil {
				return err
			}
		}
		p.Condition = src
	}
	if c.URL != nil {
		if p.Type != TypeLink {
			return apperr.Field(field("href"), "only link pages have an href")
		}
		p.Target = &Ref{Kind: "url", URL: *c.URL}
	}
	return nil
}

// DefaultTitle is a new page's title when neither its fields nor its
// markdown give one (as GitBook does).
const DefaultTitle = "Untitled"

// edit applies a change's fields, then its markdown, whose heading and
// frontmatter take precedence (as in Git Sync).
func (e *Editor) edit(p *Page, c Change, field func(string) string) error {
	if err := e.fields(p, c, field); err != nil {
		return err
	}
	if c.Markdown != nil {
		if err := e.setMarkdown(p, *c.Markdown, field); err != nil {
			return err
		}
	}
	if strings.TrimSpace(p.Title) == "" {
		if c.Title != nil {
			return apperr.Field(field("title"), "a page's title cannot be empty")
		}
		p.Title = DefaultTitle
	}
	return nil
}

func (e *Editor) insert(c Change, field func(string) string) error {
	typ := c.PageType
	if typ == "" {
		typ = TypeDocument
	}
	parent, err := e.parent(c.Into, typ, field)
	if err != nil {
		return err
	}
	id := e.pageRefs[c.Ref]
	if c.Ref == "" {
		id = e.NewID()
	}
	p := Page{ID: id, Parent: parent, Type: typ, CreatedAt: e.Now, UpdatedAt: e.Now}
	switch {
	case typ == TypeComputed && c.Computed == nil:
		return apperr.Field(field("computed"), "a computed page needs computed")
	case typ == TypeComputed && c.Computed.Type != ComputedOpenAPI:
		return apperr.Field(field("computed.type"), "Galley computes %s pages only", ComputedOpenAPI)
	case typ == TypeComputed && (c.Computed.Dependencies.Spec.Ref.Kind != "openapi" || c.Computed.Dependencies.Spec.Ref.Spec == ""):
		return apperr.Field(field("computed.dependencies.spec.ref"), "an OpenAPI spec ({kind: openapi, spec: <slug>}) is required")
	case typ == TypeComputed:
		src := *c.Computed
		src.Dependencies.Spec.Value, src.Dependencies.Spec.Resolved = nil, false
		p.Computed = &src
	case c.Computed != nil:
		return apperr.Field(field("computed"), "only a computed page has computed")
	}
	if err := e.edit(&p, c, field); err != nil {
		return err
	}
	if typ == TypeLink && p.Target == nil {
		return apperr.Field(field("href"), "a link page needs an href")
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
	e.touch(PageCreated, p.ID, c.Ref)
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
		base = document.Slug(p.Title, "page")
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
	if err := e.edit(&p, c, field); err != nil {
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
	e.touch(PageUpdated, p.ID, "")
	return nil
}

// revert applies a revert_page change.
func (e *Editor) revert(c Change, field func(string) string) error {
	if len(c.Block) > 0 {
		return apperr.Field(field("block"), "block-level reverts are not supported; revert the whole page")
	}
	if c.Page == "" {
		return apperr.Field(field("page"), "a page is required")
	}
	if e.Revision == nil {
		return apperr.Field(field("operation"), "revert_page is not available here")
	}
	then, err := e.Revision(c.Revision)
	if err != nil {
		if apperr.Is(err, apperr.NotFound) {
			return apperr.Field(field("revision"), "revision %s not found in the space", c.Revision)
		}
		return err
	}
	id := c.Page
	was, now := then.Page(id), e.Index.Page(id)
	switch {
	case was == nil && now == nil:
		return apperr.Field(field("page"), "page %s is in neither revision", id)
	case was == nil:
		// Added since: it goes, with its descendants.
		e.remove(e.Index.Subtree(id))
	case now == nil:
		// Deleted since: it comes back with the descendants that went too,
		// under its parent if that is still there.
		for _, sid := range then.Subtree(id) {
			if e.Index.Page(sid) != nil {
				continue
			}
			p := *then.Page(sid)
			if p.Parent != "" && e.Index.Page(p.Parent) == nil {
				p.Parent = ""
			}
			p.Pos = e.Index.PosAt(p.Parent, -1, p.ID)
			p.Slug = e.Index.UniqueSlug(p.Parent, p.Slug, p.ID)
			e.Index.Put(p)
			e.touch(PageCreated, p.ID, "")
		}
	default:
		// Changed since: its content and metadata as they were, where it is.
		p := *was
		p.Parent, p.Pos = now.Parent, now.Pos
		if e.Index.SlugTaken(p.Parent, p.Slug, p.ID) {
			p.Slug = now.Slug
		}
		p.UpdatedAt = e.Now
		e.Index.Put(p)
		e.touch(PageUpdated, p.ID, "")
	}
	return nil
}
