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

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/ssoroot"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/httpapi/apitest"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/orgs/orgshttp"
	"github.com/galleydocs/galley/shared/sso"
	"github.com/galleydocs/galley/shared/sso/ssohttp"
	"github.com/galleydocs/galley/shared/testkit"
	"github.com/galleydocs/galley/shared/translations"
	"github.com/galleydocs/galley/shared/translations/translationshttp"
	"github.com/galleydocs/galley/shared/users"
	"github.com/galleydocs/galley/shared/users/usershttp"
)

type fixture struct {
	kit                                     *testkit.Kit
	api                                     *httpapi.API
	org, other                              model.Organization
	ids                                     map[string]string
	admin, creator, reader, guest, outsider string
	team, otherTeam                         string
}

func setup(t *testing.T) *fixture { return setupOn(t, testkit.New(t)) }

// setupOn builds the fixture on a kit: an organization with a member of
// several roles and a team, another organization with its own admin and
// team, and an API with the users, orgs and SSO families.
func setupOn(t *testing.T, k *testkit.Kit) *fixture {
	api := httpapi.New(httpapi.Config{Auth: users.New(k.Deps), Logger: k.Deps.Logger})
	u := users.New(k.Deps)
	usershttp.Register(api, u)
	orgshttp.Register(api, orgs.New(k.Deps, u))
	ssohttp.Register(api, ssoroot.Service(app.NewRoot(k.Deps)))
	translationshttp.Register(api, translations.New(k.Deps)) // the family's other half, as in SSOFunction
	f := &fixture{kit: k, api: api, ids: map[string]string{}}
	tok := map[string]string{}
	for _, name := range []string{"alice", "carol", "rita", "gus", "olga"} {
		u, t := k.User(name)
		f.ids[name], tok[name] = u.ID, t
	}
	f.admin, f.creator, f.reader, f.guest, f.outsider = tok["alice"], tok["carol"], tok["rita"], tok["gus"], tok["olga"]
	f.org = k.Org("Acme", map[string]model.Role{f.ids["alice"]: model.RoleAdmin, f.ids["carol"]: model.RoleCreate,
		f.ids["rita"]: model.RoleRead, f.ids["gus"]: model.RoleGuest})
	f.other = k.Org("Other", map[string]model.Role{f.ids["olga"]: model.RoleAdmin})
	f.team = f.as(t, f.admin).Expect(http.StatusCreated, "PUT", "/v1/orgs/"+f.org.ID+"/teams", map[string]any{"title": "Engineers"}).Map(t)["id"].(string)
	f.otherTeam = f.as(t, f.outsider).Expect(http.StatusCreated, "PUT", "/v1/orgs/"+f.other.ID+"/teams", map[string]any{"title": "Theirs"}).Map(t)["id"].(string)
	return f
}

func (f *fixture) as(t *testing.T, token string) *apitest.Client {
	c := apitest.New(t, f.api)
	c.Token = token
	return c
}

func (f *fixture) base() string { return "/v1/orgs/" + f.org.ID + "/saml" }

func (f *fixture) create(t *testing.T, body map[string]any) map[string]any {
	t.Helper()
	return f.as(t, f.admin).Expect(http.StatusCreated, "POST", f.base(), body).Map(t)
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
	res := f.as(t, f.admin).Expect(http.StatusCreated, "POST", f.base(), map[string]any{"label": " Okta ", "entityID": "https://idp.example/entity",
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
	for _, tc := range []struct {
		name, token, path string
		body              any
		status            int
		field             string
	}{
		{"400LabelMissing", f.admin, f.base(), map[string]any{"entityID": "x"}, 400, "label"},
		{"400LabelEmpty", f.admin, f.base(), ok(map[string]any{"label": ""}), 400, "label"},
		{"400LabelBlank", f.admin, f.base(), ok(map[string]any{"label": "   "}), 400, "label"},
		{"400LabelTooLong", f.admin, f.base(), ok(map[string]any{"label": strings.Repeat("l", 31)}), 400, "label"},
		{"400EntityIDTooLong", f.admin, f.base(), ok(map[string]any{"entityID": strings.Repeat("e", 1025)}), 400, "entityID"},
		{"400CertificateTooLong", f.admin, f.base(), ok(map[string]any{"certificate": strings.Repeat("c", 10001)}), 400, "certificate"},
		{"400CertificateNotPEM", f.admin, f.base(), ok(map[string]any{"certificate": "hello world"}), 400, "certificate"},
		{"400CertificateAKey", f.admin, f.base(), ok(map[string]any{"certificate": keyPEM}), 400, "certificate"},
		{"400CertificateGarbledPEM", f.admin, f.base(), ok(map[string]any{"certificate": strings.Replace(cert, "MII", "XXX", 1)}), 400, "certificate"},
		{"400CertificateTwo", f.admin, f.base(), ok(map[string]any{"certificate": cert + cert}), 400, "certificate"},
		{"400SSOURLNotAURI", f.admin, f.base(), ok(map[string]any{"ssoURL": "not a url"}), 400, "ssoURL"},
		{"400SSOURLRelative", f.admin, f.base(), ok(map[string]any{"ssoURL": "/sso"}), 400, "ssoURL"},
		{"400SSOURLNotHTTP", f.admin, f.base(), ok(map[string]any{"ssoURL": "ftp://idp.example/sso"}), 400, "ssoURL"},
		{"400SSOURLTooLong", f.admin, f.base(), ok(map[string]any{"ssoURL": "https://idp.example/" + strings.Repeat("a", 2048)}), 400, "ssoURL"},
		{"400DefaultTeamUnknown", f.admin, f.base(), ok(map[string]any{"defaultTeam": "nope"}), 400, "defaultTeam"},
		{"400DefaultTeamOfAnotherOrganization", f.admin, f.base(), ok(map[string]any{"defaultTeam": f.otherTeam}), 400, "defaultTeam"},
		{"400DefaultRoleUnknown", f.admin, f.base(), ok(map[string]any{"defaultRole": "owner"}), 400, "defaultRole"},
		{"401NoToken", "", f.base(), ok(nil), 401, ""},
		{"403Creator", f.creator, f.base(), ok(nil), 403, ""},
		{"403Guest", f.guest, f.base(), ok(nil), 403, ""},
		{"404Outsider", f.outsider, f.base(), ok(nil), 404, ""},
		{"404UnknownOrg", f.admin, "/v1/orgs/nope/saml", ok(nil), 404, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := f.as(t, tc.token).Expect(tc.status, "POST", tc.path, tc.body)
			if tc.field != "" && !strings.Contains(string(res.Body), tc.field) {
				t.Errorf("error does not name %q: %s", tc.field, res.Body)
			}
		})
	}
	if n := f.as(t, f.admin).Expect(http.StatusOK, "GET", f.base(), nil).Map(t)["count"]; n != 0.0 {
		t.Errorf("refused creations left %v providers", n)
	}
	for i := 0; i < sso.MaxProviders; i++ {
		f.create(t, map[string]any{"label": fmt.Sprint("P", i)})
	}
	f.as(t, f.admin).Expect(http.StatusConflict, "POST", f.base(), ok(nil))
}

func TestListPagesOldestFirstToAdminsOnly(t *testing.T) {
	f := setup(t)
	var made []string
	for i := range 5 {
		made = append(made, f.create(t, map[string]any{"label": fmt.Sprint("P", i), "defaultTeam": f.team})["id"].(string))
	}
	var seen []string
	next := ""
	for pages := 0; ; pages++ {
		if pages > 5 {
			t.Fatal("paging does not end")
		}
		path := f.base() + "?limit=2"
		if next != "" {
			path += "&page=" + next
		}
		body := f.as(t, f.admin).Expect(http.StatusOK, "GET", path, nil).Map(t)
		items := body["items"].([]any)
		if body["count"] != float64(len(items)) || len(items) > 2 {
			t.Fatalf("count %v with %d items (limit 2)", body["count"], len(items))
		}
		for _, it := range items {
			p := it.(map[string]any)
			seen = append(seen, p["id"].(string))
			if p["defaultTeam"].(map[string]any)["id"] != f.team {
				t.Errorf("listed provider without its default team: %v", p)
			}
		}
		n, ok := body["next"].(map[string]any)
		if !ok {
			break
		}
		next = n["page"].(string)
	}
	if fmt.Sprint(seen) != fmt.Sprint(made) {
		t.Errorf("listed %v, want %v (oldest first)", seen, made)
	}
	for _, tc := range []struct {
		name, token, path string
		status            int
	}{
		{"400LimitTooLarge", f.admin, f.base() + "?limit=1001", 400},
		{"400TamperedPage", f.admin, f.base() + "?page=abc.def", 400},
		{"400PageOfAnotherOrganization", f.outsider, "/v1/orgs/" + f.other.ID + "/saml?page=" + next, 400},
		{"401NoToken", "", f.base(), 401},
		{"403Reader", f.reader, f.base(), 403},
		{"403Creator", f.creator, f.base(), 403},
		{"404Outsider", f.outsider, f.base(), 404},
	} {
		t.Run(tc.name, func(t *testing.T) { f.as(t, tc.token).Expect(tc.status, "GET", tc.path, nil) })
	}
}

func TestGetPatchDelete(t *testing.T) {
	f := setup(t)
	cert, _, _ := certificate(t, "idp")
	cert2, _, _ := certificate(t, "idp-rotated")
	id := f.create(t, map[string]any{"label": "Okta", "defaultRole": "read"})["id"].(string)
	one := f.base() + "/" + id
	if v := f.as(t, f.admin).Expect(http.StatusOK, "GET", one, nil).Map(t); v["label"] != "Okta" || v["status"] != "pending" {
		t.Errorf("get: %v", v)
	}

	v := f.as(t, f.admin).Expect(http.StatusOK, "PATCH", one, map[string]any{"entityID": "urn:idp", "certificate": cert,
		"ssoURL": "https://idp.example/sso", "defaultTeam": f.team}).Map(t)
	if v["status"] != "active" || v["label"] != "Okta" || v["defaultRole"] != "read" || v["defaultTeam"].(map[string]any)["id"] != f.team {
		t.Errorf("patch completing the provider: %v", v)
	}
	v = f.as(t, f.admin).Expect(http.StatusOK, "PATCH", one, map[string]any{"label": "Okta 2", "certificate": cert2, "defaultRole": nil, "defaultTeam": nil}).Map(t)
	if v["label"] != "Okta 2" || v["certificate"] != cert2 || v["defaultRole"] != nil || v["defaultTeam"] != nil || v["entityID"] != "urn:idp" {
		t.Errorf("patch with nulls: %v", v)
	}
	f.as(t, f.admin).Expect(http.StatusOK, "PATCH", one, map[string]any{"defaultRole": "admin", "defaultTeam": f.team})

	otherID := f.as(t, f.outsider).Expect(http.StatusCreated, "POST", "/v1/orgs/"+f.other.ID+"/saml", map[string]any{"label": "Theirs"}).Map(t)["id"].(string)
	for _, tc := range []struct {
		name, token, method, path string
		body                      any
		status                    int
		field                     string
	}{
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
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := f.as(t, tc.token).Expect(tc.status, tc.method, tc.path, tc.body)
			if tc.field != "" && !strings.Contains(string(res.Body), tc.field) {
				t.Errorf("error does not name %q: %s", tc.field, res.Body)
			}
		})
	}
	if v := f.as(t, f.admin).Expect(http.StatusOK, "GET", one, nil).Map(t); v["label"] != "Okta 2" || v["defaultRole"] != "admin" || v["status"] != "active" {
		t.Errorf("refused changes changed the provider: %v", v)
	}

	// A deleted default team leaves the provider without one.
	f.as(t, f.admin).Expect(http.StatusNoContent, "DELETE", "/v1/orgs/"+f.org.ID+"/teams/"+f.team, nil)
	if v := f.as(t, f.admin).Expect(http.StatusOK, "GET", one, nil).Map(t); v["defaultTeam"] != nil {
		t.Errorf("defaultTeam %v after the team was deleted", v["defaultTeam"])
	}

	f.as(t, f.admin).Expect(http.StatusNoContent, "DELETE", one, nil)
	f.as(t, f.admin).Expect(http.StatusNotFound, "GET", one, nil)
	f.as(t, f.admin).Expect(http.StatusNotFound, "DELETE", one, nil)
	f.as(t, f.outsider).Expect(http.StatusOK, "GET", "/v1/orgs/"+f.other.ID+"/saml/"+otherID, nil)
}

func TestLoginInfoListsActiveProvidersWithoutAToken(t *testing.T) {
	f := setup(t)
	cert, _, _ := certificate(t, "idp")
	active := f.create(t, map[string]any{"label": "Okta", "entityID": "urn:idp", "certificate": cert, "ssoURL": "https://idp.example/sso"})
	f.create(t, map[string]any{"label": "Pending"})
	for _, token := range []string{"", f.reader, f.outsider} {
		body := f.as(t, token).Expect(http.StatusOK, "GET", "/v1/orgs/"+f.org.ID+"/sso", nil).Map(t)
		items := body["items"].([]any)
		if len(items) != 1 {
			t.Fatalf("items %v, want the one active provider", items)
		}
		it := items[0].(map[string]any)
		if it["id"] != active["id"] || it["label"] != "Okta" || it["startURL"] != active["service"].(map[string]any)["startURL"] {
			t.Errorf("login info %v, want the id, label and startURL of %v", it, active)
		}
	}
	if items := f.as(t, "").Expect(http.StatusOK, "GET", "/v1/orgs/"+f.other.ID+"/sso", nil).Map(t)["items"].([]any); len(items) != 0 {
		t.Errorf("an organization without providers lists %v", items)
	}
	f.as(t, "").Expect(http.StatusNotFound, "GET", "/v1/orgs/nope/sso", nil)
}
