package sites

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/model"
)

// Unit tests of the structure invariants (doc.go), each by number, on the
// structure in memory; sites_test.go and structure_http_test.go test them
// again through the API on both storage backends.

func newStructure() *structure {
	n := 0
	return &structure{s: &model.Site{ID: "site"}, now: time.Unix(0, 0), newID: func() string {
		n++
		return fmt.Sprintf("id%03d", n)
	}}
}

func space(id string) model.Space { return model.Space{ID: id, Title: "Space " + id} }

func noErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func addSS(t *testing.T, st *structure, sp model.Space, section string) *model.SiteSpace {
	t.Helper()
	ss, err := st.addSiteSpace(sp, section)
	noErr(t, err)
	return ss
}

func addSec(t *testing.T, st *structure, sp model.Space, title string) *model.SiteSection {
	t.Helper()
	sec, err := st.addSection(sp, title)
	noErr(t, err)
	return sec
}

func addGrp(t *testing.T, st *structure, title, icon string, sections []string) *model.SiteSectionGroup {
	t.Helper()
	g, err := st.addGroup(title, icon, sections)
	noErr(t, err)
	return g
}

func ok(t *testing.T, st *structure) {
	t.Helper()
	if err := st.check(); err != nil {
		t.Fatalf("invariant broken: %v", err)
	}
}

func sectionIDs(st *structure) string {
	var out []string
	for _, s := range st.sections() {
		out = append(out, s.ID)
	}
	return strings.Join(out, ",")
}

func levelIDs(st *structure, section string) string {
	var out []string
	for _, ss := range st.level(section) {
		out = append(out, ss.ID)
	}
	return strings.Join(out, ",")
}

func defaultOf(st *structure, section string) string {
	for _, ss := range st.level(section) {
		if ss.Default {
			return ss.ID
		}
	}
	return ""
}

func kindOf(t *testing.T, err error, k apperr.Kind) {
	t.Helper()
	if !apperr.Is(err, k) {
		t.Fatalf("error %v, want kind %s", err, k)
	}
}

// Invariant 1: root XOR sections; the first section takes the root's site
// spaces (order, paths, default kept) and adds its space after them.
func TestInvariant1FirstSectionTakesTheRoot(t *testing.T) {
	st := newStructure()
	a := addSS(t, st, space("a"), "")
	b := addSS(t, st, space("b"), "")
	ok(t, st)
	noErr(t, st.setDefaultSiteSpace(b.ID, "", "x"))
	sec := addSec(t, st, space("c"), "Guides")
	ok(t, st)
	if got := levelIDs(st, ""); got != "" {
		t.Fatalf("root still holds %s", got)
	}
	lvl := st.level(sec.ID)
	if len(lvl) != 3 || lvl[0].ID != a.ID || lvl[1].ID != b.ID || lvl[2].SpaceID != "c" {
		t.Fatalf("first section holds %s", levelIDs(st, sec.ID))
	}
	if defaultOf(st, sec.ID) != b.ID || !sec.Default || lvl[0].Path != "space-a" {
		t.Fatalf("default %s, section default %v, path %s", defaultOf(st, sec.ID), sec.Default, lvl[0].Path)
	}
	// A site space added without a section goes to the default section.
	d := addSS(t, st, space("d"), "")
	if d.Section != sec.ID {
		t.Fatalf("site space went to %q", d.Section)
	}
	// A root site space in a site with sections is refused by check.
	st.s.SiteSpaces = append(st.s.SiteSpaces, model.SiteSpace{ID: "stray", SpaceID: "e", Path: "e", Default: true})
	if st.check() == nil {
		t.Fatal("check accepts root site spaces beside sections")
	}
}

// Invariant 2: one default section, one default site space per level.
func TestInvariant2OneDefaultPerLevel(t *testing.T) {
	st := newStructure()
	s1 := addSec(t, st, space("a"), "One")
	s2 := addSec(t, st, space("b"), "Two")
	addSS(t, st, space("c"), s2.ID)
	ok(t, st)
	if !s1.Default || s2.Default {
		t.Fatal("the first section is not the only default")
	}
	noErr(t, st.setDefaultSection(s2.ID, "defaultSiteSection"))
	ok(t, st)
	s1, _ = st.section(s1.ID)
	if s1.Default {
		t.Fatal("two default sections")
	}
	second := st.level(s2.ID)[1]
	noErr(t, st.setDefaultSiteSpace(second.ID, s2.ID, "defaultSiteSpace"))
	ok(t, st)
	if defaultOf(st, s2.ID) != second.ID {
		t.Fatal("default site space not moved")
	}
	// A site space of another level is refused, naming the field.
	err := st.setDefaultSiteSpace(st.level(s1.ID)[0].ID, s2.ID, "defaultSiteSpace")
	kindOf(t, err, apperr.Invalid)
	st.s.Sections[0].Default, st.s.Sections[1].Default = true, true
	if st.check() == nil {
		t.Fatal("check accepts two default sections")
	}
}

// Invariant 3: deleting a default picks the next, or the previous when last.
func TestInvariant3DeletingADefaultPicksTheNext(t *testing.T) {
	st := newStructure()
	var ids []string
	for _, s := range []string{"a", "b", "c"} {
		ids = append(ids, addSS(t, st, space(s), "").ID)
	}
	noErr(t, st.setDefaultSiteSpace(ids[1], "", "x"))
	noErr(t, st.deleteSiteSpace(ids[1]))
	ok(t, st)
	if defaultOf(st, "") != ids[2] {
		t.Fatalf("default %s after deleting the middle one, want the next %s", defaultOf(st, ""), ids[2])
	}
	noErr(t, st.deleteSiteSpace(ids[2]))
	ok(t, st)
	if defaultOf(st, "") != ids[0] {
		t.Fatalf("default %s after deleting the last one, want the previous %s", defaultOf(st, ""), ids[0])
	}
	noErr(t, st.deleteSiteSpace(ids[0]))
	ok(t, st)

	secs := []*model.SiteSection{}
	for _, s := range []string{"x", "y", "z"} {
		secs = append(secs, addSec(t, st, space(s), "Section "+s))
	}
	ids3 := []string{secs[0].ID, secs[1].ID, secs[2].ID}
	noErr(t, st.setDefaultSection(ids3[1], "x"))
	noErr(t, st.deleteSection(ids3[1]))
	ok(t, st)
	if d := st.defaultSection(); d == nil || d.ID != ids3[2] {
		t.Fatalf("default section %v after deleting the middle one, want %s", d, ids3[2])
	}
}

// Invariant 4: paths unique among siblings.
func TestInvariant4PathsUniqueAmongSiblings(t *testing.T) {
	st := newStructure()
	s1 := addSec(t, st, space("a"), "Guides")
	s2 := addSec(t, st, space("b"), "Guides")
	if s1.Path != "guides" || s2.Path != "guides-2" {
		t.Fatalf("paths %s, %s", s1.Path, s2.Path)
	}
	twin := model.Space{ID: "twin", Title: "Space a"}
	ss := addSS(t, st, twin, s1.ID)
	if ss.Path != "space-a-2" {
		t.Fatalf("path %s, want a suffix among its siblings", ss.Path)
	}
	// The same path in another level is fine.
	other := addSS(t, st, space("a"), s2.ID)
	if other.Path != "space-a" {
		t.Fatalf("path %s in another level", other.Path)
	}
	ok(t, st)
	if got := slug("  Hello, World! Ünïcode  ", "x"); got != "hello-world-ünïcode" {
		t.Errorf("slug = %q", got)
	}
	if got := uniquePath(strings.Repeat("p", 100), map[string]bool{strings.Repeat("p", 100): true}); len(got) != 100 || !strings.HasSuffix(got, "-2") {
		t.Errorf("unique path of a full-length path = %q", got)
	}
}

// Invariant 5: a space at most once per level.
func TestInvariant5SpaceOncePerLevel(t *testing.T) {
	st := newStructure()
	addSS(t, st, space("a"), "")
	_, err := st.addSiteSpace(space("a"), "")
	kindOf(t, err, apperr.Conflict)
	ok(t, st)
}

// Invariant 6: a section keeps at least one site space.
func TestInvariant6SectionKeepsASiteSpace(t *testing.T) {
	st := newStructure()
	s1 := addSec(t, st, space("a"), "One")
	s2 := addSec(t, st, space("b"), "Two")
	only := st.level(s1.ID)[0]
	kindOf(t, st.deleteSiteSpace(only.ID), apperr.Conflict)
	kindOf(t, st.moveSiteSpace(only.ID, Position{Before: &Pointer{ID: st.level(s2.ID)[0].ID}}), apperr.Conflict)
	ok(t, st)
}

// Invariant 7: nothing orphaned.
func TestInvariant7NothingOrphaned(t *testing.T) {
	st := newStructure()
	s1 := addSec(t, st, space("a"), "One")
	addSS(t, st, space("b"), s1.ID)
	s2 := addSec(t, st, space("c"), "Two")
	s3 := addSec(t, st, space("d"), "Three")
	g := addGrp(t, st, "Group", "", []string{s2.ID, s3.ID})
	noErr(t, st.deleteSection(s1.ID))
	ok(t, st)
	for _, ss := range st.s.SiteSpaces {
		if ss.Section == s1.ID {
			t.Fatal("a site space of the deleted section remains")
		}
	}
	before := sectionIDs(st)
	noErr(t, st.deleteGroup(g.ID))
	ok(t, st)
	if len(st.s.Groups) != 0 || sectionIDs(st) != before {
		t.Fatalf("after deleting the group: groups %d, sections %s (were %s)", len(st.s.Groups), sectionIDs(st), before)
	}
	for _, sec := range st.s.Sections {
		if sec.Group != "" {
			t.Fatal("a section still names the deleted group")
		}
	}
	// Deleting the last section leaves an empty, valid root.
	noErr(t, st.deleteSection(s2.ID))
	noErr(t, st.deleteSection(s3.ID))
	ok(t, st)
	if len(st.s.SiteSpaces) != 0 {
		t.Fatal("site spaces outlive every section")
	}
	st.s.SiteSpaces = []model.SiteSpace{{ID: "x", SpaceID: "x", Section: "gone", Path: "x", Default: true}}
	if st.check() == nil {
		t.Fatal("check accepts a site space of a missing section")
	}
}

// Moves: groups and ungrouped sections share the top level; moving next to
// a section joins its container; without a position, to the end.
func TestMovesKeepOrderAndContainers(t *testing.T) {
	st := newStructure()
	var s []*model.SiteSection
	for _, x := range []string{"a", "b", "c", "d"} {
		s = append(s, addSec(t, st, space(x), "Section "+x))
	}
	id := func(i int) string { return s[i].ID }
	g := addGrp(t, st, "G", "", []string{id(1), id(2)})
	// top: a, d, G(b, c) -> display a, d, b, c
	if got := sectionIDs(st); got != strings.Join([]string{id(0), id(3), id(1), id(2)}, ",") {
		t.Fatalf("display order %s", got)
	}
	noErr(t, st.moveGroup(g.ID, Position{Before: &Pointer{Type: "site-section", ID: id(0)}}))
	if got := sectionIDs(st); got != strings.Join([]string{id(1), id(2), id(0), id(3)}, ",") {
		t.Fatalf("after moving the group first: %s", got)
	}
	// Moving d after b puts it inside the group, between b and c.
	noErr(t, st.moveSection(id(3), Position{After: &Pointer{Type: "site-section", ID: id(1)}}))
	ok(t, st)
	sec, _ := st.section(id(3))
	if sec.Group != g.ID || sectionIDs(st) != strings.Join([]string{id(1), id(3), id(2), id(0)}, ",") {
		t.Fatalf("after moving d after b: group %q, order %s", sec.Group, sectionIDs(st))
	}
	// No position: the end of the top level, out of the group.
	noErr(t, st.moveSection(id(1), Position{}))
	sec, _ = st.section(id(1))
	if sec.Group != "" || sectionIDs(st) != strings.Join([]string{id(3), id(2), id(0), id(1)}, ",") {
		t.Fatalf("after moving b to the end: group %q, order %s", sec.Group, sectionIDs(st))
	}
	// A group cannot go next to a grouped section, nor next to itself.
	kindOf(t, st.moveGroup(g.ID, Position{After: &Pointer{Type: "site-section", ID: id(3)}}), apperr.Invalid)
	kindOf(t, st.moveGroup(g.ID, Position{After: &Pointer{Type: "site-section-group", ID: g.ID}}), apperr.Invalid)
	kindOf(t, st.moveGroup(g.ID, Position{After: &Pointer{Type: "site-section-group", ID: id(0)}}), apperr.Invalid)
	kindOf(t, st.moveSection(id(0), Position{Before: &Pointer{ID: id(0)}}), apperr.Invalid)
	kindOf(t, st.moveSection(id(0), Position{Before: &Pointer{ID: id(1)}, After: &Pointer{ID: id(2)}}), apperr.Invalid)
	ok(t, st)
}

// Many moves never renumber: each move rewrites one key only.
func TestMovesRewriteOneKey(t *testing.T) {
	st := newStructure()
	var ids []string
	for i := 0; i < 30; i++ {
		ids = append(ids, addSS(t, st, space(fmt.Sprint(i)), "").ID)
	}
	for i := 0; i < 200; i++ {
		before := map[string]string{}
		for _, ss := range st.s.SiteSpaces {
			before[ss.ID] = ss.Order
		}
		moved, target := ids[(i*7)%30], ids[(i*11+3)%30]
		if moved == target {
			continue
		}
		noErr(t, st.moveSiteSpace(moved, Position{Before: &Pointer{ID: target}}))
		ok(t, st)
		lvl := st.level("")
		for j, ss := range lvl {
			if ss.ID == moved && (j+1 >= len(lvl) || lvl[j+1].ID != target) {
				t.Fatalf("move %d: %s is not right before %s", i, moved, target)
			}
			if ss.ID != moved && ss.Order != before[ss.ID] {
				t.Fatalf("move %d rewrote the key of %s", i, ss.ID)
			}
		}
	}
}

// A site space moved into another section joins it (not as its default),
// and its old section picks a new default; taken paths and spaces refuse.
func TestMoveSiteSpaceAcrossSections(t *testing.T) {
	st := newStructure()
	s1 := addSec(t, st, space("a"), "One")
	b := addSS(t, st, space("b"), s1.ID)
	s2 := addSec(t, st, space("c"), "Two")
	a := st.level(s1.ID)[0]
	c := st.level(s2.ID)[0]
	noErr(t, st.moveSiteSpace(a.ID, Position{After: &Pointer{ID: c.ID}}))
	ok(t, st)
	if levelIDs(st, s2.ID) != c.ID+","+a.ID || defaultOf(st, s2.ID) != c.ID || defaultOf(st, s1.ID) != b.ID {
		t.Fatalf("section two %s (default %s), section one default %s", levelIDs(st, s2.ID), defaultOf(st, s2.ID), defaultOf(st, s1.ID))
	}
	// A path taken in the destination refuses the move.
	clash := addSS(t, st, model.Space{ID: "d", Title: "Space b"}, s2.ID)
	if clash.Path != "space-b" {
		t.Fatalf("path %s", clash.Path)
	}
	addSS(t, st, space("e"), s1.ID) // so that b is not the last of its section
	kindOf(t, st.moveSiteSpace(b.ID, Position{Before: &Pointer{ID: c.ID}}), apperr.Conflict)
	// So does a space already in the destination.
	dup := addSS(t, st, space("c"), s1.ID)
	kindOf(t, st.moveSiteSpace(dup.ID, Position{Before: &Pointer{ID: c.ID}}), apperr.Conflict)
	ok(t, st)
}
