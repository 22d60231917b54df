package sites

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/model"
)

// MaxFrameAncestors bounds the origins a site lets frame its pages
// (model.Site.FrameAncestors, Galley's own setting).
const MaxFrameAncestors = 20

// frameOrigins validates the origins a site lets frame its pages: each
// scheme://host[:port], http or https, a DNS name (or IPv4 address) and no
// path, query, fragment or credentials. They go into the reader's
// Content-Security-Policy header as they are, so nothing else may pass
// (a space or a semicolon would add sources or directives). They are
// kept lower-case, once each; an empty list keeps none.
func frameOrigins(in []string) ([]string, error) {
	if len(in) > MaxFrameAncestors {
		return nil, apperr.Field("frameAncestors", "at most %d origins", MaxFrameAncestors)
	}
	var out []string
	seen := map[string]bool{}
	for _, v := range in {
		o, ok := origin(v)
		if !ok {
			return nil, apperr.Field("frameAncestors", "%q is not an origin: scheme://host[:port], http or https, without a path", v)
		}
		if !seen[o] {
			seen[o] = true
			out = append(out, o)
		}
	}
	return out, nil
}

// origin reads an origin (scheme://host[:port]) exactly, lower-cased.
func origin(v string) (string, bool) {
	v = strings.ToLower(v)
	scheme, rest, ok := strings.Cut(v, "://")
	if !ok || (scheme != "https" && scheme != "http") || len(v) > 256 {
		return "", false
	}
	host, port, hasPort := strings.Cut(rest, ":")
	if hasPort {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 || strconv.Itoa(n) != port {
			return "", false
		}
	}
	if host == "" || len(host) > 253 {
		return "", false
	}
	for _, label := range strings.Split(host, ".") {
		if label == "" || len(label) > 63 || strings.HasPrefix(label, "-") || strings.HasSuffix(label, "-") ||
			strings.Trim(label, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
			return "", false
		}
	}
	return v, true
}

// FrameAncestors is the source list of a site's pages' frame-ancestors
// directive: the page's own origin ('self'), the public URL's (appURL:
// pages are served under /sites/ there too), the site's published root's
// (its proxy origin, hostname or organization's hostname: PublishedBase,
// with orgBase as View.OrgBase), then the origins the site lets frame its
// pages (model.Site.FrameAncestors).
func FrameAncestors(site model.Site, orgBase, appURL string) string {
	list := []string{"'self'"}
	seen := map[string]bool{}
	add := func(o string) {
		if o != "" && !seen[o] {
			seen[o] = true
			list = append(list, o)
		}
	}
	for _, raw := range []string{appURL, PublishedBase(site, orgBase, appURL)} {
		if u, err := url.Parse(raw); err == nil && u.Scheme != "" && u.Host != "" {
			if o, ok := origin(u.Scheme + "://" + u.Host); ok {
				add(o)
			}
		}
	}
	for _, o := range site.FrameAncestors {
		add(o)
	}
	return strings.Join(list, " ")
}
