package reader

import (
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
	if d.Kind == sites.DestPage && d.SiteSpaceID == st.res.SiteSpace.ID {
		if p := st.nav.byID[d.PageID]; p != nil {
			suffix := ""
			if f.Redirect.CaptureWildcard && f.Suffix != "" {
				suffix = "/" + f.Suffix
			}
			return strings.TrimSuffix(st.pageURL(p), st.query) + suffix + st.query, f.Redirect.Permanent, true, nil
		}
	}
	u, external := f.Target(strings.TrimSuffix(st.res.SiteBasePath, "/"))
	if !external {
		u += st.query
	}
	return u, f.Redirect.Permanent, true, nil
}
