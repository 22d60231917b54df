// Package model holds the records Galley persists. They are storage shapes,
// not API shapes: each family's HTTP layer builds its responses from them
// (adding urls and the caller's permissions).
package model

import "time"

// User is an account. Users exist instance-wide; organizations hold members.
type User struct {
	ID          string    `json:"id"`
	Email       string    `json:"email"`
	DisplayName string    `json:"displayName"`
	PhotoURL    string    `json:"photoURL,omitempty"`
	CreatedAt   time.Time `json:"createdAt"`
	// InstanceAdmin may create users (POST /v1/admin/users).
	InstanceAdmin bool `json:"instanceAdmin,omitempty"`
	// Disabled users' tokens are refused (their tokens carry the flag).
	Disabled bool `json:"disabled,omitempty"`
}

// Token is an API token, stored under the hash of its secret only.
type Token struct {
	UserID    string    `json:"userId"`
	CreatedAt time.Time `json:"createdAt"`
	// OrgID, when set, scopes the token to one organization: tokens issued
	// by an organization's SSO sign-in act only there (its identity
	// provider vouches for people in it, not elsewhere).
	OrgID string `json:"orgId,omitempty"`
	// InstanceAdmin copies the user's flag when the token is made (false on
	// a token scoped to an organization, which never carries instance
	// rights), so that authenticating a request reads the token only. A
	// user's flag is set when the user is made and never changes, and users
	// are never deleted; a change to either must rewrite the user's tokens.
	// Tokens made before the copy was kept have none (nil): their user is read.
	InstanceAdmin *bool `json:"instanceAdmin,omitempty"`
	// ID is the token's public id (its reference's key); Name its label.
	// Tokens made before tokens had ids have none (they cannot be listed).
	ID   string `json:"id,omitempty"`
	Name string `json:"name,omitempty"`
	// ExpiresAt, when set, ends the token.
	ExpiresAt *time.Time `json:"expiresAt,omitempty"`
	// LastUsedAt is when a request last used it (written at most once an
	// hour per token).
	LastUsedAt *time.Time `json:"lastUsedAt,omitempty"`
	// Disabled copies the user's flag.
	Disabled bool `json:"disabled,omitempty"`
}

// TokenRef is a user's reference to a token: what lists it without its
// secret.
type TokenRef struct {
	ID        string     `json:"id"`
	UserID    string     `json:"userId"`
	Hash      string     `json:"hash"`
	Name      string     `json:"name"`
	OrgID     string     `json:"orgId,omitempty"`
	CreatedAt time.Time  `json:"createdAt"`
	ExpiresAt *time.Time `json:"expiresAt,omitempty"`
}

// SitePointer is an organization's default content.
type SitePointer struct {
	Type string `json:"type"`
	Site string `json:"site"`
}

// Organization owns spaces, collections, sites, members and teams.
type Organization struct {
	ID             string       `json:"id"`
	Title          string       `json:"title"`
	CreatedAt      time.Time    `json:"createdAt"`
	EmailDomains   []string     `json:"emailDomains"`
	Hostname       string       `json:"hostname,omitempty"`
	Type           string       `json:"type"`
	UseCase        string       `json:"useCase,omitempty"`
	CommunityType  string       `json:"communityType,omitempty"`
	DefaultRole    Role         `json:"defaultRole,omitempty"`
	DefaultContent *SitePointer `json:"defaultContent,omitempty"`
	Logo           string       `json:"logo,omitempty"`
	SSO            bool         `json:"sso"`
	AI             bool         `json:"ai"`
	InviteLinks    bool         `json:"inviteLinks"`
	Plan           string       `json:"plan"`
	// MergeRules apply to the change requests of spaces that inherit them;
	// nil is none.
	MergeRules *MergeRules `json:"mergeRules,omitempty"`
}

// Member is a user's membership of an organization.
type Member struct {
	OrgID      string     `json:"orgId"`
	UserID     string     `json:"userId"`
	Role       Role       `json:"role,omitempty"` // "" is a guest
	Disabled   bool       `json:"disabled"`
	JoinedAt   time.Time  `json:"joinedAt"`
	LastSeenAt *time.Time `json:"lastSeenAt,omitempty"`
	SSO        bool       `json:"sso"`
	// Teams counts the teams the member belongs to.
	Teams int `json:"teams"`
	// TeamIDs are the teams the member joined since the list exists (kept
	// with Teams, in the same writes): when it holds Teams ids it is every
	// team, and authorization reads their grants without querying the
	// member's teams (a record written before holds fewer: the query).
	TeamIDs []string `json:"teamIds,omitempty"`
	// Spaces counts the spaces granted to the member explicitly.
	Spaces int `json:"spaces"`
}

// Team groups members of an organization.
type Team struct {
	OrgID     string    `json:"orgId"`
	ID        string    `json:"id"`
	Title     string    `json:"title"`
	CreatedAt time.Time `json:"createdAt"`
	Members   int       `json:"members"`
	Spaces    int       `json:"spaces"`
}

// Team member roles.
const (
	TeamOwner  = "owner"
	TeamMember = "member"
)

// TeamMembership puts a member in a team.
type TeamMembership struct {
	OrgID   string    `json:"orgId"`
	TeamID  string    `json:"teamId"`
	UserID  string    `json:"userId"`
	Role    string    `json:"role"`
	AddedAt time.Time `json:"addedAt"`
}

// Invite is an organization invite link.
type Invite struct {
	OrgID     string    `json:"orgId"`
	ID        string    `json:"id"`
	Role      Role      `json:"role,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	CreatedBy string    `json:"createdBy"`
}

// Space is a unit of documentation content.
type Space struct {
	ID         string `json:"id"`
	OrgID      string `json:"orgId"`
	Title      string `json:"title"`
	Emoji      string `json:"emoji,omitempty"`
	Icon       string `json:"icon,omitempty"`
	Visibility string `json:"visibility"`
	EditMode   string `json:"editMode"`
	Parent     string `json:"parent,omitempty"`
	// Language is the language of the space's content (a code of
	// GitBook's TranslationLanguage, spaces.Languages), "" when unset.
	Language string `json:"language,omitempty"`
	// Ancestors are the collections above the space, from the top, as they
	// were when it was last placed: a hint that lets authorization read them
	// in one batch. A move of a collection above leaves it stale, which
	// costs a read more, never a wrong decision (see access.ViewerOn).
	Ancestors    []string   `json:"ancestors,omitempty"`
	Position     string     `json:"position,omitempty"` // order key of a live space in its collection
	DefaultLevel string     `json:"defaultLevel"`       // a Role, "" (guest) or "inherit"
	Revision     string     `json:"revision"`
	CreatedAt    time.Time  `json:"createdAt"`
	UpdatedAt    time.Time  `json:"updatedAt"`
	DeletedAt    *time.Time `json:"deletedAt,omitempty"`
	CreatedBy    string     `json:"createdBy"`

	Comments            int `json:"comments"`
	ChangeRequests      int `json:"changeRequests"`
	ChangeRequestsOpen  int `json:"changeRequestsOpen"`
	ChangeRequestsDraft int `json:"changeRequestsDraft"`
	// MergeRules are the space's own; nil inherits the organization's.
	MergeRules *MergeRules `json:"mergeRules,omitempty"`
}

// Revision is an immutable snapshot of a space's content. A new space starts
// with an empty one; its pages and files are in the blob store (see package
// content).
type Revision struct {
	ID        string    `json:"id"`
	SpaceID   string    `json:"spaceId"`
	Parents   []string  `json:"parents"`
	Type      string    `json:"type"`
	CreatedAt time.Time `json:"createdAt"`
	// Tree is the blob key of the page tree and files; "" is empty content.
	Tree string `json:"tree,omitempty"`
	// MergedFrom is the change request a "merge" revision came from.
	MergedFrom string     `json:"mergedFrom,omitempty"`
	Git        *GitCommit `json:"git,omitempty"`
}
