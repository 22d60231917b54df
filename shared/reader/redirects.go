package reader

import (
	"net/url"
	"strings"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/sites"
)

// redirect finds the site's live redirect of an unknown path (the exact
// source, else the longest wildcard) and the URL it leads to: an external
// URL, a section's or site space's root, or a page of the site space being
// read (a page of another site space leads to that site space's root).
// ok is false when there is none.
func (s *Service) redirect(st *site, path string) (target string, permanent, ok bool, err error) {
	source := "/" + strings.TrimPrefix(path, st.res.SiteBasePath)
	source = strings.TrimSuffix(source, "/")
	if source == "" {
		return "", false, false, nil
	}
	ms := &st.res.View.Site
	f, err := s.sites.RedirectBySource(st.vctx, ms.OrgID, ms.ID, source, st.res.View.ShareKey)
	if apperr.Is(err, apperr.NotFound) {
		return "", false, false, nil
	}
	if err != nil {
		return "", false, false, err
	}
	d := f.Redirect.Destination
	suffix := ""
	if f.Redirect.CaptureWildcard && f.Suffix != "" {
		suffix = "/" + f.Suffix
	}
	if d.Kind == sites.DestExternal {
		return d.URL + suffix, f.Redirect.Permanent, true, nil
	}
	base := strings.TrimSuffix(st.res.SiteBasePath, "/")
	u := base
	section := func(id string) {
		if sec, err := st.tree.Section(id); err == nil {
			u = base + "/" + url.PathEscape(sec.Path)
		}
	}
	switch d.Kind {
	case sites.DestSection:
		section(d.SiteSectionID)
	case sites.DestSiteSpace, sites.DestPage:
		if ss, err := st.tree.SiteSpace(d.SiteSpaceID); err == nil {
			if ss.Section != "" {
				section(ss.Section)
			}
			if !ss.Default {
				u += "/" + url.PathEscape(ss.Path)
			}
		}
		if d.Kind == sites.DestPage && d.SiteSpaceID == st.res.SiteSpace.ID {
			if p := st.nav.byID[d.PageID]; p != nil {
				return strings.TrimSuffix(st.pageURL(p), st.query) + suffix + st.query, f.Redirect.Permanent, true, nil
			}
		}
	}
	return u + suffix + st.query, f.Redirect.Permanent, true, nil
}
