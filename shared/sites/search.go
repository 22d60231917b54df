package sites

import (
	"context"
	"slices"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/model"
)

// SiteSpaceOf is a site space with the space it shows.
type SiteSpaceOf struct {
	SiteSpace model.SiteSpace
	Space     model.Space
	// Locale is the language its search analyses text in: the space's
	// own language, else the site space's effective
	// internationalization.locale (its override, else the site's, else
	// the default "en"), as the reader picks its interface language.
	Locale string
}

// SearchScope returns the site spaces a search of the site covers, with
// their live spaces, in display order: all of them, or those of
// siteSpaceIDs when given (an id the site lacks is a 400 naming field).
// The caller must be able to read the site (members from read up, or a
// visitor holding a token of this site); which of the spaces they may read
// is for the search to decide. The search family asks it
// (searchSiteContent is served with the search index, see doc.go).
func (s *Service) SearchScope(ctx context.Context, orgID, siteID string, siteSpaceIDs []string, field string) ([]SiteSpaceOf, error) {
	l, err := s.loadRead(ctx, orgID, siteID, true)
	if err != nil {
		return nil, err
	}
	for _, id := range siteSpaceIDs {
		if _, err := findSiteSpace(&l.Site, id); err != nil {
			return nil, apperr.Field(field, "site space %s not found in this site", id)
		}
	}
	_, visitor := access.VisitorFrom(ctx)
	v, err := s.view(ctx, l, "", visitor)
	if err != nil {
		return nil, err
	}
	rec, err := s.readCustomization(ctx, siteID)
	if err != nil {
		return nil, err
	}
	var out []SiteSpaceOf
	for _, ss := range TreeOf(&v.Site).All() {
		sp, ok := v.Spaces[ss.SpaceID]
		if !ok || sp.DeletedAt != nil || (len(siteSpaceIDs) > 0 && !slices.Contains(siteSpaceIDs, ss.ID)) {
			continue
		}
		locale := sp.Language
		if locale == "" {
			locale = Locale(rec.siteSpaceSettings(ss.ID).Settings)
		}
		out = append(out, SiteSpaceOf{SiteSpace: *ss, Space: sp, Locale: locale})
	}
	return out, nil
}

// SpaceIDs returns the ids of the spaces a site's site spaces show (those
// of its sections too), in display order, each once. The caller must be
// able to read the site (members from read up): an unknown site, one of
// another organization, or one the caller may not read is NotFound. The
// change requests family asks it to list the requests of a site's spaces
// (changerequests.SiteSpaces); which of the spaces the caller reads is for
// that list to decide.
func (s *Service) SpaceIDs(ctx context.Context, orgID, siteID string) ([]string, error) {
	l, err := s.load(ctx, orgID, siteID, opRead)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, ss := range TreeOf(&l.Site).All() {
		if !slices.Contains(out, ss.SpaceID) {
			out = append(out, ss.SpaceID)
		}
	}
	return out, nil
}
