package paging

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/store"
)

func TestScopeQuotesEachPart(t *testing.T) {
	if a, b := Scope("op", "a b", "c"), Scope("op", "a", "b c"); a == b {
		t.Fatalf("two lists share the scope %q", a)
	}
	if got, want := Scope("op", "x"), `op "x"`; got != want {
		t.Fatalf("Scope = %q, want %q", got, want)
	}
}

func TestWindowWalksEveryPageInOrder(t *testing.T) {
	s := NewSigner([]byte("secret"))
	id := func(s string) string { return s }
	for _, tc := range []struct {
		name  string
		items []string
		desc  bool
	}{
		{"ascending", []string{"a", "b", "c", "d", "e"}, false},
		{"descending", []string{"e", "d", "c", "b", "a"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			r := Request{Limit: 2}
			for range 10 {
				page, err := Window(s, "s", r, tc.items, id, tc.desc)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, page.Items...)
				if page.Next == "" {
					break
				}
				r.Cursor = page.Next
			}
			if !slices.Equal(got, tc.items) {
				t.Fatalf("pages = %v, want %v", got, tc.items)
			}
		})
	}
}

func TestWindowResumesAfterTheLastItemShown(t *testing.T) {
	s := NewSigner([]byte("secret"))
	id := func(s string) string { return s }
	first, err := Window(s, "s", Request{Limit: 2}, []string{"a", "c", "e"}, id, false)
	if err != nil || first.Next == "" {
		t.Fatalf("first page: %+v, err %v", first, err)
	}
	// "c" was removed and "d" added after the first page was read.
	page, err := Window(s, "s", Request{Limit: 2, Cursor: first.Next}, []string{"a", "d", "e"}, id, false)
	if err != nil || !slices.Equal(page.Items, []string{"d", "e"}) || page.Next != "" {
		t.Fatalf("second page = %+v, err %v; want [d e] and no next", page, err)
	}
}

func TestCursorsAreBoundToTheirListAndSigned(t *testing.T) {
	s := NewSigner([]byte("secret"))
	c := s.Cursor("one", store.Key{PK: "p", SK: "k"})
	if k, err := s.After("one", c); err != nil || k.SK != "k" {
		t.Fatalf("After = %v, %v", k, err)
	}
	for name, bad := range map[string]struct{ scope, cursor string }{
		"another list":   {"two", c},
		"another secret": {"one", NewSigner([]byte("other")).Cursor("one", store.Key{PK: "p", SK: "k"})},
		"tampered":       {"one", "x" + c},
		"no signature":   {"one", "abc"},
	} {
		_, err := s.After(bad.scope, bad.cursor)
		if apperr.KindOf(err) != apperr.Invalid {
			t.Errorf("%s: err %v, want an invalid-field error", name, err)
		}
	}
	if k, err := s.After("one", ""); k != nil || err != nil {
		t.Fatalf(`After("") = %v, %v; want the start`, k, err)
	}
}

func TestLazySignerReadsItsSecretOnFirstUseAndRetriesAFailure(t *testing.T) {
	calls, fail := 0, true
	s := NewLazySigner(func(context.Context) ([]byte, error) {
		calls++
		if fail {
			return nil, errors.New("store down")
		}
		return []byte("secret"), nil
	})
	if calls != 0 {
		t.Fatal("the secret was read before its first use")
	}
	if err := s.Load(context.Background()); err == nil {
		t.Fatal("Load hid the failure")
	}
	fail = false
	if err := s.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := NewSigner([]byte("secret")).Cursor("s", store.Key{SK: "k"})
	if got := s.Cursor("s", store.Key{SK: "k"}); got != want {
		t.Fatalf("lazy cursor %q, want %q", got, want)
	}
}

// A secret that cannot be read is an error in every use, never a stand-in
// key: reading a cursor is an internal error (not the 400 of a bad
// cursor), making one panics (the API's recovery answers 500), and once
// the secret reads again the cursors are those of the real secret.
func TestUnreadableSecretIsAnErrorNotARandomKey(t *testing.T) {
	fail := true
	s := NewLazySigner(func(context.Context) ([]byte, error) {
		if fail {
			return nil, errors.New("store down")
		}
		return []byte("secret"), nil
	})
	good := NewSigner([]byte("secret")).Cursor("s", store.Key{SK: "k"})
	_, err := s.After("s", good)
	var coded *apperr.Error
	if err == nil || errors.As(err, &coded) || !strings.Contains(err.Error(), "store down") {
		t.Fatalf("After with the secret unreadable: %v, want the read's error, not a coded one", err)
	}
	func() {
		defer func() {
			if p := recover(); p == nil {
				t.Fatal("Cursor signed with the secret unreadable")
			}
		}()
		s.Cursor("s", store.Key{SK: "k"})
	}()
	fail = false
	if k, err := s.After("s", good); err != nil || k.SK != "k" {
		t.Fatalf("After once the secret reads: %v, %v", k, err)
	}
	if got := s.Cursor("s", store.Key{SK: "k"}); got != good {
		t.Fatalf("cursor %q, want %q (the real secret's)", got, good)
	}
}

func TestMapKeepsNext(t *testing.T) {
	p := Map(Page[int]{Items: []int{1, 2}, Next: "n"}, func(i int) int { return i * 10 })
	if !slices.Equal(p.Items, []int{10, 20}) || p.Next != "n" {
		t.Fatalf("Map = %+v", p)
	}
}
