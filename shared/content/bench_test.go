package content_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/contentwire"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/testkit"
)

// bigSpace is a space of many pages, seeded with direct writes (thousands
// of HTTP calls would make the benchmarks take minutes).
type bigSpace struct {
	svc     *content.Service
	ctx     context.Context // the space admin's
	src     content.At
	leaf    string // a page without children, in a middle section
	section string // the middle section's top page
	path    string // the leaf's path
	file    string
}

// seedBigSpace makes a space whose head has n pages in sections of 100 (a
// top-level page with 99 children), each body ~700 bytes with a link to
// the next sibling and an image, and 50 files.
func seedBigSpace(tb testing.TB, n int) *bigSpace {
	tb.Helper()
	k := testkit.New(tb)
	u, _ := k.User("alice")
	org := k.Org("Acme", map[string]model.Role{u.ID: model.RoleAdmin})
	ctx := access.WithCaller(k.Ctx, access.Caller{UserID: u.ID})
	sp, _, err := spaces.New(k.Deps).Create(ctx, org.ID, spaces.Create{Title: "Docs"})
	if err != nil {
		tb.Fatal(err)
	}
	repo := content.NewRepo(k.Deps)
	sections := max(1, n/100)
	per := n / sections
	top, kids := content.Spread(sections), content.Spread(per)
	pages := make([]content.Page, 0, n)
	for s := 0; s < sections; s++ {
		sec := fmt.Sprintf("s%04d", s)
		for i := 0; i < per; i++ {
			p := content.Page{ID: fmt.Sprintf("%s-p%04d", sec, i), Parent: sec, Pos: kids[i], Type: content.TypeDocument,
				Title: fmt.Sprintf("Page %d of section %d", i, s), Slug: fmt.Sprintf("page-%d", i)}
			if i == 0 {
				p.ID, p.Parent, p.Pos, p.Slug = sec, "", top[s], fmt.Sprintf("section-%d", s)
			}
			// The sections share their bodies: writing 5,000 blobs would
			// make the set-up take most of the run.
			if s == 0 {
				body := fmt.Sprintf("Body of page %d. See [the next page](./page-%d.md) and ![a picture](/files/f%03d).\n\n%s",
					i, i+1, i%50, strings.Repeat("A line of documentation text.\n", 20))
				if p.Document, err = repo.PutDocument(k.Ctx, sp.ID, body); err != nil {
					tb.Fatal(err)
				}
			} else {
				p.Document = pages[i].Document
			}
			pages = append(pages, p)
		}
	}
	var files []content.File
	for i := 0; i < 50; i++ {
		files = append(files, content.File{ID: fmt.Sprintf("f%03d", i), Name: fmt.Sprintf("picture-%d.png", i), ContentType: "image/png",
			Size: 1000, Width: 10, Height: 10, Blob: content.Hash([]byte{byte(i)})})
	}
	rev, err := repo.NewRevision(k.Ctx, sp.ID, content.RevisionEdits, []string{sp.Revision}, content.NewIndex(&content.Tree{Pages: pages, Files: files}))
	if err != nil {
		tb.Fatal(err)
	}
	key := keys.Space(sp.ID)
	_, err = store.Update(k.Ctx, k.Deps.Store, key.PK, key.SK, func(old store.Item) (store.Item, []store.Op, error) {
		sp.Revision = rev.ID
		next := old
		next.Data = records.Item(key, sp, 0).Data
		return next, []store.Op{content.Put(rev)}, nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	mid := fmt.Sprintf("s%04d", sections/2)
	return &bigSpace{svc: contentwire.Service(app.NewRoot(k.Deps)), ctx: ctx, src: content.At{SpaceID: sp.ID}, leaf: mid + fmt.Sprintf("-p%04d", per/2), section: mid,
		path: fmt.Sprintf("section-%d/page-%d", sections/2, per/2), file: "f025"}
}

// BenchmarkReads5000Pages measures the content reads of one page, one
// file and the page tree on a space of 5,000 pages, at the service level
// (with its reading right's check; the handlers add authentication).
func BenchmarkReads5000Pages(b *testing.B) {
	bs := seedBigSpace(b, 5000)
	ctx := bs.ctx
	reads := []struct {
		name string
		read func() error
	}{
		{"page_as_markdown", func() error {
			_, err := bs.svc.Page(ctx, bs.src, bs.leaf, content.FormatMarkdown, true)
			return err
		}},
		{"page_as_document", func() error {
			_, err := bs.svc.Page(ctx, bs.src, bs.leaf, content.FormatDocument, true)
			return err
		}},
		{"section_as_markdown", func() error {
			// A page with 99 children: the read grows with the page.
			_, err := bs.svc.Page(ctx, bs.src, bs.section, content.FormatMarkdown, true)
			return err
		}},
		{"page_by_path", func() error {
			_, err := bs.svc.PageByPath(ctx, bs.src, bs.path, content.FormatDocument, true)
			return err
		}},
		{"file", func() error {
			_, err := bs.svc.File(ctx, bs.src, bs.file, true)
			return err
		}},
		{"page_tree", func() error {
			_, err := bs.svc.Pages(ctx, bs.src, true)
			return err
		}},
	}
	for _, r := range reads {
		b.Run(r.name, func(b *testing.B) {
			// The first read of a revision may build what later reads use.
			if err := r.read(); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := r.read(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
