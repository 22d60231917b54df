package changerequests

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/store"
)

// Orders of an organization's list of change requests.
const (
	OrderUpdated = "updatedAt"
	OrderCreated = "createdAt"
)

// OrgFilter selects the requests of an organization's list.
type OrgFilter struct {
	// Statuses keeps the requests of these statuses (default: open).
	Statuses []string
	// Creator, Contributor, RequestedReviewer and Space keep the requests
	// created by, contributed to by, awaiting the review of that user, or
	// of that space ("": any).
	Creator, Contributor, RequestedReviewer, Space string
	// Site keeps the requests of the spaces the site's site spaces show
	// ("": any), as SiteSpaces answers them when each page is read.
	Site string
	// OrderBy is OrderUpdated (the default) or OrderCreated; newest first.
	OrderBy string
	// None is set when a filter names what no request of Galley's has
	// (a site topic, a style guide run): the list is empty.
	None bool
}

// SiteSpaces answers the ids of the spaces a site's site spaces show. The
// sites family owns sites and implements it (sites.Service.SpaceIDs): it
// checks the caller may read the site, and answers NotFound for a site that
// is unknown, of another organization or hidden from the caller.
type SiteSpaces interface {
	SpaceIDs(ctx context.Context, orgID, siteID string) ([]string, error)
}

// maxExamined bounds the requests one page of an organization's list reads
// while filtering (the caller's right on each space, and the filters): a
// page may come back short, with a next token, rather than reading without
// end.
const maxExamined = 2000

// ListInOrg returns a page of an organization's change requests that the
// caller may see (those of the live spaces of the organization they may
// read) and that f keeps, newest first by f.OrderBy. Each status is one
// partition of an index sorted the same way; the page merges them, so its
// token is one position valid in all of them. The caller's right on each
// request's space and the filters other than status are applied while
// reading, at most maxExamined requests per page: a page may hold fewer
// than limit requests and still have a next. The requests' spaces come
// with them, by id.
func (s *Service) ListInOrg(ctx context.Context, orgID string, f OrgFilter, r paging.Request) (paging.Page[model.ChangeRequest], map[string]model.Space, error) {
	statuses := slices.Clone(f.Statuses)
	if len(statuses) == 0 {
		statuses = []string{model.CROpen}
	}
	slices.Sort(statuses)
	statuses = slices.Compact(statuses)
	if f.OrderBy == "" {
		f.OrderBy = OrderUpdated
	}
	scope := paging.Scope("org-change-requests", orgID, strings.Join(statuses, ","), f.OrderBy, f.Creator, f.Contributor, f.RequestedReviewer, f.Space, f.Site)
	after, err := s.d.Cursors.After(scope, r.Cursor) // a bad cursor before the caller's rights
	if err != nil {
		return paging.Page[model.ChangeRequest]{}, nil, err
	}
	v, err := s.d.Authz.ViewerIn(ctx, orgID)
	if err != nil {
		return paging.Page[model.ChangeRequest]{}, nil, err
	}
	vis := visibility{s: s, v: v, orgID: orgID, f: f, readable: map[string]*model.Space{}}
	if f.Site != "" {
		if vis.siteSpaces, err = s.siteSpaces(ctx, orgID, f.Site); err != nil {
			return paging.Page[model.ChangeRequest]{}, nil, err
		}
	}
	if f.None || (f.Site != "" && len(vis.siteSpaces) == 0) {
		return paging.Page[model.ChangeRequest]{Items: []model.ChangeRequest{}}, nil, nil
	}
	parts := make([]string, 0, len(statuses))
	for _, st := range statuses {
		if f.OrderBy == OrderCreated {
			parts = append(parts, keys.OrgChangeRequestsByCreation(orgID, st))
		} else {
			parts = append(parts, keys.OrgChangeRequests(orgID, st))
		}
	}
	crs, next, err := mergedScan(ctx, s.d.Store, parts, after, r.Size(), vis.keep)
	if err != nil {
		return paging.Page[model.ChangeRequest]{}, nil, fmt.Errorf("list the organization's change requests: %w", err)
	}
	sps := map[string]model.Space{}
	for _, cr := range crs {
		sps[cr.SpaceID] = *vis.readable[cr.SpaceID]
	}
	return paging.Page[model.ChangeRequest]{Items: crs, Next: s.d.Cursors.Next(scope, next)}, sps, nil
}

// siteSpaces returns the ids of the spaces a site shows, for the site
// filter. A site the sites family does not find (unknown, of another
// organization, or one the caller may not read: they are told apart for
// nobody) is a 400 naming site, as a filter value that names nothing: the
// list itself exists.
func (s *Service) siteSpaces(ctx context.Context, orgID, siteID string) ([]string, error) {
	if s.sites == nil {
		return nil, apperr.Field("site", "filtering change requests by site is not served by this process")
	}
	ids, err := s.sites.SpaceIDs(ctx, orgID, siteID)
	if apperr.Is(err, apperr.NotFound) {
		return nil, apperr.Field("site", "site %s not found", siteID)
	}
	return ids, err
}

// visibility decides which requests of an organization's list a caller
// sees: those f keeps, in live spaces of the organization the caller may
// read (the access package's decision, the space's record read once per
// request).
type visibility struct {
	s     *Service
	v     *access.Viewer
	orgID string
	f     OrgFilter
	// siteSpaces are the spaces of f.Site (nil without it).
	siteSpaces []string
	// readable holds the spaces decided: the space when readable, nil
	// when not.
	readable map[string]*model.Space
}

// keep decides for a run of requests, reading the spaces it has not seen
// in one batch and, for a requested reviewer, the requests' pending review
// requests in one batch.
func (vis *visibility) keep(ctx context.Context, crs []model.ChangeRequest) ([]bool, error) {
	f := vis.f
	out := make([]bool, len(crs))
	var unseen []string
	for i, cr := range crs {
		out[i] = cr.OrgID == vis.orgID && (f.Space == "" || cr.SpaceID == f.Space) &&
			(f.Site == "" || slices.Contains(vis.siteSpaces, cr.SpaceID)) && (f.Creator == "" || cr.CreatedBy == f.Creator) &&
			(f.Contributor == "" || slices.Contains(cr.Contributors, f.Contributor))
		if _, seen := vis.readable[cr.SpaceID]; out[i] && !seen {
			unseen = append(unseen, cr.SpaceID)
		}
	}
	if len(unseen) > 0 {
		sps, err := spaces.ReadMany(ctx, vis.s.d.Store, unseen)
		if err != nil {
			return nil, err
		}
		for _, id := range unseen {
			sp, ok := sps[id]
			ok = ok && sp.DeletedAt == nil && sp.OrgID == vis.orgID
			if ok {
				level, err := vis.v.Level(ctx, access.SpaceNode(sp))
				if err != nil {
					return nil, err
				}
				ok = access.Allowed(level, access.ReadContent)
			}
			vis.readable[id] = nil
			if ok {
				vis.readable[id] = &sp
			}
		}
	}
	var asked []int
	for i, cr := range crs {
		out[i] = out[i] && vis.readable[cr.SpaceID] != nil
		if out[i] && f.RequestedReviewer != "" {
			asked = append(asked, i)
		}
	}
	if len(asked) == 0 {
		return out, nil
	}
	ks := make([]store.ItemKey, 0, len(asked))
	for _, i := range asked {
		k := keys.ReviewRequest(crs[i].SpaceID, crs[i].ID, f.RequestedReviewer)
		ks = append(ks, store.ItemKey{PK: k.PK, SK: k.SK})
	}
	items, err := vis.s.d.Store.BatchGet(ctx, ks)
	if err != nil {
		return nil, fmt.Errorf("read review requests: %w", err)
	}
	for j, i := range asked {
		out[i] = items[j].PK != ""
	}
	return out, nil
}

// stream is one partition of a merged scan: the items read and not yet
// taken, and where its next query resumes.
type stream struct {
	q    store.Query
	buf  []store.Item
	done bool
}

// mergedScan reads partitions of GSI2 that share one order (descending
// sort keys, unique across them) as one list: up to limit records that
// keep accepts, after the position after, and the position to resume from
// when more may follow. A position is the last examined item's keys, which
// is a position in every partition once its index partition is replaced.
// keep decides for runs of at most 100 records at once.
func mergedScan(ctx context.Context, st store.Store, parts []string, after *store.Key, limit int, keep func(context.Context, []model.ChangeRequest) ([]bool, error)) ([]model.ChangeRequest, *store.Key, error) {
	const run = 100
	streams := make([]*stream, len(parts))
	for i, pk := range parts {
		q := store.Query{Index: store.GSI2, PK: pk, Reverse: true, Limit: min(store.MaxQueryLimit, max(limit, run))}
		if after != nil {
			a := *after
			a.IPK = pk
			q.After = &a
		}
		streams[i] = &stream{q: q}
	}
	// next takes the item with the greatest sort key among the streams,
	// reading a stream again when it has none left; nil when all are done.
	next := func() (*store.Item, error) {
		var best *stream
		for _, s := range streams {
			if len(s.buf) == 0 && !s.done {
				p, err := st.Query(ctx, s.q)
				if err != nil {
					return nil, err
				}
				s.buf, s.done, s.q.After = p.Items, p.Next == nil, p.Next
			}
			if len(s.buf) > 0 && (best == nil || bytes.Compare([]byte(s.buf[0].GSI2SK), []byte(best.buf[0].GSI2SK)) > 0) {
				best = s
			}
		}
		if best == nil {
			return nil, nil
		}
		it := best.buf[0]
		best.buf = best.buf[1:]
		return &it, nil
	}
	drained := func() bool {
		for _, s := range streams {
			if len(s.buf) > 0 || !s.done {
				return false
			}
		}
		return true
	}
	out := make([]model.ChangeRequest, 0, limit)
	examined := 0
	for {
		var items []store.Item
		for len(items) < run {
			it, err := next()
			if err != nil {
				return nil, nil, err
			}
			if it == nil {
				break
			}
			items = append(items, *it)
		}
		if len(items) == 0 {
			return out, nil, nil
		}
		crs, err := records.DecodeAll[model.ChangeRequest](items)
		if err != nil {
			return nil, nil, err
		}
		kept, err := keep(ctx, crs)
		if err != nil {
			return nil, nil, err
		}
		for i, cr := range crs {
			examined++
			if !kept[i] {
				continue
			}
			out = append(out, cr)
			if len(out) < limit {
				continue
			}
			// No next page when nothing read but not returned matches and
			// nothing is left to read.
			if !slices.Contains(kept[i+1:], true) && drained() {
				return out, nil, nil
			}
			return out, position(items[i]), nil
		}
		if drained() {
			return out, nil, nil
		}
		if examined >= maxExamined {
			return out, position(items[len(items)-1]), nil
		}
	}
}

// position is where a scan of GSI2 resumes after it.
func position(it store.Item) *store.Key {
	return &store.Key{PK: it.PK, SK: it.SK, IPK: it.GSI2PK, ISK: it.GSI2SK}
}
