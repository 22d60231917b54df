package sites

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/sitetoken"
	"github.com/galleydocs/galley/shared/store"
)

// Resolving a published URL (doc.go, "Resolving published URLs").

// Resolved is what a published URL names.
type Resolved struct {
	View View
	// Section is the section the URL is in (nil for a site without sections).
	Section   *model.SiteSection
	SiteSpace *model.SiteSpace
	Space     model.Space
	// SiteBase is the site's root as the URL names it: "https://" and the
	// proxy origin, or a URL under the public URL (no trailing slash).
	SiteBase string
	// SiteBasePath and BasePath are the paths of the site's root and of the
	// site space's root, with a trailing slash.
	SiteBasePath, BasePath string
	// CanonicalPath is the site space's root relative to the site's, as the
	// published URLs name it (a section's path even for the default one).
	CanonicalPath string
	// Pathname is the rest of the path: a page's path in the space, "" for
	// its first page.
	Pathname string
	// APIToken is the visitor's site token.
	APIToken string
	// Claims are the visitor's claims (a visitor-auth site's token's),
	// with the unsigned ones under "unsigned"; View shows what they allow.
	Claims map[string]any
	// VisitorToken is the visitor token that opened a visitor-auth site.
	VisitorToken string
	// Preview is the preview token that opened the site (a member's
	// preview URL's, see Preview), empty for a visitor's.
	Preview string
}

// maxOriginDepth bounds the leading parts of a URL's path tried as a proxy
// origin (one batch read).
const maxOriginDepth = 10

func notFoundURL(raw string) error {
	return apperr.NotFoundf("no published content found for the URL %s", raw)
}

// ResolveURL finds the published content a visitor's URL names: a site by
// its proxy origin (the URL's host and the leading parts of its path), or
// under the public URL (appURL) by /sites/<orgId>/<basename> or
// /sites/<siteId>; then its section and site space by the next parts of the
// path (the defaults when they name none); the rest is the page's path in
// the space. Anyone may ask (the renderer asks for its visitors): an
// unpublished site, a share-link site without an active key in the URL's
// shareKey and anything unknown are NotFound; a visitor-auth site without
// a valid visitor token (the URL's jwt_token, else vis.Token; see
// VerifyVisitorToken) is Unauthorized (a *VisitorAuthError). Sections and
// site spaces whose condition does not hold for the visitor's claims (the
// token's, and the unsigned ones of the URL's visitor.<name> parameters
// and vis.Unsigned) are left out (visibleTo). The answer carries a site
// token for the visitor, valid sitetoken.TTL, naming only the spaces they
// see.
func (s *Service) ResolveURL(ctx context.Context, raw, appURL string, vis Visitor) (Resolved, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Resolved{}, apperr.Field("url", "must be an absolute http(s) URL")
	}
	segs := splitPath(u.EscapedPath())
	site, base, rest, err := s.findSite(ctx, u, segs, appURL)
	if err != nil {
		return Resolved{}, err
	}
	if site.ID == "" {
		return Resolved{}, notFoundURL(raw)
	}
	q := u.Query()
	pv, previewTok, err := s.previewOf(ctx, site, q.Get(PreviewParam), vis)
	if err != nil {
		return Resolved{}, err
	}
	if !site.Published && pv == nil {
		return Resolved{}, notFoundURL(raw)
	}
	claims := map[string]any{}
	switch {
	case pv != nil:
		// A member's preview: as the visitor its claims describe, whatever
		// the site's visibility.
		for k, v := range pv.Visitor {
			claims[k] = v
		}
	case site.Visibility == "visitor-auth":
		tok := q.Get("jwt_token")
		if tok == "" {
			tok = vis.Token
		}
		if claims, err = s.visitorClaims(ctx, site.ID, tok); err != nil {
			return Resolved{}, err
		}
	}
	// The signed claims are the token's; the unsigned ones, the URL's.
	if claims["unsigned"], err = s.unsignedClaims(ctx, site.ID, q, vis); err != nil {
		return Resolved{}, err
	}
	shareKey := q.Get("shareKey")
	key, err := resolveShareKey(site, shareKey)
	if site.Visibility == "share-link" && (err != nil || key == "") && pv == nil {
		return Resolved{}, notFoundURL(raw)
	}
	if err != nil {
		key = "" // a wrong key on a site that needs none opens it all the same
	}
	v, err := s.view(ctx, Loaded{Site: visibleTo(site, claims, pv != nil && pv.Draft)}, "", true)
	if err != nil {
		return Resolved{}, err
	}
	v.ShareKey = key
	r := Resolved{View: v, SiteBase: base, Claims: claims, Preview: previewTok}
	if site.Visibility == "visitor-auth" && pv == nil {
		r.VisitorToken = q.Get("jwt_token")
		if r.VisitorToken == "" {
			r.VisitorToken = vis.Token
		}
	}
	bu, _ := url.Parse(base)
	r.SiteBasePath = strings.TrimSuffix(bu.EscapedPath(), "/") + "/"
	r.BasePath = r.SiteBasePath
	tree := TreeOf(&v.Site)
	level := ""
	if len(site.Sections) > 0 {
		for _, sec := range tree.Sections() {
			if len(rest) > 0 && sec.Path == rest[0] {
				r.Section, rest = sec, rest[1:]
				r.BasePath += url.PathEscape(sec.Path) + "/"
				break
			}
		}
		if r.Section == nil {
			for _, sec := range tree.Sections() {
				if sec.Default {
					r.Section = sec
				}
			}
		}
		if r.Section == nil {
			return Resolved{}, notFoundURL(raw)
		}
		level = r.Section.ID
	}
	for _, ss := range tree.Level(level) {
		if !ss.Default && len(rest) > 0 && ss.Path == rest[0] {
			r.SiteSpace, rest = ss, rest[1:]
			r.BasePath += url.PathEscape(ss.Path) + "/"
			break
		}
	}
	if r.SiteSpace == nil {
		for _, ss := range tree.Level(level) {
			if ss.Default {
				r.SiteSpace = ss
			}
		}
	}
	if r.SiteSpace == nil {
		return Resolved{}, notFoundURL(raw)
	}
	if r.Section != nil {
		r.CanonicalPath = url.PathEscape(r.Section.Path) + "/"
	}
	if !r.SiteSpace.Default {
		r.CanonicalPath += url.PathEscape(r.SiteSpace.Path) + "/"
	}
	sp, ok := v.Spaces[r.SiteSpace.SpaceID]
	if !ok {
		return Resolved{}, notFoundURL(raw)
	}
	r.Space = sp
	r.Pathname = strings.Join(rest, "/")
	ids := slices.Sorted(maps.Keys(v.Spaces))
	tokKey, err := s.d.Secret.Derive(ctx, sitetoken.Purpose)
	if err != nil {
		return Resolved{}, err
	}
	tc := sitetoken.Claims{Site: site.ID, Organization: site.OrgID, Spaces: ids}
	for _, l := range v.Site.ExternalLinks {
		tc.Links = append(tc.Links, l.ID)
	}
	if pv != nil {
		tc.Preview, tc.Expires = true, pv.Expires
	}
	r.APIToken, err = sitetoken.Issue(tokKey, tc, s.d.Clock())
	return r, err
}

// splitPath splits an escaped path into its unescaped, non-empty parts.
func splitPath(p string) []string {
	var out []string
	for _, seg := range strings.Split(p, "/") {
		if seg == "" {
			continue
		}
		if un, err := url.PathUnescape(seg); err == nil {
			seg = un
		}
		out = append(out, seg)
	}
	return out
}

// findSite finds the site a URL names, its root URL as the URL names it,
// and the parts of the path after that root. A zero site when none.
func (s *Service) findSite(ctx context.Context, u *url.URL, segs []string, appURL string) (model.Site, string, []string, error) {
	host := strings.ToLower(u.Host)
	// Proxy origins: the host and each leading part of the path.
	var ks []store.ItemKey
	var origins []string
	for n := min(len(segs), maxOriginDepth); n >= 0; n-- {
		o := host
		if n > 0 {
			o += "/" + strings.ToLower(strings.Join(segs[:n], "/"))
		}
		k := keys.SiteOrigin(o)
		ks = append(ks, store.ItemKey{PK: k.PK, SK: k.SK})
		origins = append(origins, o)
	}
	// Under the public URL: /sites/<orgId>/<basename> or /sites/<siteId>
	// (the host is not checked: the renderer may serve them from its own).
	app, _ := url.Parse(appURL)
	prefix := splitPath(app.EscapedPath())
	under := len(segs) >= len(prefix)+2 && segs[len(prefix)] == "sites"
	for i := range prefix {
		under = under && segs[i] == prefix[i]
	}
	var at int
	if under {
		at = len(prefix) + 1
		id := segs[at]
		sk := keys.Site(id)
		ks = append(ks, store.ItemKey{PK: sk.PK, SK: sk.SK})
		if len(segs) > at+1 {
			bk := keys.SiteBasename(id, segs[at+1])
			ks = append(ks, store.ItemKey{PK: bk.PK, SK: bk.SK})
		}
	}
	items, err := s.d.Store.BatchGet(ctx, ks)
	if err != nil {
		return model.Site{}, "", nil, fmt.Errorf("find the site of a URL: %w", err)
	}
	for i, o := range origins {
		if items[i].PK == "" {
			continue
		}
		c, err := records.Decode[originClaim](items[i])
		if err != nil {
			return model.Site{}, "", nil, err
		}
		site, err := s.readSite(ctx, c.SiteID)
		if err != nil || site.ID == "" || strings.ToLower(site.Proxy) != o {
			return site, "", nil, err
		}
		return site, "https://" + site.Proxy, segs[strings.Count(o, "/"):], nil
	}
	// <hostname>.<SITES_DOMAIN>/<basename>: a site of the organization
	// holding that hostname (orgs.HostnameOrg). A host under the sites
	// domain names nothing else.
	if dom := s.d.SitesDomain; dom != "" && strings.HasSuffix(host, "."+dom) {
		label := strings.TrimSuffix(host, "."+dom)
		if len(segs) == 0 || strings.Contains(label, ".") {
			return model.Site{}, "", nil, nil
		}
		orgID, err := orgs.HostnameOrg(ctx, s.d.Store, label)
		if err != nil || orgID == "" {
			return model.Site{}, "", nil, err
		}
		c, _, err := records.Get[basenameClaim](ctx, s.d.Store, keys.SiteBasename(orgID, segs[0]))
		if errors.Is(err, store.ErrNotFound) {
			return model.Site{}, "", nil, nil
		}
		if err != nil {
			return model.Site{}, "", nil, fmt.Errorf("find the site of a URL: %w", err)
		}
		site, err := s.readSite(ctx, c.SiteID)
		if err != nil || site.ID == "" || site.OrgID != orgID || site.Basename != segs[0] {
			return model.Site{}, "", nil, err
		}
		return site, "https://" + host + "/" + url.PathEscape(site.Basename), segs[1:], nil
	}
	if !under {
		return model.Site{}, "", nil, nil
	}
	appBase := strings.TrimSuffix(appURL, "/") + "/sites/"
	if len(items) > len(origins)+1 && items[len(origins)+1].PK != "" {
		c, err := records.Decode[basenameClaim](items[len(origins)+1])
		if err != nil {
			return model.Site{}, "", nil, err
		}
		site, err := s.readSite(ctx, c.SiteID)
		if err != nil || site.ID == "" || site.OrgID != segs[at] || site.Basename != segs[at+1] {
			return model.Site{}, "", nil, err
		}
		return site, appBase + site.OrgID + "/" + url.PathEscape(site.Basename), segs[at+2:], nil
	}
	if it := items[len(origins)]; it.PK != "" {
		site, err := records.Decode[model.Site](it)
		if err != nil {
			return model.Site{}, "", nil, err
		}
		return site, appBase + site.ID, segs[at+1:], nil
	}
	return model.Site{}, "", nil, nil
}

// visitorClaims checks a visitor token of a visitor-auth site and returns
// its claims; a *VisitorAuthError when it is missing or refused (or the
// site has no private key yet).
func (s *Service) visitorClaims(ctx context.Context, siteID, token string) (map[string]any, error) {
	a, _, err := s.readPublishingAuth(ctx, siteID)
	if err != nil {
		return nil, err
	}
	fail := func(msg string) error {
		return &VisitorAuthError{Err: apperr.New(apperr.Unauthorized, "%s", msg), FallbackURL: a.FallbackURL}
	}
	if token == "" {
		return nil, fail("this site is for authenticated visitors: a visitor token (jwt_token) is required")
	}
	claims, err := VerifyVisitorToken(a.PrivateKey, token, s.d.Clock())
	if err != nil {
		return nil, fail("the visitor token is invalid or expired")
	}
	delete(claims, "unsigned") // the unsigned claims are the URL's
	return claims, nil
}

// readSite reads a site by id; the zero site when there is none.
func (s *Service) readSite(ctx context.Context, siteID string) (model.Site, error) {
	site, _, err := records.Get[model.Site](ctx, s.d.Store, keys.Site(siteID))
	if errors.Is(err, store.ErrNotFound) {
		return model.Site{}, nil
	}
	return site, err
}
