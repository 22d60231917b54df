// Package content is a space's documentation: immutable revisions, each a
// page tree (ids, titles, slugs, order, nesting, types and page metadata)
// with files, whose page bodies are markdown documents stored once by
// content hash. It reads them (the space content operations), merges them
// three ways (change requests), and renders them in the API's shapes.
//
// Storage: a revision is one small table item (keys.Revision) naming its
// tree, a gzipped JSON blob keyed by its hash; each page names its document,
// a blob keyed by the hash of its markdown body. A revision that changes one
// page of thousands writes one document, one tree and one item; reading the
// tree costs one table read and one blob read whatever the number of pages,
// and reading one page or one file a few small blob reads of the tree's read
// index (treeindex.go) instead of the whole tree.
package content

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Page types.
const (
	TypeDocument = "document"
	TypeGroup    = "group"
	TypeLink     = "link"
)

// Page is one page of a tree, as stored. Its place is Parent ("" for the
// root) and Pos, a key ordering it among its siblings (ties broken by id),
// so that pages inserted or moved on two lines of edits merge without
// renumbering anyone.
type Page struct {
	ID            string `json:"id"`
	Parent        string `json:"parent,omitempty"`
	Pos           string `json:"pos"`
	Type          string `json:"type"`
	Title         string `json:"title"`
	Slug          string `json:"slug,omitempty"`
	Emoji         string `json:"emoji,omitempty"`
	Icon          string `json:"icon,omitempty"`
	Description   string `json:"description,omitempty"`
	Hidden        bool   `json:"hidden,omitempty"`
	NoIndex       bool   `json:"noIndex,omitempty"`
	NoRobotsIndex bool   `json:"noRobotsIndex,omitempty"`
	// Condition is the page's adaptive-content condition (package
	// condition): the page, and its children, are shown to the visitors
	// for whom it holds; "" to everyone.
	Condition string  `json:"condition,omitempty"`
	Layout    *Layout `json:"layout,omitempty"`
	Cover     *Cover  `json:"cover,omitempty"`
	// Target is where a link page points.
	Target *Ref `json:"target,omitempty"`
	// Computed is what a computed page is computed from (computed.go).
	Computed *ComputedSource `json:"computed,omitempty"`
	// Variables are the page's variables (frontmatter `vars:`; GitBook's
	// page.vars), nil for none (reusable.go).
	Variables Variables `json:"variables,omitempty"`
	// Document is the hash of the page's markdown body; "" is an empty page.
	Document  string    `json:"document,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
	Git       *GitBlob  `json:"git,omitempty"`
}

// Layout is a page's display options; nil means the defaults.
type Layout struct {
	Width           string `json:"width"`
	Cover           bool   `json:"cover"`
	CoverSize       string `json:"coverSize"`
	Title           bool   `json:"title"`
	Description     bool   `json:"description"`
	TableOfContents bool   `json:"tableOfContents"`
	Outline         bool   `json:"outline"`
	Pagination      bool   `json:"pagination"`
	Metadata        bool   `json:"metadata"`
	// CoverMask is none or radial; Tags, Actions and Anchors show the
	// page's tags, its actions and the anchor links of its headings.
	CoverMask string `json:"coverMask" enum:"none,radial"`
	Tags      bool   `json:"tags"`
	Actions   bool   `json:"actions"`
	Anchors   bool   `json:"anchors"`
}

// DefaultLayout is the layout of a page that sets none.
func DefaultLayout() Layout {
	return Layout{Width: "default", Cover: true, CoverSize: "hero", Title: true, Description: true,
		TableOfContents: true, Outline: true, Pagination: true, Metadata: true,
		CoverMask: "none", Tags: true, Actions: true, Anchors: true}
}

// UnmarshalJSON reads a layout over the defaults, so that trees stored
// before a field existed read it as its default.
func (l *Layout) UnmarshalJSON(b []byte) error {
	type plain Layout
	d := plain(DefaultLayout())
	if err := json.Unmarshal(b, &d); err != nil {
		return err
	}
	*l = Layout(d)
	return nil
}

// Cover is a page's cover image.
type Cover struct {
	Ref     Ref     `json:"ref"`
	RefDark *Ref    `json:"refDark,omitempty"`
	YPos    float64 `json:"yPos"`
}

// Ref is a content reference (the reference's ContentRef, the kinds Galley
// writes): a URL, a file or a page of the revision, an anchor, a reusable
// content of the revision.
type Ref struct {
	Kind            string `json:"kind" enum:"url,file,page,anchor,reusable-content"`
	URL             string `json:"url,omitempty"`
	File            string `json:"file,omitempty"`
	Page            string `json:"page,omitempty"`
	Anchor          string `json:"anchor,omitempty"`
	ReusableContent string `json:"reusableContent,omitempty"`
	Space           string `json:"space,omitempty"`
}

// GitBlob is where a page or file lives in a Git tree (Git Sync).
type GitBlob struct {
	OID  string `json:"oid"`
	Path string `json:"path"`
}

// File is a file of a revision; its bytes are the blob named by Blob (the
// hash of the bytes).
type File struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	ContentType string   `json:"contentType"`
	Size        int64    `json:"size"`
	Width       int      `json:"width,omitempty"`
	Height      int      `json:"height,omitempty"`
	Blob        string   `json:"blob"`
	Git         *GitBlob `json:"git,omitempty"`
}

// Tree is a revision's content apart from page and reusable content
// bodies: its pages, in depth-first order, its files, by id, its reusable
// contents, by id, and the space's variables (reusable.go). A tree stored
// before reusable contents and variables existed reads as having none.
type Tree struct {
	Pages            []Page            `json:"pages"`
	Files            []File            `json:"files"`
	ReusableContents []ReusableContent `json:"reusableContents,omitempty"`
	Variables        Variables         `json:"variables,omitempty"`
}

// Clone copies the tree, deeply: nothing of the copy is shared with t
// (TestTreeCloneSharesNothing), so that a kept tree (Repo.Tree) is never
// changed through a copy handed out.
func (t *Tree) Clone() *Tree {
	out := &Tree{Pages: make([]Page, len(t.Pages)), Files: make([]File, len(t.Files)), Variables: t.Variables.Clone()}
	for i, p := range t.Pages {
		p.Layout, p.Cover, p.Target, p.Git = clonePtr(p.Layout), p.Cover.clone(), clonePtr(p.Target), clonePtr(p.Git)
		p.Computed = p.Computed.clone()
		p.Variables = p.Variables.Clone()
		out.Pages[i] = p
	}
	for i, f := range t.Files {
		f.Git = clonePtr(f.Git)
		out.Files[i] = f
	}
	if t.ReusableContents != nil {
		out.ReusableContents = make([]ReusableContent, len(t.ReusableContents))
		for i, rc := range t.ReusableContents {
			rc.Git = clonePtr(rc.Git)
			out.ReusableContents[i] = rc
		}
	}
	return out
}

// clonePtr copies what p points to (nil stays nil); for structs of
// values only.
func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func (c *Cover) clone() *Cover {
	if c == nil {
		return nil
	}
	v := *c
	v.RefDark = clonePtr(c.RefDark)
	return &v
}

func (c *ComputedSource) clone() *ComputedSource {
	if c == nil {
		return nil
	}
	v := *c
	v.Dependencies.Spec.Value = clonePtr(c.Dependencies.Spec.Value)
	v.Props.Models, v.Props.DownloadLink = clonePtr(c.Props.Models), clonePtr(c.Props.DownloadLink)
	return &v
}

// Index is a tree with its lookups: pages by id, the ordered children of
// each page, files by id.
type Index struct {
	pages    map[string]*Page
	children map[string][]string
	files    map[string]*File
	// reusable are the reusable contents by id; variables the space's
	// (reusable.go).
	reusable  map[string]*ReusableContent
	variables Variables
}

// NewIndex indexes a tree. The index owns copies of its pages and files.
func NewIndex(t *Tree) *Index {
	ix := &Index{pages: make(map[string]*Page, len(t.Pages)), files: make(map[string]*File, len(t.Files))}
	for i := range t.Pages {
		p := t.Pages[i]
		ix.pages[p.ID] = &p
	}
	for i := range t.Files {
		f := t.Files[i]
		ix.files[f.ID] = &f
	}
	ix.reusable = make(map[string]*ReusableContent, len(t.ReusableContents))
	for i := range t.ReusableContents {
		rc := t.ReusableContents[i]
		ix.reusable[rc.ID] = &rc
	}
	ix.variables = t.Variables.Clone()
	ix.reindex()
	return ix
}

// reindex rebuilds the children lists from the pages' places.
func (ix *Index) reindex() {
	ix.children = make(map[string][]string, len(ix.pages)/4+1)
	for id, p := range ix.pages {
		ix.children[p.Parent] = append(ix.children[p.Parent], id)
	}
	for parent, ids := range ix.children {
		sort.Slice(ids, func(i, j int) bool {
			a, b := ix.pages[ids[i]], ix.pages[ids[j]]
			if a.Pos != b.Pos {
				return a.Pos < b.Pos
			}
			return a.ID < b.ID
		})
		ix.children[parent] = ids
	}
}

// Page returns the page with id, or nil.
func (ix *Index) Page(id string) *Page { return ix.pages[id] }

// File returns the file with id, or nil.
func (ix *Index) File(id string) *File { return ix.files[id] }

// Children returns the ids of a page's children ("" for the root's), in order.
func (ix *Index) Children(id string) []string { return ix.children[id] }

// Len is the number of pages.
func (ix *Index) Len() int { return len(ix.pages) }

// Files returns the files ordered by id.
func (ix *Index) Files() []File {
	out := make([]File, 0, len(ix.files))
	for _, f := range ix.files {
		out = append(out, *f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Tree returns the indexed tree: pages depth-first, files by id. Pages
// unreachable from the root (which a valid tree has none of) are dropped.
func (ix *Index) Tree() *Tree {
	t := &Tree{Pages: make([]Page, 0, len(ix.pages)), Files: ix.Files(), ReusableContents: ix.ReusableContents(),
		Variables: ix.Variables()}
	ix.Walk(func(p *Page, _ int) bool {
		t.Pages = append(t.Pages, *p)
		return true
	})
	return t
}

// Walk visits the pages depth-first in order, with their depth (0 at the
// root); returning false skips a page's children.
func (ix *Index) Walk(fn func(p *Page, depth int) bool) {
	var walk func(parent string, depth int)
	walk = func(parent string, depth int) {
		for _, id := range ix.children[parent] {
			if fn(ix.pages[id], depth) {
				walk(id, depth+1)
			}
		}
	}
	walk("", 0)
}

// Path returns a page's path: the slugs from the root to it, joined by "/".
func (ix *Index) Path(id string) string {
	var segs []string
	for p := ix.pages[id]; p != nil; p = ix.pages[p.Parent] {
		segs = append(segs, p.Slug)
		if p.Parent == "" {
			break
		}
	}
	for i, j := 0, len(segs)-1; i < j; i, j = i+1, j-1 {
		segs[i], segs[j] = segs[j], segs[i]
	}
	return strings.Join(segs, "/")
}

// Paths returns every page's path in one pass.
func (ix *Index) Paths() map[string]string {
	paths := make(map[string]string, len(ix.pages))
	var walk func(parent, prefix string)
	walk = func(parent, prefix string) {
		for _, id := range ix.children[parent] {
			p := prefix + ix.pages[id].Slug
			paths[id] = p
			walk(id, p+"/")
		}
	}
	walk("", "")
	return paths
}

// GitPath is the markdown file a page is written to, as Git Sync writes it:
// <path>/README.md for a page with child pages, <path>.md otherwise. Links
// between pages in markdown are relative paths between these files.
func (ix *Index) GitPath(id string) string {
	if len(ix.children[id]) > 0 {
		return ix.Path(id) + "/README.md"
	}
	return ix.Path(id) + ".md"
}

// ByGitPath finds the page written to a markdown file path (see GitPath);
// a folder path ("guides") finds the folder's page too.
func (ix *Index) ByGitPath(path string) *Page {
	path, ok := pathOfGitPath(path)
	if !ok {
		return nil
	}
	return ix.ByPath(path)
}

// PageAtGitPath is the id of the page ByGitPath finds, or "".
func (ix *Index) PageAtGitPath(path string) string {
	if p := ix.ByGitPath(path); p != nil {
		return p.ID
	}
	return ""
}

// HasPage tells whether a page of that id exists (document.PageLocator).
func (ix *Index) HasPage(id string) bool { return ix.pages[id] != nil }

// ByPath finds a page by its path (see Path): among the children of each
// page in turn, the first whose slug is the path's next segment.
func (ix *Index) ByPath(path string) *Page {
	parent := ""
	var found *Page
	for _, seg := range strings.Split(path, "/") {
		found = nil
		for _, id := range ix.children[parent] {
			if ix.pages[id].Slug == seg {
				found = ix.pages[id]
				break
			}
		}
		if found == nil {
			return nil
		}
		parent = found.ID
	}
	return found
}

// pathOfGitPath is the page path a markdown file path names (see GitPath);
// false when it can name no page.
func pathOfGitPath(path string) (string, bool) {
	path = strings.Trim(path, "/")
	switch {
	case strings.HasSuffix(path, "/README.md"):
		path = strings.TrimSuffix(path, "/README.md")
	case path == "README.md":
		return "", false
	case strings.HasSuffix(path, ".md"):
		path = strings.TrimSuffix(path, ".md")
	}
	return path, true
}

// IsDescendant reports whether id is under (or is) ancestor.
func (ix *Index) IsDescendant(id, ancestor string) bool {
	for seen := 0; id != "" && seen <= len(ix.pages); seen++ {
		if id == ancestor {
			return true
		}
		p := ix.pages[id]
		if p == nil {
			return false
		}
		id = p.Parent
	}
	return false
}

// Subtree returns a page's id and its descendants' ids.
func (ix *Index) Subtree(id string) []string {
	out := []string{id}
	for i := 0; i < len(out); i++ {
		out = append(out, ix.children[out[i]]...)
	}
	return out
}

// SlugTaken reports whether a child of parent other than except has slug.
func (ix *Index) SlugTaken(parent, slug, except string) bool {
	for _, id := range ix.children[parent] {
		if id != except && ix.pages[id].Slug == slug {
			return true
		}
	}
	return false
}

// UniqueSlug returns base, or base-2, base-3... the first free among
// parent's children.
func (ix *Index) UniqueSlug(parent, base, except string) string {
	slug := base
	for n := 2; ix.SlugTaken(parent, slug, except); n++ {
		slug = base + "-" + strconv.Itoa(n)
	}
	return slug
}

// PosAt returns the position key placing a page at index at among parent's
// children (at < 0 or past the end: last), ignoring the page moving.
func (ix *Index) PosAt(parent string, at int, moving string) string {
	var sibs []string
	for _, id := range ix.children[parent] {
		if id != moving {
			sibs = append(sibs, id)
		}
	}
	if at < 0 || at > len(sibs) {
		at = len(sibs)
	}
	lo, hi := "", ""
	if at > 0 {
		lo = ix.pages[sibs[at-1]].Pos
	}
	if at < len(sibs) {
		hi = ix.pages[sibs[at]].Pos
	}
	return Between(lo, hi)
}

// Put adds or replaces a page, keeping its parent's children in order.
// The index stores a copy: change a page by putting a changed copy.
func (ix *Index) Put(p Page) {
	if old := ix.pages[p.ID]; old != nil {
		ix.unlink(old.Parent, p.ID)
	}
	ix.pages[p.ID] = &p
	list := ix.children[p.Parent]
	i := sort.Search(len(list), func(i int) bool {
		q := ix.pages[list[i]]
		return q.Pos > p.Pos || (q.Pos == p.Pos && q.ID > p.ID)
	})
	list = append(list, "")
	copy(list[i+1:], list[i:])
	list[i] = p.ID
	ix.children[p.Parent] = list
}

func (ix *Index) unlink(parent, id string) {
	list := ix.children[parent]
	for i, c := range list {
		if c == id {
			ix.children[parent] = append(list[:i:i], list[i+1:]...)
			return
		}
	}
}

// Remove deletes pages (with Subtree, a page and its descendants).
func (ix *Index) Remove(ids ...string) {
	for _, id := range ids {
		if p := ix.pages[id]; p != nil {
			ix.unlink(p.Parent, id)
			delete(ix.pages, id)
		}
	}
	for _, id := range ids {
		if ix.pages[id] == nil {
			delete(ix.children, id)
		}
	}
}

// PutFile adds or replaces a file.
func (ix *Index) PutFile(f File) { ix.files[f.ID] = &f }

// RemoveFile deletes a file.
func (ix *Index) RemoveFile(id string) { delete(ix.files, id) }
