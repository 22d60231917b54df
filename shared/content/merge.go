package content

import (
	"fmt"
	"reflect"
	"sort"

	"github.com/galleydocs/galley/shared/document"
)

// Conflict is one reason a three-way merge cannot be made.
type Conflict struct {
	Page            string `json:"page,omitempty" doc:"The page in conflict"`
	File            string `json:"file,omitempty" doc:"The file in conflict"`
	ReusableContent string `json:"reusableContent,omitempty" doc:"The reusable content in conflict"`
	Variable        string `json:"variable,omitempty" doc:"The space variable in conflict"`
	Reason          string `json:"reason"`
}

// Merger merges two lines of edits (ours and theirs) of a base tree.
//
// Rules: pages (and files) are matched by id. A page added on one side is
// kept; deleted on one side and unchanged on the other, it is deleted;
// deleted on one side and changed on the other, it conflicts. A page
// present on all three sides merges field by field (title, slug, metadata;
// its place, parent and position together, is one field): a field changed
// on one side takes that side, changed alike on both takes either, changed
// differently on both conflicts. A body changed on both sides merges line
// by line (Merge3); its variables merge one name at a time. The merged tree must then be whole: no page under a
// page the other side deleted, no cycle from two moves, no two siblings
// with one slug; each breach is a conflict.
type Merger struct {
	Base, Ours, Theirs *Index
	// OursName, TheirsName name the sides in conflict reasons.
	OursName, TheirsName string
	// Document reads a body; PutDocument stores one.
	Document    func(hash string) (string, error)
	PutDocument func(body string) (string, error)
}

// Merge returns the merged tree, or the conflicts that prevent it.
func (m *Merger) Merge() (*Index, []Conflict, error) {
	var conflicts []Conflict
	var pages []Page
	for _, id := range pageIDs(m.Base, m.Ours, m.Theirs) {
		b, o, t := m.Base.Page(id), m.Ours.Page(id), m.Theirs.Page(id)
		switch {
		case b == nil && o != nil && t != nil:
			if !samePage(o, t) {
				conflicts = append(conflicts, Conflict{Page: id, Reason: "added differently on both sides"})
				continue
			}
			pages = append(pages, *o)
		case b == nil && o != nil:
			pages = append(pages, *o)
		case b == nil && t != nil:
			pages = append(pages, *t)
		case o == nil && t == nil:
		case o == nil:
			if !samePage(b, t) {
				conflicts = append(conflicts, Conflict{Page: id, Reason: fmt.Sprintf("deleted in %s, changed in %s", m.OursName, m.TheirsName)})
			}
		case t == nil:
			if !samePage(b, o) {
				conflicts = append(conflicts, Conflict{Page: id, Reason: fmt.Sprintf("changed in %s, deleted in %s", m.OursName, m.TheirsName)})
			}
		case samePage(b, o):
			pages = append(pages, *t)
		case samePage(b, t):
			pages = append(pages, *o)
		default:
			p, reasons, err := m.page(b, o, t)
			if err != nil {
				return nil, nil, err
			}
			for _, r := range reasons {
				conflicts = append(conflicts, Conflict{Page: id, Reason: r})
			}
			if len(reasons) == 0 {
				pages = append(pages, p)
			}
		}
	}
	files, fileConflicts := m.files()
	conflicts = append(conflicts, fileConflicts...)
	reusable, variables, extraConflicts, err := m.extras()
	if err != nil {
		return nil, nil, err
	}
	conflicts = append(conflicts, extraConflicts...)
	if len(conflicts) > 0 {
		return nil, conflicts, nil
	}
	ix := NewIndex(&Tree{Pages: pages, Files: files, ReusableContents: reusable, Variables: variables})
	return ix, ix.check(), nil
}

func pageIDs(ixs ...*Index) []string {
	seen := map[string]bool{}
	var out []string
	for _, ix := range ixs {
		for id := range ix.pages {
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	sort.Strings(out)
	return out
}

// metaFields are the Page fields merged one by one; the place (Parent,
// Pos), the body, the variables (one name at a time) and the timestamps
// are merged apart.
var metaFields = func() []int {
	var out []int
	t := reflect.TypeFor[Page]()
	for i := 0; i < t.NumField(); i++ {
		switch t.Field(i).Name {
		case "ID", "Parent", "Pos", "Document", "CreatedAt", "UpdatedAt", "Variables":
		default:
			out = append(out, i)
		}
	}
	return out
}()

// samePage reports whether two versions of a page differ in nothing but
// their timestamps. Most pages of a merge are unchanged on a side, so the
// plain fields are compared first, without reflection.
func samePage(a, b *Page) bool {
	if a.Parent != b.Parent || a.Pos != b.Pos || a.Document != b.Document || a.Title != b.Title || a.Slug != b.Slug ||
		a.Type != b.Type || a.Emoji != b.Emoji || a.Icon != b.Icon || a.Description != b.Description ||
		a.Hidden != b.Hidden || a.NoIndex != b.NoIndex || a.NoRobotsIndex != b.NoRobotsIndex || a.Condition != b.Condition {
		return false
	}
	if (len(a.Variables) > 0 || len(b.Variables) > 0) && !reflect.DeepEqual(a.Variables, b.Variables) {
		return false
	}
	if a.Layout == b.Layout && a.Cover == b.Cover && a.Target == b.Target && a.Git == b.Git {
		return true // the same pointers, or all nil
	}
	va, vb := reflect.ValueOf(*a), reflect.ValueOf(*b)
	for _, i := range metaFields {
		if !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
			return false
		}
	}
	return true
}

// page merges a page present on all three sides.
func (m *Merger) page(b, o, t *Page) (Page, []string, error) {
	out := *o
	var reasons []string
	vb, vo, vt := reflect.ValueOf(*b), reflect.ValueOf(*o), reflect.ValueOf(*t)
	vout := reflect.ValueOf(&out).Elem()
	for _, i := range metaFields {
		fb, fo, ft := vb.Field(i).Interface(), vo.Field(i).Interface(), vt.Field(i).Interface()
		switch {
		case reflect.DeepEqual(fo, fb):
			vout.Field(i).Set(vt.Field(i))
		case reflect.DeepEqual(ft, fb), reflect.DeepEqual(fo, ft):
		default:
			name := reflect.TypeFor[Page]().Field(i).Name
			reasons = append(reasons, fmt.Sprintf("%s changed differently in %s and %s", lowerFirst(name), m.OursName, m.TheirsName))
		}
	}
	vars, names := mergeVariables(b.Variables, o.Variables, t.Variables)
	out.Variables = vars
	for _, k := range names {
		reasons = append(reasons, fmt.Sprintf("variable %q changed differently in %s and %s", k, m.OursName, m.TheirsName))
	}
	switch ob, tb, ot := o.Parent == b.Parent && o.Pos == b.Pos, t.Parent == b.Parent && t.Pos == b.Pos, o.Parent == t.Parent && o.Pos == t.Pos; {
	case ob:
		out.Parent, out.Pos = t.Parent, t.Pos
	case tb, ot:
	default:
		reasons = append(reasons, fmt.Sprintf("moved differently in %s and %s", m.OursName, m.TheirsName))
	}
	var err error
	if out.Document, reasons, err = m.document(b.Document, o.Document, t.Document, reasons); err != nil {
		return out, nil, err
	}
	if t.UpdatedAt.After(out.UpdatedAt) {
		out.UpdatedAt = t.UpdatedAt
	}
	return out, reasons, nil
}

// document merges a body (document hashes of the base, ours, theirs):
// the side that changed it, or both sides' lines merged; when the same
// lines were edited on both sides, it adds that reason to reasons.
func (m *Merger) document(b, o, t string, reasons []string) (string, []string, error) {
	switch {
	case o == b:
		return t, reasons, nil
	case t == b, o == t:
		return o, reasons, nil
	}
	doc, ok, err := m.body(b, o, t)
	if err != nil || ok {
		return doc, reasons, err
	}
	return doc, append(reasons, fmt.Sprintf("the same lines edited in %s and %s", m.OursName, m.TheirsName)), nil
}

// body merges a body changed on both sides.
func (m *Merger) body(b, o, t string) (string, bool, error) {
	var texts [3]string
	for i, h := range []string{b, o, t} {
		s, err := m.Document(h)
		if err != nil {
			return "", false, err
		}
		texts[i] = s
	}
	merged, ok := Merge3(texts[0], texts[1], texts[2])
	if !ok {
		return "", false, nil
	}
	hash, err := m.PutDocument(document.NormalizeBody(merged))
	return hash, err == nil, err
}

// files merges the files: added on either side kept, deleted on one side
// deleted unless changed on the other.
func (m *Merger) files() ([]File, []Conflict) {
	var out []File
	var conflicts []Conflict
	for id := range unionKeys(m.Base.files, m.Ours.files, m.Theirs.files) {
		f, ok := oneSide(m.Base.File(id), m.Ours.File(id), m.Theirs.File(id))
		switch {
		case !ok:
			conflicts = append(conflicts, Conflict{File: id, Reason: fmt.Sprintf("changed differently in %s and %s", m.OursName, m.TheirsName)})
		case f != nil:
			out = append(out, *f)
		}
	}
	return out, conflicts
}

// unionKeys returns the keys of the maps.
func unionKeys[V any](maps ...map[string]V) map[string]bool {
	keys := map[string]bool{}
	for _, m := range maps {
		for k := range m {
			keys[k] = true
		}
	}
	return keys
}

// oneSide merges a record of the base, ours and theirs (nil where absent)
// that at most one side changed: the side that changed it, either when
// both changed it alike. ok is false when both changed it differently.
func oneSide[T any](b, o, t *T) (merged *T, ok bool) {
	eq := func(x, y *T) bool { return reflect.DeepEqual(x, y) }
	switch {
	case eq(o, t), eq(b, t):
		return o, true
	case eq(b, o):
		return t, true
	}
	return nil, false
}

// check finds what makes a merged tree not whole: pages under a missing
// parent, cycles, siblings sharing a slug.
func (ix *Index) check() []Conflict {
	var conflicts []Conflict
	ids := make([]string, 0, len(ix.pages))
	for id := range ix.pages {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		p := ix.pages[id]
		if p.Parent != "" && ix.pages[p.Parent] == nil {
			conflicts = append(conflicts, Conflict{Page: id, Reason: "its parent page was deleted on the other side"})
			continue
		}
		for cur, steps := p.Parent, 0; cur != ""; steps++ {
			if cur == id {
				conflicts = append(conflicts, Conflict{Page: id, Reason: "moves on both sides put it under itself"})
				break
			}
			if steps > len(ix.pages) {
				break // under a cycle of other pages, which are reported
			}
			parent := ix.pages[cur]
			if parent == nil {
				break
			}
			cur = parent.Parent
		}
	}
	for _, kids := range ix.children {
		seen := map[string]string{}
		for _, id := range kids {
			p := ix.pages[id]
			if p.Type == TypeLink {
				continue
			}
			if other, dup := seen[p.Slug]; dup {
				conflicts = append(conflicts, Conflict{Page: id, Reason: fmt.Sprintf("its slug %q is also page %s's under the same parent", p.Slug, other)})
			}
			seen[p.Slug] = id
		}
	}
	sort.Slice(conflicts, func(i, j int) bool { return conflicts[i].Page < conflicts[j].Page })
	return conflicts
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return string(s[0]|0x20) + s[1:]
}
