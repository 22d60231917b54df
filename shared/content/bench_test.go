package content_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/app/wire/contentwire"
	"github.com/galleydocs/galley/shared/content"
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
	a := testkit.NewAPI(tb, testkit.New(tb), []string{"content"})
	sp, k := a.Space(tb), a.Kit
	repo := content.NewRepo(k.Deps)
	// The sections share their bodies (page i of each the same).
	bodies := map[int]string{}
	tree := testkit.NewBigTree(n, func(_, i int) string {
		if bodies[i] == "" {
			body := fmt.Sprintf("Body of page %d. See [the next page](./page-%d.md) and ![a picture](/files/f%03d).\n\n%s",
				i, i+1, i%50, strings.Repeat("A line of documentation text.\n", 20))
			h, err := repo.PutDocument(k.Ctx, sp, body)
			if err != nil {
				tb.Fatal(err)
			}
			bodies[i] = h
		}
		return bodies[i]
	})
	var files []content.File
	for i := 0; i < 50; i++ {
		files = append(files, content.File{ID: fmt.Sprintf("f%03d", i), Name: fmt.Sprintf("picture-%d.png", i), ContentType: "image/png",
			Size: 1000, Width: 10, Height: 10, Blob: content.Hash([]byte{byte(i)})})
	}
	k.Land(tb, sp, &content.Tree{Pages: tree.Pages, Files: files}, nil)
	return &bigSpace{svc: contentwire.Service(a.Root), ctx: a.Ctx("admin"), src: content.At{SpaceID: sp}, leaf: tree.Leaf, section: tree.Section,
		path: tree.LeafPath, file: "f025"}
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
