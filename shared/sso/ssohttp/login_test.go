package ssohttp

import (
	"bytes"
	"html/template"
	"strings"
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

// A sign-in's cookie: the endpoint's path only, HttpOnly, ten minutes;
// over HTTPS Secure, and SameSite=None where the identity provider posts
// from its own site (SAML's ACS), Lax for a redirect (OpenID Connect's
// callback) and over plain HTTP; an empty value clears it.
func TestFlowCookie(t *testing.T) {
	for _, tc := range []struct {
		endpoint  string
		crossSite bool
		want      []string
		not       []string
	}{
		{"https://docs.example.com/v1/orgs/o/saml/p/acs", true, []string{"Path=/v1/orgs/o/saml/p/acs", "HttpOnly", "Secure", "SameSite=None", "Max-Age=600"}, []string{"SameSite=Lax"}},
		{"http://localhost:8080/v1/orgs/o/saml/p/acs", true, []string{"Path=/v1/orgs/o/saml/p/acs", "HttpOnly", "SameSite=Lax"}, []string{"Secure", "SameSite=None"}},
		{"https://docs.example.com/v1/orgs/o/oidc/p/callback", false, []string{"Path=/v1/orgs/o/oidc/p/callback", "Secure", "SameSite=Lax"}, []string{"SameSite=None"}},
	} {
		c := flowCookie("galley_x", tc.endpoint, "v", tc.crossSite)
		for _, w := range tc.want {
			if !strings.Contains(c, w) {
				t.Errorf("%s: %q lacks %s", tc.endpoint, c, w)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(c, n) {
				t.Errorf("%s: %q has %s", tc.endpoint, c, n)
			}
		}
	}
	if c := flowCookie("galley_x", "https://docs.example.com/acs", "", true); !strings.Contains(c, "Max-Age=0") {
		t.Errorf("clearing: %q", c)
	}
}
