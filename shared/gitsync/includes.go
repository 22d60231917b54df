package gitsync

import (
	"context"
	"fmt"
	"path"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"gopkg.in/yaml.v3"

	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/document"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/model"
)

// Reusable contents and variables in a repository (docs/workers.md, Git
// Sync), as GitBook keeps them under the docs' root:
//
//   - .gitbook/includes/<name>.md is a reusable content: frontmatter with
//     its `title` (else the title is made from the file's name), then its
//     body (a leading "# " heading is body, not title). Pages show it with
//     `{% include "<path from the page's file>" %}`, kept in their bodies
//     as written.
//   - .gitbook/vars.yaml is the space's variables: a YAML mapping of names
//     to strings, numbers and booleans (other entries are left out).
//
// Import reads them into the revision (reusable contents keep the ids of
// the head's from the same files); export writes them back where they came
// from, byte for byte when unchanged since the last sync, and a new
// reusable content to .gitbook/includes/<slug of its title>.md.

// isInclude tells a reusable content's file (relative to the docs' root).
func isInclude(rel string) bool {
	return strings.HasPrefix(rel, content.IncludesDir+"/") && strings.EqualFold(path.Ext(rel), ".md")
}

// readExtra keeps a hidden file of the project that is a reusable content
// or the space's variables; others stay the repository's. A file over
// MaxMarkdownBytes is left in the repository.
func (pr *Project) readExtra(rel string, hash plumbing.Hash, size int64, load func() ([]byte, error)) error {
	if rel != content.VariablesFile && !isInclude(rel) {
		return nil
	}
	if size > MaxMarkdownBytes {
		return nil
	}
	if isInclude(rel) && len(pr.includes) >= MaxPages {
		return fmt.Errorf("the project: more than %d reusable contents", MaxPages)
	}
	data, err := load()
	if err != nil {
		return err
	}
	f := repoFile{path: rel, hash: hash, data: data, size: size}
	if rel == content.VariablesFile {
		pr.vars = &f
		return nil
	}
	if pr.includes == nil {
		pr.includes = map[string]repoFile{}
	}
	pr.includes[rel] = f
	return nil
}

// storeReusable puts the project's reusable contents and variables in
// final (a Git import's new tree): ids kept from the head's reusable
// contents from the same files (or, for one Galley made, the file an
// export gives it), bodies stored with their links to pages and files
// rewritten as pages' are (rename: the ids storeBodies gave the pages).
func (b *builder) storeReusable(ctx context.Context, final, head *content.Index, rename map[string]string) error {
	newID := func(id string) string {
		if r, ok := rename[id]; ok {
			return r
		}
		return id
	}
	unsynced := map[string]string{} // the head's reusable contents without a file, by the file an export gives them
	for _, rc := range head.ReusableContents() {
		if rc.Git == nil || rc.Git.Path == "" {
			unsynced[content.ReusableContentFile(rc.Title)] = rc.ID
		}
	}
	files := make([]string, 0, len(b.pr.includes))
	for rel := range b.pr.includes {
		files = append(files, rel)
	}
	sort.Strings(files)
	taken := map[string]bool{}
	for _, rel := range files {
		f := b.pr.includes[rel]
		title, body := content.ReusableContentBody(string(f.data))
		if title == "" {
			title = titleFromName(rel)
		}
		id := head.ReusableContentAtGitPath(rel)
		if id == "" || taken[id] {
			id = unsynced[rel]
		}
		if id == "" || taken[id] {
			id = ids.New(b.now)
		}
		taken[id] = true
		rc := content.ReusableContent{ID: id, Title: title}
		if body != "" {
			hash, err := b.s.content.Repo.PutDocument(ctx, b.spaceID, b.linkBody(placed{file: rel, body: body}, newID))
			if err != nil {
				return err
			}
			rc.Document = hash
		}
		if !f.hash.IsZero() {
			rc.Git = &content.GitBlob{OID: f.hash.String(), Path: rel}
			b.out.synced = append(b.out.synced, model.SyncedFile{Path: rel, OID: f.hash.String(), Reusable: id})
		}
		final.PutReusableContent(rc)
	}
	if f := b.pr.vars; f != nil {
		var raw map[string]any
		if err := yaml.Unmarshal(f.data, &raw); err != nil {
			// Not variables: the file stays the repository's, untouched.
			return nil
		}
		final.SetVariables(content.LenientVariables(raw))
		if !f.hash.IsZero() {
			b.out.synced = append(b.out.synced, model.SyncedFile{Path: content.VariablesFile, OID: f.hash.String(), Variables: true})
		}
	}
	return nil
}

// reusableLayout is where an export writes the reusable contents.
type reusableLayout struct {
	// paths are the reusable contents' files by id; was the ids by the
	// files they were last synced with or came from.
	paths, was map[string]string
	// old are the last sync's files of reusable contents, by id; vars the
	// last sync's variables file (nil: none).
	old  map[string]model.SyncedFile
	vars *model.SyncedFile
}

// layoutReusable gives each reusable content its file: the one it was
// last synced with, else (no sync with this repository yet) the one it
// came from, else .gitbook/includes/<slug of its title>.md, made unique
// among the branch's files.
func (e *exporter) layoutReusable(synced []model.SyncedFile) {
	l := reusableLayout{paths: map[string]string{}, was: map[string]string{}, old: map[string]model.SyncedFile{}}
	for _, f := range synced {
		switch {
		case f.Reusable != "":
			l.old[f.Reusable] = f
		case f.Variables:
			v := f
			l.vars = &v
		}
	}
	taken := map[string]bool{}
	for full := range e.base.files {
		if rel, ok := strings.CutPrefix(full, e.prefix); ok {
			if _, synced := e.oldPaths[rel]; !synced {
				taken[rel] = true
			}
		}
	}
	rcs := e.ix.ReusableContents()
	for _, rc := range rcs {
		if rc.Git != nil && rc.Git.Path != "" {
			l.was[rc.Git.Path] = rc.ID
		}
	}
	for id, f := range l.old {
		l.was[f.Path] = id
	}
	var later []content.ReusableContent
	for _, rc := range rcs {
		rel := ""
		if f, ok := l.old[rc.ID]; ok {
			rel = f.Path
		} else if rc.Git != nil && rc.Git.Path != "" && len(l.old) == 0 {
			rel = rc.Git.Path
		}
		if rel == "" || taken[rel] {
			later = append(later, rc)
			continue
		}
		l.paths[rc.ID], taken[rel] = rel, true
	}
	for _, rc := range later {
		rel := unique(content.ReusableContentFile(rc.Title), taken)
		l.paths[rc.ID], taken[rel] = rel, true
	}
	e.rcs = l
}

// writeReusable writes the reusable contents and the variables file (put
// records each file written or kept).
func (e *exporter) writeReusable(ctx context.Context, put func(rel string, h plumbing.Hash, f model.SyncedFile)) error {
	for _, rc := range e.ix.ReusableContents() {
		rel := e.rcs.paths[rc.ID]
		old, hasOld := e.rcs.old[rc.ID]
		if hasOld && !e.ours(old) {
			hasOld = false
		}
		var was *content.ReusableContent
		if e.last != nil {
			was = e.last.ReusableContent(rc.ID)
		}
		unchanged := was != nil && was.Title == rc.Title && was.Document == rc.Document
		if hasOld && unchanged && old.Path == rel {
			put(rel, plumbing.NewHash(old.OID), old)
			continue
		}
		body, err := e.s.content.Repo.Document(ctx, e.spaceID, rc.Document)
		if err != nil {
			return err
		}
		from := ""
		if rc.Git != nil {
			from = rc.Git.Path
		}
		body = e.includes(e.links(body, rel), "", from, rel)
		var text string
		if hasOld && was != nil && was.Title == rc.Title {
			data, err := e.base.blob(plumbing.NewHash(old.OID))
			if err != nil {
				return fmt.Errorf("read %s: %w", old.Path, err)
			}
			text = spliceReusable(string(data), body)
		} else {
			text = renderReusable(rc.Title, body)
		}
		h, err := e.w.blob([]byte(text))
		if err != nil {
			return err
		}
		put(rel, h, model.SyncedFile{Reusable: rc.ID})
	}
	vars := e.ix.Variables()
	var was content.Variables
	if e.last != nil {
		was = e.last.Variables()
	}
	old := e.rcs.vars
	switch {
	case len(vars) == 0:
		// None: a variables file the space owned goes (run deletes it).
	case old != nil && e.ours(*old) && reflect.DeepEqual(map[string]any(vars), map[string]any(was)):
		put(old.Path, plumbing.NewHash(old.OID), *old)
	default:
		data, err := yaml.Marshal(map[string]any(vars))
		if err != nil {
			return fmt.Errorf("write the variables: %w", err)
		}
		h, err := e.w.blob(data)
		if err != nil {
			return err
		}
		put(content.VariablesFile, h, model.SyncedFile{Variables: true})
	}
	return nil
}

// renderReusable is a reusable content's file as GitBook writes it: its
// title in frontmatter, a blank line, the body.
func renderReusable(title, body string) string {
	front, _ := yaml.Marshal(map[string]string{"title": title})
	return "---\n" + string(front) + "---\n\n" + body
}

// spliceReusable puts a new body under a reusable content source's
// frontmatter (its title unchanged).
func spliceReusable(src, body string) string {
	title, _ := content.ReusableContentBody(src)
	if !strings.HasPrefix(src, "---\n") || title == "" {
		return renderReusable(title, body)
	}
	end := strings.Index(src[4:], "\n---\n")
	if end < 0 {
		return renderReusable(title, body)
	}
	head := src[:4+end+5]
	if body == "" {
		return head
	}
	return head + "\n" + body
}

// includeTag is GitBook's include block: {% include "<target>" %}.
var includeTag = regexp.MustCompile(`(\{%\s*include\s+")([^"]+)("\s*%\})`)

// includes writes the include targets of a body for the file at rel:
// each names its reusable content's file relative to rel. A target that
// reaches that file from rel already keeps its text (so unchanged pages
// stay byte for byte); one naming no reusable content is left as written.
// Relative targets are read from the file from (the branch's file the
// text comes from) when given, among the files the reusable contents were
// last synced with or came from; else, for a page's stored body (pageID),
// as the page's reads resolve them.
func (e *exporter) includes(body, pageID, from, rel string) string {
	if !strings.Contains(body, "include") {
		return body
	}
	return includeTag.ReplaceAllStringFunc(body, func(m string) string {
		sub := includeTag.FindStringSubmatch(m)
		target := sub[2]
		var id string
		if rid, ok := strings.CutPrefix(target, content.ReusableContentLink("")); ok {
			if e.ix.ReusableContent(rid) != nil {
				id = rid
			}
		} else if f := content.IncludeFile(from, target); from != "" && f != "" {
			id = e.rcs.was[f]
		}
		if id == "" && pageID != "" {
			id = e.ix.ReusableContentAt(pageID, target)
		}
		to, ok := e.rcs.paths[id]
		if id == "" || !ok || content.IncludeFile(rel, target) == to {
			return m
		}
		return sub[1] + document.RelativePath(rel, to) + sub[3]
	})
}
