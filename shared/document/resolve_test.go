package document_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/condition"
	"github.com/galleydocs/galley/shared/document"
)

// files serves includes from a map of repository paths to bodies.
func files(m map[string]string) func(document.IncludeTarget) (document.Included, bool) {
	return func(t document.IncludeTarget) (document.Included, bool) {
		if t.ID != "" {
			b, ok := m["id:"+t.ID]
			return document.Included{Body: b, File: ".gitbook/includes/" + t.ID + ".md"}, ok
		}
		b, ok := m[t.Path]
		return document.Included{Body: b}, ok
	}
}

func problemKinds(ps []document.Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Kind+":"+p.Source)
	}
	return out
}

// A reader sees includes expanded (links rewritten for the page),
// expressions as their values and conditional blocks only when they hold.
func TestResolve(t *testing.T) {
	inc := files(map[string]string{
		".gitbook/includes/help.md":   "> Need help? See [setup](../../quick-start/setup.md#install), ![logo](../assets/logo.png) and [soda](https://soda.io).\n",
		".gitbook/includes/outer.md":  "Outer <code class=\"expression\">space.vars.product</code>.\n\n{% include \"inner.md\" %}\n",
		".gitbook/includes/inner.md":  "Inner, [back](../../guides/page.md), [root](../../) and [here](#top).\n",
		".gitbook/includes/secret.md": "SECRET INCLUDE\n",
		"id:rc7":                      "By id, [a](../../x.md).\n",
	})
	body := strings.Join([]string{
		"# Title",
		"",
		"Version <code class=\"expression\">space.vars.latest_version</code> of <code class=\"expression\">space.vars.product</code>, " +
			"page <code class=\"expression\">page.vars.n + 1</code>, " +
			"status <code class=\"expression\">space.vars.latest_version === \"v3.0.4\" ? \"Latest\" : \"Outdated\"</code>.",
		"",
		"Code keeps it: `<code class=\"expression\">space.vars.product</code>`",
		"",
		"{% if visitor.claims.isAdmin %}",
		"Admins only.",
		"",
		"{% include \"../.gitbook/includes/secret.md\" %}",
		"{% endif %}",
		"",
		"{% if !visitor.claims.isAdmin %}",
		"Everyone else.",
		"{% if space.vars.beta %}",
		"Beta and not admin.",
		"{% endif %}",
		"{% endif %}",
		"",
		"{% include \"../.gitbook/includes/help.md\" %}",
		"",
		"- item",
		"  {% include \"../.gitbook/includes/outer.md\" %}",
		"",
		"{% include \"/reusable-content/rc7\" %}",
		"",
		"```",
		"{% include \"../.gitbook/includes/help.md\" %}",
		"<code class=\"expression\">space.vars.product</code>",
		"```",
	}, "\n") + "\n"
	env := condition.Env{
		Claims:    map[string]any{"isAdmin": false},
		SpaceVars: map[string]any{"latest_version": "v3.0.4", "product": "Soda_Core", "beta": true},
		PageVars:  map[string]any{"n": 2},
	}
	got, problems := document.Resolve(body, document.ResolveOptions{Env: env, File: "guides/page.md", Include: inc})
	want := strings.Join([]string{
		"# Title",
		"",
		`Version v3.0.4 of Soda\_Core, page 3, status Latest.`,
		"",
		"Code keeps it: `<code class=\"expression\">space.vars.product</code>`",
		"",
		"Everyone else.",
		"Beta and not admin.",
		"",
		"> Need help? See [setup](../quick-start/setup.md#install), ![logo](../.gitbook/assets/logo.png) and [soda](https://soda.io).",
		"",
		"- item",
		`  Outer Soda\_Core.`,
		"",
		"  Inner, [back](page.md), [root](../) and [here](#top).",
		"",
		"By id, [a](../x.md).",
		"",
		"```",
		"{% include \"../.gitbook/includes/help.md\" %}",
		"<code class=\"expression\">space.vars.product</code>",
		"```",
	}, "\n") + "\n"
	if got != want {
		t.Errorf("resolved:\n%s\nwant:\n%s", got, want)
	}
	if len(problems) != 0 {
		t.Errorf("problems %+v", problems)
	}
	// The admin sees the other branch, the secret include among it.
	env.Claims = map[string]any{"isAdmin": true}
	got, _ = document.Resolve(body, document.ResolveOptions{Env: env, File: "guides/page.md", Include: inc})
	if !strings.Contains(got, "Admins only.\n\nSECRET INCLUDE\n\n") || strings.Contains(got, "Everyone else") || strings.Contains(got, "Beta") {
		t.Errorf("admin's page:\n%s", got)
	}
}

// Hidden blocks never appear, whatever they hold; constructs that show
// nothing are reported with their source.
func TestResolveProblems(t *testing.T) {
	inc := files(map[string]string{
		".gitbook/includes/loop.md": "Loop\n\n{% include \"loop.md\" %}\n",
		".gitbook/includes/l1.md":   "L1\n{% include \"l2.md\" %}\n",
		".gitbook/includes/l2.md":   "L2\n{% include \"l3.md\" %}\n",
		".gitbook/includes/l3.md":   "L3\n{% include \"l4.md\" %}\n",
		".gitbook/includes/l4.md":   "L4\n",
	})
	body := strings.Join([]string{
		"a <code class=\"expression\">space.vars.missing</code> b <code class=\"expression\">alert(1)</code> c",
		"",
		"{% if visitor.claims.a === %}",
		"HIDDEN1 <code class=\"expression\">space.vars.missing2</code>",
		"{% include \"missing.md\" %}",
		"{% endif %}",
		"",
		"{% include \".gitbook/includes/loop.md\" %}",
		"",
		"{% include \".gitbook/includes/l1.md\" %}",
		"",
		"{% include \"nowhere.md\" %}",
		"",
		"{% include \"../outside.md\" %}",
		"",
		"{% endif %}",
		"",
		"end",
		"",
		"{% if visitor.claims.b %}",
		"HIDDEN2",
	}, "\n") + "\n"
	got, problems := document.Resolve(body, document.ResolveOptions{File: "README.md", Include: inc})
	want := "a  b  c\n\nLoop\n\nL1\nL2\nL3\n\nend\n"
	if got != want {
		t.Errorf("resolved:\n%q\nwant:\n%q", got, want)
	}
	wantProblems := []string{
		"expression:space.vars.missing", "expression:alert(1)", "condition:visitor.claims.a ===",
		"include:loop.md", "include:l4.md", "include:nowhere.md", "include:../outside.md",
		"condition:{% endif %}", "condition:visitor.claims.b",
	}
	if got := problemKinds(problems); !reflect.DeepEqual(got, wantProblems) {
		t.Errorf("problems\n%q\nwant\n%q", got, wantProblems)
	}
	for _, p := range problems {
		if p.Reason == "" {
			t.Errorf("problem without a reason: %+v", p)
		}
	}
	// A lower limit stops sooner.
	got, problems = document.Resolve("{% include \".gitbook/includes/l1.md\" %}\n", document.ResolveOptions{Include: inc, MaxDepth: 1})
	if got != "L1\n" || len(problems) != 1 || !strings.Contains(problems[0].Reason, "1 deep") {
		t.Errorf("depth 1: %q %+v", got, problems)
	}
	// No includes at all: they show nothing.
	got, problems = document.Resolve("x\n\n{% include \"a.md\" %}\n\ny\n", document.ResolveOptions{})
	if got != "x\n\ny\n" || len(problems) != 1 {
		t.Errorf("no includes: %q %+v", got, problems)
	}
	// A body without constructs comes back as it is.
	plain := "# T\n\nplain {% hint %} text\n"
	if got, ps := document.Resolve(plain, document.ResolveOptions{}); got != plain || ps != nil {
		t.Errorf("plain body: %q %v", got, ps)
	}
}

func TestReferences(t *testing.T) {
	body := strings.Join([]string{
		"a <code class=\"expression\">space.vars.x</code> `<code class=\"expression\">not.me</code>` <code class=\"expression\">1 +</code>",
		"{% if visitor.claims.a %}",
		"{% include \"../.gitbook/includes/x.md\" %}",
		"{% endif %}",
		"{% include \"../../nowhere.md\" %}",
		"```",
		"{% include \"code.md\" %}",
		"```",
		"{% if visitor.claims.b %}",
	}, "\n")
	refs := document.References(body, "guides/page.md")
	var got []string
	for _, r := range refs {
		got = append(got, fmt.Sprintf("%d %s %s \"%v\" %s", r.Line, r.Kind, r.Source, r.Err != "", r.Include.Path))
	}
	want := []string{
		`1 expression space.vars.x "false" `,
		`1 expression 1 + "true" `,
		`2 condition visitor.claims.a "false" `,
		`3 include ../.gitbook/includes/x.md "false" .gitbook/includes/x.md`,
		`5 include ../../nowhere.md "true" `,
		`9 condition visitor.claims.b "true" `,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("references\n%q\nwant\n%q", got, want)
	}
	if document.References("plain", "a.md") != nil {
		t.Error("references in a plain body")
	}
}

func TestRelinkFrom(t *testing.T) {
	for _, c := range []struct{ body, from, to, want string }{
		{"[a](../../x/y.md#h)", ".gitbook/includes/i.md", "a/b.md", "[a](../x/y.md#h)"},
		{"[a](../../x/)", ".gitbook/includes/i.md", "a/b.md", "[a](../x/)"},
		{"[a](../../)", ".gitbook/includes/i.md", "a/b.md", "[a](../)"},
		{"[a](../../)", ".gitbook/includes/i.md", "b.md", "[a](./)"},
		{"[a](../../a/b.md)", ".gitbook/includes/i.md", "a/b.md", "[a](b.md)"},
		{`<img src="../assets/p.png"> <a href="../../z.md">z</a>`, ".gitbook/includes/i.md", "a/b.md", `<img src="../.gitbook/assets/p.png"> <a href="../z.md">z</a>`},
		{`{% content-ref url="../../z.md" %}`, ".gitbook/includes/i.md", "z.md", `{% content-ref url="z.md" %}`},
		{"[a](https://x.io/y) [b](/files/f1) [c](#x) [d](mailto:a@b.c) [e](../../../out.md)", ".gitbook/includes/i.md", "a/b.md",
			"[a](https://x.io/y) [b](/files/f1) [c](#x) [d](mailto:a@b.c) [e](../../../out.md)"},
		{"`[a](../../x.md)`\n```\n[a](../../x.md)\n```", ".gitbook/includes/i.md", "a/b.md", "`[a](../../x.md)`\n```\n[a](../../x.md)\n```"},
		{"[a](<../../x y.md>)", ".gitbook/includes/i.md", "a/b.md", "[a](<../x y.md>)"},
		{"[a](x.md)", "a/i.md", "a/b.md", "[a](x.md)"},
	} {
		if got := document.RelinkFrom(c.body, c.from, c.to); got != c.want {
			t.Errorf("RelinkFrom(%q, %s, %s) = %q, want %q", c.body, c.from, c.to, got, c.want)
		}
	}
}

// BenchmarkResolvePage: a page with three includes and ten expressions,
// as a reader resolves it for one visitor.
func BenchmarkResolvePage(b *testing.B) {
	para := strings.Repeat("Some text with a [link](other.md) and **bold** words to make a paragraph of ordinary length. ", 4)
	var lines []string
	for i := range 10 {
		lines = append(lines, "## Section "+fmt.Sprint(i), "", para+`Now <code class="expression">space.vars.v`+fmt.Sprint(i%3)+` + " / " + page.vars.p</code>.`, "")
		if i%3 == 1 {
			lines = append(lines, `{% include "../.gitbook/includes/inc`+fmt.Sprint(i/3)+`.md" %}`, "")
		}
	}
	body := strings.Join(lines, "\n")
	incs := map[string]string{}
	for i := range 4 {
		incs[fmt.Sprintf(".gitbook/includes/inc%d.md", i)] = "{% hint style=\"info\" %}\n" + para + "See [setup](../../guides/setup.md).\n{% endhint %}\n"
	}
	o := document.ResolveOptions{
		Env:     condition.Env{SpaceVars: map[string]any{"v0": "a", "v1": 2, "v2": true}, PageVars: map[string]any{"p": "x"}},
		File:    "guides/page.md",
		Include: files(incs),
	}
	if out, ps := document.Resolve(body, o); len(ps) != 0 || strings.Contains(out, "{% include") || strings.Count(out, " / x") != 10 {
		b.Fatalf("resolution failed: %v\n%s", ps, out)
	}
	b.ReportAllocs()
	for b.Loop() {
		document.Resolve(body, o)
	}
}

// FuzzResolve: no body makes Resolve, References or the document
// conversion panic, and whatever a block that does not hold wraps, a
// reader sees none of it.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{
		"{% if visitor.claims.a %}\nSECRET\n{% endif %}\n",
		"{% if a %}\n{% if b %}\nSECRET\n{% endif %}\n",
		"x <code class=\"expression\">space.vars.a + 1</code> `y`\n",
		"{% include \"a.md\" %}\n```\n{% endif %}\n```\n",
		"- i\n  {% include \"/reusable-content/x\" %}\n",
		"<code class=\"expression\"></code><code class=\"expression\">",
	} {
		f.Add(s)
	}
	inc := files(map[string]string{"a.md": "A {% include \"a.md\" %}\n{% include \"a.md\" %}\n"})
	f.Fuzz(func(t *testing.T, body string) {
		document.Resolve(body, document.ResolveOptions{File: "p.md", Include: inc})
		var kept []string
		for _, l := range strings.Split(body, "\n") {
			if !strings.Contains(l, "endif") {
				kept = append(kept, l)
			}
		}
		hidden := "{% if visitor.claims.nobody %}\n" + strings.Join(kept, "\n") + "\n{% endif %}\n"
		if out, _ := document.Resolve(hidden, document.ResolveOptions{File: "p.md", Include: inc}); strings.TrimSpace(out) != "" {
			t.Fatalf("a hidden block shown: %q -> %q", hidden, out)
		}
		document.References(body, "p.md")
		d := document.ToDocument(body, document.Resolver{File: "p.md", Reusables: reusables{"a.md": "rcA"}})
		raw, _ := json.Marshal(d)
		var m map[string]any
		if json.Unmarshal(raw, &m) == nil {
			_, _ = document.MarkdownOfDocumentWith(m, document.MarkdownOptions{File: "p.md", Reusables: reusables{"a.md": "rcA"}})
		}
	})
}

// Anyone: a block whose condition reads a visitor claim is left out
// whatever the claims (even one that holds for them, or for no claims);
// one on variables alone is evaluated.
func TestResolveForAnyone(t *testing.T) {
	body := "A\n\n{% if !visitor.claims.premium %}\nfree only\n{% endif %}\n\n{% if visitor.claims.premium %}\npremium only\n{% endif %}\n\n" +
		"{% if space.vars.on %}\nvariable on\n{% endif %}\n\nB\n"
	for _, claims := range []map[string]any{nil, {"premium": true}} {
		out, _ := document.Resolve(body, document.ResolveOptions{Anyone: true,
			Env: condition.Env{Claims: claims, SpaceVars: map[string]any{"on": true}}})
		if strings.Contains(out, "only") || !strings.Contains(out, "variable on") || !strings.Contains(out, "B") {
			t.Errorf("claims %v: %q", claims, out)
		}
	}
	out, _ := document.Resolve(body, document.ResolveOptions{Env: condition.Env{}})
	if !strings.Contains(out, "free only") {
		t.Errorf("without Anyone, an anonymous visitor sees the block for non-premium visitors: %q", out)
	}
}
