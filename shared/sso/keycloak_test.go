package sso_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"html"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/beevik/etree"
	"github.com/crewjam/saml"

	"github.com/galleydocs/galley/shared/sso"
	"github.com/galleydocs/galley/shared/testenv"
	"github.com/galleydocs/galley/shared/testkit"
)

// syncBuffer collects the service's log lines, written by the server's
// goroutines.
type syncBuffer = testenv.SyncBuffer

// web is a browser-less HTTP client: a cookie jar (a fresh one is a new
// browser), no automatic redirects, JSON and form helpers.
type web struct {
	t *testing.T
	c *http.Client
}

func newWeb(t *testing.T) *web {
	jar, _ := cookiejar.New(nil)
	return &web{t: t, c: &http.Client{Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// do sends a request and checks the status; body is JSON (any), or a
// url.Values (a form), or a string with its content type in headers.
func (w *web) do(want int, method, target, token string, body any, headers ...string) (*http.Response, []byte) {
	w.t.Helper()
	var r io.Reader
	ct := ""
	switch b := body.(type) {
	case nil:
	case url.Values:
		r, ct = strings.NewReader(b.Encode()), "application/x-www-form-urlencoded"
	case string:
		r = strings.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			w.t.Fatal(err)
		}
		r, ct = bytes.NewReader(j), "application/json"
	}
	req, err := http.NewRequest(method, target, r)
	if err != nil {
		w.t.Fatal(err)
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := w.c.Do(req)
	if err != nil {
		w.t.Fatalf("%s %s: %v", method, target, err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	if want != 0 && res.StatusCode != want {
		w.t.Fatalf("%s %s: %d, want %d: %.2000s", method, target, res.StatusCode, want, out)
	}
	return res, out
}

func (w *web) json(want int, method, target, token string, body any) map[string]any {
	w.t.Helper()
	_, out := w.do(want, method, target, token, body)
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		w.t.Fatalf("%s %s: not a JSON object: %.500s", method, target, out)
	}
	return m
}

// keycloakAdmin calls Keycloak's admin REST API as the bootstrap admin.
type keycloakAdmin struct {
	w     *web
	kc    *testenv.Keycloak
	token string
	until time.Time
}

func (a *keycloakAdmin) bearer() string {
	a.w.t.Helper()
	// The master realm's access tokens live a minute.
	if time.Now().Before(a.until) {
		return a.token
	}
	m := a.w.json(http.StatusOK, "POST", a.kc.Endpoint+"/realms/master/protocol/openid-connect/token", "", url.Values{
		"grant_type": {"password"}, "client_id": {"admin-cli"}, "username": {a.kc.AdminUser}, "password": {a.kc.AdminPassword}})
	a.token, a.until = m["access_token"].(string), time.Now().Add(30*time.Second)
	return a.token
}

func (a *keycloakAdmin) do(want int, method, path string, body any) []byte {
	a.w.t.Helper()
	_, out := a.w.do(want, method, a.kc.Endpoint+"/admin"+path, a.bearer(), body)
	return out
}

var (
	htmlForm  = regexp.MustCompile(`(?is)<form\b[^>]*>`)
	htmlAttr  = regexp.MustCompile(`(?is)\b(action|name|value|id)\s*=\s*"([^"]*)"`)
	htmlInput = regexp.MustCompile(`(?is)<input\b[^>]*>`)
)

func attrs(tag string) map[string]string {
	m := map[string]string{}
	for _, a := range htmlAttr.FindAllStringSubmatch(tag, -1) {
		m[strings.ToLower(a[1])] = html.UnescapeString(a[2])
	}
	return m
}

// keycloakSignIn opens Keycloak's sign-in page at loc in browser b
// (following Keycloak's redirects within itself), posts its form with the
// username and password, and returns Keycloak's answer to it.
func keycloakSignIn(t *testing.T, b *web, loc, username, password string) (*http.Response, []byte) {
	t.Helper()
	var res *http.Response
	var page []byte
	for range 5 {
		res, page = b.do(0, "GET", loc, "", nil)
		if res.StatusCode != http.StatusFound && res.StatusCode != http.StatusSeeOther {
			break
		}
		next, _ := res.Request.URL.Parse(res.Header.Get("Location"))
		loc = next.String()
	}
	if res.StatusCode != http.StatusOK {
		t.Fatalf("Keycloak's sign-in page: %d %.2000s", res.StatusCode, page)
	}
	login := ""
	for _, f := range htmlForm.FindAllString(string(page), -1) {
		if a := attrs(f); a["id"] == "kc-form-login" || strings.Contains(a["action"], "login-actions/authenticate") {
			login = a["action"]
		}
	}
	if login == "" {
		t.Fatalf("no sign-in form in Keycloak's page: %.3000s", page)
	}
	return b.do(0, "POST", login, "", url.Values{"username": {username}, "password": {password}, "credentialId": {""}})
}

// keycloakLogin signs in through Keycloak as a person in a new browser
// does: Galley's start URL redirects to Keycloak's sign-in page, whose form
// takes the username and password; Keycloak answers a page whose form
// posts the SAMLResponse to Galley. It returns that form's action and
// fields, without posting them.
func keycloakLogin(t *testing.T, galleyStart, username, password string) (browser *web, action string, form url.Values) {
	t.Helper()
	b := newWeb(t)
	res, _ := b.do(http.StatusFound, "GET", galleyStart, "", nil)
	loc := res.Header.Get("Location")
	q, err := url.Parse(loc)
	if err != nil || q.Query().Get("SAMLRequest") == "" || q.Query().Get("Signature") == "" {
		t.Fatalf("Galley's start redirects to %q, want Keycloak with a signed SAMLRequest", loc)
	}
	res, page := keycloakSignIn(t, b, loc, username, password)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("Keycloak's answer to the sign-in form: %d %.2000s", res.StatusCode, page)
	}
	forms := htmlForm.FindAllString(string(page), -1)
	if len(forms) != 1 {
		t.Fatalf("Keycloak's answer holds %d forms, want the SAML POST binding's: %.3000s", len(forms), page)
	}
	action, form = attrs(forms[0])["action"], url.Values{}
	for _, in := range htmlInput.FindAllString(string(page), -1) {
		if a := attrs(in); a["name"] != "" {
			form.Set(a["name"], a["value"])
		}
	}
	if form.Get("SAMLResponse") == "" {
		t.Fatalf("no SAMLResponse in Keycloak's answer: %.3000s", page)
	}
	return b, action, form
}

// TestKeycloakSignIn signs in through a real identity provider, Keycloak
// (infra/keycloak/install.sh), set up through its admin REST API as a
// customer would: a realm, a SAML client imported from Galley's metadata
// with Keycloak's default encryption settings, a user in a group; Galley's
// provider is configured from Keycloak's IdP metadata through Galley's
// API. Then browser-less sign-ins: Galley's start, Keycloak's form, the
// auto-posted SAMLResponse to Galley's ACS; last, with the key wrapped by
// rsa-oaep-mgf1p and SHA-256 (accepted) and by rsa-1_5 (refused, then
// accepted once the provider allows it), on the same Keycloak.
//
// The OpenID Connect sign-in runs on the same Keycloak (one start per
// package run): oidc_keycloak_test.go.
func TestKeycloakSignIn(t *testing.T) {
	kc := testenv.KeycloakFor(t)
	t.Run("SAML", func(t *testing.T) { keycloakSAML(t, kc) })
	t.Run("OIDC", func(t *testing.T) { keycloakOIDC(t, kc) })
}

func keycloakSAML(t *testing.T, kc *testenv.Keycloak) {
	started := time.Now()
	defer func() {
		t.Logf("Keycloak start %s, test after start %s", kc.Started.Round(100*time.Millisecond), time.Since(started).Round(100*time.Millisecond))
	}()

	// Galley, served over HTTP: Keycloak's page posts to its ACS, and its
	// URLs (entity ID, ACS) are under this server's address.
	logs := &syncBuffer{}
	k := testkit.New(t, testkit.Clock(time.Now(), time.Millisecond))
	k.Deps.Logger = slog.New(slog.NewTextHandler(logs, nil))
	f := setupOn(t, k)
	srv := httptest.NewServer(f.API.API.Handler())
	t.Cleanup(srv.Close)
	g := newWeb(t)
	api := srv.URL
	orgURL := api + "/v1/orgs/" + f.Org.ID

	// Galley's side first: a pending provider, whose metadata Keycloak imports.
	pr := g.json(http.StatusCreated, "POST", orgURL+"/saml", f.admin, map[string]any{"label": "Keycloak"})
	svc := pr["service"].(map[string]any)
	_, spMetadata := g.do(http.StatusOK, "GET", svc["entityID"].(string), "", nil)

	// Keycloak: a realm, a group, a user in it.
	const realm = "galley"
	admin := &keycloakAdmin{w: newWeb(t), kc: kc}
	admin.do(http.StatusCreated, "POST", "/realms", map[string]any{"realm": realm, "enabled": true})
	admin.do(http.StatusCreated, "POST", "/realms/"+realm+"/groups", map[string]any{"name": "Engineers"})
	const username, password, email = "ada", "correct horse battery", "ada@analytical.example"
	admin.do(http.StatusCreated, "POST", "/realms/"+realm+"/users", map[string]any{
		"username": username, "email": email, "emailVerified": true, "firstName": "Ada", "lastName": "Lovelace", "enabled": true,
		"groups":      []string{"/Engineers"},
		"credentials": []map[string]any{{"type": "password", "value": password, "temporary": false}}})

	// The SAML client, from Galley's metadata through Keycloak's converter,
	// created as converted: Keycloak's defaults (encryption included).
	var client map[string]any
	if err := json.Unmarshal(admin.do(http.StatusOK, "POST", "/realms/"+realm+"/client-description-converter", string(spMetadata)), &client); err != nil {
		t.Fatal(err)
	}
	if client["clientId"] != svc["entityID"] || client["protocol"] != "saml" {
		t.Fatalf("Keycloak reads Galley's metadata as client %v (%v), want the SAML client %v", client["clientId"], client["protocol"], svc["entityID"])
	}
	ca, _ := client["attributes"].(map[string]any)
	if ca["saml.encrypt"] != "true" {
		t.Errorf("Keycloak does not encrypt assertions to Galley's metadata: attributes %v", ca)
	}
	settings := map[string]any{}
	for k, v := range ca {
		if !strings.HasSuffix(k, ".certificate") {
			settings[k] = v
		}
	}
	t.Logf("Keycloak's client from Galley's metadata: %v", settings)
	// The attributes a customer adds with Keycloak's predefined mappers
	// ("X500 email", "X500 givenName", "X500 surname") and the group list.
	mapper := func(name, property, attr, friendly string) map[string]any {
		return map[string]any{"name": name, "protocol": "saml", "protocolMapper": "saml-user-property-mapper",
			"config": map[string]any{"user.attribute": property, "attribute.name": attr, "friendly.name": friendly,
				"attribute.nameformat": "URI Reference"}}
	}
	client["protocolMappers"] = []map[string]any{
		// The email by the OID of Keycloak's "X500 email" preset, without
		// its friendly name, as a mapper made by hand may be.
		mapper("email", "email", "urn:oid:1.2.840.113549.1.9.1", ""),
		mapper("X500 givenName", "firstName", "urn:oid:2.5.4.42", "givenName"),
		mapper("X500 surname", "lastName", "urn:oid:2.5.4.4", "surname"),
		{"name": "groups", "protocol": "saml", "protocolMapper": "saml-group-membership-mapper",
			"config": map[string]any{"attribute.name": "groups", "full.path": "false", "single": "false", "attribute.nameformat": "Basic"}},
	}
	admin.do(http.StatusCreated, "POST", "/realms/"+realm+"/clients", client)

	// Galley's provider, from Keycloak's IdP metadata.
	_, idpMetadata := admin.w.do(http.StatusOK, "GET", kc.Endpoint+"/realms/"+realm+"/protocol/saml/descriptor", "", nil)
	var md saml.EntityDescriptor
	if err := xml.Unmarshal(idpMetadata, &md); err != nil || len(md.IDPSSODescriptors) != 1 {
		t.Fatalf("Keycloak's IdP metadata: %v %.1000s", err, idpMetadata)
	}
	d := md.IDPSSODescriptors[0]
	cert, ssoURL := "", ""
	for _, kd := range d.KeyDescriptors {
		if (kd.Use == "signing" || kd.Use == "") && len(kd.KeyInfo.X509Data.X509Certificates) > 0 {
			cert = kd.KeyInfo.X509Data.X509Certificates[0].Data
		}
	}
	for _, e := range d.SingleSignOnServices {
		if e.Binding == saml.HTTPRedirectBinding {
			ssoURL = e.Location
		}
	}
	pr = g.json(http.StatusOK, "PATCH", orgURL+"/saml/"+pr["id"].(string), f.admin, map[string]any{
		"entityID": md.EntityID, "certificate": cert, "ssoURL": ssoURL, "defaultTeam": f.team, "defaultRole": "edit"})
	if pr["status"] != "active" {
		t.Fatalf("the provider is %v after Keycloak's metadata", pr["status"])
	}

	// Sign in.
	b, action, form := keycloakLogin(t, svc["startURL"].(string), username, password)
	if action != svc["acsURL"] {
		t.Errorf("Keycloak posts to %q, want Galley's ACS %q", action, svc["acsURL"])
	}
	raw, err := base64.StdEncoding.DecodeString(form.Get("SAMLResponse"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte("EncryptedAssertion")) {
		t.Errorf("Keycloak's response holds no EncryptedAssertion: its default encryption is not on")
	}
	// Keycloak's defaults: AES-256-GCM, the key wrapped with XML
	// Encryption 1.1's RSA-OAEP.
	resp, algorithm := samlResponse(t, raw)
	data, key := algorithm("//EncryptedAssertion/EncryptedData/EncryptionMethod"), algorithm("//EncryptedAssertion//EncryptedKey/EncryptionMethod")
	digest, mgf := algorithm("//EncryptedAssertion//EncryptedKey/EncryptionMethod/DigestMethod"), algorithm("//EncryptedAssertion//EncryptedKey/EncryptionMethod/MGF")
	t.Logf("Keycloak encrypts with %s, the key with %s (digest %q, MGF %q)", data, key, digest, mgf)
	if data != "http://www.w3.org/2009/xmlenc11#aes256-gcm" || key != "http://www.w3.org/2009/xmlenc11#rsa-oaep" || digest != "http://www.w3.org/2001/04/xmlenc#sha256" {
		t.Errorf("Keycloak encrypts with %q, the key with %q (digest %q); want its defaults AES-256-GCM and RSA-OAEP (XML Encryption 1.1) with SHA-256", data, key, digest)
	}
	if s := resp.FindElement("/Response/Signature"); s == nil {
		t.Errorf("Keycloak's response is not signed")
	}
	// Posted from another browser (login CSRF), the response is refused:
	// only the browser that started the sign-in has its cookie.
	if _, body := g.do(http.StatusUnauthorized, "POST", action, "", form); !strings.Contains(string(body), "cookie is missing") {
		t.Errorf("Keycloak's response posted from another browser: %s", body)
	}
	acsURL, _ := url.Parse(action)
	bound := b.c.Jar.Cookies(acsURL)
	if len(bound) != 1 || bound[0].Name != sso.SAMLSignInCookie {
		t.Fatalf("the browser holds %v for the ACS, want the start's %s cookie", bound, sso.SAMLSignInCookie)
	}
	_, page := b.do(http.StatusOK, "POST", action, "", form)
	tok := tokenOf(t, page)
	if left := b.c.Jar.Cookies(acsURL); len(left) != 0 {
		t.Errorf("the sign-in left %v in the browser, want its cookie cleared", left)
	}

	me := g.json(http.StatusOK, "GET", api+"/v1/user", tok, nil)
	if me["email"] != email || me["displayName"] != "Ada Lovelace" {
		t.Errorf("the signed-in user: email %v, displayName %v; want %s, Ada Lovelace", me["email"], me["displayName"], email)
	}
	uid := me["id"].(string)
	m := g.json(http.StatusOK, "GET", orgURL+"/members/"+uid, f.admin, nil)
	if m["sso"] != true || m["role"] != "edit" {
		t.Errorf("the member: sso %v, role %v; want true, the provider's defaultRole edit", m["sso"], m["role"])
	}
	teams := g.json(http.StatusOK, "GET", orgURL+"/members/"+uid+"/teams", f.admin, nil)["items"].([]any)
	if len(teams) != 1 || teams[0].(map[string]any)["team"].(map[string]any)["id"] != f.team {
		t.Errorf("the member's teams %v, want the provider's defaultTeam", teams)
	}
	// The token works, in this organization only.
	g.do(http.StatusOK, "GET", orgURL, tok, nil)
	g.do(http.StatusNotFound, "GET", api+"/v1/orgs/"+f.Other.ID, tok, nil)
	if items := g.json(http.StatusOK, "GET", api+"/v1/orgs", tok, nil)["items"].([]any); len(items) != 1 {
		t.Errorf("the token lists %d organizations, want its own", len(items))
	}

	// The same response again is refused, even with the sign-in's cookie.
	if _, body := b.do(http.StatusUnauthorized, "POST", action, "", form, "Cookie", bound[0].String()); !strings.Contains(string(body), "already used") {
		t.Errorf("a replayed response: %s", body)
	}

	// The last name changes in Keycloak; the next sign-in (another
	// browser) brings it to Galley.
	var users []map[string]any
	if err := json.Unmarshal(admin.do(http.StatusOK, "GET", "/realms/"+realm+"/users?exact=true&username="+username, nil), &users); err != nil || len(users) != 1 {
		t.Fatalf("Keycloak's user: %v %v", err, users)
	}
	users[0]["lastName"] = "Byron"
	admin.do(http.StatusNoContent, "PUT", "/realms/"+realm+"/users/"+users[0]["id"].(string), users[0])
	b, action, form = keycloakLogin(t, svc["startURL"].(string), username, password)
	_, page = b.do(http.StatusOK, "POST", action, "", form)
	me = g.json(http.StatusOK, "GET", api+"/v1/user", tokenOf(t, page), nil)
	if me["id"] != uid || me["displayName"] != "Ada Byron" {
		t.Errorf("after the change: user %v, displayName %v; want %s, Ada Byron", me["id"], me["displayName"], uid)
	}

	// With a NameID that is no address (Keycloak's persistent one, forced
	// on the client), Galley finds the person by the email attribute.
	var clients []map[string]any
	if err := json.Unmarshal(admin.do(http.StatusOK, "GET", "/realms/"+realm+"/clients?clientId="+url.QueryEscape(svc["entityID"].(string)), nil), &clients); err != nil || len(clients) != 1 {
		t.Fatalf("Keycloak's client: %v %v", err, clients)
	}
	c := clients[0]
	c["attributes"].(map[string]any)["saml_force_name_id_format"] = "true"
	c["attributes"].(map[string]any)["saml_name_id_format"] = "persistent"
	admin.do(http.StatusNoContent, "PUT", "/realms/"+realm+"/clients/"+c["id"].(string), c)
	b, action, form = keycloakLogin(t, svc["startURL"].(string), username, password)
	_, page = b.do(http.StatusOK, "POST", action, "", form)
	if me = g.json(http.StatusOK, "GET", api+"/v1/user", tokenOf(t, page), nil); me["id"] != uid || me["email"] != email {
		t.Errorf("signed in with a persistent NameID as %v (%v), want %s (%s)", me["id"], me["email"], uid, email)
	}

	// A tampered response is refused, for its signature, and the log says
	// why without any of the response's content.
	b, action, form = keycloakLogin(t, svc["startURL"].(string), username, password)
	doc := etree.NewDocument()
	raw, _ = base64.StdEncoding.DecodeString(form.Get("SAMLResponse"))
	if err := doc.ReadFromBytes(raw); err != nil {
		t.Fatal(err)
	}
	cv := doc.FindElement("//EncryptedAssertion/EncryptedData/CipherData/CipherValue")
	if cv == nil {
		t.Fatalf("no EncryptedAssertion's CipherValue in %s", raw)
	}
	ct, _ := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(cv.Text()), ""))
	secretPart := base64.StdEncoding.EncodeToString(ct[20:40])
	ct[len(ct)/2] ^= 0x01
	cv.SetText(base64.StdEncoding.EncodeToString(ct))
	tampered, err := doc.WriteToBytes()
	if err != nil {
		t.Fatal(err)
	}
	bad := url.Values{"SAMLResponse": {base64.StdEncoding.EncodeToString(tampered)}, "RelayState": {form.Get("RelayState")}}
	before := len(logs.String())
	_, body := b.do(http.StatusUnauthorized, "POST", action, "", bad)
	logged := logs.String()[before:]
	t.Logf("tampered response: %s; logged: %s", body, logged)
	if !strings.Contains(logged, "saml sign-in refused") || !strings.Contains(logged, "reason=") {
		t.Errorf("the refusal is not logged with its reason: %q", logged)
	}
	for _, secret := range []string{secretPart, form.Get("SAMLResponse")[:60], email, password, "Lovelace", "Byron"} {
		if strings.Contains(logged, secret) || strings.Contains(string(body), secret) {
			t.Errorf("the refusal's log or answer holds the response's content %q", secret)
		}
	}
	// The same response, untampered, was good.
	b.do(http.StatusOK, "POST", action, "", form)

	// Other key transports, chosen on Keycloak's client (its "Key
	// encryption algorithm", "Digest method" and "Mask generation function"
	// settings), on the same Keycloak.
	setEncryption := func(t *testing.T, keyAlgorithm, digest, mgf string) {
		t.Helper()
		var clients []map[string]any
		if err := json.Unmarshal(admin.do(http.StatusOK, "GET", "/realms/"+realm+"/clients?clientId="+url.QueryEscape(svc["entityID"].(string)), nil), &clients); err != nil || len(clients) != 1 {
			t.Fatalf("Keycloak's client: %v %v", err, clients)
		}
		c := clients[0]
		attrs := c["attributes"].(map[string]any)
		attrs["saml.encryption.algorithm"] = "http://www.w3.org/2009/xmlenc11#aes256-gcm"
		attrs["saml.encryption.keyAlgorithm"] = keyAlgorithm
		attrs["saml.encryption.digestMethod"] = digest
		attrs["saml.encryption.maskGenerationFunction"] = mgf
		admin.do(http.StatusNoContent, "PUT", "/realms/"+realm+"/clients/"+c["id"].(string), c)
	}
	// keyTransport signs in at Keycloak and reads how it wrapped the key.
	keyTransport := func(t *testing.T) (action string, form url.Values, key, digest, mgf string) {
		t.Helper()
		b, action, form = keycloakLogin(t, svc["startURL"].(string), username, password)
		raw, _ := base64.StdEncoding.DecodeString(form.Get("SAMLResponse"))
		_, alg := samlResponse(t, raw)
		const em = "//EncryptedAssertion//EncryptedKey/EncryptionMethod"
		key, digest, mgf = alg(em), alg(em+"/DigestMethod"), alg(em+"/MGF")
		t.Logf("Keycloak wraps the key with %s (digest %q, MGF %q)", key, digest, mgf)
		return action, form, key, digest, mgf
	}
	t.Run("rsa-oaep-mgf1p with SHA-256 signs in", func(t *testing.T) {
		setEncryption(t, "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p", "http://www.w3.org/2001/04/xmlenc#sha256", "")
		action, form, key, digest, mgf := keyTransport(t)
		if key != "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p" || digest != "http://www.w3.org/2001/04/xmlenc#sha256" ||
			(mgf != "" && mgf != "http://www.w3.org/2009/xmlenc11#mgf1sha1") {
			t.Errorf("Keycloak wraps the key with %q (digest %q, MGF %q); want rsa-oaep-mgf1p, SHA-256, MGF1 with SHA-1", key, digest, mgf)
		}
		_, page := b.do(http.StatusOK, "POST", action, "", form)
		if me := g.json(http.StatusOK, "GET", api+"/v1/user", tokenOf(t, page), nil); me["id"] != uid {
			t.Errorf("signed in as %v, want %s", me["id"], uid)
		}
	})
	t.Run("rsa-1_5 is refused, then allowed for the provider", func(t *testing.T) {
		setEncryption(t, "http://www.w3.org/2001/04/xmlenc#rsa-1_5", "", "")
		action, form, key, _, _ := keyTransport(t)
		if key != "http://www.w3.org/2001/04/xmlenc#rsa-1_5" {
			t.Fatalf("Keycloak wraps the key with %q, want rsa-1_5", key)
		}
		_, body := b.do(http.StatusUnauthorized, "POST", action, "", form)
		t.Logf("refused: %s", body)
		for _, want := range []string{"http://www.w3.org/2001/04/xmlenc#rsa-1_5", "allowRSA15KeyTransport"} {
			if !strings.Contains(string(body), want) {
				t.Errorf("the refusal does not name %q: %s", want, body)
			}
		}
		g.json(http.StatusOK, "PATCH", orgURL+"/saml/"+pr["id"].(string), f.admin, map[string]any{"allowRSA15KeyTransport": true})
		action, form, _, _, _ = keyTransport(t)
		_, page := b.do(http.StatusOK, "POST", action, "", form)
		if me := g.json(http.StatusOK, "GET", api+"/v1/user", tokenOf(t, page), nil); me["id"] != uid {
			t.Errorf("signed in as %v, want %s", me["id"], uid)
		}
	})
}

// samlResponse parses a SAML response; algorithm is the Algorithm
// attribute of the element at path ("" when there is none).
func samlResponse(t *testing.T, raw []byte) (doc *etree.Document, algorithm func(path string) string) {
	t.Helper()
	doc = etree.NewDocument()
	if err := doc.ReadFromBytes(raw); err != nil {
		t.Fatal(err)
	}
	return doc, func(path string) string {
		if el := doc.FindElement(path); el != nil {
			return el.SelectAttrValue("Algorithm", "")
		}
		return ""
	}
}
