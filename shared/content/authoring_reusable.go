package content

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/document"
)

// Change kinds of an authoring batch for reusable contents and variables
// (Galley's operations: GitBook's change-request content update defines
// none; docs/content.md, "Authoring").
//
//   - insert_reusable_content: a reusable content of Title (required
//     unless the markdown's frontmatter gives one) whose body is Markdown
//     (as its Git file: optional frontmatter with a title, then the body;
//     a leading "# " heading is part of the body); Ref names it for later
//     changes and for includes of the batch.
//   - update_reusable_content: ReusableContent (id or ref) gets Title
//     and/or Markdown (the whole body).
//   - delete_reusable_content: ReusableContent goes. Includes that name it
//     stay in pages (readers show nothing for them, as for an unknown id).
//   - update_variables: the space's variables (Page empty) or a document
//     page's (Page, id or ref) change: each name of Variables with a value
//     is set to it, each with a nil value is removed; names not given are
//     kept.
const (
	InsertReusableContent = "insert_reusable_content"
	UpdateReusableContent = "update_reusable_content"
	DeleteReusableContent = "delete_reusable_content"
	UpdateVariables       = "update_variables"
)

// Bounds of authoring (docs/content.md).
const (
	// MaxTitle is the longest title of a page or a reusable content.
	MaxTitle = 200
	// MaxReusableContents is the most reusable contents a batch may leave
	// a space with.
	MaxReusableContents = 1000
	// MaxVariables is the most variables a batch may leave the space, or
	// a page, with.
	MaxVariables = 200
	// MaxVariablesPerChange is the most names one update_variables names.
	MaxVariablesPerChange = 100
)

// reIncludeLine finds an include line and its target.
var reIncludeLine = regexp.MustCompile(`^(\s*\{%\s*include\s+")([^"]*)("\s*%\}\s*)$`)

// includeIDPrefixes are the two forms naming a reusable content by id: the
// one Galley stores (ReusableContentLink) and the one GitBook's agent guide
// writes (and document.MarkdownOfDocument writes for a {document} block).
var includeIDPrefixes = []string{reusableLinkPrefix, "/reusable-content/"}

// reusableIDTarget reads an include target naming a reusable content by
// id, in either form.
func reusableIDTarget(target string) (string, bool) {
	for _, p := range includeIDPrefixes {
		if id, ok := strings.CutPrefix(target, p); ok && id != "" && !strings.ContainsAny(id, "/?#") {
			return id, true
		}
	}
	return "", false
}

// includeCheck is an include of a body of the batch, checked once the
// batch is applied.
type includeCheck struct {
	field, id string
}

// includes resolves the batch's reusable-content refs in a body's include
// lines (either id form; a ref becomes the id) and records each id named,
// to be checked when the batch is applied. Lines in fenced code are left
// alone. self is the reusable content whose body this is ("" for a page):
// it may not include itself.
func (e *Editor) includes(body, self, field string) (string, error) {
	if !strings.Contains(body, "{%") {
		return body, nil
	}
	lines := strings.Split(body, "\n")
	fence := ""
	for i, line := range lines {
		t := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = t[:3]
			continue
		}
		m := reIncludeLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		id, ok := reusableIDTarget(m[2])
		if !ok {
			continue // a path: read as GitBook writes it
		}
		if mapped, ok := e.reusableRefs[id]; ok {
			id = mapped
			lines[i] = m[1] + ReusableContentLink(id) + m[3]
		}
		if self != "" && id == self {
			return "", apperr.Field(field, "a reusable content cannot include itself")
		}
		e.checks = append(e.checks, includeCheck{field: field, id: id})
	}
	return strings.Join(lines, "\n"), nil
}

// checkIncludes verifies, once the batch is applied, that every include
// of an authored body names a reusable content of the tree.
func (e *Editor) checkIncludes() error {
	for _, c := range e.checks {
		if e.Index.ReusableContent(c.id) == nil {
			return apperr.Field(c.field, "reusable content %s not found (include %q)", c.id, ReusableContentLink(c.id))
		}
	}
	return nil
}

// reusable resolves a reusable content id or ref of the batch.
func (e *Editor) reusable(ref, field string) (string, error) {
	return resolveRef(ref, field, "reusable content", e.reusableRefs, func(id string) bool { return e.Index.ReusableContent(id) != nil })
}

// reusableBody applies a change's title and markdown to a reusable
// content.
func (e *Editor) reusableBody(rc *ReusableContent, c Change, field func(string) string) error {
	if c.Markdown != nil {
		title, body := ReusableContentBody(*c.Markdown)
		if title != "" && c.Title == nil {
			rc.Title = title
		}
		body, err := e.includes(e.body(body), rc.ID, field("document"))
		if err != nil {
			return err
		}
		rc.Document = ""
		if strings.TrimSpace(body) != "" {
			if rc.Document, err = e.PutDocument(document.NormalizeBody(body)); err != nil {
				return err
			}
		}
	}
	if c.Title != nil {
		rc.Title = strings.TrimSpace(*c.Title)
	}
	switch {
	case rc.Title == "":
		return apperr.Field(field("title"), "a reusable content needs a title")
	case len(rc.Title) > MaxTitle:
		return apperr.Field(field("title"), "expected length <= %d", MaxTitle)
	}
	return nil
}

func (e *Editor) insertReusable(c Change, field func(string) string) error {
	if len(e.Index.reusable) >= MaxReusableContents {
		return apperr.Field(field("operation"), "a space holds at most %d reusable contents", MaxReusableContents)
	}
	id := e.reusableRefs[c.Ref]
	if c.Ref == "" {
		id = e.NewID()
	}
	rc := ReusableContent{ID: id}
	if err := e.reusableBody(&rc, c, field); err != nil {
		return err
	}
	e.Index.PutReusableContent(rc)
	return nil
}

func (e *Editor) updateReusable(c Change, field func(string) string) error {
	id, err := e.reusable(c.ReusableContent, field("reusableContent"))
	if err != nil {
		return err
	}
	if c.Title == nil && c.Markdown == nil {
		return apperr.Field(field("title"), "update_reusable_content needs a title or a document")
	}
	rc := *e.Index.ReusableContent(id)
	if err := e.reusableBody(&rc, c, field); err != nil {
		return err
	}
	e.Index.PutReusableContent(rc)
	return nil
}

func (e *Editor) deleteReusable(c Change, field func(string) string) error {
	id, err := e.reusable(c.ReusableContent, field("reusableContent"))
	if err != nil {
		return err
	}
	e.Index.RemoveReusableContent(id)
	return nil
}

// EditVariables applies changes to variables: a nil value removes the
// name, any other is checked (CheckVariables) and set. The error names
// field.<name>.
func EditVariables(v Variables, changes map[string]any, field string) (Variables, error) {
	names := make([]string, 0, len(changes))
	for k := range changes {
		names = append(names, k)
	}
	sort.Strings(names)
	out := v.Clone()
	if out == nil {
		out = Variables{}
	}
	for _, k := range names {
		if !ValidVariableName(k) {
			return nil, apperr.Field(field+"."+k, "a name starts with a letter and holds letters, digits and underscores")
		}
		if changes[k] == nil {
			delete(out, k)
			continue
		}
		x, ok := variableValue(changes[k])
		if !ok {
			return nil, apperr.Field(field+"."+k, "a value is a string of at most %d bytes, a number, a boolean or null (removes it)", MaxVariableString)
		}
		out[k] = x
	}
	if len(out) > MaxVariables && len(out) > len(v) {
		return nil, apperr.Field(field, "at most %d variables", MaxVariables)
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

func (e *Editor) updateVariables(c Change, field func(string) string) error {
	switch {
	case len(c.Variables) == 0:
		return apperr.Field(field("variables"), "update_variables needs variables")
	case len(c.Variables) > MaxVariablesPerChange:
		return apperr.Field(field("variables"), "at most %d variables in one change", MaxVariablesPerChange)
	}
	if c.Page == "" {
		v, err := EditVariables(e.Index.variables, c.Variables, field("variables"))
		if err != nil {
			return err
		}
		e.Index.SetVariables(v)
		return nil
	}
	id, err := e.page(c.Page, field("page"))
	if err != nil {
		return err
	}
	p := *e.Index.Page(id)
	if p.Type != TypeDocument {
		return apperr.Field(field("page"), "only document pages have variables (page %s is a %s)", c.Page, p.Type)
	}
	if p.Variables, err = EditVariables(p.Variables, c.Variables, field("variables")); err != nil {
		return err
	}
	p.UpdatedAt = e.Now
	e.Index.Put(p)
	e.touch(PageUpdated, p.ID, "")
	return nil
}

// reserveReusableRef gives a reusable content inserted with a ref its id
// before the batch runs.
func (e *Editor) reserveReusableRef(c Change, i int) error {
	if _, dup := e.Refs[c.Ref]; dup {
		return apperr.Field(fmt.Sprintf("changes[%d].ref", i), "ref %q is used twice in the batch", c.Ref)
	}
	id := e.NewID()
	e.Refs[c.Ref], e.reusableRefs[c.Ref] = id, id
	return nil
}
