package model

import (
	"encoding/json"
	"time"
)

// Site is a docs site with its whole structure: sections, section groups,
// site spaces and share links live inside the one record, so that reading a
// site's structure is one read and every structural change is one
// version-guarded write (package sites keeps the invariants).
type Site struct {
	ID              string `json:"id"`
	OrgID           string `json:"orgId"`
	Type            string `json:"type"`
	Title           string `json:"title"`
	Hostname        string `json:"hostname,omitempty"`
	Basename        string `json:"basename,omitempty"`
	Proxy           string `json:"proxy,omitempty"` // origin, e.g. company.com/docs
	Visibility      string `json:"visibility"`
	Published       bool   `json:"published"`
	AdaptiveContent bool   `json:"adaptiveContent"`
	AgentsContext   string `json:"agentsContext"`
	// FrameAncestors are the origins (scheme://host[:port]) that may frame
	// the site's pages besides its own (Galley's own setting, docs/reader.md).
	FrameAncestors []string  `json:"frameAncestors,omitempty"`
	CreatedAt      time.Time `json:"createdAt"`
	UpdatedAt      time.Time `json:"updatedAt"`
	CreatedBy      string    `json:"createdBy"`

	Sections   []SiteSection      `json:"sections,omitempty"`
	Groups     []SiteSectionGroup `json:"groups,omitempty"`
	SiteSpaces []SiteSpace        `json:"siteSpaces,omitempty"`
	ShareLinks []ShareLink        `json:"shareLinks,omitempty"`
	// ExternalLinks are links to other sites in the site's navigation, at
	// the top level or in a group, ordered among the sections and groups.
	ExternalLinks []SiteExternalLink `json:"externalLinks,omitempty"`
}

// SiteSection is a section of a site. Order is its key among its siblings:
// the site's top level (ungrouped sections and groups share one order) or
// its group.
type SiteSection struct {
	ID          string    `json:"id"`
	Title       string    `json:"title"`
	Description string    `json:"description,omitempty"`
	Path        string    `json:"path"`
	Condition   string    `json:"condition,omitempty"`
	Icon        string    `json:"icon,omitempty"`
	Group       string    `json:"group,omitempty"`
	Order       string    `json:"order"`
	Default     bool      `json:"default,omitempty"`
	CreatedAt   time.Time `json:"createdAt"`
}

// SiteSectionGroup groups sections of a site; it orders among the site's
// top-level items.
type SiteSectionGroup struct {
	ID        string    `json:"id"`
	Title     string    `json:"title"`
	Icon      string    `json:"icon,omitempty"`
	Order     string    `json:"order"`
	CreatedAt time.Time `json:"createdAt"`
}

// SiteSpace links a space into a site, at the root (Section "") or in a
// section; Order is its key among the site spaces of that level.
type SiteSpace struct {
	ID        string `json:"id"`
	SpaceID   string `json:"spaceId"`
	Section   string `json:"section,omitempty"`
	Path      string `json:"path"`
	Condition string `json:"condition,omitempty"`
	Order     string `json:"order"`
	Default   bool   `json:"default,omitempty"`
	// Hidden leaves the site space out of the site's navigation (its
	// pages stay reachable by their URLs).
	Hidden    bool      `json:"hidden,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
}

// SiteExternalLink is a link to an absolute URL in a site's navigation: at
// the top level (Group "") or in a group, where Order is its key among the
// sections and groups (or the group's sections) beside it. A draft link is
// left out of what visitors see.
type SiteExternalLink struct {
	ID                   string            `json:"id"`
	Title                string            `json:"title"`
	LocalizedTitle       map[string]string `json:"localizedTitle,omitempty"`
	Description          string            `json:"description,omitempty"`
	LocalizedDescription map[string]string `json:"localizedDescription,omitempty"`
	Icon                 string            `json:"icon,omitempty"`
	URL                  string            `json:"url"`
	Group                string            `json:"group,omitempty"`
	Order                string            `json:"order"`
	Draft                bool              `json:"draft,omitempty"`
	Condition            string            `json:"condition,omitempty"`
	CreatedAt            time.Time         `json:"createdAt"`
}

// ShareLink gives whoever holds Key access to a share-link site.
type ShareLink struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Key       string    `json:"key"`
	Active    bool      `json:"active"`
	CreatedAt time.Time `json:"createdAt"`
}

// SiteAdaptiveSchema is a site's visitor schema (JSON Schema draft-07), kept
// in its own item: the published view does not need it.
type SiteAdaptiveSchema struct {
	SiteID     string          `json:"siteId"`
	JSONSchema json.RawMessage `json:"jsonSchema"`
	UpdatedAt  time.Time       `json:"updatedAt"`
}
