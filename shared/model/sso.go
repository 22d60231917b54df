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
