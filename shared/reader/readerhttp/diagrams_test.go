package readerhttp_test

import (
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/reader"
	"github.com/galleydocs/galley/shared/testenv"
	"github.com/galleydocs/galley/shared/testkit"
)

// Mermaid diagrams (docs/reader.md, "Diagrams"): a page with a mermaid
// code block keeps its source and, when the assets are there, loads
// mermaid from the site's own ~assets/ path (its CSP allowing that
// directory and the drawing script); pages without one load nothing; the
// assets are served as immutable JavaScript; without them the source
// stays and the server says so once.

const diagramMarkdown = "# Flow\n\nHow it goes.\n\n```mermaid\ngraph TD\n  A[Start] --> B{Ready?}\n  B -->|Yes| C[Ship]\n```\n"

// diagramSite publishes a space with a diagram page (Flow) and a plain
// one, its reader's assets in dir ("": none configured); the log is the
// server's.
func diagramSite(t testing.TB, dir string) (*fixture, *testenv.SyncBuffer) {
	k := testkit.New(t)
	k.Deps.ReaderAssets = dir
	log := &testenv.SyncBuffer{}
	k.Deps.Logger = slog.New(slog.NewTextHandler(log, nil))
	// The public URL is the one each request names (as in local mode
	// without APP_URL): the page's script source names its origin, which
	// in the browser tests is the test server's.
	a := testkit.NewAPI(t, k, []string{"spaces", "sites", "content", "changerequests", "reader", "search"}, testkit.URLs("", ""))
	f := &fixture{API: a, h: a.API.Handler()}
	f.space, f.pages = f.newSpace(t, "Guide",
		page("plain", "", "# Plain\n\nNo diagram.\n\n```go\nfunc main() {}\n```\n"),
		page("flow", "", diagramMarkdown),
	)
	f.publish(t, "Acme Docs", map[string]any{"basename": "docs"})
	return f, log
}

// fakeMermaid is an assets directory holding a stand-in of the pinned
// package's entry module and one chunk.
func fakeMermaid(t testing.TB) string {
	dir := t.TempDir()
	chunks := filepath.Join(dir, reader.MermaidDir, "chunks", "mermaid.esm.min")
	if err := os.MkdirAll(chunks, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		filepath.Join(dir, reader.MermaidDir, "mermaid.esm.min.mjs"): "export default {entry: true};\n",
		filepath.Join(chunks, "flowDiagram-X.mjs"):                   "export const flow = 1;\n",
		filepath.Join(dir, reader.MermaidDir, "secret.txt"):          "not served\n",
	} {
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var reMermaidScript = regexp.MustCompile(`<script data-src="([^"]+)" data-theme="([a-z]+)">`)

func TestDiagramPages(t *testing.T) {
	f, log := diagramSite(t, fakeMermaid(t))
	entry := f.base + "/~assets/" + reader.MermaidDir + "/mermaid.esm.min.mjs"

	body, res := f.body(t, http.StatusOK, f.base+"/flow")
	m := reMermaidScript.FindStringSubmatch(body)
	// The default customization lets visitors choose the theme: the
	// script reads their choice from <html data-theme>.
	if m == nil || m[1] != entry || m[2] != "toggle" {
		t.Fatalf("the diagram page's mermaid script: %q, want data-src %s", m, entry)
	}
	// The source stays, as a code block the script finds.
	for _, want := range []string{`<figure class="code" data-lang="mermaid">`, "A[Start] --&gt; B{Ready?}"} {
		if !strings.Contains(body, want) {
			t.Errorf("the diagram page lacks %q", want)
		}
	}
	csp := policy(t, res.Header.Get("Content-Security-Policy"))
	scripts := strings.Join(csp["script-src"], " ")
	if !strings.Contains(scripts, "https://app.test"+f.base+"/~assets/"+reader.MermaidDir+"/") {
		t.Errorf("script-src %q does not allow the assets' directory", scripts)
	}
	for _, s := range regexp.MustCompile(`(?s)<script[^>]*>(.*?)</script>`).FindAllStringSubmatch(body, -1) {
		if !strings.Contains(scripts, sha(s[1])) {
			t.Errorf("script-src %q does not allow the script %.60q", scripts, s[1])
		}
	}
	if got := strings.Join(csp["style-src"], " "); got != "'unsafe-inline'" {
		t.Errorf("a diagram page's style-src %q, want 'unsafe-inline' (mermaid's own styles)", got)
	}

	// A page without a diagram loads nothing more, and keeps its policy.
	plain, res := f.body(t, http.StatusOK, f.base+"/")
	if strings.Contains(plain, "data-src=") || strings.Contains(plain, "~assets") {
		t.Error("a page without a diagram loads mermaid")
	}
	pagePolicy(t, "plain page", plain, res.Header)

	// The .md keeps the source as written.
	md, _ := f.body(t, http.StatusOK, f.base+"/flow.md")
	if !strings.Contains(md, "```mermaid\ngraph TD\n  A[Start] --> B{Ready?}\n  B -->|Yes| C[Ship]\n```") {
		t.Errorf("the .md lost the diagram's source:\n%s", md)
	}
	if strings.Contains(log.String(), "mermaid is not available") {
		t.Errorf("logged mermaid as missing while it is there:\n%s", log)
	}
}

func TestDiagramAssets(t *testing.T) {
	f, _ := diagramSite(t, fakeMermaid(t))
	root := f.base + "/~assets/" + reader.MermaidDir + "/"
	for _, p := range []string{root + "mermaid.esm.min.mjs", "/sites/" + f.Org.ID + "/~assets/" + reader.MermaidDir + "/mermaid.esm.min.mjs"} {
		res := f.get(t, p)
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK || string(b) != "export default {entry: true};\n" {
			t.Fatalf("GET %s: %d %q", p, res.StatusCode, b)
		}
		if ct := res.Header.Get("Content-Type"); ct != reader.TypeJavaScript {
			t.Errorf("GET %s: Content-Type %q", p, ct)
		}
		if cc := res.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
			t.Errorf("GET %s: Cache-Control %q", p, cc)
		}
		commonHeaders(t, p, res.Header)
		if again := f.get(t, p, "If-None-Match", res.Header.Get("ETag")); again.StatusCode != http.StatusNotModified {
			t.Errorf("GET %s with its ETag: %d, want 304", p, again.StatusCode)
		}
	}
	chunk := f.get(t, root+"chunks/mermaid.esm.min/flowDiagram-X.mjs")
	if b, _ := io.ReadAll(chunk.Body); chunk.StatusCode != http.StatusOK || string(b) != "export const flow = 1;\n" {
		t.Errorf("a chunk: %d %q", chunk.StatusCode, b)
	}
	// Only the package's served files, by their own names.
	for _, p := range []string{root + "secret.txt", root + "chunks/mermaid.esm.min/missing.mjs", root + "mermaid.js",
		root + "chunks/mermaid.esm.min/%2e%2e/x.mjs",
		f.base + "/~assets/mermaid-0.0.1/mermaid.esm.min.mjs"} {
		if res := f.get(t, p); res.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", p, res.StatusCode)
		}
	}
	// A dot-dot path is redirected to its clean form (http.ServeMux), never served.
	if res := f.get(t, root+"chunks/mermaid.esm.min/../../secret.txt"); res.StatusCode == http.StatusOK {
		t.Error("a dot-dot path served a file")
	}
}

func TestDiagramWithoutAssets(t *testing.T) {
	for name, dir := range map[string]string{"not configured": "", "empty directory": t.TempDir()} {
		t.Run(name, func(t *testing.T) {
			f, log := diagramSite(t, dir)
			for range 2 {
				body, res := f.body(t, http.StatusOK, f.base+"/flow")
				if strings.Contains(body, "data-src=") {
					t.Fatal("a page loads mermaid that is not there")
				}
				if !strings.Contains(body, "A[Start] --&gt; B{Ready?}") {
					t.Error("the diagram's source is not shown")
				}
				pagePolicy(t, "diagram page without mermaid", body, res.Header)
			}
			if n := strings.Count(log.String(), "mermaid is not available"); n != 1 {
				t.Errorf("logged the missing mermaid %d times, want once:\n%s", n, log)
			}
			if res := f.get(t, f.base+"/~assets/"+reader.MermaidDir+"/mermaid.esm.min.mjs"); res.StatusCode != http.StatusNotFound {
				t.Errorf("the missing asset: %d, want 404", res.StatusCode)
			}
		})
	}
}
