package gitsync

import (
	"context"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/content/fileinfo"
	"github.com/galleydocs/galley/shared/document"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/model"
	"golang.org/x/sync/errgroup"
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

// putWorkers bounds the blob writes (page bodies, files) an import has in
// flight: one at a time, 50,000 bodies are 50,000 round trips to S3 in a
// row (docs/workers.md, "Figures").
const putWorkers = 32

// build makes the page tree of a project: a new tree keeping the ids of
// the head's pages and files found at the same paths (Git imports), or
// pages added to into (content imports); it stores the bodies and file
// bytes.
//
// Links between pages become /pages/<id> (an export writes them back as
// relative paths between the pages' files, wherever they are then); links
// to files become /files/<id>. A link to a folder is a link to its
// README.md's page.
//
// The steps: the head's ids by path (headIDs), the files (storeFiles, of
// those referencedFiles finds), the pages in the order of the summary or
// the folders (pageNodes, place), then the ids the head gave the pages at
// their final paths (keptIDs) and the bodies with their links rewritten
// (storeBodies).
func (s *Service) build(ctx context.Context, spaceID string, pr *Project, head, into *content.Index) (built, error) {
	if head == nil {
		head = content.NewIndex(&content.Tree{})
	}
	b := &builder{s: s, spaceID: spaceID, pr: pr, now: s.d.Clock(), ix: into,
		filesByPath: map[string]string{}, byFile: map[string]string{}, used: map[string]bool{}, claimed: map[string]bool{}}
	if b.ix == nil {
		b.ix = content.NewIndex(&content.Tree{})
	}
	var fileIDs map[string]string
	b.pageIDs, fileIDs = headIDs(head)
	// Files first: pages point at them.
	if err := b.storeFiles(ctx, referencedFiles(pr), fileIDs); err != nil {
		return built{}, err
	}
	if pr.hasSum && !pr.summaryHash.IsZero() {
		b.out.synced = append(b.out.synced, model.SyncedFile{Path: pr.summaryName(), OID: pr.summaryHash.String()})
	}
	if err := b.place(pageNodes(pr), "", ""); err != nil {
		return built{}, err
	}
	// Pages added to an index keep their ids; a new tree is rebuilt with
	// the ids kept from the head.
	final := b.ix
	if into == nil {
		final = content.NewIndex(&content.Tree{Files: b.ix.Files()})
	}
	rename := b.keptIDs()
	if err := b.storeBodies(ctx, final, rename); err != nil {
		return built{}, err
	}
	if into == nil {
		// A Git import: the project's reusable contents and variables
		// (includes.go). A content import adds pages only.
		if err := b.storeReusable(ctx, final, head, rename); err != nil {
			return built{}, err
		}
	}
	b.out.ix = final
	return b.out, nil
}

// builder is one build's work in progress.
type builder struct {
	s       *Service
	spaceID string
	pr      *Project
	now     time.Time
	// ix is the index pages are placed in (build's into, or a new one).
	ix *content.Index
	// pageIDs are the head's page ids (headIDs).
	pageIDs map[string]string
	// filesByPath are the ids of the space's files by repository path.
	filesByPath map[string]string
	// pages are the placed pages, in order.
	pages []placed
	// byFile are the placed pages' ids by repository path.
	byFile map[string]string
	// used are the markdown files placed (a file listed twice is placed
	// once).
	used map[string]bool
	// claimed are the ids of the head kept by pages from the same file.
	claimed map[string]bool
	out     built
}

// placed is a page placed in the tree, with its body still to store.
type placed struct {
	id   string
	file string
	body string
	hash string
}

// headIDs are the ids of the head's pages by the file they came from
// ("file:<path>"), by the path Galley would write them to, and groups by
// slug ("group:<slug>"); and the ids of its files by path.
func headIDs(head *content.Index) (pageIDs, fileIDs map[string]string) {
	pageIDs = map[string]string{}
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
	fileIDs = map[string]string{}
	for _, f := range head.Files() {
		key := path.Join(assetsDir, f.Name)
		if f.Git != nil && f.Git.Path != "" {
			key = f.Git.Path
		}
		fileIDs[key] = f.ID
	}
	return pageIDs, fileIDs
}

// referencedFiles are the repository paths the project's markdown points
// at: its links, images and covers.
func referencedFiles(pr *Project) map[string]bool {
	referenced := map[string]bool{}
	markdown := pr.markdown
	if len(pr.includes) > 0 {
		// Reusable contents point at files too.
		markdown = make(map[string]repoFile, len(pr.markdown)+len(pr.includes))
		for rel, f := range pr.markdown {
			markdown[rel] = f
		}
		for rel, f := range pr.includes {
			markdown[rel] = f
		}
	}
	for rel, f := range markdown {
		a := document.ParseLenient(string(f.data))
		if a.Front.Cover != nil {
			if r := cleanRel(path.Join(path.Dir(rel), *a.Front.Cover)); r != "" {
				referenced[r] = true
			}
		}
		document.RewriteLinks(string(f.data), func(target string) string {
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
	return referenced
}

// storeFiles stores the project's files that become the space's, keeping
// the head's ids (fileIDs) of those at the same paths. Only the files the
// markdown points at (referenced), and those of .gitbook/assets, are the
// space's: a repository's other files (its code, say) are not. With a
// repoTreeURL, links to files other than images and assets go to the
// provider's site.
func (b *builder) storeFiles(ctx context.Context, referenced map[string]bool, fileIDs map[string]string) error {
	// Files are read one at a time (from the fetched pack) and written
	// putWorkers at a time: at most that many files' bytes are held.
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(putWorkers)
	for rel, f := range b.pr.files {
		asset := strings.HasPrefix(rel, assetsDir+"/")
		if !referenced[rel] && !asset {
			continue
		}
		if b.pr.treeURL != "" && !asset && !isImage(rel) {
			continue // linked on the provider's site (repoTreeURL)
		}
		id := fileIDs[rel]
		if id == "" {
			id = ids.New(b.now)
		}
		data, err := f.bytes()
		if err != nil {
			_ = g.Wait()
			return err
		}
		ct, w, h := fileinfo.Describe(path.Base(rel), data)
		blob := content.Hash(data)
		g.Go(func() error {
			_, err := b.s.content.Repo.PutFileBytes(gctx, b.spaceID, data, ct)
			return err
		})
		file := content.File{ID: id, Name: path.Base(rel), ContentType: ct, Size: int64(len(data)), Width: w, Height: h, Blob: blob}
		if !f.hash.IsZero() {
			file.Git = &content.GitBlob{OID: f.hash.String(), Path: rel}
			b.out.synced = append(b.out.synced, model.SyncedFile{Path: rel, OID: f.hash.String(), File: id})
		}
		b.ix.PutFile(file)
		b.filesByPath[rel] = id
	}
	return g.Wait()
}

// pageNodes are the project's pages in order: its summary's, or its
// folders' (with .gitbook.yaml's first page, or a wiki's Home page,
// first).
func pageNodes(pr *Project) []*node {
	if pr.hasSum {
		return parseSummary(pr.summary)
	}
	md := make([]string, 0, len(pr.markdown))
	for rel := range pr.markdown {
		md = append(md, rel)
	}
	nodes := treeNodes(md)
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
	return nodes
}

// place puts nodes and their children in the index under parent (whose
// path is parentPath).
func (b *builder) place(nodes []*node, parent, parentPath string) error {
	for _, n := range nodes {
		if len(b.pages) >= MaxPages {
			return fmt.Errorf("the project has more than %d pages", MaxPages)
		}
		p := content.Page{Parent: parent, Type: n.kind, Title: n.title, CreatedAt: b.now, UpdatedAt: b.now}
		var body, hash string
		switch n.kind {
		case content.TypeLink:
			p.Target = &content.Ref{Kind: "url", URL: n.url}
			if p.Title == "" {
				p.Title = n.url
			}
		case content.TypeDocument:
			if n.file != "" {
				var ok bool
				if body, hash, ok = b.readPage(n.file, &p); !ok {
					continue // listed but missing, or listed twice
				}
			}
			if p.Title == "" {
				p.Title = titleFromName(firstNonEmpty(n.file, n.dir))
			}
		}
		if p.Type != content.TypeLink {
			p.Slug = b.ix.UniqueSlug(parent, slugBase(n, p.Title), "")
		}
		myPath := p.Slug
		if parentPath != "" {
			myPath = parentPath + "/" + p.Slug
		}
		if p.Type == content.TypeGroup {
			p.ID = b.pageIDs["group:"+p.Slug]
		}
		if p.ID == "" {
			p.ID = ids.New(b.now) // a document is matched later by its final path
		}
		p.Pos = b.ix.PosAt(parent, -1, "")
		b.ix.Put(p)
		if n.file != "" {
			b.byFile[n.file] = p.ID
		}
		b.pages = append(b.pages, placed{id: p.ID, file: n.file, body: body, hash: hash})
		if p.Type != content.TypeLink {
			if err := b.place(n.children, p.ID, myPath); err != nil {
				return err
			}
		}
	}
	return nil
}

// readPage sets a document page's fields from its markdown file (title,
// frontmatter, cover, Git blob, and the head's id of the page from the
// same file) and returns its body and blob hash; ok is false when the
// file is missing or already placed.
func (b *builder) readPage(file string, p *content.Page) (body, hash string, ok bool) {
	f, ok := b.pr.markdown[file]
	if !ok || b.used[file] {
		return "", "", false
	}
	b.used[file] = true
	a := document.ParseLenient(string(f.data))
	if a.Title != "" {
		p.Title = a.Title
	}
	content.ApplyFrontmatter(a.Front, p)
	if c := a.Front.Cover; c != nil {
		if id, ok := b.filesByPath[cleanRel(path.Join(path.Dir(file), *c))]; ok {
			p.Cover = &content.Cover{Ref: content.Ref{Kind: "file", File: id}}
			if a.Front.CoverY != nil {
				p.Cover.YPos = *a.Front.CoverY
			}
		}
	}
	if !f.hash.IsZero() {
		p.Git = &content.GitBlob{OID: f.hash.String(), Path: file}
		hash = f.hash.String()
	}
	if id, ok := b.pageIDs["file:"+file]; ok && !b.claimed[id] {
		p.ID = id
		b.claimed[id] = true
	}
	return a.Body, hash, true
}

// slugBase is the slug a page asks for (made unique among its siblings):
// its file's or folder's name (a group's: its heading's anchor, else its
// first child's top folder), else its title's.
func slugBase(n *node, title string) string {
	base := slugOf(n)
	if n.slug != "" {
		return document.Slug(n.slug, "page") // the anchor GitBook wrote
	}
	if n.kind == content.TypeGroup && len(n.children) > 0 && n.children[0].file != "" {
		if d := path.Dir(n.children[0].file); d != "." {
			base = document.Slug(strings.Split(d, "/")[0], "page")
		}
	}
	if base == "" {
		base = document.Slug(title, "page")
	}
	return base
}

// keptIDs are the ids to give the documents that kept no id by their
// file: those the head gave the pages at the same paths (paths are final
// now), by the ids they were placed with.
func (b *builder) keptIDs() map[string]string {
	rename := map[string]string{}
	taken := map[string]bool{}
	for id := range b.claimed {
		taken[id] = true
	}
	b.ix.Walk(func(p *content.Page, _ int) bool {
		if p.Type == content.TypeDocument && !b.claimed[p.ID] {
			if old, ok := b.pageIDs[b.ix.GitPath(p.ID)]; ok && !taken[old] {
				rename[p.ID] = old
				taken[old] = true
			}
		}
		return true
	})
	return rename
}

// storeBodies stores the placed pages' bodies, their links rewritten, and
// puts the pages in final with their ids renamed.
func (b *builder) storeBodies(ctx context.Context, final *content.Index, rename map[string]string) error {
	newID := func(id string) string {
		if r, ok := rename[id]; ok {
			return r
		}
		return id
	}
	// The bodies are written putWorkers at a time (each a blob write: a
	// round trip to S3), then the pages put in order.
	hashes := make([]string, len(b.pages))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(putWorkers)
	for i, pl := range b.pages {
		if pl.body == "" || pl.file == "" {
			continue
		}
		g.Go(func() error {
			hash, err := b.s.content.Repo.PutDocument(gctx, b.spaceID, b.linkBody(pl, newID))
			hashes[i] = hash
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	for i, pl := range b.pages {
		p := *b.ix.Page(pl.id)
		if pl.body != "" && pl.file != "" {
			p.Document = hashes[i]
		}
		p.ID = newID(p.ID)
		p.Parent = newID(p.Parent)
		final.Put(p)
		if pl.hash != "" {
			b.out.synced = append(b.out.synced, model.SyncedFile{Path: pl.file, OID: pl.hash, Page: p.ID})
		}
		if pl.file != "" {
			if b.out.byFile == nil {
				b.out.byFile = map[string]string{}
			}
			b.out.byFile[pl.file] = p.ID
		}
	}
	return nil
}

// linkBody is a placed page's body with its links to other pages as
// /pages/<id> and to files as /files/<id>.
func (b *builder) linkBody(pl placed, newID func(string) string) string {
	return document.RewriteLinks(pl.body, func(target string) string {
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
		if id, ok := b.filesByPath[resolved]; ok {
			return "/files/" + id
		}
		if id, ok := b.byFile[resolved]; ok {
			return withAnchor("/pages/" + newID(id))
		}
		// A folder: its README.md's page.
		if id, ok := b.byFile[path.Join(resolved, "README.md")]; ok && resolved != "" {
			return withAnchor("/pages/" + newID(id))
		}
		if b.pr.treeURL != "" && resolved != "" {
			// Another file of the repository: on the provider's site.
			return withAnchor(strings.TrimRight(b.pr.treeURL, "/") + "/" + path.Join(b.pr.dir, resolved))
		}
		return target
	})
}
