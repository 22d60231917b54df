package sites

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// Redirects: a site's redirects from source paths (doc.go, "Redirects").

// Redirect is a site's redirect from a source path.
type Redirect struct {
	ID              string              `json:"id"`
	Source          string              `json:"source"`
	Draft           bool                `json:"draft"`
	CaptureWildcard bool                `json:"captureWildcard"`
	Permanent       bool                `json:"permanent"`
	Destination     RedirectDestination `json:"destination"`
	CreatedAt       time.Time           `json:"createdAt"`
	UpdatedAt       time.Time           `json:"updatedAt"`
	// Origin is "git:<siteSpaceId>" for a redirect Git Sync made from the
	// site space's repository (SyncGitRedirects), "" for one made through
	// the API.
	Origin string `json:"origin,omitempty"`
}

// RedirectDestination is where a redirect leads: a section, a site space,
// a page of a site space, or an external URL.
type RedirectDestination struct {
	Kind          string `json:"kind"`
	SiteSectionID string `json:"siteSectionId,omitempty"`
	SiteSpaceID   string `json:"siteSpaceId,omitempty"`
	PageID        string `json:"pageId,omitempty"`
	URL           string `json:"url,omitempty"`
}

// The kinds of destinations.
const (
	DestSection   = "site-section"
	DestSiteSpace = "site-space"
	DestPage      = "site-page"
	DestExternal  = "external"
)

// redirectPointer finds a redirect's item from its id.
type redirectPointer struct {
	Source string `json:"source"`
	Draft  bool   `json:"draft"`
}

func state(draft bool) string {
	if draft {
		return "draft"
	}
	return "live"
}

// isWildcard tells whether a source ends with * (the pattern allows it only
// last).
func isWildcard(source string) bool { return strings.HasSuffix(source, "*") }

func redirectKey(siteID, source string, draft bool) keys.Key {
	kind := "E"
	if isWildcard(source) {
		kind = "W"
	}
	return keys.SiteRedirect(siteID, state(draft), kind, source)
}

// checkDestination checks a destination against the site's structure.
func checkDestination(site *model.Site, d RedirectDestination) error {
	switch d.Kind {
	case DestSection:
		for _, sec := range site.Sections {
			if sec.ID == d.SiteSectionID {
				return nil
			}
		}
		return apperr.Field("destination.siteSectionId", "section %s not found in this site", d.SiteSectionID)
	case DestSiteSpace, DestPage:
		if _, err := findSiteSpace(site, d.SiteSpaceID); err != nil {
			return apperr.Field("destination.siteSpaceId", "site space %s not found in this site", d.SiteSpaceID)
		}
		if d.Kind == DestPage && d.PageID == "" {
			return apperr.Field("destination.pageId", "required")
		}
		return nil
	case DestExternal:
		u, err := url.Parse(d.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return apperr.Field("destination.url", "must be an absolute http(s) URL")
		}
		return nil
	}
	return apperr.Field("destination.kind", "unknown destination kind %q", d.Kind)
}

// RedirectInput is a redirect to create or the changes to one (nil fields
// unchanged on update).
type RedirectInput struct {
	Source                            *string
	Draft, CaptureWildcard, Permanent *bool
	Destination                       *RedirectDestination
}

// CreateRedirect adds a redirect; a source already redirected (in the same
// state, live or draft) is a conflict.
func (s *Service) CreateRedirect(ctx context.Context, orgID, siteID string, in RedirectInput) (Redirect, error) {
	l, err := s.load(ctx, orgID, siteID, opStructure)
	if err != nil {
		return Redirect{}, err
	}
	if in.Source == nil || in.Destination == nil {
		return Redirect{}, apperr.Field("source", "source and destination are required")
	}
	if err := checkDestination(&l.Site, *in.Destination); err != nil {
		return Redirect{}, err
	}
	now := s.d.Clock()
	r := Redirect{ID: ids.New(now), Source: *in.Source, Destination: *in.Destination, CreatedAt: now, UpdatedAt: now}
	records.Set(&r.Draft, in.Draft)
	records.Set(&r.CaptureWildcard, in.CaptureWildcard)
	records.Set(&r.Permanent, in.Permanent)
	site := keys.Site(siteID)
	err = s.d.Store.Write(ctx, store.Check(site.PK, site.SK, store.IfExists, 0),
		store.Put(records.Item(redirectKey(siteID, r.Source, r.Draft), r, 1), store.IfNotExists),
		store.Put(records.Item(keys.SiteRedirectID(siteID, r.ID), redirectPointer{Source: r.Source, Draft: r.Draft}, 1), store.IfNotExists))
	if errors.Is(err, store.ErrConflict) {
		return Redirect{}, apperr.Conflictf("the site already has a %s redirect from %s (or was deleted)", state(r.Draft), r.Source)
	}
	return r, err
}

// redirectByID reads a redirect by id.
func (s *Service) redirectByID(ctx context.Context, siteID, id string) (Redirect, int64, int64, error) {
	p, pv, err := records.Read[redirectPointer](ctx, s.d.Store, keys.SiteRedirectID(siteID, id), "redirect", id)
	if err != nil {
		return Redirect{}, 0, 0, err
	}
	r, v, err := records.Get[Redirect](ctx, s.d.Store, redirectKey(siteID, p.Source, p.Draft))
	if errors.Is(err, store.ErrNotFound) {
		return Redirect{}, 0, 0, apperr.NotFoundf("redirect %s not found", id)
	}
	return r, v, pv, err
}

// UpdateRedirect changes a redirect.
func (s *Service) UpdateRedirect(ctx context.Context, orgID, siteID, id string, in RedirectInput) (Redirect, error) {
	var out Redirect
	err := store.Retry(ctx, func() error {
		l, err := s.load(ctx, orgID, siteID, opStructure)
		if err != nil {
			return err
		}
		old, v, pv, err := s.redirectByID(ctx, siteID, id)
		if err != nil {
			return err
		}
		r := old
		records.Set(&r.Source, in.Source)
		records.Set(&r.Draft, in.Draft)
		records.Set(&r.CaptureWildcard, in.CaptureWildcard)
		records.Set(&r.Permanent, in.Permanent)
		if in.Destination != nil {
			if err := checkDestination(&l.Site, *in.Destination); err != nil {
				return err
			}
			r.Destination = *in.Destination
		}
		if !records.Same(old, r) {
			r.UpdatedAt = s.d.Clock()
		}
		oldK, newK, pk := redirectKey(siteID, old.Source, old.Draft), redirectKey(siteID, r.Source, r.Draft), keys.SiteRedirectID(siteID, id)
		var ops []store.Op
		if oldK == newK {
			ops = append(ops, store.PutIfVersion(records.Item(newK, r, v+1), v))
		} else {
			ops = append(ops, store.DeleteIfVersion(oldK.PK, oldK.SK, v), store.Put(records.Item(newK, r, 1), store.IfNotExists),
				store.PutIfVersion(records.Item(pk, redirectPointer{Source: r.Source, Draft: r.Draft}, pv+1), pv))
		}
		err = s.d.Store.Write(ctx, ops...)
		if errors.Is(err, store.ErrConflict) && oldK != newK {
			// Either the redirect changed meanwhile (read again) or the
			// new source is taken: tell them apart.
			if _, err := s.d.Store.Get(ctx, newK.PK, newK.SK); err == nil {
				return apperr.Conflictf("the site already has a %s redirect from %s", state(r.Draft), r.Source)
			}
		}
		out = r
		return err
	})
	return out, err
}

// DeleteRedirect removes a redirect; false when there was none.
func (s *Service) DeleteRedirect(ctx context.Context, orgID, siteID, id string) (bool, error) {
	if _, err := s.load(ctx, orgID, siteID, opStructure); err != nil {
		return false, err
	}
	r, _, _, err := s.redirectByID(ctx, siteID, id)
	if apperr.Is(err, apperr.NotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	k, p := redirectKey(siteID, r.Source, r.Draft), keys.SiteRedirectID(siteID, id)
	return true, s.d.Store.Write(ctx, store.Delete(k.PK, k.SK, store.Always), store.Delete(p.PK, p.SK, store.Always))
}

// RedirectFilter narrows a list of redirects.
type RedirectFilter struct {
	Draft  bool
	Search string
}

// maxRedirectScan bounds the redirects a list reads for one page when it
// filters them by a search.
const maxRedirectScan = 10000

// Redirects returns a page of a site's live (or draft) redirects, in order
// of source (exact sources, then wildcards), optionally only those whose
// source contains search.
func (s *Service) Redirects(ctx context.Context, orgID, siteID string, f RedirectFilter, r paging.Request) (paging.Page[Redirect], error) {
	scope := paging.Scope("site-redirects", siteID, state(f.Draft), f.Search)
	after, err := s.d.Cursors.After(scope, r.Cursor)
	if err != nil {
		return paging.Page[Redirect]{}, err
	}
	if _, err := s.load(ctx, orgID, siteID, opRead); err != nil {
		return paging.Page[Redirect]{}, err
	}
	pk := keys.SitePartition(siteID)
	prefix := "REDIRECT#" + state(f.Draft) + "#"
	start := after
	limit := r.Size()
	out := []Redirect{}
	next := ""
	for scanned := 0; len(out) < limit && scanned < maxRedirectScan; {
		page, err := s.d.Store.Query(ctx, store.Query{PK: pk, SKPrefix: prefix, Limit: store.MaxQueryLimit, After: start})
		if err != nil {
			return paging.Page[Redirect]{}, fmt.Errorf("list redirects: %w", err)
		}
		scanned += len(page.Items)
		for i, it := range page.Items {
			rd, err := records.Decode[Redirect](it)
			if err != nil {
				return paging.Page[Redirect]{}, err
			}
			if f.Search != "" && !strings.Contains(strings.ToLower(rd.Source), strings.ToLower(f.Search)) {
				continue
			}
			out = append(out, rd)
			if len(out) == limit {
				if i < len(page.Items)-1 || page.Next != nil {
					next = it.SK
				}
				break
			}
		}
		if len(out) == limit || page.Next == nil {
			break
		}
		start = page.Next
		if scanned >= maxRedirectScan {
			next = page.Items[len(page.Items)-1].SK
		}
	}
	res := paging.Page[Redirect]{Items: out}
	if next != "" {
		res.Next = s.d.Cursors.Cursor(scope, store.Key{PK: pk, SK: next})
	}
	return res, nil
}

// FoundRedirect is the redirect of a path and where it leads.
type FoundRedirect struct {
	Redirect Redirect
	// Suffix is what a wildcard matched, appended to the destination when
	// the redirect captures it.
	Suffix string
	View   View
}

// Target is where a found redirect leads: an external URL (external true),
// else, under base (the site's root, no trailing slash), a section's or a
// site space's root; a page's destination leads to its site space's root
// (callers that know the page's path go there). The wildcard's rest comes
// after when the redirect captures it.
func (f FoundRedirect) Target(base string) (target string, external bool) {
	suffix := ""
	if f.Redirect.CaptureWildcard && f.Suffix != "" {
		suffix = "/" + f.Suffix
	}
	d := f.Redirect.Destination
	if d.Kind == DestExternal {
		return d.URL + suffix, true
	}
	tree := TreeOf(&f.View.Site)
	u := base
	section := func(id string) {
		if sec, err := tree.Section(id); err == nil {
			u = base + "/" + url.PathEscape(sec.Path)
		}
	}
	switch d.Kind {
	case DestSection:
		section(d.SiteSectionID)
	case DestSiteSpace, DestPage:
		if ss, err := tree.SiteSpace(d.SiteSpaceID); err == nil {
			if ss.Section != "" {
				section(ss.Section)
			}
			if !ss.Default {
				u += "/" + url.PathEscape(ss.Path)
			}
		}
	}
	return u + suffix, false
}

// RedirectBySource finds the live redirect of a path: the one of that exact
// source, else the wildcard source matching the longest prefix of it.
// NotFound when none (the renderer asks for each unknown path). A
// visitor's site token may ask.
func (s *Service) RedirectBySource(ctx context.Context, orgID, siteID, source, shareKey string) (FoundRedirect, error) {
	l, err := s.loadRead(ctx, orgID, siteID, true)
	if err != nil {
		return FoundRedirect{}, err
	}
	v, err := s.view(ctx, l, shareKey, true)
	if err != nil {
		return FoundRedirect{}, err
	}
	r, _, err := records.Get[Redirect](ctx, s.d.Store, redirectKey(siteID, source, false))
	if err == nil {
		return FoundRedirect{Redirect: r, View: v}, nil
	}
	if !errors.Is(err, store.ErrNotFound) {
		return FoundRedirect{}, fmt.Errorf("read redirect: %w", err)
	}
	items, err := store.QueryAll(ctx, s.d.Store, store.Query{PK: keys.SitePartition(siteID), SKPrefix: keys.SiteRedirectPrefix("live", "W")})
	if err != nil {
		return FoundRedirect{}, fmt.Errorf("read wildcard redirects: %w", err)
	}
	ws, err := records.DecodeAll[Redirect](items)
	if err != nil {
		return FoundRedirect{}, err
	}
	sort.Slice(ws, func(i, j int) bool { return len(ws[i].Source) > len(ws[j].Source) })
	for _, w := range ws {
		prefix := strings.TrimSuffix(w.Source, "*")
		if strings.HasPrefix(source, prefix) && source != strings.TrimSuffix(prefix, "/") {
			return FoundRedirect{Redirect: w, Suffix: strings.TrimPrefix(source, prefix), View: v}, nil
		}
	}
	return FoundRedirect{}, apperr.NotFoundf("no redirect from %s", source)
}

// BulkRedirect is one change of a bulk upsert: with Publish, the draft
// redirect of Source goes live (replacing the live one); else the redirect
// of Source in its state (Draft) is created or updated with the given
// fields, or deleted when Delete.
type BulkRedirect struct {
	Source                     string
	Draft, Publish, Delete     bool
	CaptureWildcard, Permanent *bool
	Destination                *RedirectDestination
}

// BulkResult is what one change did: Status created, updated, deleted,
// published or error (with Error), and the redirect's id.
type BulkResult struct {
	Status, Source, ID, Error string
	Draft                     bool
}

// BulkRedirects applies changes one by one; a change that cannot be made
// is reported (status error) and the others go on.
func (s *Service) BulkRedirects(ctx context.Context, orgID, siteID string, changes []BulkRedirect) ([]BulkResult, error) {
	l, err := s.load(ctx, orgID, siteID, opStructure)
	if err != nil {
		return nil, err
	}
	out := make([]BulkResult, 0, len(changes))
	for _, ch := range changes {
		res := BulkResult{Source: ch.Source, Draft: ch.Draft && !ch.Publish}
		err := store.Retry(ctx, func() error {
			var err error
			res.Status, res.ID, err = s.bulkOne(ctx, &l.Site, ch)
			return err
		})
		if err != nil {
			if apperr.KindOf(err) == apperr.Internal && !errors.Is(err, store.ErrConflict) {
				return nil, err
			}
			res.Status, res.ID, res.Error = "error", "", err.Error()
		}
		out = append(out, res)
	}
	return out, nil
}

func (s *Service) bulkOne(ctx context.Context, site *model.Site, ch BulkRedirect) (string, string, error) {
	siteID := site.ID
	if ch.Publish {
		dk := redirectKey(siteID, ch.Source, true)
		d, dv, err := records.Get[Redirect](ctx, s.d.Store, dk)
		if errors.Is(err, store.ErrNotFound) {
			return "", "", apperr.NotFoundf("no draft redirect from %s", ch.Source)
		}
		if err != nil {
			return "", "", err
		}
		lk := redirectKey(siteID, ch.Source, false)
		live, lv, err := records.Get[Redirect](ctx, s.d.Store, lk)
		dp := keys.SiteRedirectID(siteID, d.ID)
		ops := []store.Op{store.DeleteIfVersion(dk.PK, dk.SK, dv)}
		switch {
		case err == nil:
			live.CaptureWildcard, live.Permanent, live.Destination, live.UpdatedAt = d.CaptureWildcard, d.Permanent, d.Destination, s.d.Clock()
			ops = append(ops, store.PutIfVersion(records.Item(lk, live, lv+1), lv), store.Delete(dp.PK, dp.SK, store.Always))
		case errors.Is(err, store.ErrNotFound):
			live = d
			live.Draft, live.UpdatedAt = false, s.d.Clock()
			ops = append(ops, store.Put(records.Item(lk, live, 1), store.IfNotExists),
				store.Put(records.Item(dp, redirectPointer{Source: live.Source}, 1), store.Always))
		default:
			return "", "", err
		}
		return "published", live.ID, s.d.Store.Write(ctx, ops...)
	}
	k := redirectKey(siteID, ch.Source, ch.Draft)
	old, v, err := records.Get[Redirect](ctx, s.d.Store, k)
	found := err == nil
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return "", "", err
	}
	if ch.Delete {
		if !found {
			return "", "", apperr.NotFoundf("no %s redirect from %s", state(ch.Draft), ch.Source)
		}
		p := keys.SiteRedirectID(siteID, old.ID)
		return "deleted", "", s.d.Store.Write(ctx, store.DeleteIfVersion(k.PK, k.SK, v), store.Delete(p.PK, p.SK, store.Always))
	}
	if ch.Destination == nil {
		return "", "", apperr.Field("destination", "required")
	}
	if err := checkDestination(site, *ch.Destination); err != nil {
		return "", "", err
	}
	now := s.d.Clock()
	r := old
	if !found {
		r = Redirect{ID: ids.New(now), Source: ch.Source, Draft: ch.Draft, CreatedAt: now}
	}
	r.Destination, r.UpdatedAt = *ch.Destination, now
	records.Set(&r.CaptureWildcard, ch.CaptureWildcard)
	records.Set(&r.Permanent, ch.Permanent)
	if found {
		return "updated", r.ID, s.d.Store.Write(ctx, store.PutIfVersion(records.Item(k, r, v+1), v))
	}
	return "created", r.ID, s.d.Store.Write(ctx, store.Put(records.Item(k, r, 1), store.IfNotExists),
		store.Put(records.Item(keys.SiteRedirectID(siteID, r.ID), redirectPointer{Source: r.Source, Draft: r.Draft}, 1), store.IfNotExists))
}
