package siteshttp

import (
	"context"
	"encoding/json"
	"net/url"
	"reflect"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/sites"
	"github.com/galleydocs/galley/shared/spaces/spaceshttp"
)

// API shapes. Their names are unique in the whole API's OpenAPI document
// (every family registers on one document in the local server).

// Site is the API shape of a site.
type Site struct {
	Object          string              `json:"object" enum:"site"`
	ID              string              `json:"id"`
	Type            string              `json:"type" enum:"basic,premium,ultimate,sponsored,legacy-basic,legacy-premium"`
	AppliedType     string              `json:"appliedType" enum:"basic,premium,ultimate,sponsored,legacy-basic,legacy-premium" doc:"The type in effect: the type (Galley has no plans)"`
	DefaultLevel    string              `json:"defaultLevel" enum:"inherit" doc:"Rights on a site are the highest of the organization role and the grants on the site"`
	Permissions     SitePermissions     `json:"permissions"`
	Title           string              `json:"title" minLength:"2" maxLength:"128"`
	Hostname        string              `json:"hostname,omitempty" maxLength:"512" pattern:"^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$"`
	Basename        string              `json:"basename,omitempty" minLength:"1" maxLength:"100"`
	Proxy           *SiteProxy          `json:"proxy,omitempty"`
	Visibility      string              `json:"visibility" enum:"public,unlisted,share-link,visitor-auth"`
	Published       bool                `json:"published"`
	SiteSpaces      int                 `json:"siteSpaces" doc:"Number of site spaces"`
	CreatedAt       time.Time           `json:"createdAt"`
	AdaptiveContent SiteAdaptiveContent `json:"adaptiveContent"`
	AgentsContext   string              `json:"agentsContext" enum:"excluded,included"`
	Features        []SiteFeature       `json:"features" nullable:"false"`
	URLs            SiteURLs            `json:"urls"`
	FrameAncestors  []string            `json:"frameAncestors" nullable:"false" doc:"Galley's extension: origins that may show the site's pages in a frame, besides the site's own (docs/reader.md)"`
}

// SitePermissions are what the caller may do with a site.
type SitePermissions struct {
	View               bool `json:"view"`
	Access             bool `json:"access"`
	Edit               bool `json:"edit"`
	Create             bool `json:"create"`
	Admin              bool `json:"admin"`
	InstallIntegration bool `json:"installIntegration" doc:"Galley has no integrations"`
	ViewAdaptiveSchema bool `json:"viewAdaptiveSchema"`
	EditAdaptiveSchema bool `json:"editAdaptiveSchema"`
}

func sitePermissions(role model.Role) SitePermissions {
	read, create, admin := access.Allowed(role, access.ReadContent), access.Allowed(role, access.CreateContent), access.Allowed(role, access.AdminContent)
	return SitePermissions{View: read, Access: admin, Edit: create, Create: create, Admin: admin, ViewAdaptiveSchema: read, EditAdaptiveSchema: create}
}

// SiteProxy is where a site is proxied from.
type SiteProxy struct {
	Origin string `json:"origin" doc:"e.g. company.com/docs"`
	Target string `json:"target" doc:"URL the origin's requests are proxied to"`
}

// SiteAdaptiveContent tells whether adaptive content is on.
type SiteAdaptiveContent struct {
	Enabled bool `json:"enabled"`
}

// SiteFeature is a premium feature of a site; Galley lists none.
type SiteFeature struct {
	ID     string `json:"id"`
	Plan   string `json:"plan"`
	Frozen bool   `json:"frozen"`
}

// SiteURLs are a site's links; published only when its audience can open it.
type SiteURLs struct {
	Location  string `json:"location" format:"uri"`
	App       string `json:"app" format:"uri"`
	Published string `json:"published,omitempty" format:"uri"`
	Preview   string `json:"preview" format:"uri" doc:"Where the site's content can be previewed: its published root (Galley has no separate preview)"`
}

// SiteSection is the API shape of a site section.
type SiteSection struct {
	Object       string          `json:"object" enum:"site-section"`
	ID           string          `json:"id"`
	Title        string          `json:"title" minLength:"2" maxLength:"128"`
	Description  string          `json:"description,omitempty" maxLength:"256"`
	Default      bool            `json:"default"`
	Path         string          `json:"path" minLength:"1" maxLength:"100"`
	Condition    string          `json:"condition,omitempty" minLength:"1" maxLength:"1024"`
	SectionGroup string          `json:"sectionGroup,omitempty"`
	Icon         string          `json:"icon,omitempty" maxLength:"50"`
	Draft        bool            `json:"draft" doc:"Galley has no draft sections"`
	SiteSpaces   []SiteSpace     `json:"siteSpaces" nullable:"false"`
	URLs         SiteSectionURLs `json:"urls"`
}

// SiteSectionURLs are a section's links.
type SiteSectionURLs struct {
	Published string `json:"published,omitempty" format:"uri"`
}

// SiteSectionGroup is the API shape of a section group.
type SiteSectionGroup struct {
	Object   string           `json:"object" enum:"site-section-group"`
	ID       string           `json:"id"`
	Title    string           `json:"title" minLength:"1" maxLength:"100"`
	Icon     string           `json:"icon,omitempty" maxLength:"50"`
	Draft    bool             `json:"draft" doc:"Galley has no draft section groups"`
	Sections []SiteSection    `json:"sections" nullable:"false"`
	Children []SiteGroupChild `json:"children" nullable:"false" doc:"What the group holds, in order: its sections and external links (Galley's groups do not nest)"`
}

// SiteGroupChild is an item of a section group: a section or an external
// link (one is set). Not a SiteStructureItem: a group holds neither groups
// nor site spaces, and a schema holding itself would defeat the request
// checks of the bodies that may carry a group (a PATCH sent the GET's
// answer back).
type SiteGroupChild struct {
	Section *SiteSection
	Link    *SiteExternalLink
}

// MarshalJSON writes the item itself.
func (c SiteGroupChild) MarshalJSON() ([]byte, error) {
	if c.Section != nil {
		return json.Marshal(c.Section)
	}
	return json.Marshal(c.Link)
}

// Schema documents the two forms.
func (SiteGroupChild) Schema(r huma.Registry) *huma.Schema {
	return &huma.Schema{OneOf: []*huma.Schema{
		r.Schema(reflect.TypeFor[SiteSection](), true, ""),
		r.Schema(reflect.TypeFor[SiteExternalLink](), true, ""),
	}}
}

// SiteExternalLink is the API shape of an external link of a site's
// navigation.
type SiteExternalLink struct {
	Object               string            `json:"object" enum:"site-external-link"`
	ID                   string            `json:"id"`
	Title                string            `json:"title" minLength:"2" maxLength:"128"`
	LocalizedTitle       map[string]string `json:"localizedTitle,omitempty"`
	Description          string            `json:"description,omitempty" maxLength:"256"`
	LocalizedDescription map[string]string `json:"localizedDescription,omitempty"`
	Icon                 string            `json:"icon,omitempty" maxLength:"50"`
	URL                  string            `json:"url" format:"uri" maxLength:"2048"`
	SectionGroup         string            `json:"sectionGroup,omitempty" doc:"The group holding the link; absent at the top level"`
	Draft                bool              `json:"draft" doc:"A draft link is left out of what visitors see"`
	Condition            string            `json:"condition,omitempty" maxLength:"1024"`
}

// SiteSpace is the API shape of a site space.
type SiteSpace struct {
	Object                          string           `json:"object" enum:"site-space"`
	ID                              string           `json:"id"`
	Path                            string           `json:"path" minLength:"1" maxLength:"100"`
	Section                         string           `json:"section,omitempty"`
	Space                           spaceshttp.Space `json:"space"`
	Title                           string           `json:"title"`
	Default                         bool             `json:"default"`
	Draft                           bool             `json:"draft" doc:"Galley has no draft site spaces"`
	Condition                       string           `json:"condition,omitempty" minLength:"1" maxLength:"1024"`
	Hidden                          bool             `json:"hidden" doc:"Whether the site space is left out of the site's navigation"`
	HasAdvancedCustomizationFeature bool             `json:"hasAdvancedCustomizationFeature"`
	URLs                            SiteSpaceURLs    `json:"urls"`
}

// SiteSpaceURLs are a site space's links.
type SiteSpaceURLs struct {
	Published string `json:"published,omitempty" format:"uri"`
}

// ShareLink is the API shape of a share link. Its key appears only in
// urls.published.
type ShareLink struct {
	Object    string        `json:"object" enum:"share-link"`
	ID        string        `json:"id"`
	CreatedAt time.Time     `json:"createdAt"`
	Name      string        `json:"name" maxLength:"50"`
	Active    bool          `json:"active"`
	URLs      ShareLinkURLs `json:"urls"`
}

// ShareLinkURLs are a share link's links.
type ShareLinkURLs struct {
	Published string `json:"published" format:"uri" doc:"The site's URL carrying the link's secret key"`
}

// PublishedContentSite is the published view of a site.
type PublishedContentSite struct {
	Object         string                  `json:"object" enum:"published-content-site"`
	Site           Site                    `json:"site"`
	Structure      SiteStructure           `json:"structure"`
	Customizations PublishedCustomizations `json:"customizations"`
	Scripts        []SiteIntegrationScript `json:"scripts" nullable:"false" doc:"Scripts of the site's integrations: Galley has none"`
}

// PublishedCustomizations are a published site's settings: the site's,
// and each site space's (by site space id).
type PublishedCustomizations struct {
	Site       SiteCustomizationSettings            `json:"site"`
	SiteSpaces map[string]SiteCustomizationSettings `json:"siteSpaces"`
}

// publishedCustomizations renders the settings of a published view.
func publishedCustomizations(c *sites.Customizations) (PublishedCustomizations, error) {
	out := PublishedCustomizations{SiteSpaces: map[string]SiteCustomizationSettings{}}
	if c == nil {
		c = &sites.Customizations{Site: sites.Customization{Settings: sites.DefaultCustomization()}}
	}
	var err error
	if out.Site, err = customizationView(c.Site); err != nil {
		return out, err
	}
	for id, cs := range c.SiteSpaces {
		if out.SiteSpaces[id], err = customizationView(cs); err != nil {
			return out, err
		}
	}
	return out, nil
}

// SiteStructure is a site's structure: its sections and groups, or its
// site spaces when it has no sections.
type SiteStructure struct {
	Type      string              `json:"type" enum:"sections,siteSpaces"`
	Structure []SiteStructureItem `json:"structure" nullable:"false"`
}

// SiteStructureItem is one item of a structure: a section, a section
// group, a site space or an external link.
type SiteStructureItem struct {
	Section *SiteSection
	Group   *SiteSectionGroup
	Space   *SiteSpace
	Link    *SiteExternalLink
}

// MarshalJSON writes the item itself.
func (i SiteStructureItem) MarshalJSON() ([]byte, error) {
	switch {
	case i.Section != nil:
		return json.Marshal(i.Section)
	case i.Group != nil:
		return json.Marshal(i.Group)
	case i.Link != nil:
		return json.Marshal(i.Link)
	}
	return json.Marshal(i.Space)
}

// Schema documents the four forms.
func (SiteStructureItem) Schema(r huma.Registry) *huma.Schema {
	return &huma.Schema{OneOf: []*huma.Schema{
		r.Schema(reflect.TypeFor[SiteSection](), true, ""),
		r.Schema(reflect.TypeFor[SiteSectionGroup](), true, ""),
		r.Schema(reflect.TypeFor[SiteSpace](), true, ""),
		r.Schema(reflect.TypeFor[SiteExternalLink](), true, ""),
	}}
}

// SiteAdaptiveSchema is the API shape of a site's adaptive schema.
type SiteAdaptiveSchema struct {
	Object     string         `json:"object" enum:"site-adaptive-schema"`
	JSONSchema map[string]any `json:"jsonSchema"`
	UpdatedAt  time.Time      `json:"updatedAt"`
}

// SiteAdaptiveTemplateCondition is a suggested condition.
type SiteAdaptiveTemplateCondition struct {
	Description string `json:"description"`
	Condition   string `json:"condition"`
}

// SiteAdaptiveTemplateConditions is the answer of the template conditions.
type SiteAdaptiveTemplateConditions struct {
	Items []SiteAdaptiveTemplateCondition `json:"items" nullable:"false"`
}

// viewer renders one site's items for one caller.
type viewer struct {
	ctx  context.Context
	v    sites.View
	tree sites.Tree
	base string
	// published: whether published URLs are shown (the site is published
	// and, for a share-link site, the request carries an active key).
	published bool
}

func newViewer(ctx context.Context, v sites.View) *viewer {
	site := v.Site
	return &viewer{ctx: ctx, v: v, tree: sites.TreeOf(&site), base: publishedBase(ctx, site, v.OrgBase),
		published: site.Published && (site.Visibility != "share-link" || v.ShareKey != "")}
}

// publishedBase is the root URL of a site's published content
// (sites.PublishedBase, under the request's public URL).
func publishedBase(ctx context.Context, site model.Site, orgBase string) string {
	return sites.PublishedBase(site, orgBase, httpapi.AppURL(ctx))
}

// directBase is publishedBase without the proxy (the proxy's target).
func directBase(ctx context.Context, site model.Site, orgBase string) string {
	site.Proxy = ""
	return publishedBase(ctx, site, orgBase)
}

// withKey adds a share key to a published URL.
func withKey(u, key string) string {
	if key == "" {
		return u
	}
	return u + "?shareKey=" + url.QueryEscape(key)
}

func (w *viewer) url(u string) string {
	if !w.published {
		return ""
	}
	return withKey(u, w.v.ShareKey)
}

func (w *viewer) site() Site {
	s := w.v.Site
	out := Site{Object: "site", ID: s.ID, Type: s.Type, AppliedType: s.Type, DefaultLevel: "inherit", Permissions: sitePermissions(w.v.Role), Title: s.Title, Hostname: s.Hostname, Basename: s.Basename,
		Visibility: s.Visibility, Published: s.Published, SiteSpaces: len(s.SiteSpaces), CreatedAt: s.CreatedAt,
		AdaptiveContent: SiteAdaptiveContent{Enabled: s.AdaptiveContent}, AgentsContext: s.AgentsContext,
		Features: []SiteFeature{}, FrameAncestors: append([]string{}, s.FrameAncestors...),
		URLs: SiteURLs{Location: httpapi.APIURL(w.ctx) + "/v1/orgs/" + s.OrgID + "/sites/" + s.ID,
			App: httpapi.AppURL(w.ctx) + "/o/" + s.OrgID + "/sites/" + s.ID, Published: w.url(w.base), Preview: w.base}}
	if s.Proxy != "" {
		out.Proxy = &SiteProxy{Origin: s.Proxy, Target: directBase(w.ctx, s, w.v.OrgBase)}
	}
	return out
}

func (w *viewer) sectionBase(sec *model.SiteSection) string {
	return w.base + "/" + url.PathEscape(sec.Path)
}

func (w *viewer) section(sec *model.SiteSection) SiteSection {
	out := SiteSection{Object: "site-section", ID: sec.ID, Title: sec.Title, Description: sec.Description,
		Default: sec.Default, Path: sec.Path, Condition: sec.Condition, SectionGroup: sec.Group, Icon: sec.Icon,
		SiteSpaces: []SiteSpace{}, URLs: SiteSectionURLs{Published: w.url(w.sectionBase(sec))}}
	for _, ss := range w.tree.Level(sec.ID) {
		if v, ok := w.siteSpace(ss); ok {
			out.SiteSpaces = append(out.SiteSpaces, v)
		}
	}
	return out
}

func (w *viewer) group(g *model.SiteSectionGroup) SiteSectionGroup {
	out := SiteSectionGroup{Object: "site-section-group", ID: g.ID, Title: g.Title, Icon: g.Icon, Sections: []SiteSection{}, Children: []SiteGroupChild{}}
	for _, it := range w.tree.GroupItems(g.ID) {
		if it.Section != nil {
			v := w.section(it.Section)
			out.Sections = append(out.Sections, v)
			out.Children = append(out.Children, SiteGroupChild{Section: &v})
		} else {
			v := viewExternalLink(it.Link)
			out.Children = append(out.Children, SiteGroupChild{Link: &v})
		}
	}
	return out
}

func viewExternalLink(l *model.SiteExternalLink) SiteExternalLink {
	return SiteExternalLink{Object: "site-external-link", ID: l.ID, Title: l.Title, LocalizedTitle: l.LocalizedTitle,
		Description: l.Description, LocalizedDescription: l.LocalizedDescription, Icon: l.Icon, URL: l.URL,
		SectionGroup: l.Group, Draft: l.Draft, Condition: l.Condition}
}

// siteSpace renders a site space; false when its space is not shown (a
// deleted space, in the published view).
func (w *viewer) siteSpace(ss *model.SiteSpace) (SiteSpace, bool) {
	sp, ok := w.v.Spaces[ss.SpaceID]
	if !ok {
		return SiteSpace{}, false
	}
	u := w.base
	if ss.Section != "" {
		if sec, err := w.tree.Section(ss.Section); err == nil {
			u = w.sectionBase(sec)
		}
	}
	if !ss.Default {
		u += "/" + url.PathEscape(ss.Path)
	}
	return SiteSpace{Object: "site-space", ID: ss.ID, Path: ss.Path, Section: ss.Section,
		Space: spaceshttp.View(w.ctx, sp, w.v.Role), Title: sp.Title, Default: ss.Default, Condition: ss.Condition,
		Hidden: ss.Hidden, URLs: SiteSpaceURLs{Published: w.url(u)}}, true
}

// structure renders the published structure.
func (w *viewer) structure() SiteStructure {
	if len(w.v.Site.Sections) == 0 {
		out := SiteStructure{Type: "siteSpaces", Structure: []SiteStructureItem{}}
		for _, ss := range w.tree.Level("") {
			if v, ok := w.siteSpace(ss); ok {
				out.Structure = append(out.Structure, SiteStructureItem{Space: &v})
			}
		}
		return out
	}
	out := SiteStructure{Type: "sections", Structure: []SiteStructureItem{}}
	for _, t := range w.tree.Top() {
		switch {
		case t.Section != nil:
			v := w.section(t.Section)
			out.Structure = append(out.Structure, SiteStructureItem{Section: &v})
		case t.Group != nil:
			v := w.group(t.Group)
			out.Structure = append(out.Structure, SiteStructureItem{Group: &v})
		default:
			v := viewExternalLink(t.Link)
			out.Structure = append(out.Structure, SiteStructureItem{Link: &v})
		}
	}
	return out
}

func viewShareLink(ctx context.Context, site model.Site, l model.ShareLink, orgBase string) ShareLink {
	return ShareLink{Object: "share-link", ID: l.ID, CreatedAt: l.CreatedAt, Name: l.Name, Active: l.Active,
		URLs: ShareLinkURLs{Published: withKey(publishedBase(ctx, site, orgBase), l.Key)}}
}

// viewSite renders a site without reading its spaces (its answer embeds
// none); orgBase is sites.Service.SitesBase of its organization.
func viewSite(ctx context.Context, site model.Site, role model.Role, orgBase string) Site {
	return newViewer(ctx, sites.View{Loaded: sites.Loaded{Site: site, Role: role}, OrgBase: orgBase}).site()
}
