package content

import (
	"fmt"
	"math"
	"net/url"
	"path"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/galleydocs/galley/shared/document"
)

// Reusable contents and variables (issue 25, items 1 and 3; GitBook's
// RevisionReusableContent, Variables). docs/content.md, "Reusable contents
// and variables".
//
// A reusable content is a body shared by pages: stored like a page's body
// (Document is the hash of its markdown, a blob of the space), listed in
// the tree with its id, title and Git blob. Pages show it with GitBook's
// include block, `{% include "<target>" %}`, whose target is either a path
// to the reusable content's file (as GitBook writes it, relative to the
// page's file: "../.gitbook/includes/x.md") or, for a block authored in
// Galley, ReusableContentLink(id) ("/reusable-contents/<id>"), which keeps
// naming it whatever moves (as /pages/<id> does for links). Git export
// writes the second form as the first.
//
// Variables are a map of names to strings (at most 256 bytes), numbers or
// booleans: the space's (Tree.Variables; .gitbook/vars.yaml in Git) and
// each page's (Page.Variables; frontmatter `vars:`).

// ReusableContent is a reusable content of a revision, as stored.
type ReusableContent struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// Document is the hash of its markdown body; "" is empty.
	Document string `json:"document,omitempty"`
	// Git is the file it came from or was last written to (Git Sync).
	Git *GitBlob `json:"git,omitempty"`
}

// IncludesDir is where GitBook keeps a space's reusable contents in a
// repository (relative to the docs' root).
const IncludesDir = ".gitbook/includes"

// VariablesFile is where GitBook keeps a space's variables in a
// repository (relative to the docs' root).
const VariablesFile = ".gitbook/vars.yaml"

// reusableLinkPrefix starts the include target of a block authored in
// Galley.
const reusableLinkPrefix = "/reusable-contents/"

// ReusableContentLink is the include target naming a reusable content by
// id: what a block authored in Galley stores (`{% include "<it>" %}`).
func ReusableContentLink(id string) string { return reusableLinkPrefix + id }

// ReusableContentFile is the file a new reusable content is written to by
// Git export, as GitBook names them: .gitbook/includes/<slug of title>.md
// (made unique by the exporter).
func ReusableContentFile(title string) string {
	return IncludesDir + "/" + document.Slug(title, "reusable-content") + ".md"
}

// ReusableContentBody is the body of a reusable content's file: what
// follows its frontmatter (which holds its title). Unlike a page's, a
// leading "# " heading is part of the body.
func ReusableContentBody(src string) (title, body string) {
	clean := strings.TrimPrefix(strings.ReplaceAll(src, "\r\n", "\n"), "\ufeff")
	s := document.Split(clean)
	start := s.Body
	if s.Title >= 0 {
		start = s.Title
	}
	var front struct {
		Title string `yaml:"title"`
	}
	if s.Front != "" && yaml.Unmarshal([]byte(s.Front), &front) == nil {
		title = strings.TrimSpace(front.Title)
	}
	return title, document.NormalizeBody(clean[start:])
}

// IncludeFile is the file, from the docs' root, that an include target
// names when read from the page file from ("" when it names none: an
// external URL, or the id form).
func IncludeFile(from, target string) string {
	if target == "" || strings.HasPrefix(target, reusableLinkPrefix) || strings.Contains(target, "://") {
		return ""
	}
	if u, err := url.PathUnescape(target); err == nil {
		target = u
	}
	var p string
	if strings.HasPrefix(target, "/") {
		p = strings.TrimPrefix(path.Clean(target), "/")
	} else {
		p = path.Clean(path.Join(path.Dir(from), target))
	}
	if p == "" || p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return "" // outside the docs' root
	}
	return p
}

// includeFroms are the files an include of a page is read from: the file
// the page came from (Git Sync), then the one Galley would write it to.
func includeFroms(p *Page, gitPath string) []string {
	var out []string
	if p != nil && p.Git != nil && p.Git.Path != "" {
		out = append(out, p.Git.Path)
	}
	if gitPath != "" && (len(out) == 0 || out[0] != gitPath) {
		out = append(out, gitPath)
	}
	return out
}

// ReusableContent returns the reusable content with id, or nil.
func (ix *Index) ReusableContent(id string) *ReusableContent { return ix.reusable[id] }

// ReusableContents returns the reusable contents ordered by id.
func (ix *Index) ReusableContents() []ReusableContent {
	if len(ix.reusable) == 0 {
		return nil
	}
	out := make([]ReusableContent, 0, len(ix.reusable))
	for _, rc := range ix.reusable {
		out = append(out, *rc)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// PutReusableContent adds or replaces a reusable content (the index keeps
// a copy).
func (ix *Index) PutReusableContent(rc ReusableContent) {
	if ix.reusable == nil {
		ix.reusable = map[string]*ReusableContent{}
	}
	ix.reusable[rc.ID] = &rc
}

// RemoveReusableContent deletes a reusable content.
func (ix *Index) RemoveReusableContent(id string) { delete(ix.reusable, id) }

// Variables returns a copy of the space's variables (nil for none).
func (ix *Index) Variables() Variables { return ix.variables.Clone() }

// SetVariables replaces the space's variables (nil or empty: none).
func (ix *Index) SetVariables(v Variables) {
	if len(v) == 0 {
		ix.variables = nil
		return
	}
	ix.variables = v.Clone()
}

// ReusableContentAtGitPath is the id of the reusable content imported from
// a file (its path from the docs' root), or "".
func (ix *Index) ReusableContentAtGitPath(file string) string {
	for id, rc := range ix.reusable {
		if rc.Git != nil && rc.Git.Path == file {
			return id
		}
	}
	return ""
}

// SourceFile is the file a page's includes are read from: the file it
// came from (Git Sync), else the one Galley writes it to (GitPath); ""
// for no such page.
func (ix *Index) SourceFile(id string) string {
	p := ix.pages[id]
	if p == nil {
		return ""
	}
	return includeFroms(p, ix.GitPath(id))[0]
}

// ReusableContentAt is the id of the reusable content an include target
// in page pageID's body names, or "": ReusableContentLink's form (or
// GitBook's /reusable-content/<id>, which a {document} block writes), or a
// path to its file relative to the page's file (the one it came from,
// else the one Galley would write it to), as GitBook writes includes.
func (ix *Index) ReusableContentAt(pageID, target string) string {
	if id, ok := reusableIDTarget(target); ok {
		if ix.reusable[id] != nil {
			return id
		}
		return ""
	}
	p := ix.pages[pageID]
	gitPath := ""
	if p != nil {
		gitPath = ix.GitPath(pageID)
	}
	for _, from := range includeFroms(p, gitPath) {
		if f := IncludeFile(from, target); f != "" {
			if id := ix.ReusableContentAtGitPath(f); id != "" {
				return id
			}
		}
	}
	return ""
}

// ReusableContentTarget is the include target a block authored in Galley
// stores for a reusable content (ReusableContentLink).
func (ix *Index) ReusableContentTarget(id string) string { return ReusableContentLink(id) }

// Variables are named values: GitBook's Variables, a map of names to
// VariableValue (a string of at most 256 bytes, a number, a boolean).
// Numbers are float64 (as JSON reads them back).
type Variables map[string]any

// MaxVariableString is the longest string value a variable holds.
const MaxVariableString = 256

var variableName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)

// ValidVariableName tells a variable's name: a letter, then letters,
// digits and underscores (GitBook's rule).
func ValidVariableName(name string) bool { return variableName.MatchString(name) }

// Clone copies the map (nil stays nil).
func (v Variables) Clone() Variables {
	if v == nil {
		return nil
	}
	out := make(Variables, len(v))
	for k, x := range v {
		out[k] = x
	}
	return out
}

// variableValue is a value as stored: a string, a float64 or a bool;
// false when it is none of them (or a string too long).
func variableValue(x any) (any, bool) {
	switch v := x.(type) {
	case string:
		return v, len(v) <= MaxVariableString
	case bool:
		return v, true
	case float64:
		return v, !math.IsNaN(v) && !math.IsInf(v, 0)
	case float32:
		return float64(v), true
	case int:
		return float64(v), true
	case int64:
		return float64(v), true
	case uint64:
		return float64(v), true
	}
	return nil, false
}

// CheckVariables reads variables as an author writes them: every name
// valid, every value a string (at most 256 bytes), a number or a
// boolean; the error names the first that is not. Nil or empty is none.
func CheckVariables(in map[string]any) (Variables, error) {
	if len(in) == 0 {
		return nil, nil
	}
	names := make([]string, 0, len(in))
	for k := range in {
		names = append(names, k)
	}
	sort.Strings(names)
	out := make(Variables, len(in))
	for _, k := range names {
		if !ValidVariableName(k) {
			return nil, fmt.Errorf("variable %q: a name starts with a letter and holds letters, digits and underscores", k)
		}
		v, ok := variableValue(in[k])
		if !ok {
			return nil, fmt.Errorf("variable %q: a value is a string of at most %d bytes, a number or a boolean", k, MaxVariableString)
		}
		out[k] = v
	}
	return out, nil
}

// LenientVariables reads variables as a repository holds them (Git
// import): the entries CheckVariables would refuse are left out.
func LenientVariables(in map[string]any) Variables {
	var out Variables
	for k, x := range in {
		if v, ok := variableValue(x); ok && ValidVariableName(k) {
			if out == nil {
				out = Variables{}
			}
			out[k] = v
		}
	}
	return out
}

// extras merges the reusable contents and the space's variables. A
// reusable content added on one side is kept (added differently on both
// sides: a conflict); deleted on one side it is deleted unless changed on
// the other (a conflict); changed on both, its title and Git blob merge as
// fields and its body line by line, as a page's (Merge3). The variables
// merge one name at a time.
func (m *Merger) extras() ([]ReusableContent, Variables, []Conflict, error) {
	var conflicts []Conflict
	var out []ReusableContent
	for id := range unionKeys(m.Base.reusable, m.Ours.reusable, m.Theirs.reusable) {
		b, o, t := m.Base.ReusableContent(id), m.Ours.ReusableContent(id), m.Theirs.ReusableContent(id)
		conflict := func(reason string) {
			conflicts = append(conflicts, Conflict{ReusableContent: id, Reason: reason})
		}
		merged, ok := oneSide(b, o, t)
		switch {
		case ok:
			if merged != nil {
				out = append(out, *merged)
			}
		case b == nil:
			conflict(fmt.Sprintf("added differently in %s and %s", m.OursName, m.TheirsName))
		case o == nil:
			conflict(fmt.Sprintf("deleted in %s, changed in %s", m.OursName, m.TheirsName))
		case t == nil:
			conflict(fmt.Sprintf("changed in %s, deleted in %s", m.OursName, m.TheirsName))
		default:
			rc, reasons, err := m.reusableContent(b, o, t)
			if err != nil {
				return nil, nil, nil, err
			}
			for _, r := range reasons {
				conflict(r)
			}
			if len(reasons) == 0 {
				out = append(out, rc)
			}
		}
	}
	vars, names := mergeVariables(m.Base.variables, m.Ours.variables, m.Theirs.variables)
	for _, k := range names {
		conflicts = append(conflicts, Conflict{Variable: k, Reason: fmt.Sprintf("changed differently in %s and %s", m.OursName, m.TheirsName)})
	}
	sort.SliceStable(conflicts, func(i, j int) bool {
		return conflicts[i].ReusableContent+conflicts[i].Variable < conflicts[j].ReusableContent+conflicts[j].Variable
	})
	return out, vars, conflicts, nil
}

// reusableContent merges a reusable content changed on both sides.
func (m *Merger) reusableContent(b, o, t *ReusableContent) (ReusableContent, []string, error) {
	out := *o
	var reasons []string
	differently := func(what string) {
		reasons = append(reasons, fmt.Sprintf("%s changed differently in %s and %s", what, m.OursName, m.TheirsName))
	}
	switch {
	case o.Title == b.Title:
		out.Title = t.Title
	case t.Title == b.Title, o.Title == t.Title:
	default:
		differently("title")
	}
	switch {
	case reflect.DeepEqual(o.Git, b.Git):
		out.Git = t.Git
	case reflect.DeepEqual(t.Git, b.Git), reflect.DeepEqual(o.Git, t.Git):
	default:
		// Two Git exports wrote it: the blob of either names the file.
	}
	var err error
	if out.Document, reasons, err = m.document(b.Document, o.Document, t.Document, reasons); err != nil {
		return out, nil, err
	}
	return out, reasons, nil
}

// mergeVariables merges variables one name at a time: a name changed (set,
// changed, removed) on one side takes that side, changed alike on both
// either; names changed differently on both are returned, sorted, and
// left out of the result (nil when no name is left).
func mergeVariables(b, o, t Variables) (Variables, []string) {
	names := map[string]bool{}
	for _, v := range []Variables{b, o, t} {
		for k := range v {
			names[k] = true
		}
	}
	var out Variables
	var conflicting []string
	for k := range names {
		bv, bok := b[k]
		ov, ook := o[k]
		tv, tok := t[k]
		v, ok := ov, ook
		switch {
		case ook == tok && ov == tv, bok == tok && bv == tv:
		case bok == ook && bv == ov:
			v, ok = tv, tok
		default:
			conflicting = append(conflicting, k)
			continue
		}
		if ok {
			if out == nil {
				out = Variables{}
			}
			out[k] = v
		}
	}
	sort.Strings(conflicting)
	return out, conflicting
}
