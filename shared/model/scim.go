package model

import "time"

// SCIMToken is an organization's SCIM bearer token, kept by the hash of its
// secret (owner: scim). The identity provider of the organization
// provisions its members and teams with it (docs/scim.md).
type SCIMToken struct {
	ID        string    `json:"id"`
	OrgID     string    `json:"orgId"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"createdAt"`
	// CreatedBy is the admin who made it.
	CreatedBy string `json:"createdBy"`
	// Hash is the SHA-256 of the secret (on the reference only).
	Hash string `json:"hash,omitempty"`
}

// SCIMUser is what SCIM provisioning keeps of a member beyond the
// membership and the user (owner: scim): the identity provider's own
// attributes, answered back as it gave them.
type SCIMUser struct {
	OrgID      string `json:"orgId"`
	UserID     string `json:"userId"`
	UserName   string `json:"userName"`
	ExternalID string `json:"externalId,omitempty"`
	// DisplayName is the provider's, as given; the Galley user's display
	// name follows it when one is given (docs/scim.md).
	DisplayName string      `json:"displayName,omitempty"`
	Name        *SCIMName   `json:"name,omitempty"`
	Emails      []SCIMEmail `json:"emails,omitempty"`
	CreatedAt   time.Time   `json:"createdAt"`
	UpdatedAt   time.Time   `json:"updatedAt"`
}

// SCIMUserName is an organization's claim of a userName for one member
// (owner: scim): one per userName, ignoring case, so that two members never
// share one (docs/scim.md).
type SCIMUserName struct {
	OrgID    string `json:"orgId"`
	UserName string `json:"userName"`
	UserID   string `json:"userId"`
}

// SCIMName is a SCIM user's name (RFC 7643 §4.1.1).
type SCIMName struct {
	Formatted  string `json:"formatted,omitempty"`
	FamilyName string `json:"familyName,omitempty"`
	GivenName  string `json:"givenName,omitempty"`
}

// SCIMEmail is one of a SCIM user's addresses. Primary is kept as sent:
// true, false, or absent (nil), so that a provider reads back what it
// wrote.
type SCIMEmail struct {
	Value   string `json:"value,omitempty"`
	Type    string `json:"type,omitempty"`
	Primary *bool  `json:"primary,omitempty"`
}

// SCIMGroup is what SCIM provisioning keeps of a team (owner: scim).
type SCIMGroup struct {
	OrgID      string    `json:"orgId"`
	TeamID     string    `json:"teamId"`
	ExternalID string    `json:"externalId,omitempty"`
	UpdatedAt  time.Time `json:"updatedAt"`
}
