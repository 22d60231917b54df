package content_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/contentwire"
	"github.com/galleydocs/galley/shared/app/wire/spaceswire"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/testkit"
)

func samplePages() ([]content.Page, map[string]string) {
	k := content.Spread(3)
	pages := []content.Page{
		{ID: "intro", Pos: k[0], Type: content.TypeDocument, Title: "Introduction", Slug: "intro", Description: "Start here"},
		{ID: "setup", Parent: "intro", Pos: k[0], Type: content.TypeDocument, Title: "Setup", Slug: "setup"},
		{ID: "guide", Pos: k[1], Type: content.TypeDocument, Title: "Guide", Slug: "guide"},
		{ID: "ext", Pos: k[2], Type: content.TypeLink, Title: "Website", Target: &content.Ref{Kind: "url", URL: "https://example.com"}},
	}
	return pages, map[string]string{"intro": "Welcome. See [setup](./setup.md).\n", "setup": "Install it.\n"}
}

func TestAnEmptySpaceHasAnEmptyRevision(t *testing.T) {
	f := setup(t)
	rev := f.As(t, "read").Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space+"/content", nil).Map(t)
	if rev["object"] != "revision" || rev["id"] != f.Kit.Head(t, f.space) || rev["type"] != "edits" || len(rev["pages"].([]any)) != 0 || len(rev["files"].([]any)) != 0 {
		t.Fatalf("revision %v", rev)
	}
	pages := f.As(t, "read").Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space+"/content/pages", nil).Map(t)
	if len(pages["pages"].([]any)) != 0 {
		t.Fatalf("pages %v", pages)
	}
}

func TestPagesAreNestedWithPathsAndLinks(t *testing.T) {
	f := setup(t)
	pages, bodies := samplePages()
	rev := f.seed(t, pages, bodies, nil)
	got := f.As(t, "read").Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space+"/content", nil).Map(t)
	if got["id"] != rev.ID || got["parents"].([]any)[0] == "" {
		t.Fatalf("revision %v", got)
	}
	list := f.As(t, "read").Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space+"/content/pages", nil).Map(t)["pages"].([]any)
	if len(list) != 3 {
		t.Fatalf("%d root pages", len(list))
	}
	intro := list[0].(map[string]any)
	child := intro["pages"].([]any)[0].(map[string]any)
	if intro["path"] != "intro" || child["path"] != "intro/setup" || child["slug"] != "setup" || intro["kind"] != "sheet" {
		t.Fatalf("intro %v", intro)
	}
	if app := child["urls"].(map[string]any)["app"]; app != "https://app.test/s/"+f.space+"/intro/setup" {
		t.Errorf("urls.app %v", app)
	}
	if intro["documentId"] == nil || intro["layout"].(map[string]any)["width"] != "default" {
		t.Errorf("intro %v", intro)
	}
	link := list[2].(map[string]any)
	if link["type"] != "link" || link["target"].(map[string]any)["url"] != "https://example.com" {
		t.Errorf("link page %v", link)
	}
}

func TestPageReadsAsMarkdownOrDocument(t *testing.T) {
	f := setup(t)
	pages, bodies := samplePages()
	f.seed(t, pages, bodies, nil)
	base := "/v1/spaces/" + f.space + "/content/page/"
	md := f.As(t, "read").Expect(http.StatusOK, "GET", base+"intro?format=markdown", nil).Map(t)
	want := "---\ndescription: Start here\n---\n\n# Introduction\n\nWelcome. See [setup](./setup.md).\n"
	if md["markdown"] != want || md["document"] != nil {
		t.Fatalf("markdown %q, want %q", md["markdown"], want)
	}
	if kids := md["pages"].([]any); len(kids) != 1 || kids[0].(map[string]any)["id"] != "setup" {
		t.Errorf("children %v", md["pages"])
	}
	for _, path := range []string{base + "intro?format=document", base + "intro"} {
		doc := f.As(t, "read").Expect(http.StatusOK, "GET", path, nil).Map(t)["document"].(map[string]any)
		para := doc["nodes"].([]any)[0].(map[string]any)
		link := para["nodes"].([]any)[1].(map[string]any)
		if doc["object"] != "document" || link["type"] != "link" || link["data"].(map[string]any)["ref"].(map[string]any)["page"] != "setup" {
			t.Fatalf("%s: document %v", path, doc)
		}
	}
	empty := f.As(t, "read").Expect(http.StatusOK, "GET", base+"guide?format=markdown", nil).Map(t)
	if empty["markdown"] != "# Guide\n" {
		t.Errorf("an empty page reads as %q", empty["markdown"])
	}
	f.As(t, "read").Expect(http.StatusNotFound, "GET", base+"nope", nil)
	res := f.As(t, "read").Expect(http.StatusBadRequest, "GET", base+"intro?format=html", nil)
	if !strings.Contains(string(res.Body), "format") {
		t.Errorf("error does not name format: %s", res.Body)
	}
}

func TestFilesPageAndDownloadThroughSignedLinks(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	repo := content.NewRepo(f.Kit.Deps)
	var files []content.File
	for _, id := range []string{"f1", "f2", "f3"} {
		h, err := repo.PutFileBytes(ctx, f.space, []byte("bytes of "+id), "text/plain")
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, content.File{ID: id, Name: id + ".txt", ContentType: "text/plain", Size: int64(len("bytes of " + id)), Blob: h})
	}
	f.seed(t, nil, nil, files)
	base := "/v1/spaces/" + f.space + "/content/files"
	if seen := testkit.Field(testkit.Items(t, f.As(t, "read"), base, 2), "id"); strings.Join(seen, ",") != "f1,f2,f3" {
		t.Fatalf("listed %v", seen)
	}
	f.As(t, "read").Expect(http.StatusBadRequest, "GET", base+"?page=forged", nil)
	f.As(t, "read").Expect(http.StatusBadRequest, "GET", base+"?limit=1001", nil)

	file := f.As(t, "read").Expect(http.StatusOK, "GET", base+"/f2", nil).Map(t)
	if file["name"] != "f2.txt" || file["size"] != float64(len("bytes of f2")) {
		t.Fatalf("file %v", file)
	}
	f.As(t, "read").Expect(http.StatusNotFound, "GET", base+"/nope", nil)
	link, err := url.Parse(file["downloadURL"].(string))
	if err != nil || link.Host != "api.test" {
		t.Fatalf("downloadURL %v", file["downloadURL"])
	}
	anon := f.As(t, "")
	got := anon.Expect(http.StatusOK, "GET", link.RequestURI(), nil)
	if string(got.Body) != "bytes of f2" || got.Header.Get("Content-Type") != "text/plain" {
		t.Fatalf("download: %q %v", got.Body, got.Header)
	}
	// Users' files never run as pages of the API's origin.
	if got.Header.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(got.Header.Get("Content-Security-Policy"), "sandbox") ||
		got.Header.Get("Referrer-Policy") != "strict-origin-when-cross-origin" ||
		!strings.HasPrefix(got.Header.Get("Content-Disposition"), "attachment") {
		t.Errorf("download headers %v", got.Header)
	}
	// The link is bound to its file and cannot be altered.
	anon.Expect(http.StatusForbidden, "GET", strings.Replace(link.RequestURI(), "/f2/", "/f1/", 1), nil)
	anon.Expect(http.StatusForbidden, "GET", link.Path+"?token=x"+link.Query().Get("token"), nil)
}

func TestMetadataFalseOmitsGit(t *testing.T) {
	f := setup(t)
	pages, bodies := samplePages()
	pages[0].Git = &content.GitBlob{OID: "abc", Path: "intro/README.md"}
	f.seed(t, pages, bodies, nil)
	base := "/v1/spaces/" + f.space + "/content/page/intro"
	if f.As(t, "read").Expect(http.StatusOK, "GET", base, nil).Map(t)["git"] == nil {
		t.Fatal("git metadata missing by default")
	}
	if f.As(t, "read").Expect(http.StatusOK, "GET", base+"?metadata=false", nil).Map(t)["git"] != nil {
		t.Fatal("metadata=false kept git")
	}
}

func TestContentReadsAreForMembersWhoMayRead(t *testing.T) {
	f := setup(t)
	for _, path := range []string{"/content", "/content/pages", "/content/files", "/content/files/x", "/content/page/x"} {
		t.Run(strings.ReplaceAll(path, "/", "_"), func(t *testing.T) {
			p := "/v1/spaces/" + f.space + path
			f.As(t, "").Expect(http.StatusUnauthorized, "GET", p, nil)
			f.As(t, testkit.Outsider).Expect(http.StatusNotFound, "GET", p, nil)
			f.As(t, "guest").Expect(http.StatusNotFound, "GET", p, nil)
			f.As(t, "admin").Expect(http.StatusNotFound, "GET", "/v1/spaces/unknown"+path, nil)
		})
	}
	// A deleted space has no content to read.
	if err := spaceswire.Service(f.Root).Delete(f.Ctx("admin"), f.space); err != nil {
		t.Fatal(err)
	}
	f.As(t, "admin").Expect(http.StatusNotFound, "GET", "/v1/spaces/"+f.space+"/content", nil)
}

// The content reads check the reading right themselves, from the ids they
// are given: an outsider finds nothing, nor does anyone a change request
// the space does not have.
func TestServiceReadsCheckTheReadingRight(t *testing.T) {
	f := setup(t)
	svc := contentwire.Service(app.NewRoot(f.Kit.Deps))
	head := content.At{SpaceID: f.space}
	outsider := f.Ctx(testkit.Outsider)
	if _, err := svc.Pages(outsider, head, true); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("outsider's read: %v, want not found", err)
	}
	if _, err := svc.Files(outsider, head, paging.Request{}, true); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("outsider's file list: %v, want not found", err)
	}
	admin := f.Ctx("admin")
	if _, err := svc.Pages(admin, content.At{SpaceID: f.space, ChangeRequest: "7"}, true); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("read of a change request the space lacks: %v, want not found", err)
	}
	if _, err := svc.Pages(admin, head, true); err != nil {
		t.Fatalf("admin's read: %v", err)
	}
}
