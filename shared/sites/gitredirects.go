package sites

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// reSource is the form of a redirect's source (the API's pattern, without
// wildcards).
var reSource = regexp.MustCompile(`^/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*$`)

// SyncGitRedirects makes a space's repository redirects (.gitbook.yaml's:
// old path, relative to the space's root, to a page id) live permanent
// redirects of every site space of the organization's sites that shows the
// space: the source is the old path under the site space's published path
// (its section's path, then its own unless it is its level's default),
// the destination the page. The redirects it made before for that site
// space go when the repository no longer has them; a source the site
// already redirects otherwise (made through the API) is left as it is.
// It checks no rights: Git Sync's import calls it for a caller who could
// import into the space.
func (s *Service) SyncGitRedirects(ctx context.Context, orgID, spaceID string, redirects map[string]string) error {
	items, err := store.QueryAll(ctx, s.d.Store, store.Query{Index: store.GSI1, PK: keys.OrgSites(orgID)})
	if err != nil {
		return fmt.Errorf("list sites: %w", err)
	}
	all, err := records.DecodeAll[model.Site](items)
	if err != nil {
		return err
	}
	for i := range all {
		site := &all[i]
		tree := TreeOf(site)
		for _, ss := range tree.All() {
			if ss.SpaceID != spaceID {
				continue
			}
			prefix := ""
			if ss.Section != "" {
				if sec, err := tree.Section(ss.Section); err == nil {
					prefix += "/" + url.PathEscape(sec.Path)
				}
			}
			if !ss.Default {
				prefix += "/" + url.PathEscape(ss.Path)
			}
			if err := s.syncSiteSpaceRedirects(ctx, site.ID, ss.ID, prefix, redirects); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *Service) syncSiteSpaceRedirects(ctx context.Context, siteID, siteSpaceID, prefix string, redirects map[string]string) error {
	origin := "git:" + siteSpaceID
	want := map[string]string{} // source -> page
	for from, page := range redirects {
		var segs []string
		for _, seg := range strings.Split(strings.Trim(from, "/"), "/") {
			segs = append(segs, url.PathEscape(seg))
		}
		if src := prefix + "/" + strings.Join(segs, "/"); reSource.MatchString(src) && len(src) <= 512 {
			want[src] = page
		}
	}
	items, err := store.QueryAll(ctx, s.d.Store, store.Query{PK: keys.SitePartition(siteID), SKPrefix: keys.SiteRedirectPrefix("live", "E")})
	if err != nil {
		return fmt.Errorf("read redirects: %w", err)
	}
	have, err := records.DecodeAll[Redirect](items)
	if err != nil {
		return err
	}
	taken := map[string]Redirect{}
	for _, r := range have {
		taken[r.Source] = r
	}
	var ops []store.Op
	flush := func(force bool) error {
		if len(ops) == 0 || (!force && len(ops) < store.MaxTransactionOps-2) {
			return nil
		}
		err := s.d.Store.Write(ctx, ops...)
		ops = ops[:0]
		if errors.Is(err, store.ErrConflict) {
			return nil // a redirect made meanwhile through the API wins
		}
		return err
	}
	for _, r := range have {
		if page, ok := want[r.Source]; r.Origin == origin && (!ok || page != r.Destination.PageID) {
			k, p := redirectKey(siteID, r.Source, false), keys.SiteRedirectID(siteID, r.ID)
			ops = append(ops, store.Delete(k.PK, k.SK, store.Always), store.Delete(p.PK, p.SK, store.Always))
			delete(taken, r.Source)
			if err := flush(false); err != nil {
				return err
			}
		}
	}
	if err := flush(true); err != nil {
		return err
	}
	sources := slices.Sorted(maps.Keys(want))
	now := s.d.Clock()
	for _, src := range sources {
		if _, ok := taken[src]; ok {
			continue // kept as it is, or made through the API
		}
		r := Redirect{ID: ids.New(now), Source: src, Permanent: true, CreatedAt: now, UpdatedAt: now, Origin: origin,
			Destination: RedirectDestination{Kind: DestPage, SiteSpaceID: siteSpaceID, PageID: want[src]}}
		ops = append(ops, store.Put(records.Item(redirectKey(siteID, r.Source, false), r, 1), store.IfNotExists),
			store.Put(records.Item(keys.SiteRedirectID(siteID, r.ID), redirectPointer{Source: r.Source}, 1), store.IfNotExists))
		if err := flush(false); err != nil {
			return err
		}
	}
	return flush(true)
}
