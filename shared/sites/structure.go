package sites

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/document"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/order"
)

// Limits of one site's structure. The whole structure is one stored item
// (at most 400 KB), so it is bounded; these keep it well inside the item
// with every text field at its longest.
const (
	MaxSections   = 100
	MaxGroups     = 50
	MaxSiteSpaces = 200
	MaxShareLinks = 50
	// MaxExternalLinks bounds the external links of a site's navigation.
	MaxExternalLinks = 50
)

// structure is a site's structure being read or changed in memory. Every
// change goes through its methods, which keep the invariants listed in
// doc.go; check verifies them all.
type structure struct {
	s   *model.Site
	now time.Time
	// newID makes identifiers of new items.
	newID func() string
	// err is the first failure to make an order key (a bug: keys given to
	// order.Between are always ones it made, in order); check reports it.
	err error
}

// between returns an order key strictly between a and b ("" for no bound).
func (st *structure) between(a, b string) string {
	k, err := order.Between(a, b)
	if err != nil && st.err == nil {
		st.err = fmt.Errorf("order key between %q and %q: %w", a, b, err)
	}
	return k
}

// orderKey sorts siblings: by order key, then by id for equal keys.
func orderKey(order, id string) string { return order + " " + id }

// topItem is an item of the site's top level (an ungrouped section, a
// group or an ungrouped external link) or of a group (a section or an
// external link); sorting also moves site spaces among their level's
// (sortItem). Exactly one is set.
type topItem struct {
	section   *model.SiteSection
	group     *model.SiteSectionGroup
	link      *model.SiteExternalLink
	siteSpace *model.SiteSpace
}

// fields returns the item's type (as pointers name it), id and order key.
func (t topItem) fields() (kind, id string, order *string) {
	switch {
	case t.section != nil:
		return PointerSection, t.section.ID, &t.section.Order
	case t.group != nil:
		return PointerGroup, t.group.ID, &t.group.Order
	case t.link != nil:
		return PointerExternalLink, t.link.ID, &t.link.Order
	}
	return PointerSiteSpace, t.siteSpace.ID, &t.siteSpace.Order
}

func (t topItem) order() string { _, _, o := t.fields(); return *o }

func (t topItem) id() string { _, id, _ := t.fields(); return id }

func (t topItem) kind() string { k, _, _ := t.fields(); return k }

func (t topItem) setOrder(k string) { _, _, o := t.fields(); *o = k }

// sortItems sorts items in display order: by order key, then id.
func sortItems(items []topItem) {
	sort.SliceStable(items, func(i, j int) bool {
		return orderKey(items[i].order(), items[i].id()) < orderKey(items[j].order(), items[j].id())
	})
}

// inOrder returns the items of all that keep, in display order: by order
// key, then id (key gives both).
func inOrder[T any](all []T, keep func(*T) bool, key func(*T) (order, id string)) []*T {
	var out []*T
	for i := range all {
		if keep(&all[i]) {
			out = append(out, &all[i])
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return orderKey(key(out[i])) < orderKey(key(out[j])) })
	return out
}

func sectionOrder(sec *model.SiteSection) (string, string) { return sec.Order, sec.ID }

func siteSpaceOrder(ss *model.SiteSpace) (string, string) { return ss.Order, ss.ID }

// top returns the top level in order.
func (st *structure) top() []topItem {
	items := st.groupItems("")
	for i := range st.s.Groups {
		items = append(items, topItem{group: &st.s.Groups[i]})
	}
	sortItems(items)
	return items
}

// groupItems returns a group's sections and external links in order ("":
// the ungrouped ones, without the groups).
func (st *structure) groupItems(groupID string) []topItem {
	var items []topItem
	for i := range st.s.Sections {
		if st.s.Sections[i].Group == groupID {
			items = append(items, topItem{section: &st.s.Sections[i]})
		}
	}
	for i := range st.s.ExternalLinks {
		if st.s.ExternalLinks[i].Group == groupID {
			items = append(items, topItem{link: &st.s.ExternalLinks[i]})
		}
	}
	sortItems(items)
	return items
}

// inGroup returns a group's sections in order.
func (st *structure) inGroup(groupID string) []*model.SiteSection {
	return inOrder(st.s.Sections, func(sec *model.SiteSection) bool { return sec.Group == groupID }, sectionOrder)
}

// sections returns every section in display order: the top level, with each
// group's sections in place of the group.
func (st *structure) sections() []*model.SiteSection {
	var out []*model.SiteSection
	for _, t := range st.top() {
		switch {
		case t.section != nil:
			out = append(out, t.section)
		case t.group != nil:
			out = append(out, st.inGroup(t.group.ID)...)
		}
	}
	return out
}

// level returns the site spaces of a section ("" for the root) in order.
func (st *structure) level(sectionID string) []*model.SiteSpace {
	return inOrder(st.s.SiteSpaces, func(ss *model.SiteSpace) bool { return ss.Section == sectionID }, siteSpaceOrder)
}

// siteSpaces returns every site space in display order: the root's, or each
// section's in section order.
func (st *structure) siteSpaces() []*model.SiteSpace {
	if len(st.s.Sections) == 0 {
		return st.level("")
	}
	var out []*model.SiteSpace
	for _, sec := range st.sections() {
		out = append(out, st.level(sec.ID)...)
	}
	return out
}

// find returns the item of all that is the one wanted; not found names it
// as what id.
func find[T any](all []T, is func(*T) bool, what, id string) (*T, error) {
	for i := range all {
		if is(&all[i]) {
			return &all[i], nil
		}
	}
	return nil, apperr.NotFoundf("%s %s not found", what, id)
}

func (st *structure) section(id string) (*model.SiteSection, error) {
	return find(st.s.Sections, func(x *model.SiteSection) bool { return x.ID == id }, "site section", id)
}

func (st *structure) group(id string) (*model.SiteSectionGroup, error) {
	return find(st.s.Groups, func(x *model.SiteSectionGroup) bool { return x.ID == id }, "site section group", id)
}

func (st *structure) siteSpace(id string) (*model.SiteSpace, error) {
	return find(st.s.SiteSpaces, func(x *model.SiteSpace) bool { return x.ID == id }, "site space", id)
}

func (st *structure) externalLink(id string) (*model.SiteExternalLink, error) {
	return find(st.s.ExternalLinks, func(x *model.SiteExternalLink) bool { return x.ID == id }, "site external link", id)
}

// defaultSection returns the default section, nil when there are none.
func (st *structure) defaultSection() *model.SiteSection {
	for i := range st.s.Sections {
		if st.s.Sections[i].Default {
			return &st.s.Sections[i]
		}
	}
	return nil
}

// siblings are the items of one level in display order: their order keys
// and ids.
type siblings struct{ keys, ids []string }

func (s *siblings) add(key, id string) { s.keys, s.ids = append(s.keys, key), append(s.ids, id) }

// key returns the key at i; "" (no bound) outside the list.
func (s siblings) key(i int) string {
	if i < 0 || i >= len(s.keys) {
		return ""
	}
	return s.keys[i]
}

// last returns the key of the last item, "" when there is none.
func (s siblings) last() string { return s.key(len(s.keys) - 1) }

// index returns the position of the item id, -1 when it is not there.
func (s siblings) index(id string) int { return slices.Index(s.ids, id) }

// except returns the siblings without the item id (the one being moved).
func (s siblings) except(id string) siblings {
	var out siblings
	for i, x := range s.ids {
		if x != id {
			out.add(s.keys[i], x)
		}
	}
	return out
}

// topSiblings are the items of the top level: ungrouped sections and groups.
func (st *structure) topSiblings() siblings {
	var s siblings
	for _, t := range st.top() {
		s.add(t.order(), t.id())
	}
	return s
}

// levelSiblings are the site spaces of a section ("" for the root).
func (st *structure) levelSiblings(sectionID string) siblings {
	var s siblings
	for _, ss := range st.level(sectionID) {
		s.add(ss.Order, ss.ID)
	}
	return s
}

// groupSiblings are the sections and external links of a group.
func (st *structure) groupSiblings(groupID string) siblings {
	var s siblings
	for _, it := range st.groupItems(groupID) {
		s.add(it.order(), it.id())
	}
	return s
}

// Slugs and paths.

// slug turns a title into a path: the page slug rule (document.Slug), cut
// to maxPath bytes on a rune boundary, fallback when nothing is left.
func slug(title, fallback string) string {
	return truncate(document.Slug(title, fallback), maxPath)
}

const maxPath = 100

// truncate cuts s to at most n bytes on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// uniquePath returns want, or want with the first free "-2", "-3", ...
// suffix, among taken.
func uniquePath(want string, taken map[string]bool) string {
	if !taken[want] {
		return want
	}
	for i := 2; ; i++ {
		sfx := "-" + strconv.Itoa(i)
		p := truncate(want, maxPath-len(sfx)) + sfx
		if !taken[p] {
			return p
		}
	}
}

func (st *structure) sectionPaths(except string) map[string]bool {
	taken := map[string]bool{}
	for _, s := range st.s.Sections {
		if s.ID != except {
			taken[s.Path] = true
		}
	}
	return taken
}

func (st *structure) levelPaths(sectionID, except string) map[string]bool {
	taken := map[string]bool{}
	for _, ss := range st.s.SiteSpaces {
		if ss.Section == sectionID && ss.ID != except {
			taken[ss.Path] = true
		}
	}
	return taken
}

// Adding.

// addSiteSpace adds a space at a level: the given section, else the default
// section, else the root. The first site space of a level is its default.
func (st *structure) addSiteSpace(space model.Space, sectionID string) (*model.SiteSpace, error) {
	if len(st.s.SiteSpaces) >= MaxSiteSpaces {
		return nil, apperr.Conflictf("a site holds at most %d site spaces", MaxSiteSpaces)
	}
	if sectionID != "" {
		if _, err := st.section(sectionID); err != nil {
			return nil, apperr.Field("sectionId", "site section %s not found", sectionID)
		}
	} else if d := st.defaultSection(); d != nil {
		sectionID = d.ID
	}
	for _, ss := range st.level(sectionID) {
		if ss.SpaceID == space.ID {
			return nil, apperr.Conflictf("space %s is already in this level of the site (site space %s)", space.ID, ss.ID)
		}
	}
	ss := model.SiteSpace{ID: st.newID(), SpaceID: space.ID, Section: sectionID,
		Path:      uniquePath(slug(space.Title, "space"), st.levelPaths(sectionID, "")),
		Order:     st.between(st.levelSiblings(sectionID).last(), ""),
		Default:   len(st.level(sectionID)) == 0,
		CreatedAt: st.now}
	st.s.SiteSpaces = append(st.s.SiteSpaces, ss)
	return &st.s.SiteSpaces[len(st.s.SiteSpaces)-1], nil
}

// addSection adds a section holding space, at the end of the top level.
// The first section of a site takes the site spaces of the root with it
// (keeping their order, paths and default) and becomes the default section.
func (st *structure) addSection(space model.Space, title string) (*model.SiteSection, error) {
	if len(st.s.Sections) >= MaxSections {
		return nil, apperr.Conflictf("a site holds at most %d sections", MaxSections)
	}
	if title == "" {
		title = space.Title
	}
	if len([]rune(title)) < 2 {
		title = "Section"
	}
	title = truncate(title, 128)
	sec := model.SiteSection{ID: st.newID(), Title: title,
		Path:      uniquePath(slug(title, "section"), st.sectionPaths("")),
		Order:     st.between(st.topSiblings().last(), ""),
		Default:   len(st.s.Sections) == 0,
		CreatedAt: st.now}
	first := len(st.s.Sections) == 0
	st.s.Sections = append(st.s.Sections, sec)
	if first {
		for i := range st.s.SiteSpaces {
			st.s.SiteSpaces[i].Section = sec.ID
		}
	}
	if _, err := st.addSiteSpace(space, sec.ID); err != nil {
		return nil, err
	}
	return st.section(sec.ID)
}

// addGroup adds a group at the end of the top level, holding the given
// sections in that order (taken from wherever they were).
func (st *structure) addGroup(title, icon string, sectionIDs []string) (*model.SiteSectionGroup, error) {
	if len(st.s.Groups) >= MaxGroups {
		return nil, apperr.Conflictf("a site holds at most %d section groups", MaxGroups)
	}
	seen := map[string]bool{}
	for _, id := range sectionIDs {
		if seen[id] {
			return nil, apperr.Field("sections", "section %s is listed twice", id)
		}
		seen[id] = true
		if _, err := st.section(id); err != nil {
			return nil, apperr.Field("sections", "site section %s not found", id)
		}
	}
	g := model.SiteSectionGroup{ID: st.newID(), Title: title, Icon: icon,
		Order: st.between(st.topSiblings().last(), ""), CreatedAt: st.now}
	st.s.Groups = append(st.s.Groups, g)
	for _, id := range sectionIDs {
		if err := st.addToGroup(g.ID, id); err != nil {
			return nil, err
		}
	}
	return st.group(g.ID)
}

// addToGroup appends a section to a group (leaving its former group).
func (st *structure) addToGroup(groupID, sectionID string) error {
	if _, err := st.group(groupID); err != nil {
		return err
	}
	sec, err := st.section(sectionID)
	if err != nil {
		return apperr.Field("sectionId", "site section %s not found", sectionID)
	}
	if sec.Group == groupID {
		return nil
	}
	sec.Order = st.between(st.groupSiblings(groupID).last(), "")
	sec.Group = groupID
	return nil
}

// removeFromGroup puts a grouped section back at the top level, right after
// its group.
func (st *structure) removeFromGroup(groupID, sectionID string) error {
	if _, err := st.group(groupID); err != nil {
		return err
	}
	sec, err := st.section(sectionID)
	if err != nil {
		return err
	}
	if sec.Group != groupID {
		return apperr.NotFoundf("site section %s is not in group %s", sectionID, groupID)
	}
	top := st.topSiblings()
	i := top.index(groupID)
	sec.Group = ""
	sec.Order = st.between(top.key(i), top.key(i+1))
	return nil
}

// Deleting.

// deleteSiteSpace removes a site space; its level picks the next site space
// as default when it was the default. A section keeps at least one site
// space: deleting the section is how to remove the last one.
func (st *structure) deleteSiteSpace(id string) error {
	ss, err := st.siteSpace(id)
	if err != nil {
		return err
	}
	if ss.Section != "" && len(st.level(ss.Section)) == 1 {
		return apperr.Conflictf("site space %s is the last of its section; delete the section instead", id)
	}
	st.removeSiteSpaces(func(x model.SiteSpace) bool { return x.ID == id })
	return nil
}

// removeSiteSpaces removes the matching site spaces, and gives every level
// that lost its default the next site space (in order) as default.
func (st *structure) removeSiteSpaces(match func(model.SiteSpace) bool) {
	// For each level that loses its default, remember where it stood.
	lost := map[string]int{}
	for _, ss := range st.s.SiteSpaces {
		if match(ss) && ss.Default {
			lost[ss.Section] = st.levelSiblings(ss.Section).index(ss.ID)
		}
	}
	st.s.SiteSpaces = drop(st.s.SiteSpaces, match)
	for sectionID, at := range lost {
		st.pickDefaultSiteSpace(sectionID, at)
	}
}

// drop removes the items that match, in place, keeping the order. Unlike
// slices.DeleteFunc it does not zero the elements past the new length: a
// pointer taken before the removal (the tests keep some) reads a record,
// never a zeroed one.
func drop[T any](items []T, match func(T) bool) []T {
	kept := items[:0]
	for _, x := range items {
		if !match(x) {
			kept = append(kept, x)
		}
	}
	return kept
}

// pickDefaultSiteSpace makes the site space now at position at (or the last
// one, when the list got shorter) the default of its level.
func (st *structure) pickDefaultSiteSpace(sectionID string, at int) {
	lvl := st.level(sectionID)
	if len(lvl) == 0 {
		return
	}
	lvl[min(at, len(lvl)-1)].Default = true
}

// deleteSection removes a section with its site spaces. The next section
// (in display order) becomes the default when it was the default.
func (st *structure) deleteSection(id string) error {
	sec, err := st.section(id)
	if err != nil {
		return err
	}
	if len(st.s.Sections) == 1 && len(st.s.ExternalLinks) > 0 {
		return apperr.Conflictf("site section %s is the site's last: its external links need a section; delete them first", id)
	}
	wasDefault := sec.Default
	at := max(slices.Index(st.sections(), sec), 0)
	st.removeSiteSpaces(func(x model.SiteSpace) bool { return x.Section == id })
	st.s.Sections = drop(st.s.Sections, func(x model.SiteSection) bool { return x.ID == id })
	if wasDefault {
		if all := st.sections(); len(all) > 0 {
			all[min(at, len(all)-1)].Default = true
		}
	}
	return nil
}

// deleteGroup removes a group; its sections and external links stay, at the group's place in
// the top level, in their order.
func (st *structure) deleteGroup(id string) error {
	if _, err := st.group(id); err != nil {
		return err
	}
	top := st.topSiblings()
	i := top.index(id)
	prev, next := top.key(i-1), top.key(i+1)
	for _, it := range st.groupItems(id) {
		if it.section != nil {
			it.section.Group = ""
		} else {
			it.link.Group = ""
		}
		k := st.between(prev, next)
		it.setOrder(k)
		prev = k
	}
	st.s.Groups = drop(st.s.Groups, func(g model.SiteSectionGroup) bool { return g.ID == id })
	return nil
}

// Defaults.

// setDefaultSection makes a section the site's default.
func (st *structure) setDefaultSection(id string, field string) error {
	sec, err := st.section(id)
	if err != nil {
		return apperr.Field(field, "site section %s not found", id)
	}
	for i := range st.s.Sections {
		st.s.Sections[i].Default = false
	}
	sec.Default = true
	return nil
}

// setDefaultSiteSpace makes a site space the default of its level. level is
// the level it must be in ("" root); field names the request field.
func (st *structure) setDefaultSiteSpace(id, level, field string) error {
	ss, err := st.siteSpace(id)
	if err != nil {
		return apperr.Field(field, "site space %s not found", id)
	}
	if ss.Section != level {
		where := "the root of the site"
		if level != "" {
			where = "section " + level
		}
		return apperr.Field(field, "site space %s is not in %s", id, where)
	}
	for _, x := range st.level(level) {
		x.Default = false
	}
	ss.Default = true
	return nil
}

// Moves.

// Pointer names the sibling a move places an item next to.
type Pointer struct {
	Type string
	ID   string
}

// Position is where a move places an item: before or after a sibling, or at
// the end when neither is given.
type Position struct {
	Before, After *Pointer
}

// target returns the sibling a move of item id places it next to (nil: the
// end of the level), on which side, and the request field naming it
// (position.before.<name> or position.after.<name>). A pointer to the item
// itself is refused; what names the item ("a section").
func (p Position) target(id, name, what string) (ptr *Pointer, before bool, field string, err error) {
	switch {
	case p.Before != nil && p.After != nil:
		return nil, false, "", apperr.Field("position", "give before or after, not both")
	case p.Before != nil:
		ptr, before = p.Before, true
	case p.After != nil:
		ptr = p.After
	default:
		return nil, false, "", nil
	}
	field = "position." + side(before) + "." + name
	if ptr.ID == id {
		return nil, before, field, apperr.Field(field, "%s cannot move next to itself", what)
	}
	return ptr, before, field, nil
}

// placeAmong returns a key putting an item before or after the sibling at
// index i (the moved item excluded from them).
func (st *structure) placeAmong(s siblings, i int, before bool) string {
	if before {
		return st.between(s.key(i-1), s.key(i))
	}
	return st.between(s.key(i), s.key(i+1))
}

// moveSection moves a section before or after another section, joining
// that section's group (or the top level); without a position, to the end
// of the top level.
func (st *structure) moveSection(id string, pos Position) error {
	sec, err := st.section(id)
	if err != nil {
		return err
	}
	ptr, before, field, err := pos.target(id, "siteSection", "a section")
	if err != nil {
		return err
	}
	if ptr == nil {
		sec.Group = ""
		sec.Order = st.between(st.topSiblings().except(id).last(), "")
		return nil
	}
	target, err := st.section(ptr.ID)
	if err != nil {
		return apperr.Field(field, "site section %s not found", ptr.ID)
	}
	sib := st.topSiblings()
	if target.Group != "" {
		sib = st.groupSiblings(target.Group)
	}
	sib = sib.except(id)
	sec.Group = target.Group
	sec.Order = st.placeAmong(sib, sib.index(target.ID), before)
	return nil
}

// moveGroup moves a group before or after a top-level item (an ungrouped
// section or a group); without a position, to the end.
func (st *structure) moveGroup(id string, pos Position) error {
	g, err := st.group(id)
	if err != nil {
		return err
	}
	ptr, before, field, err := pos.target(id, "id", "a group")
	if err != nil {
		return err
	}
	if ptr == nil {
		g.Order = st.between(st.topSiblings().except(id).last(), "")
		return nil
	}
	sib := st.topSiblings().except(id)
	i := sib.index(ptr.ID)
	if i < 0 {
		return apperr.Field(field, "no top-level section or group %s in this site", ptr.ID)
	}
	isGroup := false
	for _, x := range st.s.Groups {
		isGroup = isGroup || x.ID == ptr.ID
	}
	if (ptr.Type == "site-section-group") != isGroup {
		return apperr.Field(field, "%s is not a %s", ptr.ID, ptr.Type)
	}
	g.Order = st.placeAmong(sib, i, before)
	return nil
}

// moveSiteSpace moves a site space before or after another, into that one's
// level; without a position, to the end of its level.
func (st *structure) moveSiteSpace(id string, pos Position) error {
	ss, err := st.siteSpace(id)
	if err != nil {
		return err
	}
	ptr, before, field, err := pos.target(id, "siteSpace", "a site space")
	if err != nil {
		return err
	}
	if ptr == nil {
		ss.Order = st.between(st.levelSiblings(ss.Section).except(id).last(), "")
		return nil
	}
	target, err := st.siteSpace(ptr.ID)
	if err != nil {
		return apperr.Field(field, "site space %s not found", ptr.ID)
	}
	from, to := ss.Section, target.Section
	if from != to {
		if len(st.level(from)) == 1 {
			return apperr.Conflictf("site space %s is the last of its section; delete the section instead", id)
		}
		if st.levelPaths(to, "")[ss.Path] {
			return apperr.Conflictf("path %q is taken in the destination section", ss.Path)
		}
		for _, x := range st.level(to) {
			if x.SpaceID == ss.SpaceID {
				return apperr.Conflictf("space %s is already in the destination section", ss.SpaceID)
			}
		}
	}
	sib := st.levelSiblings(to).except(id)
	order := st.placeAmong(sib, sib.index(target.ID), before)
	if from != to && ss.Default {
		at := st.levelSiblings(from).index(id)
		ss.Default = false
		ss.Section = to
		st.pickDefaultSiteSpace(from, at)
	}
	ss.Section, ss.Order = to, order
	return nil
}

func side(before bool) string {
	if before {
		return "before"
	}
	return "after"
}

// check verifies every invariant of doc.go; a change that would break one
// is refused (a bug, not a caller's mistake).
func (st *structure) check() error {
	if st.err != nil {
		return st.err
	}
	s := st.s
	ids := map[string]bool{}
	sections := map[string]*model.SiteSection{}
	groups := map[string]bool{}
	for i := range s.Groups {
		if ids[s.Groups[i].ID] {
			return fmt.Errorf("duplicate id %s", s.Groups[i].ID)
		}
		ids[s.Groups[i].ID], groups[s.Groups[i].ID] = true, true
	}
	defaults := 0
	paths := map[string]bool{}
	for i := range s.Sections {
		sec := &s.Sections[i]
		if ids[sec.ID] {
			return fmt.Errorf("duplicate id %s", sec.ID)
		}
		ids[sec.ID] = true
		sections[sec.ID] = sec
		if sec.Group != "" && !groups[sec.Group] {
			return fmt.Errorf("section %s is in group %s, which does not exist", sec.ID, sec.Group)
		}
		if sec.Default {
			defaults++
		}
		if paths[sec.Path] {
			return fmt.Errorf("two sections have the path %q", sec.Path)
		}
		paths[sec.Path] = true
	}
	if len(s.Sections) > 0 && defaults != 1 {
		return fmt.Errorf("%d default sections among %d", defaults, len(s.Sections))
	}
	if len(s.ExternalLinks) > 0 && len(s.Sections) == 0 {
		return fmt.Errorf("%d external links in a site without sections", len(s.ExternalLinks))
	}
	for _, l := range s.ExternalLinks {
		if ids[l.ID] {
			return fmt.Errorf("duplicate id %s", l.ID)
		}
		ids[l.ID] = true
		if l.Group != "" && !groups[l.Group] {
			return fmt.Errorf("external link %s is in group %s, which does not exist", l.ID, l.Group)
		}
	}
	type level struct {
		defaults int
		paths    map[string]bool
		spaces   map[string]bool
		count    int
	}
	levels := map[string]*level{}
	for _, ss := range s.SiteSpaces {
		if ids[ss.ID] {
			return fmt.Errorf("duplicate id %s", ss.ID)
		}
		ids[ss.ID] = true
		if len(s.Sections) > 0 && ss.Section == "" {
			return fmt.Errorf("site space %s is at the root of a site with sections", ss.ID)
		}
		if ss.Section != "" && sections[ss.Section] == nil {
			return fmt.Errorf("site space %s is in section %s, which does not exist", ss.ID, ss.Section)
		}
		l := levels[ss.Section]
		if l == nil {
			l = &level{paths: map[string]bool{}, spaces: map[string]bool{}}
			levels[ss.Section] = l
		}
		l.count++
		if ss.Default {
			l.defaults++
		}
		if l.paths[ss.Path] {
			return fmt.Errorf("two site spaces of level %q have the path %q", ss.Section, ss.Path)
		}
		l.paths[ss.Path] = true
		if l.spaces[ss.SpaceID] {
			return fmt.Errorf("space %s is twice in level %q", ss.SpaceID, ss.Section)
		}
		l.spaces[ss.SpaceID] = true
	}
	for name, l := range levels {
		if l.defaults != 1 {
			return fmt.Errorf("level %q has %d default site spaces among %d", name, l.defaults, l.count)
		}
	}
	for id := range sections {
		if levels[id] == nil {
			return fmt.Errorf("section %s has no site space", id)
		}
	}
	return nil
}

// Sort keys of the lists: strings whose order is the display order, so that
// a page token (the last key of its page) resumes after the right item.
// Keys of a tuple are joined by a space, lower than every key character.

func (st *structure) sectionKey(sec *model.SiteSection) string {
	if sec.Group == "" {
		return orderKey(sec.Order, sec.ID)
	}
	g, err := st.group(sec.Group)
	if err != nil {
		return orderKey(sec.Order, sec.ID)
	}
	return orderKey(g.Order, g.ID) + " " + orderKey(sec.Order, sec.ID)
}

func (st *structure) siteSpaceKey(ss *model.SiteSpace) string {
	prefix := ""
	if ss.Section != "" {
		if sec, err := st.section(ss.Section); err == nil {
			prefix = st.sectionKey(sec)
		}
	}
	return prefix + " " + orderKey(ss.Order, ss.ID)
}
