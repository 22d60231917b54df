package sso

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/fetch"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// OpenID Connect: Galley is a confidential client of the organization's
// provider and signs people in with the authorization-code flow, PKCE
// (S256), state and nonce. The JOSE and OAuth work (discovery, JWKS, the ID
// token's signature and claims, the token request) is github.com/coreos/
// go-oidc and golang.org/x/oauth2: verified key and token handling is not
// something to write by hand.

// Limits of OpenID Connect providers and sign-ins.
const (
	// MaxOIDCProviders is the most OpenID Connect providers an
	// organization has.
	MaxOIDCProviders = 20
	// maxScopes bounds a provider's scopes.
	maxScopes = 20
	// discoveryTimeout bounds each request to the provider (discovery,
	// keys, the code's exchange).
	discoveryTimeout = 10 * time.Second
	// sealClientSecret is the purpose of the key that seals client secrets.
	sealClientSecret = "oidc-client-secret"
	// sealSignIn is the purpose of the key that seals the sign-in cookie.
	sealSignIn = "oidc-sign-in"
)

// SignInCookie is the cookie that carries a started OpenID Connect
// sign-in (its state, nonce and PKCE verifier, sealed) from the start to
// the callback, in the browser that started it.
const SignInCookie = "galley_oidc"

// defaultScopes are asked for when a provider names none.
func defaultScopes() []string { return []string{"openid", "email", "profile"} }

// OIDCSettings are the fields of an OpenID Connect provider a request
// sets; nil leaves a field unchanged. ClearTeam and a DefaultRole of ""
// (guest) come from nulls; a claim set to "" goes back to its default.
type OIDCSettings struct {
	Label, Issuer, ClientID, ClientSecret *string
	Scopes                                *[]string
	EmailClaim, NameClaim, GroupsClaim    *string
	Landing
}

// OIDCURLs are Galley's URLs for one OpenID Connect provider.
type OIDCURLs struct {
	// Location is the provider's own URL (its settings).
	Location string
	// Start is where a sign-in starts.
	Start string
	// Callback is the redirect URI to register at the provider.
	Callback string
}

// OIDCProviderURLs returns a provider's URLs under apiURL, the public base
// URL of the API.
func OIDCProviderURLs(apiURL, orgID, providerID string) OIDCURLs {
	base := apiURL + "/v1/orgs/" + orgID + "/oidc/" + providerID
	return OIDCURLs{Location: base, Start: base + "/start", Callback: base + "/callback"}
}

// OIDCProviderView is a provider with its default team (nil when it has
// none or it was deleted) and the caller's role.
type OIDCProviderView struct {
	Provider model.OIDCProvider
	Team     *model.Team
	Viewer   model.Role
}

// Claims returns the claims a provider reads: email, name and groups.
func Claims(p model.OIDCProvider) (email, name, groups string) {
	or := func(v, def string) string {
		if v == "" {
			return def
		}
		return v
	}
	return or(p.EmailClaim, "email"), or(p.NameClaim, "name"), or(p.GroupsClaim, "groups")
}

// ScopesOf returns the scopes a provider asks for, openid first.
func ScopesOf(p model.OIDCProvider) []string {
	if len(p.Scopes) == 0 {
		return defaultScopes()
	}
	return p.Scopes
}

// checkIssuer requires an absolute http(s) URL without query or fragment.
func checkIssuer(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return apperr.Field("issuer", "must be an absolute http or https URL without query, fragment or credentials")
	}
	return nil
}

// checkOIDC validates the fields set and normalizes them in place.
func (s *Service) checkOIDC(ctx context.Context, orgID string, in *OIDCSettings) error {
	trim := func(field string, v **string, min, max int) error {
		if *v == nil {
			return nil
		}
		t := strings.TrimSpace(**v)
		if n := utf8.RuneCountInString(t); n < min || n > max {
			return apperr.Field(field, "must be %d to %d characters", min, max)
		}
		*v = &t
		return nil
	}
	for _, f := range []struct {
		name     string
		v        **string
		min, max int
	}{{"label", &in.Label, 1, 30}, {"issuer", &in.Issuer, 1, 2048}, {"clientId", &in.ClientID, 1, 256}, {"clientSecret", &in.ClientSecret, 1, 1024},
		{"emailClaim", &in.EmailClaim, 0, 100}, {"nameClaim", &in.NameClaim, 0, 100}, {"groupsClaim", &in.GroupsClaim, 0, 100}} {
		if err := trim(f.name, f.v, f.min, f.max); err != nil {
			return err
		}
	}
	// A claim or the scopes set to their default are stored as unset, so
	// that an answer sent back (read-modify-write) changes nothing.
	for _, c := range []struct {
		v   **string
		def string
	}{{&in.EmailClaim, "email"}, {&in.NameClaim, "name"}, {&in.GroupsClaim, "groups"}} {
		if *c.v != nil && **c.v == c.def {
			*c.v = new(string)
		}
	}
	if in.Issuer != nil {
		iss := strings.TrimSuffix(*in.Issuer, "/")
		if err := checkIssuer(iss); err != nil {
			return err
		}
		in.Issuer = &iss
	}
	if in.Scopes != nil {
		scopes := []string{"openid"}
		for i, sc := range *in.Scopes {
			if sc == "" || len(sc) > 64 || strings.ContainsFunc(sc, func(r rune) bool { return r <= ' ' || r > '~' || r == '"' || r == '\\' }) {
				return apperr.Field(fmt.Sprintf("scopes[%d]", i), "must be 1 to 64 printable ASCII characters without spaces, quotes or backslashes")
			}
			if !slices.Contains(scopes, sc) {
				scopes = append(scopes, sc)
			}
		}
		if len(scopes) > maxScopes {
			return apperr.Field("scopes", "at most %d scopes", maxScopes)
		}
		if slices.Equal(scopes, defaultScopes()) {
			scopes = nil
		}
		in.Scopes = &scopes
	}
	return s.checkLanding(ctx, orgID, in.Landing)
}

// applyOIDC sets the checked fields on p; the client secret is sealed.
func (s *Service) applyOIDC(ctx context.Context, p *model.OIDCProvider, in OIDCSettings) error {
	for _, f := range []struct{ dst, v *string }{{&p.Label, in.Label}, {&p.Issuer, in.Issuer}, {&p.ClientID, in.ClientID},
		{&p.EmailClaim, in.EmailClaim}, {&p.NameClaim, in.NameClaim}, {&p.GroupsClaim, in.GroupsClaim}} {
		records.Set(f.dst, f.v)
	}
	records.Set(&p.Scopes, in.Scopes)
	in.Landing.apply(&p.DefaultTeam, &p.DefaultRole, &p.GroupTeams)
	if in.ClientSecret == nil {
		return nil
	}
	// The same secret again leaves the sealed one (a new seal would make
	// every PATCH a change).
	if cur, err := s.clientSecret(ctx, *p); err == nil && cur == *in.ClientSecret {
		return nil
	}
	sealed, err := s.d.Secret.Seal(ctx, sealClientSecret, p.OrgID+"/"+p.ID, *in.ClientSecret)
	if err != nil {
		return fmt.Errorf("seal client secret: %w", err)
	}
	p.SealedClientSecret = sealed
	return nil
}

// clientSecret opens a provider's client secret.
func (s *Service) clientSecret(ctx context.Context, p model.OIDCProvider) (string, error) {
	if p.SealedClientSecret == "" {
		return "", errors.New("no client secret")
	}
	return s.d.Secret.Open(ctx, sealClientSecret, p.OrgID+"/"+p.ID, p.SealedClientSecret)
}

// oidcView adds a provider's default team.
func (s *Service) oidcView(ctx context.Context, p model.OIDCProvider, viewer model.Role) (OIDCProviderView, error) {
	t, err := s.defaultTeam(ctx, p.OrgID, p.DefaultTeam)
	return OIDCProviderView{Provider: p, Team: t, Viewer: viewer}, err
}

// oidcChange describes a change of provider p for the audit log.
func oidcChange(p model.OIDCProvider, action string) model.AuditChange {
	return model.AuditChange{OrgID: p.OrgID, Action: action, Target: model.AuditRef{Type: "oidc-provider", ID: p.ID, Label: p.Label},
		Payload: map[string]any{"label": p.Label, "issuer": p.Issuer}}
}

// CreateOIDC adds an OpenID Connect provider (admins). Label, issuer,
// client id and secret are required. Nothing is fetched from the issuer
// until the first sign-in.
func (s *Service) CreateOIDC(ctx context.Context, orgID string, in OIDCSettings) (OIDCProviderView, error) {
	acc, err := s.d.Authz.RequireOrg(ctx, orgID, access.AdminOrg)
	if err != nil {
		return OIDCProviderView{}, err
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"label", in.Label}, {"issuer", in.Issuer}, {"clientId", in.ClientID}, {"clientSecret", in.ClientSecret}} {
		if f.v == nil {
			return OIDCProviderView{}, apperr.Field(f.name, "is required")
		}
	}
	if err := s.checkOIDC(ctx, orgID, &in); err != nil {
		return OIDCProviderView{}, err
	}
	now := s.d.Clock()
	p := model.OIDCProvider{ID: ids.New(now), OrgID: orgID, CreatedAt: now, UpdatedAt: now}
	if err := s.applyOIDC(ctx, &p, in); err != nil {
		return OIDCProviderView{}, err
	}
	err = orgs.AddRecord(ctx, s.d.Store, orgID, keys.OIDCProviderPrefix, MaxOIDCProviders, "OpenID Connect providers", keys.OIDCProvider(orgID, p.ID), p,
		s.audit.Op(ctx, oidcChange(p, model.AuditOIDCCreated)))
	if errors.Is(err, store.ErrConflict) {
		return OIDCProviderView{}, apperr.NotFoundf("organization %s not found", orgID)
	}
	if err != nil {
		return OIDCProviderView{}, err
	}
	return s.oidcView(ctx, p, acc.Role())
}

// ListOIDC returns a page of an organization's OpenID Connect providers,
// oldest first (admins).
func (s *Service) ListOIDC(ctx context.Context, orgID string, r paging.Request) (paging.Page[OIDCProviderView], error) {
	return listProviders(ctx, s, oidcKind(), orgID, r, s.oidcView)
}

// GetOIDC returns a provider (admins).
func (s *Service) GetOIDC(ctx context.Context, orgID, id string) (OIDCProviderView, error) {
	return getView(ctx, s, oidcKind(), orgID, id, s.oidcView)
}

// UpdateOIDC changes a provider's settings (admins).
func (s *Service) UpdateOIDC(ctx context.Context, orgID, id string, in OIDCSettings) (OIDCProviderView, error) {
	acc, _, _, err := oidcKind().adminRead(ctx, s, orgID, id)
	if err != nil {
		return OIDCProviderView{}, err
	}
	if err := s.checkOIDC(ctx, orgID, &in); err != nil {
		return OIDCProviderView{}, err
	}
	p, err := oidcKind().update(ctx, s, orgID, id, func(p *model.OIDCProvider) error { return s.applyOIDC(ctx, p, in) },
		func(p *model.OIDCProvider) model.AuditChange {
			p.UpdatedAt = s.d.Clock()
			return oidcChange(*p, model.AuditOIDCUpdated)
		})
	if err != nil {
		return OIDCProviderView{}, err
	}
	return s.oidcView(ctx, p, acc.Role())
}

// DeleteOIDC removes a provider (admins).
func (s *Service) DeleteOIDC(ctx context.Context, orgID, id string) error {
	_, p, v, err := oidcKind().adminRead(ctx, s, orgID, id)
	if err != nil {
		return err
	}
	k := keys.OIDCProvider(orgID, id)
	err = s.d.Store.Write(ctx, store.DeleteIfVersion(k.PK, k.SK, v), s.audit.Op(ctx, oidcChange(p, model.AuditOIDCDeleted)))
	if errors.Is(err, store.ErrConflict) {
		return apperr.Conflictf("OpenID Connect provider %s changed while it was being deleted; try again", id)
	}
	if err != nil {
		return fmt.Errorf("delete OpenID Connect provider: %w", err)
	}
	return nil
}

// oidcLogins lists an organization's OpenID Connect providers for its
// sign-in page (every one is complete: its fields are required).
func (s *Service) oidcLogins(ctx context.Context, orgID string) ([]Login, error) {
	items, err := store.QueryAll(ctx, s.d.Store, store.Query{PK: keys.OrgPartition(orgID), SKPrefix: keys.OIDCProviderPrefix})
	if err != nil {
		return nil, fmt.Errorf("read OpenID Connect providers: %w", err)
	}
	out := make([]Login, 0, len(items))
	for _, it := range items {
		p, err := records.Decode[model.OIDCProvider](it)
		if err != nil {
			return nil, err
		}
		out = append(out, Login{ID: p.ID, Label: p.Label, Protocol: "oidc"})
	}
	return out, nil
}

// discover returns the provider's discovery document and keys, fetched on
// first use through the guarded fetcher (shared/fetch: public addresses
// only, unless FETCH_ALLOW_PRIVATE) and kept for the process's life; the
// key set refreshes itself when a token names a key it does not know.
func (s *Service) discover(ctx context.Context, issuer string) (*oidc.Provider, error) {
	s.oidcMu.Lock()
	defer s.oidcMu.Unlock()
	if p, ok := s.oidcProviders[issuer]; ok {
		return p, nil
	}
	p, err := oidc.NewProvider(oidc.ClientContext(ctx, s.oidcHTTP().HTTP()), issuer)
	if err != nil {
		return nil, err
	}
	if s.oidcProviders == nil {
		s.oidcProviders = map[string]*oidc.Provider{}
	}
	s.oidcProviders[issuer] = p
	return p, nil
}

// oidcHTTP is the guarded client of every request to a provider.
func (s *Service) oidcHTTP() *fetch.Client {
	return fetch.NewWithTimeout(s.d.FetchAllowPrivate, discoveryTimeout)
}

// oauthConfig is Galley's OAuth 2.0 client at provider p.
func (s *Service) oauthConfig(ctx context.Context, apiURL string, p model.OIDCProvider, op *oidc.Provider) (*oauth2.Config, error) {
	secret, err := s.clientSecret(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("OpenID Connect provider %s: client secret: %w", p.ID, err)
	}
	return &oauth2.Config{ClientID: p.ClientID, ClientSecret: secret, Endpoint: op.Endpoint(),
		RedirectURL: OIDCProviderURLs(apiURL, p.OrgID, p.ID).Callback, Scopes: ScopesOf(p)}, nil
}

// flight is a started sign-in, sealed in the browser's cookie.
type flight struct {
	State    string    `json:"s"`
	Nonce    string    `json:"n"`
	Verifier string    `json:"v"`
	Expires  time.Time `json:"e"`
}

func randomString() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("sso: crypto/rand failed: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// flightAD binds a sealed sign-in to its provider.
func flightAD(orgID, providerID string) string { return orgID + "/" + providerID }

// StartOIDC begins a sign-in: the provider's authorization URL (code flow,
// PKCE S256, state, nonce) and the sealed cookie value that the callback
// needs back. Nothing is written: the start needs no token.
func (s *Service) StartOIDC(ctx context.Context, apiURL, orgID, providerID string) (authURL, cookie string, err error) {
	p, _, err := oidcKind().read(ctx, s.d.Store, orgID, providerID)
	if err != nil {
		return "", "", err
	}
	op, err := s.discover(ctx, p.Issuer)
	if err != nil {
		s.d.Logger.WarnContext(ctx, "oidc discovery failed", "org", orgID, "provider", providerID, "issuer", p.Issuer, "err", err.Error())
		return "", "", apperr.New(apperr.Conflict, "OpenID Connect provider %s: its issuer's discovery failed: %v", providerID, err)
	}
	cfg, err := s.oauthConfig(ctx, apiURL, p, op)
	if err != nil {
		return "", "", err
	}
	f := flight{State: randomString(), Nonce: randomString(), Verifier: oauth2.GenerateVerifier(), Expires: s.d.Clock().Add(RequestLifetime).UTC()}
	raw, err := json.Marshal(f)
	if err != nil {
		return "", "", err
	}
	sealed, err := s.d.Secret.Seal(ctx, sealSignIn, flightAD(orgID, providerID), string(raw))
	if err != nil {
		return "", "", fmt.Errorf("seal sign-in: %w", err)
	}
	return cfg.AuthCodeURL(f.State, oidc.Nonce(f.Nonce), oauth2.S256ChallengeOption(f.Verifier)), sealed, nil
}

// Callback is what the provider's redirect brings back (the query) and the
// browser's sign-in cookie.
type Callback struct {
	Code, State, Error, ErrorDescription string
	Cookie                               string
}

// oidcVia is an OpenID Connect provider as a sign-in needs it.
func oidcVia(p model.OIDCProvider) via {
	return via{orgID: p.OrgID, id: p.ID, label: p.Label, kind: "oidc-provider", defaultRole: p.DefaultRole, defaultTeam: p.DefaultTeam, groupTeams: p.GroupTeams}
}

// CallbackOIDC finishes a sign-in: the state must be the one sealed in
// this browser's cookie, for this provider, unexpired and never used; the
// code is exchanged with the PKCE verifier; the ID token's signature,
// issuer, audience, expiry and nonce are verified; then the person the
// claims name signs in as with SAML. A refusal is Unauthorized, logged with
// its reason and audited as a failed sign-in.
func (s *Service) CallbackOIDC(ctx context.Context, apiURL, orgID, providerID string, cb Callback) (SignIn, error) {
	p, _, err := oidcKind().read(ctx, s.d.Store, orgID, providerID)
	if err != nil {
		return SignIn{}, err
	}
	refuse := func(format string, args ...any) error {
		reason := fmt.Sprintf(format, args...)
		s.d.Logger.WarnContext(ctx, "oidc sign-in refused", "org", orgID, "provider", providerID, "reason", reason)
		s.recordSignIn(ctx, oidcVia(p), model.AuditSignInFailed, "", map[string]any{"reason": reason})
		return refused("%s", reason)
	}
	if cb.Error != "" {
		return SignIn{}, refuse("the identity provider answered %q: %.200s", cb.Error, cb.ErrorDescription)
	}
	if cb.State == "" {
		return SignIn{}, apperr.Field("state", "is required (the identity provider sends it back)")
	}
	if cb.Code == "" {
		return SignIn{}, apperr.Field("code", "is required (the identity provider sends it)")
	}
	f, err := s.openFlight(ctx, orgID, providerID, cb.Cookie)
	if err != nil {
		return SignIn{}, refuse("%v", err)
	}
	if subtle.ConstantTimeCompare([]byte(f.State), []byte(cb.State)) != 1 {
		return SignIn{}, refuse("its state is not the one this browser's sign-in started with")
	}
	if !s.d.Clock().Before(f.Expires) {
		return SignIn{}, refuse("its sign-in expired: start again")
	}
	// One use: the state is marked before the code is exchanged, so that
	// a replayed callback fails here whatever the provider does.
	if err := s.markStateUsed(ctx, p, f); errors.Is(err, store.ErrConflict) {
		return SignIn{}, refuse("its state was already used to sign in (replayed)")
	} else if err != nil {
		return SignIn{}, err
	}
	s.prune(ctx, orgID, s.d.Clock())
	op, err := s.discover(ctx, p.Issuer)
	if err != nil {
		return SignIn{}, refuse("its issuer's discovery failed: %v", err)
	}
	cfg, err := s.oauthConfig(ctx, apiURL, p, op)
	if err != nil {
		return SignIn{}, err
	}
	hc := oidc.ClientContext(ctx, s.oidcHTTP().HTTP())
	tok, err := cfg.Exchange(hc, cb.Code, oauth2.VerifierOption(f.Verifier))
	if err != nil {
		return SignIn{}, refuse("the code's exchange failed: %v", exchangeError(err))
	}
	rawID, _ := tok.Extra("id_token").(string)
	if rawID == "" {
		return SignIn{}, refuse("the token response holds no ID token")
	}
	idt, err := op.Verifier(&oidc.Config{ClientID: p.ClientID, Now: s.d.Clock}).Verify(hc, rawID)
	if err != nil {
		return SignIn{}, refuse("the ID token: %v", err)
	}
	if idt.Nonce == "" {
		return SignIn{}, refuse("the ID token has no nonce")
	}
	if subtle.ConstantTimeCompare([]byte(idt.Nonce), []byte(f.Nonce)) != 1 {
		return SignIn{}, refuse("the ID token's nonce is not this sign-in's")
	}
	var claims map[string]any
	if err := idt.Claims(&claims); err != nil {
		return SignIn{}, refuse("the ID token's claims: %v", err)
	}
	id, err := MapClaims(p, claims)
	if err != nil {
		return SignIn{}, refuse("%v", err)
	}
	return s.admit(ctx, oidcVia(p), id.Email, id.Name, id.Groups)
}

// exchangeError keeps of a failed exchange the provider's error code and
// description (oauth2.RetrieveError), never the response's body as such.
func exchangeError(err error) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) && re.ErrorCode != "" {
		return fmt.Errorf("%s: %.200s", re.ErrorCode, re.ErrorDescription)
	}
	return err
}

// openFlight opens the sign-in sealed in the browser's cookie.
func (s *Service) openFlight(ctx context.Context, orgID, providerID, cookie string) (flight, error) {
	var f flight
	if cookie == "" {
		return f, errors.New("this browser started no sign-in here (its " + SignInCookie + " cookie is missing)")
	}
	raw, err := s.d.Secret.Open(ctx, sealSignIn, flightAD(orgID, providerID), cookie)
	if err != nil {
		return f, errors.New("this browser's sign-in cookie is not one Galley sealed for this provider")
	}
	if err := json.Unmarshal([]byte(raw), &f); err != nil || f.State == "" || f.Nonce == "" || f.Verifier == "" {
		return f, errors.New("this browser's sign-in cookie is incomplete")
	}
	return f, nil
}

// markStateUsed records a sign-in's state as used (put if not exists,
// beside SAML's used ids): a second callback with it fails with
// store.ErrConflict.
func (s *Service) markStateUsed(ctx context.Context, p model.OIDCProvider, f flight) error {
	sum := sha256.Sum256([]byte(f.State))
	id := hex.EncodeToString(sum[:16])
	exp := f.Expires.Add(usedMargin)
	rec := model.SAMLUsed{OrgID: p.OrgID, ProviderID: p.ID, Kind: model.SAMLUsedOIDCState, ID: id, ExpiresAt: exp}
	err := s.d.Store.Write(ctx, store.Put(records.Item(keys.SAMLUsed(p.OrgID, stamp(exp), model.SAMLUsedOIDCState, id), rec, 1), store.IfNotExists))
	if err != nil {
		return fmt.Errorf("record used OpenID Connect state: %w", err)
	}
	return nil
}

// Identity is who an ID token's claims name.
type Identity struct {
	Email, Name string
	Groups      []string
}

// MapClaims reads a person from an ID token's claims with the provider's
// claim names: an email address (required; refused when the provider
// says it is not verified), a display name (else given and family name,
// else the address's local part), and groups (a list of strings, or one
// string).
func MapClaims(p model.OIDCProvider, claims map[string]any) (Identity, error) {
	emailClaim, nameClaim, groupsClaim := Claims(p)
	str := func(name string) string {
		v, _ := claims[name].(string)
		return strings.TrimSpace(v)
	}
	email := ids.NormalizeEmail(str(emailClaim))
	if addr, err := mail.ParseAddress(email); err != nil || addr.Address != email {
		return Identity{}, fmt.Errorf("the ID token's %q claim is no email address", emailClaim)
	}
	if v, ok := claims["email_verified"].(bool); ok && !v && emailClaim == "email" {
		return Identity{}, errors.New("the identity provider says the email address is not verified (email_verified: false)")
	}
	name := str(nameClaim)
	if name == "" {
		name = strings.TrimSpace(str("given_name") + " " + str("family_name"))
	}
	if name == "" {
		name, _, _ = strings.Cut(email, "@")
	}
	if r := []rune(name); len(r) > 100 {
		name = string(r[:100])
	}
	var groups []string
	switch g := claims[groupsClaim].(type) {
	case string:
		if g != "" {
			groups = []string{g}
		}
	case []any:
		for _, v := range g {
			if s, ok := v.(string); ok && s != "" {
				groups = append(groups, s)
			}
		}
	}
	return Identity{Email: email, Name: name, Groups: groups}, nil
}
