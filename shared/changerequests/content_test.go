package changerequests_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestRequestContentReadsAreForMembersWhoMayRead(t *testing.T) {
	f := setup(t)
	f.create(t, f.editor, "")
	refs := f.author(t, f.editor, 1, insert("p", "", "# P\n\nBody.\n"))["refs"].(map[string]any)
	page := refs["p"].(string)
	for _, path := range []string{"/content", "/content/pages", "/content/files", "/content/page/" + page} {
		t.Run(strings.ReplaceAll(path, "/", "_"), func(t *testing.T) {
			f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(1)+path, nil)
			f.as(t, "").Expect(http.StatusUnauthorized, "GET", f.cr(1)+path, nil)
			f.as(t, f.outsider).Expect(http.StatusNotFound, "GET", f.cr(1)+path, nil)
			f.as(t, f.guest).Expect(http.StatusNotFound, "GET", f.cr(1)+path, nil)
			f.as(t, f.reader).Expect(http.StatusNotFound, "GET", f.cr(8)+path, nil)
		})
	}
	f.as(t, f.reader).Expect(http.StatusNotFound, "GET", f.cr(1)+"/content/page/nope", nil)
	f.as(t, f.reader).Expect(http.StatusNotFound, "GET", f.cr(1)+"/content/files/nope", nil)
	for _, q := range []string{"/content/page/" + page + "?format=pdf", "/content/files?limit=0", "/content/files?page=forged", "/content?metadata=maybe"} {
		f.as(t, f.reader).Expect(http.StatusBadRequest, "GET", f.cr(1)+q, nil)
	}
	rev := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(1)+"/content", nil).Map(t)
	if app := rev["urls"].(map[string]any)["app"].(string); !strings.HasPrefix(app, "https://app.test/s/"+f.space+"/~/changes/1/") {
		t.Errorf("urls.app %s", app)
	}
	p := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(1)+"/content/page/"+page, nil).Map(t)
	if app := p["urls"].(map[string]any)["app"]; app != "https://app.test/s/"+f.space+"/~/changes/1/p" {
		t.Errorf("page urls.app %v", app)
	}
}

func TestRequestFilesPage(t *testing.T) {
	f := setup(t)
	f.create(t, f.editor, "")
	var files []any
	for i := 0; i < 3; i++ {
		files = append(files, map[string]any{"name": "f.txt", "contentType": "text/plain", "base64": "aGk="})
	}
	f.author(t, f.editor, 1, map[string]any{"operation": "insert_files", "files": files})
	var seen int
	page := ""
	for i := 0; i < 5; i++ {
		path := f.cr(1) + "/content/files?limit=2"
		if page != "" {
			path += "&page=" + url.QueryEscape(page)
		}
		body := f.as(t, f.reader).Expect(http.StatusOK, "GET", path, nil).Map(t)
		seen += len(body["items"].([]any))
		next, _ := body["next"].(map[string]any)
		if next == nil {
			break
		}
		page = next["page"].(string)
	}
	if seen != 3 {
		t.Fatalf("paged through %d files, want 3", seen)
	}
	// A token of the request's list does not read the space's.
	first := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(1)+"/content/files?limit=1", nil).Map(t)
	token := first["next"].(map[string]any)["page"].(string)
	f.as(t, f.reader).Expect(http.StatusBadRequest, "GET", "/v1/spaces/"+f.space+"/content/files?page="+url.QueryEscape(token), nil)
}

func TestUpdateNeedsTheEditLevel(t *testing.T) {
	f := setup(t)
	f.create(t, f.editor, "")
	f.needsEdit(t, f.cr(1)+"/update", f.cr(5)+"/update", nil)
	f.as(t, f.editor).Expect(http.StatusOK, "POST", f.cr(1)+"/update", nil)
}

// A change request's page by path (nested, the rest of the URL) and its
// meta links, with their auth cases.
func TestRequestPageByPathAndMetaLinks(t *testing.T) {
	f := setup(t)
	f.create(t, f.editor, "")
	page := f.author(t, f.editor, 1, insert("p", "", "# P\n\nBody.\n"))["refs"].(map[string]any)["p"].(string)
	child := f.author(t, f.editor, 1, insert("c", page, "# Child Page\n\nHi.\n"))["refs"].(map[string]any)["c"].(string)
	r := f.as(t, f.reader)
	got := r.Expect(http.StatusOK, "GET", f.cr(1)+"/content/path/p/child-page", nil).Map(t)
	if got["id"] != child || got["path"] != "p/child-page" {
		t.Fatalf("page by path %v", got)
	}
	if got := r.Expect(http.StatusOK, "GET", f.cr(1)+"/content/path/p", nil).Map(t); got["id"] != page || len(got["pages"].([]any)) != 1 {
		t.Fatalf("page by path %v", got)
	}
	// Not in the space's head: the request is not merged.
	r.Expect(http.StatusNotFound, "GET", "/v1/spaces/"+f.space+"/content/path/p", nil)
	r.Expect(http.StatusNotFound, "GET", f.cr(1)+"/content/path/p/nope", nil)
	if ml := r.Expect(http.StatusOK, "GET", f.cr(1)+"/content/page/"+child+"/meta-links", nil).Map(t); len(ml["alternates"].([]any)) != 0 {
		t.Fatalf("meta links %v", ml)
	}
	r.Expect(http.StatusNotFound, "GET", f.cr(1)+"/content/page/nope/meta-links", nil)
	for _, path := range []string{"/content/path/p/child-page", "/content/page/" + child + "/meta-links"} {
		f.as(t, "").Expect(http.StatusUnauthorized, "GET", f.cr(1)+path, nil)
		f.as(t, f.outsider).Expect(http.StatusNotFound, "GET", f.cr(1)+path, nil)
		f.as(t, f.guest).Expect(http.StatusNotFound, "GET", f.cr(1)+path, nil)
		r.Expect(http.StatusNotFound, "GET", f.cr(8)+path, nil)
	}
	res := r.Expect(http.StatusBadRequest, "GET", f.cr(1)+"/content/path/p?format=pdf", nil)
	if !strings.Contains(string(res.Body), "format") {
		t.Fatalf("400 %s does not name format", res.Body)
	}
}
