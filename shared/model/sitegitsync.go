package model

import "time"

// SiteGitSync is a site's Git Sync state (site-wide Git Sync, driven by the
// repository's docs.yaml): the repository, the structure's nodes by their
// stable keys with the ids they stand for, and the last operation.
type SiteGitSync struct {
	SiteID string `json:"siteId"`
	OrgID  string `json:"orgId"`
	// URL (without credentials), Ref and Dir (the site's project
	// directory, "" the top) of the last request.
	URL       string    `json:"url"`
	Ref       string    `json:"ref"`
	Dir       string    `json:"dir,omitempty"`
	UpdatedAt time.Time `json:"updatedAt"`
	// Nodes are docs.yaml's nodes as last imported or
	// exported, by key; Order lists the keys in docs.yaml's order.
	Nodes map[string]SiteGitNode `json:"nodes,omitempty"`
	Order []string               `json:"order,omitempty"`
	// Title is docs.yaml's site title as last synced.
	Title string `json:"title,omitempty"`
	// LastCommit is the commit the site last imported or exported.
	LastCommit string `json:"lastCommit,omitempty"`
	// Done are the latest concluded jobs (redeliveries are skipped).
	Done      []string          `json:"done,omitempty"`
	Operation *SiteGitOperation `json:"operation,omitempty"`
	// Pending are the site jobs queued and not concluded, each with its
	// lease (GitPending: handed out again, then failed, when it expires).
	Pending []GitPending `json:"pending,omitempty"`
}

// SiteGitNode is one section group, section, space or external link of
// docs.yaml with the ids it maps to: ID is the group's, site section's,
// site space's or external link's id, SpaceID the space's.
type SiteGitNode struct {
	Type    string `json:"type"` // "section-group", "section", "space" or "external-link"
	Key     string `json:"key"`
	Parent  string `json:"parent,omitempty"` // the group's or section's key ("" the top)
	ID      string `json:"id,omitempty"`
	SpaceID string `json:"spaceId,omitempty"`

	Title                string            `json:"title"`
	Path                 string            `json:"path"`
	Default              bool              `json:"default,omitempty"`
	Hidden               bool              `json:"hidden,omitempty"`
	Draft                bool              `json:"draft,omitempty"`
	Condition            string            `json:"condition,omitempty"`
	Description          string            `json:"description,omitempty"`
	Icon                 string            `json:"icon,omitempty"`
	LocalizedTitle       map[string]string `json:"localizedTitle,omitempty"`
	LocalizedDescription map[string]string `json:"localizedDescription,omitempty"`
	// URL is an external link's destination.
	URL string `json:"url,omitempty"`
	// Directory is content.directory as written (nil: the space is not
	// synced with the repository); Language content.language.
	Directory *string `json:"directory,omitempty"`
	Language  string  `json:"language,omitempty"`
}

// SiteGitOperation is a site's import or export, with each space's.
type SiteGitOperation struct {
	GitOperation
	// Spaces are the spaces' operations, by space id.
	Spaces map[string]GitOperation `json:"spaces,omitempty"`
}
