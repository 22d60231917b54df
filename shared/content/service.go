package content

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/users"
)

// Service reads the content of spaces (and, for package changerequests, of
// any revision of a space).
type Service struct {
	d         *deps.Deps
	Repo      *Repo
	spaces    *spaces.Service
	users     *users.Service
	Downloads *Downloads
	digests   digestCache
}

// New returns the content service.
func New(d *deps.Deps) *Service {
	return &Service{d: d, Repo: NewRepo(d), spaces: spaces.New(d), users: users.New(d),
		Downloads: NewDownloads(d.Pager, d.Clock)}
}

// Space returns a live space whose content the caller may act on with op,
// and the caller's role on it. Outsiders, and deleted spaces, get NotFound.
func (s *Service) Space(ctx context.Context, spaceID string, op access.OrgOp) (model.Space, model.Role, error) {
	sp, role, err := s.spaces.Get(ctx, spaceID)
	if err != nil {
		return sp, role, err
	}
	if sp.DeletedAt != nil {
		return sp, role, apperr.NotFoundf("space %s not found", spaceID)
	}
	if !access.Allowed(role, op) {
		return sp, role, apperr.Forbiddenf("your role does not allow this on the space (%s)", op)
	}
	return sp, role, nil
}

// Source is the content a read is about: the space's head, or a change
// request's (AppBase and the page-token scope differ).
type Source struct {
	Space    model.Space
	Revision string
	// AppBase is the application URL of this content.
	AppBase string
	// Scope names this content in page tokens.
	Scope string
}

// HeadSource is the space's current content.
func HeadSource(ctx context.Context, sp model.Space) Source {
	return Source{Space: sp, Revision: sp.Revision, AppBase: httpapi.AppURL(ctx) + "/s/" + sp.ID, Scope: "space:" + sp.ID}
}

func (s *Service) options(ctx context.Context, src Source, metadata bool) Options {
	return Options{Metadata: metadata, AppBase: src.AppBase, APIBase: httpapi.APIURL(ctx), Downloads: s.Downloads, SpaceID: src.Space.ID}
}

// RevisionOf reads the whole content of src.
func (s *Service) RevisionOf(ctx context.Context, src Source, metadata bool) (Revision, error) {
	rev, ix, err := s.Repo.Load(ctx, src.Space.ID, src.Revision)
	if err != nil {
		return Revision{}, err
	}
	v := RevisionView(rev, ix, s.options(ctx, src, metadata))
	if rev.MergedFrom != "" {
		cr, err := s.ChangeRequestView(ctx, src.Space, rev.MergedFrom)
		if err != nil {
			return Revision{}, err
		}
		v.MergedFrom = &cr
	}
	return v, nil
}

// ChangeRequestView reads and renders a change request of sp.
func (s *Service) ChangeRequestView(ctx context.Context, sp model.Space, crID string) (ChangeRequest, error) {
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
	return ChangeRequestView(ctx, cr, sp.Revision, by), nil
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

// Pages reads src's page tree.
func (s *Service) Pages(ctx context.Context, src Source, metadata bool) ([]RevisionPage, error) {
	_, ix, err := s.Repo.Load(ctx, src.Space.ID, src.Revision)
	if err != nil {
		return nil, err
	}
	return PagesView(ix, s.options(ctx, src, metadata)), nil
}

// Page formats.
const (
	FormatMarkdown = "markdown"
	FormatDocument = "document"
)

// Page reads one page of src with its children, and its body in format.
// It reads the tree's index (see TreeReader), not the whole tree.
func (s *Service) Page(ctx context.Context, src Source, pageID, format string, metadata bool) (RevisionPage, error) {
	tr, err := s.reader(ctx, src)
	if err != nil {
		return RevisionPage{}, err
	}
	return s.page(ctx, src, tr, pageID, format, metadata)
}

// PageByPath reads the page of src at a path (its slugs from the top,
// "intro/setup"; slashes around it are ignored), as Page does.
func (s *Service) PageByPath(ctx context.Context, src Source, path, format string, metadata bool) (RevisionPage, error) {
	tr, err := s.reader(ctx, src)
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
	}
	if id == "" {
		return RevisionPage{}, apperr.NotFoundf("page at path %s not found", path)
	}
	return s.page(ctx, src, tr, id, format, metadata)
}

func (s *Service) reader(ctx context.Context, src Source) (*TreeReader, error) {
	rev, err := s.Repo.Revision(ctx, src.Space.ID, src.Revision)
	if err != nil {
		return nil, err
	}
	return s.Repo.Reader(ctx, rev)
}

func (s *Service) page(ctx context.Context, src Source, tr *TreeReader, pageID, format string, metadata bool) (RevisionPage, error) {
	sub, pos, err := tr.subtree(ctx, pageID)
	if err != nil {
		return RevisionPage{}, err
	}
	if sub == nil {
		return RevisionPage{}, apperr.NotFoundf("page %s not found", pageID)
	}
	p := &sub[0].Page
	o := s.options(ctx, src, metadata)
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
	body, err := s.Repo.Document(ctx, src.Space.ID, p.Document)
	if err != nil {
		return RevisionPage{}, err
	}
	switch format {
	case FormatMarkdown:
		md := RenderMarkdown(p, body, FrontDescription)
		v.Markdown = &md
	default:
		loc := &locator{ctx: ctx, tr: tr}
		doc := ToDocument(body, Resolver{Page: p, Locator: loc})
		if loc.err != nil {
			return RevisionPage{}, loc.err
		}
		v.Document = &doc
	}
	return v, nil
}

// FilesPage is one page of a revision's files.
type FilesPage struct {
	Files []RevisionFile
	Next  *httpapi.NextPage
}

// Files lists src's files by id, a page at a time.
func (s *Service) Files(ctx context.Context, src Source, p httpapi.ListParams, metadata bool) (FilesPage, error) {
	scope := "files:" + src.Scope
	after, err := s.d.Pager.Key(scope, p.Page)
	if err != nil {
		return FilesPage{}, err
	}
	_, ix, err := s.Repo.Load(ctx, src.Space.ID, src.Revision)
	if err != nil {
		return FilesPage{}, err
	}
	files := ix.Files()
	start := 0
	if after != nil {
		for start < len(files) && files[start].ID <= after.SK {
			start++
		}
	}
	end := min(start+p.Size(), len(files))
	out := FilesPage{Files: FilesView(files[start:end], s.options(ctx, src, metadata))}
	if end < len(files) {
		out.Next = s.d.Pager.Next(scope, &store.Key{PK: src.Space.ID, SK: files[end-1].ID})
	}
	return out, nil
}

// File reads one file of src.
func (s *Service) File(ctx context.Context, src Source, fileID string, metadata bool) (RevisionFile, error) {
	tr, err := s.reader(ctx, src)
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
	return FileView(f, s.options(ctx, src, metadata)), nil
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
