package gitsync

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/content/fileinfo"
	"github.com/galleydocs/galley/shared/document"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/model"
)

// built is what build made: the tree, and (Git imports) the files of the
// project the space now owns, with their blobs.
type built struct {
	ix     *content.Index
	synced []model.SyncedFile
	// byFile are the pages by the file they came from.
	byFile map[string]string
}

// redirectsOf resolves redirects (old path -> file) to pages (old path ->
// page id); redirects to files that are not pages are left out.
func (b built) redirectsOf(redirects map[string]string) map[string]string {
	var out map[string]string
	for from, file := range redirects {
		if id, ok := b.byFile[file]; ok {
			if out == nil {
				out = map[string]string{}
			}
			out[from] = id
		}
	}
	return out
}

// build makes the page tree of a project: a new tree keeping the ids of
// the head's pages and files found at the same paths (Git imports), or
// pages added to into (content imports); it stores the bodies and file
// bytes.
//
// Links between pages become /pages/<id> (an export writes them back as
// relative paths between the pages' files, wherever they are then); links
// to files become /files/<id>. A link to a folder is a link to its
// README.md's page.
func (s *Service) build(ctx context.Context, spaceID string, pr *Project, head, into *content.Index) (built, error) {
	now := s.d.Clock()
	if head == nil {
		head = content.NewIndex(&content.Tree{})
	}
	// Ids of the head's pages by the file they came from (and by the path
	// Galley would write them to, and groups by slug), and files by path.
	pageIDs := map[string]string{}
	head.Walk(func(p *content.Page, _ int) bool {
		switch p.Type {
		case content.TypeGroup:
			pageIDs["group:"+p.Slug] = p.ID
		case content.TypeDocument:
			pageIDs[head.GitPath(p.ID)] = p.ID
			if p.Git != nil && p.Git.Path != "" {
				pageIDs["file:"+p.Git.Path] = p.ID
			}
		}
		return true
	})
	fileIDs := map[string]string{}
	for _, f := range head.Files() {
		key := path.Join(assetsDir, f.Name)
		if f.Git != nil && f.Git.Path != "" {
			key = f.Git.Path
		}
		fileIDs[key] = f.ID
	}
	ix := into
	if ix == nil {
		ix = content.NewIndex(&content.Tree{})
	}
	var out built
	// Files first: pages point at them. Only the files the markdown points
	// at, and those of .gitbook/assets, are the space's: a repository's
	// other files (its code, say) are not. With a repoTreeURL, links to
	// files other than images and assets go to the provider's site.
	referenced := map[string]bool{}
	for rel, f := range pr.markdown {
		a := document.ParseLenient(string(f.data))
		if a.Front.Cover != nil {
			if r := cleanRel(path.Join(path.Dir(rel), *a.Front.Cover)); r != "" {
				referenced[r] = true
			}
		}
		rewriteLinks(string(f.data), func(target string) string {
			if !isExternal(target) {
				t, _, _ := strings.Cut(target, "#")
				if u, err := urlUnescape(t); err == nil {
					t = u
				}
				if r := cleanRel(path.Join(path.Dir(rel), t)); r != "" {
					referenced[r] = true
				}
			}
			return target
		})
	}
	filesByPath := map[string]string{}
	for rel, f := range pr.files {
		asset := strings.HasPrefix(rel, assetsDir+"/")
		if !referenced[rel] && !asset {
			continue
		}
		if pr.treeURL != "" && !asset && !isImage(rel) {
			continue // linked on the provider's site (repoTreeURL)
		}
		id := fileIDs[rel]
		if id == "" {
			id = ids.New(now)
		}
		data, err := f.bytes()
		if err != nil {
			return built{}, err
		}
		ct, w, h := fileinfo.Describe(path.Base(rel), data)
		blob, err := s.content.Repo.PutFileBytes(ctx, spaceID, data, ct)
		if err != nil {
			return built{}, err
		}
		file := content.File{ID: id, Name: path.Base(rel), ContentType: ct, Size: int64(len(data)), Width: w, Height: h, Blob: blob}
		if !f.hash.IsZero() {
			file.Git = &content.GitBlob{OID: f.hash.String(), Path: rel}
			out.synced = append(out.synced, model.SyncedFile{Path: rel, OID: f.hash.String(), File: id})
		}
		ix.PutFile(file)
		filesByPath[rel] = id
	}
	if pr.hasSum && !pr.summaryHash.IsZero() {
		out.synced = append(out.synced, model.SyncedFile{Path: pr.summaryName(), OID: pr.summaryHash.String()})
	}
	var nodes []*node
	if pr.hasSum {
		nodes = parseSummary(pr.summary)
	} else {
		md := make([]string, 0, len(pr.markdown))
		for rel := range pr.markdown {
			md = append(md, rel)
		}
		nodes = treeNodes(md)
		if pr.readme != "" && pr.readme != "README.md" {
			// .gitbook.yaml's first page.
			for i, n := range nodes {
				if n.file == pr.readme {
					nodes = append(append([]*node{n}, nodes[:i]...), nodes[i+1:]...)
					break
				}
			}
		}
		if pr.flatTitles {
			// A wiki starts at its Home page.
			for i, n := range nodes {
				if strings.EqualFold(n.file, "Home.md") {
					nodes = append(append([]*node{n}, nodes[:i]...), nodes[i+1:]...)
					break
				}
			}
		}
	}
	type placed struct {
		id   string
		file string
		body string
		hash string
	}
	var pages []placed
	byFile := map[string]string{} // repository path -> page id
	used := map[string]bool{}
	// claimed: ids of the head kept by pages from the same file.
	claimed := map[string]bool{}
	var place func(nodes []*node, parent, parentPath string) error
	place = func(nodes []*node, parent, parentPath string) error {
		for _, n := range nodes {
			if len(pages) >= MaxPages {
				return fmt.Errorf("the project has more than %d pages", MaxPages)
			}
			p := content.Page{Parent: parent, Type: n.kind, Title: n.title, CreatedAt: now, UpdatedAt: now}
			var body, hash string
			switch n.kind {
			case content.TypeLink:
				p.Target = &content.Ref{Kind: "url", URL: n.url}
				if p.Title == "" {
					p.Title = n.url
				}
			case content.TypeDocument:
				if n.file != "" {
					f, ok := pr.markdown[n.file]
					if !ok || used[n.file] {
						continue // listed but missing, or listed twice
					}
					used[n.file] = true
					a := document.ParseLenient(string(f.data))
					if a.Title != "" {
						p.Title = a.Title
					}
					content.ApplyFrontmatter(a.Front, &p)
					if c := a.Front.Cover; c != nil {
						if id, ok := filesByPath[cleanRel(path.Join(path.Dir(n.file), *c))]; ok {
							p.Cover = &content.Cover{Ref: content.Ref{Kind: "file", File: id}}
							if a.Front.CoverY != nil {
								p.Cover.YPos = *a.Front.CoverY
							}
						}
					}
					body = a.Body
					if !f.hash.IsZero() {
						p.Git = &content.GitBlob{OID: f.hash.String(), Path: n.file}
						hash = f.hash.String()
					}
					if id, ok := pageIDs["file:"+n.file]; ok && !claimed[id] {
						p.ID = id
						claimed[id] = true
					}
				}
				if p.Title == "" {
					p.Title = titleFromName(firstNonEmpty(n.file, n.dir))
				}
			}
			if p.Type != content.TypeLink {
				base := slugOf(n)
				if n.kind == content.TypeGroup && len(n.children) > 0 && n.children[0].file != "" {
					if d := path.Dir(n.children[0].file); d != "." {
						base = document.Slug(strings.Split(d, "/")[0], "page")
					}
				}
				if base == "" {
					base = document.Slug(p.Title, "page")
				}
				p.Slug = ix.UniqueSlug(parent, base, "")
			}
			myPath := p.Slug
			if parentPath != "" {
				myPath = parentPath + "/" + p.Slug
			}
			if p.Type == content.TypeGroup {
				p.ID = pageIDs["group:"+p.Slug]
			}
			if p.ID == "" {
				p.ID = ids.New(now) // a document is matched later by its final path
			}
			p.Pos = ix.PosAt(parent, -1, "")
			ix.Put(p)
			if n.file != "" {
				byFile[n.file] = p.ID
			}
			pages = append(pages, placed{id: p.ID, file: n.file, body: body, hash: hash})
			if p.Type != content.TypeLink {
				if err := place(n.children, p.ID, myPath); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := place(nodes, "", ""); err != nil {
		return built{}, err
	}
	// Pages that kept no id by their file keep the ids the head gave the
	// pages at the same paths: rebuild the index with them (paths are
	// final now). Pages added to an index keep theirs.
	final := ix
	if into == nil {
		final = content.NewIndex(&content.Tree{Files: ix.Files()})
	}
	rename := map[string]string{}
	taken := map[string]bool{}
	for id := range claimed {
		taken[id] = true
	}
	ix.Walk(func(p *content.Page, _ int) bool {
		if p.Type == content.TypeDocument && !claimed[p.ID] {
			if old, ok := pageIDs[ix.GitPath(p.ID)]; ok && !taken[old] {
				rename[p.ID] = old
				taken[old] = true
			}
		}
		return true
	})
	newID := func(id string) string {
		if r, ok := rename[id]; ok {
			return r
		}
		return id
	}
	// Bodies: links to other pages become /pages/<id>, to files
	// /files/<id>.
	for _, pl := range pages {
		p := *ix.Page(pl.id)
		if pl.body != "" && pl.file != "" {
			body := rewriteLinks(pl.body, func(target string) string {
				if isExternal(target) {
					return target
				}
				t, anchor, _ := strings.Cut(target, "#")
				if u, err := urlUnescape(t); err == nil {
					t = u
				}
				resolved := cleanRel(path.Join(path.Dir(pl.file), t))
				withAnchor := func(s string) string {
					if anchor != "" {
						return s + "#" + anchor
					}
					return s
				}
				if id, ok := filesByPath[resolved]; ok {
					return "/files/" + id
				}
				if id, ok := byFile[resolved]; ok {
					return withAnchor("/pages/" + newID(id))
				}
				// A folder: its README.md's page.
				if id, ok := byFile[path.Join(resolved, "README.md")]; ok && resolved != "" {
					return withAnchor("/pages/" + newID(id))
				}
				if pr.treeURL != "" && resolved != "" {
					// Another file of the repository: on the provider's site.
					return withAnchor(strings.TrimRight(pr.treeURL, "/") + "/" + path.Join(pr.dir, resolved))
				}
				return target
			})
			hash, err := s.content.Repo.PutDocument(ctx, spaceID, body)
			if err != nil {
				return built{}, err
			}
			p.Document = hash
		}
		p.ID = newID(p.ID)
		p.Parent = newID(p.Parent)
		final.Put(p)
		if pl.hash != "" {
			out.synced = append(out.synced, model.SyncedFile{Path: pl.file, OID: pl.hash, Page: p.ID})
		}
		if pl.file != "" {
			if out.byFile == nil {
				out.byFile = map[string]string{}
			}
			out.byFile[pl.file] = p.ID
		}
	}
	out.ix = final
	return out, nil
}
