package changerequests_test

import (
	"bytes"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/testkit"
)

func (f *fixture) pdfSpace(t *testing.T) (n any, overview string) {
	t.Helper()
	n = f.create(t, f.editor, "print me")["number"]
	refs := f.author(t, f.editor, n,
		map[string]any{"operation": "insert_files", "files": []any{
			map[string]any{"ref": "pic", "name": "pic.png", "contentType": "image/png", "base64": base64.StdEncoding.EncodeToString(pngBytes(t, 40, 20))},
		}},
		insert("overview", "", "---\ndescription: What this is about\n---\n# Overview\n\nAlpha paragraph with **bold** and *italic* and `code` words.\n\n"+
			"## Details of Ünïcode\n\n- first bullet\n- second bullet\n  - nested bullet\n\n3. three\n4. four\n\n"+
			"```go\nfunc main() { println(\"hi\") }\n```\n\n> A quoted remark.\n\n![The diagram](/files/pic)\n\nOmega closing words.\n"),
		insert("child", "overview", "# Child page\n\nChild body text.\n"),
		insert("other", "", "# Other page\n\nOther body text.\n"),
	)["refs"].(map[string]any)
	return n, refs["overview"].(string)
}

func (f *fixture) downloadPDF(t *testing.T, path string) []byte {
	t.Helper()
	link := f.as(t, f.reader).Expect(http.StatusOK, "GET", path, nil).Map(t)["url"].(string)
	if !strings.HasPrefix(link, "https://api.test/v1/spaces/"+f.space+"/change-requests/") {
		t.Fatalf("url %s", link)
	}
	u, _ := url.Parse(link)
	res := f.as(t, "").Expect(http.StatusOK, "GET", u.RequestURI(), nil)
	if ct := res.Header.Get("Content-Type"); ct != "application/pdf" || !bytes.HasPrefix(res.Body, []byte("%PDF-")) {
		t.Fatalf("Content-Type %q, body %.20q", ct, res.Body)
	}
	if res.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("no nosniff")
	}
	return res.Body
}

func TestPDFOfARequestHasItsPagesInOrder(t *testing.T) {
	f := setup(t)
	n, overview := f.pdfSpace(t)
	all := f.downloadPDF(t, f.cr(n)+"/pdf")
	text := testkit.PDFText(t, all)
	if missing := testkit.InOrder(text, "Overview", "What this is about", "Alpha paragraph with bold and italic and code words.",
		"Details of Ünïcode", "• first bullet", "• second bullet", "• nested bullet", "3. three", "4. four",
		`func main() { println("hi") }`, "A quoted remark.", "The diagram", "Omega closing words.",
		"Child page", "Child body text.", "Other page", "Other body text."); missing != "" {
		t.Errorf("%q is missing or out of order in the PDF's text:\n%s", missing, text)
	}
	if !bytes.Contains(all, []byte("/Subtype /Image")) {
		t.Error("the PDF has no image")
	}

	sub := testkit.PDFText(t, f.downloadPDF(t, f.cr(n)+"/pdf?page="+overview))
	if missing := testkit.InOrder(sub, "Overview", "Omega closing words.", "Child page", "Child body text."); missing != "" || strings.Contains(sub, "Other page") {
		t.Errorf("the page with its descendants: %q missing, text:\n%s", missing, sub)
	}
	one := testkit.PDFText(t, f.downloadPDF(t, f.cr(n)+"/pdf?only=true&page="+overview))
	if missing := testkit.InOrder(one, "Overview", "Omega closing words."); missing != "" || strings.Contains(one, "Child page") || strings.Contains(one, "Other page") {
		t.Errorf("the page alone: %q missing, text:\n%s", missing, one)
	}
}

func TestPDFLinksAreSignedAndExpire(t *testing.T) {
	f := setup(t)
	n, overview := f.pdfSpace(t)
	for _, tc := range []struct {
		name   string
		token  string
		path   string
		status int
	}{
		{"200Reader", f.reader, f.cr(n) + "/pdf", 200},
		{"401NoToken", "", f.cr(n) + "/pdf", 401},
		{"404Outsider", f.outsider, f.cr(n) + "/pdf", 404},
		{"404Guest", f.guest, f.cr(n) + "/pdf", 404},
		{"404UnknownRequest", f.reader, f.cr(77) + "/pdf", 404},
		{"404UnknownPage", f.reader, f.cr(n) + "/pdf?page=nope", 404},
		{"400OnlyWithoutPage", f.reader, f.cr(n) + "/pdf?only=true", 400},
		{"400OnlyNotABoolean", f.reader, f.cr(n) + "/pdf?only=maybe&page=" + overview, 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := f.as(t, tc.token).Expect(tc.status, "GET", tc.path, nil)
			if tc.status == 400 && !strings.Contains(string(res.Body), "only") && !strings.Contains(string(res.Body), "page") {
				t.Errorf("error does not name the field: %s", res.Body)
			}
		})
	}
	link := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(n)+"/pdf", nil).Map(t)["url"].(string)
	u, _ := url.Parse(link)
	token := u.Query().Get("token")
	other := f.create(t, f.editor, "other")["number"]
	otherID := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(other), nil).Map(t)["id"].(string)
	f.as(t, "").Expect(http.StatusForbidden, "GET", f.crs()+"/"+otherID+"/pdf/download?token="+url.QueryEscape(token), nil)
	f.as(t, "").Expect(http.StatusForbidden, "GET", u.Path+"?token="+url.QueryEscape(token+"x"), nil)
	f.as(t, "").Expect(http.StatusForbidden, "GET", u.Path, nil)
	f.as(t, "").Expect(http.StatusOK, "GET", u.RequestURI(), nil)
	later := f.kit.Deps.Clock().Add(2 * time.Hour)
	f.kit.Deps.Now = func() time.Time { return later }
	f.as(t, "").Expect(http.StatusForbidden, "GET", u.RequestURI(), nil)
}

// GitBook's blocks print with their text: tabs, tables, expandables, math
// and embeds.
func TestPDFPrintsGitBookBlocks(t *testing.T) {
	f := setup(t)
	n := f.create(t, f.editor, "blocks")["number"]
	f.author(t, f.editor, n, insert("blocks", "", "# Blocks\n\n"+
		"{% tabs %}\n{% tab title=\"First\" %}\nInside the first tab.\n{% endtab %}\n{% endtabs %}\n\n"+
		"| Name | Value |\n| ---- | ----- |\n| cellone | celltwo |\n\n"+
		"<details>\n\n<summary>More detail</summary>\n\nHidden body words.\n\n</details>\n\n"+
		"$$\nE = mc^2\n$$\n\n"+
		"{% embed url=\"https://example.com/video\" %}\n\nLast words.\n"))
	text := testkit.PDFText(t, f.downloadPDF(t, f.cr(n)+"/pdf"))
	if missing := testkit.InOrder(text, "Blocks", "Inside the first tab.", "cellone", "celltwo", "More detail", "Hidden body words.",
		"E = mc^2", "https://example.com/video", "Last words."); missing != "" {
		t.Errorf("%q is missing or out of order in the PDF's text:\n%s", missing, text)
	}
}
