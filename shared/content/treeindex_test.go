package content_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/contentwire"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/document"
	"github.com/galleydocs/galley/shared/testkit"
)

// wholeTreePage is a page read as it was before the tree index: the whole
// tree decoded and indexed in memory. The indexed reads must answer the
// same.
// head is the space's current content, read by the service under the
// fixture's bases.
func (f *fixture) head() content.At {
	return content.At{SpaceID: f.space, Bases: content.Bases{API: "https://api.test", App: "https://app.test"}}
}

func wholeTreePage(t *testing.T, svc *content.Service, at content.At, ix *content.Index, pageID, format string, metadata bool) (content.RevisionPage, error) {
	t.Helper()
	ctx := context.Background()
	p := ix.Page(pageID)
	if p == nil {
		return content.RevisionPage{}, apperr.NotFoundf("page %s not found", pageID)
	}
	o := content.Options{Metadata: metadata, AppBase: at.Bases.App + "/s/" + at.SpaceID, APIBase: at.Bases.API, Downloads: svc.Downloads, SpaceID: at.SpaceID}
	v := content.PageView(p, ix.Path(pageID), o)
	if p.Type != content.TypeLink {
		paths := ix.Paths()
		var build func(parent string) []content.RevisionPage
		build = func(parent string) []content.RevisionPage {
			out := []content.RevisionPage{}
			for _, id := range ix.Children(parent) {
				c := content.PageView(ix.Page(id), paths[id], o)
				if c.Type != content.TypeLink {
					c.Pages = build(id)
				}
				out = append(out, c)
			}
			return out
		}
		v.Pages = build(pageID)
	}
	if p.Type != content.TypeDocument {
		return v, nil
	}
	body, err := svc.Repo.Document(ctx, at.SpaceID, p.Document)
	if err != nil {
		return content.RevisionPage{}, err
	}
	if format == content.FormatMarkdown {
		md := content.RenderMarkdown(p, body, content.FrontDescription)
		v.Markdown = &md
	} else {
		doc := document.ToDocument(body, document.Resolver{Locator: ix, PageID: p.ID})
		v.Document = &doc
	}
	return v, nil
}

// countingPuts counts blob writes to the tree index, and fails them when
// told to.
type countingPuts struct {
	blob.Store
	indexPuts atomic.Int64
	fail      atomic.Bool
	mu        sync.Mutex
	written   []string
}

func (c *countingPuts) Put(ctx context.Context, key string, data []byte, ct string) error {
	if strings.Contains(key, "/treeindex/") {
		c.indexPuts.Add(1)
		if c.fail.Load() {
			return errors.New("blob store refuses writes")
		}
		c.mu.Lock()
		c.written = append(c.written, key)
		c.mu.Unlock()
	}
	return c.Store.Put(ctx, key, data, ct)
}

// indexedTree is a tree that exercises the index: nesting three deep,
// groups, link pages, subtrees across chunk boundaries (more than 256
// pages), bodies linking to other pages in every form a link takes,
// slugs needing quoting, and sibling slugs that clash (the first wins a
// path, as Index.ByPath finds it).
func indexedTree() ([]content.Page, map[string]string, []content.File) {
	const sections, per = 4, 90
	top := content.Spread(sections + 3)
	var pages []content.Page
	bodies := map[string]string{}
	for s := 0; s < sections; s++ {
		sec := fmt.Sprintf("sec%d", s)
		typ := content.TypeDocument
		if s == 0 {
			typ = content.TypeGroup
		}
		pages = append(pages, content.Page{ID: sec, Pos: top[s], Type: typ, Title: "Section " + sec, Slug: "section-" + sec})
		kids := content.Spread(per)
		for i := 0; i < per; i++ {
			id := fmt.Sprintf("%s-p%02d", sec, i)
			pages = append(pages, content.Page{ID: id, Parent: sec, Pos: kids[i], Type: content.TypeDocument, Title: "Page " + id,
				Slug: fmt.Sprintf("page-%d", i), Description: "About " + id, Git: &content.GitBlob{OID: "oid-" + id, Path: id + ".md"}})
			bodies[id] = fmt.Sprintf("Body of %s: [next](./page-%d.md), [up](../section-sec%d/README.md), [anchor](./page-%d.md#usage), "+
				"[deep](./page-%d/child-a.md), [top](/files/f1), [web](https://example.com), [here](#local).\n", id, i+1, (s+1)%sections, i+2, i+1)
			if i%3 == 0 {
				// A third of the pages have two children: some
				// subtrees cross from one chunk to the next.
				for _, c := range []string{"a", "b"} {
					cid := id + "-" + c
					pages = append(pages, content.Page{ID: cid, Parent: id, Pos: content.Between("", c), Type: content.TypeDocument,
						Title: "Child " + c, Slug: "child-" + c})
					bodies[cid] = "Back to [the parent](../page-" + fmt.Sprint(i) + ".md) and [the sibling](./child-a.md).\n"
				}
			}
		}
	}
	pages = append(pages,
		content.Page{ID: "link", Pos: top[sections], Type: content.TypeLink, Title: "Website", Target: &content.Ref{Kind: "url", URL: "https://example.com"}},
		content.Page{ID: "odd", Pos: top[sections+1], Type: content.TypeDocument, Title: "Odd", Slug: `a "quoted" slug with spaces`},
		content.Page{ID: "odd-kid", Parent: "odd", Pos: "V", Type: content.TypeDocument, Title: "Odd kid", Slug: "kid\nwith a line break"},
		content.Page{ID: "slashed", Pos: top[sections+2], Type: content.TypeDocument, Title: "Slashed", Slug: "section-sec1/page-1"},
		// Two siblings with one slug: the first holds the path.
		content.Page{ID: "dup-1", Parent: "sec2", Pos: "zz1", Type: content.TypeDocument, Title: "Dup 1", Slug: "dup"},
		content.Page{ID: "dup-2", Parent: "sec2", Pos: "zz2", Type: content.TypeDocument, Title: "Dup 2", Slug: "dup"},
		content.Page{ID: "dup-2-kid", Parent: "dup-2", Pos: "V", Type: content.TypeDocument, Title: "Dup kid", Slug: "kid"},
	)
	bodies["odd"] = "See [the kid](./a%20%22quoted%22%20slug%20with%20spaces/kid.md) and [dup](section-sec2/dup.md).\n"
	files := []content.File{
		{ID: "f1", Name: "one.png", ContentType: "image/png", Size: 10, Width: 2, Height: 3, Blob: content.Hash([]byte("1"))},
		{ID: "f 2", Name: `two "quoted".txt`, ContentType: "text/plain", Size: 5, Blob: content.Hash([]byte("2")), Git: &content.GitBlob{OID: "x", Path: "two.txt"}},
	}
	return pages, bodies, files
}

// counted is a fixture whose tree index writes are counted (countingPuts),
// with pages and files in its head.
func counted(t *testing.T, pages []content.Page, bodies map[string]string, files []content.File) (*fixture, *countingPuts) {
	t.Helper()
	f := setup(t)
	blobs := &countingPuts{Store: f.Kit.Deps.Blobs}
	f.Kit.Deps.Blobs = blobs
	f.seed(t, pages, bodies, files)
	return f, blobs
}

// sampleCounted is counted with the sample pages, and the admin's context,
// the space's head and a content service of a new process to read them.
func sampleCounted(t *testing.T) (*fixture, *countingPuts, context.Context, content.At, *content.Service) {
	t.Helper()
	pages, bodies := samplePages()
	f, blobs := counted(t, pages, bodies, nil)
	return f, blobs, f.Ctx("admin"), f.head(), contentwire.Service(app.NewRoot(f.Kit.Deps))
}

func TestTheTreeIndexAnswersAsTheWholeTree(t *testing.T) {
	pages, bodies, files := indexedTree()
	f, blobs := counted(t, pages, bodies, files)
	ctx := f.Ctx("admin")
	src := f.head()
	_, ix, err := content.NewRepo(f.Kit.Deps).Load(ctx, f.space, f.Kit.Head(t, f.space))
	if err != nil {
		t.Fatal(err)
	}
	if ix.Len() < 300 {
		t.Fatalf("only %d pages", ix.Len())
	}
	if blobs.indexPuts.Load() != 0 {
		t.Fatal("writing a revision wrote its index")
	}

	// The first read builds the index (the revision was written without
	// one) and answers from it in memory; later reads, from a service
	// with nothing in memory, read it from the blob store.
	first := contentwire.Service(app.NewRoot(f.Kit.Deps))
	want, err := wholeTreePage(t, first, src, ix, "sec1-p03", content.FormatDocument, true)
	if err != nil {
		t.Fatal(err)
	}
	got, err := first.Page(ctx, src, "sec1-p03", content.FormatDocument, true)
	if err != nil {
		t.Fatal(err)
	}
	if string(testkit.JSON(t, got)) != string(testkit.JSON(t, want)) {
		t.Fatalf("first read:\n got %s\nwant %s", string(testkit.JSON(t, got)), string(testkit.JSON(t, want)))
	}
	built := blobs.indexPuts.Load()
	if built == 0 {
		t.Fatal("the first read wrote no index")
	}

	svc := contentwire.Service(app.NewRoot(f.Kit.Deps))
	var ids []string
	ix.Walk(func(p *content.Page, _ int) bool {
		ids = append(ids, p.ID)
		return true
	})
	for i, id := range append(ids, "nope", "") {
		for _, format := range []string{content.FormatMarkdown, content.FormatDocument} {
			for _, metadata := range []bool{true, false} {
				if !metadata && i%10 != 0 {
					continue // a sample is enough: it only drops git
				}
				want, wantErr := wholeTreePage(t, svc, src, ix, id, format, metadata)
				got, err := svc.Page(ctx, src, id, format, metadata)
				if (err == nil) != (wantErr == nil) || (err != nil && !apperr.Is(err, apperr.NotFound)) {
					t.Fatalf("page %q: error %v, want %v", id, err, wantErr)
				}
				if string(testkit.JSON(t, got)) != string(testkit.JSON(t, want)) {
					t.Fatalf("page %q (%s, metadata %v):\n got %s\nwant %s", id, format, metadata, string(testkit.JSON(t, got)), string(testkit.JSON(t, want)))
				}
			}
		}
		if id == "" || id == "nope" {
			continue
		}
		// By path: the page Index.ByPath finds at its path, when it finds
		// one (a clashing sibling or a slug holding "/" has no path).
		path := ix.Path(id)
		want := ix.ByPath(path)
		for _, asked := range []string{path, "/" + path + "/"} {
			got, err := svc.PageByPath(ctx, src, asked, content.FormatDocument, true)
			if want == nil || path == "" {
				if !apperr.Is(err, apperr.NotFound) {
					t.Fatalf("path %q: %v, want not found", asked, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("path %q: %v", asked, err)
			}
			byID, _ := wholeTreePage(t, svc, src, ix, want.ID, content.FormatDocument, true)
			if string(testkit.JSON(t, got)) != string(testkit.JSON(t, byID)) {
				t.Fatalf("path %q:\n got %s\nwant %s", asked, string(testkit.JSON(t, got)), string(testkit.JSON(t, byID)))
			}
		}
	}
	for _, missing := range []string{"section-nope", "section-sec1/page-1/nope", "", "section-sec2/dup/kid", "README.md", "section-sec1/page-1.md"} {
		if _, err := svc.PageByPath(ctx, src, missing, content.FormatMarkdown, true); !apperr.Is(err, apperr.NotFound) {
			t.Errorf("path %q: %v, want not found", missing, err)
		}
	}
	if p, err := svc.PageByPath(ctx, src, "section-sec2/dup", content.FormatMarkdown, true); err != nil || p.ID != "dup-1" {
		t.Errorf("clashing slugs: %v %v, want dup-1", p.ID, err)
	}

	for _, id := range []string{"f1", "f 2", "nope"} {
		got, err := svc.File(ctx, src, id, true)
		want := ix.File(id)
		if want == nil {
			if !apperr.Is(err, apperr.NotFound) {
				t.Fatalf("file %q: %v, want not found", id, err)
			}
			continue
		}
		o := content.Options{Metadata: true, APIBase: src.Bases.API, Downloads: svc.Downloads, SpaceID: f.space}
		if err != nil || string(testkit.JSON(t, got)) != string(testkit.JSON(t, content.FileView(want, o))) {
			t.Fatalf("file %q: %s %v, want %s", id, string(testkit.JSON(t, got)), err, string(testkit.JSON(t, content.FileView(want, o))))
		}
	}
	if n := blobs.indexPuts.Load(); n != built {
		t.Fatalf("reads of an indexed revision wrote %d index blobs", n-built)
	}
}

func TestAnEmptyRevisionHasNoPageNorFile(t *testing.T) {
	f := setup(t)
	ctx := f.Ctx("admin")
	svc := contentwire.Service(app.NewRoot(f.Kit.Deps))
	src := f.head()
	if _, err := svc.Page(ctx, src, "x", content.FormatMarkdown, true); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("page: %v", err)
	}
	if _, err := svc.PageByPath(ctx, src, "x", content.FormatMarkdown, true); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("page by path: %v", err)
	}
	if _, err := svc.File(ctx, src, "x", true); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("file: %v", err)
	}
}

// The index only saves work: when it cannot be written (a function that
// may only read the bucket), reads answer from the tree, the process keeps
// the index it built for its next reads of the tree (built once, not on
// every read: no second write attempt), and a process that can write
// writes it.
func TestReadsAnswerWhenTheIndexCannotBeWritten(t *testing.T) {
	f, blobs, ctx, src, svc := sampleCounted(t)
	blobs.fail.Store(true)
	var afterFirst int64
	for i := 0; i < 3; i++ {
		p, err := svc.Page(ctx, src, "intro", content.FormatDocument, true)
		if err != nil || len(p.Pages) != 1 || p.Pages[0].Path != "intro/setup" || p.Document == nil {
			t.Fatalf("read %d: %+v %v", i, p, err)
		}
		if i == 0 {
			afterFirst = blobs.indexPuts.Load()
		}
	}
	if afterFirst == 0 || blobs.indexPuts.Load() != afterFirst {
		t.Fatalf("index writes tried: %d by the first read, %d by all three (want the later reads to use the index in memory)",
			afterFirst, blobs.indexPuts.Load())
	}
	// Reads of the index kept in memory, at once, share nothing they change.
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if p, err := svc.PageByPath(ctx, src, "intro/setup", content.FormatMarkdown, true); err != nil || p.ID != "setup" {
				t.Errorf("by path from the index in memory: %+v %v", p, err)
			}
		}()
	}
	wg.Wait()
	blobs.fail.Store(false)
	failed := blobs.indexPuts.Load()
	if p, err := contentwire.Service(app.NewRoot(f.Kit.Deps)).PageByPath(ctx, src, "intro/setup", content.FormatMarkdown, true); err != nil || p.ID != "setup" {
		t.Fatalf("by path: %+v %v", p, err)
	}
	if blobs.indexPuts.Load() == failed {
		t.Fatal("the index was not written once it could be")
	}
}

// A lost part of an index (a chunk, a lookup) is rebuilt from the tree by
// the read that misses it.
func TestALostPartOfTheIndexIsRebuilt(t *testing.T) {
	f, blobs, ctx, src, svc := sampleCounted(t)
	if _, err := svc.Page(ctx, src, "intro", content.FormatDocument, true); err != nil {
		t.Fatal(err)
	}
	if len(blobs.written) == 0 {
		t.Fatal("no index written")
	}
	for _, k := range blobs.written {
		if !strings.HasSuffix(k, "/manifest") {
			if err := blobs.Delete(ctx, k); err != nil {
				t.Fatal(err)
			}
		}
	}
	// svc knows the manifest already: it reads the parts straight away.
	for _, s := range []*content.Service{svc, contentwire.Service(app.NewRoot(f.Kit.Deps))} {
		p, err := s.PageByPath(ctx, src, "intro/setup", content.FormatMarkdown, true)
		if err != nil || p.ID != "setup" || *p.Markdown != "# Setup\n\nInstall it.\n" {
			t.Fatalf("%+v %v", p, err)
		}
		if fl, err := s.File(ctx, src, "nope", true); !apperr.Is(err, apperr.NotFound) {
			t.Fatalf("file: %+v %v", fl, err)
		}
	}
}
