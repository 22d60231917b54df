package httpapi_test

import (
	"bytes"
	"html/template"
	"testing"

	"github.com/galleydocs/galley/shared/httpapi"
)

func TestHTMLEscapersAnswerAsHTMLTemplate(t *testing.T) {
	tmpl := template.Must(template.New("t").Parse(`<title>{{.}}</title><p title="{{.}}">{{.}}</p><a href="{{.}}">x</a>`))
	for _, s := range []string{
		"", "plain", `<script>alert("x")</script>`, `& ' " + < >`, "nul\x00here", "é › “”",
		"https://example.com/a b?q=1&r=<2>#f", "/relative/path:colon?x=%41%zz%4", "mailto:a@example.com",
		"javascript:alert(1)", "JaVaScRiPt:alert(1)", "data:text/html,x", "vbscript:x", " javascript:x", "a/b:c", "#frag", "?q='x'",
	} {
		var want bytes.Buffer
		if err := tmpl.Execute(&want, s); err != nil {
			t.Fatal(err)
		}
		text := httpapi.HTMLText(s)
		if got := "<title>" + text + `</title><p title="` + text + `">` + text + `</p><a href="` + httpapi.HTMLURL(s) + `">x</a>`; got != want.String() {
			t.Errorf("%q:\n got %s\nwant %s", s, got, want.String())
		}
	}
}
