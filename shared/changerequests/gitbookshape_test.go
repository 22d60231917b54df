package changerequests_test

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
)

// A batch in GitBook's shape: refs linked as ./<ref>.md and ./<ref> from
// pages inserted before them, a document tree, frontmatter taking
// precedence over the title field; compat=false answers the pages
// affected and the files inserted; the default answer is the request.
func TestAuthoringInGitBooksShape(t *testing.T) {
	f := setup(t)
	f.create(t, f.editor, "GitBook's shape")
	png := base64.StdEncoding.EncodeToString(pngBytes(t, 2, 3))
	got := f.author(t, f.editor, 1,
		map[string]any{"operation": "insert_page", "ref": "start", "title": "Ignored",
			"document": map[string]any{"markdown": "---\ndescription: From the frontmatter\n---\n# Getting started\n\nRead [install](./install.md) and see ![logo](./logo).\n"}},
		map[string]any{"operation": "insert_page", "ref": "install", "into": "start", "title": "Install",
			"document": map[string]any{"document": map[string]any{"object": "document", "nodes": []any{
				map[string]any{"object": "block", "type": "paragraph", "nodes": []any{
					map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": "Run it ", "marks": []any{}},
						map[string]any{"object": "leaf", "text": "twice", "marks": []any{map[string]any{"object": "mark", "type": "bold"}}}}}}},
			}}}},
		map[string]any{"operation": "insert_files", "files": []any{map[string]any{"ref": "logo", "name": "logo.png", "contentType": "image/png", "base64": png}}},
	)
	refs := got["refs"].(map[string]any)
	start, install, logo := refs["start"].(string), refs["install"].(string), refs["logo"].(string)
	changes := got["changes"].([]any)
	if len(changes) != 2 || changes[0].(map[string]any)["object"] != "created_page" || changes[0].(map[string]any)["ref"] != "start" ||
		changes[0].(map[string]any)["page"].(map[string]any)["id"] != start ||
		!strings.HasSuffix(changes[1].(map[string]any)["page"].(map[string]any)["urls"].(map[string]any)["location"].(string), "/content/page/"+install) {
		t.Fatalf("changes %v", changes)
	}
	if files := got["insertedFiles"].([]any); len(files) != 1 || files[0].(map[string]any)["id"] != logo || files[0].(map[string]any)["contentType"] != "image/png" {
		t.Fatalf("insertedFiles %v", files)
	}
	md := f.markdown(t, 1, start)
	if !strings.Contains(md, "(/pages/"+install+")") || !strings.Contains(md, "(/files/"+logo+")") {
		t.Fatalf("refs not resolved: %q", md)
	}
	page := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(1)+"/content/page/"+start, nil).Map(t)
	if page["title"] != "Getting started" || page["description"] != "From the frontmatter" {
		t.Errorf("the markdown's heading and frontmatter take precedence: %v %v", page["title"], page["description"])
	}
	// The /pages/<id> link reads as a link to the page.
	doc := page["document"].(map[string]any)
	para := doc["nodes"].([]any)[0].(map[string]any)
	link := para["nodes"].([]any)[1].(map[string]any)
	if ref := link["data"].(map[string]any)["ref"].(map[string]any); ref["kind"] != "page" || ref["page"] != install {
		t.Errorf("a /pages/<id> link reads as %v", ref)
	}
	if md := f.markdown(t, 1, install); md != "# Install\n\nRun it **twice**\n" {
		t.Errorf("a document tree is stored as %q", md)
	}
	// The default answer is the change request itself.
	res := f.as(t, f.editor).Expect(http.StatusOK, "POST", f.cr(1)+"/content", map[string]any{"changes": []any{
		map[string]any{"operation": "update_page", "page": install, "into": nil, "emoji": "🚀"}}}).Map(t)
	if res["object"] != "change-request" || res["number"] != 1.0 {
		t.Fatalf("default answer %v", res)
	}
	if got := strings.Join(f.pages(t, 1), " "); got != "getting-started install" {
		t.Fatalf("into: null moves to the top level: %s", got)
	}
}

// Links in GitBook's forms resolve against the revision they are read
// from: /pages/<id>, /pages/<slug path>, /pages/<path>.md and README.md,
// relative .md paths, /files/<id>.
func TestLinksInGitBooksForms(t *testing.T) {
	f := setup(t)
	f.create(t, f.editor, "")
	refs := f.author(t, f.editor, 1,
		insert("guide", "", "# Guide\n"),
		insert("setup", "guide", "# Setup\n"),
	)["refs"].(map[string]any)
	guide, setup := refs["guide"].(string), refs["setup"].(string)
	body := "# Links\n\n[a](/pages/" + setup + ") [b](/pages/guide/setup) [c](/pages/guide/setup.md) [d](/pages/guide/README.md) " +
		"[e](guide/setup.md) [f](/pages/" + setup + "#steps) [g](/pages/nowhere)\n"
	p := f.author(t, f.editor, 1, map[string]any{"operation": "insert_page", "ref": "links", "document": map[string]any{"markdown": body}})["refs"].(map[string]any)["links"].(string)
	doc := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(1)+"/content/page/"+p, nil).Map(t)["document"].(map[string]any)
	var targets []string
	for _, n := range doc["nodes"].([]any)[0].(map[string]any)["nodes"].([]any) {
		node := n.(map[string]any)
		if node["type"] != "link" {
			continue
		}
		ref := node["data"].(map[string]any)["ref"].(map[string]any)
		switch ref["kind"] {
		case "page":
			targets = append(targets, ref["page"].(string))
		case "anchor":
			targets = append(targets, ref["page"].(string)+"#"+ref["anchor"].(string))
		default:
			targets = append(targets, "url:"+ref["url"].(string))
		}
	}
	want := []string{setup, setup, setup, guide, setup, setup + "#steps", "url:/pages/nowhere"}
	if strings.Join(targets, " ") != strings.Join(want, " ") {
		t.Fatalf("targets %v, want %v", targets, want)
	}
	links := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(1)+"/content/page/"+p+"/links", nil).Map(t)
	broken := 0
	for _, it := range links["items"].([]any) {
		if it.(map[string]any)["status"] == "broken" {
			broken++
		}
	}
	if broken != 1 {
		t.Errorf("broken links %d, want 1 (/pages/nowhere): %v", broken, links["items"])
	}
}

// revert_page: a page the request added goes, one it deleted comes back,
// one it changed gets its content back; by default to the request's base.
func TestRevertPage(t *testing.T) {
	f := setup(t)
	f.create(t, f.editor, "base")
	refs := f.author(t, f.editor, 1, insert("a", "", "# A\n\nOriginal.\n"), insert("b", "", "# B\n"), insert("c", "b", "# C\n"))["refs"].(map[string]any)
	a, b, c := refs["a"].(string), refs["b"].(string), refs["c"].(string)
	f.merge(t, 1, "merge")
	f.create(t, f.editor, "edits")
	added := f.author(t, f.editor, 2,
		map[string]any{"operation": "update_page", "page": a, "document": map[string]any{"markdown": "# A2\n\nChanged.\n"}},
		map[string]any{"operation": "delete_page", "page": b},
		insert("d", "", "# D\n"),
	)["refs"].(map[string]any)["d"].(string)
	if got := strings.Join(f.pages(t, 2), " "); got != "a d" {
		t.Fatalf("before the reverts: %s", got)
	}
	got := f.author(t, f.editor, 2,
		map[string]any{"operation": "revert_page", "page": a},
		map[string]any{"operation": "revert_page", "page": b},
		map[string]any{"operation": "revert_page", "page": added},
	)
	if got := strings.Join(f.pages(t, 2), " "); got != "a b b/c" {
		t.Fatalf("after the reverts: %s", got)
	}
	if md := f.markdown(t, 2, a); md != "# A\n\nOriginal.\n" {
		t.Errorf("a reverted: %q", md)
	}
	kinds := map[string]string{}
	for _, ch := range got["changes"].([]any) {
		m := ch.(map[string]any)
		id, _ := m["page"].(string)
		if p, ok := m["page"].(map[string]any); ok {
			id = p["id"].(string)
		}
		kinds[id] = m["object"].(string)
	}
	if kinds[a] != "updated_page" || kinds[b] != "created_page" || kinds[c] != "created_page" || kinds[added] != "deleted_page" {
		t.Errorf("outcomes %v", kinds)
	}
}
