package content

import (
	"context"
	"net/url"
	"strconv"
	"strings"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/model"
)

// URLs of Galley's own (GET /v1/urls/content; docs/content.md, "Resolving
// URLs"): the application URLs the API answers as urls.app, under the
// application's base: /c/<collection>, /s/<space>, /s/<space>/<page path>,
// and the same under /s/<space>/~/changes/<number> (a change request) and
// /s/<space>/~/revisions/<revision>.

// AppURL is what an application URL names: a collection, or content (At,
// without its Bases) and a page of it by path ("" for none).
type AppURL struct {
	CollectionID string
	At           At
	PagePath     string
}

// ParseAppURL reads a URL under the application's base appBase (same
// scheme and host, ignoring case, and under its path; query and fragment
// are ignored). A URL elsewhere, or that names nothing, is Invalid naming
// url.
func ParseAppURL(raw, appBase string) (AppURL, error) {
	u, err := url.Parse(raw)
	base, berr := url.Parse(appBase)
	if err != nil || berr != nil || !strings.EqualFold(u.Scheme, base.Scheme) || !strings.EqualFold(u.Host, base.Host) {
		return AppURL{}, apperr.Field("url", "not a URL of this Galley (under %s)", appBase)
	}
	rest, ok := strings.CutPrefix(u.Path, strings.TrimSuffix(base.Path, "/")+"/")
	if !ok {
		return AppURL{}, apperr.Field("url", "not a URL of this Galley (under %s)", appBase)
	}
	parts := strings.Split(strings.Trim(rest, "/"), "/")
	nothing := apperr.Field("url", "names no collection, space or page of this Galley")
	if len(parts) < 2 || parts[1] == "" {
		return AppURL{}, nothing
	}
	switch parts[0] {
	case "c":
		if len(parts) != 2 {
			return AppURL{}, nothing
		}
		return AppURL{CollectionID: parts[1]}, nil
	case "s":
	default:
		return AppURL{}, nothing
	}
	out := AppURL{At: At{SpaceID: parts[1]}}
	parts = parts[2:]
	if len(parts) > 0 && parts[0] == "~" {
		if len(parts) < 3 || parts[2] == "" {
			return AppURL{}, nothing
		}
		switch parts[1] {
		case "changes":
			if n, err := strconv.Atoi(parts[2]); err != nil || n <= 0 {
				return AppURL{}, nothing
			}
			out.At.ChangeRequest = parts[2]
		case "revisions":
			out.At.Revision = parts[2]
		default:
			return AppURL{}, nothing
		}
		parts = parts[3:]
	}
	out.PagePath = strings.Join(parts, "/")
	return out, nil
}

// URLContent is the content an application URL names: its space (with
// the caller's role), the change request and the page it names, if any.
type URLContent struct {
	Space         model.Space
	Role          model.Role
	ChangeRequest *ChangeRequest
	Page          *RevisionPage
}

// ContentAt answers the content at at and its page at pagePath ("": none)
// for a caller who may read it (else NotFound, as every read).
func (s *Service) ContentAt(ctx context.Context, at At, pagePath string) (URLContent, error) {
	src, err := s.source(ctx, at)
	if err != nil {
		return URLContent{}, err
	}
	out := URLContent{Space: src.space, Role: src.role}
	if src.cr != nil {
		by, err := s.User(ctx, src.cr.CreatedBy)
		if err != nil {
			return URLContent{}, err
		}
		v := ChangeRequestView(ctx, at.Bases, *src.cr, src.space.Revision, by)
		out.ChangeRequest = &v
	}
	if pagePath != "" {
		p, err := s.PageByPath(ctx, at, pagePath, FormatDocument, true)
		if err != nil {
			return URLContent{}, err
		}
		out.Page = &p
	}
	return out, nil
}
