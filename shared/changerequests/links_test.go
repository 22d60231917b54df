package changerequests_test

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// linkSpace merges a request adding a picture file, a page "setup", and a
// page "guide" linking to setup, to the picture, to a missing page and a
// missing file, to the application and to the web. Both pages show the
// picture.
func (f *fixture) linkSpace(t *testing.T) (guide, setup, file string) {
	t.Helper()
	n := f.create(t, f.editor, "links")["number"]
	refs := f.author(t, f.editor, n,
		map[string]any{"operation": "insert_files", "files": []any{
			map[string]any{"ref": "pic", "name": "pic.png", "contentType": "image/png", "base64": base64.StdEncoding.EncodeToString(pngBytes(t, 2, 2))},
		}},
		insert("setup-page", "", "# Setup\n\n![pic](/files/pic)\n"),
		insert("guide-page", "", "# Guide\n\nSee [setup](setup.md) and [setup again](./setup.md#steps).\n\n"+
			"## Install\n\n![pic](/files/pic) [gone](nowhere.md) [lost](/files/lost)\n\n"+
			"```\n[not a link](nowhere-either.md)\n```\n\n"+
			"## Elsewhere\n\n[app](https://app.test/s/other) and [web](https://example.com/x) and [setup](setup.md)\n"),
	)["refs"].(map[string]any)
	f.merge(t, n, "merge")
	return refs["guide-page"].(string), refs["setup-page"].(string), refs["pic"].(string)
}

// linkSummary is "status relation kind target" per item.
func linkSummary(t *testing.T, body map[string]any) []string {
	t.Helper()
	var out []string
	for _, it := range body["items"].([]any) {
		item := it.(map[string]any)
		target := item["targetReference"].(map[string]any)
		id := target["url"]
		switch target["kind"] {
		case "page":
			id = target["page"].(map[string]any)["title"]
			if in, ok := target["internalLocation"].(map[string]any); ok {
				id = id.(string) + "#" + in["anchor"].(string)
			}
		case "file":
			id = target["file"].(map[string]any)["name"]
		}
		var anchors []string
		for _, l := range item["locationReferences"].([]any) {
			loc := l.(map[string]any)
			a := ""
			if in, ok := loc["internalLocation"].(map[string]any); ok {
				a = in["anchor"].(string)
			}
			anchors = append(anchors, loc["page"].(map[string]any)["title"].(string)+"@"+a)
		}
		out = append(out, item["status"].(string)+" "+item["relation"].(string)+" "+target["kind"].(string)+" "+id.(string)+" "+strings.Join(anchors, ","))
	}
	return out
}

func sameList(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n got %q\nwant %q", what, got, want)
	}
}

func stats(body map[string]any) (total, broken float64, cr any) {
	s := body["stats"].(map[string]any)
	b := s["broken"].(map[string]any)
	return s["total"].(float64), b["total"].(float64), b["changeRequest"]
}

func backlinkTitles(t *testing.T, body map[string]any) []string {
	var out []string
	for _, it := range body["items"].([]any) {
		loc := it.(map[string]any)
		if loc["kind"] != "page" || loc["space"].(map[string]any)["object"] != "space" || loc["organization"].(map[string]any)["object"] != "organization" {
			t.Errorf("backlink %v", loc)
		}
		out = append(out, loc["page"].(map[string]any)["title"].(string))
	}
	return out
}

func TestLinksAndBacklinksAcrossAMergeThatDeletesALinkedPage(t *testing.T) {
	f := setup(t)
	guide, setup, pic := f.linkSpace(t)
	space := "/v1/spaces/" + f.space + "/content"
	before := []string{
		"ok reference page Setup Guide@,Guide@elsewhere",
		"ok reference page Setup#steps Guide@",
		"ok dependsOn file pic.png Guide@install",
		"broken reference url nowhere.md Guide@install",
		"broken reference url /files/lost Guide@install",
		"in-app reference url https://app.test/s/other Guide@elsewhere",
		"ok reference url https://example.com/x Guide@elsewhere",
	}
	links := f.as(t, f.reader).Expect(http.StatusOK, "GET", space+"/page/"+guide+"/links", nil).Map(t)
	sameList(t, "links before", linkSummary(t, links), before)
	if total, broken, cr := stats(links); total != 7 || broken != 2 || cr != nil {
		t.Errorf("stats before: %v", links["stats"])
	}
	vc := links["items"].([]any)[0].(map[string]any)["targetReference"].(map[string]any)["versionContext"].(map[string]any)
	if vc["type"] != "revision" || vc["revision"].(map[string]any)["id"] != f.spaceOf(t)["revision"] {
		t.Errorf("versionContext %v", vc)
	}
	for status, want := range map[string][]string{"broken": {before[3], before[4]}, "in-app": {before[5]}, "ok": {before[0], before[1], before[2], before[6]}} {
		got := f.as(t, f.reader).Expect(http.StatusOK, "GET", space+"/page/"+guide+"/links?status="+status, nil).Map(t)
		sameList(t, "status "+status, linkSummary(t, got), want)
		if total, broken, _ := stats(got); total != 7 || broken != 2 {
			t.Errorf("stats of status %s: %v", status, got["stats"])
		}
	}
	back := f.as(t, f.reader).Expect(http.StatusOK, "GET", space+"/files/"+pic+"/backlinks", nil).Map(t)
	sameList(t, "backlinks before", backlinkTitles(t, back), []string{"Setup", "Guide"})

	// A request deletes the setup page: in the request, the links to it
	// are broken (and counted as broken by the request), the file is
	// shown by the guide alone; the space is unchanged until the merge.
	n := f.create(t, f.editor, "drop setup")["number"]
	f.author(t, f.editor, n, map[string]any{"operation": "delete_page", "page": setup})
	after := []string{
		"broken reference url setup.md Guide@,Guide@elsewhere",
		"broken reference url ./setup.md#steps Guide@",
		before[2], before[3], before[4], before[5], before[6],
	}
	inCR := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(n)+"/content/page/"+guide+"/links", nil).Map(t)
	sameList(t, "links in the request", linkSummary(t, inCR), after)
	if total, broken, cr := stats(inCR); total != 7 || broken != 4 || cr != 2.0 {
		t.Errorf("stats in the request: %v", inCR["stats"])
	}
	vc = inCR["items"].([]any)[2].(map[string]any)["targetReference"].(map[string]any)["versionContext"].(map[string]any)
	if vc["type"] != "changeRequest" || vc["changeRequest"].(map[string]any)["number"] != n {
		t.Errorf("versionContext in the request %v", vc)
	}
	sameList(t, "backlinks in the request",
		backlinkTitles(t, f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(n)+"/content/files/"+pic+"/backlinks", nil).Map(t)), []string{"Guide"})
	sameList(t, "space links before the merge",
		linkSummary(t, f.as(t, f.reader).Expect(http.StatusOK, "GET", space+"/page/"+guide+"/links", nil).Map(t)), before)

	f.merge(t, n, "merge")
	merged := f.as(t, f.reader).Expect(http.StatusOK, "GET", space+"/page/"+guide+"/links", nil).Map(t)
	sameList(t, "links after the merge", linkSummary(t, merged), after)
	if total, broken, _ := stats(merged); total != 7 || broken != 4 {
		t.Errorf("stats after the merge: %v", merged["stats"])
	}
	sameList(t, "backlinks after the merge",
		backlinkTitles(t, f.as(t, f.reader).Expect(http.StatusOK, "GET", space+"/files/"+pic+"/backlinks", nil).Map(t)), []string{"Guide"})
	f.as(t, f.reader).Expect(http.StatusNotFound, "GET", space+"/page/"+setup+"/links", nil)
}

func TestLinksAndBacklinksPageThroughOneRevision(t *testing.T) {
	f := setup(t)
	guide, _, pic := f.linkSpace(t)
	space := "/v1/spaces/" + f.space + "/content"
	var seen []string
	path := space + "/page/" + guide + "/links?limit=3"
	for i := 0; i < 5 && path != ""; i++ {
		body := f.as(t, f.reader).Expect(http.StatusOK, "GET", path, nil).Map(t)
		if body["count"].(float64) > 3 {
			t.Fatalf("page of %v items", body["count"])
		}
		seen = append(seen, linkSummary(t, body)...)
		path = ""
		if next, ok := body["next"].(map[string]any); ok {
			path = space + "/page/" + guide + "/links?limit=3&page=" + url.QueryEscape(next["page"].(string))
			if i == 0 {
				// The space changes between pages: the list goes on
				// through the revision its first page read.
				n := f.create(t, f.editor, "more")["number"]
				f.author(t, f.editor, n, map[string]any{"operation": "update_page", "page": guide, "document": map[string]any{"markdown": "# Guide\n\nNo links.\n"}})
				f.merge(t, n, "merge")
			}
		}
	}
	if len(seen) != 7 {
		t.Fatalf("paged through %d links, want 7: %q", len(seen), seen)
	}
	if now := f.as(t, f.reader).Expect(http.StatusOK, "GET", space+"/page/"+guide+"/links", nil).Map(t); now["count"] != 0.0 {
		t.Errorf("links of the new revision: %v", now)
	}
	// In the head, only the setup page still shows the file.
	back := f.as(t, f.reader).Expect(http.StatusOK, "GET", space+"/files/"+pic+"/backlinks?limit=1", nil).Map(t)
	sameList(t, "backlinks page 1", backlinkTitles(t, back), []string{"Setup"})
	if back["next"] != nil {
		t.Errorf("one backlink left, but next is %v", back["next"])
	}
}

func TestLinkReadsAuthAndValidation(t *testing.T) {
	f := setup(t)
	guide, _, pic := f.linkSpace(t)
	n := f.create(t, f.editor, "open")["number"]
	space := "/v1/spaces/" + f.space + "/content"
	req := f.cr(n) + "/content"
	tokenOfStatusList := f.as(t, f.reader).Expect(http.StatusOK, "GET", space+"/page/"+guide+"/links?limit=1&status=ok", nil).Map(t)["next"].(map[string]any)["page"].(string)
	for _, base := range []string{space, req} {
		for _, tc := range []struct {
			name   string
			token  string
			path   string
			status int
		}{
			{"200Reader", f.reader, "/page/" + guide + "/links", 200},
			{"200ReaderBacklinks", f.reader, "/files/" + pic + "/backlinks", 200},
			{"401NoToken", "", "/page/" + guide + "/links", 401},
			{"401NoTokenBacklinks", "", "/files/" + pic + "/backlinks", 401},
			{"404Outsider", f.outsider, "/page/" + guide + "/links", 404},
			{"404OutsiderBacklinks", f.outsider, "/files/" + pic + "/backlinks", 404},
			{"404Guest", f.guest, "/page/" + guide + "/links", 404},
			{"404GuestBacklinks", f.guest, "/files/" + pic + "/backlinks", 404},
			{"404UnknownPage", f.reader, "/page/nope/links", 404},
			{"404UnknownFile", f.reader, "/files/nope/backlinks", 404},
			{"400Limit", f.reader, "/page/" + guide + "/links?limit=0", 400},
			{"400LimitBacklinks", f.reader, "/files/" + pic + "/backlinks?limit=1001", 400},
			{"400ForgedPage", f.reader, "/page/" + guide + "/links?page=forged", 400},
			{"400ForgedPageBacklinks", f.reader, "/files/" + pic + "/backlinks?page=forged", 400},
			{"400TokenOfAnotherList", f.reader, "/page/" + guide + "/links?page=" + url.QueryEscape(tokenOfStatusList), 400},
		} {
			t.Run(strings.TrimPrefix(base, "/v1/spaces/"+f.space+"/")+"/"+tc.name, func(t *testing.T) {
				res := f.as(t, tc.token).Expect(tc.status, "GET", base+tc.path, nil)
				if tc.status == 400 && !strings.Contains(string(res.Body), map[bool]string{true: "page", false: "limit"}[strings.Contains(tc.name, "Page") || strings.Contains(tc.name, "Token")]) {
					t.Errorf("error does not name the field: %s", res.Body)
				}
			})
		}
	}
	res := f.as(t, f.reader).Expect(http.StatusBadRequest, "GET", space+"/page/"+guide+"/links?status=fine", nil)
	if !strings.Contains(string(res.Body), "status") {
		t.Errorf("error does not name status: %s", res.Body)
	}
	f.as(t, f.reader).Expect(http.StatusNotFound, "GET", f.cr(99)+"/content/page/"+guide+"/links", nil)
}

func TestBacklinksReadOnlyTheBodiesTheParentRevisionDidNotHave(t *testing.T) {
	c := countedSetup(t)
	leaf := c.seedPages(t, 200)
	n := c.create(t, c.editor, "file")["number"]
	refs := c.author(t, c.editor, n,
		map[string]any{"operation": "insert_files", "files": []any{
			map[string]any{"ref": "pic", "name": "pic.png", "contentType": "image/png", "base64": base64.StdEncoding.EncodeToString(pngBytes(t, 2, 2))},
		}},
		insert("shows", "", "# Shows\n\n![pic](/files/pic)\n"))["refs"].(map[string]any)
	c.merge(t, n, "merge")
	backlinks := "/v1/spaces/" + c.space + "/content/files/" + refs["pic"].(string) + "/backlinks"
	c.reset()
	sameList(t, "backlinks", backlinkTitles(t, c.as(t, c.reader).Expect(http.StatusOK, "GET", backlinks, nil).Map(t)), []string{"Shows"})
	if first := c.counts(); first.BlobGets < 200 || first.BlobPuts != 1 {
		t.Errorf("first backlinks of a revision: %s; want every body read and the digest stored", first)
	}
	n = c.create(t, c.editor, "edit")["number"]
	c.author(t, c.editor, n, map[string]any{"operation": "update_page", "page": leaf, "document": map[string]any{"markdown": "# Leaf\n\nNow shows ![pic](/files/" + refs["pic"].(string) + ").\n"}})
	c.merge(t, n, "merge")
	c.reset()
	sameList(t, "backlinks after the edit", backlinkTitles(t, c.as(t, c.reader).Expect(http.StatusOK, "GET", backlinks, nil).Map(t)), []string{"Leaf", "Shows"})
	// The digest (missing) and the parent's, the one new body; the tree
	// is the one the merge wrote, kept decoded (content.Repo.Tree).
	if next := c.counts(); next.BlobGets != 3 || next.BlobPuts != 1 {
		t.Errorf("backlinks of the next revision: %s; want 3 blob reads and the digest stored", next)
	}
}

// A batch's refs resolve in GitBook's blocks too: a content-ref's url and
// a file block's src name the pages and files of the same batch.
func TestRefsResolveInBlocks(t *testing.T) {
	f := setup(t)
	n := f.create(t, f.editor, "blocks")["number"]
	refs := f.author(t, f.editor, n,
		map[string]any{"operation": "insert_files", "files": []any{
			map[string]any{"ref": "sheet", "name": "sheet.pdf", "contentType": "application/pdf", "base64": base64.StdEncoding.EncodeToString([]byte("%PDF-1.4 x"))},
		}},
		insert("other", "", "# Other\n\nThe other page.\n"),
		insert("main", "", "# Main\n\n{% content-ref url=\"./other.md\" %}\n[Other](./other.md)\n{% endcontent-ref %}\n\n{% file src=\"./sheet\" %}\nThe sheet\n{% endfile %}\n"),
	)["refs"].(map[string]any)
	md := f.markdown(t, n, refs["main"].(string))
	if !strings.Contains(md, `url="/pages/`+refs["other"].(string)+`"`) || !strings.Contains(md, `src="/files/`+refs["sheet"].(string)+`"`) {
		t.Fatalf("refs in blocks not resolved:\n%s", md)
	}
	doc := f.as(t, f.reader).Expect(http.StatusOK, "GET", f.cr(n)+"/content/page/"+refs["main"].(string)+"?format=document", nil).Map(t)
	nodes := doc["document"].(map[string]any)["nodes"].([]any)
	ref := nodes[0].(map[string]any)
	if ref["type"] != "content-ref" || ref["data"].(map[string]any)["ref"].(map[string]any)["page"] != refs["other"] {
		t.Fatalf("content-ref %v", ref)
	}
}
