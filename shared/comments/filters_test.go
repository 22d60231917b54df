package comments_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

// ids lists the ids of a list answer's items.
func ids(t testing.TB, list map[string]any) []string {
	t.Helper()
	var out []string
	for _, it := range list["items"].([]any) {
		out = append(out, id(it.(map[string]any)))
	}
	if list["count"] != float64(len(out)) {
		t.Fatalf("count %v for %d items", list["count"], len(out))
	}
	return out
}

// TestListFiltersAndOrders checks order, status, targetPage, authors and
// their combinations, and paging through filtered lists, on each storage
// backend.
func TestListFiltersAndOrders(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setupOn(t, k)
		pages := f.seed(t)
		intro, guide := pages["intro"], pages["guide"]
		c1 := id(f.post(t, f.commenter, f.comments(), map[string]any{"page": intro, "body": map[string]any{"markdown": "1"}}))
		c2 := id(f.post(t, f.commenter2, f.comments(), map[string]any{"page": guide, "body": map[string]any{"markdown": "2"}}))
		c3 := id(f.post(t, f.editor, f.comments(), say("3")))
		c4 := id(f.post(t, f.commenter, f.comments(), map[string]any{"page": intro, "body": map[string]any{"markdown": "4"}}))
		c5 := id(f.post(t, f.commenter2, f.comments(), map[string]any{"page": intro, "body": map[string]any{"markdown": "5"}}))
		for _, c := range []string{c2, c4} {
			f.as(t, f.editor).Expect(http.StatusOK, "PUT", f.comments()+"/"+c, map[string]any{"resolved": true})
		}
		cases := []struct {
			name, query string
			want        []string
		}{
			{"NewestFirstByDefault", "", []string{c5, c4, c3, c2, c1}},
			{"OldestFirstWithAsc", "order=asc", []string{c1, c2, c3, c4, c5}},
			{"NewestFirstWithDesc", "order=desc", []string{c5, c4, c3, c2, c1}},
			{"AllStatuses", "status=all", []string{c5, c4, c3, c2, c1}},
			{"OpenOnly", "status=open", []string{c5, c3, c1}},
			{"ResolvedOnly", "status=resolved&order=asc", []string{c2, c4}},
			{"OnAPage", "targetPage=" + intro, []string{c5, c4, c1}},
			{"OpenOnAPage", "targetPage=" + intro + "&status=open", []string{c5, c1}},
			{"ResolvedOnAPageOldestFirst", "targetPage=" + guide + "&status=resolved&order=asc", []string{c2}},
			{"OnAnUnknownPage", "targetPage=nope", nil},
			{"ByOneAuthor", "authors=" + f.commenterID, []string{c4, c1}},
			{"ByTwoAuthorsRepeated", "authors=" + f.commenterID + "&authors=" + f.commenter2ID, []string{c5, c4, c2, c1}},
			{"ByTwoAuthorsCommaSeparated", "authors=" + url.QueryEscape(f.commenterID+","+f.commenter2ID), []string{c5, c4, c2, c1}},
			{"ByAuthorOnAPageOldestFirst", "authors=" + f.commenterID + "&targetPage=" + intro + "&order=asc", []string{c1, c4}},
			{"OpenByAuthor", "authors=" + f.commenter2ID + "&status=open", []string{c5}},
			{"ByAnUnknownAuthor", "authors=nobody", nil},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				got := ids(t, f.as(t, f.reader).Expect(http.StatusOK, "GET", f.comments()+"?"+tc.query, nil).Map(t))
				if strings.Join(got, " ") != strings.Join(tc.want, " ") {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
			})
		}
		for _, tc := range cases {
			t.Run("Paged"+tc.name, func(t *testing.T) {
				got, pages := f.pages(t, f.reader, f.comments()+"?limit=2&"+tc.query)
				if strings.Join(got, " ") != strings.Join(tc.want, " ") {
					t.Fatalf("two at a time: got %v, want %v", got, tc.want)
				}
				if want := max(1, (len(tc.want)+1)/2); pages != want {
					t.Fatalf("%d pages for %d comments two at a time, want %d", pages, len(tc.want), want)
				}
			})
		}

		// A change request's list filters the same way.
		cr := f.request(t, "Review")
		r1 := id(f.post(t, f.commenter, f.crComments(cr["number"]), say("a")))
		r2 := id(f.post(t, f.commenter2, f.crComments(cr["number"]), say("b")))
		f.as(t, f.editor).Expect(http.StatusOK, "PUT", f.crComments(cr["id"])+"/"+r1, map[string]any{"resolved": true})
		if got := ids(t, f.as(t, f.reader).Expect(http.StatusOK, "GET", f.crComments(cr["id"])+"?status=open", nil).Map(t)); strings.Join(got, " ") != r2 {
			t.Fatalf("open comments of the request: %v", got)
		}
		if got := ids(t, f.as(t, f.reader).Expect(http.StatusOK, "GET", f.crComments(cr["number"])+"?order=asc&authors="+f.commenterID, nil).Map(t)); strings.Join(got, " ") != r1 {
			t.Fatalf("the request's comments by %s: %v", f.commenterID, got)
		}
	})
}

// pages reads every page of a list as token and returns the ids in order
// and the number of pages read.
func (f *fixture) pages(t testing.TB, token, path string) ([]string, int) {
	t.Helper()
	var all []string
	next := ""
	for n := 1; n <= 50; n++ {
		p := path
		if next != "" {
			p += "&page=" + url.QueryEscape(next)
		}
		list := f.as(t, token).Expect(http.StatusOK, "GET", p, nil).Map(t)
		all = append(all, ids(t, list)...)
		nx, ok := list["next"].(map[string]any)
		if !ok {
			return all, n
		}
		next = nx["page"].(string)
	}
	t.Fatalf("more than 50 pages of %s", path)
	return nil, 0
}

func TestPageTokensAreBoundToTheirList(t *testing.T) {
	f := setup(t)
	for i := 0; i < 3; i++ {
		f.post(t, f.commenter, f.comments(), say("x"))
	}
	first := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.comments()+"?limit=1", nil).Map(t)
	token := url.QueryEscape(first["next"].(map[string]any)["page"].(string))
	f.as(t, f.reader).Expect(http.StatusOK, "GET", f.comments()+"?limit=1&page="+token, nil)
	for name, path := range map[string]string{
		"OtherOrder":  f.comments() + "?limit=1&order=asc&page=" + token,
		"OtherStatus": f.comments() + "?limit=1&status=open&page=" + token,
		"OtherAuthor": f.comments() + "?limit=1&authors=" + f.commenterID + "&page=" + token,
		"Tampered":    f.comments() + "?limit=1&page=x" + token,
		"Garbage":     f.comments() + "?limit=1&page=garbage",
	} {
		t.Run("400"+name, func(t *testing.T) {
			res := f.as(t, f.reader).Expect(http.StatusBadRequest, "GET", path, nil)
			if !strings.Contains(string(res.Body), "page") {
				t.Fatalf("error does not name page: %s", res.Body)
			}
		})
	}
	c := id(f.post(t, f.commenter, f.comments(), say("thread")))
	for i := 0; i < 5; i++ {
		f.post(t, f.commenter2, f.comments()+"/"+c+"/replies", say("r"))
	}
	got, pages := f.pages(t, f.reader, f.comments()+"/"+c+"/replies?limit=2")
	if len(got) != 5 || pages != 3 {
		t.Fatalf("replies two at a time: %d in %d pages", len(got), pages)
	}
	res := f.as(t, f.reader).Expect(http.StatusBadRequest, "GET", f.comments()+"/"+c+"/replies?limit=2&page="+token, nil)
	if !strings.Contains(string(res.Body), "page") {
		t.Fatalf("a comments token read replies: %s", res.Body)
	}
}
