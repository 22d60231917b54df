package ssohttp

import (
	"bytes"
	"html/template"
	"testing"
)

// signedInTemplate is the signed-in page as an html/template (as it was
// written until the page was written out: signedInPage). The page answers
// as it does, byte for byte.
const signedInTemplate = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Signed in to {{.Org}}</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}code{word-break:break-all;background:#f3f3f3;padding:.3rem;display:block}</style>
</head><body>
<h1>Signed in to {{.Org}}</h1>
<p>You are signed in as <strong>{{.Email}}</strong>{{if .Joined}}, and joined the organization{{end}}.</p>
<p>Your API token (it is shown only now; keep it secret):</p>
<code id="token">{{.Token}}</code>
<p>Send it with every request as <code>Authorization: Bearer &lt;token&gt;</code>. It acts only in this organization.</p>
</body></html>
`

func TestSignedInPageAnswersAsItsTemplate(t *testing.T) {
	tmpl := template.Must(template.New("signed-in").Parse(signedInTemplate))
	hostile := `<script>alert("x")</script> & 'q' + é` + "\x00"
	for _, d := range []pageData{
		{Org: "Acme", Email: "ada@example.com", Token: "gb_api_abc+/=", Joined: true},
		{Org: hostile, Email: hostile, Token: hostile},
		{},
	} {
		var want bytes.Buffer
		if err := tmpl.Execute(&want, d); err != nil {
			t.Fatal(err)
		}
		if got := signedInPage(d); string(got) != want.String() {
			t.Errorf("%+v: page differs from its template's\n got: %s\nwant: %s", d, got, want.String())
		}
	}
}
