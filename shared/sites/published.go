package sites

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/store"
)

// Share links and the published view.

// CreateShareLink adds a share link with a fresh secret key.
func (s *Service) CreateShareLink(ctx context.Context, orgID, siteID, name string) (model.Site, string, model.Role, error) {
	var id string
	site, role, err := s.mutate(ctx, orgID, siteID, opAdmin, func(st *structure) ([]store.Op, error) {
		if len(st.s.ShareLinks) >= MaxShareLinks {
			return nil, apperr.Conflictf("a site holds at most %d share links", MaxShareLinks)
		}
		l := model.ShareLink{ID: st.newID(), Name: name, Key: ids.Secret("", 24), Active: true, CreatedAt: st.now}
		st.s.ShareLinks = append(st.s.ShareLinks, l)
		id = l.ID
		return []store.Op{s.record(ctx, *st.s, model.AuditShareLinkCreated, map[string]any{"shareLinkId": l.ID, "name": name})}, nil
	})
	return site, id, role, err
}

// ShareLinkChange is the input of UpdateShareLink.
type ShareLinkChange struct {
	Name   *string
	Active *bool
}

// UpdateShareLink renames, activates or deactivates a share link. The key of
// an inactive link stops opening the site at once: the published view reads
// the site's item, which this write replaces.
func (s *Service) UpdateShareLink(ctx context.Context, orgID, siteID, linkID string, ch ShareLinkChange) (model.Site, model.Role, error) {
	return s.mutate(ctx, orgID, siteID, opAdmin, func(st *structure) ([]store.Op, error) {
		l, err := FindShareLink(st.s, linkID)
		if err != nil {
			return nil, err
		}
		records.Set(&l.Name, ch.Name)
		records.Set(&l.Active, ch.Active)
		return []store.Op{s.record(ctx, *st.s, model.AuditShareLinkUpdated, map[string]any{"shareLinkId": l.ID, "name": l.Name, "active": l.Active})}, nil
	})
}

// DeleteShareLink removes a share link and its key; false when the site
// has no such link.
func (s *Service) DeleteShareLink(ctx context.Context, orgID, siteID, linkID string) (bool, error) {
	_, _, err := s.mutate(ctx, orgID, siteID, opAdmin, func(st *structure) ([]store.Op, error) {
		if _, err := FindShareLink(st.s, linkID); apperr.Is(err, apperr.NotFound) {
			return nil, errAbsent
		} else if err != nil {
			return nil, err
		}
		kept := st.s.ShareLinks[:0]
		for _, l := range st.s.ShareLinks {
			if l.ID != linkID {
				kept = append(kept, l)
			}
		}
		st.s.ShareLinks = kept
		return []store.Op{s.record(ctx, *st.s, model.AuditShareLinkDeleted, map[string]any{"shareLinkId": linkID})}, nil
	})
	if errors.Is(err, errAbsent) {
		return false, nil
	}
	return err == nil, err
}

// ShareLinks returns a page of a site's share links, in creation order,
// with the site. Their keys are secrets: only administrators list them.
func (s *Service) ShareLinks(ctx context.Context, orgID, siteID string, r paging.Request) (paging.Page[model.ShareLink], Loaded, error) {
	scope := paging.Scope("share-links", siteID)
	if _, err := s.d.Cursors.After(scope, r.Cursor); err != nil {
		return paging.Page[model.ShareLink]{}, Loaded{}, err
	}
	l, err := s.load(ctx, orgID, siteID, opAdmin)
	if err != nil {
		return paging.Page[model.ShareLink]{}, Loaded{}, err
	}
	sort.SliceStable(l.Site.ShareLinks, func(i, j int) bool { return l.Site.ShareLinks[i].ID < l.Site.ShareLinks[j].ID })
	page, err := paging.Window(s.d.Cursors, scope, r, l.Site.ShareLinks, func(x model.ShareLink) string { return x.ID }, false)
	if err != nil {
		return paging.Page[model.ShareLink]{}, Loaded{}, err
	}
	return page, l, nil
}

// FindShareLink returns the share link of site with the given id, NotFound
// when it has none.
func FindShareLink(site *model.Site, id string) (*model.ShareLink, error) {
	for i := range site.ShareLinks {
		if site.ShareLinks[i].ID == id {
			return &site.ShareLinks[i], nil
		}
	}
	return nil, apperr.NotFoundf("share link %s not found", id)
}

// resolveShareKey checks a shareKey parameter against the site's active
// links and returns the key published URLs carry: the key on a share-link
// site, "" otherwise. A key that opens no active link is refused.
func resolveShareKey(site model.Site, key string) (string, error) {
	if key == "" {
		return "", nil
	}
	ok := false
	for _, l := range site.ShareLinks {
		// Compare in constant time: the key is a secret.
		if l.Active && subtle.ConstantTimeCompare([]byte(l.Key), []byte(key)) == 1 {
			ok = true
		}
	}
	if !ok {
		return "", apperr.Forbiddenf("shareKey: no active share link of this site has this key")
	}
	if site.Visibility != "share-link" {
		return "", nil
	}
	return key, nil
}

// View is a site with what its views need: the caller's role, the key that
// published URLs carry, and the spaces its site spaces show.
type View struct {
	Loaded
	// OrgBase is https://<hostname>.<SITES_DOMAIN> when SITES_DOMAIN is set
	// and the site's organization holds its hostname (SitesBase): a site
	// with a basename is published under it.
	OrgBase  string
	ShareKey string
	Spaces   map[string]model.Space
	// Customizations, in the published view only.
	Customizations *Customizations
}

// ReadStructure reads a site for a list of its sections or site spaces:
// the site and the spaces of its site spaces, with shareKey resolved.
func (s *Service) ReadStructure(ctx context.Context, orgID, siteID, shareKey string) (View, error) {
	l, err := s.load(ctx, orgID, siteID, opRead)
	if err != nil {
		return View{}, err
	}
	return s.view(ctx, l, shareKey, false)
}

// Structure reads a site for its structure (getSiteStructure): the site
// and the spaces of its site spaces, with shareKey resolved. A visitor's
// site token may read it (deleted spaces are then left out, as in the
// published view).
func (s *Service) Structure(ctx context.Context, orgID, siteID, shareKey string) (View, error) {
	l, err := s.loadRead(ctx, orgID, siteID, true)
	if err != nil {
		return View{}, err
	}
	_, visitor := access.VisitorFrom(ctx)
	return s.view(ctx, l, shareKey, visitor)
}

// Sections returns a page of a site's sections in display order, with the
// site's view (its spaces, and shareKey resolved).
func (s *Service) Sections(ctx context.Context, orgID, siteID, shareKey string, r paging.Request) (paging.Page[*model.SiteSection], View, error) {
	return structurePage(ctx, s, paging.Scope("sections", siteID, shareKey), orgID, siteID, shareKey, r,
		func(st *structure) ([]*model.SiteSection, func(*model.SiteSection) string) {
			return st.sections(), st.sectionKey
		})
}

// Groups returns a page of a site's section groups in display order, with
// the site's view.
func (s *Service) Groups(ctx context.Context, orgID, siteID string, r paging.Request) (paging.Page[*model.SiteSectionGroup], View, error) {
	return structurePage(ctx, s, paging.Scope("section-groups", siteID), orgID, siteID, "", r,
		func(st *structure) ([]*model.SiteSectionGroup, func(*model.SiteSectionGroup) string) {
			var groups []*model.SiteSectionGroup
			for _, t := range st.top() {
				if t.group != nil {
					groups = append(groups, t.group)
				}
			}
			return groups, func(g *model.SiteSectionGroup) string { return orderKey(g.Order, g.ID) }
		})
}

// SiteSpaces returns a page of a site's site spaces in display order, only
// the default ones (def true) or only the others (def false) when def is
// set, with the site's view (its spaces, and shareKey resolved).
func (s *Service) SiteSpaces(ctx context.Context, orgID, siteID, shareKey string, def *bool, r paging.Request) (paging.Page[*model.SiteSpace], View, error) {
	defPart := ""
	if def != nil {
		defPart = strconv.FormatBool(*def)
	}
	return structurePage(ctx, s, paging.Scope("site-spaces", siteID, shareKey, defPart), orgID, siteID, shareKey, r,
		func(st *structure) ([]*model.SiteSpace, func(*model.SiteSpace) string) {
			var all []*model.SiteSpace
			for _, ss := range st.siteSpaces() {
				if def == nil || ss.Default == *def {
					all = append(all, ss)
				}
			}
			return all, st.siteSpaceKey
		})
}

// structurePage is a page (cursor scope) of a list of the site's
// structure, which items gives in display order with its items' key, and
// the site's view (shareKey resolved). The cursor is checked before the
// site is read.
func structurePage[T any](ctx context.Context, s *Service, scope, orgID, siteID, shareKey string, r paging.Request,
	items func(*structure) ([]T, func(T) string)) (paging.Page[T], View, error) {
	if _, err := s.d.Cursors.After(scope, r.Cursor); err != nil {
		return paging.Page[T]{}, View{}, err
	}
	v, err := s.ReadStructure(ctx, orgID, siteID, shareKey)
	if err != nil {
		return paging.Page[T]{}, View{}, err
	}
	list, key := items(&structure{s: &v.Site})
	page, err := paging.Window(s.d.Cursors, scope, r, list, key, false)
	if err != nil {
		return paging.Page[T]{}, View{}, err
	}
	return page, v, nil
}

// Published reads a published site for its published view, with its
// customization (the site's, and each site space's). An unpublished site
// is NotFound here. The cost is bounded whatever the size of the
// structure: the caller's membership and grants on the site (one batch,
// and one more for a member of teams), one batch of the site's item and its
// customization, and the spaces (one query of the organization's spaces,
// or a few reads; see spacesOf). A visitor's site token may read it.
func (s *Service) Published(ctx context.Context, orgID, siteID, shareKey string) (View, error) {
	vis, visitor := access.VisitorFrom(ctx)
	var role model.Role
	if !visitor {
		level, err := s.authorize(ctx, orgID, siteID, opRead)
		if err != nil {
			return View{}, err
		}
		role = level
	}
	site, rec := keys.Site(siteID), keys.SiteCustomization(siteID)
	items, err := s.d.Store.BatchGet(ctx, []store.ItemKey{{PK: site.PK, SK: site.SK}, {PK: rec.PK, SK: rec.SK}})
	if err != nil {
		return View{}, fmt.Errorf("read site: %w", err)
	}
	if items[0].PK == "" {
		return View{}, apperr.NotFoundf("site %s not found", siteID)
	}
	l := Loaded{Version: items[0].Version, Role: role}
	if l.Site, err = records.Decode[model.Site](items[0]); err != nil {
		return View{}, err
	}
	if l.Site.OrgID != orgID {
		return View{}, apperr.NotFoundf("site %s not found", siteID)
	}
	if visitor && !vis.MayReadSite(orgID, siteID) {
		return View{}, apperr.NotFoundf("site %s not found", siteID)
	}
	if !l.Site.Published && !(visitor && vis.Preview) {
		return View{}, apperr.NotFoundf("site %s is not published", siteID)
	}
	if !visitor {
		// A visitor's token names the links they see (view, seenBy).
		l.Site = withoutDrafts(l.Site)
	}
	var cust customizationRecord
	if items[1].PK != "" {
		if cust, err = records.Decode[customizationRecord](items[1]); err != nil {
			return View{}, err
		}
	}
	v, err := s.view(ctx, l, shareKey, true)
	if err != nil {
		return View{}, err
	}
	v.Customizations = &Customizations{Site: cust.siteSettings(), SiteSpaces: map[string]Customization{}}
	for _, ss := range l.Site.SiteSpaces {
		v.Customizations.SiteSpaces[ss.ID] = cust.siteSpaceSettings(ss.ID)
	}
	return v, nil
}

// Customizations are a published site's settings: the site's and each of
// its site spaces' (the site's with the site space's override).
type Customizations struct {
	Site       Customization
	SiteSpaces map[string]Customization
}

// ViewOf returns the view of a site just written.
func (s *Service) ViewOf(ctx context.Context, site model.Site, role model.Role) (View, error) {
	return s.view(ctx, Loaded{Site: site, Role: role}, "", false)
}

func (s *Service) view(ctx context.Context, l Loaded, shareKey string, liveOnly bool) (View, error) {
	key, err := resolveShareKey(l.Site, shareKey)
	if err != nil {
		return View{}, err
	}
	var orgBase string
	if ByBasename(l.Site) {
		if orgBase, err = s.SitesBase(ctx, l.Site.OrgID); err != nil {
			return View{}, err
		}
	}
	if vis, ok := access.VisitorFrom(ctx); ok && vis.SiteID == l.Site.ID {
		// A visitor's token reads only what the site showed them.
		l.Site = seenBy(l.Site, vis)
	}
	var spaceIDs []string
	for _, ss := range l.Site.SiteSpaces {
		spaceIDs = append(spaceIDs, ss.SpaceID)
	}
	sps, err := s.spacesOf(ctx, l.Site.OrgID, spaceIDs, liveOnly)
	if err != nil {
		return View{}, err
	}
	return View{Loaded: l, OrgBase: orgBase, ShareKey: key, Spaces: sps}, nil
}

// fewSpaces is the most spaces read one by one; more are read with one
// query of the organization's live spaces.
const fewSpaces = 4

// spacesOf returns the spaces with the given ids that belong to orgID, by
// id. liveOnly leaves deleted spaces out (the published view shows no
// deleted content); otherwise they are read one by one.
func (s *Service) spacesOf(ctx context.Context, orgID string, spaceIDs []string, liveOnly bool) (map[string]model.Space, error) {
	out := map[string]model.Space{}
	want := map[string]bool{}
	for _, id := range spaceIDs {
		want[id] = true
	}
	if len(want) > fewSpaces {
		sps, err := spaces.AllLive(ctx, s.d.Store, orgID)
		if err != nil {
			return nil, err
		}
		for _, sp := range sps {
			if want[sp.ID] {
				out[sp.ID] = sp
			}
		}
	}
	for id := range want {
		if _, ok := out[id]; ok || (liveOnly && len(want) > fewSpaces) {
			continue
		}
		sp, _, err := spaces.Read(ctx, s.d.Store, id)
		// A space transferred to another organization is no longer this
		// site's content: it is left out like a missing one.
		if apperr.Is(err, apperr.NotFound) || (err == nil && (sp.OrgID != orgID || (liveOnly && sp.DeletedAt != nil))) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read space %s: %w", id, err)
		}
		out[id] = sp
	}
	return out, nil
}

// SitesBase is where the organization's sites with a basename are
// published when SITES_DOMAIN is set and it holds its hostname
// (orgs.HostnameOrg): https://<hostname>.<SITES_DOMAIN>; else "" (no read
// when SITES_DOMAIN is not set).
func (s *Service) SitesBase(ctx context.Context, orgID string) (string, error) {
	if s.d.SitesDomain == "" {
		return "", nil
	}
	h, err := orgs.HeldHostname(ctx, s.d.Store, orgID)
	if err != nil || h == "" {
		return "", err
	}
	return "https://" + h + "." + s.d.SitesDomain, nil
}

// ByBasename tells a site published by its basename (no proxy origin, no
// hostname): the only kind its organization's hostname (SitesBase) can
// place, so the others skip reading it.
func ByBasename(site model.Site) bool {
	return site.Proxy == "" && site.Hostname == "" && site.Basename != ""
}

// PublishedBase is the root URL of a site's published content: its proxy
// origin, its hostname, its basename under its organization's hostname
// (orgBase: View.OrgBase), or a path under the public URL appURL, by
// basename within the organization or else by the site's id.
func PublishedBase(site model.Site, orgBase, appURL string) string {
	switch {
	case site.Proxy != "":
		return "https://" + site.Proxy
	case site.Hostname != "":
		return "https://" + site.Hostname
	case site.Basename != "" && orgBase != "":
		return orgBase + "/" + url.PathEscape(site.Basename)
	case site.Basename != "":
		return strings.TrimSuffix(appURL, "/") + "/sites/" + site.OrgID + "/" + url.PathEscape(site.Basename)
	}
	return strings.TrimSuffix(appURL, "/") + "/sites/" + site.ID
}
