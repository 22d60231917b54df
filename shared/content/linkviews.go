package content

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/document"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/store"
)

// ContentLocation is an absolute reference to content (the reference's
// ContentLocation, the kinds Galley answers): a page or a file of a space's
// revision or change request, or a URL.
type ContentLocation struct {
	Kind             string                   `json:"kind" enum:"page,file,url,reusable-content"`
	Organization     *orgs.Organization       `json:"organization,omitempty"`
	Space            *spaces.Space            `json:"space,omitempty"`
	VersionContext   *VersionContext          `json:"versionContext,omitempty"`
	Page             *RevisionPage            `json:"page,omitempty" doc:"The page (kind page), without its children"`
	File             *RevisionFile            `json:"file,omitempty" doc:"The file (kind file)"`
	URL              string                   `json:"url,omitempty" doc:"The URL as written (kind url; broken links are URLs, a broken include's target as written)"`
	ReusableContent  *RevisionReusableContent `json:"reusableContent,omitempty" doc:"The reusable content a page includes (kind reusable-content)"`
	InternalLocation *PageAnchorLocation      `json:"internalLocation,omitempty" doc:"Where in the page (kind page)"`
}

// PageAnchorLocation is a place in a page: the heading it is under.
type PageAnchorLocation struct {
	Type   string `json:"type" enum:"anchor"`
	Anchor string `json:"anchor"`
}

// VersionContext is the version of the content a location is in: a
// revision of the space, or a change request.
type VersionContext struct {
	Type          string           `json:"type" enum:"revision,changeRequest"`
	Revision      *RevisionSummary `json:"revision,omitempty" doc:"The revision (type revision), without its pages and files"`
	ChangeRequest *ChangeRequest   `json:"changeRequest,omitempty" doc:"The change request (type changeRequest)"`
}

// RevisionSummary is a revision without its content (the pages and files
// would repeat the whole tree in every location).
type RevisionSummary struct {
	Object    string       `json:"object" enum:"revision"`
	ID        string       `json:"id"`
	Parents   []string     `json:"parents"`
	CreatedAt time.Time    `json:"createdAt"`
	Type      string       `json:"type" enum:"edits,merge,rollback,update,computed"`
	URLs      RevisionURLs `json:"urls"`
}

// LinkItem is the links of a page to one target (the reference's
// ContentReferenceUsage).
type LinkItem struct {
	Status             string            `json:"status" enum:"ok,broken,in-app"`
	Relation           string            `json:"relation" enum:"reference,dependsOn"`
	TargetReference    ContentLocation   `json:"targetReference"`
	LocationReferences []ContentLocation `json:"locationReferences" doc:"Where in the page the links are"`
}

// LinkStats counts a page's links (every one, whatever the status filter).
type LinkStats struct {
	Total  int         `json:"total" doc:"Links (targets) of the page"`
	Broken BrokenStats `json:"broken"`
}

// BrokenStats counts broken links.
type BrokenStats struct {
	Total         int  `json:"total"`
	ChangeRequest *int `json:"changeRequest,omitempty" doc:"Broken links the change request broke (not broken in its base); change requests only"`
}

// Links is a page of a page's links, with the stats of them all and the
// page's broken expressions (every one, on every page of the list, as the
// stats; none when status filters other links than broken ones).
type Links struct {
	paging.Page[LinkItem]
	Stats             LinkStats
	BrokenExpressions []BrokenExpression
}

// locations renders the organization, space and version every location
// of a read shares.
type locations struct {
	org     orgs.Organization
	space   spaces.Space
	version VersionContext
	opts    Options
}

func (s *Service) locations(ctx context.Context, src source, rev model.Revision) (*locations, error) {
	o, err := s.orgs.GetOrganization(ctx, src.space.OrgID)
	if err != nil {
		return nil, err
	}
	l := &locations{org: orgs.ViewOrganization(src.bases.API, src.bases.App, o),
		space: spaces.ViewSpace(src.bases.API, src.bases.App, src.space, src.role),
		opts:  s.options(src, true)}
	if src.cr != nil {
		by, err := s.User(ctx, src.cr.CreatedBy)
		if err != nil {
			return nil, err
		}
		cr := ChangeRequestView(ctx, src.bases, *src.cr, src.space.Revision, by)
		l.version = VersionContext{Type: "changeRequest", ChangeRequest: &cr}
	} else {
		parents := rev.Parents
		if parents == nil {
			parents = []string{}
		}
		l.version = VersionContext{Type: "revision", Revision: &RevisionSummary{Object: "revision", ID: rev.ID, Parents: parents,
			CreatedAt: rev.CreatedAt, Type: rev.Type, URLs: RevisionURLs{App: src.appBase + "/~/revisions/" + rev.ID}}}
	}
	return l, nil
}

func (l *locations) page(ix *Index, p *Page, anchor string) ContentLocation {
	v := PageView(p, ix.Path(p.ID), l.opts)
	v.Pages = []RevisionPage{} // a location names the page, not its children
	loc := ContentLocation{Kind: "page", Organization: &l.org, Space: &l.space, VersionContext: &l.version, Page: &v}
	if anchor != "" {
		loc.InternalLocation = &PageAnchorLocation{Type: "anchor", Anchor: anchor}
	}
	return loc
}

func (l *locations) target(ix *Index, r ResolvedLink) ContentLocation {
	switch r.Kind {
	case "page":
		if p := ix.Page(r.Target); p != nil {
			return l.page(ix, p, r.TargetAnchor)
		}
	case "file":
		if f := ix.File(r.Target); f != nil {
			v := FileView(f, l.opts)
			return ContentLocation{Kind: "file", Organization: &l.org, Space: &l.space, VersionContext: &l.version, File: &v}
		}
	case "reusable-content":
		if rc := ix.ReusableContent(r.Target); rc != nil {
			v := ReusableContentView(rc, l.opts)
			return ContentLocation{Kind: "reusable-content", Organization: &l.org, Space: &l.space, VersionContext: &l.version, ReusableContent: &v}
		}
	}
	return ContentLocation{Kind: "url", URL: r.Href}
}

// pageLinks reads and resolves every link of a page of a revision; body
// is the page's body ("" when it has none).
func (s *Service) pageLinks(ctx context.Context, spaceID string, ix *Index, p *Page, appBase string) (links []ResolvedLink, body string, err error) {
	raw := PageExtras(p)
	if p.Type == TypeDocument {
		if body, err = s.Repo.Document(ctx, spaceID, p.Document); err != nil {
			return nil, "", err
		}
		raw = append(raw, BodyLinks(body)...)
	}
	return ResolveLinks(ix, p, raw, appBase), body, nil
}

// loadPaged reads the revision a list reads: the token's (a list pages
// through the revision its first page read), else the content's current
// one.
func (s *Service) loadPaged(ctx context.Context, src source, scope, token string) (model.Revision, *Index, int, error) {
	after, err := s.d.Cursors.After(scope, token)
	if err != nil {
		return model.Revision{}, nil, 0, err
	}
	revID, offset := src.revision, 0
	if after != nil {
		revID = after.PK
		if offset, err = strconv.Atoi(after.SK); err != nil || offset < 0 {
			return model.Revision{}, nil, 0, apperr.Field("page", "invalid page token")
		}
	}
	rev, ix, err := s.Repo.Load(ctx, src.space.ID, revID)
	return rev, ix, offset, err
}

// PageLinks lists the links of a page, grouped by target, in the order of
// their first occurrence; status ("" for all) filters them. The stats
// count them all; a change request's also count the links it broke.
func (s *Service) PageLinks(ctx context.Context, at At, pageID, status string, r paging.Request) (Links, error) {
	src, err := s.source(ctx, at)
	if err != nil {
		return Links{}, err
	}
	scope := "links:" + src.scope + ":" + pageID + ":" + status
	rev, ix, offset, err := s.loadPaged(ctx, src, scope, r.Cursor)
	if err != nil {
		return Links{}, err
	}
	p := ix.Page(pageID)
	if p == nil {
		return Links{}, apperr.NotFoundf("page %s not found", pageID)
	}
	appBase := src.bases.App
	links, body, err := s.pageLinks(ctx, src.space.ID, ix, p, appBase)
	if err != nil {
		return Links{}, err
	}
	groups := GroupLinks(links)
	out := Links{Page: paging.Page[LinkItem]{Items: []LinkItem{}}, BrokenExpressions: []BrokenExpression{}}
	if status == "" || status == LinkBroken {
		out.BrokenExpressions = append(out.BrokenExpressions, BrokenExpressions(ix, p, body)...)
	}
	out.Stats.Total = len(groups)
	var kept []LinkGroup
	for _, g := range groups {
		if g.First.Status == LinkBroken {
			out.Stats.Broken.Total++
		}
		if status == "" || g.First.Status == status {
			kept = append(kept, g)
		}
	}
	if src.cr != nil {
		n, err := s.newlyBroken(ctx, src.space.ID, src.cr.Base(), pageID, groups, appBase)
		if err != nil {
			return Links{}, err
		}
		out.Stats.Broken.ChangeRequest = &n
	}
	start := min(offset, len(kept))
	end := min(start+r.Size(), len(kept))
	if start < end {
		l, err := s.locations(ctx, src, rev)
		if err != nil {
			return Links{}, err
		}
		for _, g := range kept[start:end] {
			item := LinkItem{Status: g.First.Status, Relation: g.First.Relation, TargetReference: l.target(ix, g.First),
				LocationReferences: make([]ContentLocation, 0, len(g.Anchors))}
			for _, a := range g.Anchors {
				item.LocationReferences = append(item.LocationReferences, l.page(ix, p, a))
			}
			out.Items = append(out.Items, item)
		}
	}
	if end < len(kept) {
		out.Next = s.d.Cursors.Cursor(scope, store.Key{PK: rev.ID, SK: strconv.Itoa(end)})
	}
	return out, nil
}

// newlyBroken counts the broken groups of a request's page that are not
// broken in the request's base (the page is new, or the link is).
func (s *Service) newlyBroken(ctx context.Context, spaceID, base, pageID string, groups []LinkGroup, appBase string) (int, error) {
	before := map[string]bool{}
	if base != "" {
		_, bix, err := s.Repo.Load(ctx, spaceID, base)
		if err != nil && !apperr.Is(err, apperr.NotFound) {
			return 0, err
		}
		if bix != nil {
			if bp := bix.Page(pageID); bp != nil {
				links, _, err := s.pageLinks(ctx, spaceID, bix, bp, appBase)
				if err != nil {
					return 0, err
				}
				for _, l := range links {
					if l.Status == LinkBroken {
						before[l.Key()] = true
					}
				}
			}
		}
	}
	n := 0
	for _, g := range groups {
		if g.First.Status == LinkBroken && !before[g.First.Key()] {
			n++
		}
	}
	return n, nil
}

// FileBacklinks lists the pages of the content that link to a file, show
// it, or use it as their cover, in the tree's order.
func (s *Service) FileBacklinks(ctx context.Context, at At, fileID string, r paging.Request) (paging.Page[ContentLocation], error) {
	src, err := s.source(ctx, at)
	if err != nil {
		return paging.Page[ContentLocation]{}, err
	}
	scope := "backlinks:" + src.scope + ":" + fileID
	rev, ix, offset, err := s.loadPaged(ctx, src, scope, r.Cursor)
	if err != nil {
		return paging.Page[ContentLocation]{}, err
	}
	if ix.File(fileID) == nil {
		return paging.Page[ContentLocation]{}, apperr.NotFoundf("file %s not found", fileID)
	}
	dg, err := s.linkDigest(ctx, rev, ix)
	if err != nil {
		return paging.Page[ContentLocation]{}, err
	}
	href := "/files/" + fileID
	var pages []*Page
	ix.Walk(func(p *Page, _ int) bool {
		for _, l := range append(PageExtras(p), dg.Docs[p.Document]...) {
			if l.Href == href {
				pages = append(pages, p)
				break
			}
		}
		return true
	})
	out := paging.Page[ContentLocation]{Items: []ContentLocation{}}
	start := min(offset, len(pages))
	end := min(start+r.Size(), len(pages))
	if start < end {
		l, err := s.locations(ctx, src, rev)
		if err != nil {
			return paging.Page[ContentLocation]{}, err
		}
		for _, p := range pages[start:end] {
			out.Items = append(out.Items, l.page(ix, p, ""))
		}
	}
	if end < len(pages) {
		out.Next = s.d.Cursors.Cursor(scope, store.Key{PK: rev.ID, SK: strconv.Itoa(end)})
	}
	return out, nil
}

// The link digest of a revision: the links of each of its page bodies, by
// the body's hash. It is computed once per revision (revisions never
// change) and kept in the blob store beside the revision's tree; a
// revision's digest reuses its parents' for the bodies they share, so only
// changed bodies are read.

type linkDigest struct {
	Docs map[string][]document.RawLink `json:"docs"`
}

const digestVersion = "v2"

func digestKey(spaceID, revisionID string) string {
	return "spaces/" + spaceID + "/links/" + revisionID + "." + digestVersion
}

// digestCacheSize bounds the cache of the digests of the revisions this
// process read last.
const digestCacheSize = 16

func (s *Service) readDigest(ctx context.Context, spaceID, revisionID string) (*linkDigest, error) {
	k := digestKey(spaceID, revisionID)
	if d, ok := s.digests.get(k); ok {
		return d, nil
	}
	raw, err := s.d.Blobs.Get(ctx, k)
	if errors.Is(err, blob.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read link digest: %w", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("read link digest: %w", err)
	}
	var d linkDigest
	if err := json.NewDecoder(zr).Decode(&d); err != nil {
		return nil, fmt.Errorf("decode link digest: %w", err)
	}
	s.digests.put(k, &d)
	return &d, nil
}

func (s *Service) linkDigest(ctx context.Context, rev model.Revision, ix *Index) (*linkDigest, error) {
	if d, err := s.readDigest(ctx, rev.SpaceID, rev.ID); d != nil || err != nil {
		return d, err
	}
	known := map[string][]document.RawLink{}
	for _, parent := range rev.Parents {
		pd, err := s.readDigest(ctx, rev.SpaceID, parent)
		if err != nil {
			return nil, err
		}
		if pd != nil {
			for h, l := range pd.Docs {
				known[h] = l
			}
		}
	}
	d := &linkDigest{Docs: map[string][]document.RawLink{}}
	var missing []string
	ix.Walk(func(p *Page, _ int) bool {
		if p.Type == TypeDocument && p.Document != "" {
			if l, ok := known[p.Document]; ok {
				d.Docs[p.Document] = l
			} else if _, ok := d.Docs[p.Document]; !ok {
				d.Docs[p.Document] = nil
				missing = append(missing, p.Document)
			}
		}
		return true
	})
	bodies, err := s.Repo.Documents(ctx, rev.SpaceID, missing)
	if err != nil {
		return nil, err
	}
	for h, body := range bodies {
		d.Docs[h] = BodyLinks(body)
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if err := json.NewEncoder(zw).Encode(d); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	k := digestKey(rev.SpaceID, rev.ID)
	if err := s.d.Blobs.Put(ctx, k, buf.Bytes(), "application/gzip"); err != nil {
		return nil, fmt.Errorf("write link digest: %w", err)
	}
	s.digests.put(k, d)
	return d, nil
}

// DocumentReaders is how many page bodies Documents reads at once.
const DocumentReaders = 16

// Documents reads page bodies by hash, several at once.
func (r *Repo) Documents(ctx context.Context, spaceID string, hashes []string) (map[string]string, error) {
	out := make(map[string]string, len(hashes))
	var mu sync.Mutex
	err := each(hashes, DocumentReaders, func(h string) error {
		body, err := r.Document(ctx, spaceID, h)
		if err != nil {
			return err
		}
		mu.Lock()
		out[h] = body
		mu.Unlock()
		return nil
	})
	return out, err
}
