package document

import (
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strings"
)

// Includes: GitBook writes a reusable-content block as a line
//
//	{% include "../.gitbook/includes/<name>.md" %}
//
// the path relative to the file holding the line (GitBook's
// create-content/reusable-content.md); its agent guide also shows the form
// {% include "/reusable-content/<id>" %}, which names the reusable content
// by id. The document node is GitBook's DocumentBlockReusableContent:
// {object: block, type: reusable-content, isVoid: true, data: {ref:
// {kind: reusable-content, reusableContent: <id>}}}. A path is turned into
// an id through a ReusableLocator; an include that names nothing it knows
// stays a paragraph holding the line as written, so that it writes back
// the same.

var reInclude = regexp.MustCompile(`^\s*\{%\s*include\s+"([^"]*)"\s*%\}\s*$`)

// ReusableLocator finds a revision's reusable contents by the files Git
// Sync writes them to (.gitbook/includes/<name>.md).
type ReusableLocator interface {
	// ReusableAtGitPath is the id of the reusable content written to a
	// repository file path (cleaned, from the space's root, without a
	// leading "/"), or "".
	ReusableAtGitPath(path string) string
	// GitPathOfReusable is the file a reusable content is written to, or
	// "" when there is none of that id.
	GitPathOfReusable(id string) string
}

// IncludeTarget is what an include names: a file of the repository, or a
// reusable content by id (of another space when Space is set).
type IncludeTarget struct {
	// Path is the file's path from the space's root ("" for an id).
	Path string
	// ID is the reusable content's id, for the /reusable-content/<id>
	// form.
	ID string
	// Space is the space of /s/<space>/reusable-content/<id> ("" for the
	// page's own).
	Space string
}

// ReadIncludeTarget reads an include's path as written in the file from
// (a path from the space's root; "" for a body whose file is not known,
// read from the root). ok is false when the path names nothing a space
// holds (a URL, a path that leaves the space).
func ReadIncludeTarget(src, from string) (IncludeTarget, bool) {
	if space, id, ok := reusableIDForm(src); ok {
		return IncludeTarget{ID: id, Space: space}, true
	}
	if src == "" || strings.Contains(src, "://") || strings.ContainsAny(src, "?#") {
		return IncludeTarget{}, false
	}
	var p string
	if rest, ok := strings.CutPrefix(src, "/"); ok {
		p = path.Clean(rest)
	} else {
		p = path.Clean(path.Join(path.Dir(from), src))
	}
	if p == "." || p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") {
		return IncludeTarget{}, false
	}
	return IncludeTarget{Path: p}, true
}

// reusableIDForm reads /reusable-content/<id> and
// /s/<space>/reusable-content/<id> (GitBook's form), and the plural
// /reusable-contents/<id> of Galley's links, which change requests write
// for a reusable content made in the same batch.
func reusableIDForm(src string) (space, id string, ok bool) {
	rest := src
	if r, found := strings.CutPrefix(src, "/s/"); found {
		space, rest, _ = strings.Cut(r, "/")
		if space == "" {
			return "", "", false
		}
		rest = "/" + rest
		if s, err := url.PathUnescape(space); err == nil {
			space = s
		}
	}
	id, found := strings.CutPrefix(rest, "/reusable-content/")
	if !found {
		id, found = strings.CutPrefix(rest, "/reusable-contents/")
	}
	if !found || id == "" || strings.ContainsAny(id, "/?#") {
		return "", "", false
	}
	return space, id, true
}

// file is the repository path of the file the body is read from ("" when
// unknown).
func (r Resolver) file() string {
	if r.File != "" {
		return r.File
	}
	if r.Locator != nil && r.PageID != "" {
		return r.Locator.GitPath(r.PageID)
	}
	return ""
}

// includeNode reads an include line: a reusable-content block when it
// names a reusable content, else a paragraph of the line as written. ok
// is false when line is no include.
func includeNode(line string, r Resolver) (Node, bool) {
	m := reInclude.FindStringSubmatch(line)
	if m == nil {
		return nil, false
	}
	t, ok := ReadIncludeTarget(m[1], r.file())
	id := t.ID
	if ok && id == "" && r.Reusables != nil {
		id = r.Reusables.ReusableAtGitPath(t.Path)
	}
	if id == "" {
		return Node{"object": "block", "type": "paragraph", "nodes": []Node{text(strings.TrimSpace(line), nil)}}, true
	}
	ref := Node{"kind": "reusable-content", "reusableContent": id}
	if t.Space != "" {
		ref["space"] = t.Space
	}
	return VoidBlock("reusable-content", Node{"ref": ref}), true
}

// includeMarkdown writes a reusable-content block's ref in the id form
// (MarkdownOfDocumentWith turns it into a path when it knows one).
func includeMarkdown(raw any, at string) (string, error) {
	ref, _ := raw.(map[string]any)
	if ref == nil {
		return "", fmt.Errorf("%s: expected a ref object", at)
	}
	if ref["kind"] != "reusable-content" {
		return "", fmt.Errorf("%s.kind: expected reusable-content", at)
	}
	id, _ := ref["reusableContent"].(string)
	if id == "" || strings.ContainsAny(id, `/?#"`) || strings.Contains(id, "%}") {
		return "", fmt.Errorf("%s.reusableContent: expected a reusable content's id", at)
	}
	space, _ := ref["space"].(string)
	return `{% include "` + spacePrefix(space) + "/reusable-content/" + id + `" %}`, nil
}

// rawIncludeParagraph is the line of a paragraph that holds only an
// include as written (one that named nothing known), so that it writes
// back unescaped.
func rawIncludeParagraph(n map[string]any) (string, bool) {
	nodes := nodeList(n)
	if len(nodes) != 1 {
		return "", false
	}
	t, _ := nodes[0].(map[string]any)
	if t == nil || t["object"] != "text" {
		return "", false
	}
	leaves, _ := t["leaves"].([]any)
	if len(leaves) != 1 {
		return "", false
	}
	l, _ := leaves[0].(map[string]any)
	s, _ := l["text"].(string)
	if marks, _ := l["marks"].([]any); len(marks) > 0 || s != strings.TrimSpace(s) || !reInclude.MatchString(s) {
		return "", false
	}
	return s, true
}

// MarkdownOptions tell MarkdownOfDocumentWith where the markdown goes.
type MarkdownOptions struct {
	// File is the repository path of the file the markdown is written to
	// (the page's Git path, or a reusable content's); includes are
	// written relative to its folder.
	File string
	// Reusables finds the files of reusable contents; nil writes every
	// include in the /reusable-content/<id> form.
	Reusables ReusableLocator
}

// MarkdownOfDocumentWith is MarkdownOfDocument for a file of a known
// place: an include of a reusable content of the space that o.Reusables
// knows is written as the path of its file relative to o.File's folder,
// as GitBook writes it (../.gitbook/includes/<name>.md).
func MarkdownOfDocumentWith(doc map[string]any, o MarkdownOptions) (string, error) {
	md, err := MarkdownOfDocument(doc)
	if err != nil || o.Reusables == nil || !strings.Contains(md, "{% include") {
		return md, err
	}
	lines := strings.Split(md, "\n")
	for i, line := range proseLines(lines, 0) {
		m := reInclude.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		space, id, ok := reusableIDForm(m[1])
		if !ok || space != "" {
			continue
		}
		if p := o.Reusables.GitPathOfReusable(id); p != "" {
			lines[i] = line[:leading(line)] + `{% include "` + RelativePath(o.File, p) + `" %}`
		}
	}
	return strings.Join(lines, "\n"), nil
}

// RelativePath is the path of the file to from the folder of the file
// from (both from the space's root), as GitBook writes links and includes:
// no "./" prefix.
func RelativePath(from, to string) string {
	fromDir := path.Dir(from)
	var fs []string
	if fromDir != "." && fromDir != "/" && fromDir != "" {
		fs = strings.Split(fromDir, "/")
	}
	ts := strings.Split(to, "/")
	i := 0
	for i < len(fs) && i < len(ts)-1 && fs[i] == ts[i] {
		i++
	}
	return strings.Repeat("../", len(fs)-i) + strings.Join(ts[i:], "/")
}
