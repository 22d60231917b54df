package reader

import (
	"context"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"strings"
	"sync"
)

// Mermaid diagrams (docs/reader.md, "Diagrams"). A code block whose syntax
// is mermaid is rendered as code (its source, readable without
// JavaScript); on such pages a small script loads mermaid, a copy of the
// npm package served by Galley itself under the site's root, and replaces
// each block with its diagram. The package is pinned here; functions/assets
// fetches it from the npm registry, checks it against MermaidIntegrity and
// extracts the files the reader serves into the assets directory
// (READER_ASSETS).

// The pinned npm package.
const (
	MermaidPackage = "mermaid"
	MermaidVersion = "12.3.0"
	// MermaidIntegrity is the registry's integrity of the package's
	// tarball (its dist.integrity: SHA-512, base64).
	MermaidIntegrity = "sha512-4113TdXeLAsMruJ79OpFL5O8+LTFXhQqZ260rF3tgUmiNAtRm4Uume04I+65PRN6yZ69J4f8rVYWW8zRk65UYw=="
	// MermaidDir is the package's directory under the assets directory,
	// and its part of the URLs (one per version: its files never change).
	MermaidDir = "mermaid-" + MermaidVersion
	// mermaidEntry is the ES module a page imports; it imports its
	// chunks (chunks/mermaid.esm.min/*.mjs) relative to itself, each
	// diagram type's on demand.
	mermaidEntry = "mermaid.esm.min.mjs"
)

// MermaidFile maps a file of the package's tarball to its name under
// MermaidDir: the ES module build (entry and chunks) and the licence; ok
// is false for the files the reader does not serve (the other builds,
// source maps, types).
func MermaidFile(tarPath string) (name string, ok bool) {
	rest, ok := strings.CutPrefix(tarPath, "package/")
	if !ok {
		return "", false
	}
	if rest == "LICENSE" {
		return rest, true
	}
	rest, ok = strings.CutPrefix(rest, "dist/")
	if !ok {
		return "", false
	}
	if rest == mermaidEntry {
		return rest, true
	}
	if c, ok := strings.CutPrefix(rest, "chunks/mermaid.esm.min/"); ok && !strings.Contains(c, "/") && strings.HasSuffix(c, ".mjs") {
		return rest, true
	}
	return "", false
}

// assetsSeg is the part of a site's URL under which its assets are
// served: <site root>~assets/mermaid-<version>/<file>.
const assetsSeg = "/~assets/"

// TypeJavaScript is the content type of the assets.
const TypeJavaScript = "text/javascript; charset=utf-8"

// assets are the reader's browser assets, read from a directory
// (READER_ASSETS) on first use: no I/O when the reader is made.
type assets struct {
	fsys fs.FS // nil: no directory configured
	dir  string
	log  *slog.Logger

	present     sync.Once
	has         bool
	missingOnce sync.Once
}

func newAssets(dir string, log *slog.Logger) *assets {
	a := &assets{dir: dir, log: log}
	if dir != "" {
		a.fsys = os.DirFS(dir)
	}
	return a
}

// mermaid tells whether the mermaid package is there (looked up once per
// process).
func (a *assets) mermaid() bool {
	a.present.Do(func() {
		if a.fsys == nil {
			return
		}
		fi, err := fs.Stat(a.fsys, MermaidDir+"/"+mermaidEntry)
		a.has = err == nil && fi.Mode().IsRegular()
	})
	return a.has
}

// missing logs, once per process, that a page has a diagram the reader
// cannot draw: it shows the diagram's source.
func (a *assets) missing(ctx context.Context) {
	a.missingOnce.Do(func() {
		where := "READER_ASSETS is not set"
		if a.dir != "" {
			where = a.dir + "/" + MermaidDir + "/" + mermaidEntry + " is missing"
		}
		a.log.WarnContext(ctx, "reader: mermaid is not available: diagrams show their source ("+where+
			"; go run ./functions/assets fetches it)", "package", MermaidPackage+"@"+MermaidVersion)
	})
}

// assetName is the file an escaped request path names among the assets
// ("mermaid-12.3.0/mermaid.esm.min.mjs"), when it is a URL of them: its
// last "/~assets/" is followed by a file of the pinned package.
func assetName(p string) (string, bool) {
	i := strings.LastIndex(p, assetsSeg)
	if i < 0 {
		return "", false
	}
	name := p[i+len(assetsSeg):]
	rest, ok := strings.CutPrefix(name, MermaidDir+"/")
	if !ok || !fs.ValidPath(name) || strings.Trim(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/") != "" {
		return "", false
	}
	if _, ok := MermaidFile("package/dist/" + rest); !ok {
		return "", false
	}
	return name, true
}

// asset answers a request of an asset: the file, cached for a year (its
// URL names the package's version), or NotFound.
func (s *Service) asset(name, ifNoneMatch string) (Answer, error) {
	etag := `"` + path.Dir(name) + "/" + strings.TrimPrefix(MermaidIntegrity, "sha512-")[:16] + `"`
	a := Answer{ContentType: TypeJavaScript, ETag: etag, CSP: DataPolicy, Immutable: true}
	if s.assets.fsys == nil {
		err := notFound(assetsSeg + name)
		return s.errorPage(nil, err), err
	}
	if matches(ifNoneMatch, etag) {
		a.NotModified = true
		return a, nil
	}
	b, err := fs.ReadFile(s.assets.fsys, name)
	if err != nil {
		err := notFound(assetsSeg + name)
		return s.errorPage(nil, err), err
	}
	a.Body = b
	return a, nil
}

// mermaidScript loads mermaid (the module named by its element's
// data-src) and replaces each mermaid code block with its diagram, one
// after the other (mermaid renders one at a time), in the page's theme
// (data-theme: light, dark, or system; the dark theme's edge labels on a
// darker grey than mermaid's, for WCAG AA's 4.5:1); a block mermaid cannot parse
// keeps its source. It must hold no "{{": it is part of the page's
// template.
const mermaidScript = `(function(){var s=document.currentScript,t=document.documentElement.getAttribute("data-theme")||s.getAttribute("data-theme"),figs=document.querySelectorAll('figure[data-lang="mermaid"]');
import(s.getAttribute("data-src")).then(function(m){var mm=m.default,dark=t==="dark"||(t!=="light"&&window.matchMedia&&matchMedia("(prefers-color-scheme: dark)").matches);
mm.initialize(dark?{startOnLoad:false,securityLevel:"strict",theme:"dark",themeVariables:{edgeLabelBackground:"#2b2b2b"}}:{startOnLoad:false,securityLevel:"strict",theme:"default"});
function next(i){if(i>=figs.length)return;var f=figs[i],c=f.querySelectorAll(".cl"),p=f.querySelector("pre"),src=c.length?Array.prototype.map.call(c,function(l){return l.textContent}).join(""):(p?p.textContent:""),id="diagram-"+i;
mm.render(id,src).then(function(r){var d=document.createElement("div");d.className="diagram";d.innerHTML=r.svg;var cap=f.querySelector("figcaption");f.textContent="";if(cap)f.appendChild(cap);f.appendChild(d);f.className="diagram-block";f.removeAttribute("data-lang");next(i+1)},
function(){var e=document.getElementById("d"+id);if(e)e.remove();next(i+1)})}
next(0)})})()`
