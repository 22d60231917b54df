package content

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/document"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/store"
)

// Service reads the content of spaces (and, for package changerequests, of
// any revision of a space).
type Service struct {
	d         *deps.Deps
	Repo      *Repo
	spaces    Spaces
	users     Users
	orgs      Orgs
	Downloads *Downloads
	digests   *recent[*linkDigest]
	trees     *recent[*keptTree] // page trees rendered (PageTree)
	// specs computes pages and resolves OpenAPI blocks; nil computes
	// nothing.
	specs Specs
}

// Spaces is what content asks of the spaces family (spaces.Service).
type Spaces interface {
	Get(ctx context.Context, spaceID string) (model.Space, model.Role, error)
	Live(ctx context.Context, spaceID string, op access.OrgOp) (model.Space, model.Role, error)
	Create(ctx context.Context, orgID string, in spaces.Create) (model.Space, model.Role, error)
}

// Users is what content asks of the users family (users.Service).
type Users interface {
	Get(ctx context.Context, userID string) (model.User, error)
}

// Orgs is what content asks of the organizations family (orgs.Service):
// the organization whose links a page's views resolve.
type Orgs interface {
	GetOrganization(ctx context.Context, orgID string) (orgs.OrgForCaller, error)
}

// Needs are the other families' services content uses. Specs is nil in a
// process that does not link the OpenAPI specs family: computed pages and
// OpenAPI blocks are then read as stored.
type Needs struct {
	Spaces Spaces
	Users  Users
	Orgs   Orgs
	Specs  Specs
}

// New returns the content service.
func New(d *deps.Deps, n Needs) *Service {
	return &Service{d: d, Repo: NewRepo(d), digests: newRecent[*linkDigest](digestCacheSize), trees: newRecent[*keptTree](treeCachePages), spaces: n.Spaces, users: n.Users, orgs: n.Orgs, specs: n.Specs,
		Downloads: NewDownloads(d.Cursors, d.Clock)}
}

// Space returns a live space whose content the caller may act on with op,
// and the caller's role on it. Outsiders, and deleted spaces, get NotFound.
func (s *Service) Space(ctx context.Context, spaceID string, op access.OrgOp) (model.Space, model.Role, error) {
	return s.spaces.Live(ctx, spaceID, op)
}

// Bases are the absolute URLs the views of content link under. They
// depend on the request (the HTTP layer knows them), so every read takes
// them.
type Bases struct {
	// API is the API's base URL: file download links and change request
	// locations are under it.
	API string
	// App is the application's base URL: pages and revisions are under it.
	App string
}

// At names the content a read is about: a space's current revision, or a
// change request's. The service checks the caller may read it.
type At struct {
	SpaceID string
	// ChangeRequest is the id or number of the change request whose
	// content is read; "" reads the space's current revision.
	ChangeRequest string
	// Revision is the id of a revision of the space whose content is read
	// (with ChangeRequest ""); a revision of another space is not found.
	Revision string
	Bases    Bases
	// NoCompute reads computed pages as stored (the reads' computed=false):
	// a computed page is answered as such, without its generated pages, and
	// OpenAPI blocks stay as written.
	NoCompute bool
	// Document is how a page read in FormatDocument gives its document:
	// as stored (the zero value), or evaluated and dereferenced
	// (DocumentOptions, GitBook's evaluated and dereferenced).
	Document DocumentOptions
}

// source is the content a read is about, once the caller's right to read
// it was checked.
type source struct {
	space model.Space
	role  model.Role
	// cr is the change request whose content this is, nil for the head.
	cr       *model.ChangeRequest
	revision string
	// appBase is the application URL of this content.
	appBase string
	// scope names this content in page tokens.
	scope string
	bases Bases
	// noCompute is At.NoCompute.
	noCompute bool
	// doc is At.Document.
	doc DocumentOptions
	// visitor: the caller is a site visitor (a site token), who is not
	// shown pages' conditions (RevisionPage.Condition).
	visitor bool
}

// load is source with the revision read: its record and its index.
func (s *Service) load(ctx context.Context, at At) (source, model.Revision, *Index, error) {
	src, err := s.source(ctx, at)
	if err != nil {
		return source{}, model.Revision{}, nil, err
	}
	rev, ix, err := s.Repo.Load(ctx, src.space.ID, src.revision)
	return src, rev, ix, err
}

// mergedFrom renders the change request a merge revision merged (nil for
// another revision).
func (s *Service) mergedFrom(ctx context.Context, at At, src source, rev model.Revision) (*ChangeRequest, error) {
	if rev.MergedFrom == "" {
		return nil, nil
	}
	cr, err := s.ChangeRequestView(ctx, at.Bases, src.space, rev.MergedFrom)
	if err != nil {
		return nil, err
	}
	return &cr, nil
}

// source checks the caller may read the content at names (the space's
// content, read right) and finds its revision.
func (s *Service) source(ctx context.Context, at At) (source, error) {
	sp, role, err := s.Space(ctx, at.SpaceID, access.ReadContent)
	if err != nil {
		return source{}, err
	}
	src := source{space: sp, role: role, revision: sp.Revision, appBase: at.Bases.App + "/s/" + sp.ID, scope: "space:" + sp.ID, bases: at.Bases,
		noCompute: at.NoCompute, doc: at.Document}
	_, src.visitor = access.VisitorFrom(ctx)
	if at.Revision != "" {
		// Revisions are keyed under their space: another space's is not
		// found.
		if _, err := s.Repo.Revision(ctx, sp.ID, at.Revision); err != nil {
			return source{}, err
		}
		src.revision = at.Revision
		src.appBase = at.Bases.App + "/s/" + sp.ID + "/~/revisions/" + at.Revision
		src.scope = "revision:" + sp.ID + ":" + at.Revision
		return src, nil
	}
	if at.ChangeRequest == "" {
		return src, nil
	}
	cr, _, err := ReadChangeRequest(ctx, s.d.Store, sp.ID, at.ChangeRequest)
	if err != nil {
		return source{}, err
	}
	src.cr, src.revision = &cr, cr.Revision
	src.appBase = at.Bases.App + "/s/" + sp.ID + "/~/changes/" + strconv.Itoa(cr.Number)
	src.scope = "change-request:" + sp.ID + ":" + cr.ID
	return src, nil
}

// ChangeRequestNumber is the record mapping a change request's number in
// its space to its id (package changerequests writes it with the request).
type ChangeRequestNumber struct {
	ID string `json:"id"`
}

// ReadChangeRequest reads a change request of a space by id or number, and
// its version. It checks no right: callers have checked the space's.
func ReadChangeRequest(ctx context.Context, st store.Store, spaceID, ref string) (model.ChangeRequest, int64, error) {
	id := ref
	if n, err := strconv.Atoi(ref); err == nil && n > 0 && len(ref) <= 10 {
		rec, _, err := records.Get[ChangeRequestNumber](ctx, st, keys.ChangeRequestNumber(spaceID, n))
		if errors.Is(err, store.ErrNotFound) {
			return model.ChangeRequest{}, 0, apperr.NotFoundf("change request %s not found", ref)
		}
		if err != nil {
			return model.ChangeRequest{}, 0, fmt.Errorf("read change request number: %w", err)
		}
		id = rec.ID
	}
	cr, v, err := records.Get[model.ChangeRequest](ctx, st, keys.ChangeRequest(spaceID, id))
	if errors.Is(err, store.ErrNotFound) {
		return cr, 0, apperr.NotFoundf("change request %s not found", ref)
	}
	if err != nil {
		return cr, 0, fmt.Errorf("read change request: %w", err)
	}
	return cr, v, nil
}

func (s *Service) options(src source, metadata bool) Options {
	return Options{Metadata: metadata, AppBase: src.appBase, APIBase: src.bases.API, Downloads: s.Downloads, SpaceID: src.space.ID,
		Conditions: !src.visitor}
}

// RevisionOf reads the whole content at at.
func (s *Service) RevisionOf(ctx context.Context, at At, metadata bool) (Revision, error) {
	src, rev, ix, err := s.load(ctx, at)
	if err != nil {
		return Revision{}, err
	}
	o := s.options(src, metadata)
	v := RevisionView(rev, ix, o)
	if err := s.expandComputed(ctx, src, v.Pages, o, ix.Page); err != nil {
		return Revision{}, err
	}
	if at.Revision != "" {
		v.URLs.App = src.appBase
	}
	if v.MergedFrom, err = s.mergedFrom(ctx, at, src, rev); err != nil {
		return Revision{}, err
	}
	return v, nil
}

// ChangeRequestView reads and renders a change request of sp (no right is
// checked: the caller read sp).
func (s *Service) ChangeRequestView(ctx context.Context, b Bases, sp model.Space, crID string) (ChangeRequest, error) {
	cr, _, err := records.Get[model.ChangeRequest](ctx, s.d.Store, keys.ChangeRequest(sp.ID, crID))
	if errors.Is(err, store.ErrNotFound) {
		return ChangeRequest{}, apperr.NotFoundf("change request %s not found", crID)
	}
	if err != nil {
		return ChangeRequest{}, fmt.Errorf("read change request: %w", err)
	}
	by, err := s.User(ctx, cr.CreatedBy)
	if err != nil {
		return ChangeRequest{}, err
	}
	return ChangeRequestView(ctx, b, cr, sp.Revision, by), nil
}

// User reads a user for embedding; a user that no longer exists is shown
// by id alone.
func (s *Service) User(ctx context.Context, userID string) (model.User, error) {
	u, err := s.users.Get(ctx, userID)
	if apperr.Is(err, apperr.NotFound) {
		return model.User{ID: userID}, nil
	}
	return u, err
}

// Pages reads the page tree at at. The answer may be shared with other
// reads of the same tree: callers must not change it.
func (s *Service) Pages(ctx context.Context, at At, metadata bool) ([]RevisionPage, error) {
	t, err := s.PageTree(ctx, at, metadata)
	return t.Pages, err
}

// PageTree is a page tree read (Service.PageTree): its pages, and their
// JSON encoded once for every read of the same tree.
type PageTree struct {
	Pages []RevisionPage
	kept  *keptTree // nil: not kept (encoded at each read)
}

// keptTree is a page tree rendered, and its JSON once asked for.
type keptTree struct {
	pages []RevisionPage
	once  sync.Once
	json  []byte
	err   error
}

// JSON is the pages' JSON array as encoding/json writes it with HTML left
// unescaped (as the API's JSON format writes bodies), without a newline;
// nil for a tree that is not kept.
func (t PageTree) JSON() ([]byte, error) {
	k := t.kept
	if k == nil {
		return nil, nil
	}
	k.once.Do(func() {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if k.err = enc.Encode(k.pages); k.err == nil {
			k.json = bytes.TrimSuffix(b.Bytes(), []byte("\n"))
		}
	})
	return k.json, k.err
}

// PageTree reads the page tree at at, as Pages does.
func (s *Service) PageTree(ctx context.Context, at At, metadata bool) (PageTree, error) {
	src, err := s.source(ctx, at)
	if err != nil {
		return PageTree{}, err
	}
	rev, err := s.Repo.Revision(ctx, src.space.ID, src.revision)
	if err != nil {
		return PageTree{}, err
	}
	o := s.options(src, metadata)
	// A tree is content-addressed (rev.Tree is its hash), and its view
	// depends only on it and on the options the key holds.
	key := rev.SpaceID + "\x00" + rev.Tree + "\x00" + o.AppBase + "\x00" + strconv.FormatBool(o.Metadata) + strconv.FormatBool(o.Conditions)
	if k, ok := s.trees.get(key); ok {
		return PageTree{Pages: k.pages, kept: k}, nil
	}
	t, err := s.Repo.Tree(ctx, rev)
	if err != nil {
		return PageTree{}, err
	}
	ix := NewIndex(t)
	pages := PagesView(ix, o)
	if !hasComputed(pages) {
		// Computed pages are expanded at each read (their specs change
		// without the tree): their trees are not kept.
		k := &keptTree{pages: pages}
		s.trees.putWeighed(key, k, max(1, len(t.Pages)))
		return PageTree{Pages: pages, kept: k}, nil
	}
	if err := s.expandComputed(ctx, src, pages, o, ix.Page); err != nil {
		return PageTree{}, err
	}
	return PageTree{Pages: pages}, nil
}

// treeCachePages bounds the cache of the page trees this process rendered
// last (PageTree), by their pages: a page's view weighs about 600 bytes
// and its JSON, once the API answered it, about as much, so 100,000 pages
// are at most about 120 MB (two 50,000-page trees, or twenty of 5,000).
const treeCachePages = 100_000

// hasComputed tells whether a tree's view has a computed page.
func hasComputed(pages []RevisionPage) bool {
	for i := range pages {
		if pages[i].Type == TypeComputed || hasComputed(pages[i].Pages) {
			return true
		}
	}
	return false
}

// Page formats.
const (
	FormatMarkdown = "markdown"
	FormatDocument = "document"
)

// Page reads one page at at with its children, and its body in format.
// It reads the tree's index (see TreeReader), not the whole tree.
func (s *Service) Page(ctx context.Context, at At, pageID, format string, metadata bool) (RevisionPage, error) {
	src, tr, err := s.open(ctx, at)
	if err != nil {
		return RevisionPage{}, err
	}
	return s.page(ctx, src, tr, pageID, format, metadata)
}

// PageByPath reads the page at at at a path (its slugs from the top,
// "intro/setup"; slashes around it are ignored), as Page does.
func (s *Service) PageByPath(ctx context.Context, at At, path, format string, metadata bool) (RevisionPage, error) {
	return s.pageByPath(ctx, at, path, format, metadata, nil)
}

// pageByPath is PageByPath, the body resolved for aud when it is not nil.
func (s *Service) pageByPath(ctx context.Context, at At, path, format string, metadata bool, aud *Audience) (RevisionPage, error) {
	src, tr, err := s.open(ctx, at)
	if err != nil {
		return RevisionPage{}, err
	}
	// An empty path names no page (Index.ByPath would find a top-level
	// page without a slug: a link).
	id := ""
	if trimmed := strings.Trim(path, "/"); trimmed != "" {
		if id, err = tr.PageAtPath(ctx, trimmed); err != nil {
			return RevisionPage{}, err
		}
		if i := strings.LastIndexByte(trimmed, '/'); id == "" && i > 0 {
			// A page a computed page generates is under the computed
			// page's path.
			if v, ok, err := s.generatedAt(ctx, src, tr, trimmed[:i], trimmed[i+1:], format, metadata); err != nil || ok {
				return v, err
			}
		}
	}
	if id == "" {
		return RevisionPage{}, apperr.NotFoundf("page at path %s not found", path)
	}
	return s.pageFor(ctx, src, tr, id, format, metadata, aud)
}

// open resolves at and opens its revision's tree (through its index).
func (s *Service) open(ctx context.Context, at At) (source, *TreeReader, error) {
	src, err := s.source(ctx, at)
	if err != nil {
		return source{}, nil, err
	}
	rev, err := s.Repo.Revision(ctx, src.space.ID, src.revision)
	if err != nil {
		return source{}, nil, err
	}
	tr, err := s.Repo.Reader(ctx, rev)
	return src, tr, err
}

func (s *Service) page(ctx context.Context, src source, tr *TreeReader, pageID, format string, metadata bool) (RevisionPage, error) {
	return s.pageFor(ctx, src, tr, pageID, format, metadata, nil)
}

// pageFor reads a page as page does, its body as stored (aud nil) or as
// aud is shown it (ShownPage).
func (s *Service) pageFor(ctx context.Context, src source, tr *TreeReader, pageID, format string, metadata bool, aud *Audience) (RevisionPage, error) {
	sub, pos, err := tr.subtree(ctx, pageID)
	if err != nil {
		return RevisionPage{}, err
	}
	if sub == nil {
		if v, ok, err := s.generated(ctx, src, tr, pageID, format, metadata); err != nil || ok {
			return v, err
		}
		return RevisionPage{}, apperr.NotFoundf("page %s not found", pageID)
	}
	p := &sub[0].Page
	o := s.options(src, metadata)
	if p.Type == TypeComputed && s.specs != nil && !src.noCompute {
		return s.computedPage(ctx, src, p, sub[0].Path, format, o)
	}
	v := PageView(p, sub[0].Path, o)
	if p.Type != TypeLink {
		// The children of the entry at i are the runs of entries up to
		// its End, each child's own subtree skipped by its End.
		var build func(from, to int) []RevisionPage
		build = func(from, to int) []RevisionPage {
			out := []RevisionPage{}
			for i := from; i < to; i = sub[i].End - pos {
				c := PageView(&sub[i].Page, sub[i].Path, o)
				if c.Type != TypeLink {
					c.Pages = build(i+1, sub[i].End-pos)
				}
				out = append(out, c)
			}
			return out
		}
		v.Pages = build(1, len(sub))
	}
	if p.Type != TypeDocument {
		return v, nil
	}
	body, err := s.Repo.Document(ctx, src.space.ID, p.Document)
	if err != nil {
		return RevisionPage{}, err
	}
	loc := &locator{ctx: ctx, tr: tr}
	if aud == nil && src.visitor {
		aud = visitorAudience()
	}
	if aud != nil {
		// Relative links are read from the page's file (where Galley
		// writes it), as ToDocument reads them.
		file := loc.GitPath(p.ID)
		if loc.err != nil {
			return RevisionPage{}, loc.err
		}
		if body, _, err = s.resolveBody(ctx, src.space.ID, tr, p, file, body, *aud); err != nil {
			return RevisionPage{}, err
		}
	}
	switch format {
	case FormatMarkdown:
		md := RenderMarkdown(p, body, FrontDescription)
		v.Markdown = &md
	default:
		doc := document.ToDocument(body, document.Resolver{PageID: p.ID, Locator: loc, Reusables: loc})
		if loc.err != nil {
			return RevisionPage{}, loc.err
		}
		if aud == nil {
			if err := s.shapeDocument(ctx, src.space.ID, tr, p, &doc, src.doc); err != nil {
				return RevisionPage{}, err
			}
		}
		if err := s.resolveBlocks(ctx, src, doc.Nodes); err != nil {
			return RevisionPage{}, err
		}
		v.Document = &doc
	}
	return v, nil
}

// Files lists the files at at by id, a page at a time.
func (s *Service) Files(ctx context.Context, at At, r paging.Request, metadata bool) (paging.Page[RevisionFile], error) {
	src, err := s.source(ctx, at)
	if err != nil {
		return paging.Page[RevisionFile]{}, err
	}
	scope := "files:" + src.scope
	after, err := s.d.Cursors.After(scope, r.Cursor)
	if err != nil {
		return paging.Page[RevisionFile]{}, err
	}
	_, ix, err := s.Repo.Load(ctx, src.space.ID, src.revision)
	if err != nil {
		return paging.Page[RevisionFile]{}, err
	}
	files := ix.Files()
	start := 0
	if after != nil {
		for start < len(files) && files[start].ID <= after.SK {
			start++
		}
	}
	end := min(start+r.Size(), len(files))
	out := paging.Page[RevisionFile]{Items: FilesView(files[start:end], s.options(src, metadata))}
	if end < len(files) {
		out.Next = s.d.Cursors.Cursor(scope, store.Key{PK: src.space.ID, SK: files[end-1].ID})
	}
	return out, nil
}

// File reads one file at at.
func (s *Service) File(ctx context.Context, at At, fileID string, metadata bool) (RevisionFile, error) {
	src, tr, err := s.open(ctx, at)
	if err != nil {
		return RevisionFile{}, err
	}
	f, err := tr.File(ctx, fileID)
	if err != nil {
		return RevisionFile{}, err
	}
	if f == nil {
		return RevisionFile{}, apperr.NotFoundf("file %s not found", fileID)
	}
	return FileView(f, s.options(src, metadata)), nil
}

// Download returns the bytes a signed link grants.
func (s *Service) Download(ctx context.Context, spaceID, fileID, token string) (Download, []byte, error) {
	dl, err := s.Downloads.Check(spaceID, fileID, token)
	if err != nil {
		return dl, nil, err
	}
	data, err := s.Repo.FileBytes(ctx, spaceID, dl.Blob)
	return dl, data, err
}
