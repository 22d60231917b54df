package sites

import (
	"context"
	"net/url"
	"strings"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/sitetoken"
)

// Previews (doc.go, "Previews").

// PreviewParam is the query parameter of a preview URL carrying its token.
const PreviewParam = "preview"

// PreviewRequest is what a member asks to preview: a site space (its
// default when empty) or a target URL under the site's published root, as
// a visitor with Claims (rison, see ParseRison), with draft items or not.
type PreviewRequest struct {
	SiteSpace, Claims, Target string
	Draft                     bool
	// AppURL is the public URL published URLs are under.
	AppURL string
}

// Preview returns a URL showing the site as visitors would see it once
// published, valid sitetoken.TTL: the site's published URL (of the site
// space asked, or the target) with a preview token (PreviewParam). Members
// who may read the site ask for it; the URL opens the site to whoever holds
// it until it expires, published or not, whatever its visibility, as the
// visitor the claims describe.
func (s *Service) Preview(ctx context.Context, orgID, siteID string, in PreviewRequest) (string, error) {
	l, err := s.load(ctx, orgID, siteID, opRead)
	if err != nil {
		return "", err
	}
	claims := map[string]any{}
	if in.Claims != "" {
		v, err := ParseRison(in.Claims)
		m, ok := v.(map[string]any)
		if err != nil || !ok {
			return "", apperr.Field("claims", "want a rison object of the visitor's claims, such as (plan:pro,beta:!t)")
		}
		claims = m
	}
	var orgBase string
	if ByBasename(l.Site) {
		if orgBase, err = s.SitesBase(ctx, orgID); err != nil {
			return "", err
		}
	}
	base := PublishedBase(l.Site, orgBase, in.AppURL)
	target := base + "/"
	switch {
	case in.Target != "":
		t, err := url.Parse(in.Target)
		if err != nil || !under(in.Target, base) || t.Fragment != "" {
			return "", apperr.Field("target", "must be a URL under the site's published root %s", base)
		}
		target = in.Target
	case in.SiteSpace != "":
		tree := TreeOf(&l.Site)
		ss, err := tree.SiteSpace(in.SiteSpace)
		if err != nil {
			return "", apperr.Field("siteSpace", "site space %s not found in this site", in.SiteSpace)
		}
		if ss.Section != "" {
			if sec, err := tree.Section(ss.Section); err == nil {
				target += url.PathEscape(sec.Path) + "/"
			}
		}
		if !ss.Default {
			target += url.PathEscape(ss.Path) + "/"
		}
	}
	key, err := s.d.Secret.Derive(ctx, sitetoken.Purpose)
	if err != nil {
		return "", err
	}
	tok, err := sitetoken.IssuePreview(key, sitetoken.Claims{Site: l.Site.ID, Organization: orgID, Visitor: claims, Draft: in.Draft}, s.d.Clock())
	if err != nil {
		return "", err
	}
	sep := "?"
	if strings.Contains(target, "?") {
		sep = "&"
	}
	return target + sep + PreviewParam + "=" + url.QueryEscape(tok), nil
}

// under tells whether u is base or a URL below it (case-insensitive in its
// scheme and host).
func under(u, base string) bool {
	if len(u) < len(base) || !strings.EqualFold(u[:len(base)], base) {
		return false
	}
	rest := u[len(base):]
	return rest == "" || rest[0] == '/' || rest[0] == '?'
}

// previewOf returns the claims of the preview token that opens site (the
// URL's, else the visitor's kept one) and the token; nil when there is
// none or it is invalid, expired or of another site (the URL is then
// resolved as a visitor's).
func (s *Service) previewOf(ctx context.Context, site model.Site, fromURL string, vis Visitor) (*sitetoken.Claims, string, error) {
	tok := fromURL
	if tok == "" {
		tok = vis.Preview
	}
	if tok == "" || len(tok) > 16<<10 {
		return nil, "", nil
	}
	key, err := s.d.Secret.Derive(ctx, sitetoken.Purpose)
	if err != nil {
		return nil, "", err
	}
	c, err := sitetoken.VerifyPreview(key, tok, s.d.Clock())
	if err != nil || c.Site != site.ID || c.Organization != site.OrgID {
		return nil, "", nil
	}
	return &c, tok, nil
}
