package sites

import "github.com/galleydocs/galley/shared/model"

// Tree reads a site's structure in display order, for the views that walk
// it (package siteshttp). It changes nothing: every change goes through the
// service, which keeps the invariants.
type Tree struct{ st *structure }

// TreeOf returns the structure of site, to read.
func TreeOf(site *model.Site) Tree { return Tree{&structure{s: site}} }

// TopItem is an item of the site's top level (an ungrouped section, a
// group or an ungrouped external link) or of a group (a section or an
// external link): exactly one is set.
type TopItem struct {
	Section *model.SiteSection
	Group   *model.SiteSectionGroup
	Link    *model.SiteExternalLink
}

// ID is the item's id: its section's, group's or link's ("" for none).
func (it TopItem) ID() string {
	if it.Section == nil && it.Group == nil && it.Link == nil {
		return ""
	}
	_, id, _ := topItem{section: it.Section, group: it.Group, link: it.Link}.fields()
	return id
}

func exported(items []topItem) []TopItem {
	out := make([]TopItem, 0, len(items))
	for _, it := range items {
		out = append(out, TopItem{Section: it.section, Group: it.group, Link: it.link})
	}
	return out
}

// Top returns the top level in order.
func (t Tree) Top() []TopItem { return exported(t.st.top()) }

// GroupItems returns a group's sections and external links in order.
func (t Tree) GroupItems(groupID string) []TopItem { return exported(t.st.groupItems(groupID)) }

// ExternalLink returns an external link, NotFound when the site has none
// of that id.
func (t Tree) ExternalLink(id string) (*model.SiteExternalLink, error) { return t.st.externalLink(id) }

// InGroup returns a group's sections in order.
func (t Tree) InGroup(groupID string) []*model.SiteSection { return t.st.inGroup(groupID) }

// Level returns the site spaces of a section ("" for the root) in order.
func (t Tree) Level(sectionID string) []*model.SiteSpace { return t.st.level(sectionID) }

// Section returns a section, NotFound when the site has none of that id.
func (t Tree) Section(id string) (*model.SiteSection, error) { return t.st.section(id) }

// Group returns a section group, NotFound when the site has none of that id.
func (t Tree) Group(id string) (*model.SiteSectionGroup, error) { return t.st.group(id) }

// SiteSpace returns a site space, NotFound when the site has none of that id.
func (t Tree) SiteSpace(id string) (*model.SiteSpace, error) { return t.st.siteSpace(id) }

// Sections returns every section in display order.
func (t Tree) Sections() []*model.SiteSection { return t.st.sections() }

// All returns every site space in display order.
func (t Tree) All() []*model.SiteSpace { return t.st.siteSpaces() }
