package changerequests_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/testkit"
)

// TestScenario is the life of a space's content, on each storage backend:
// two change requests authored side by side, one merged, the other
// outdated, updated and merged, and the result read in both formats.
func TestScenario(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setupOn(t, k)
		ed := f.as(t, f.editor)
		one := ed.Expect(http.StatusCreated, "POST", f.crs(), map[string]any{"subject": "Getting started"}).Map(t)
		two := ed.Expect(http.StatusCreated, "POST", f.crs(), map[string]any{"subject": "Reference"}).Map(t)
		for _, cr := range []map[string]any{one, two} {
			ed.Expect(http.StatusOK, "PATCH", f.cr(cr["id"]), map[string]any{"status": "open"})
		}
		if open := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.crs(), nil).Map(t); open["count"] != 2.0 {
			t.Fatalf("open requests %v", open)
		}

		refs1 := f.author(t, f.editor, one["number"],
			insert("start", "", "---\ndescription: First steps\n---\n# Getting started\n\nSee the [API](../reference/api.md).\n"),
			insert("install", "start", "# Install\n\nRun **galley**.\n"))["refs"].(map[string]any)
		refs2 := f.author(t, f.editor, two["number"],
			map[string]any{"operation": "insert_page", "ref": "ref", "type": "group", "title": "Reference"},
			insert("api", "ref", "# API\n\n- list\n- get\n"))["refs"].(map[string]any)

		f.merge(t, one["number"], "merge")
		if got := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(two["id"]), nil).Map(t); got["outdated"] != true {
			t.Fatalf("request two is not outdated after request one merged: %v", got)
		}
		f.update(t, two["number"], "update")
		if got := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(two["id"]), nil).Map(t); got["outdated"] != false {
			t.Fatalf("request two is still outdated after its update: %v", got)
		}
		if paths := f.pages(t, two["number"]); strings.Join(paths, " ") != "getting-started getting-started/install reference reference/api" {
			t.Fatalf("request two after update: %v", paths)
		}
		f.merge(t, two["number"], "merge")

		if paths := f.spacePages(t); strings.Join(paths, " ") != "getting-started getting-started/install reference reference/api" {
			t.Fatalf("space after both merges: %v", paths)
		}
		start := refs1["start"].(string)
		md := f.spaceMarkdown(t, start)
		if md != "---\ndescription: First steps\n---\n\n# Getting started\n\nSee the [API](../reference/api.md).\n" {
			t.Fatalf("markdown %q", md)
		}
		doc := f.as(t, f.reader).Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space+"/content/page/"+start+"?format=document", nil).Map(t)
		para := doc["document"].(map[string]any)["nodes"].([]any)[0].(map[string]any)
		link := para["nodes"].([]any)[1].(map[string]any)
		if link["type"] != "link" || link["data"].(map[string]any)["ref"].(map[string]any)["page"] != refs2["api"] {
			t.Fatalf("the link to the API page is not a page reference: %v", para)
		}
		api := f.as(t, f.reader).Expect(http.StatusOK, "GET", "/v1/spaces/"+f.space+"/content/page/"+refs2["api"].(string)+"?format=document", nil).Map(t)
		if list := api["document"].(map[string]any)["nodes"].([]any)[0].(map[string]any); list["type"] != "list-unordered" {
			t.Fatalf("api page document %v", list)
		}
		sp := f.spaceOf(t)
		if sp["changeRequests"] != 2.0 || sp["changeRequestsOpen"] != 0.0 || sp["changeRequestsDraft"] != 0.0 {
			t.Fatalf("space counters %v", sp)
		}
		merged := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.crs()+"?status=merged", nil).Map(t)
		if merged["count"] != 2.0 {
			t.Fatalf("merged requests %v", merged)
		}
	})
}
