package testkit

import (
	"fmt"
	"testing"

	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// Head returns the id of the space's head revision, read from its record.
func (k *Kit) Head(t testing.TB, spaceID string) string {
	t.Helper()
	sp, _, err := records.Get[model.Space](k.Ctx, k.Deps.Store, keys.Space(spaceID))
	if err != nil {
		t.Fatal(err)
	}
	return sp.Revision
}

// Land makes tree a revision of the space on top of its head and moves
// the head to it, as a merge would, without change requests (fast for
// large fixtures). A page of tree without a document gets bodies[its id]
// stored as its document ("" when bodies has none).
func (k *Kit) Land(t testing.TB, spaceID string, tree *content.Tree, bodies map[string]string) model.Revision {
	t.Helper()
	repo := content.NewRepo(k.Deps)
	for i := range tree.Pages {
		if tree.Pages[i].Document != "" {
			continue
		}
		h, err := repo.PutDocument(k.Ctx, spaceID, bodies[tree.Pages[i].ID])
		if err != nil {
			t.Fatal(err)
		}
		tree.Pages[i].Document = h
	}
	rev, err := repo.NewRevision(k.Ctx, spaceID, content.RevisionEdits, []string{k.Head(t, spaceID)}, content.NewIndex(tree))
	if err != nil {
		t.Fatal(err)
	}
	key := keys.Space(spaceID)
	_, err = store.Update(k.Ctx, k.Deps.Store, key.PK, key.SK, func(old store.Item) (store.Item, []store.Op, error) {
		sp, err := records.Decode[model.Space](old)
		if err != nil {
			return store.Item{}, nil, err
		}
		sp.Revision = rev.ID
		next := old
		next.Data = records.Item(key, sp, 0).Data
		return next, []store.Op{content.Put(rev)}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return rev
}

// BigTree is the page tree of a large space, for benchmarks: n pages in
// sections of up to 100, each section a top-level page ("s0003", slug
// "section-3") with its other pages as children ("s0003-p0007", slug
// "page-7"), titled "Page 7 of section 3".
type BigTree struct {
	Pages []content.Page
	// Section is the middle section's id; Leaf, a page without children
	// in its middle, and LeafPath, that page's path.
	Section, Leaf, LeafPath string
}

// NewBigTree returns the tree of n pages; document gives page i of
// section s its document's hash (sections may share them: writing
// thousands of documents would make a benchmark's set-up take most of
// its run).
func NewBigTree(n int, document func(s, i int) string) *BigTree {
	sections := max(1, n/100)
	per := n / sections
	top, kids := content.Spread(sections), content.Spread(per)
	bt := &BigTree{Pages: make([]content.Page, 0, n), Section: fmt.Sprintf("s%04d", sections/2),
		Leaf: fmt.Sprintf("s%04d-p%04d", sections/2, per/2), LeafPath: fmt.Sprintf("section-%d/page-%d", sections/2, per/2)}
	for s := 0; s < sections; s++ {
		sec := fmt.Sprintf("s%04d", s)
		for i := 0; i < per; i++ {
			p := content.Page{ID: fmt.Sprintf("%s-p%04d", sec, i), Parent: sec, Pos: kids[i], Type: content.TypeDocument,
				Title: fmt.Sprintf("Page %d of section %d", i, s), Slug: fmt.Sprintf("page-%d", i)}
			if i == 0 {
				p.ID, p.Parent, p.Pos, p.Slug = sec, "", top[s], fmt.Sprintf("section-%d", s)
			}
			p.Document = document(s, i)
			bt.Pages = append(bt.Pages, p)
		}
	}
	return bt
}
