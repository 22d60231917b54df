package content

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func lines(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("line %d\n", i)
	}
	return out
}

func TestMerge3(t *testing.T) {
	base := "a\nb\nc\nd\ne\n"
	for _, tc := range []struct {
		name, ours, theirs, want string
		ok                       bool
	}{
		{"OneSideOnly", "a\nB\nc\nd\ne\n", base, "a\nB\nc\nd\ne\n", true},
		{"DistantEdits", "A\nb\nc\nd\ne\n", "a\nb\nc\nd\nE\n", "A\nb\nc\nd\nE\n", true},
		{"SameEditBothSides", "a\nX\nc\nd\ne\n", "a\nX\nc\nd\ne\n", "a\nX\nc\nd\ne\n", true},
		{"InsertAndDelete", "a\nb\nnew\nc\nd\ne\n", "a\nb\nc\nd\n", "a\nb\nnew\nc\nd\n", true},
		{"SameLineDifferently", "a\nB1\nc\nd\ne\n", "a\nB2\nc\nd\ne\n", "", false},
		{"AdjacentLines", "a\nB\nc\nd\ne\n", "a\nb\nC\nd\ne\n", "", false},
		{"BothAppendDifferently", base + "x\n", base + "y\n", "", false},
		{"DeleteAgainstEdit", "a\nc\nd\ne\n", "a\nB\nc\nd\ne\n", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Merge3(base, tc.ours, tc.theirs)
			if ok != tc.ok || got != tc.want {
				t.Fatalf("Merge3 = %q, %v; want %q, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

// Merge3Theirs keeps ours' edits where theirs did not touch the base and
// takes theirs where both did.
func TestMerge3TheirsTakesTheirsOnConflict(t *testing.T) {
	base := "a\nb\nc\nd\ne\nf\n"
	ours := "A\nb\nc\nD1\ne\nf\n"
	theirs := "a\nb\nc\nD2\ne\nf\nG\n"
	if got, want := Merge3Theirs(base, ours, theirs), "A\nb\nc\nD2\ne\nf\nG\n"; got != want {
		t.Fatalf("Merge3Theirs = %q, want %q", got, want)
	}
}

func TestMerge3KeepsEveryChangeOfLongTexts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	base := lines(3000)
	ours := append([]string(nil), base...)
	theirs := append([]string(nil), base...)
	// Ours edits even hundreds, theirs odd hundreds: never adjacent.
	for i := 0; i < 3000; i += 100 {
		if (i/100)%2 == 0 {
			ours[i+rng.IntN(50)] = "ours\n"
		} else {
			theirs[i+rng.IntN(50)] = "theirs\n"
		}
	}
	got, ok := Merge3(strings.Join(base, ""), strings.Join(ours, ""), strings.Join(theirs, ""))
	if !ok {
		t.Fatal("non-overlapping edits conflict")
	}
	want := make([]string, 3000)
	for i := range want {
		want[i] = base[i]
		if ours[i] != base[i] {
			want[i] = ours[i]
		}
		if theirs[i] != base[i] {
			want[i] = theirs[i]
		}
	}
	if got != strings.Join(want, "") {
		t.Fatal("merged text lost an edit")
	}
}

func TestMyersFindsALongestCommonSubsequence(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := 0; n < 200; n++ {
		a := make([]string, rng.IntN(30))
		b := make([]string, rng.IntN(30))
		for i := range a {
			a[i] = string(rune('a' + rng.IntN(4)))
		}
		for i := range b {
			b[i] = string(rune('a' + rng.IntN(4)))
		}
		m := matches(a, b)
		count, last := 0, -1
		for i, j := range m {
			if j < 0 {
				continue
			}
			if j <= last || a[i] != b[j] {
				t.Fatalf("bad match %d->%d in %v / %v", i, j, a, b)
			}
			last = j
			count++
		}
		if want := lcsLength(a, b); count != want {
			t.Fatalf("matched %d lines, the LCS has %d: %v / %v", count, want, a, b)
		}
	}
}

func lcsLength(a, b []string) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}

// memDocs is an in-memory document store for merges.
type memDocs map[string]string

func (d memDocs) get(h string) (string, error) { return d[h], nil }
func (d memDocs) put(body string) (string, error) {
	if body == "" {
		return "", nil
	}
	h := Hash([]byte(body))
	d[h] = body
	return h, nil
}

func merge(t *testing.T, docs memDocs, base, ours, theirs *Index) (*Index, []Conflict) {
	t.Helper()
	m := &Merger{Base: base, Ours: ours, Theirs: theirs, OursName: "ours", TheirsName: "theirs", Document: docs.get, PutDocument: docs.put}
	ix, conflicts, err := m.Merge()
	if err != nil {
		t.Fatal(err)
	}
	return ix, conflicts
}

// edit copies an index and applies fn to it.
func edit(ix *Index, fn func(*Index)) *Index {
	c := NewIndex(ix.Tree())
	fn(c)
	return c
}

func with(ix *Index, id string, fn func(*Page)) {
	p := *ix.Page(id)
	fn(&p)
	ix.Put(p)
}

func TestMergeTrees(t *testing.T) {
	docs := memDocs{}
	body, _ := docs.put("one\ntwo\nthree\nfour\n")
	base := sampleIndex()
	for _, id := range []string{"intro", "setup", "guide"} {
		with(base, id, func(p *Page) { p.Document = body })
	}
	setBody := func(id, text string) func(*Index) {
		return func(ix *Index) {
			h, _ := docs.put(text)
			with(ix, id, func(p *Page) { p.Document = h })
		}
	}
	both := func(fns ...func(*Index)) func(*Index) {
		return func(ix *Index) {
			for _, fn := range fns {
				fn(ix)
			}
		}
	}
	for _, tc := range []struct {
		name      string
		ours      func(*Index)
		theirs    func(*Index)
		conflicts int
		check     func(t *testing.T, ix *Index)
	}{
		{"TitleAgainstBody", func(ix *Index) { with(ix, "guide", func(p *Page) { p.Title = "Guide 2" }) }, setBody("guide", "one\ntwo\nthree\nFOUR\n"), 0,
			func(t *testing.T, ix *Index) {
				if p := ix.Page("guide"); p.Title != "Guide 2" || docs[p.Document] != "one\ntwo\nthree\nFOUR\n" {
					t.Fatalf("guide %+v %q", p, docs[p.Document])
				}
			}},
		{"BodiesMergedByLine", setBody("intro", "ONE\ntwo\nthree\nfour\n"), setBody("intro", "one\ntwo\nthree\nFOUR\n"), 0,
			func(t *testing.T, ix *Index) {
				if got := docs[ix.Page("intro").Document]; got != "ONE\ntwo\nthree\nFOUR\n" {
					t.Fatalf("body %q", got)
				}
			}},
		{"SameLinesConflict", setBody("intro", "ONE\ntwo\nthree\nfour\n"), setBody("intro", "uno\ntwo\nthree\nfour\n"), 1, nil},
		{"MoveAgainstEdit", func(ix *Index) {
			with(ix, "guide", func(p *Page) { p.Parent, p.Pos = "intro", Between(ix.Page("setup").Pos, "") })
		}, setBody("guide", "one\ntwo\n"), 0,
			func(t *testing.T, ix *Index) {
				if p := ix.Page("guide"); p.Parent != "intro" || docs[p.Document] != "one\ntwo\n" || ix.Path("guide") != "intro/guide" {
					t.Fatalf("guide %+v", p)
				}
			}},
		{"MovedDifferently", func(ix *Index) { with(ix, "guide", func(p *Page) { p.Parent = "intro" }) }, func(ix *Index) { with(ix, "guide", func(p *Page) { p.Pos = "0" }) }, 1, nil},
		{"DeleteAgainstEdit", func(ix *Index) { ix.Remove(ix.Subtree("intro")...) }, setBody("setup", "x\n"), 1, nil},
		{"DeleteAgainstUntouched", func(ix *Index) { ix.Remove(ix.Subtree("intro")...) }, setBody("guide", "x\n"), 0,
			func(t *testing.T, ix *Index) {
				if ix.Page("intro") != nil || ix.Page("setup") != nil || docs[ix.Page("guide").Document] != "x\n" {
					t.Fatal("deleted pages came back or the edit was lost")
				}
			}},
		{"AddUnderDeleted", func(ix *Index) { ix.Remove(ix.Subtree("guide")...) }, func(ix *Index) {
			ix.Put(Page{ID: "new", Parent: "guide", Pos: "V", Type: TypeDocument, Title: "New", Slug: "new"})
		}, 1, nil},
		{"Cycle", func(ix *Index) { with(ix, "guide", func(p *Page) { p.Parent = "intro" }) }, func(ix *Index) { with(ix, "intro", func(p *Page) { p.Parent = "guide" }) }, 2, nil},
		{"SlugClash", func(ix *Index) {
			ix.Put(Page{ID: "a1", Pos: "z", Type: TypeDocument, Title: "FAQ", Slug: "faq"})
		}, func(ix *Index) { ix.Put(Page{ID: "b1", Pos: "z", Type: TypeDocument, Title: "FAQ", Slug: "faq"}) }, 1, nil},
		{"InsertsOnBothSides", func(ix *Index) {
			ix.Put(Page{ID: "a1", Pos: ix.PosAt("", 1, ""), Type: TypeDocument, Title: "A", Slug: "a"})
		},
			func(ix *Index) {
				ix.Put(Page{ID: "b1", Pos: ix.PosAt("", 1, ""), Type: TypeDocument, Title: "B", Slug: "b"})
			}, 0,
			func(t *testing.T, ix *Index) {
				var order []string
				for _, id := range ix.Children("") {
					order = append(order, id)
				}
				if strings.Join(order, ",") != "intro,a1,b1,guide,grp" {
					t.Fatalf("order %v", order)
				}
			}},
		{"FilesAddedOnBothSides", func(ix *Index) { ix.PutFile(File{ID: "f1", Name: "a"}) }, func(ix *Index) { ix.PutFile(File{ID: "f2", Name: "b"}) }, 0,
			func(t *testing.T, ix *Index) {
				if len(ix.Files()) != 2 {
					t.Fatalf("files %v", ix.Files())
				}
			}},
		{"SameChangeBothSides", both(setBody("guide", "z\n")), both(setBody("guide", "z\n")), 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ix, conflicts := merge(t, docs, base, edit(base, tc.ours), edit(base, tc.theirs))
			if len(conflicts) != tc.conflicts {
				t.Fatalf("conflicts %v, want %d", conflicts, tc.conflicts)
			}
			if tc.check != nil {
				tc.check(t, ix)
			}
		})
	}
}
