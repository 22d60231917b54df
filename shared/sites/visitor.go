package sites

import (
	"context"

	"encoding/json"
	"errors"
	"fmt"
	"github.com/galleydocs/galley/shared/access"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// Visitor is who resolves a published URL, beyond the URL itself: a
// visitor token (when the URL carries no jwt_token) and unsigned claims
// (added to the URL's visitor.<name> parameters).
type Visitor struct {
	Token    string
	Unsigned map[string]string
	// Preview is a member's preview token kept by the visitor (the
	// reader's cookie), used when the URL carries none (PreviewParam).
	Preview string
}

// unsignedParam prefixes the URL parameters carrying unsigned claims.
const unsignedParam = "visitor."

// unsignedClaims returns the unsigned claims a request carries (the URL's
// visitor.<name>=<value> parameters, then v's), keeping only the names the
// site's adaptive schema declares under unsigned, each converted to its
// declared type (boolean: true or false; number or integer: a number;
// otherwise the text). A value that does not convert is left out. The
// schema is read only when some are given.
func (s *Service) unsignedClaims(ctx context.Context, siteID string, q url.Values, v Visitor) (map[string]any, error) {
	given := map[string]string{}
	for k, vals := range q {
		if name, ok := strings.CutPrefix(k, unsignedParam); ok && len(vals) > 0 {
			given[name] = vals[0]
		}
	}
	for k, val := range v.Unsigned {
		given[k] = val
	}
	out := map[string]any{}
	if len(given) == 0 {
		return out, nil
	}
	sch, err := s.readSchema(ctx, siteID)
	if err != nil || sch == nil {
		return out, err
	}
	var doc struct {
		Properties struct {
			Unsigned struct {
				Properties map[string]struct {
					Type any `json:"type"`
				} `json:"properties"`
			} `json:"unsigned"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(sch, &doc); err != nil {
		return nil, fmt.Errorf("decode adaptive schema: %w", err)
	}
	for name, val := range given {
		p, ok := doc.Properties.Unsigned.Properties[name]
		if !ok {
			continue
		}
		switch p.Type {
		case "boolean":
			if b, err := strconv.ParseBool(val); err == nil && (val == "true" || val == "false") {
				out[name] = b
			}
		case "number", "integer":
			if f, err := strconv.ParseFloat(val, 64); err == nil {
				out[name] = f
			}
		default:
			out[name] = val
		}
	}
	return out, nil
}

// readSchema reads a site's adaptive schema; nil when it has none.
func (s *Service) readSchema(ctx context.Context, siteID string) (json.RawMessage, error) {
	sch, _, err := records.Get[model.SiteAdaptiveSchema](ctx, s.d.Store, keys.SiteAdaptiveSchema(siteID))
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read adaptive schema: %w", err)
	}
	return sch.JSONSchema, nil
}

// visibleTo returns the part of a site's structure a visitor with claims
// sees: sections, site spaces and external links whose condition holds
// (ConditionHolds; the site spaces of a hidden section are hidden too),
// no draft external link unless drafts (a preview's), and groups that
// still hold a section or a link. When a level's default is hidden, its
// first visible item (in display order) is the default for this visitor.
// The site given is not changed.
func visibleTo(site model.Site, claims map[string]any, drafts bool) model.Site {
	return prune(site, func(sec model.SiteSection) bool { return ConditionHolds(sec.Condition, claims) },
		func(ss model.SiteSpace) bool { return ConditionHolds(ss.Condition, claims) },
		func(l model.SiteExternalLink) bool {
			return (drafts || !l.Draft) && ConditionHolds(l.Condition, claims)
		}, false)
}

// seenBy is the part of a site's structure a site visitor's token shows:
// the site spaces of the spaces it names, the sections holding them, the
// external links it names and their groups (a structure read with a
// visitor's token names nothing the visitor was not shown).
func seenBy(site model.Site, v *access.SiteVisitor) model.Site {
	return prune(site, func(model.SiteSection) bool { return true },
		func(ss model.SiteSpace) bool { return slices.Contains(v.SpaceIDs, ss.SpaceID) },
		func(l model.SiteExternalLink) bool { return slices.Contains(v.LinkIDs, l.ID) }, true)
}

// withoutDrafts is the site without its draft external links (the
// published view's structure).
func withoutDrafts(site model.Site) model.Site {
	if !slices.ContainsFunc(site.ExternalLinks, func(l model.SiteExternalLink) bool { return l.Draft }) {
		return site
	}
	site.ExternalLinks = slices.DeleteFunc(slices.Clone(site.ExternalLinks), func(l model.SiteExternalLink) bool { return l.Draft })
	return site
}

// prune keeps the sections, site spaces and external links shown (the
// site spaces of a hidden section are hidden too; with dropEmpty, a
// section left without site spaces goes), and the groups that still hold a
// section or a link; a level whose default went gets its first item as
// default. The site given is not changed.
func prune(site model.Site, section func(model.SiteSection) bool, space func(model.SiteSpace) bool, link func(model.SiteExternalLink) bool, dropEmpty bool) model.Site {
	out := site
	out.Sections, out.Groups, out.SiteSpaces, out.ExternalLinks = nil, nil, nil, nil
	shown := map[string]bool{}
	for _, sec := range site.Sections {
		if section(sec) {
			shown[sec.ID] = true
		}
	}
	used := map[string]bool{}
	for _, ss := range site.SiteSpaces {
		if (ss.Section == "" || shown[ss.Section]) && space(ss) {
			out.SiteSpaces = append(out.SiteSpaces, ss)
			used[ss.Section] = true
		}
	}
	for _, sec := range site.Sections {
		if shown[sec.ID] && (!dropEmpty || used[sec.ID]) {
			out.Sections = append(out.Sections, sec)
		}
	}
	grouped := map[string]bool{}
	for _, sec := range out.Sections {
		grouped[sec.Group] = true
	}
	for _, l := range site.ExternalLinks {
		if link(l) {
			out.ExternalLinks = append(out.ExternalLinks, l)
			grouped[l.Group] = true
		}
	}
	for _, g := range site.Groups {
		if grouped[g.ID] {
			out.Groups = append(out.Groups, g)
		}
	}
	tree := TreeOf(&out)
	if len(out.Sections) > 0 && len(out.Sections) < len(site.Sections) {
		promoteDefault(tree.Sections(), func(x *model.SiteSection) *bool { return &x.Default })
	}
	if len(out.SiteSpaces) < len(site.SiteSpaces) {
		levels := []string{""}
		for _, sec := range out.Sections {
			levels = append(levels, sec.ID)
		}
		for _, l := range levels {
			promoteDefault(tree.Level(l), func(x *model.SiteSpace) *bool { return &x.Default })
		}
	}
	return out
}

// promoteDefault makes the first of items the default when none is.
func promoteDefault[T any](items []*T, def func(*T) *bool) {
	for _, x := range items {
		if *def(x) {
			return
		}
	}
	if len(items) > 0 {
		*def(items[0]) = true
	}
}
