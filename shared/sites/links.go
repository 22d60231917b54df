package sites

import (
	"context"
	"net/url"
	"unicode/utf8"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/store"
)

// External links and the sorting of the structure (doc.go, "External
// links" and "Order").

// The types of a structure item, as pointers name them.
const (
	PointerSiteSpace    = "site-space"
	PointerSection      = "site-section"
	PointerGroup        = "site-section-group"
	PointerExternalLink = "site-external-link"
)

// ExternalLinkInput is what AddExternalLink makes and UpdateExternalLink
// changes: nil fields are left as they are (UpdateExternalLink) or empty
// (AddExternalLink); the Clear fields remove a value (null in a PATCH).
type ExternalLinkInput struct {
	Title, Description, Icon, URL, Condition *string
	LocalizedTitle, LocalizedDescription     *map[string]string
	Draft                                    *bool
	// Parent is the group to put the link in; ClearParent puts it at the
	// top level (a PATCH's null).
	Parent                                                                                                   *string
	ClearParent, ClearDescription, ClearIcon, ClearCondition, ClearLocalizedTitle, ClearLocalizedDescription bool
}

// maxLocales bounds the translations of a link's title or description.
const maxLocales = 100

// validate checks the fields given: an absolute http(s) URL, a condition
// that parses, translations within the limits of the untranslated field.
func (in ExternalLinkInput) validate() error {
	if in.URL != nil {
		if err := ValidateExternalURL("url", *in.URL); err != nil {
			return err
		}
	}
	if in.Condition != nil && !in.ClearCondition {
		if err := ValidateCondition("condition", *in.Condition); err != nil {
			return err
		}
	}
	for field, m := range map[string]struct {
		v   *map[string]string
		max int
	}{"localizedTitle": {in.LocalizedTitle, 128}, "localizedDescription": {in.LocalizedDescription, 256}} {
		if m.v == nil {
			continue
		}
		if len(*m.v) > maxLocales {
			return apperr.Field(field, "at most %d languages", maxLocales)
		}
		for lang, text := range *m.v {
			if lang == "" || len(lang) > 16 || utf8.RuneCountInString(text) > m.max {
				return apperr.Field(field+"."+lang, "a language code of at most 16 bytes with a text of at most %d characters", m.max)
			}
		}
	}
	return nil
}

// ValidateExternalURL checks that u is an absolute http or https URL with
// a host (an external link's destination), else a field error.
func ValidateExternalURL(field, u string) error {
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return apperr.Field(field, "must be an absolute http or https URL")
	}
	return nil
}

// apply sets the fields given on l.
func (in ExternalLinkInput) apply(l *model.SiteExternalLink) {
	setOrClear(&l.Title, in.Title, false)
	setOrClear(&l.URL, in.URL, false)
	setOrClear(&l.Description, in.Description, in.ClearDescription)
	setOrClear(&l.Icon, in.Icon, in.ClearIcon)
	setOrClear(&l.Condition, in.Condition, in.ClearCondition)
	setMap(&l.LocalizedTitle, in.LocalizedTitle, in.ClearLocalizedTitle)
	setMap(&l.LocalizedDescription, in.LocalizedDescription, in.ClearLocalizedDescription)
	if in.Draft != nil {
		l.Draft = *in.Draft
	}
}

func setMap(field *map[string]string, v *map[string]string, clear bool) {
	switch {
	case clear:
		*field = nil
	case v != nil:
		*field = nil
		if len(*v) > 0 {
			*field = *v
		}
	}
}

// linkLevel checks that group ("" the top level) can hold an external
// link: a group of the site, in a site with sections.
func (st *structure) linkLevel(group string) error {
	if len(st.s.Sections) == 0 {
		return apperr.New(apperr.Invalid, "the site has no sections: external links need a site structured in sections")
	}
	if group != "" {
		if _, err := st.group(group); err != nil {
			return apperr.Field("parent", "site section group %s not found", group)
		}
	}
	return nil
}

// linkSiblings are the items of a link's level: a group's, or the top
// level's ("").
func (st *structure) linkSiblings(group string) siblings {
	if group == "" {
		return st.topSiblings()
	}
	return st.groupSiblings(group)
}

// addExternalLink adds a link at the end of its level (a group, or the top
// level).
func (st *structure) addExternalLink(in ExternalLinkInput) (*model.SiteExternalLink, error) {
	if len(st.s.ExternalLinks) >= MaxExternalLinks {
		return nil, apperr.Conflictf("a site holds at most %d external links", MaxExternalLinks)
	}
	group := ""
	if in.Parent != nil {
		group = *in.Parent
	}
	if err := st.linkLevel(group); err != nil {
		return nil, err
	}
	l := model.SiteExternalLink{ID: st.newID(), Group: group, CreatedAt: st.now}
	l.Order = st.between(st.linkSiblings(group).last(), "")
	in.apply(&l)
	st.s.ExternalLinks = append(st.s.ExternalLinks, l)
	return &st.s.ExternalLinks[len(st.s.ExternalLinks)-1], nil
}

// updateExternalLink changes a link; a new parent puts it at the end of
// that level.
func (st *structure) updateExternalLink(id string, in ExternalLinkInput) error {
	l, err := st.externalLink(id)
	if err != nil {
		return err
	}
	in.apply(l)
	group := l.Group
	switch {
	case in.ClearParent:
		group = ""
	case in.Parent != nil:
		group = *in.Parent
	}
	if group != l.Group {
		if err := st.linkLevel(group); err != nil {
			return err
		}
		l.Order = st.between(st.linkSiblings(group).except(l.ID).last(), "")
		l.Group = group
	}
	return nil
}

// AddExternalLink adds an external link to a site's navigation: at the end
// of the top level, or of the group in.Parent names. The site must have
// sections (400 otherwise, as GitBook answers).
func (s *Service) AddExternalLink(ctx context.Context, orgID, siteID string, in ExternalLinkInput) (model.Site, string, model.Role, error) {
	if err := in.validate(); err != nil {
		return model.Site{}, "", "", err
	}
	var id string
	site, role, err := s.mutate(ctx, orgID, siteID, opStructure, func(st *structure) ([]store.Op, error) {
		l, err := st.addExternalLink(in)
		if err != nil {
			return nil, err
		}
		id = l.ID
		return nil, nil
	})
	return site, id, role, err
}

// UpdateExternalLink changes an external link (moving it to another group,
// or to the top level, when its parent changes).
func (s *Service) UpdateExternalLink(ctx context.Context, orgID, siteID, linkID string, in ExternalLinkInput) (model.Site, model.Role, error) {
	if err := in.validate(); err != nil {
		return model.Site{}, "", err
	}
	return s.mutate(ctx, orgID, siteID, opStructure, func(st *structure) ([]store.Op, error) {
		return nil, st.updateExternalLink(linkID, in)
	})
}

// DeleteExternalLink removes an external link; false when the site has no
// such link.
func (s *Service) DeleteExternalLink(ctx context.Context, orgID, siteID, linkID string) (bool, error) {
	return s.remove(ctx, orgID, siteID, opStructure, func(st *structure) error {
		_, err := st.externalLink(linkID)
		return err
	}, func(st *structure) error {
		st.s.ExternalLinks = drop(st.s.ExternalLinks, func(l model.SiteExternalLink) bool { return l.ID == linkID })
		return nil
	})
}

// levelOf returns the items of the level holding the item p points at
// (its siblings, itself included), and that item. A pointer to no item of
// the site is NotFound.
func (st *structure) levelOf(p Pointer) ([]topItem, topItem, error) {
	switch p.Type {
	case PointerSiteSpace:
		ss, err := st.siteSpace(p.ID)
		if err != nil {
			return nil, topItem{}, err
		}
		var items []topItem
		var self topItem
		for _, x := range st.level(ss.Section) {
			it := topItem{siteSpace: x}
			if x.ID == ss.ID {
				self = it
			}
			items = append(items, it)
		}
		return items, self, nil
	case PointerSection:
		sec, err := st.section(p.ID)
		if err != nil {
			return nil, topItem{}, err
		}
		return st.levelHolding(sec.Group, p.ID)
	case PointerGroup:
		if _, err := st.group(p.ID); err != nil {
			return nil, topItem{}, err
		}
		return st.levelHolding("", p.ID)
	case PointerExternalLink:
		l, err := st.externalLink(p.ID)
		if err != nil {
			return nil, topItem{}, err
		}
		return st.levelHolding(l.Group, p.ID)
	}
	return nil, topItem{}, apperr.Field("item.type", "unknown item type %q", p.Type)
}

// levelHolding returns the items of a group ("": the top level) and the
// one of them with the given id.
func (st *structure) levelHolding(group, id string) ([]topItem, topItem, error) {
	items := st.groupItems(group)
	if group == "" {
		items = st.top()
	}
	for _, it := range items {
		if it.id() == id {
			return items, it, nil
		}
	}
	return nil, topItem{}, apperr.NotFoundf("item %s not found", id)
}

// sortItem moves an item before or after a sibling of its level, or to the
// end of its level without a position. Sorting never changes an item's
// level: a pointer to an item of another level is refused (400 naming it).
func (st *structure) sortItem(item Pointer, pos Position) (topItem, error) {
	items, self, err := st.levelOf(item)
	if err != nil {
		if apperr.Is(err, apperr.NotFound) {
			return topItem{}, apperr.Field("item.id", "no %s %s in this site", item.Type, item.ID)
		}
		return topItem{}, err
	}
	ptr, before, field, err := pos.target(item.ID, "id", "an item")
	if err != nil {
		return topItem{}, err
	}
	var sib siblings
	at := -1
	for _, it := range items {
		if it.id() == item.ID {
			continue
		}
		if ptr != nil && it.id() == ptr.ID {
			if it.kind() != ptr.Type {
				return topItem{}, apperr.Field(field, "%s is a %s, not a %s", ptr.ID, it.kind(), ptr.Type)
			}
			at = len(sib.ids)
		}
		sib.add(it.order(), it.id())
	}
	switch {
	case ptr == nil:
		self.setOrder(st.between(sib.last(), ""))
	case at < 0:
		return topItem{}, apperr.Field(field, "%s %s is not beside the item in the site's structure: sorting changes the order within one level; move the item to that level with its own update first", ptr.Type, ptr.ID)
	default:
		self.setOrder(st.placeAmong(sib, at, before))
	}
	return self, nil
}

// SortStructure moves an item of the site's structure (a site space, a
// section, a group or an external link) before or after a sibling of its
// level, or to its level's end (sortItem). It returns the site and the
// type and id of the item moved.
func (s *Service) SortStructure(ctx context.Context, orgID, siteID string, item Pointer, pos Position) (model.Site, model.Role, error) {
	return s.mutate(ctx, orgID, siteID, opStructure, func(st *structure) ([]store.Op, error) {
		_, err := st.sortItem(item, pos)
		return nil, err
	})
}
