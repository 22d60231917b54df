// Command assets fetches the reader's browser assets: the mermaid npm
// package pinned in package reader (name, version and the registry's
// integrity, SHA-512), from the npm registry, checked against that
// integrity, and extracts the files the reader serves (its ES module build
// and licence) into <dir>/mermaid-<version>/ (docs/reader.md, "Diagrams").
// An extraction already there with the pinned integrity is kept: no
// network. `make run` and the reader function's build run it.
//
//	go run ./functions/assets [-dir DIR]
//
// DIR defaults to $READER_ASSETS, else $GALLEY_CACHE/assets, else
// ~/.cache/galley/assets. The registry is npm's own setting: the
// NPM_CONFIG_REGISTRY (or npm_config_registry) variable, else the
// registry line of ~/.npmrc, else `npm config get registry`.
package main

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/galleydocs/galley/shared/reader"
)

// maxTarball bounds the download (the pinned tarball is about 26 MB).
const maxTarball = 128 << 20

// integrityFile, in the extracted directory, holds the integrity of the
// tarball it was extracted from.
const integrityFile = ".integrity"

func main() {
	dir := flag.String("dir", defaultDir(), "the assets directory (READER_ASSETS)")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	fetched, err := ensure(ctx, *dir, registry)
	if err != nil {
		fmt.Fprintln(os.Stderr, "assets:", err)
		os.Exit(1)
	}
	if fetched {
		fmt.Fprintf(os.Stderr, "assets: %s@%s extracted into %s\n", reader.MermaidPackage, reader.MermaidVersion, filepath.Join(*dir, reader.MermaidDir))
	}
}

func defaultDir() string {
	if d := os.Getenv("READER_ASSETS"); d != "" {
		return d
	}
	if c := os.Getenv("GALLEY_CACHE"); c != "" {
		return filepath.Join(c, "assets")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(".cache", "galley", "assets")
	}
	return filepath.Join(home, ".cache", "galley", "assets")
}

// ensure makes dir hold the pinned package, fetching it (from the registry
// registry names) unless it is already there; fetched tells whether it did.
func ensure(ctx context.Context, dir string, registry func(context.Context) (string, error)) (fetched bool, err error) {
	dest := filepath.Join(dir, reader.MermaidDir)
	if b, err := os.ReadFile(filepath.Join(dest, integrityFile)); err == nil && strings.TrimSpace(string(b)) == reader.MermaidIntegrity {
		return false, nil
	}
	base, err := registry(ctx)
	if err != nil {
		return false, err
	}
	url := strings.TrimRight(base, "/") + "/" + reader.MermaidPackage + "/-/" + reader.MermaidPackage + "-" + reader.MermaidVersion + ".tgz"
	if err := fetch(ctx, http.DefaultClient, url, reader.MermaidIntegrity, dir, reader.MermaidDir); err != nil {
		return false, err
	}
	return true, nil
}

// fetch downloads the tarball at url, checks it against integrity (npm's
// "sha512-<base64>"), and extracts the files reader.MermaidFile keeps into
// dir/name, replacing what was there; other mermaid-* versions in dir are
// removed. Nothing is left in dir/name unless every step succeeded.
func fetch(ctx context.Context, client *http.Client, url, integrity, dir, name string) error {
	want, ok := strings.CutPrefix(integrity, "sha512-")
	if !ok {
		return fmt.Errorf("integrity %q: want sha512-<base64>", integrity)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tgz, err := os.CreateTemp(dir, ".download-*.tgz")
	if err != nil {
		return err
	}
	defer os.Remove(tgz.Name())
	defer tgz.Close()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	res, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("fetch %s: %w", url, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("fetch %s: %s", url, res.Status)
	}
	h := sha512.New()
	n, err := io.Copy(io.MultiWriter(tgz, h), io.LimitReader(res.Body, maxTarball+1))
	if err != nil {
		return fmt.Errorf("fetch %s: %w", url, err)
	}
	if n > maxTarball {
		return fmt.Errorf("fetch %s: more than %d bytes", url, maxTarball)
	}
	if got := base64.StdEncoding.EncodeToString(h.Sum(nil)); got != want {
		return fmt.Errorf("fetch %s: integrity sha512-%s, want %s: not the pinned package", url, got, integrity)
	}
	if _, err := tgz.Seek(0, io.SeekStart); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(dir, ".extract-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := extract(tgz, tmp); err != nil {
		return fmt.Errorf("extract %s: %w", url, err)
	}
	if err := os.WriteFile(filepath.Join(tmp, integrityFile), []byte(integrity+"\n"), 0o644); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	// Replace the package's directory and drop other versions.
	old, _ := filepath.Glob(filepath.Join(dir, "mermaid-*"))
	for _, o := range old {
		if err := os.RemoveAll(o); err != nil {
			return err
		}
	}
	return os.Rename(tmp, filepath.Join(dir, name))
}

// extract writes the tarball's files that the reader serves under dest;
// it fails when the tarball has no entry module.
func extract(r io.Reader, dest string) error {
	zr, err := gzip.NewReader(bufio.NewReader(r))
	if err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	entry := false
	for {
		hd, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		name, ok := reader.MermaidFile(hd.Name)
		if !ok || hd.Typeflag != tar.TypeReg {
			continue
		}
		entry = entry || !strings.Contains(name, "/") && strings.HasSuffix(name, ".mjs")
		p := filepath.Join(dest, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		if _, err := io.Copy(f, tr); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	if !entry {
		return errors.New("no entry module (package/dist/mermaid.esm.min.mjs)")
	}
	return nil
}

// registry is the npm registry's URL as npm is configured: the
// NPM_CONFIG_REGISTRY variable (either case), else the registry line of
// ~/.npmrc, else what `npm config get registry` says.
func registry(ctx context.Context) (string, error) {
	for _, v := range []string{"NPM_CONFIG_REGISTRY", "npm_config_registry"} {
		if r := os.Getenv(v); r != "" {
			return r, nil
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		if b, err := os.ReadFile(filepath.Join(home, ".npmrc")); err == nil {
			if r := npmrcRegistry(string(b)); r != "" {
				return r, nil
			}
		}
	}
	if npm, err := exec.LookPath("npm"); err == nil {
		out, err := exec.CommandContext(ctx, npm, "config", "get", "registry").Output()
		if r := strings.TrimSpace(string(out)); err == nil && strings.HasPrefix(r, "http") {
			return r, nil
		}
	}
	return "", errors.New("no npm registry configured: set NPM_CONFIG_REGISTRY to the npm registry's URL (or install npm)")
}

// npmrcRegistry is the value of an .npmrc's registry line ("" without one).
func npmrcRegistry(npmrc string) string {
	for _, line := range strings.Split(npmrc, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if ok && strings.TrimSpace(k) == "registry" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
