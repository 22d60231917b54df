package sites

import (
	"context"
	"errors"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/store"
)

// Sections, section groups and site spaces: each call is one change of the
// site's structure (see mutate); it returns the site as written and the id
// of the item the answer shows.

// AddSection adds a section showing a space (see structure.addSection).
func (s *Service) AddSection(ctx context.Context, orgID, siteID, spaceID, title, icon string) (model.Site, string, model.Role, error) {
	var sp model.Space
	var id string
	site, role, err := s.mutateAfter(ctx, orgID, siteID, opStructure,
		func() (err error) { sp, err = s.liveSpace(ctx, orgID, spaceID, "spaceId"); return err },
		func(st *structure) ([]store.Op, error) {
			sec, err := st.addSection(sp, title)
			if err != nil {
				return nil, err
			}
			sec.Icon = icon
			id = sec.ID
			return nil, nil
		})
	return site, id, role, err
}

// SectionChange is the input of UpdateSection: nil fields are left as they
// are; the Clear fields remove a value (null in the request).
type SectionChange struct {
	Title, Path, DefaultSiteSpace, Condition, Icon, Description *string
	ClearCondition, ClearIcon, ClearDescription                 bool
}

// UpdateSection changes a section. Its path stays unique among the site's
// sections (Conflict otherwise); its condition must parse (ParseCondition;
// a field error otherwise).
func (s *Service) UpdateSection(ctx context.Context, orgID, siteID, sectionID string, ch SectionChange) (model.Site, model.Role, error) {
	return s.mutate(ctx, orgID, siteID, opStructure, func(st *structure) ([]store.Op, error) {
		sec, err := st.section(sectionID)
		if err != nil {
			return nil, err
		}
		if ch.Condition != nil && !ch.ClearCondition {
			if err := ValidateCondition("condition", *ch.Condition); err != nil {
				return nil, err
			}
		}
		if ch.Path != nil && *ch.Path != sec.Path {
			if st.sectionPaths(sec.ID)[*ch.Path] {
				return nil, apperr.Conflictf("another section of this site has the path %q", *ch.Path)
			}
			sec.Path = *ch.Path
		}
		setOrClear(&sec.Title, ch.Title, false)
		setOrClear(&sec.Condition, ch.Condition, ch.ClearCondition)
		setOrClear(&sec.Icon, ch.Icon, ch.ClearIcon)
		setOrClear(&sec.Description, ch.Description, ch.ClearDescription)
		if ch.DefaultSiteSpace != nil {
			if err := st.setDefaultSiteSpace(*ch.DefaultSiteSpace, sec.ID, "defaultSiteSpace"); err != nil {
				return nil, err
			}
		}
		return nil, nil
	})
}

// setOrClear applies one optional field of a PATCH.
func setOrClear(field *string, v *string, clear bool) {
	switch {
	case clear:
		*field = ""
	case v != nil:
		*field = *v
	}
}

// DeleteSection removes a section with its site spaces; false when the
// site has no such section.
func (s *Service) DeleteSection(ctx context.Context, orgID, siteID, sectionID string) (bool, error) {
	return s.remove(ctx, orgID, siteID, opStructure, func(st *structure) error {
		_, err := st.section(sectionID)
		return err
	}, func(st *structure) error { return st.deleteSection(sectionID) })
}

// MoveSection moves a section (see structure.moveSection).
func (s *Service) MoveSection(ctx context.Context, orgID, siteID, sectionID string, pos Position) (model.Site, model.Role, error) {
	return s.mutate(ctx, orgID, siteID, opStructure, func(st *structure) ([]store.Op, error) {
		return nil, st.moveSection(sectionID, pos)
	})
}

// AddGroup adds a section group.
func (s *Service) AddGroup(ctx context.Context, orgID, siteID, title, icon string, sections []string) (model.Site, string, model.Role, error) {
	var id string
	site, role, err := s.mutate(ctx, orgID, siteID, opStructure, func(st *structure) ([]store.Op, error) {
		g, err := st.addGroup(title, icon, sections)
		if err != nil {
			return nil, err
		}
		id = g.ID
		return nil, nil
	})
	return site, id, role, err
}

// GroupChange is the input of UpdateGroup.
type GroupChange struct {
	Title, Icon *string
	ClearIcon   bool
}

// UpdateGroup changes a section group.
func (s *Service) UpdateGroup(ctx context.Context, orgID, siteID, groupID string, ch GroupChange) (model.Site, model.Role, error) {
	return s.mutate(ctx, orgID, siteID, opStructure, func(st *structure) ([]store.Op, error) {
		g, err := st.group(groupID)
		if err != nil {
			return nil, err
		}
		setOrClear(&g.Title, ch.Title, false)
		setOrClear(&g.Icon, ch.Icon, ch.ClearIcon)
		return nil, nil
	})
}

// DeleteGroup removes a section group, keeping its sections; false when
// the site has no such group.
func (s *Service) DeleteGroup(ctx context.Context, orgID, siteID, groupID string) (bool, error) {
	return s.remove(ctx, orgID, siteID, opStructure, func(st *structure) error {
		_, err := st.group(groupID)
		return err
	}, func(st *structure) error { return st.deleteGroup(groupID) })
}

// AddToGroup appends a section to a group.
func (s *Service) AddToGroup(ctx context.Context, orgID, siteID, groupID, sectionID string) (model.Site, model.Role, error) {
	return s.mutate(ctx, orgID, siteID, opStructure, func(st *structure) ([]store.Op, error) {
		return nil, st.addToGroup(groupID, sectionID)
	})
}

// RemoveFromGroup takes a section out of its group.
func (s *Service) RemoveFromGroup(ctx context.Context, orgID, siteID, groupID, sectionID string) error {
	_, _, err := s.mutate(ctx, orgID, siteID, opStructure, func(st *structure) ([]store.Op, error) {
		return nil, st.removeFromGroup(groupID, sectionID)
	})
	return err
}

// MoveGroup moves a section group among the top-level items.
func (s *Service) MoveGroup(ctx context.Context, orgID, siteID, groupID string, pos Position) (model.Site, model.Role, error) {
	return s.mutate(ctx, orgID, siteID, opStructure, func(st *structure) ([]store.Op, error) {
		return nil, st.moveGroup(groupID, pos)
	})
}

// AddSiteSpace adds a space to a site (see structure.addSiteSpace).
func (s *Service) AddSiteSpace(ctx context.Context, orgID, siteID, spaceID, sectionID string) (model.Site, string, model.Role, error) {
	var sp model.Space
	var id string
	site, role, err := s.mutateAfter(ctx, orgID, siteID, opStructure,
		func() (err error) { sp, err = s.liveSpace(ctx, orgID, spaceID, "spaceId"); return err },
		func(st *structure) ([]store.Op, error) {
			ss, err := st.addSiteSpace(sp, sectionID)
			if err != nil {
				return nil, err
			}
			id = ss.ID
			return nil, nil
		})
	return site, id, role, err
}

// SiteSpaceChange is the input of UpdateSiteSpace.
type SiteSpaceChange struct {
	Path, Condition *string
	ClearCondition  bool
	// Hidden, when given, hides the site space from the site's navigation
	// (true) or shows it again (false).
	Hidden *bool
}

// UpdateSiteSpace changes a site space. Its path stays unique in its level
// (Conflict otherwise); its condition must parse (ParseCondition; a field
// error otherwise).
func (s *Service) UpdateSiteSpace(ctx context.Context, orgID, siteID, siteSpaceID string, ch SiteSpaceChange) (model.Site, model.Role, error) {
	return s.mutate(ctx, orgID, siteID, opStructure, func(st *structure) ([]store.Op, error) {
		ss, err := st.siteSpace(siteSpaceID)
		if err != nil {
			return nil, err
		}
		if ch.Condition != nil && !ch.ClearCondition {
			if err := ValidateCondition("condition", *ch.Condition); err != nil {
				return nil, err
			}
		}
		if ch.Path != nil && *ch.Path != ss.Path {
			if st.levelPaths(ss.Section, ss.ID)[*ch.Path] {
				return nil, apperr.Conflictf("another site space of this level has the path %q", *ch.Path)
			}
			ss.Path = *ch.Path
		}
		setOrClear(&ss.Condition, ch.Condition, ch.ClearCondition)
		if ch.Hidden != nil {
			ss.Hidden = *ch.Hidden
		}
		return nil, nil
	})
}

// DeleteSiteSpace removes a site space; false when the site has no such
// site space.
func (s *Service) DeleteSiteSpace(ctx context.Context, orgID, siteID, siteSpaceID string) (bool, error) {
	return s.remove(ctx, orgID, siteID, opStructure, func(st *structure) error {
		_, err := st.siteSpace(siteSpaceID)
		return err
	}, func(st *structure) error { return st.deleteSiteSpace(siteSpaceID) })
}

// errAbsent stops a removal whose item is not there, before anything is
// written.
var errAbsent = errors.New("nothing to remove")

// remove runs a removal from the site's item: exists says whether the item
// is there (a NotFound error when not); when it is, del removes it. It
// answers whether something was removed: false, without writing, when the
// item was not there (authorization and the site itself are checked
// first, so a site the caller may not change is still an error).
func (s *Service) remove(ctx context.Context, orgID, siteID string, op access.OrgOp, exists, del func(st *structure) error) (bool, error) {
	_, _, err := s.mutate(ctx, orgID, siteID, op, func(st *structure) ([]store.Op, error) {
		if err := exists(st); err != nil {
			if apperr.Is(err, apperr.NotFound) {
				return nil, errAbsent
			}
			return nil, err
		}
		return nil, del(st)
	})
	if errors.Is(err, errAbsent) {
		return false, nil
	}
	return err == nil, err
}

// MoveSiteSpace moves a site space (see structure.moveSiteSpace).
func (s *Service) MoveSiteSpace(ctx context.Context, orgID, siteID, siteSpaceID string, pos Position) (model.Site, model.Role, error) {
	return s.mutate(ctx, orgID, siteID, opStructure, func(st *structure) ([]store.Op, error) {
		return nil, st.moveSiteSpace(siteSpaceID, pos)
	})
}

// Duplicator copies a space with its content (the content family's
// Duplicate: a new space beside the source, titled "<title> (copy)").
type Duplicator interface {
	Duplicate(ctx context.Context, spaceID string) (model.Space, model.Role, error)
}

// DuplicateSiteSpace copies the space a site space shows (through dup)
// and adds the copy to the site: in a new section right after the site
// space's own when it is the only site space of its section, else beside
// it, right after it, in its level (the root of a site without sections
// included). It returns the site and the new site space's id. Galley has
// no draft site spaces or sections: draft is refused. The copy stays a
// space of the organization if the site changed meanwhile so that the
// site space is gone (NotFound).
func (s *Service) DuplicateSiteSpace(ctx context.Context, orgID, siteID, siteSpaceID string, draft bool, dup Duplicator) (model.Site, string, model.Role, error) {
	l, err := s.load(ctx, orgID, siteID, opStructure)
	if err != nil {
		return model.Site{}, "", "", err
	}
	src, err := TreeOf(&l.Site).SiteSpace(siteSpaceID)
	if err != nil {
		return model.Site{}, "", "", err
	}
	if draft {
		return model.Site{}, "", "", apperr.Field("draft", "Galley has no draft site spaces or sections")
	}
	cp, _, err := dup.Duplicate(ctx, src.SpaceID)
	if err != nil {
		return model.Site{}, "", "", err
	}
	var id string
	site, role, err := s.mutate(ctx, orgID, siteID, opStructure, func(st *structure) ([]store.Op, error) {
		ss, err := st.siteSpace(siteSpaceID)
		if err != nil {
			return nil, err
		}
		if ss.Section != "" && len(st.level(ss.Section)) == 1 {
			sec, err := st.addSection(cp, cp.Title)
			if err != nil {
				return nil, err
			}
			id = st.level(sec.ID)[0].ID
			return nil, st.moveSection(sec.ID, Position{After: &Pointer{Type: PointerSection, ID: ss.Section}})
		}
		added, err := st.addSiteSpace(cp, ss.Section)
		if err != nil {
			return nil, err
		}
		id = added.ID
		return nil, st.moveSiteSpace(id, Position{After: &Pointer{Type: PointerSiteSpace, ID: siteSpaceID}})
	})
	return site, id, role, err
}
