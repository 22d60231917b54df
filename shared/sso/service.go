// Package sso is single sign-on for organizations: their SAML identity
// providers (settings), the login info of GET /sso, and Galley's side of
// the SAML login (a service provider built on github.com/crewjam/saml).
// docs/sso.md tells the whole story; in short:
//
//   - Providers live in their organization's partition. Only organization
//     admins read and change them (they are security settings); members and
//     anyone signing in see GET /sso, which needs no token and names only
//     active providers with their start URLs. Outsiders get 404.
//   - A provider is active once ssoURL, entityID and certificate are set;
//     before that it is pending and signs nobody in. Those three may change
//     but not be removed. defaultTeam and defaultRole may be null.
//   - The login (saml.go) verifies the identity provider's response and
//     issues an API token scoped to the organization; package ssohttp
//     answers the assertion consumer service with a page showing it once.
//   - The service knows no HTTP: the SAML URLs (ACS, entity ID) are built
//     on the public API URL, which the HTTP layer passes in.
package sso

import (
	"context"
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// MaxProviders is the most SAML providers an organization has (GET /sso
// lists them all, unpaged).
const MaxProviders = 20

// Service manages SAML providers and signs people in through them.
type Service struct {
	d     *deps.Deps
	users Users
	orgs  Orgs
	audit Recorder

	// sp caches the installation's service-provider key pair, read (or
	// made) once per process on first use: not at start, so that building
	// the API (e.g. for its OpenAPI document) needs no store.
	spMu sync.Mutex
	sp   *spIdentity

	// oidcProviders caches OpenID Connect discovery by issuer (oidc.go),
	// fetched on a provider's first sign-in.
	oidcMu        sync.Mutex
	oidcProviders map[string]*oidc.Provider
}

// Users is what SSO asks of the users family (users.Service): the user an
// assertion names, and their token.
type Users interface {
	FindOrProvision(ctx context.Context, email, displayName string) (model.User, error)
	IssueToken(ctx context.Context, userID, orgID string) (string, error)
}

// Orgs is what SSO asks of the organizations family (orgs.Service): the
// membership an SSO login gives.
type Orgs interface {
	JoinWithSSO(ctx context.Context, orgID, userID string, role model.Role, teamID string) (model.Member, bool, error)
	SyncSSOTeams(ctx context.Context, orgID, userID string, t orgs.SSOTeams) (joined, left []string, err error)
}

// Recorder records the changes of SAML providers and the sign-ins in the
// organization's audit log (package audit; the process's root gives it).
// Op is the event's write for the change's own transaction; Record writes
// it alone (a sign-in, accepted or refused: docs/audit.md).
type Recorder interface {
	Op(ctx context.Context, ch model.AuditChange) store.Op
	Record(ctx context.Context, ch model.AuditChange) error
}

// New returns the SSO service; rec records its changes and sign-ins.
func New(d *deps.Deps, users Users, orgs Orgs, rec Recorder) *Service {
	return &Service{d: d, users: users, orgs: orgs, audit: rec}
}

// providerChange describes a change of provider p for the audit log.
func providerChange(p model.SAMLProvider, action string) model.AuditChange {
	return model.AuditChange{OrgID: p.OrgID, Action: action, Target: model.AuditRef{Type: "saml-provider", ID: p.ID, Label: p.Label},
		Payload: map[string]any{"label": p.Label}}
}

// Settings are the fields of a provider a request sets; nil leaves a field
// unchanged. ClearTeam and a non-nil DefaultRole of "" (guest) come from
// nulls.
type Settings struct {
	Label, EntityID, Certificate, SSOURL *string
	Landing
	// AllowRSA15KeyTransport accepts assertions whose key is wrapped with
	// RSA PKCS#1 v1.5 (xmlenc.go), for an identity provider that cannot use
	// RSA-OAEP.
	AllowRSA15KeyTransport *bool
	// GroupsAttribute names the assertion's attribute of groups ("" for
	// the default, groups).
	GroupsAttribute *string
}

// Landing is where a provider's sign-ins land, as a request sets it: the
// default team and role, the group mapping (GroupTeams replaces it). nil
// leaves a field unchanged; ClearTeam and a DefaultRole of "" (guest) come
// from nulls.
type Landing struct {
	DefaultTeam *string
	ClearTeam   bool
	DefaultRole *model.Role
	GroupTeams  *[]model.GroupTeam
}

// apply sets the fields set on a provider's.
func (l Landing) apply(team *string, role *model.Role, gts *[]model.GroupTeam) {
	records.Set(team, l.DefaultTeam)
	if l.ClearTeam {
		*team = ""
	}
	records.Set(role, l.DefaultRole)
	records.Set(gts, l.GroupTeams)
}

// ServiceURLs are Galley's service-provider URLs for one identity
// provider. The SAML exchange names them (the ACS is the recipient of the
// assertions, the metadata URL is Galley's entity ID), so identity providers
// are configured with them: they are part of the provider, not only routes.
type ServiceURLs struct {
	// Location is the provider's own URL (its settings).
	Location string
	// ACS is the assertion consumer service (HTTP-POST binding).
	ACS string
	// Start is where a sign-in starts.
	Start string
	// EntityID is Galley's entity ID for the provider: its metadata's URL.
	EntityID string
}

// URLs returns a provider's service-provider URLs under apiURL, the public
// base URL of the API the request came to (the service does not know it:
// the HTTP layer passes it).
func URLs(apiURL, orgID, providerID string) ServiceURLs {
	base := apiURL + "/v1/orgs/" + orgID + "/saml/" + providerID
	return ServiceURLs{Location: base, ACS: base + "/acs", Start: base + "/start", EntityID: base + "/metadata"}
}

// ProviderView is a provider with what its answer shows: its default team
// (nil when it has none, or when that team was deleted since) and the
// caller's role (the team's permissions).
type ProviderView struct {
	Provider model.SAMLProvider
	Team     *model.Team
	Viewer   model.Role
}

// normalizeCertificate checks that cert is one X.509 certificate, in PEM or
// as bare base64 (as identity providers' metadata gives it), with an RSA or
// ECDSA key, and returns it as PEM.
func normalizeCertificate(cert string) (string, error) {
	bad := func(format string, args ...any) error { return apperr.Field("certificate", format, args...) }
	raw := strings.TrimSpace(cert)
	var der []byte
	if strings.HasPrefix(raw, "-----BEGIN") {
		block, rest := pem.Decode([]byte(raw))
		if block == nil {
			return "", bad("not a PEM block")
		}
		if block.Type != "CERTIFICATE" {
			return "", bad("a PEM %q block, not a CERTIFICATE", block.Type)
		}
		if strings.TrimSpace(string(rest)) != "" {
			return "", bad("give one certificate, the identity provider's signing certificate")
		}
		der = block.Bytes
	} else {
		b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(raw), ""))
		if err != nil || len(b) == 0 {
			return "", bad("not a PEM certificate (-----BEGIN CERTIFICATE-----)")
		}
		der = b
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		return "", bad("not an X.509 certificate: %v", err)
	}
	switch c.PublicKey.(type) {
	case *rsa.PublicKey, *ecdsa.PublicKey:
	default:
		return "", bad("its key is %T; SAML signatures need an RSA or ECDSA key", c.PublicKey)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Raw})), nil
}

// checkSSOURL requires an absolute http or https URL.
func checkSSOURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return apperr.Field("ssoURL", "must be an absolute http or https URL")
	}
	return nil
}

// check validates the fields set and normalizes them in place.
func (s *Service) check(ctx context.Context, orgID string, in *Settings) error {
	if in.Label != nil {
		l := strings.TrimSpace(*in.Label)
		if n := utf8.RuneCountInString(l); n < 1 || n > 30 {
			return apperr.Field("label", "must be 1 to 30 characters")
		}
		in.Label = &l
	}
	if in.EntityID != nil {
		e := strings.TrimSpace(*in.EntityID)
		if e == "" || len(e) > 1024 {
			return apperr.Field("entityID", "must be 1 to 1024 characters")
		}
		in.EntityID = &e
	}
	if in.Certificate != nil {
		c, err := normalizeCertificate(*in.Certificate)
		if err != nil {
			return err
		}
		in.Certificate = &c
	}
	if in.SSOURL != nil {
		if err := checkSSOURL(*in.SSOURL); err != nil {
			return err
		}
	}
	if in.GroupsAttribute != nil {
		g := strings.TrimSpace(*in.GroupsAttribute)
		if len(g) > 256 {
			return apperr.Field("groupsAttribute", "at most 256 characters")
		}
		if g == "groups" {
			g = "" // the default, stored as unset
		}
		in.GroupsAttribute = &g
	}
	return s.checkLanding(ctx, orgID, in.Landing)
}

// checkLanding validates where a provider's sign-ins land: the default
// role and team and the group mapping, those set.
func (s *Service) checkLanding(ctx context.Context, orgID string, l Landing) error {
	if l.DefaultRole != nil && !l.DefaultRole.Valid() {
		return apperr.Field("defaultRole", "unknown role %q", *l.DefaultRole)
	}
	if l.DefaultTeam != nil {
		_, _, err := orgs.ReadTeam(ctx, s.d.Store, orgID, *l.DefaultTeam)
		if apperr.Is(err, apperr.NotFound) {
			return apperr.Field("defaultTeam", "no team %q in this organization", *l.DefaultTeam)
		}
		if err != nil {
			return err
		}
	}
	if l.GroupTeams != nil {
		return s.checkGroupTeams(ctx, orgID, *l.GroupTeams)
	}
	return nil
}

// apply sets the checked fields on p.
func apply(p *model.SAMLProvider, in Settings) {
	for _, f := range []struct{ dst, v *string }{{&p.Label, in.Label}, {&p.EntityID, in.EntityID}, {&p.Certificate, in.Certificate},
		{&p.SSOURL, in.SSOURL}, {&p.GroupsAttribute, in.GroupsAttribute}} {
		records.Set(f.dst, f.v)
	}
	records.Set(&p.AllowRSA15KeyTransport, in.AllowRSA15KeyTransport)
	in.Landing.apply(&p.DefaultTeam, &p.DefaultRole, &p.GroupTeams)
}

// view adds a provider's default team.
func (s *Service) view(ctx context.Context, p model.SAMLProvider, viewer model.Role) (ProviderView, error) {
	t, err := s.defaultTeam(ctx, p.OrgID, p.DefaultTeam)
	return ProviderView{Provider: p, Team: t, Viewer: viewer}, err
}

// Create adds a SAML provider to an organization (admins).
func (s *Service) Create(ctx context.Context, orgID string, in Settings) (ProviderView, error) {
	acc, err := s.d.Authz.RequireOrg(ctx, orgID, access.AdminOrg)
	if err != nil {
		return ProviderView{}, err
	}
	if in.Label == nil {
		return ProviderView{}, apperr.Field("label", "is required")
	}
	if err := s.check(ctx, orgID, &in); err != nil {
		return ProviderView{}, err
	}
	now := s.d.Clock()
	p := model.SAMLProvider{ID: ids.New(now), OrgID: orgID, CreatedAt: now, UpdatedAt: now}
	apply(&p, in)
	err = orgs.AddRecord(ctx, s.d.Store, orgID, keys.SAMLProviderPrefix, MaxProviders, "SAML providers", keys.SAMLProvider(orgID, p.ID), p,
		s.audit.Op(ctx, providerChange(p, model.AuditSAMLCreated)))
	if errors.Is(err, store.ErrConflict) {
		return ProviderView{}, apperr.NotFoundf("organization %s not found", orgID)
	}
	if err != nil {
		return ProviderView{}, err
	}
	return s.view(ctx, p, acc.Role())
}

// versioned is a provider with its stored version.
type versioned struct {
	p model.SAMLProvider
	v int64
}

// providers reads every provider of an organization, oldest first.
func (s *Service) providers(ctx context.Context, orgID string) ([]versioned, error) {
	items, err := store.QueryAll(ctx, s.d.Store, store.Query{PK: keys.OrgPartition(orgID), SKPrefix: keys.SAMLProviderPrefix})
	if err != nil {
		return nil, fmt.Errorf("read SAML providers: %w", err)
	}
	out := make([]versioned, 0, len(items))
	for _, it := range items {
		p, err := records.Decode[model.SAMLProvider](it)
		if err != nil {
			return nil, err
		}
		out = append(out, versioned{p: p, v: it.Version})
	}
	return out, nil
}

// List returns a page of an organization's providers, oldest first (admins).
func (s *Service) List(ctx context.Context, orgID string, r paging.Request) (paging.Page[ProviderView], error) {
	return listProviders(ctx, s, samlKind(), orgID, r, s.view)
}

// Get returns a provider (admins).
func (s *Service) Get(ctx context.Context, orgID, id string) (ProviderView, error) {
	return getView(ctx, s, samlKind(), orgID, id, s.view)
}

// Update changes a provider's settings (admins).
func (s *Service) Update(ctx context.Context, orgID, id string, in Settings) (ProviderView, error) {
	// An unset field shows as "" in the provider's answer; sent back
	// (read-modify-write), it leaves the field unset rather than being
	// refused as empty.
	acc, cur, _, err := samlKind().adminRead(ctx, s, orgID, id)
	if err != nil {
		return ProviderView{}, err
	}
	for _, f := range []struct {
		in     **string
		stored string
	}{{&in.EntityID, cur.EntityID}, {&in.Certificate, cur.Certificate}, {&in.SSOURL, cur.SSOURL}} {
		if *f.in != nil && **f.in == "" && f.stored == "" {
			*f.in = nil
		}
	}
	if err := s.check(ctx, orgID, &in); err != nil {
		return ProviderView{}, err
	}
	p, err := samlKind().update(ctx, s, orgID, id, func(p *model.SAMLProvider) error { apply(p, in); return nil },
		func(p *model.SAMLProvider) model.AuditChange {
			p.UpdatedAt = s.d.Clock()
			return providerChange(*p, model.AuditSAMLUpdated)
		})
	if err != nil {
		return ProviderView{}, err
	}
	return s.view(ctx, p, acc.Role())
}

// Delete removes a provider (admins). While the organization enforces SSO,
// its last active provider stays (Conflict): its SSO members could not sign
// in any more.
func (s *Service) Delete(ctx context.Context, orgID, id string) error {
	_, p, v, err := samlKind().adminRead(ctx, s, orgID, id)
	if err != nil {
		return err
	}
	k := keys.SAMLProvider(orgID, id)
	ops := []store.Op{store.DeleteIfVersion(k.PK, k.SK, v), s.audit.Op(ctx, providerChange(p, model.AuditSAMLDeleted))}
	if p.Active() {
		o, ov, err := orgs.ReadOrg(ctx, s.d.Store, orgID)
		if err != nil {
			return err
		}
		if o.SSO {
			all, err := s.providers(ctx, orgID)
			if err != nil {
				return err
			}
			var keep *versioned
			for i, q := range all {
				if q.p.ID != id && q.p.Active() {
					keep = &all[i]
					break
				}
			}
			if keep == nil {
				return apperr.Conflictf("the organization enforces SSO and this is its last active SAML provider: turn sso off first (PATCH /v1/orgs/%s)", orgID)
			}
			// Another active provider must remain as read: of deletes
			// racing on the last providers, the last to commit finds the
			// one it kept gone, so one provider always stays.
			kk := keys.SAMLProvider(orgID, keep.p.ID)
			ops = append(ops, store.Check(kk.PK, kk.SK, store.IfVersion, keep.v))
		}
		// The organization must still be as read: had sso been turned on
		// meanwhile, this delete would have to be decided again.
		ops = append(ops, orgs.CheckOrg(orgID, ov))
	}
	err = s.d.Store.Write(ctx, ops...)
	if errors.Is(err, store.ErrConflict) {
		return apperr.Conflictf("SAML provider %s or its organization changed while it was being deleted; try again", id)
	}
	if err != nil {
		return fmt.Errorf("delete SAML provider: %w", err)
	}
	return nil
}

// Login is one way to sign in to an organization.
type Login struct {
	ID, Label string
	// Protocol is saml or oidc.
	Protocol string
}

// Logins lists the active SAML providers, then the OpenID Connect
// providers, of an organization, for its sign-in
// page: it needs no token, and an unknown organization is NotFound.
func (s *Service) Logins(ctx context.Context, orgID string) ([]Login, error) {
	if _, _, err := orgs.ReadOrg(ctx, s.d.Store, orgID); err != nil {
		return nil, err
	}
	ps, err := s.providers(ctx, orgID)
	if err != nil {
		return nil, err
	}
	out := []Login{}
	for _, q := range ps {
		if q.p.Active() {
			out = append(out, Login{ID: q.p.ID, Label: q.p.Label, Protocol: "saml"})
		}
	}
	more, err := s.oidcLogins(ctx, orgID)
	if err != nil {
		return nil, err
	}
	return append(out, more...), nil
}
