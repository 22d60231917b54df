package sso_test

import (
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/xml"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crewjam/saml"
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/ssoroot"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/httpapi/apitest"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/sso"
	"github.com/galleydocs/galley/shared/sso/ssohttp"
	"github.com/galleydocs/galley/shared/testkit"
	"github.com/galleydocs/galley/shared/users"
)

// idp is a real SAML identity provider (crewjam/saml's), served over HTTP
// for the test. It signs in whoever the test says, and lets a test bend the
// assertion it makes before signing it.
type idp struct {
	t      *testing.T
	srv    *httptest.Server
	idp    *saml.IdentityProvider
	cert   string // PEM
	spMeta func(entityID string) (*saml.EntityDescriptor, error)

	mu     sync.Mutex
	email  string
	name   string
	bend   func(req *saml.IdpAuthnRequest)
	plain  bool // assertions not encrypted (so that a test can edit them)
	lastSP string
}

func newIdP(t *testing.T, f *fixture) *idp {
	cert, key, c := certificate(t, "test idp")
	p := &idp{t: t, cert: cert, email: "newbie@idp.test", name: "New Bie"}
	mux := http.NewServeMux()
	p.srv = httptest.NewServer(mux)
	t.Cleanup(p.srv.Close)
	base, _ := url.Parse(p.srv.URL)
	p.idp = &saml.IdentityProvider{Key: key, Certificate: c, Logger: nopLogger{},
		MetadataURL: *base.JoinPath("/metadata"), SSOURL: *base.JoinPath("/sso"),
		ServiceProviderProvider: p, SessionProvider: p, AssertionMaker: p}
	mux.HandleFunc("/metadata", p.idp.ServeMetadata)
	mux.HandleFunc("/sso", p.idp.ServeSSO)
	// The IdP reads Galley's metadata from its entity ID, as real ones do
	// when given the metadata URL (in process: the API has no listener).
	p.spMeta = func(entityID string) (*saml.EntityDescriptor, error) {
		u, err := url.Parse(entityID)
		if err != nil {
			return nil, err
		}
		rec := httptest.NewRecorder()
		f.API.API.Handler().ServeHTTP(rec, httptest.NewRequest("GET", u.Path, nil))
		if rec.Code != http.StatusOK {
			return nil, os.ErrNotExist
		}
		var md saml.EntityDescriptor
		if err := xml.Unmarshal(rec.Body.Bytes(), &md); err != nil {
			return nil, err
		}
		return &md, nil
	}
	return p
}

type nopLogger struct{}

func (nopLogger) Printf(string, ...any) {}
func (nopLogger) Print(...any)          {}
func (nopLogger) Println(...any)        {}
func (nopLogger) Fatal(...any)          {}
func (nopLogger) Fatalf(string, ...any) {}
func (nopLogger) Fatalln(...any)        {}
func (nopLogger) Panic(...any)          {}
func (nopLogger) Panicf(string, ...any) {}
func (nopLogger) Panicln(...any)        {}

// GetServiceProvider implements saml.ServiceProviderProvider.
func (p *idp) GetServiceProvider(_ *http.Request, id string) (*saml.EntityDescriptor, error) {
	md, err := p.spMeta(id)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lastSP = id
	if p.plain {
		for i := range md.SPSSODescriptors {
			md.SPSSODescriptors[i].KeyDescriptors = nil
		}
	}
	return md, nil
}

// GetSession implements saml.SessionProvider: the user is always signed in.
func (p *idp) GetSession(_ http.ResponseWriter, _ *http.Request, _ *saml.IdpAuthnRequest) *saml.Session {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	return &saml.Session{ID: "s1", CreateTime: now, ExpireTime: now.Add(time.Hour), Index: "1",
		NameID: p.email, NameIDFormat: string(saml.EmailAddressNameIDFormat), UserEmail: p.email, UserCommonName: p.name}
}

// MakeAssertion implements saml.AssertionMaker: the library's, then bent.
func (p *idp) MakeAssertion(req *saml.IdpAuthnRequest, s *saml.Session) error {
	if err := (saml.DefaultAssertionMaker{}).MakeAssertion(req, s); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bend != nil {
		p.bend(req)
	}
	return nil
}

var formField = regexp.MustCompile(`name="(SAMLResponse|RelayState)" value="([^"]*)"`)
var formAction = regexp.MustCompile(`action="([^"]*)"`)

// signIn follows a sign-in as a browser does: the start URL (Galley) to
// the identity provider, whose page posts the response; it returns that
// response and where the page posts it.
func (p *idp) signIn(t *testing.T, f *fixture, startURL string) (response, acs string) {
	t.Helper()
	u, _ := url.Parse(startURL)
	res := f.With(t, "").Expect(http.StatusFound, "GET", u.Path, nil)
	f.browser = ""
	for _, c := range (&http.Response{Header: res.Header}).Cookies() {
		if c.Name == sso.SAMLSignInCookie {
			f.browser = c.Value
			if !c.HttpOnly || c.Path != acsPath(startURL) || c.MaxAge <= 0 {
				t.Errorf("the sign-in cookie %s: want HttpOnly, for the ACS's path only, expiring", c)
			}
		}
	}
	if f.browser == "" {
		t.Fatalf("the start sets no %s cookie: %v", sso.SAMLSignInCookie, res.Header)
	}
	loc := res.Header.Get("Location")
	if !strings.HasPrefix(loc, p.srv.URL+"/sso?SAMLRequest=") {
		t.Fatalf("start redirects to %q, want the identity provider's SSO URL with a SAMLRequest", loc)
	}
	if q, _ := url.Parse(loc); q.Query().Get("Signature") == "" || q.Query().Get("SigAlg") == "" {
		t.Errorf("the AuthnRequest is not signed: %s", loc)
	}
	resp, err := http.Get(loc)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	page, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("identity provider: %d %s", resp.StatusCode, page)
	}
	for _, m := range formField.FindAllStringSubmatch(string(page), -1) {
		if m[1] == "SAMLResponse" {
			response = html.UnescapeString(m[2])
		}
	}
	if m := formAction.FindStringSubmatch(string(page)); m != nil {
		acs = html.UnescapeString(m[1])
	}
	if response == "" || acs == "" {
		t.Fatalf("no SAMLResponse form in the identity provider's page: %s", page)
	}
	return response, acs
}

// acsPath is the path of the ACS of the provider whose start URL is given.
func acsPath(startURL string) string {
	u, _ := url.Parse(startURL)
	return strings.TrimSuffix(u.Path, "/start") + "/acs"
}

// post sends a SAMLResponse to an ACS URL as the browser's form does,
// from the browser of the last signIn (its cookie).
func post(t *testing.T, f *fixture, acs, response string, want int) []byte {
	t.Helper()
	return postFrom(t, f, f.browser, acs, response, want)
}

// postFrom posts a SAMLResponse from a browser whose sign-in cookie is
// cookie ("": none).
func postFrom(t *testing.T, f *fixture, cookie, acs, response string, want int) []byte {
	t.Helper()
	u, _ := url.Parse(acs)
	headers := []string{"Content-Type", "application/x-www-form-urlencoded"}
	if cookie != "" {
		headers = append(headers, "Cookie", sso.SAMLSignInCookie+"="+cookie)
	}
	res := f.With(t, "").Expect(want, "POST", u.Path, "SAMLResponse="+url.QueryEscape(response)+"&RelayState=", headers...)
	return res.Body
}

var tokenInPage = regexp.MustCompile(`<code id="token">([^<]+)</code>`)

func tokenOf(t *testing.T, page []byte) string {
	t.Helper()
	m := tokenInPage.FindSubmatch(page)
	if m == nil {
		t.Fatalf("no token in the page: %s", page)
	}
	return string(m[1])
}

// provider adds a provider of idp to the fixture's organization.
func (p *idp) provider(t *testing.T, f *fixture, extra map[string]any) map[string]any {
	body := map[string]any{"label": "Test IdP", "entityID": p.idp.MetadataURL.String(), "certificate": p.cert,
		"ssoURL": p.idp.SSOURL.String(), "defaultTeam": f.team, "defaultRole": "edit"}
	for k, v := range extra {
		body[k] = v
	}
	return f.create(t, body)
}

func startURL(pr map[string]any) string { return pr["service"].(map[string]any)["startURL"].(string) }

func TestSignInEndToEnd(t *testing.T) {
	f := setup(t)
	p := newIdP(t, f)
	pr := p.provider(t, f, nil)

	response, acs := p.signIn(t, f, startURL(pr))
	if want := pr["service"].(map[string]any)["acsURL"]; acs != want {
		t.Errorf("the identity provider posts to %q, want the provider's acsURL %q", acs, want)
	}
	if p.lastSP != pr["service"].(map[string]any)["entityID"] {
		t.Errorf("the AuthnRequest's issuer is %q, want the provider's service.entityID", p.lastSP)
	}
	page := post(t, f, acs, response, http.StatusOK)
	tok := tokenOf(t, page)
	if !strings.Contains(string(page), "newbie@idp.test") || !strings.Contains(string(page), "Acme") {
		t.Errorf("the page does not say who signed in where: %s", page)
	}

	// The token is the new user's, and works in the organization.
	me := f.With(t, tok).Expect(http.StatusOK, "GET", "/v1/user", nil).Map(t)
	if me["email"] != "newbie@idp.test" || me["displayName"] != "New Bie" {
		t.Errorf("the signed-in user is %v", me)
	}
	uid := me["id"].(string)
	f.With(t, tok).Expect(http.StatusOK, "GET", "/v1/orgs/"+f.Org.ID, nil)
	m := f.With(t, f.admin).Expect(http.StatusOK, "GET", "/v1/orgs/"+f.Org.ID+"/members/"+uid, nil).Map(t)
	if m["sso"] != true || m["role"] != "edit" || m["teams"] != 1.0 {
		t.Errorf("the new member: sso %v, role %v, teams %v; want true, the provider's defaultRole edit, 1", m["sso"], m["role"], m["teams"])
	}
	teams := f.With(t, f.admin).Expect(http.StatusOK, "GET", "/v1/orgs/"+f.Org.ID+"/members/"+uid+"/teams", nil).Map(t)["items"].([]any)
	if len(teams) != 1 || teams[0].(map[string]any)["team"].(map[string]any)["id"] != f.team {
		t.Errorf("the new member's teams %v, want the provider's defaultTeam", teams)
	}
	// The token acts only in this organization.
	orgsOf := f.With(t, tok).Expect(http.StatusOK, "GET", "/v1/orgs", nil).Map(t)["items"].([]any)
	if len(orgsOf) != 1 || orgsOf[0].(map[string]any)["id"] != f.Org.ID {
		t.Errorf("the SSO token lists organizations %v, want only its own", orgsOf)
	}
	f.With(t, tok).Expect(http.StatusForbidden, "POST", "/v1/orgs", map[string]any{"title": "Elsewhere"})

	// The same response, posted again, is refused.
	if body := post(t, f, acs, response, http.StatusUnauthorized); !strings.Contains(string(body), "already used") {
		t.Errorf("replay refused with %s", body)
	}

	// Signing in again finds the user: same account, another token, still
	// one team membership.
	response, acs = p.signIn(t, f, startURL(pr))
	tok2 := tokenOf(t, post(t, f, acs, response, http.StatusOK))
	if tok2 == tok {
		t.Error("a second sign-in shows the same token")
	}
	if id := f.With(t, tok2).Expect(http.StatusOK, "GET", "/v1/user", nil).Map(t)["id"]; id != uid {
		t.Errorf("second sign-in is user %v, want %v", id, uid)
	}
	if m := f.With(t, f.admin).Expect(http.StatusOK, "GET", "/v1/orgs/"+f.Org.ID+"/members/"+uid, nil).Map(t); m["teams"] != 1.0 {
		t.Errorf("teams %v after a second sign-in, want 1", m["teams"])
	}
}

func TestSignInFindsExistingUsersAndKeepsMembersRoles(t *testing.T) {
	f := setup(t)
	p := newIdP(t, f)
	pr := p.provider(t, f, nil)

	// An admin of the organization signing in stays admin.
	p.email, p.name = "admin@example.com", "Alice"
	response, acs := p.signIn(t, f, startURL(pr))
	tok := tokenOf(t, post(t, f, acs, response, http.StatusOK))
	if id := f.With(t, tok).Expect(http.StatusOK, "GET", "/v1/user", nil).Map(t)["id"]; id != f.Users["admin"].ID {
		t.Errorf("signed in as %v, want the admin's account %v", id, f.Users["admin"].ID)
	}
	m := f.With(t, f.admin).Expect(http.StatusOK, "GET", "/v1/orgs/"+f.Org.ID+"/members/"+f.Users["admin"].ID, nil).Map(t)
	if m["role"] != "admin" || m["sso"] != true {
		t.Errorf("the admin after signing in: role %v, sso %v; want admin, true", m["role"], m["sso"])
	}

	// A user of the instance who is no member joins with the default role;
	// their token does not reach their other organization.
	p.email = "outsider@example.com"
	response, acs = p.signIn(t, f, startURL(pr))
	tok = tokenOf(t, post(t, f, acs, response, http.StatusOK))
	m = f.With(t, f.admin).Expect(http.StatusOK, "GET", "/v1/orgs/"+f.Org.ID+"/members/"+f.Users[testkit.Outsider].ID, nil).Map(t)
	if m["role"] != "edit" || m["sso"] != true {
		t.Errorf("the outsider after signing in: role %v, sso %v; want edit, true", m["role"], m["sso"])
	}
	f.With(t, tok).Expect(http.StatusNotFound, "GET", "/v1/orgs/"+f.Other.ID, nil)
	f.With(t, f.outsider).Expect(http.StatusOK, "GET", "/v1/orgs/"+f.Other.ID, nil)

	// The instance administrator signing in gets no instance rights.
	p.email = "admin@localhost"
	response, acs = p.signIn(t, f, startURL(pr))
	tok = tokenOf(t, post(t, f, acs, response, http.StatusOK))
	f.With(t, tok).Expect(http.StatusForbidden, "POST", "/v1/admin/users", map[string]any{"email": "x@example.com", "displayName": "X"})
}

func TestForgedResponsesAreRefused(t *testing.T) {
	f := setup(t)
	p := newIdP(t, f)
	pr := p.provider(t, f, nil)
	members := func() float64 {
		return f.With(t, f.admin).Expect(http.StatusOK, "GET", "/v1/orgs/"+f.Org.ID+"/members", nil).Map(t)["count"].(float64)
	}
	before := members()
	other, otherKey, otherCert := certificate(t, "another idp")
	_ = other
	for _, tc := range []struct {
		name  string
		plain bool
		bend  func(req *saml.IdpAuthnRequest)
		edit  func(xml string) string
		want  string
	}{
		{name: "TamperedAssertion", plain: true, edit: func(x string) string {
			if !strings.Contains(x, "newbie@idp.test") {
				t.Fatal("the assertion does not name the user")
			}
			return strings.ReplaceAll(x, "newbie@idp.test", "admin@example.com")
		}, want: "signature"},
		{name: "WrongAudience", bend: func(req *saml.IdpAuthnRequest) {
			req.Assertion.Conditions.AudienceRestrictions[0].Audience.Value = "https://elsewhere.example/saml/metadata"
		}, want: "AudienceRestriction"},
		{name: "Expired", bend: func(req *saml.IdpAuthnRequest) {
			past := time.Now().Add(-2 * time.Hour)
			req.Now = past
			a := req.Assertion
			a.IssueInstant = past
			a.Conditions.NotBefore, a.Conditions.NotOnOrAfter = past.Add(-time.Minute), past.Add(time.Minute)
			a.Subject.SubjectConfirmations[0].SubjectConfirmationData.NotOnOrAfter = past.Add(time.Minute)
		}, want: "expired"},
		{name: "ExpiredAssertion", bend: func(req *saml.IdpAuthnRequest) {
			past := time.Now().Add(-2 * time.Hour)
			a := req.Assertion
			a.IssueInstant = past
			a.Conditions.NotBefore, a.Conditions.NotOnOrAfter = past.Add(-time.Minute), past.Add(time.Minute)
		}, want: "expired"},
		{name: "WrongRecipient", bend: func(req *saml.IdpAuthnRequest) {
			req.Assertion.Subject.SubjectConfirmations[0].SubjectConfirmationData.Recipient = "https://elsewhere.example/acs"
		}, want: "Recipient"},
		{name: "SignedByAnotherKey", bend: func(req *saml.IdpAuthnRequest) {
			req.IDP = &saml.IdentityProvider{Key: otherKey, Certificate: otherCert, MetadataURL: req.IDP.MetadataURL, SSOURL: req.IDP.SSOURL}
		}, want: "signature"},
		{name: "AnswersAnotherRequest", bend: func(req *saml.IdpAuthnRequest) {
			req.Request.ID = "id-0123"
			req.Assertion.Subject.SubjectConfirmations[0].SubjectConfirmationData.InResponseTo = "id-0123"
		}, want: "no sign-in started here"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p.mu.Lock()
			p.bend, p.plain = tc.bend, tc.plain
			p.mu.Unlock()
			defer func() { p.mu.Lock(); p.bend, p.plain = nil, false; p.mu.Unlock() }()
			response, acs := p.signIn(t, f, startURL(pr))
			if tc.edit != nil {
				raw, err := base64.StdEncoding.DecodeString(response)
				if err != nil {
					t.Fatal(err)
				}
				response = base64.StdEncoding.EncodeToString([]byte(tc.edit(string(raw))))
			}
			body := post(t, f, acs, response, http.StatusUnauthorized)
			if !strings.Contains(string(body), tc.want) {
				t.Errorf("refused, but not for %q: %s", tc.want, body)
			}
		})
	}
	if n := members(); n != before {
		t.Errorf("refused responses changed the members: %v, then %v", before, n)
	}
	// The provider signs in as usual afterwards.
	response, acs := p.signIn(t, f, startURL(pr))
	post(t, f, acs, response, http.StatusOK)
}

// A response is taken only from the browser that started its sign-in
// (login CSRF: someone posting the response they got for themselves from
// a victim's browser): without the start's cookie, or with another
// sign-in's, it is refused (401, audited as failed), and the refusals do
// not use the request up: the browser that started it signs in.
func TestSignInOnlyInTheBrowserThatStartedIt(t *testing.T) {
	f := setup(t)
	p := newIdP(t, f)
	pr := p.provider(t, f, nil)
	response, acs := p.signIn(t, f, startURL(pr))
	mine := f.browser
	if body := postFrom(t, f, "", acs, response, http.StatusUnauthorized); !strings.Contains(string(body), "cookie is missing") {
		t.Errorf("a response posted without the sign-in cookie: %s", body)
	}
	// The attacker's own browser, with the cookie of a sign-in it started.
	p.signIn(t, f, startURL(pr))
	theirs := f.browser
	if theirs == mine {
		t.Fatalf("two starts gave the same cookie %q", mine)
	}
	if body := postFrom(t, f, theirs, acs, response, http.StatusUnauthorized); !strings.Contains(string(body), "another browser") {
		t.Errorf("a response posted with another sign-in's cookie: %s", body)
	}
	if body := postFrom(t, f, mine+"0", acs, response, http.StatusUnauthorized); !strings.Contains(string(body), "another browser") {
		t.Errorf("a response posted with a changed cookie: %s", body)
	}
	tok := tokenOf(t, postFrom(t, f, mine, acs, response, http.StatusOK))
	f.With(t, tok).Expect(http.StatusOK, "GET", "/v1/user", nil)
	count := map[any]int{}
	for _, e := range testkit.Items(t, f.With(t, f.admin), "/v1/orgs/"+f.Org.ID+"/audit-events", 100) {
		count[e["action"]]++
	}
	if count[model.AuditSignedIn] != 1 || count[model.AuditSignInFailed] != 3 {
		t.Errorf("audit events: %v; want 1 sign-in, the 3 refusals", count)
	}
}

func TestSignInRefusesExpiredRequestsAndOtherProviders(t *testing.T) {
	f := setup(t)
	p := newIdP(t, f)
	pr := p.provider(t, f, nil)
	second := p.provider(t, f, map[string]any{"label": "Second"})

	// A response to a sign-in started with another provider.
	response, _ := p.signIn(t, f, startURL(pr))
	if body := post(t, f, second["service"].(map[string]any)["acsURL"].(string), response, http.StatusUnauthorized); !strings.Contains(string(body), "no sign-in started here") {
		t.Errorf("a response to another provider's request: %s", body)
	}

	// A response arriving after the request's lifetime.
	response, acs := p.signIn(t, f, startURL(pr))
	now := f.Kit.Deps.Now
	f.Kit.Deps.Now = func() time.Time { return now().Add(sso.RequestLifetime + time.Second) }
	if body := post(t, f, acs, response, http.StatusUnauthorized); !strings.Contains(string(body), "expired") {
		t.Errorf("a late response: %s", body)
	}
	f.Kit.Deps.Now = now

	for _, tc := range []struct {
		name, path, body string
		status           int
		field            string
	}{
		{"400NoSAMLResponse", u(acs), "RelayState=x", 400, "SAMLResponse"},
		{"400NotBase64", u(acs), "SAMLResponse=%%%", 400, "SAMLResponse"},
		{"400NotXML", u(acs), "SAMLResponse=" + url.QueryEscape(base64.StdEncoding.EncodeToString([]byte("hello"))), 400, "SAMLResponse"},
		{"404UnknownProvider", "/v1/orgs/" + f.Org.ID + "/saml/nope/acs", "SAMLResponse=" + url.QueryEscape(response), 404, ""},
		{"404UnknownOrganization", "/v1/orgs/nope/saml/" + pr["id"].(string) + "/acs", "SAMLResponse=" + url.QueryEscape(response), 404, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := f.With(t, "").Expect(tc.status, "POST", tc.path, tc.body, "Content-Type", "application/x-www-form-urlencoded")
			if tc.field != "" && !strings.Contains(string(res.Body), tc.field) {
				t.Errorf("error does not name %q: %s", tc.field, res.Body)
			}
		})
	}
}

func u(raw string) string {
	p, _ := url.Parse(raw)
	return p.Path
}

func TestStartAndMetadata(t *testing.T) {
	f := setup(t)
	p := newIdP(t, f)
	pr := p.provider(t, f, nil)
	pending := f.create(t, map[string]any{"label": "Pending"})
	f.With(t, "").Expect(http.StatusConflict, "GET", u(startURL(pending)), nil)
	f.With(t, "").Expect(http.StatusNotFound, "GET", "/v1/orgs/"+f.Org.ID+"/saml/nope/start", nil)
	f.With(t, "").Expect(http.StatusNotFound, "GET", "/v1/orgs/nope/saml/"+pr["id"].(string)+"/start", nil)

	svc := pr["service"].(map[string]any)
	res := f.With(t, "").Expect(http.StatusOK, "GET", u(svc["entityID"].(string)), nil)
	if ct := res.Header.Get("Content-Type"); ct != "application/samlmetadata+xml" {
		t.Errorf("metadata Content-Type %q", ct)
	}
	var md saml.EntityDescriptor
	if err := xml.Unmarshal(res.Body, &md); err != nil {
		t.Fatal(err)
	}
	if md.EntityID != svc["entityID"] || len(md.SPSSODescriptors) != 1 {
		t.Fatalf("metadata entityID %q, want %q", md.EntityID, svc["entityID"])
	}
	d := md.SPSSODescriptors[0]
	if len(d.AssertionConsumerServices) != 1 || d.AssertionConsumerServices[0].Location != svc["acsURL"] || d.AssertionConsumerServices[0].Binding != saml.HTTPPostBinding {
		t.Errorf("ACS endpoints %+v, want the acsURL with the POST binding", d.AssertionConsumerServices)
	}
	if len(d.KeyDescriptors) == 0 {
		t.Fatal("no key in the metadata")
	}
	der, _ := base64.StdEncoding.DecodeString(d.KeyDescriptors[0].KeyInfo.X509Data.X509Certificates[0].Data)
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.PublicKey.(*rsa.PublicKey); !ok {
		t.Errorf("service-provider key %T", c.PublicKey)
	}
	// The key pair is made once per installation: another process (a new
	// service on the same store) serves the same certificate.
	api := httpapi.New(httpapi.Config{Auth: users.New(f.Kit.Deps), Logger: f.Kit.Deps.Logger})
	ssohttp.Register(api, ssoroot.Service(app.NewRoot(f.Kit.Deps)))
	again := apitest.New(t, api).Expect(http.StatusOK, "GET", u(svc["entityID"].(string)), nil)
	if !strings.Contains(string(again.Body), d.KeyDescriptors[0].KeyInfo.X509Data.X509Certificates[0].Data) {
		t.Error("another process serves another certificate")
	}
}

func TestOrganizationSSOEnforcement(t *testing.T) {
	f := setup(t)
	p := newIdP(t, f)
	pr := p.provider(t, f, nil)
	response, acs := p.signIn(t, f, startURL(pr))
	tok := tokenOf(t, post(t, f, acs, response, http.StatusOK))
	uid := f.With(t, tok).Expect(http.StatusOK, "GET", "/v1/user", nil).Map(t)["id"].(string)
	plain, err := users.New(f.Kit.Deps).IssueToken(f.Kit.Ctx, uid, "")
	if err != nil {
		t.Fatal(err)
	}
	org := "/v1/orgs/" + f.Org.ID
	// Without enforcement, an SSO member may use any token.
	f.With(t, plain).Expect(http.StatusOK, "GET", org, nil)

	f.With(t, f.admin).Expect(http.StatusOK, "POST", org+"/members/"+f.Users["admin"].ID+"/sso", nil)
	f.With(t, f.admin).Expect(http.StatusOK, "PATCH", org, map[string]any{"sso": true})
	f.With(t, tok).Expect(http.StatusOK, "GET", org, nil)
	if body := f.With(t, plain).Expect(http.StatusForbidden, "GET", org, nil).Body; !strings.Contains(string(body), "identity provider") {
		t.Errorf("an SSO member's other token is refused with %s", body)
	}
	f.With(t, plain).Expect(http.StatusForbidden, "GET", org+"/members", nil)
	// Admins are exempt (the organization cannot lock itself out), and
	// members who are not SSO members keep their tokens.
	f.With(t, f.admin).Expect(http.StatusOK, "GET", org+"/saml", nil)
	f.With(t, f.reader).Expect(http.StatusOK, "GET", org+"/members", nil)

	// The last active provider stays while SSO is enforced.
	one := org + "/saml/" + pr["id"].(string)
	f.With(t, f.admin).Expect(http.StatusConflict, "DELETE", one, nil)
	second := p.provider(t, f, map[string]any{"label": "Second"})
	f.With(t, f.admin).Expect(http.StatusNoContent, "DELETE", one, nil)
	f.With(t, f.admin).Expect(http.StatusConflict, "DELETE", org+"/saml/"+second["id"].(string), nil)
	pendingOne := f.create(t, map[string]any{"label": "Pending"})
	f.With(t, f.admin).Expect(http.StatusNoContent, "DELETE", org+"/saml/"+pendingOne["id"].(string), nil)

	f.With(t, f.admin).Expect(http.StatusOK, "PATCH", org, map[string]any{"sso": false})
	f.With(t, plain).Expect(http.StatusOK, "GET", org, nil)
	f.With(t, f.admin).Expect(http.StatusNoContent, "DELETE", org+"/saml/"+second["id"].(string), nil)
}
