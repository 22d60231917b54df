package content_test

import (
	"bytes"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/testkit"
)

// uploadBody is generateStorageUploadURL's body.
func uploadBody(name, typ string, size int, kind string) map[string]any {
	return map[string]any{"file": map[string]any{"name": name, "type": typ, "size": size}, "kind": kind}
}

func TestUploadURLIsForMembersWhoMayCreateContent(t *testing.T) {
	f := setup(t)
	path := "/v1/orgs/" + f.Org.ID + "/storage/upload"
	png := uploadBody("logo.png", "image/png", 100, "organization_file")
	f.Check(t, []testkit.Case{
		{"401NoToken", "", "POST", path, png, 401, ""},
		{"404Outsider", f.Tokens[testkit.Outsider], "POST", path, png, 404, ""},
		{"404UnknownOrganization", f.Tokens["admin"], "POST", "/v1/orgs/nope/storage/upload", png, 404, ""},
		{"403Editor", f.Tokens["edit"], "POST", path, png, 403, ""},
		{"403Guest", f.Tokens["guest"], "POST", path, png, 403, ""},
		{"201Creator", f.Tokens["create"], "POST", path, png, 201, ""},
		{"201PDF", f.Tokens["create"], "POST", path, uploadBody("guide.pdf", "application/pdf", content.MaxUploadBytes, "organization_file"), 201, ""},
		{"201Font", f.Tokens["create"], "POST", path, uploadBody("inter.woff2", "font/woff2", 100, "customization_font"), 201, ""},
		{"201Archive", f.Tokens["create"], "POST", path, uploadBody("docs.zip", "application/zip", 100, "import_file"), 201, ""},
		{"400TooLarge", f.Tokens["create"], "POST", path, uploadBody("big.pdf", "application/pdf", content.MaxUploadBytes+1, "organization_file"), 400, "file.size"},
		{"400Empty", f.Tokens["create"], "POST", path, uploadBody("none.png", "image/png", 0, "organization_file"), 400, "file.size"},
		{"400HTML", f.Tokens["create"], "POST", path, uploadBody("page.html", "text/html", 10, "organization_file"), 400, "file.type"},
		{"400ArchiveAsFile", f.Tokens["create"], "POST", path, uploadBody("docs.zip", "application/zip", 10, "organization_file"), 400, "file.type"},
		{"400NotAType", f.Tokens["create"], "POST", path, uploadBody("x", "not a type", 10, "organization_file"), 400, "file.type"},
		{"400UnknownKind", f.Tokens["create"], "POST", path, uploadBody("x.png", "image/png", 10, "avatar"), 400, "kind"},
		{"400NoFile", f.Tokens["create"], "POST", path, map[string]any{"kind": "organization_file"}, 400, "file"},
		{"400NoName", f.Tokens["create"], "POST", path, map[string]any{"file": map[string]any{"type": "image/png", "size": 1}, "kind": "organization_file"}, 400, "name"},
	})
}

// TestLocalUploadURL follows a local upload: the URL takes one PUT of the
// bytes with the type and size granted, the read link serves them, and
// everything else is refused.
func TestLocalUploadURL(t *testing.T) {
	f := setup(t)
	data := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{7}, 92)...)
	got := f.As(t, "create").Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.Org.ID+"/storage/upload",
		uploadBody("logo.png", "image/png", len(data), "organization_file")).Map(t)
	if got["object"] != "storage-signed-url" || !strings.HasPrefix(got["key"].(string), "uploads/"+f.Org.ID+"/") {
		t.Fatalf("answer %v", got)
	}
	put, _ := url.Parse(got["url"].(string))
	read, _ := url.Parse(got["downloadURL"].(string))
	if put.Host != "api.test" || read.Path != put.Path {
		t.Fatalf("upload URL %s, read link %s", put, read)
	}
	anon := f.As(t, "")
	// Nothing to read before the PUT.
	anon.Expect(http.StatusNotFound, "GET", read.RequestURI(), nil)
	for _, c := range []struct {
		name, uri, contentType string
		body                   []byte
		status                 int
		field                  string
	}{
		{"400OtherType", put.RequestURI(), "image/gif", data, 400, "Content-Type"},
		{"400Shorter", put.RequestURI(), "image/png", data[:50], 400, "body"},
		{"400Longer", put.RequestURI(), "image/png", append(data, 0), 400, "body"},
		{"403ReadLinkIsNoUploadURL", read.RequestURI(), "image/png", data, 403, ""},
		{"403OtherFile", strings.Replace(put.RequestURI(), "/files/", "/files/0", 1), "image/png", data, 403, ""},
		{"403Forged", put.Path + "?token=x" + put.Query().Get("token"), "image/png", data, 403, ""},
		{"204", put.RequestURI(), "image/png", data, 204, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := anon.Expect(c.status, "PUT", c.uri, c.body, "Content-Type", c.contentType)
			if !strings.Contains(string(res.Body), c.field) {
				t.Errorf("answer does not name %q: %s", c.field, res.Body)
			}
		})
	}
	res := anon.Expect(http.StatusOK, "GET", read.RequestURI(), nil)
	if !bytes.Equal(res.Body, data) || res.Header.Get("Content-Type") != "image/png" ||
		res.Header.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(res.Header.Get("Content-Security-Policy"), "sandbox") ||
		!strings.HasPrefix(res.Header.Get("Content-Disposition"), "inline") {
		t.Fatalf("read: %q %v", res.Body, res.Header)
	}
	// An upload URL is a read link of no one; a read link does not expire.
	anon.Expect(http.StatusForbidden, "GET", put.RequestURI(), nil)
	f.Kit.Deps.Now = func() time.Time { return time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC) }
	anon.Expect(http.StatusOK, "GET", read.RequestURI(), nil)
	// The upload URL does.
	anon.Expect(http.StatusForbidden, "PUT", put.RequestURI(), data, "Content-Type", "image/png")
}
