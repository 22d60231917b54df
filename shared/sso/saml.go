package sso

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/pem"
	"encoding/xml"
	"errors"
	"fmt"
	"math/big"
	"net/mail"
	"net/url"
	"strings"
	"time"

	"github.com/crewjam/saml"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// Limits and lifetimes of the login.
// SAMLSignInCookie is the cookie that ties a started SAML sign-in to the
// browser that started it (browserBinding), for the ACS's path only.
const SAMLSignInCookie = "galley_saml"

const (
	// RequestLifetime is how long a sign-in may take between its start
	// (the AuthnRequest) and the identity provider's answer.
	RequestLifetime = 10 * time.Minute
	// usedMargin keeps used ids past their expiry by the clock skew the
	// library allows, so that nothing it still accepts is forgotten.
	usedMargin = 5 * time.Minute
	// pruneBatch is the most expired used ids one sign-in deletes.
	pruneBatch = 25
	// signatureMethod signs the AuthnRequests (RSA-SHA256).
	signatureMethod = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"
)

// stampLayout is the fixed-width UTC form of expiries in sort keys.
const stampLayout = "2006-01-02T15:04:05.000Z"

func stamp(t time.Time) string { return t.UTC().Format(stampLayout) }

// spIdentity is the installation's service-provider key pair and the
// secret of its request ids, decoded.
type spIdentity struct {
	key    *rsa.PrivateKey
	cert   *x509.Certificate
	secret []byte
}

// identity returns the installation's SAML identity, made and stored on
// first use (put if not exists: of two processes making it at once, both
// end up with the stored one).
func (s *Service) identity(ctx context.Context) (*spIdentity, error) {
	s.spMu.Lock()
	defer s.spMu.Unlock()
	if s.sp != nil {
		return s.sp, nil
	}
	err := store.Retry(ctx, func() error {
		rec, _, err := records.Get[model.SAMLServiceProvider](ctx, s.d.Store, keys.SAMLServiceProvider())
		if errors.Is(err, store.ErrNotFound) {
			if rec, err = newIdentity(s.d.Clock()); err != nil {
				return err
			}
			// A conflict: another process made it meanwhile; read theirs.
			if err := s.d.Store.Write(ctx, store.Put(records.Item(keys.SAMLServiceProvider(), rec, 1), store.IfNotExists)); err != nil {
				return fmt.Errorf("store SAML service-provider key: %w", err)
			}
		} else if err != nil {
			return fmt.Errorf("read SAML service-provider key: %w", err)
		}
		id, err := decodeIdentity(rec)
		if err == nil {
			s.sp = id
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.sp, nil
}

// newIdentity makes an RSA key, a self-signed certificate for it (identity
// providers only pin it; its dates matter little) and a request secret.
func newIdentity(now time.Time) (model.SAMLServiceProvider, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return model.SAMLServiceProvider{}, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return model.SAMLServiceProvider{}, err
	}
	tpl := &x509.Certificate{SerialNumber: serial, Subject: pkix.Name{CommonName: "Galley SAML service provider"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.AddDate(20, 0, 0),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment}
	der, err := x509.CreateCertificate(rand.Reader, tpl, tpl, &key.PublicKey, key)
	if err != nil {
		return model.SAMLServiceProvider{}, err
	}
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return model.SAMLServiceProvider{}, err
	}
	return model.SAMLServiceProvider{
		KeyPEM:         string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})),
		CertificatePEM: string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
		RequestSecret:  secret,
	}, nil
}

func decodeIdentity(rec model.SAMLServiceProvider) (*spIdentity, error) {
	kb, _ := pem.Decode([]byte(rec.KeyPEM))
	cb, _ := pem.Decode([]byte(rec.CertificatePEM))
	if kb == nil || cb == nil || len(rec.RequestSecret) == 0 {
		return nil, errors.New("SAML service-provider key: stored record is incomplete")
	}
	key, err := x509.ParsePKCS1PrivateKey(kb.Bytes)
	if err != nil {
		return nil, fmt.Errorf("SAML service-provider key: %w", err)
	}
	cert, err := x509.ParseCertificate(cb.Bytes)
	if err != nil {
		return nil, fmt.Errorf("SAML service-provider certificate: %w", err)
	}
	return &spIdentity{key: key, cert: cert, secret: rec.RequestSecret}, nil
}

// serviceProvider is Galley's service provider for one identity provider,
// at its URLs under apiURL (the public API URL of the request being served).
func (s *Service) serviceProvider(ctx context.Context, apiURL string, p model.SAMLProvider) (*saml.ServiceProvider, error) {
	id, err := s.identity(ctx)
	if err != nil {
		return nil, err
	}
	urls := URLs(apiURL, p.OrgID, p.ID)
	acs, err := url.Parse(urls.ACS)
	if err != nil {
		return nil, fmt.Errorf("ACS URL: %w", err)
	}
	meta, err := url.Parse(urls.EntityID)
	if err != nil {
		return nil, fmt.Errorf("metadata URL: %w", err)
	}
	sp := &saml.ServiceProvider{EntityID: urls.EntityID, Key: id.key, Certificate: id.cert, MetadataURL: *meta, AcsURL: *acs,
		AuthnNameIDFormat: saml.EmailAddressNameIDFormat, SignatureMethod: signatureMethod}
	if p.Active() {
		block, _ := pem.Decode([]byte(p.Certificate))
		if block == nil {
			return nil, fmt.Errorf("SAML provider %s: stored certificate is not PEM", p.ID)
		}
		sp.IDPMetadata = &saml.EntityDescriptor{EntityID: p.EntityID, IDPSSODescriptors: []saml.IDPSSODescriptor{{
			SSODescriptor: saml.SSODescriptor{RoleDescriptor: saml.RoleDescriptor{
				ProtocolSupportEnumeration: "urn:oasis:names:tc:SAML:2.0:protocol",
				KeyDescriptors: []saml.KeyDescriptor{{Use: "signing", KeyInfo: saml.KeyInfo{X509Data: saml.X509Data{
					X509Certificates: []saml.X509Certificate{{Data: base64.StdEncoding.EncodeToString(block.Bytes)}}}}}},
			}},
			SingleSignOnServices: []saml.Endpoint{{Binding: saml.HTTPRedirectBinding, Location: p.SSOURL}},
		}}}
	}
	return sp, nil
}

// requestID makes the id of an AuthnRequest: its expiry and a nonce, with
// a MAC binding them to the provider, so that the answer can be checked
// without storing anything at the start (which anyone may call); and the
// value of SAMLSignInCookie for the browser that starts it (browserBinding).
func requestID(secret []byte, orgID, providerID string, expires time.Time) (id, binding string) {
	var body [8 + 16]byte
	binary.BigEndian.PutUint64(body[:8], uint64(expires.UnixMilli()))
	if _, err := rand.Read(body[8:]); err != nil {
		panic("sso: crypto/rand failed: " + err.Error())
	}
	b := hex.EncodeToString(body[:])
	return "id-" + b + "-" + hex.EncodeToString(requestMAC(secret, orgID, providerID, b)), browserBinding(secret, orgID, providerID, b)
}

func requestMAC(secret []byte, orgID, providerID, body string) []byte {
	m := hmac.New(sha256.New, secret)
	fmt.Fprintf(m, "galley-saml-request\x00%s\x00%s\x00%s", orgID, providerID, body)
	return m.Sum(nil)[:16]
}

// browserBinding is the value of SAMLSignInCookie for a request: a MAC of
// its id's body under another label, which only the browser that started
// the sign-in is given. A response is taken only from a browser that has
// it, so that nobody can have someone else's browser post a response they
// obtained for themselves (login CSRF: the victim would be signed in as
// the attacker, and shown the attacker's token).
func browserBinding(secret []byte, orgID, providerID, body string) string {
	m := hmac.New(sha256.New, secret)
	fmt.Fprintf(m, "galley-saml-browser\x00%s\x00%s\x00%s", orgID, providerID, body)
	return hex.EncodeToString(m.Sum(nil)[:16])
}

// checkRequestID returns the expiry of a request id made for this
// provider, or an error when it was not made here, has expired, or was
// started in another browser than the one whose SAMLSignInCookie is
// cookie.
func checkRequestID(secret []byte, orgID, providerID, id, cookie string, now time.Time) (time.Time, error) {
	bad := errors.New("it answers no sign-in started here")
	rest, ok := strings.CutPrefix(id, "id-")
	if !ok {
		return time.Time{}, bad
	}
	body, mac, ok := strings.Cut(rest, "-")
	raw, err1 := hex.DecodeString(body)
	sum, err2 := hex.DecodeString(mac)
	if !ok || err1 != nil || err2 != nil || len(raw) != 24 || !hmac.Equal(sum, requestMAC(secret, orgID, providerID, body)) {
		return time.Time{}, bad
	}
	expires := time.UnixMilli(int64(binary.BigEndian.Uint64(raw[:8]))).UTC()
	if !now.Before(expires) {
		return time.Time{}, errors.New("its sign-in expired: start again")
	}
	switch {
	case cookie == "":
		return time.Time{}, errors.New("this browser started no sign-in here (its " + SAMLSignInCookie +
			" cookie is missing: a sign-in ends in the browser that started it, and needs HTTPS when the identity provider is on another site)")
	case !hmac.Equal([]byte(cookie), []byte(browserBinding(secret, orgID, providerID, body))):
		return time.Time{}, errors.New("it answers a sign-in started in another browser, or an earlier one in this browser: start again")
	}
	return expires, nil
}

// activeProvider reads a provider that can sign people in.
func (s *Service) activeProvider(ctx context.Context, orgID, providerID string) (model.SAMLProvider, error) {
	p, _, err := samlKind().read(ctx, s.d.Store, orgID, providerID)
	if err != nil {
		return p, err
	}
	if !p.Active() {
		return p, apperr.Conflictf("SAML provider %s is pending: an admin must set its ssoURL, entityID and certificate", providerID)
	}
	return p, nil
}

// Start begins a sign-in: the URL of the identity provider with a signed
// AuthnRequest (HTTP-Redirect binding), to send the browser to, and the
// value of SAMLSignInCookie the browser must keep until it posts the
// answer (ACS). apiURL is the public API URL, under which Galley's
// service-provider URLs are.
func (s *Service) Start(ctx context.Context, apiURL, orgID, providerID string) (string, string, error) {
	p, err := s.activeProvider(ctx, orgID, providerID)
	if err != nil {
		return "", "", err
	}
	sp, err := s.serviceProvider(ctx, apiURL, p)
	if err != nil {
		return "", "", err
	}
	id, err := s.identity(ctx)
	if err != nil {
		return "", "", err
	}
	req, err := sp.MakeAuthenticationRequest(p.SSOURL, saml.HTTPRedirectBinding, saml.HTTPPostBinding)
	if err != nil {
		return "", "", fmt.Errorf("make AuthnRequest: %w", err)
	}
	var binding string
	req.ID, binding = requestID(id.secret, orgID, providerID, s.d.Clock().Add(RequestLifetime))
	u, err := req.Redirect("", sp)
	if err != nil {
		return "", "", fmt.Errorf("encode AuthnRequest: %w", err)
	}
	return u.String(), binding, nil
}

// Metadata is Galley's service-provider metadata for a provider (XML),
// with its URLs under apiURL, the public API URL.
func (s *Service) Metadata(ctx context.Context, apiURL, orgID, providerID string) ([]byte, error) {
	p, _, err := samlKind().read(ctx, s.d.Store, orgID, providerID)
	if err != nil {
		return nil, err
	}
	sp, err := s.serviceProvider(ctx, apiURL, p)
	if err != nil {
		return nil, err
	}
	md := sp.Metadata()
	// Only the POST binding is served; the library also lists artifact.
	for i := range md.SPSSODescriptors {
		acs := md.SPSSODescriptors[i].AssertionConsumerServices[:0]
		for _, e := range md.SPSSODescriptors[i].AssertionConsumerServices {
			if e.Binding == saml.HTTPPostBinding {
				acs = append(acs, e)
			}
		}
		md.SPSSODescriptors[i].AssertionConsumerServices = acs
		// The encryption algorithms Galley decrypts (xmlenc.go), current
		// ones first, so an identity provider picks one of them.
		for j, kd := range md.SPSSODescriptors[i].KeyDescriptors {
			if kd.Use != "encryption" {
				continue
			}
			ems := make([]saml.EncryptionMethod, len(encryptionAlgorithms))
			for k, a := range encryptionAlgorithms {
				ems[k] = saml.EncryptionMethod{Algorithm: a}
			}
			md.SPSSODescriptors[i].KeyDescriptors[j].EncryptionMethods = ems
		}
	}
	out, err := xml.MarshalIndent(md, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode metadata: %w", err)
	}
	return append([]byte(xml.Header), out...), nil
}

// SignIn is the result of a sign-in: who signed in, where, and their new
// token (its secret, shown once).
type SignIn struct {
	User       model.User
	Member     model.Member
	Org        model.Organization
	ProviderID string
	Token      string
	// Joined tells a member made by this sign-in.
	Joined bool
}

// refused is the error of a response that does not sign anyone in.
func refused(format string, args ...any) error {
	return apperr.New(apperr.Unauthorized, "the identity provider's response was refused: "+format, args...)
}

// ACS consumes the identity provider's response (the SAMLResponse form
// field, base64): it must answer a request started here for this provider
// and not used before, be signed with the provider's certificate, name
// Galley's entity as audience and this ACS as recipient and destination,
// and be within its time bounds, and come from the browser that started
// the sign-in (cookie: its SAMLSignInCookie). The user with the asserted
// email address (made when none has it) becomes an SSO member and gets a
// token. apiURL is the public API URL, under which the ACS and Galley's
// entity ID are.
func (s *Service) ACS(ctx context.Context, apiURL, orgID, providerID, samlResponse, cookie string) (SignIn, error) {
	p, err := s.activeProvider(ctx, orgID, providerID)
	if err != nil {
		return SignIn{}, err
	}
	if samlResponse == "" {
		return SignIn{}, apperr.Field("SAMLResponse", "is required (the identity provider posts it)")
	}
	raw, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(samlResponse), ""))
	if err != nil {
		return SignIn{}, apperr.Field("SAMLResponse", "is not base64")
	}
	id, err := s.identity(ctx)
	if err != nil {
		return SignIn{}, err
	}
	// The request id comes from the (not yet verified) response; it is
	// unforgeable, and the library then checks that the signed response
	// and assertion answer exactly it.
	var head struct {
		InResponseTo string `xml:"InResponseTo,attr"`
	}
	if err := xml.Unmarshal(raw, &head); err != nil {
		return SignIn{}, apperr.Field("SAMLResponse", "is not a SAML response")
	}
	// A refusal's reason goes to the log too (the library's reason, never
	// the response's content), for whoever sets the provider up.
	refuse := func(err error) error {
		s.d.Logger.WarnContext(ctx, "saml sign-in refused", "org", orgID, "provider", providerID, "reason", err.Error())
		s.recordSignIn(ctx, samlVia(p), model.AuditSignInFailed, "", map[string]any{"reason": err.Error()})
		return refused("%v", err)
	}
	expires, err := checkRequestID(id.secret, orgID, providerID, head.InResponseTo, cookie, s.d.Clock())
	if err != nil {
		return SignIn{}, refuse(err)
	}
	sp, err := s.serviceProvider(ctx, apiURL, p)
	if err != nil {
		return SignIn{}, err
	}
	if p.AllowRSA15KeyTransport {
		sp.Key = rsa15Key{id.key} // xmlenc.go: RSA PKCS#1 v1.5 unwraps for this sign-in only
	}
	assertion, err := parse(sp, raw, head.InResponseTo)
	if err != nil {
		return SignIn{}, refuse(err)
	}
	email, name, err := subject(assertion)
	if err != nil {
		return SignIn{}, refuse(err)
	}
	now := s.d.Clock()
	if err := s.markUsed(ctx, p, head.InResponseTo, expires, assertion); err != nil {
		if apperr.Is(err, apperr.Unauthorized) {
			s.recordSignIn(ctx, samlVia(p), model.AuditSignInFailed, "", map[string]any{"reason": "replayed"})
		}
		return SignIn{}, err
	}
	s.prune(ctx, orgID, now)

	return s.admit(ctx, samlVia(p), email, name, attributeValues(assertion, groupsAttribute(p)))
}

// parse verifies a response with the library, turning its panics on
// malformed input (an assertion without conditions or subject) into a
// refusal, and requiring what it leaves optional: an audience restriction
// and a bearer subject confirmation (whose recipient it checks).
func parse(sp *saml.ServiceProvider, raw []byte, requestID string) (a *saml.Assertion, err error) {
	defer func() {
		if r := recover(); r != nil {
			a, err = nil, errors.New("malformed assertion")
		}
	}()
	a, err = sp.ParseXMLResponse(raw, []string{requestID}, sp.AcsURL)
	if err != nil {
		var ire *saml.InvalidResponseError
		if errors.As(err, &ire) && ire.PrivateErr != nil {
			return nil, ire.PrivateErr
		}
		return nil, err
	}
	if a.Conditions == nil || len(a.Conditions.AudienceRestrictions) == 0 {
		return nil, errors.New("the assertion has no audience restriction")
	}
	if a.Subject == nil || len(a.Subject.SubjectConfirmations) == 0 {
		return nil, errors.New("the assertion has no subject confirmation")
	}
	return a, nil
}

// emailAttributes are the attribute names that carry an email address:
// LDAP's mail (eduPerson, Shibboleth, ADFS), PKCS #9's emailAddress (what
// Keycloak's predefined "X500 email" mapper sends), and plain names.
func emailAttributes() []string {
	return []string{"urn:oid:0.9.2342.19200300.100.1.3", "urn:oid:1.2.840.113549.1.9.1", "email", "mail", "emailaddress",
		"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress"}
}

// nameAttributes are the attribute names that carry a display name.
func nameAttributes() []string {
	return []string{"urn:oid:2.16.840.1.113730.3.1.241", "displayName", "name", "urn:oid:2.5.4.3", "cn",
		"http://schemas.microsoft.com/identity/claims/displayname", "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name"}
}

func attribute(a *saml.Assertion, names []string) string {
	for _, want := range names {
		for _, st := range a.AttributeStatements {
			for _, at := range st.Attributes {
				if (strings.EqualFold(at.Name, want) || strings.EqualFold(at.FriendlyName, want)) && len(at.Values) > 0 {
					if v := strings.TrimSpace(at.Values[0].Value); v != "" {
						return v
					}
				}
			}
		}
	}
	return ""
}

// groupsAttribute is the attribute naming a provider's groups.
func groupsAttribute(p model.SAMLProvider) string {
	if p.GroupsAttribute != "" {
		return p.GroupsAttribute
	}
	return "groups"
}

// attributeValues is every value of the attribute name (or friendly name)
// in the assertion: a person's groups.
func attributeValues(a *saml.Assertion, name string) []string {
	var out []string
	for _, st := range a.AttributeStatements {
		for _, at := range st.Attributes {
			if at.Name != name && at.FriendlyName != name {
				continue
			}
			for _, v := range at.Values {
				if v := strings.TrimSpace(v.Value); v != "" {
					out = append(out, v)
				}
			}
		}
	}
	return out
}

// samlVia is a SAML provider as a sign-in needs it.
func samlVia(p model.SAMLProvider) via {
	return via{orgID: p.OrgID, id: p.ID, label: p.Label, kind: "saml-provider", defaultRole: p.DefaultRole, defaultTeam: p.DefaultTeam, groupTeams: p.GroupTeams}
}

// subject reads the signed-in person's email address (the NameID when it
// is one, else an email attribute) and a display name.
func subject(a *saml.Assertion) (email, name string, err error) {
	if a.Subject.NameID != nil {
		if addr, err := mail.ParseAddress(a.Subject.NameID.Value); err == nil && addr.Address == strings.TrimSpace(a.Subject.NameID.Value) {
			email = addr.Address
		}
	}
	if email == "" {
		email = attribute(a, emailAttributes())
	}
	email = ids.NormalizeEmail(email)
	if addr, err := mail.ParseAddress(email); err != nil || addr.Address != email {
		return "", "", errors.New("the assertion names no email address (NameID or an email attribute)")
	}
	name = attribute(a, nameAttributes())
	if name == "" {
		given, sur := attribute(a, []string{"urn:oid:2.5.4.42", "givenName", "firstName"}), attribute(a, []string{"urn:oid:2.5.4.4", "sn", "surname", "lastName"})
		name = strings.TrimSpace(given + " " + sur)
	}
	if name == "" {
		name, _, _ = strings.Cut(email, "@")
	}
	if r := []rune(name); len(r) > 100 {
		name = string(r[:100])
	}
	return email, name, nil
}

// markUsed records the request id and the assertion id as used, both or
// neither: a response (or an assertion) presented twice is refused.
func (s *Service) markUsed(ctx context.Context, p model.SAMLProvider, requestID string, requestExpires time.Time, a *saml.Assertion) error {
	assertionExpires := a.Conditions.NotOnOrAfter
	if assertionExpires.IsZero() {
		assertionExpires = requestExpires
	}
	item := func(kind, id string, exp time.Time) store.Op {
		exp = exp.Add(usedMargin)
		rec := model.SAMLUsed{OrgID: p.OrgID, ProviderID: p.ID, Kind: kind, ID: id, ExpiresAt: exp.UTC()}
		return store.Put(records.Item(keys.SAMLUsed(p.OrgID, stamp(exp), kind, id), rec, 1), store.IfNotExists)
	}
	err := s.d.Store.Write(ctx, item(model.SAMLUsedRequest, requestID, requestExpires), item(model.SAMLUsedAssertion, a.ID, assertionExpires))
	if errors.Is(err, store.ErrConflict) {
		return refused("it was already used to sign in")
	}
	if err != nil {
		return fmt.Errorf("record used SAML ids: %w", err)
	}
	return nil
}

// prune deletes a few used ids past their expiry, oldest first. It is
// housekeeping: a failure is logged, never the sign-in's.
func (s *Service) prune(ctx context.Context, orgID string, now time.Time) {
	page, err := s.d.Store.Query(ctx, store.Query{PK: keys.SAMLUsedPartition(orgID), Limit: pruneBatch})
	if err != nil {
		s.d.Logger.WarnContext(ctx, "prune used SAML ids", "err", err.Error())
		return
	}
	cut := stamp(now)
	var ops []store.Op
	for _, it := range page.Items {
		if it.SK >= cut {
			break
		}
		ops = append(ops, store.Delete(it.PK, it.SK, store.Always))
	}
	if len(ops) == 0 {
		return
	}
	if err := s.d.Store.Write(ctx, ops...); err != nil {
		s.d.Logger.WarnContext(ctx, "prune used SAML ids", "err", err.Error())
	}
}
