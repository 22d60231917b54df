package content_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/app/wire/contentpdfwire"
	"github.com/galleydocs/galley/shared/app/wire/spaceswire"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/content/contentpdf"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/testkit"
)

// pdfSpace seeds pages with expressions (the page's and the space's
// variables), conditional blocks (one on the space's variables, one on a
// visitor's claims) and includes of three reusable contents in the forms
// GitBook and Galley write them (a path relative to the page's file, the
// id form, Galley's /reusable-contents/<id>); the included banner holds an
// expression of its own.
func pdfSpace(t *testing.T, f *fixture) {
	t.Helper()
	pages, _ := samplePages()
	pages[0].Variables = content.Variables{"product": "Acme"}
	bodies := map[string]string{
		"intro": "Welcome to <code class=\"expression\">page.vars.product</code> version <code class=\"expression\">space.vars.version</code>.\n\n" +
			"{% if space.vars.beta %}\nBeta notice words.\n{% endif %}\n\n" +
			"{% if visitor.claims.premium %}\nPremium only words.\n{% endif %}\n\nIntro closing words.\n",
		"setup": "Install it.\n",
		"guide": "Guide opening words.\n\n{% include \".gitbook/includes/banner.md\" %}\n\n{% include \"/reusable-content/note\" %}\n\n" +
			"{% include \"/reusable-contents/tip\" %}\n\nGuide closing words.\n",
	}
	repo := content.NewRepo(f.Kit.Deps)
	put := func(body string) string {
		h, err := repo.PutDocument(context.Background(), f.space, body)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	tree := &content.Tree{Pages: pages, Variables: content.Variables{"version": "2.1", "beta": true},
		ReusableContents: []content.ReusableContent{
			{ID: "banner", Title: "Banner", Document: put("## Try it\n\nBanner for <code class=\"expression\">space.vars.version</code> users.\n"),
				Git: &content.GitBlob{OID: "0123456789abcdef0123456789abcdef01234567", Path: ".gitbook/includes/banner.md"}},
			{ID: "note", Title: "Note", Document: put("Note included words.\n")},
			{ID: "tip", Title: "Tip", Document: put("Tip included words.\n")},
		}}
	f.Kit.Land(t, f.space, tree, bodies)
}

// downloadPDF asks for a PDF link as a reader and follows it without a
// token.
func (f *fixture) downloadPDF(t *testing.T, query string) []byte {
	t.Helper()
	link := f.As(t, "read").Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space+"/pdf"+query, nil).Map(t)["url"].(string)
	if !strings.HasPrefix(link, "https://api.test/v1/spaces/"+f.space+"/pdf/download?token=") {
		t.Fatalf("url %s", link)
	}
	u, _ := url.Parse(link)
	res := f.As(t, "").Expect(http.StatusOK, "GET", u.RequestURI(), nil)
	if ct := res.Header.Get("Content-Type"); ct != "application/pdf" || !bytes.HasPrefix(res.Body, []byte("%PDF-")) {
		t.Fatalf("Content-Type %q, body %.20q", ct, res.Body)
	}
	if res.Header.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(res.Header.Get("Content-Disposition"), "inline") {
		t.Errorf("headers %v", res.Header)
	}
	return res.Body
}

func TestSpacePDFShowsIncludedTextAndValues(t *testing.T) {
	f := setup(t)
	pdfSpace(t, f)
	text := testkit.PDFText(t, f.downloadPDF(t, ""))
	if missing := testkit.InOrder(text, "Introduction", "Start here", "Welcome to Acme version 2.1.", "Beta notice words.", "Intro closing words.",
		"Setup", "Install it.", "Guide", "Guide opening words.", "Try it", "Banner for 2.1 users.", "Note included words.", "Tip included words.",
		"Guide closing words."); missing != "" {
		t.Errorf("%q is missing or out of order in the PDF's text:\n%s", missing, text)
	}
	for _, hidden := range []string{"Premium only words", "{%", "vars.", "expression"} {
		if strings.Contains(text, hidden) {
			t.Errorf("the PDF shows %q:\n%s", hidden, text)
		}
	}

	sub := testkit.PDFText(t, f.downloadPDF(t, "?page=intro"))
	if missing := testkit.InOrder(sub, "Introduction", "Welcome to Acme version 2.1.", "Setup", "Install it."); missing != "" || strings.Contains(sub, "Guide") {
		t.Errorf("the page with its descendants: %q missing, text:\n%s", missing, sub)
	}
	one := testkit.PDFText(t, f.downloadPDF(t, "?only=true&page=guide"))
	if missing := testkit.InOrder(one, "Guide", "Banner for 2.1 users.", "Guide closing words."); missing != "" || strings.Contains(one, "Introduction") {
		t.Errorf("the page alone: %q missing, text:\n%s", missing, one)
	}
	intro := testkit.PDFText(t, f.downloadPDF(t, "?only=true&page=intro"))
	if strings.Contains(intro, "Setup") || !strings.Contains(intro, "Welcome to Acme") {
		t.Errorf("only=true printed more or less than the page:\n%s", intro)
	}
}

func TestSpacePDFOfAnEmptySpace(t *testing.T) {
	f := setup(t)
	if data := f.downloadPDF(t, ""); len(data) == 0 {
		t.Fatal("empty PDF")
	}
}

func TestSpacePDFAuthValidationAndErrors(t *testing.T) {
	f := setup(t)
	pdfSpace(t, f)
	sp := "/v1/spaces/" + f.space
	for _, tc := range []struct {
		name, token, path string
		status            int
		field             string // named by the error's message
	}{
		{"200Reader", "read", sp + "/pdf", 200, ""},
		{"401NoToken", "", sp + "/pdf", 401, ""},
		{"404Outsider", testkit.Outsider, sp + "/pdf", 404, ""},
		{"404GuestWithoutAccess", "guest", sp + "/pdf", 404, ""},
		{"404UnknownSpace", "read", "/v1/spaces/nope/pdf", 404, ""},
		{"404UnknownPage", "read", sp + "/pdf?page=nope", 404, ""},
		{"400OnlyWithoutPage", "read", sp + "/pdf?only=true", 400, "page"},
		{"400OnlyNotABoolean", "read", sp + "/pdf?only=maybe&page=intro", 400, "only"},
		{"400PageTooLong", "read", sp + "/pdf?page=" + strings.Repeat("x", 65), 400, "page"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := f.As(t, tc.token).Expect(tc.status, "GET", tc.path, nil)
			if tc.status == 200 {
				return
			}
			e, ok := res.Map(t)["error"].(map[string]any)
			if !ok || e["code"].(float64) != float64(tc.status) || e["message"] == "" {
				t.Fatalf("error shape %s", res.Body)
			}
			if !strings.Contains(e["message"].(string), tc.field) {
				t.Errorf("the error does not name %q: %s", tc.field, res.Body)
			}
		})
	}
}

func TestSpacePDFLinksAreSignedAndExpire(t *testing.T) {
	f := setup(t)
	pdfSpace(t, f)
	link := f.As(t, "read").Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space+"/pdf", nil).Map(t)["url"].(string)
	u, _ := url.Parse(link)
	token := u.Query().Get("token")
	sp, _, err := spaceswire.Service(f.Root).Create(f.Ctx("admin"), f.Org.ID, spaces.Create{Title: "Other"})
	if err != nil {
		t.Fatal(err)
	}
	other := sp.ID
	// Bound to its space, and to the space's own PDF: not a change
	// request's (whose links the same service checks).
	f.As(t, "").Expect(http.StatusForbidden, "GET", "/v1/spaces/"+other+"/pdf/download?token="+url.QueryEscape(token), nil)
	if _, err := contentpdfwire.Service(f.Root).Download(f.Ctx("read"), f.space, "cr1", token); !apperr.Is(err, apperr.Forbidden) {
		t.Fatalf("a space's link read as a change request's: %v", err)
	}
	f.As(t, "").Expect(http.StatusForbidden, "GET", u.Path+"?token="+url.QueryEscape(token+"x"), nil)
	f.As(t, "").Expect(http.StatusForbidden, "GET", u.Path, nil)
	f.As(t, "").Expect(http.StatusOK, "GET", u.RequestURI(), nil)
	later := f.Kit.Deps.Clock().Add(contentpdf.TTL + time.Minute)
	f.Kit.Deps.Now = func() time.Time { return later }
	e := f.As(t, "").Expect(http.StatusForbidden, "GET", u.RequestURI(), nil).Map(t)["error"].(map[string]any)
	if e["code"].(float64) != 403 || !strings.Contains(e["message"].(string), "expired") {
		t.Fatalf("expired link: %v", e)
	}
}

// Beyond contentpdf.MaxPages the space's PDF is refused (413, naming page); a part
// of it prints.
func TestSpacePDFBeyondTheLimitIs413(t *testing.T) {
	f := setup(t)
	n := contentpdf.MaxPages + 1
	keys := content.Spread(n)
	pages := make([]content.Page, 0, n)
	for i := range n {
		pages = append(pages, content.Page{ID: fmt.Sprintf("p%d", i), Pos: keys[i], Type: content.TypeDocument, Title: fmt.Sprintf("Page %d", i), Slug: fmt.Sprintf("p%d", i)})
	}
	f.seed(t, pages, map[string]string{"p7": "Seventh page words.\n"}, nil)
	res := f.As(t, "read").Expect(http.StatusRequestEntityTooLarge, "GET", "/v1/spaces/"+f.space+"/pdf", nil)
	e := res.Map(t)["error"].(map[string]any)
	if e["code"].(float64) != 413 || !strings.Contains(e["message"].(string), "page") || !strings.Contains(e["message"].(string), fmt.Sprint(contentpdf.MaxPages)) {
		t.Fatalf("413 body %s", res.Body)
	}
	if text := testkit.PDFText(t, f.downloadPDF(t, "?page=p7")); !strings.Contains(text, "Seventh page words.") {
		t.Fatalf("a part of the space: %s", text)
	}
}
