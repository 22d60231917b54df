package sites

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// The CDN in front of the reader (docs/reader.md, "CDN"): the sites family
// knows the URLs a site is read at, so it says which paths a change made
// stale, to the process's CDN (deps.Deps.CDN; nil: nothing is done).

// cdnTimeout bounds an invalidation, which a change's answer waits for.
const cdnTimeout = 10 * time.Second

// RootFiles are the files at a site's root whose content lists every site
// space's pages: a change of one space's pages changes them too.
var rootFiles = [...]string{"sitemap.xml", "llms.txt", "llms-full.txt"}

// siteRoots are the paths (from "/", no trailing slash) under which the
// reader serves a site (its routes, docs/reader.md): /sites/<siteId>
// always, /sites/<orgId>/<basename> with a basename, /~proxy/<path> for
// its proxy origin (a custom domain's path is empty: /~proxy), and
// /~proxy/<basename> under the organizations' sites domain (whichever
// organization holds the hostname: the path does not name it).
func (s *Service) siteRoots(site model.Site) []string {
	roots := []string{"/sites/" + url.PathEscape(site.ID)}
	if site.Basename != "" {
		roots = append(roots, "/sites/"+url.PathEscape(site.OrgID)+"/"+url.PathEscape(site.Basename))
		if s.d.SitesDomain != "" {
			roots = append(roots, "/~proxy/"+url.PathEscape(site.Basename))
		}
	}
	if site.Proxy != "" {
		_, path, _ := strings.Cut(site.Proxy, "/")
		root := "/~proxy"
		for _, seg := range strings.Split(path, "/") {
			if seg != "" {
				root += "/" + url.PathEscape(seg)
			}
		}
		roots = append(roots, root)
	}
	return roots
}

// withWildcards returns each root and the wildcard of what is under it (a root
// without the slash is a URL of its own; "<root>*" would also name the
// siblings whose names start the same).
func withWildcards(roots []string) []string {
	out := make([]string, 0, 2*len(roots))
	for _, r := range roots {
		out = append(out, r, r+"/*")
	}
	return out
}

// invalidate tells the CDN, if any, that paths are stale because of the
// change ref. A failure is logged: the change stands, and the CDN's copies
// expire by themselves (s-maxage).
func (s *Service) invalidate(ctx context.Context, ref string, paths []string) {
	if s.d.CDN == nil || len(paths) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cdnTimeout)
	defer cancel()
	if err := s.d.CDN.Invalidate(ctx, ref, paths); err != nil {
		s.d.Logger.WarnContext(ctx, "CDN not invalidated: its copies expire by themselves", "ref", ref, "err", err.Error())
	}
}

// siteChanged invalidates every URL of a site whose record was written
// (version is the record's new version): settings, structure, publishing.
// A site unpublished before and after has no copies (its URLs answered
// 404, which is not stored).
func (s *Service) siteChanged(ctx context.Context, before, after model.Site, version int64) {
	if !before.Published && !after.Published {
		return
	}
	paths := withWildcards(s.siteRoots(before))
	paths = append(paths, withWildcards(s.siteRoots(after))...)
	s.invalidate(ctx, fmt.Sprintf("site-%s-%d", after.ID, version), paths)
}

// SpaceChanged invalidates the published URLs that show a space whose
// content is now revision (a merge, an import): under each published site
// of the organization, the roots of the site spaces showing it and the
// site's root files (sitemap.xml, llms.txt, llms-full.txt). A site space
// that is the default of the site's root level (or of its default section
// at the root) is read at the site's root: the whole site is invalidated.
// The invalidation's reference is the space and revision: telling the
// same revision twice asks the same invalidation. It checks no rights (the
// composition root calls it for content events); without a CDN it does
// nothing, not even a read.
func (s *Service) SpaceChanged(ctx context.Context, orgID, spaceID, revision string) error {
	if s.d.CDN == nil {
		return nil
	}
	paths, err := s.spacePaths(ctx, orgID, spaceID)
	if err != nil {
		return err
	}
	s.invalidate(ctx, "space-"+spaceID+"-"+revision, paths)
	return nil
}

// spacePaths are the paths SpaceChanged invalidates.
func (s *Service) spacePaths(ctx context.Context, orgID, spaceID string) ([]string, error) {
	items, err := store.QueryAll(ctx, s.d.Store, store.Query{Index: store.GSI1, PK: keys.OrgSites(orgID)})
	if err != nil {
		return nil, fmt.Errorf("list sites: %w", err)
	}
	all, err := records.DecodeAll[model.Site](items)
	if err != nil {
		return nil, err
	}
	var paths []string
	for i := range all {
		site := &all[i]
		if !site.Published {
			continue
		}
		prefixes, shown := siteSpacePrefixes(site, spaceID)
		if !shown {
			continue
		}
		for _, root := range s.siteRoots(*site) {
			for _, p := range prefixes {
				paths = append(paths, root+p)
				if p != "" {
					// The site space's root without its slash.
					paths = append(paths, root+strings.TrimSuffix(p, "/*"))
				}
			}
			for _, f := range rootFiles {
				paths = append(paths, root+"/"+f)
			}
		}
	}
	return paths, nil
}

// siteSpacePrefixes are the wildcards, relative to a site's root, under
// which the reader serves the site spaces showing spaceID (as
// ResolveURL reads a path: a section's path, else the default section; a
// site space's path, else its level's default), and whether any does.
// "/*" alone (the whole site) stands for them all when one is read at the
// site's root.
func siteSpacePrefixes(site *model.Site, spaceID string) ([]string, bool) {
	tree := TreeOf(site)
	var out []string
	shown := false
	for _, ss := range tree.All() {
		if ss.SpaceID != spaceID {
			continue
		}
		shown = true
		var sections []string // the paths the site space's section is read at
		if ss.Section == "" {
			sections = []string{""}
		} else if sec, err := tree.Section(ss.Section); err == nil {
			sections = append(sections, "/"+url.PathEscape(sec.Path))
			if sec.Default {
				sections = append(sections, "")
			}
		}
		for _, sec := range sections {
			if ss.Default {
				if sec == "" {
					return []string{"/*"}, true
				}
				out = append(out, sec+"/*")
				continue
			}
			out = append(out, sec+"/"+url.PathEscape(ss.Path)+"/*")
		}
	}
	return out, shown
}
