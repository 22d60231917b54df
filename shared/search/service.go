// Package search is the search family: full-text search of a space's
// current content and of every space of an organization the caller may
// read (github.com/blevesearch/bleve/v2).
//
// Decisions:
//   - A revision's index is built once: revisions never change. It is kept
//     in the blob store (a gzipped tar of the index's files, under
//     spaces/<spaceId>/search/<revisionId>.<Format>) and, open, in the
//     process (Cache). A query on a revision reads its index from the
//     process, else from the blob store, else builds it from the tree and
//     the page bodies (the first search after a change pays for it).
//   - Document pages are indexed (groups and links have no text), their
//     bodies as every visitor sees them: includes expanded, expressions
//     evaluated (a visitor's claims read as missing), conditional blocks
//     kept when their condition reads only variables and holds, left out
//     when it reads the visitor's claims (docs/content.md, "Where content
//     goes out"). Results
//     are pages, best first, each with up to MaxSections matching sections
//     (the text under one heading) and an excerpt of each.
//   - Text is analysed in the space's language, else (a site search) the
//     locale of the site space that shows it, else English (Analysis:
//     bleve's language analyzers, CJK bigrams for zh, ja, ko); the analysis
//     is part of an index's key. Words are matched within an edit distance
//     that grows with their length (Typos), the last one also as a prefix.
//   - Organization search covers the organization's live spaces the caller
//     may read (the content permission model), and only those: their
//     current revisions are searched and the spaces ranked by their best
//     page, each with up to PagesPerSpace pages.
//   - Lists page by offset. A space search's token names the revision its
//     first page read, and the next pages read the same revision.
package search

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/insights"
	"github.com/galleydocs/galley/shared/metrics"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/sites"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/store"
)

// CachedIndexes is how many revisions' indexes a process keeps open.
const CachedIndexes = 16

// PagesPerSpace is the most pages a space of an organization search lists.
const PagesPerSpace = 10

// Service searches content.
type Service struct {
	d *deps.Deps
	// content reads the spaces' content, and published pages for agents
	// (SiteAgent.Page) as the reader does: computed API pages from the
	// organization's specs (the search function links them).
	content  *content.Service
	sites    Sites
	users    Users
	insights Insights
	cache    *Cache
}

// Insights is what search asks of the insights family
// (insights.Service): record a search of the search page as its visitor.
type Insights interface {
	Track(ctx context.Context, orgID, siteID string, events []insights.Event, v insights.Visitor) error
}

// Sites is what search asks of the sites family (sites.Service): a site's
// search scope, and what a published URL names.
type Sites interface {
	SearchScope(ctx context.Context, orgID, siteID string, siteSpaceIDs []string, field string) ([]sites.SiteSpaceOf, error)
	ResolveURL(ctx context.Context, raw, appURL string, vis sites.Visitor) (sites.Resolved, error)
	// Published is a published site's view: its customization (the
	// search page's language).
	Published(ctx context.Context, orgID, siteID, shareKey string) (sites.View, error)
}

// Users is what search asks of the users family (users.Service): the
// caller a published site's token stands for.
type Users interface {
	Authenticate(ctx context.Context, token string) (access.Caller, error)
}

// Needs are the other families' services search uses.
type Needs struct {
	Content *content.Service
	Sites   Sites
	Users   Users
	// Insights (may be nil) records the searches of the search page.
	Insights Insights
}

// New returns the search service, with its own cache of indexes.
func New(d *deps.Deps, n Needs) *Service {
	return &Service{d: d, content: n.Content, sites: n.Sites, users: n.Users, insights: n.Insights, cache: NewCache(CachedIndexes)}
}

// Close releases the indexes the service holds open.
func (s *Service) Close() { s.cache.Close() }

// OpenIndexes is the number of indexes this process holds open (made or
// loaded, ready for a query).
func (s *Service) OpenIndexes() int { return s.cache.Len() }

// IndexKey is the blob key of the index of a revision of a space made with
// an analysis (Analysis): the analysis is part of the layout, so a space
// that two site spaces show in two languages has an index for each.
func IndexKey(spaceID, revisionID, analysis string) string {
	return "spaces/" + spaceID + "/search/" + revisionID + "." + Format + "-" + analysis
}

// IndexErrorsMetric counts the failures of indexing (package metrics), by
// Stage: "build" (the index could not be made: the search answered 500 and
// the next one tries again), "store" (made and searched, but not stored
// after StoreAttempts: the next process makes it again) and "read" (a
// stored index could not be unpacked: made again and stored over it).
const IndexErrorsMetric = "SearchIndexErrors"

// The stages of IndexErrorsMetric (its Stage dimension); template.yaml
// has an alarm on each.
const (
	StageBuild = "build"
	StageStore = "store"
	StageRead  = "read"
)

// IndexErrorStages lists the values of IndexErrorsMetric's Stage dimension.
func IndexErrorStages() []string { return []string{StageBuild, StageStore, StageRead} }

// StoreAttempts is how many times a made index is written to the blob
// store before it is given up; storeBackoff is the wait after the first
// failed attempt, doubled after each further one.
const (
	StoreAttempts = 3
	storeBackoff  = 100 * time.Millisecond
)

// Index returns the open index of a revision of a space, made with an
// analysis (Analysis): from the process, the blob store, or made (and
// stored) now. Every failure is logged at level ERROR with the space and
// revision, and counted (IndexErrorsMetric); none leaves a page out of the
// index a query reads.
func (s *Service) Index(ctx context.Context, spaceID, revisionID, analysis string) (*Handle, error) {
	return s.cache.Acquire(ctx, spaceID+"/"+revisionID+"/"+analysis, func(ctx context.Context, dir string) error {
		key := IndexKey(spaceID, revisionID, analysis)
		data, err := s.d.Blobs.Get(ctx, key)
		if err == nil {
			err = Unarchive(data, dir)
			if err == nil {
				return nil
			}
			// A damaged archive would fail every search of the revision
			// for good: it is made again, and stored over.
			s.indexError(ctx, StageRead, spaceID, revisionID, err)
			if err := os.RemoveAll(dir); err != nil {
				return err
			}
		} else if !errors.Is(err, blob.ErrNotFound) {
			return fmt.Errorf("read search index: %w", err)
		}
		if err := s.make(ctx, spaceID, revisionID, analysis, dir); err != nil {
			if ctx.Err() == nil {
				s.indexError(ctx, StageBuild, spaceID, revisionID, err)
			}
			return fmt.Errorf("make the search index of space %s, revision %s: %w", spaceID, revisionID, err)
		}
		if err := s.store(ctx, key, dir); err != nil {
			// The index is made: this query and the next ones of this
			// process read it. Not stored, it is missing for the others,
			// which make it again (the blob's absence is the mark).
			s.indexError(ctx, StageStore, spaceID, revisionID, err)
		}
		return nil
	})
}

// store writes the index in dir to the blob store under key, trying
// StoreAttempts times with a growing wait between attempts.
func (s *Service) store(ctx context.Context, key, dir string) error {
	data, err := Archive(dir)
	if err != nil {
		return err
	}
	wait := storeBackoff
	for n := 1; ; n++ {
		err = s.d.Blobs.Put(ctx, key, data, "application/gzip")
		if err == nil || n == StoreAttempts {
			break
		}
		s.d.Logger.WarnContext(ctx, "search index not stored, trying again", "key", key, "attempt", n, "err", err.Error())
		select {
		case <-ctx.Done():
			return fmt.Errorf("write search index: %w (then %w)", err, ctx.Err())
		case <-time.After(wait):
		}
		wait *= 2
	}
	if err != nil {
		return fmt.Errorf("write search index (%d attempts): %w", StoreAttempts, err)
	}
	return nil
}

// indexError logs and counts a failure of indexing at stage.
func (s *Service) indexError(ctx context.Context, stage, spaceID, revisionID string, err error) {
	s.d.Logger.ErrorContext(ctx, "search index", "stage", stage, "space", spaceID, "revision", revisionID, "err", err.Error())
	metrics.Count(s.d.Metrics, IndexErrorsMetric, "Stage", stage)
}

// make writes the index of a revision into dir: its parent's index of the
// same analysis (when stored) updated with the pages that differ, else one
// built from every page.
func (s *Service) make(ctx context.Context, spaceID, revisionID, analysis, dir string) error {
	rev, ix, err := s.content.Repo.Load(ctx, spaceID, revisionID)
	if err != nil {
		return err
	}
	pages := documentPages(ix)
	for _, parentID := range rev.Parents {
		data, err := s.d.Blobs.Get(ctx, IndexKey(spaceID, parentID, analysis))
		if errors.Is(err, blob.ErrNotFound) {
			continue
		}
		if err != nil {
			return fmt.Errorf("read search index: %w", err)
		}
		_, pix, err := s.content.Repo.Load(ctx, spaceID, parentID)
		if err != nil {
			return err
		}
		removed, changed := diff(documentPages(pix), pages)
		if len(removed)+len(changed) > len(pages)/2 {
			break // cheaper to build afresh
		}
		if err := Unarchive(data, dir); err != nil {
			// The parent's archive is damaged: this index is built afresh
			// (the parent's is made again when it is searched).
			s.indexError(ctx, StageRead, spaceID, parentID, err)
			if err := os.RemoveAll(dir); err != nil {
				return err
			}
			break
		}
		withBodies, err := s.bodies(ctx, spaceID, ix, changed)
		if err != nil {
			return err
		}
		return Update(ctx, dir, removed, withBodies)
	}
	withBodies, err := s.bodies(ctx, spaceID, ix, pages)
	if err != nil {
		return err
	}
	return Build(ctx, dir, analysis, withBodies)
}

// indexed is a page as indexed, with its body's hash and what else its
// indexed text reads (the revision's reusable contents and variables, the
// page's variables: extras), so that a page whose includes or variables
// changed is indexed again.
type indexed struct {
	Page
	document string
	extras   string
}

// documentPages returns a tree's document pages (those indexed), in order.
func documentPages(ix *content.Index) []indexed {
	paths := ix.Paths()
	shared := revisionExtras(ix)
	var out []indexed
	var above []string // titles of the pages above the one walked
	ix.Walk(func(p *content.Page, depth int) bool {
		above = above[:min(depth, len(above))]
		if p.Type == content.TypeDocument {
			out = append(out, indexed{Page: Page{ID: p.ID, Title: p.Title, Description: p.Description, Path: paths[p.ID],
				Ancestors: strings.Join(above, "\n")}, document: p.Document, extras: shared + pageExtras(p)})
		}
		above = append(above, p.Title)
		return true
	})
	return out
}

// diff returns the pages of before that are not in after (removed), and
// the pages of after that are new or indexed differently (changed).
func diff(before, after []indexed) (removed []string, changed []indexed) {
	old := make(map[string]indexed, len(before))
	for _, p := range before {
		old[p.ID] = p
	}
	for _, p := range after {
		if o, ok := old[p.ID]; !ok || o != p {
			changed = append(changed, p)
		}
		delete(old, p.ID)
	}
	for _, p := range before {
		if _, ok := old[p.ID]; ok {
			removed = append(removed, p.ID)
		}
	}
	return removed, changed
}

// revisionExtras is what every page's indexed text may read of a revision
// besides its body: its reusable contents and the space's variables.
func revisionExtras(ix *content.Index) string {
	b, _ := json.Marshal(struct {
		R []content.ReusableContent
		V content.Variables
	}{ix.ReusableContents(), ix.Variables()})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// pageExtras is a page's own variables, as its indexed text reads them.
func pageExtras(p *content.Page) string {
	if len(p.Variables) == 0 {
		return ""
	}
	b, _ := json.Marshal(p.Variables)
	return string(b)
}

// bodies reads the bodies of pages, resolved as every visitor sees them
// (content.IndexedBody: includes expanded, expressions evaluated, the
// conditional blocks that depend on the visitor left out).
func (s *Service) bodies(ctx context.Context, spaceID string, ix *content.Index, pages []indexed) ([]Page, error) {
	var hashes []string
	seen := map[string]bool{}
	for _, p := range pages {
		if p.document != "" && !seen[p.document] {
			seen[p.document] = true
			hashes = append(hashes, p.document)
		}
	}
	bodies, err := s.content.Repo.Documents(ctx, spaceID, hashes)
	if err != nil {
		return nil, err
	}
	out := make([]Page, 0, len(pages))
	for _, p := range pages {
		page := p.Page
		page.Body = bodies[p.document]
		if cp := ix.Page(p.ID); cp != nil {
			if page.Body, err = s.content.IndexedBody(ctx, spaceID, ix, cp, page.Body); err != nil {
				return nil, err
			}
		}
		out = append(out, page)
	}
	return out, nil
}

// SpaceHits is a space's pages found, with their sections.
type SpaceHits struct {
	Space model.Space
	Pages []PageHit
}

// Space searches a space's current revision (or the revision the cursor
// names) for text; the caller must be able to read the space. The page's
// cursor carries the offset of the next page with the revision it reads.
func (s *Service) Space(ctx context.Context, spaceID, text string, r paging.Request) (model.Space, paging.Page[PageHit], error) {
	sp, _, err := s.content.Space(ctx, spaceID, access.ReadContent)
	if err != nil {
		return sp, paging.Page[PageHit]{}, err
	}
	scope := "search:space:" + spaceID + ":" + text
	offset, after, err := s.offsetAfter(scope, r.Cursor)
	if err != nil {
		return sp, paging.Page[PageHit]{}, err
	}
	revisionID := sp.Revision
	if after != nil {
		revisionID = after.PK
	}
	h, err := s.Index(ctx, spaceID, revisionID, Analysis(sp.Language))
	if err != nil {
		return sp, paging.Page[PageHit]{}, err
	}
	defer h.Release()
	hits, err := Pages(ctx, h.Index(), text, offset, r.Size())
	if err != nil {
		return sp, paging.Page[PageHit]{}, err
	}
	if err := AddSections(ctx, h.Index(), text, hits.Pages); err != nil {
		return sp, paging.Page[PageHit]{}, err
	}
	out := paging.Page[PageHit]{Items: hits.Pages}
	if end := offset + len(hits.Pages); end < hits.Total {
		out.Next = s.d.Cursors.Cursor(scope, store.Key{PK: revisionID, SK: strconv.Itoa(end)})
	}
	return sp, out, nil
}

// offsetAfter reads a search's cursor, which carries the offset of its page
// (0 and a nil key on the first page).
func (s *Service) offsetAfter(scope, cursor string) (int, *store.Key, error) {
	after, err := s.d.Cursors.After(scope, cursor)
	if err != nil || after == nil {
		return 0, after, err
	}
	offset, err := strconv.Atoi(after.SK)
	if err != nil || offset < 0 {
		return 0, nil, apperr.Field(paging.CursorField, "invalid page token")
	}
	return offset, after, nil
}

// Readers is how many spaces an organization search reads at once.
const Readers = 4

// Org searches the current content of every live space of an organization
// the caller may read; spaces without a match are left out. The page's
// cursor carries the offset of the next page.
func (s *Service) Org(ctx context.Context, orgID, text string, r paging.Request) (paging.Page[SpaceHits], error) {
	c, err := access.CallerFrom(ctx)
	if err != nil {
		return paging.Page[SpaceHits]{}, err
	}
	scope := "search:org:" + orgID + ":" + text
	offset, _, err := s.offsetAfter(scope, r.Cursor)
	if err != nil {
		return paging.Page[SpaceHits]{}, err
	}
	v, err := s.d.Authz.Viewer(ctx, c, orgID)
	if err != nil {
		return paging.Page[SpaceHits]{}, err
	}
	sps, err := spaces.AllLive(ctx, s.d.Store, orgID)
	if err != nil {
		return paging.Page[SpaceHits]{}, err
	}
	readable, err := spaces.Readable(ctx, v, sps)
	if err != nil {
		return paging.Page[SpaceHits]{}, err
	}
	return s.spaces(ctx, scope, orgID, targetsOf(readable.Spaces), text, offset, r)
}

// target is a space to search, with the analysis of its index (Analysis).
type target struct {
	model.Space
	analysis string
}

// targetsOf are spaces searched in their own language (a space's or an
// organization's search: no site, so no locale; English when the space
// names no language).
func targetsOf(sps []model.Space) []target {
	out := make([]target, len(sps))
	for i, sp := range sps {
		out[i] = target{Space: sp, analysis: Analysis(sp.Language)}
	}
	return out
}

// spaces searches the current content of sps (live spaces of orgID the
// caller may read) for text, and returns the page at offset of the spaces
// with a match, best first; the page's cursor is of scope.
func (s *Service) spaces(ctx context.Context, scope, orgID string, sps []target, text string, offset int, r paging.Request) (paging.Page[SpaceHits], error) {
	found := make([]SpaceHits, len(sps))
	analysis := make(map[string]string, len(sps))
	for _, sp := range sps {
		analysis[sp.ID] = sp.analysis
	}
	err := s.withIndexes(ctx, orgID, sps, func(i int, sp model.Space, h *Handle) error {
		hits, err := Pages(ctx, h.Index(), text, 0, PagesPerSpace)
		if err != nil {
			return err
		}
		found[i] = SpaceHits{Space: sp, Pages: hits.Pages}
		return nil
	})
	if err != nil {
		return paging.Page[SpaceHits]{}, err
	}
	var matched []SpaceHits
	for _, f := range found {
		if len(f.Pages) > 0 {
			matched = append(matched, f)
		}
	}
	sortSpaces(matched)
	rankPages(matched)
	start := min(offset, len(matched))
	end := min(start+r.Size(), len(matched))
	out := paging.Page[SpaceHits]{Items: matched[start:end]}
	for i := range out.Items {
		f := &out.Items[i]
		h, err := s.Index(ctx, f.Space.ID, f.Space.Revision, analysis[f.Space.ID])
		if err != nil {
			return paging.Page[SpaceHits]{}, err
		}
		err = AddSections(ctx, h.Index(), text, f.Pages)
		h.Release()
		if err != nil {
			return paging.Page[SpaceHits]{}, err
		}
	}
	if end < len(matched) {
		out.Next = s.d.Cursors.Cursor(scope, store.Key{PK: orgID, SK: strconv.Itoa(end)})
	}
	return out, nil
}

// withIndexes calls fn with the open index of each of sps's current
// revision (live spaces of orgID with content; the others are skipped),
// Readers at a time; the first error in sps's order is returned.
func (s *Service) withIndexes(ctx context.Context, orgID string, sps []target, fn func(i int, sp model.Space, h *Handle) error) error {
	errs := make([]error, len(sps))
	var wg sync.WaitGroup
	sem := make(chan struct{}, Readers)
	for i, sp := range sps {
		if sp.DeletedAt != nil || sp.OrgID != orgID || sp.Revision == "" {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			h, err := s.Index(ctx, sp.ID, sp.Revision, sp.analysis)
			if err != nil {
				errs[i] = err
				return
			}
			defer h.Release()
			errs[i] = fn(i, sp.Space, h)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// rankPages numbers the pages found in every space by score, best first
// (ties in the spaces' order), so a page's rank is its place among them
// all, whichever page of results it comes on.
func rankPages(found []SpaceHits) {
	var all []*PageHit
	for i := range found {
		for j := range found[i].Pages {
			all = append(all, &found[i].Pages[j])
		}
	}
	sort.SliceStable(all, func(a, b int) bool { return all[a].Score > all[b].Score })
	for i, p := range all {
		p.Rank = i + 1
	}
}

// sortSpaces orders spaces by their best page, then by title and id.
func sortSpaces(found []SpaceHits) {
	less := func(a, b SpaceHits) bool {
		if a.Pages[0].Score != b.Pages[0].Score {
			return a.Pages[0].Score > b.Pages[0].Score
		}
		if a.Space.Title != b.Space.Title {
			return a.Space.Title < b.Space.Title
		}
		return a.Space.ID < b.Space.ID
	}
	for i := 1; i < len(found); i++ {
		for j := i; j > 0 && less(found[j], found[j-1]); j-- {
			found[j], found[j-1] = found[j-1], found[j]
		}
	}
}
