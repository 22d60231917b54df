package model

import "time"

// LevelInherit is the defaultLevel of content that takes its level from its
// parent collection, or from each member's organization role at the top.
const LevelInherit = "inherit"

// Content kinds: what a grant, a position or a pointer names.
const (
	KindSpace      = "space"
	KindCollection = "collection"
	// KindSite names a site in a grant (sites have no position or
	// pointer of this kind).
	KindSite = "site"
)

// Collection groups spaces and other collections of an organization.
type Collection struct {
	ID          string `json:"id"`
	OrgID       string `json:"orgId"`
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	// Parent is the collection holding this one; "" at the top level.
	Parent string `json:"parent,omitempty"`
	// Ancestors are the collections above this one, from the top (empty at
	// the top level), rewritten with Path. Authorization reads them in one
	// batch; it follows Parent, so a missing or wrong list (records made
	// before it existed) costs reads, never a wrong decision.
	Ancestors []string `json:"ancestors,omitempty"`
	// DefaultLevel: a Role, "" (guest: no access by default) or "inherit".
	DefaultLevel string `json:"defaultLevel"`
	// Position orders the collection among the content of its parent (an
	// order key, see package order).
	Position string `json:"position"`
	// Path is the positions of the collection's ancestors and its own,
	// joined by "/": sorting by it lists a whole tree in order.
	Path string `json:"path"`
	// Children counts the live spaces and collections directly inside.
	// Every change to it rewrites the record, so that writers that depend on
	// the set of children (delete, move, transfer) conflict with it.
	Children  int       `json:"children"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
	CreatedBy string    `json:"createdBy"`
}

// Child is the entry of a space or collection at its position in its
// parent (a collection, or the top level of the organization). Entries are
// unique per position, which keeps positions unique among siblings.
type Child struct {
	Kind string `json:"kind"`
	ID   string `json:"id"`
}

// Grant gives a user, or the members of a team, a level of access to a
// space or a collection and everything inside it, or to a site (the site
// only: not the spaces it shows).
type Grant struct {
	OrgID         string    `json:"orgId"`
	ContentKind   string    `json:"contentKind"`
	ContentID     string    `json:"contentId"`
	PrincipalKind string    `json:"principalKind"` // "user" or "team"
	PrincipalID   string    `json:"principalId"`
	Role          Role      `json:"role"`
	CreatedAt     time.Time `json:"createdAt"`
}

// Grant principals.
const (
	PrincipalUser = "user"
	PrincipalTeam = "team"
)
