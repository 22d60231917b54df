package apitest

import "testing"

func TestTemplateRegexpMatchesOneSegmentPerParameter(t *testing.T) {
	re := templateRegexp("/v1", "/spaces/{spaceId}/content/page/{pageId}")
	for path, want := range map[string]bool{
		"/v1/spaces/abc/content/page/p1":   true,
		"/v1/spaces/abc/content/page/p1/x": false,
		"/v1/spaces/a/b/content/page/p1":   false,
		"/spaces/abc/content/page/p1":      false,
		"/v1/spaces/abc/content/page/":     false,
		"/v1/spaces/a.c/content/page/p(1)": true,
	} {
		if got := re.MatchString(path); got != want {
			t.Errorf("%s: match %v, want %v", path, got, want)
		}
	}
}

func TestReferencesRejectAnAnswerMissingRequiredFields(t *testing.T) {
	failures, err := checkReferences("GET", "/v1/collections/abc", 200, []byte(`{"object":"collection","id":"abc"}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(failures) != 2 {
		t.Fatalf("a collection without its required fields passes either document: %v", failures)
	}
	// An operation neither reference has is not checked.
	failures, err = checkReferences("GET", "/v1/no-such-operation", 200, []byte(`{}`))
	if err != nil || len(failures) != 0 {
		t.Fatalf("unknown operation: %v %v", failures, err)
	}
}

func TestTemplateRegexpLetsPagePathsSpanSlashes(t *testing.T) {
	for _, tmpl := range []string{"/spaces/{spaceId}/content/path/{pagePath}", "/spaces/{spaceId}/content/path/{pagePath...}"} {
		re := templateRegexp("/v1", tmpl)
		if !re.MatchString("/v1/spaces/s1/content/path/intro/setup") || re.MatchString("/v1/spaces/s1/other/path/x") {
			t.Errorf("%s does not match nested page paths only", tmpl)
		}
	}
}

// A page whose document holds a conditional block (GitBook's "if") at the
// top level validates against both documents (0.130.0 defines the block
// without listing it there: topLevelIf); a block of a type neither
// document has does not.
func TestReferencesTakeTheIfBlockAtTheTopLevel(t *testing.T) {
	page := func(typ string) []byte {
		return []byte(`{"id":"p","title":"P","kind":"sheet","type":"document","slug":"p","path":"p","pages":[],"tags":[],"urls":{"app":"https://app.test/s/s/p"},` +
			`"layout":{"width":"default","cover":true,"coverSize":"hero","title":true,"description":true,"tableOfContents":true,"outline":true,"pagination":true,"metadata":true,"coverMask":"none","tags":true,"actions":true,"anchors":true},` +
			`"hidden":false,"noIndex":false,"noRobotsIndex":false,"createdAt":"2026-01-02T03:04:05Z","updatedAt":"2026-01-02T03:04:05Z",` +
			`"document":{"object":"document","data":{},"nodes":[{"object":"block","type":"` + typ + `","data":{"expression":"space.vars.beta"},` +
			`"nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Beta","marks":[]}]}]}]}]}}`)
	}
	failures, err := checkReferences("GET", "/v1/spaces/s/content/page/p", 200, page("if"))
	if err != nil || len(failures) != 0 {
		t.Fatalf("an if block at the top level: %v %v", failures, err)
	}
	failures, err = checkReferences("GET", "/v1/spaces/s/content/page/p", 200, page("conditional"))
	if err != nil || len(failures) != 2 {
		t.Fatalf("a block of an unknown type passes a document: %v %v", failures, err)
	}
}
