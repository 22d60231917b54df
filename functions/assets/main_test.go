package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/reader"
)

// tarball is a package tarball of files (path in the tarball: content)
// and its npm integrity.
func tarball(t *testing.T, files map[string]string) ([]byte, string) {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	tw := tar.NewWriter(zw)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if err := tw.WriteHeader(&tar.Header{Name: n, Mode: 0o644, Size: int64(len(files[n])), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(files[n])); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	sum := sha512.Sum512(b.Bytes())
	return b.Bytes(), "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
}

// files lists the files under dir (slash-separated, relative).
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

var pkg = map[string]string{
	"package/package.json":                                 `{"name":"mermaid"}`,
	"package/LICENSE":                                      "MIT",
	"package/dist/mermaid.min.js":                          "the UMD build",
	"package/dist/mermaid.esm.min.mjs":                     "export default {};",
	"package/dist/mermaid.esm.min.mjs.map":                 "{}",
	"package/dist/chunks/mermaid.esm.min/flow-A.mjs":       "export const a = 1;",
	"package/dist/chunks/mermaid.esm.min/flow-A.mjs.map":   "{}",
	"package/dist/chunks/mermaid.core/chunk-B.mjs":         "core build",
	"package/dist/chunks/mermaid.esm.min/nested/x.mjs":     "not a chunk",
	"package/dist/chunks/mermaid.esm.min/../../../evil.js": "escape",
}

func serve(t *testing.T, body []byte) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body) }))
	t.Cleanup(srv.Close)
	return srv
}

func TestFetchExtractsTheServedFiles(t *testing.T) {
	tgz, integrity := tarball(t, pkg)
	srv := serve(t, tgz)
	dir := t.TempDir()
	// An older version is replaced.
	if err := os.MkdirAll(filepath.Join(dir, "mermaid-1.0.0"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := fetch(context.Background(), srv.Client(), srv.URL+"/m.tgz", integrity, dir, "mermaid-9.9.9"); err != nil {
		t.Fatal(err)
	}
	want := []string{"mermaid-9.9.9/.integrity", "mermaid-9.9.9/LICENSE", "mermaid-9.9.9/chunks/mermaid.esm.min/flow-A.mjs", "mermaid-9.9.9/mermaid.esm.min.mjs"}
	if got := files(t, dir); !slices.Equal(got, want) {
		t.Errorf("extracted %v, want %v", got, want)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "mermaid-9.9.9", "mermaid.esm.min.mjs")); string(b) != "export default {};" {
		t.Errorf("entry module %q", b)
	}
}

func TestFetchRefusesAnotherTarball(t *testing.T) {
	tgz, _ := tarball(t, pkg)
	_, other := tarball(t, map[string]string{"package/dist/mermaid.esm.min.mjs": "something else"})
	srv := serve(t, tgz)
	dir := t.TempDir()
	err := fetch(context.Background(), srv.Client(), srv.URL+"/m.tgz", other, dir, "mermaid-9.9.9")
	if err == nil || !strings.Contains(err.Error(), "not the pinned package") {
		t.Fatalf("a tarball of another integrity: %v", err)
	}
	if got := files(t, dir); len(got) != 0 {
		t.Errorf("left %v behind", got)
	}
	// A tarball without the entry module is refused too.
	noEntry, integrity := tarball(t, map[string]string{"package/LICENSE": "MIT"})
	if err := fetch(context.Background(), serve(t, noEntry).Client(), serve(t, noEntry).URL, integrity, dir, "mermaid-9.9.9"); err == nil {
		t.Error("a tarball without the entry module was accepted")
	}
	if got := files(t, dir); len(got) != 0 {
		t.Errorf("left %v behind", got)
	}
}

func TestEnsureKeepsAnExtraction(t *testing.T) {
	dir := t.TempDir()
	done := filepath.Join(dir, reader.MermaidDir)
	if err := os.MkdirAll(done, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(done, integrityFile), []byte(reader.MermaidIntegrity+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	asked := false
	fetched, err := ensure(context.Background(), dir, func(context.Context) (string, error) { asked = true; return "", errors.New("offline") })
	if err != nil || fetched || asked {
		t.Errorf("an extraction of the pinned integrity: fetched %v, registry asked %v, %v", fetched, asked, err)
	}
	// Another integrity (an older pin) is fetched again.
	if err := os.WriteFile(filepath.Join(done, integrityFile), []byte("sha512-old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ensure(context.Background(), dir, func(context.Context) (string, error) { asked = true; return "", errors.New("offline") }); err == nil || !asked {
		t.Errorf("a stale extraction was kept (%v)", err)
	}
}

func TestNpmrcRegistry(t *testing.T) {
	for in, want := range map[string]string{
		"fund=false\nregistry = http://mirror.test/npm/\n": "http://mirror.test/npm/",
		"@scope:registry=http://scoped.test/\n":            "",
		"audit=false\n":                                    "",
	} {
		if got := npmrcRegistry(in); got != want {
			t.Errorf("npmrcRegistry(%q) = %q, want %q", in, got, want)
		}
	}
}
