package model

import "time"

// SAMLProvider is an organization's SAML identity provider: where its
// people sign in (SSOURL), who signs the answers (EntityID, Certificate),
// and where those it lets in land (DefaultRole, DefaultTeam).
type SAMLProvider struct {
	ID    string `json:"id"`
	OrgID string `json:"orgId"`
	Label string `json:"label"`
	// SSOURL, EntityID and Certificate (PEM) describe the identity provider;
	// until all three are set the provider is pending and signs nobody in.
	SSOURL      string `json:"ssoURL,omitempty"`
	EntityID    string `json:"entityID,omitempty"`
	Certificate string `json:"certificate,omitempty"`
	// DefaultTeam is the id of the team new sign-ins join ("" for none).
	DefaultTeam string `json:"defaultTeam,omitempty"`
	// DefaultRole is the role of members the provider creates ("" is guest).
	DefaultRole Role      `json:"defaultRole,omitempty"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`

	// AllowRSA15KeyTransport lets the identity provider wrap the key of an
	// encrypted assertion with RSA PKCS#1 v1.5 (xmlenc#rsa-1_5), which XML
	// Encryption 1.1 forbids; false (the default) refuses such responses.
	AllowRSA15KeyTransport bool `json:"allowRSA15KeyTransport,omitempty"`

	// GroupsAttribute names the assertion's attribute listing the person's
	// groups ("" for "groups"); GroupTeams maps those groups to teams.
	GroupsAttribute string      `json:"groupsAttribute,omitempty"`
	GroupTeams      []GroupTeam `json:"groupTeams,omitempty"`
}

// Active reports whether the provider is configured enough to sign people in.
func (p SAMLProvider) Active() bool {
	return p.SSOURL != "" && p.EntityID != "" && p.Certificate != ""
}

// SAMLServiceProvider is the installation's own SAML identity: the key that
// signs its authentication requests and decrypts assertions, its
// certificate, and the secret that makes its request ids unforgeable.
// Created once per installation.
type SAMLServiceProvider struct {
	KeyPEM         string `json:"keyPEM"`
	CertificatePEM string `json:"certificatePEM"`
	RequestSecret  []byte `json:"requestSecret"`
}

// SAMLUsed records that a SAML request id or assertion id was accepted
// once; it is kept until ExpiresAt, after which the message it names is
// refused as expired anyway.
type SAMLUsed struct {
	OrgID      string    `json:"orgId"`
	ProviderID string    `json:"providerId"`
	Kind       string    `json:"kind"`
	ID         string    `json:"id"`
	ExpiresAt  time.Time `json:"expiresAt"`
}

// Kinds of SAMLUsed.
const (
	SAMLUsedRequest   = "REQUEST"
	SAMLUsedAssertion = "ASSERTION"
)

// TranslationSettings are an organization's settings of a translation:
// a title and the languages it translates into.
type TranslationSettings struct {
	ID        string    `json:"id"`
	OrgID     string    `json:"orgId"`
	Title     string    `json:"title"`
	Languages []string  `json:"languages"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// SAMLUsedOIDCState is the kind of SAMLUsed that marks an OpenID Connect
// sign-in's state as used: the same one-use record, pruned the same way.
const SAMLUsedOIDCState = "OIDCSTATE"

// GroupTeam maps an identity-provider group to a team of the organization
// and, optionally, a role the group's members get at least.
type GroupTeam struct {
	Group  string `json:"group"`
	TeamID string `json:"teamId"`
	// Role is raised to at sign-in ("" leaves the organization role alone).
	Role Role `json:"role,omitempty"`
}

// OIDCProvider is an organization's OpenID Connect identity provider: its
// issuer (discovered at first use), the client Galley is registered as,
// how claims map to a person, and where those it lets in land.
type OIDCProvider struct {
	ID     string `json:"id"`
	OrgID  string `json:"orgId"`
	Label  string `json:"label"`
	Issuer string `json:"issuer"`
	// ClientID is Galley's client at the provider; SealedClientSecret is
	// its secret, sealed with the installation's secret (shared/secret).
	ClientID           string   `json:"clientId"`
	SealedClientSecret string   `json:"sealedClientSecret,omitempty"`
	Scopes             []string `json:"scopes,omitempty"`
	// EmailClaim, NameClaim and GroupsClaim name the ID token's claims
	// ("" for the defaults: email, name, groups).
	EmailClaim  string      `json:"emailClaim,omitempty"`
	NameClaim   string      `json:"nameClaim,omitempty"`
	GroupsClaim string      `json:"groupsClaim,omitempty"`
	DefaultTeam string      `json:"defaultTeam,omitempty"`
	DefaultRole Role        `json:"defaultRole,omitempty"`
	GroupTeams  []GroupTeam `json:"groupTeams,omitempty"`
	CreatedAt   time.Time   `json:"createdAt"`
	UpdatedAt   time.Time   `json:"updatedAt"`
}
