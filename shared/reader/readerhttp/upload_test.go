package readerhttp_test

import (
	"bytes"
	"html"
	"image"
	"image/png"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

// TestUploadedImageOnAReaderPage follows an upload end to end: an upload
// URL, the bytes PUT to it (Galley's signed URL in local mode, a
// pre-signed S3 URL against moto), insert_files naming the upload in a
// change request, the merge, and a published page showing the image; the
// upload's read link is also the site's logo.
func TestUploadedImageOnAReaderPage(t *testing.T) {
	for _, tc := range []struct {
		name string
		kit  func(t *testing.T) *testkit.Kit
		host string // where the upload URL points
	}{
		{"Local", func(t *testing.T) *testkit.Kit { return testkit.New(t) }, "api.test"},
		{"S3", func(t *testing.T) *testkit.Kit {
			k := testkit.New(t)
			k.Deps.Blobs = testkit.S3BlobStore(t)
			return k
		}, "127.0.0.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixtureOn(t, tc.kit(t))
			var b bytes.Buffer
			if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 6, 4))); err != nil {
				t.Fatal(err)
			}
			img := b.Bytes()
			up := f.As(t, "create").Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.Org.ID+"/storage/upload",
				map[string]any{"file": map[string]any{"name": "diagram.png", "type": "image/png", "size": len(img)}, "kind": "organization_file"}).Map(t)
			put, err := url.Parse(up["url"].(string))
			if err != nil || put.Hostname() != tc.host {
				t.Fatalf("upload URL %v", up["url"])
			}
			if res := f.fetch(t, "PUT", put, img, "Content-Type", "image/png"); res.StatusCode/100 != 2 {
				t.Fatalf("PUT to the upload URL: %s", res.Status)
			}

			f.space, f.pages = f.newSpace(t, "Pictures",
				map[string]any{"operation": "insert_files", "files": []any{
					map[string]any{"ref": "diagram", "name": "diagram.png", "storageKey": up["key"]}}},
				page("intro", "", "# Pictures\n\n![The diagram](./diagram)\n"))
			f.publish(t, "Pictures", map[string]any{"basename": "pictures"})
			logo := up["downloadURL"].(string)
			f.customize(t, map[string]map[string]any{"header": {"logo": map[string]any{"light": logo, "dark": logo}}})

			doc, _ := f.body(t, http.StatusOK, f.base)
			m := regexp.MustCompile(`<img[^>]* src="([^"]*/files/` + f.pages["diagram"] + `/download\?token=[^"]+)"[^>]*alt="The diagram"`).FindStringSubmatch(doc)
			if m == nil {
				t.Fatalf("the page shows no image of file %s:\n%.3000s", f.pages["diagram"], doc)
			}
			for what, src := range map[string]string{"the page's image": m[1], "the logo": logo} {
				link, err := url.Parse(html.UnescapeString(src))
				if err != nil {
					t.Fatal(err)
				}
				res := f.fetch(t, "GET", link, nil)
				got, _ := io.ReadAll(res.Body)
				if res.StatusCode != http.StatusOK || !bytes.Equal(got, img) || res.Header.Get("Content-Type") != "image/png" {
					t.Errorf("%s (%s): %s %v, not the uploaded image", what, src, res.Status, res.Header)
				}
			}
			if m := regexp.MustCompile(`<img class="logo" src="([^"]+)"`).FindStringSubmatch(doc); m == nil || html.UnescapeString(m[1]) != logo {
				t.Errorf("the header shows no logo %s: %v", logo, m)
			}
		})
	}
}

// fetch sends a request to u: to the fixture's API when u is one of its
// URLs (or a path), to u's server otherwise (S3).
func (f *fixture) fetch(t *testing.T, method string, u *url.URL, body []byte, headers ...string) *http.Response {
	t.Helper()
	if u.Host == "" || u.Host == "api.test" || u.Host == "app.test" {
		return f.send(method, u.RequestURI(), bytes.NewReader(body), headers...)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, u.String(), bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}
