package changerequests_test

import (
	"bytes"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// upload asks orgID's upload URL as token and, unless data is nil, PUTs
// data to it (local mode's signed URL); it returns the object's key.
func (f *fixture) upload(t *testing.T, token, orgID, name, typ string, size int, data []byte) string {
	t.Helper()
	got := f.as(t, token).Expect(http.StatusCreated, "POST", "/v1/orgs/"+orgID+"/storage/upload",
		map[string]any{"file": map[string]any{"name": name, "type": typ, "size": size}, "kind": "organization_file"}).Map(t)
	if data != nil {
		u, _ := url.Parse(got["url"].(string))
		f.as(t, "").Expect(http.StatusNoContent, "PUT", u.RequestURI(), data, "Content-Type", typ)
	}
	return got["key"].(string)
}

// TestInsertUploadedFiles: insert_files takes an upload by its key, up to
// the upload limit (beyond inline files' 1 MB), and refuses keys of other
// organizations, keys nothing was uploaded under, and a second source.
func TestInsertUploadedFiles(t *testing.T) {
	f := setup(t)
	f.create(t, f.editor, "")
	img := pngBytes(t, 5, 3)
	key := f.upload(t, f.admin, f.org.ID, "diagram.png", "image/png", len(img), img)
	pdf := append([]byte("%PDF-1.7\n"), bytes.Repeat([]byte{' '}, 3<<19)...) // 1.5 MiB
	big := f.upload(t, f.admin, f.org.ID, "guide.pdf", "application/pdf", len(pdf), pdf)
	got := f.author(t, f.editor, 1, map[string]any{"operation": "insert_files", "files": []any{
		map[string]any{"ref": "d", "name": "diagram.png", "storageKey": key},
		map[string]any{"ref": "g", "name": "guide.pdf", "storageKey": big},
	}})
	refs := got["refs"].(map[string]any)
	file := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(1)+"/content/files/"+refs["d"].(string), nil).Map(t)
	dims, _ := file["dimensions"].(map[string]any)
	if file["contentType"] != "image/png" || file["size"] != float64(len(img)) || dims["width"] != 5.0 || dims["height"] != 3.0 {
		t.Fatalf("uploaded image %v", file)
	}
	file = f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(1)+"/content/files/"+refs["g"].(string), nil).Map(t)
	if file["contentType"] != "application/pdf" || file["size"] != float64(len(pdf)) {
		t.Fatalf("uploaded PDF %v", file)
	}
	link, _ := url.Parse(file["downloadURL"].(string))
	if res := f.as(t, "").Expect(http.StatusOK, "GET", link.RequestURI(), nil); !bytes.Equal(res.Body, pdf) {
		t.Fatal("the download link does not give the uploaded bytes")
	}

	others := f.upload(t, f.outsider, f.other.ID, "x.png", "image/png", len(img), img)
	pending := f.upload(t, f.admin, f.org.ID, "later.png", "image/png", len(img), nil)
	for _, tc := range []struct {
		name, field string
		file        map[string]any
	}{
		{"400OtherOrganization", "files[0].storageKey", map[string]any{"name": "x.png", "storageKey": others}},
		{"400NotUploadedYet", "files[0].storageKey", map[string]any{"name": "x.png", "storageKey": pending}},
		{"400NotAnUploadKey", "files[0].storageKey", map[string]any{"name": "x.png", "storageKey": "uploads/" + f.org.ID + "/../x"}},
		{"400ContentKey", "files[0].storageKey", map[string]any{"name": "x.png", "storageKey": "spaces/" + f.space + "/files/x"}},
		{"400TwoSources", "files[0].base64", map[string]any{"name": "x.png", "storageKey": key, "url": "https://example.com/x.png"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := f.as(t, f.editor).Expect(http.StatusBadRequest, "POST", f.cr(1)+"/content",
				map[string]any{"changes": []any{map[string]any{"operation": "insert_files", "files": []any{tc.file}}}})
			if !strings.Contains(string(res.Body), tc.field) {
				t.Errorf("error does not name %q: %s", tc.field, res.Body)
			}
		})
	}
}
