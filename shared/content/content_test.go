package content_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/contentwire"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/content/contenthttp"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/httpapi/apitest"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/testkit"
	"github.com/galleydocs/galley/shared/users"
)

type fixture struct {
	kit                            *testkit.Kit
	api                            *httpapi.API
	org                            model.Organization
	space                          model.Space
	admin, reader, guest, outsider string
	// adminID and outsiderID are user ids, for service-level reads.
	adminID, outsiderID string
}

func setup(t *testing.T) *fixture { return setupOn(t, testkit.New(t)) }

func setupOn(t *testing.T, k *testkit.Kit) *fixture {
	api := httpapi.New(httpapi.Config{Auth: users.New(k.Deps), Logger: k.Deps.Logger, APIURL: "https://api.test", AppURL: "https://app.test"})
	contenthttp.Register(api, contentwire.Service(app.NewRoot(k.Deps)))
	f := &fixture{kit: k, api: api}
	ua, ta := k.User("alice")
	ur, tr := k.User("rita")
	ug, tg := k.User("gus")
	uo, to := k.User("olga")
	f.admin, f.reader, f.guest, f.outsider = ta, tr, tg, to
	f.adminID, f.outsiderID = ua.ID, uo.ID
	f.org = k.Org("Acme", map[string]model.Role{ua.ID: model.RoleAdmin, ur.ID: model.RoleRead, ug.ID: model.RoleGuest})
	ctx := access.WithCaller(k.Ctx, access.Caller{UserID: ua.ID})
	sp, _, err := spaces.New(k.Deps).Create(ctx, f.org.ID, spaces.Create{Title: "Docs"})
	if err != nil {
		t.Fatal(err)
	}
	f.space = sp
	return f
}

func (f *fixture) as(t *testing.T, token string) *apitest.Client {
	c := apitest.New(t, f.api)
	c.Token = token
	return c
}

// seed makes a revision of the given pages (bodies by page id) and files,
// and moves the space's head to it.
func (f *fixture) seed(t *testing.T, pages []content.Page, bodies map[string]string, files []content.File) model.Revision {
	t.Helper()
	ctx := context.Background()
	repo := content.NewRepo(f.kit.Deps)
	for i := range pages {
		h, err := repo.PutDocument(ctx, f.space.ID, bodies[pages[i].ID])
		if err != nil {
			t.Fatal(err)
		}
		pages[i].Document = h
	}
	rev, err := repo.NewRevision(ctx, f.space.ID, content.RevisionEdits, []string{f.space.Revision}, content.NewIndex(&content.Tree{Pages: pages, Files: files}))
	if err != nil {
		t.Fatal(err)
	}
	k := keys.Space(f.space.ID)
	_, err = store.Update(ctx, f.kit.Deps.Store, k.PK, k.SK, func(old store.Item) (store.Item, []store.Op, error) {
		sp, err := records.Decode[model.Space](old)
		if err != nil {
			return store.Item{}, nil, err
		}
		sp.Revision = rev.ID
		next := old
		next.Data = records.Item(k, sp, 0).Data
		return next, []store.Op{content.Put(rev)}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	f.space.Revision = rev.ID
	return rev
}

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
	rev := f.as(t, f.reader).Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space.ID+"/content", nil).Map(t)
	if rev["object"] != "revision" || rev["id"] != f.space.Revision || rev["type"] != "edits" || len(rev["pages"].([]any)) != 0 || len(rev["files"].([]any)) != 0 {
		t.Fatalf("revision %v", rev)
	}
	pages := f.as(t, f.reader).Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space.ID+"/content/pages", nil).Map(t)
	if len(pages["pages"].([]any)) != 0 {
		t.Fatalf("pages %v", pages)
	}
}

func TestPagesAreNestedWithPathsAndLinks(t *testing.T) {
	f := setup(t)
	pages, bodies := samplePages()
	rev := f.seed(t, pages, bodies, nil)
	got := f.as(t, f.reader).Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space.ID+"/content", nil).Map(t)
	if got["id"] != rev.ID || got["parents"].([]any)[0] == "" {
		t.Fatalf("revision %v", got)
	}
	list := f.as(t, f.reader).Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space.ID+"/content/pages", nil).Map(t)["pages"].([]any)
	if len(list) != 3 {
		t.Fatalf("%d root pages", len(list))
	}
	intro := list[0].(map[string]any)
	child := intro["pages"].([]any)[0].(map[string]any)
	if intro["path"] != "intro" || child["path"] != "intro/setup" || child["slug"] != "setup" || intro["kind"] != "sheet" {
		t.Fatalf("intro %v", intro)
	}
	if app := child["urls"].(map[string]any)["app"]; app != "https://app.test/s/"+f.space.ID+"/intro/setup" {
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
	base := "/v1/spaces/" + f.space.ID + "/content/page/"
	md := f.as(t, f.reader).Expect(http.StatusOK, "GET", base+"intro?format=markdown", nil).Map(t)
	want := "---\ndescription: Start here\n---\n\n# Introduction\n\nWelcome. See [setup](./setup.md).\n"
	if md["markdown"] != want || md["document"] != nil {
		t.Fatalf("markdown %q, want %q", md["markdown"], want)
	}
	if kids := md["pages"].([]any); len(kids) != 1 || kids[0].(map[string]any)["id"] != "setup" {
		t.Errorf("children %v", md["pages"])
	}
	for _, path := range []string{base + "intro?format=document", base + "intro"} {
		doc := f.as(t, f.reader).Expect(http.StatusOK, "GET", path, nil).Map(t)["document"].(map[string]any)
		para := doc["nodes"].([]any)[0].(map[string]any)
		link := para["nodes"].([]any)[1].(map[string]any)
		if doc["object"] != "document" || link["type"] != "link" || link["data"].(map[string]any)["ref"].(map[string]any)["page"] != "setup" {
			t.Fatalf("%s: document %v", path, doc)
		}
	}
	empty := f.as(t, f.reader).Expect(http.StatusOK, "GET", base+"guide?format=markdown", nil).Map(t)
	if empty["markdown"] != "# Guide\n" {
		t.Errorf("an empty page reads as %q", empty["markdown"])
	}
	f.as(t, f.reader).Expect(http.StatusNotFound, "GET", base+"nope", nil)
	res := f.as(t, f.reader).Expect(http.StatusBadRequest, "GET", base+"intro?format=html", nil)
	if !strings.Contains(string(res.Body), "format") {
		t.Errorf("error does not name format: %s", res.Body)
	}
}

func TestFilesPageAndDownloadThroughSignedLinks(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	repo := content.NewRepo(f.kit.Deps)
	var files []content.File
	for _, id := range []string{"f1", "f2", "f3"} {
		h, err := repo.PutFileBytes(ctx, f.space.ID, []byte("bytes of "+id), "text/plain")
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, content.File{ID: id, Name: id + ".txt", ContentType: "text/plain", Size: int64(len("bytes of " + id)), Blob: h})
	}
	f.seed(t, nil, nil, files)
	base := "/v1/spaces/" + f.space.ID + "/content/files"
	var seen []string
	page := ""
	for i := 0; i < 5; i++ {
		path := base + "?limit=2"
		if page != "" {
			path += "&page=" + url.QueryEscape(page)
		}
		var body struct {
			Next  *struct{ Page string }
			Count int
			Items []content.RevisionFile
		}
		f.as(t, f.reader).Expect(http.StatusOK, "GET", path, nil).JSON(t, &body)
		if body.Count != len(body.Items) {
			t.Fatalf("count %d for %d items", body.Count, len(body.Items))
		}
		for _, it := range body.Items {
			seen = append(seen, it.ID)
		}
		if body.Next == nil {
			break
		}
		page = body.Next.Page
	}
	if strings.Join(seen, ",") != "f1,f2,f3" {
		t.Fatalf("listed %v", seen)
	}
	f.as(t, f.reader).Expect(http.StatusBadRequest, "GET", base+"?page=forged", nil)
	f.as(t, f.reader).Expect(http.StatusBadRequest, "GET", base+"?limit=1001", nil)

	file := f.as(t, f.reader).Expect(http.StatusOK, "GET", base+"/f2", nil).Map(t)
	if file["name"] != "f2.txt" || file["size"] != float64(len("bytes of f2")) {
		t.Fatalf("file %v", file)
	}
	f.as(t, f.reader).Expect(http.StatusNotFound, "GET", base+"/nope", nil)
	link, err := url.Parse(file["downloadURL"].(string))
	if err != nil || link.Host != "api.test" {
		t.Fatalf("downloadURL %v", file["downloadURL"])
	}
	anon := f.as(t, "")
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
	base := "/v1/spaces/" + f.space.ID + "/content/page/intro"
	if f.as(t, f.reader).Expect(http.StatusOK, "GET", base, nil).Map(t)["git"] == nil {
		t.Fatal("git metadata missing by default")
	}
	if f.as(t, f.reader).Expect(http.StatusOK, "GET", base+"?metadata=false", nil).Map(t)["git"] != nil {
		t.Fatal("metadata=false kept git")
	}
}

func TestContentReadsAreForMembersWhoMayRead(t *testing.T) {
	f := setup(t)
	for _, path := range []string{"/content", "/content/pages", "/content/files", "/content/files/x", "/content/page/x"} {
		t.Run(strings.ReplaceAll(path, "/", "_"), func(t *testing.T) {
			p := "/v1/spaces/" + f.space.ID + path
			f.as(t, "").Expect(http.StatusUnauthorized, "GET", p, nil)
			f.as(t, f.outsider).Expect(http.StatusNotFound, "GET", p, nil)
			f.as(t, f.guest).Expect(http.StatusNotFound, "GET", p, nil)
			f.as(t, f.admin).Expect(http.StatusNotFound, "GET", "/v1/spaces/unknown"+path, nil)
		})
	}
	// A deleted space has no content to read.
	ctx := access.WithCaller(context.Background(), access.Caller{UserID: mustUser(t, f, f.admin)})
	if err := spaces.New(f.kit.Deps).Delete(ctx, f.space.ID); err != nil {
		t.Fatal(err)
	}
	f.as(t, f.admin).Expect(http.StatusNotFound, "GET", "/v1/spaces/"+f.space.ID+"/content", nil)
}

func mustUser(t *testing.T, f *fixture, token string) string {
	c, err := users.New(f.kit.Deps).Authenticate(context.Background(), token)
	if err != nil {
		t.Fatal(err)
	}
	return c.UserID
}

// The content reads check the reading right themselves, from the ids they
// are given: an outsider finds nothing, nor does anyone a change request
// the space does not have.
func TestServiceReadsCheckTheReadingRight(t *testing.T) {
	f := setup(t)
	svc := contentwire.Service(app.NewRoot(f.kit.Deps))
	head := content.At{SpaceID: f.space.ID}
	outsider := access.WithCaller(context.Background(), access.Caller{UserID: f.outsiderID})
	if _, err := svc.Pages(outsider, head, true); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("outsider's read: %v, want not found", err)
	}
	if _, err := svc.Files(outsider, head, paging.Request{}, true); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("outsider's file list: %v, want not found", err)
	}
	admin := access.WithCaller(context.Background(), access.Caller{UserID: f.adminID})
	if _, err := svc.Pages(admin, content.At{SpaceID: f.space.ID, ChangeRequest: "7"}, true); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("read of a change request the space lacks: %v, want not found", err)
	}
	if _, err := svc.Pages(admin, head, true); err != nil {
		t.Fatalf("admin's read: %v", err)
	}
}
