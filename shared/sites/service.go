package sites

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/store"
)

// Defaults of a new site.
const (
	DefaultType          = "basic"
	DefaultVisibility    = "public"
	DefaultAgentsContext = "included"
	DefaultTitle         = "Untitled site"
)

// The rights each kind of call needs (see doc.go).
const (
	opRead      = access.ReadContent
	opStructure = access.CreateContent
	opAdmin     = access.AdminContent
)

// Service manages sites and their structure.
type Service struct {
	d      *deps.Deps
	spaces Spaces
	// events are told of sites published and unpublished; nil: nobody.
	events Events
	audit  Recorder
}

// Events is told of what happened to sites once it is written (the
// webhooks family's emitter, given by the composition root).
type Events interface {
	Emit(ctx context.Context, e model.Event)
}

// Spaces is what sites ask of the spaces family (spaces.Service): a space
// and the caller's role on it, and the spaces a site creates.
type Spaces interface {
	Get(ctx context.Context, spaceID string) (model.Space, model.Role, error)
	Create(ctx context.Context, orgID string, in spaces.Create) (model.Space, model.Role, error)
}

// New returns the sites service; events (nil: none) are told of sites
// published and unpublished; rec records the administrative changes.
func New(d *deps.Deps, spaces Spaces, events Events, rec Recorder) *Service {
	return &Service{d: d, spaces: spaces, events: events, audit: rec}
}

// Loaded is a site read for a caller.
type Loaded struct {
	Site    model.Site
	Version int64
	Role    model.Role
}

// Require reads a site for the caller if their level on it allows op,
// and answers that level (as load): the grants family asks it before
// managing the site's grants.
func (s *Service) Require(ctx context.Context, orgID, siteID string, op access.OrgOp) (model.Site, model.Role, error) {
	l, err := s.load(ctx, orgID, siteID, op)
	return l.Site, l.Role, err
}

// authorize is the decision on a site: the caller's level on it (their
// organization role and the grants to them and their teams on the site,
// access.SiteNode) must allow op. Outsiders, and members who cannot read
// the site, get NotFound; readers whose level is too low, Forbidden.
func (s *Service) authorize(ctx context.Context, orgID, siteID string, op access.OrgOp) (model.Role, error) {
	_, level, err := s.d.Authz.RequireOn(ctx, access.SiteNode(orgID, siteID), op)
	return level, err
}

func (s *Service) load(ctx context.Context, orgID, siteID string, op access.OrgOp) (Loaded, error) {
	level, err := s.authorize(ctx, orgID, siteID, op)
	if err != nil {
		return Loaded{}, err
	}
	site, v, err := records.Get[model.Site](ctx, s.d.Store, keys.Site(siteID))
	if errors.Is(err, store.ErrNotFound) || (err == nil && site.OrgID != orgID) {
		return Loaded{}, apperr.NotFoundf("site %s not found", siteID)
	}
	if err != nil {
		return Loaded{}, fmt.Errorf("read site: %w", err)
	}
	return Loaded{Site: site, Version: v, Role: level}, nil
}

// loadRead reads a site for a read. With visitors true, a published site's
// visitor holding a token of this site may read it too (with no role); the
// site must still be published for them (but for a member's preview's).
func (s *Service) loadRead(ctx context.Context, orgID, siteID string, visitors bool) (Loaded, error) {
	vis, ok := access.VisitorFrom(ctx)
	if !ok || !visitors {
		return s.load(ctx, orgID, siteID, opRead)
	}
	site, v, err := records.Get[model.Site](ctx, s.d.Store, keys.Site(siteID))
	if errors.Is(err, store.ErrNotFound) || (err == nil && (site.OrgID != orgID || !vis.MayReadSite(orgID, siteID) || !(site.Published || vis.Preview))) {
		return Loaded{}, apperr.NotFoundf("site %s not found", siteID)
	}
	if err != nil {
		return Loaded{}, fmt.Errorf("read site: %w", err)
	}
	return Loaded{Site: site, Version: v}, nil
}

// siteItem is a site's item, listed in its organization.
func siteItem(site model.Site, version int64) store.Item {
	it := records.Item(keys.Site(site.ID), site, version)
	ik := keys.SiteInOrg(site.OrgID, site.ID)
	it.GSI1PK, it.GSI1SK = ik.PK, ik.SK
	return it
}

// tooLarge guards the one-item design: a structure that would not fit the
// item is refused before the store would.
func tooLarge(it store.Item) error {
	if it.Size() > store.MaxItemBytes {
		return apperr.Conflictf("the site's structure is too large to store (%d bytes, at most %d)", it.Size(), store.MaxItemBytes)
	}
	return nil
}

func (s *Service) structureOf(site *model.Site) *structure {
	now := s.d.Clock()
	return &structure{s: site, now: now, newID: func() string { return ids.New(now) }}
}

// mutate changes a site with fn under the site's version; fn may return
// extra operations for the same transaction. The invariants are checked
// before anything is written.
func (s *Service) mutate(ctx context.Context, orgID, siteID string, op access.OrgOp, fn func(st *structure) ([]store.Op, error)) (model.Site, model.Role, error) {
	return s.mutateAfter(ctx, orgID, siteID, op, nil, fn)
}

// mutateAfter is mutate with a step run once, after authorization and
// before the change (reading what the change needs, such as a space).
func (s *Service) mutateAfter(ctx context.Context, orgID, siteID string, op access.OrgOp, before func() error, fn func(st *structure) ([]store.Op, error)) (model.Site, model.Role, error) {
	level, err := s.authorize(ctx, orgID, siteID, op)
	if err != nil {
		return model.Site{}, "", err
	}
	if before != nil {
		if err := before(); err != nil {
			return model.Site{}, "", err
		}
	}
	var out, prior model.Site
	var version int64
	k := keys.Site(siteID)
	_, err = store.Update(ctx, s.d.Store, k.PK, k.SK, func(old store.Item) (store.Item, []store.Op, error) {
		site, err := records.Decode[model.Site](old)
		if err != nil {
			return store.Item{}, nil, err
		}
		prior = site // its URLs (scalars: fn's changes do not reach them)
		if site.OrgID != orgID {
			return store.Item{}, nil, apperr.NotFoundf("site %s not found", siteID)
		}
		st := s.structureOf(&site)
		extra, err := fn(st)
		if err != nil {
			return store.Item{}, nil, err
		}
		if err := st.check(); err != nil {
			return store.Item{}, nil, fmt.Errorf("site %s: change would break an invariant: %w", siteID, err)
		}
		site.UpdatedAt = st.now
		it := siteItem(site, old.Version+1)
		if err := tooLarge(it); err != nil {
			return store.Item{}, nil, err
		}
		out, version = site, old.Version+1
		return it, extra, nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return out, "", apperr.NotFoundf("site %s not found", siteID)
	}
	if err == nil {
		s.siteChanged(ctx, prior, out, version)
	}
	return out, level, err
}

// liveSpace returns a live space of the organization for a request field.
func (s *Service) liveSpace(ctx context.Context, orgID, spaceID, field string) (model.Space, error) {
	sp, _, err := s.spaces.Get(ctx, spaceID)
	if apperr.Is(err, apperr.NotFound) || (err == nil && (sp.OrgID != orgID || sp.DeletedAt != nil)) {
		return model.Space{}, apperr.Field(field, "space %s not found in this organization", spaceID)
	}
	return sp, err
}

// CreateSite is the input of Create.
type CreateSite struct {
	Type, Title, Visibility string
	// SpaceIDs are added as site spaces at the root, in order.
	SpaceIDs []string
	// NewSpace ("sample" or "empty") creates a space for the site.
	NewSpace string
}

// Create makes a site. Its spaces are either existing spaces of the
// organization or one new space made through the spaces service (which
// stays, as content, if the site is deleted).
func (s *Service) Create(ctx context.Context, orgID string, in CreateSite) (model.Site, model.Role, error) {
	acc, err := s.d.Authz.RequireOrg(ctx, orgID, access.CreateContent)
	if err != nil {
		return model.Site{}, "", err
	}
	now := s.d.Clock()
	site := model.Site{ID: ids.New(now), OrgID: orgID, Type: in.Type, Title: in.Title, Visibility: in.Visibility,
		AgentsContext: DefaultAgentsContext, CreatedAt: now, UpdatedAt: now, CreatedBy: acc.UserID}
	if site.Type == "" {
		site.Type = DefaultType
	}
	if site.Title == "" {
		site.Title = DefaultTitle
	}
	if site.Visibility == "" {
		site.Visibility = DefaultVisibility
	}
	var add []model.Space
	seen := map[string]bool{}
	for _, id := range in.SpaceIDs {
		if seen[id] {
			return model.Site{}, "", apperr.Field("spaces", "space %s is listed twice", id)
		}
		seen[id] = true
		sp, err := s.liveSpace(ctx, orgID, id, "spaces")
		if err != nil {
			return model.Site{}, "", err
		}
		add = append(add, sp)
	}
	if len(add) > MaxSiteSpaces {
		return model.Site{}, "", apperr.Field("spaces", "at most %d spaces", MaxSiteSpaces)
	}
	if in.NewSpace != "" {
		// "sample" content comes with the content issue; both start empty.
		sp, _, err := s.spaces.Create(ctx, orgID, spaces.Create{Title: truncate(site.Title, 50)})
		if err != nil {
			return model.Site{}, "", err
		}
		add = append(add, sp)
	}
	st := s.structureOf(&site)
	for _, sp := range add {
		if _, err := st.addSiteSpace(sp, ""); err != nil {
			return model.Site{}, "", err
		}
	}
	if err := st.check(); err != nil {
		return model.Site{}, "", err
	}
	err = s.d.Store.Write(ctx, orgs.CheckOrg(orgID, 0), store.Put(siteItem(site, 1), store.IfNotExists))
	if err != nil {
		return model.Site{}, "", fmt.Errorf("create site: %w", err)
	}
	return site, acc.Role(), nil
}

// Get returns a site.
func (s *Service) Get(ctx context.Context, orgID, siteID string) (Loaded, error) {
	return s.load(ctx, orgID, siteID, opRead)
}

// SiteFilter narrows the list of sites.
type SiteFilter struct {
	Space, Title string
	Published    *bool
}

func (f SiteFilter) match(site model.Site) bool {
	if f.Title != "" && !strings.Contains(strings.ToLower(site.Title), strings.ToLower(f.Title)) {
		return false
	}
	if f.Published != nil && site.Published != *f.Published {
		return false
	}
	if f.Space != "" {
		for _, ss := range site.SiteSpaces {
			if ss.SpaceID == f.Space {
				return true
			}
		}
		return false
	}
	return true
}

// List returns a page of an organization's sites matching f, in creation
// order, each with the caller's level on it (Loaded's Version is not
// set). Members who may read every site (role read and up) see them all;
// others, guests, only the sites granted to them or their teams (read
// from their lists of grants, as lists of content are).
func (s *Service) List(ctx context.Context, orgID string, f SiteFilter, r paging.Request) (paging.Page[Loaded], error) {
	pub := ""
	if f.Published != nil {
		pub = strconv.FormatBool(*f.Published)
	}
	scope := paging.Scope("sites", orgID, f.Space, f.Title, pub)
	// A cursor of another list is refused before anything is read.
	if _, err := s.d.Cursors.After(scope, r.Cursor); err != nil {
		return paging.Page[Loaded]{}, err
	}
	v, err := s.d.Authz.ViewerIn(ctx, orgID)
	if err != nil {
		return paging.Page[Loaded]{}, err
	}
	items, err := store.QueryAll(ctx, s.d.Store, store.Query{Index: store.GSI1, PK: keys.OrgSites(orgID)})
	if err != nil {
		return paging.Page[Loaded]{}, fmt.Errorf("list sites: %w", err)
	}
	all, err := records.DecodeAll[model.Site](items)
	if err != nil {
		return paging.Page[Loaded]{}, err
	}
	out := []Loaded{}
	for _, site := range all {
		if !f.match(site) {
			continue
		}
		level, err := v.Level(ctx, access.SiteNode(orgID, site.ID))
		if err != nil {
			return paging.Page[Loaded]{}, err
		}
		if access.Allowed(level, opRead) {
			out = append(out, Loaded{Site: site, Role: level})
		}
	}
	return paging.Window(s.d.Cursors, scope, r, out, func(x Loaded) string { return x.Site.ID }, false)
}

// SiteChange is the input of Update: nil fields are left as they are.
type SiteChange struct {
	Title, Visibility, Basename, AgentsContext *string
	AdaptiveContent                            *bool
	DefaultSiteSpace, DefaultSiteSection       *string
	// Proxy sets the proxy origin; ClearProxy removes it.
	Proxy      *string
	ClearProxy bool
	// FrameAncestors, when not nil, replaces the origins that may frame
	// the site's pages besides its own (empty: its own only).
	FrameAncestors *[]string
}

// Update changes a site's settings and, with defaultSiteSection and
// defaultSiteSpace, its defaults (the site space is the default of the root,
// or of the default section once the section change is applied).
func (s *Service) Update(ctx context.Context, orgID, siteID string, ch SiteChange) (model.Site, model.Role, error) {
	site, role, err := s.update(ctx, orgID, siteID, ch)
	if err == nil && site.Visibility == "visitor-auth" {
		// A visitor-auth site has its private key from now on.
		err = s.ensurePublishingAuth(ctx, siteID)
	}
	return site, role, err
}

func (s *Service) update(ctx context.Context, orgID, siteID string, ch SiteChange) (model.Site, model.Role, error) {
	return s.mutate(ctx, orgID, siteID, opAdmin, func(st *structure) ([]store.Op, error) {
		site := st.s
		var extra []store.Op
		if ch.Basename != nil && *ch.Basename != site.Basename {
			ops, err := s.moveBasename(ctx, *site, *ch.Basename)
			if err != nil {
				return nil, err
			}
			extra = ops
			site.Basename = *ch.Basename
		}
		records.Set(&site.Title, ch.Title)
		if ch.Visibility != nil && *ch.Visibility != site.Visibility {
			extra = append(extra, s.record(ctx, *site, model.AuditSiteVisibility, map[string]any{"visibility": *ch.Visibility, "previous": site.Visibility}))
		}
		records.Set(&site.Visibility, ch.Visibility)
		records.Set(&site.AgentsContext, ch.AgentsContext)
		records.Set(&site.AdaptiveContent, ch.AdaptiveContent)
		if ch.FrameAncestors != nil {
			origins, err := frameOrigins(*ch.FrameAncestors)
			if err != nil {
				return nil, err
			}
			site.FrameAncestors = origins
		}
		proxy := site.Proxy
		if ch.ClearProxy {
			proxy = ""
		} else if ch.Proxy != nil {
			proxy = *ch.Proxy
		}
		if proxy != site.Proxy {
			ops, err := s.moveOrigin(ctx, *site, site.Proxy, proxy)
			if err != nil {
				return nil, err
			}
			extra = append(extra, ops...)
			site.Proxy = proxy
		}
		if ch.DefaultSiteSection != nil {
			if err := st.setDefaultSection(*ch.DefaultSiteSection, "defaultSiteSection"); err != nil {
				return nil, err
			}
		}
		if ch.DefaultSiteSpace != nil {
			level := ""
			if d := st.defaultSection(); d != nil {
				level = d.ID
			}
			if err := st.setDefaultSiteSpace(*ch.DefaultSiteSpace, level, "defaultSiteSpace"); err != nil {
				return nil, err
			}
		}
		return extra, nil
	})
}

// basenameClaim is the record of a basename reservation.
type basenameClaim struct {
	SiteID string `json:"siteId"`
}

// moveBasename returns the operations that release a site's basename and
// claim another, or Conflict when another site of the organization holds it.
func (s *Service) moveBasename(ctx context.Context, site model.Site, to string) ([]store.Op, error) {
	k := keys.SiteBasename(site.OrgID, to)
	if err := claimFor[basenameClaim](ctx, s, k, site.ID, "basename", apperr.Conflictf("basename %q is used by another site of this organization", to)); err != nil {
		return nil, err
	}
	ops := []store.Op{store.Put(records.Item(k, basenameClaim{SiteID: site.ID}, 1), store.IfNotExists)}
	if site.Basename != "" {
		old := keys.SiteBasename(site.OrgID, site.Basename)
		ops = append(ops, store.Delete(old.PK, old.SK, store.Always))
	}
	return ops, nil
}

// originClaim is the record of a proxy origin's reservation.
type originClaim struct {
	SiteID string `json:"siteId"`
	OrgID  string `json:"orgId"`
}

func (c basenameClaim) holder() string { return c.SiteID }
func (c originClaim) holder() string   { return c.SiteID }

// claimFor checks that siteID may take the reservation at k (what it
// reserves): free, or its own already; taken (a Conflict) when another
// site holds it.
func claimFor[C interface{ holder() string }](ctx context.Context, s *Service, k keys.Key, siteID, what string, taken error) error {
	claim, _, err := records.Get[C](ctx, s.d.Store, k)
	switch {
	case err == nil && claim.holder() != siteID:
		return taken
	case err != nil && !errors.Is(err, store.ErrNotFound):
		return fmt.Errorf("read %s: %w", what, err)
	}
	return nil
}

// moveOrigin returns the operations that release a site's proxy origin
// and claim another ("" for none), or Conflict when another site of the
// installation holds it: a URL names one site.
func (s *Service) moveOrigin(ctx context.Context, site model.Site, from, to string) ([]store.Op, error) {
	var ops []store.Op
	if to != "" {
		k := keys.SiteOrigin(strings.ToLower(to))
		if err := claimFor[originClaim](ctx, s, k, site.ID, "proxy origin", apperr.Conflictf("proxy %q is used by another site", to)); err != nil {
			return nil, err
		}
		ops = append(ops, store.Put(records.Item(k, originClaim{SiteID: site.ID, OrgID: site.OrgID}, 1), store.IfNotExists))
	}
	if from != "" {
		old := keys.SiteOrigin(strings.ToLower(from))
		ops = append(ops, store.Delete(old.PK, old.SK, store.Always))
	}
	return ops, nil
}

// SetPublished publishes or unpublishes a site.
// A change is told to the events (site_published, site_unpublished) once
// written; publishing a published site tells nothing.
func (s *Service) SetPublished(ctx context.Context, orgID, siteID string, published bool) (model.Site, model.Role, error) {
	changed := false
	site, role, err := s.mutate(ctx, orgID, siteID, opAdmin, func(st *structure) ([]store.Op, error) {
		changed = st.s.Published != published
		st.s.Published = published
		if !changed {
			return nil, nil
		}
		action := model.AuditSiteUnpublished
		if published {
			action = model.AuditSitePublished
		}
		return []store.Op{s.record(ctx, *st.s, action, map[string]any{"title": st.s.Title})}, nil
	})
	if err == nil && changed && s.events != nil {
		e := model.Event{Type: "site_unpublished", OrgID: orgID, Fields: map[string]any{"siteId": site.ID, "title": site.Title}}
		if published {
			e.Type = "site_published"
		}
		s.events.Emit(ctx, e)
	}
	return site, role, err
}

// Delete removes a site with everything it holds: its structure and share
// links (in the site's item), its adaptive schema and its basename. The
// spaces it showed are content of their own and stay.
func (s *Service) Delete(ctx context.Context, orgID, siteID string) error {
	l, err := s.load(ctx, orgID, siteID, opAdmin)
	if err != nil {
		return err
	}
	k, schema, cust := keys.Site(siteID), keys.SiteAdaptiveSchema(siteID), keys.SiteCustomization(siteID)
	ops := []store.Op{store.DeleteIfVersion(k.PK, k.SK, l.Version), store.Delete(schema.PK, schema.SK, store.Always),
		store.Delete(cust.PK, cust.SK, store.Always)}
	if l.Site.Basename != "" {
		b := keys.SiteBasename(orgID, l.Site.Basename)
		ops = append(ops, store.Delete(b.PK, b.SK, store.Always))
	}
	if l.Site.Proxy != "" {
		o := keys.SiteOrigin(strings.ToLower(l.Site.Proxy))
		ops = append(ops, store.Delete(o.PK, o.SK, store.Always))
	}
	err = s.d.Store.Write(ctx, ops...)
	if errors.Is(err, store.ErrConflict) {
		return apperr.Conflictf("site %s changed while being deleted; try again", siteID)
	}
	if err != nil {
		return err
	}
	gone := l.Site
	gone.Published = false
	s.siteChanged(ctx, l.Site, gone, l.Version+1)
	return s.deleteRest(ctx, siteID)
}

// deleteRest deletes what is left of a deleted site's partition (its
// redirects, unbounded in number), in batches. Nothing reads them once
// the site is gone; a failure here leaves items no request can reach, and
// deleting the site again (404) does not retry it.
func (s *Service) deleteRest(ctx context.Context, siteID string) error {
	items, err := store.QueryAll(ctx, s.d.Store, store.Query{PK: keys.SitePartition(siteID)})
	if err != nil {
		return fmt.Errorf("delete the site's redirects: %w", err)
	}
	const batch = 25
	for i := 0; i < len(items); i += batch {
		var ops []store.Op
		for _, it := range items[i:min(i+batch, len(items))] {
			ops = append(ops, store.Delete(it.PK, it.SK, store.Always))
		}
		if err := s.d.Store.Write(ctx, ops...); err != nil {
			return fmt.Errorf("delete the site's redirects: %w", err)
		}
	}
	return nil
}
