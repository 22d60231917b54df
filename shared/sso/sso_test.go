package sso_test

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/sso"
	"github.com/galleydocs/galley/shared/testkit"
)

// fixture is the API of the users, organizations and SSO families (its
// URLs taken from each request: the Keycloak test serves it on a listener)
// with an organization of a member of each role and a team, and another
// organization with its own admin (the outsider) and team.
type fixture struct {
	*testkit.API
	admin, creator, reader, guest, outsider string // tokens
	team, otherTeam                         string
	// browser is the SAML sign-in cookie the last signIn's start set (the
	// browser's cookie jar), which post sends.
	browser string
}

func setup(t *testing.T) *fixture { return setupOn(t, testkit.New(t)) }

func setupOn(t *testing.T, k *testkit.Kit) *fixture {
	a := testkit.NewAPI(t, k, []string{"users", "orgs", "sso"}, testkit.URLs("", ""))
	tok := a.Tokens
	f := &fixture{API: a, admin: tok["admin"], creator: tok["create"], reader: tok["read"], guest: tok["guest"], outsider: tok[testkit.Outsider]}
	f.team = f.With(t, f.admin).Expect(http.StatusCreated, "PUT", "/v1/orgs/"+f.Org.ID+"/teams", map[string]any{"title": "Engineers"}).Map(t)["id"].(string)
	f.otherTeam = f.With(t, f.outsider).Expect(http.StatusCreated, "PUT", "/v1/orgs/"+f.Other.ID+"/teams", map[string]any{"title": "Theirs"}).Map(t)["id"].(string)
	return f
}

func (f *fixture) base() string { return "/v1/orgs/" + f.Org.ID + "/saml" }

func (f *fixture) create(t *testing.T, body map[string]any) map[string]any {
	t.Helper()
	return f.With(t, f.admin).Expect(http.StatusCreated, "POST", f.base(), body).Map(t)
}

// certificate makes a self-signed certificate, as PEM, with its key.
func certificate(t testing.TB, cn string) (string, *rsa.PrivateKey, *x509.Certificate) {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	tpl := &x509.Certificate{SerialNumber: big.NewInt(now.UnixNano()), Subject: pkix.Name{CommonName: cn},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour), KeyUsage: x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tpl, tpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})), key, c
}

func TestCreateAnswers201WithTheProvider(t *testing.T) {
	f := setup(t)
	cert, _, _ := certificate(t, "idp")
	res := f.With(t, f.admin).Expect(http.StatusCreated, "POST", f.base(), map[string]any{"label": " Okta ", "entityID": "https://idp.example/entity",
		"certificate": cert, "ssoURL": "https://idp.example/sso", "defaultTeam": f.team, "defaultRole": "edit"})
	v := res.Map(t)
	for field, want := range map[string]any{"object": "saml-provider", "label": "Okta", "entityID": "https://idp.example/entity",
		"certificate": cert, "ssoURL": "https://idp.example/sso", "defaultRole": "edit", "status": "active"} {
		if v[field] != want {
			t.Errorf("%s = %v, want %v", field, v[field], want)
		}
	}
	id := v["id"].(string)
	team := v["defaultTeam"].(map[string]any)
	if team["object"] != "team" || team["id"] != f.team || team["title"] != "Engineers" {
		t.Errorf("defaultTeam %v, want the Engineers team object", team)
	}
	loc := v["urls"].(map[string]any)["location"].(string)
	if !strings.HasSuffix(loc, f.base()+"/"+id) || res.Header.Get("Location") != loc {
		t.Errorf("urls.location %q, Location %q", loc, res.Header.Get("Location"))
	}
	svc := v["service"].(map[string]any)
	for field, suffix := range map[string]string{"acsURL": "/acs", "startURL": "/start", "entityID": "/metadata"} {
		if got, _ := svc[field].(string); got != loc+suffix || !strings.HasPrefix(got, "http://") {
			t.Errorf("service.%s = %q, want %q", field, got, loc+suffix)
		}
	}

	pending := f.create(t, map[string]any{"label": "Later"})
	if pending["status"] != "pending" || pending["defaultRole"] != nil || pending["defaultTeam"] != nil {
		t.Errorf("a provider with only a label: status %v, defaultRole %v, defaultTeam %v; want pending, null (guest), none",
			pending["status"], pending["defaultRole"], pending["defaultTeam"])
	}
	bare := base64.StdEncoding.EncodeToString([]byte(mustDER(t, cert)))
	got := f.create(t, map[string]any{"label": "Bare base64", "certificate": bare})
	if got["certificate"] != cert {
		t.Errorf("a bare base64 certificate is kept as %q, want it as PEM", got["certificate"])
	}
}

func mustDER(t *testing.T, p string) string {
	b, _ := pem.Decode([]byte(p))
	if b == nil {
		t.Fatal("not PEM")
	}
	return string(b.Bytes)
}

func TestCreateRejects(t *testing.T) {
	f := setup(t)
	cert, _, _ := certificate(t, "idp")
	ok := func(extra map[string]any) map[string]any {
		b := map[string]any{"label": "IdP"}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	keyPEM := string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: []byte("not a key")}))
	f.Check(t, []testkit.Case{
		{"400LabelMissing", f.admin, "POST", f.base(), map[string]any{"entityID": "x"}, 400, "label"},
		{"400LabelEmpty", f.admin, "POST", f.base(), ok(map[string]any{"label": ""}), 400, "label"},
		{"400LabelBlank", f.admin, "POST", f.base(), ok(map[string]any{"label": "   "}), 400, "label"},
		{"400LabelTooLong", f.admin, "POST", f.base(), ok(map[string]any{"label": strings.Repeat("l", 31)}), 400, "label"},
		{"400EntityIDTooLong", f.admin, "POST", f.base(), ok(map[string]any{"entityID": strings.Repeat("e", 1025)}), 400, "entityID"},
		{"400CertificateTooLong", f.admin, "POST", f.base(), ok(map[string]any{"certificate": strings.Repeat("c", 10001)}), 400, "certificate"},
		{"400CertificateNotPEM", f.admin, "POST", f.base(), ok(map[string]any{"certificate": "hello world"}), 400, "certificate"},
		{"400CertificateAKey", f.admin, "POST", f.base(), ok(map[string]any{"certificate": keyPEM}), 400, "certificate"},
		{"400CertificateGarbledPEM", f.admin, "POST", f.base(), ok(map[string]any{"certificate": strings.Replace(cert, "MII", "XXX", 1)}), 400, "certificate"},
		{"400CertificateTwo", f.admin, "POST", f.base(), ok(map[string]any{"certificate": cert + cert}), 400, "certificate"},
		{"400SSOURLNotAURI", f.admin, "POST", f.base(), ok(map[string]any{"ssoURL": "not a url"}), 400, "ssoURL"},
		{"400SSOURLRelative", f.admin, "POST", f.base(), ok(map[string]any{"ssoURL": "/sso"}), 400, "ssoURL"},
		{"400SSOURLNotHTTP", f.admin, "POST", f.base(), ok(map[string]any{"ssoURL": "ftp://idp.example/sso"}), 400, "ssoURL"},
		{"400SSOURLTooLong", f.admin, "POST", f.base(), ok(map[string]any{"ssoURL": "https://idp.example/" + strings.Repeat("a", 2048)}), 400, "ssoURL"},
		{"400DefaultTeamUnknown", f.admin, "POST", f.base(), ok(map[string]any{"defaultTeam": "nope"}), 400, "defaultTeam"},
		{"400DefaultTeamOfAnotherOrganization", f.admin, "POST", f.base(), ok(map[string]any{"defaultTeam": f.otherTeam}), 400, "defaultTeam"},
		{"400DefaultRoleUnknown", f.admin, "POST", f.base(), ok(map[string]any{"defaultRole": "owner"}), 400, "defaultRole"},
		{"401NoToken", "", "POST", f.base(), ok(nil), 401, ""},
		{"403Creator", f.creator, "POST", f.base(), ok(nil), 403, ""},
		{"403Guest", f.guest, "POST", f.base(), ok(nil), 403, ""},
		{"404Outsider", f.outsider, "POST", f.base(), ok(nil), 404, ""},
		{"404UnknownOrg", f.admin, "POST", "/v1/orgs/nope/saml", ok(nil), 404, ""},
	})
	if n := f.With(t, f.admin).Expect(http.StatusOK, "GET", f.base(), nil).Map(t)["count"]; n != 0.0 {
		t.Errorf("refused creations left %v providers", n)
	}
	for i := 0; i < sso.MaxProviders; i++ {
		f.create(t, map[string]any{"label": fmt.Sprint("P", i)})
	}
	f.With(t, f.admin).Expect(http.StatusConflict, "POST", f.base(), ok(nil))
}

func TestListPagesOldestFirstToAdminsOnly(t *testing.T) {
	f := setup(t)
	var made []string
	for i := range 5 {
		made = append(made, f.create(t, map[string]any{"label": fmt.Sprint("P", i), "defaultTeam": f.team})["id"].(string))
	}
	items, tokens := testkit.Pages(t, f.With(t, f.admin), f.base(), 2)
	for _, p := range items {
		if p["defaultTeam"].(map[string]any)["id"] != f.team {
			t.Errorf("listed provider without its default team: %v", p)
		}
	}
	seen, next := testkit.Field(items, "id"), tokens[len(tokens)-1]
	if fmt.Sprint(seen) != fmt.Sprint(made) {
		t.Errorf("listed %v, want %v (oldest first)", seen, made)
	}
	f.Check(t, []testkit.Case{
		{"400LimitTooLarge", f.admin, "GET", f.base() + "?limit=1001", nil, 400, ""},
		{"400TamperedPage", f.admin, "GET", f.base() + "?page=abc.def", nil, 400, ""},
		{"400PageOfAnotherOrganization", f.outsider, "GET", "/v1/orgs/" + f.Other.ID + "/saml?page=" + next, nil, 400, ""},
		{"401NoToken", "", "GET", f.base(), nil, 401, ""},
		{"403Reader", f.reader, "GET", f.base(), nil, 403, ""},
		{"403Creator", f.creator, "GET", f.base(), nil, 403, ""},
		{"404Outsider", f.outsider, "GET", f.base(), nil, 404, ""},
	})
}

func TestGetPatchDelete(t *testing.T) {
	f := setup(t)
	cert, _, _ := certificate(t, "idp")
	cert2, _, _ := certificate(t, "idp-rotated")
	id := f.create(t, map[string]any{"label": "Okta", "defaultRole": "read"})["id"].(string)
	one := f.base() + "/" + id
	if v := f.With(t, f.admin).Expect(http.StatusOK, "GET", one, nil).Map(t); v["label"] != "Okta" || v["status"] != "pending" {
		t.Errorf("get: %v", v)
	}

	v := f.With(t, f.admin).Expect(http.StatusOK, "PATCH", one, map[string]any{"entityID": "urn:idp", "certificate": cert,
		"ssoURL": "https://idp.example/sso", "defaultTeam": f.team}).Map(t)
	if v["status"] != "active" || v["label"] != "Okta" || v["defaultRole"] != "read" || v["defaultTeam"].(map[string]any)["id"] != f.team {
		t.Errorf("patch completing the provider: %v", v)
	}
	v = f.With(t, f.admin).Expect(http.StatusOK, "PATCH", one, map[string]any{"label": "Okta 2", "certificate": cert2, "defaultRole": nil, "defaultTeam": nil}).Map(t)
	if v["label"] != "Okta 2" || v["certificate"] != cert2 || v["defaultRole"] != nil || v["defaultTeam"] != nil || v["entityID"] != "urn:idp" {
		t.Errorf("patch with nulls: %v", v)
	}
	f.With(t, f.admin).Expect(http.StatusOK, "PATCH", one, map[string]any{"defaultRole": "admin", "defaultTeam": f.team})

	otherID := f.With(t, f.outsider).Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.Other.ID+"/saml", map[string]any{"label": "Theirs"}).Map(t)["id"].(string)
	f.Check(t, []testkit.Case{
		{"Get401NoToken", "", "GET", one, nil, 401, ""},
		{"Get403Reader", f.reader, "GET", one, nil, 403, ""},
		{"Get404Outsider", f.outsider, "GET", one, nil, 404, ""},
		{"Get404Unknown", f.admin, "GET", f.base() + "/nope", nil, 404, ""},
		{"Get404OfAnotherOrganization", f.admin, "GET", f.base() + "/" + otherID, nil, 404, ""},
		{"Patch400LabelTooLong", f.admin, "PATCH", one, map[string]any{"label": strings.Repeat("l", 31)}, 400, "label"},
		{"Patch400LabelNull", f.admin, "PATCH", one, map[string]any{"label": nil}, 400, "label"},
		{"Patch400EntityIDNull", f.admin, "PATCH", one, map[string]any{"entityID": nil}, 400, "entityID"},
		{"Patch400EntityIDTooLong", f.admin, "PATCH", one, map[string]any{"entityID": strings.Repeat("e", 1025)}, 400, "entityID"},
		{"Patch400CertificateNull", f.admin, "PATCH", one, map[string]any{"certificate": nil}, 400, "certificate"},
		{"Patch400CertificateNotPEM", f.admin, "PATCH", one, map[string]any{"certificate": "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"}, 400, "certificate"},
		{"Patch400SSOURLNull", f.admin, "PATCH", one, map[string]any{"ssoURL": nil}, 400, "ssoURL"},
		{"Patch400SSOURLNotAURI", f.admin, "PATCH", one, map[string]any{"ssoURL": "idp.example"}, 400, "ssoURL"},
		{"Patch400DefaultTeamOfAnotherOrganization", f.admin, "PATCH", one, map[string]any{"defaultTeam": f.otherTeam}, 400, "defaultTeam"},
		{"Patch400DefaultRoleUnknown", f.admin, "PATCH", one, map[string]any{"defaultRole": "boss"}, 400, "defaultRole"},
		{"Patch401NoToken", "", "PATCH", one, map[string]any{"label": "x"}, 401, ""},
		{"Patch403Creator", f.creator, "PATCH", one, map[string]any{"label": "x"}, 403, ""},
		{"Patch404Outsider", f.outsider, "PATCH", one, map[string]any{"label": "x"}, 404, ""},
		{"Patch404OfAnotherOrganization", f.admin, "PATCH", f.base() + "/" + otherID, map[string]any{"label": "x"}, 404, ""},
		{"Delete401NoToken", "", "DELETE", one, nil, 401, ""},
		{"Delete403Reader", f.reader, "DELETE", one, nil, 403, ""},
		{"Delete404Outsider", f.outsider, "DELETE", one, nil, 404, ""},
		{"Delete404OfAnotherOrganization", f.admin, "DELETE", f.base() + "/" + otherID, nil, 404, ""},
	})
	if v := f.With(t, f.admin).Expect(http.StatusOK, "GET", one, nil).Map(t); v["label"] != "Okta 2" || v["defaultRole"] != "admin" || v["status"] != "active" {
		t.Errorf("refused changes changed the provider: %v", v)
	}

	// A deleted default team leaves the provider without one.
	f.With(t, f.admin).Expect(http.StatusNoContent, "DELETE", "/v1/orgs/"+f.Org.ID+"/teams/"+f.team, nil)
	if v := f.With(t, f.admin).Expect(http.StatusOK, "GET", one, nil).Map(t); v["defaultTeam"] != nil {
		t.Errorf("defaultTeam %v after the team was deleted", v["defaultTeam"])
	}

	f.With(t, f.admin).Expect(http.StatusNoContent, "DELETE", one, nil)
	f.With(t, f.admin).Expect(http.StatusNotFound, "GET", one, nil)
	f.With(t, f.admin).Expect(http.StatusNotFound, "DELETE", one, nil)
	f.With(t, f.outsider).Expect(http.StatusOK, "GET", "/v1/orgs/"+f.Other.ID+"/saml/"+otherID, nil)
}

func TestLoginInfoListsActiveProvidersWithoutAToken(t *testing.T) {
	f := setup(t)
	cert, _, _ := certificate(t, "idp")
	active := f.create(t, map[string]any{"label": "Okta", "entityID": "urn:idp", "certificate": cert, "ssoURL": "https://idp.example/sso"})
	f.create(t, map[string]any{"label": "Pending"})
	for _, token := range []string{"", f.reader, f.outsider} {
		body := f.With(t, token).Expect(http.StatusOK, "GET", "/v1/orgs/"+f.Org.ID+"/sso", nil).Map(t)
		items := body["items"].([]any)
		if len(items) != 1 {
			t.Fatalf("items %v, want the one active provider", items)
		}
		it := items[0].(map[string]any)
		if it["id"] != active["id"] || it["label"] != "Okta" || it["startURL"] != active["service"].(map[string]any)["startURL"] {
			t.Errorf("login info %v, want the id, label and startURL of %v", it, active)
		}
	}
	if items := f.With(t, "").Expect(http.StatusOK, "GET", "/v1/orgs/"+f.Other.ID+"/sso", nil).Map(t)["items"].([]any); len(items) != 0 {
		t.Errorf("an organization without providers lists %v", items)
	}
	f.With(t, "").Expect(http.StatusNotFound, "GET", "/v1/orgs/nope/sso", nil)
}
