package sites

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"

	"github.com/danielgtaylor/huma/v2"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
)

// Request shapes.

// SiteParams are the path parameters of a site.
type SiteParams struct {
	OrganizationID string `path:"organizationId" maxLength:"64"`
	SiteID         string `path:"siteId" maxLength:"64"`
}

// SectionParams are the path parameters of a section.
type SectionParams struct {
	SiteParams
	SiteSectionID string `path:"siteSectionId" maxLength:"64"`
}

// GroupParams are the path parameters of a section group.
type GroupParams struct {
	SiteParams
	SiteSectionGroupID string `path:"siteSectionGroupId" maxLength:"64"`
}

// SiteSpaceParams are the path parameters of a site space.
type SiteSpaceParams struct {
	SiteParams
	SiteSpaceID string `path:"siteSpaceId" maxLength:"64"`
}

// ShareLinkParams are the path parameters of a share link.
type ShareLinkParams struct {
	SiteParams
	ShareLinkID string `path:"shareLinkId" maxLength:"64"`
}

// OptionalBool is a boolean query parameter that may be absent.
type OptionalBool struct {
	Value bool
	Set   bool
}

// Receiver is where huma parses the value.
func (o *OptionalBool) Receiver() reflect.Value { return reflect.ValueOf(o).Elem().Field(0) }

// OnParamSet records whether the parameter was given.
func (o *OptionalBool) OnParamSet(isSet bool, _ any) { o.Set = isSet }

// Schema documents the parameter as a boolean.
func (OptionalBool) Schema(huma.Registry) *huma.Schema { return &huma.Schema{Type: huma.TypeBoolean} }

// Ptr returns the value, nil when absent.
func (o OptionalBool) Ptr() *bool {
	if !o.Set {
		return nil
	}
	v := o.Value
	return &v
}

// SiteCreateSpaces is the spaces of a new site: a list of space ids, or
// "sample" / "empty" for a new space.
type SiteCreateSpaces struct {
	IDs []string
	New string
}

// Schema documents both forms.
func (SiteCreateSpaces) Schema(r huma.Registry) *huma.Schema {
	maxItems, maxLen := MaxSiteSpaces, 64
	return &huma.Schema{OneOf: []*huma.Schema{
		{Type: huma.TypeArray, MaxItems: &maxItems, Description: "IDs of spaces to add to the site",
			Items: &huma.Schema{Type: huma.TypeString, MaxLength: &maxLen}},
		{Type: huma.TypeString, Enum: []any{"sample", "empty"}, Description: "Create a new space for the site"},
	}}
}

// UnmarshalJSON reads either form.
func (s *SiteCreateSpaces) UnmarshalJSON(data []byte) error {
	*s = SiteCreateSpaces{}
	if len(data) > 0 && data[0] == '"' {
		return json.Unmarshal(data, &s.New)
	}
	return json.Unmarshal(data, &s.IDs)
}

// SiteCreateBody is the (optional) body of POST .../sites.
type SiteCreateBody struct {
	Type       string            `json:"type,omitempty" enum:"basic,premium,ultimate,sponsored,legacy-basic,legacy-premium" doc:"Default basic"`
	Title      string            `json:"title,omitempty" minLength:"2" maxLength:"128"`
	Visibility string            `json:"visibility,omitempty" enum:"public,unlisted,share-link,visitor-auth"`
	Spaces     *SiteCreateSpaces `json:"spaces,omitempty"`
}

// SitePatchBody is the body of PATCH .../sites/{siteId}. Omitted fields are
// unchanged; null removes the proxy and is refused elsewhere.
type SitePatchBody struct {
	Title              *string              `json:"title,omitempty" minLength:"2" maxLength:"128"`
	Visibility         *string              `json:"visibility,omitempty" enum:"public,unlisted,share-link,visitor-auth"`
	Basename           *string              `json:"basename,omitempty" minLength:"1" maxLength:"100"`
	AdaptiveContent    *SiteAdaptiveContent `json:"adaptiveContent,omitempty"`
	AgentsContext      *string              `json:"agentsContext,omitempty" enum:"excluded,included"`
	DefaultSiteSpace   *string              `json:"defaultSiteSpace,omitempty" maxLength:"64" doc:"Site space made the default of the root, or of the default section"`
	DefaultSiteSection *string              `json:"defaultSiteSection,omitempty" maxLength:"64"`
	Proxy              *string              `json:"proxy,omitempty" maxLength:"512" pattern:"^([\\w-]+\\.)*[\\w-]+\\.[a-zA-Z]{2,}(\\/[\\w-]+)+$" nullable:"true" doc:"null removes the proxy"`
	Nulls              httpapi.Nulls        `json:"-"`
}

// UnmarshalJSON records which fields were sent as null.
func (b *SitePatchBody) UnmarshalJSON(data []byte) error {
	type plain SitePatchBody
	nulls, err := httpapi.DecodePatch(data, (*plain)(b))
	b.Nulls = nulls
	return err
}

// refuseNulls refuses null for fields that cannot be removed.
func refuseNulls(n httpapi.Nulls, fields ...string) error {
	for _, f := range fields {
		if n.Has(f) {
			return apperr.Field(f, "may not be null")
		}
	}
	return nil
}

// SiteSectionCreateBody is the body of POST .../sections.
type SiteSectionCreateBody struct {
	SpaceID string  `json:"spaceId" minLength:"1" maxLength:"64" doc:"Space shown by the new section"`
	Title   *string `json:"title,omitempty" minLength:"2" maxLength:"64" nullable:"true" doc:"Default: the space's title"`
	Icon    *string `json:"icon,omitempty" maxLength:"50" nullable:"true"`
}

// SiteSectionPatchBody is the body of PATCH .../sections/{siteSectionId}.
type SiteSectionPatchBody struct {
	Title            *string       `json:"title,omitempty" minLength:"2" maxLength:"128"`
	Path             *string       `json:"path,omitempty" minLength:"1" maxLength:"100"`
	DefaultSiteSpace *string       `json:"defaultSiteSpace,omitempty" maxLength:"64"`
	Condition        *string       `json:"condition,omitempty" minLength:"1" maxLength:"1024" nullable:"true" doc:"null removes it"`
	Icon             *string       `json:"icon,omitempty" maxLength:"50" nullable:"true" doc:"null removes it"`
	Description      *string       `json:"description,omitempty" maxLength:"256" nullable:"true" doc:"null removes it"`
	Nulls            httpapi.Nulls `json:"-"`
}

// UnmarshalJSON records which fields were sent as null.
func (b *SiteSectionPatchBody) UnmarshalJSON(data []byte) error {
	type plain SiteSectionPatchBody
	nulls, err := httpapi.DecodePatch(data, (*plain)(b))
	b.Nulls = nulls
	return err
}

// SiteSectionPointer points at a section.
type SiteSectionPointer struct {
	Type        string `json:"type" enum:"site-section"`
	SiteSection string `json:"siteSection" minLength:"1" maxLength:"64"`
}

// SiteSectionMovePosition is where a section moves.
type SiteSectionMovePosition struct {
	Before *SiteSectionPointer `json:"before,omitempty"`
	After  *SiteSectionPointer `json:"after,omitempty"`
}

// SiteSectionMoveBody is the body of POST .../sections/{siteSectionId}/move.
type SiteSectionMoveBody struct {
	Position *SiteSectionMovePosition `json:"position,omitempty" doc:"Absent: to the end of the site's top level"`
}

// SiteSectionGroupCreateBody is the body of POST .../section-groups.
type SiteSectionGroupCreateBody struct {
	Title    string   `json:"title" minLength:"1" maxLength:"100"`
	Icon     *string  `json:"icon,omitempty" maxLength:"50" nullable:"true"`
	Sections []string `json:"sections,omitempty" maxItems:"100" doc:"IDs of sections to put in the group, in order"`
}

// SiteSectionGroupPatchBody is the body of PATCH .../section-groups/{id}.
type SiteSectionGroupPatchBody struct {
	Title *string       `json:"title,omitempty" minLength:"1" maxLength:"100"`
	Icon  *string       `json:"icon,omitempty" maxLength:"50" nullable:"true" doc:"null removes it"`
	Nulls httpapi.Nulls `json:"-"`
}

// UnmarshalJSON records which fields were sent as null.
func (b *SiteSectionGroupPatchBody) UnmarshalJSON(data []byte) error {
	type plain SiteSectionGroupPatchBody
	nulls, err := httpapi.DecodePatch(data, (*plain)(b))
	b.Nulls = nulls
	return err
}

// SiteSectionGroupAddBody is the body of POST .../section-groups/{id}/sections.
type SiteSectionGroupAddBody struct {
	SectionID string `json:"sectionId" minLength:"1" maxLength:"64"`
}

// SiteSectionGroupPointer points at a top-level item: a section or a group.
type SiteSectionGroupPointer struct {
	Type string `json:"type" enum:"site-section,site-section-group"`
	ID   string `json:"id" minLength:"1" maxLength:"64"`
}

// SiteSectionGroupMovePosition is where a group moves.
type SiteSectionGroupMovePosition struct {
	Before *SiteSectionGroupPointer `json:"before,omitempty"`
	After  *SiteSectionGroupPointer `json:"after,omitempty"`
}

// SiteSectionGroupMoveBody is the body of POST .../section-groups/{id}/move.
type SiteSectionGroupMoveBody struct {
	Position *SiteSectionGroupMovePosition `json:"position,omitempty" doc:"Absent: to the end of the site's top level"`
}

// SiteSpaceCreateBody is the body of POST .../site-spaces.
type SiteSpaceCreateBody struct {
	SpaceID   string `json:"spaceId" minLength:"1" maxLength:"64"`
	SectionID string `json:"sectionId,omitempty" maxLength:"64" doc:"Absent: the default section, or the root of a site without sections"`
}

// SiteSpacePatchBody is the body of PATCH .../site-spaces/{siteSpaceId}.
type SiteSpacePatchBody struct {
	Path      *string       `json:"path,omitempty" minLength:"1" maxLength:"100"`
	Condition *string       `json:"condition,omitempty" minLength:"1" maxLength:"1024" nullable:"true" doc:"null removes it"`
	Nulls     httpapi.Nulls `json:"-"`
}

// UnmarshalJSON records which fields were sent as null.
func (b *SiteSpacePatchBody) UnmarshalJSON(data []byte) error {
	type plain SiteSpacePatchBody
	nulls, err := httpapi.DecodePatch(data, (*plain)(b))
	b.Nulls = nulls
	return err
}

// SiteSpacePointer points at a site space.
type SiteSpacePointer struct {
	Type      string `json:"type" enum:"site-space"`
	SiteSpace string `json:"siteSpace" minLength:"1" maxLength:"64"`
}

// SiteSpaceMovePosition is where a site space moves.
type SiteSpaceMovePosition struct {
	Before *SiteSpacePointer `json:"before,omitempty"`
	After  *SiteSpacePointer `json:"after,omitempty"`
}

// SiteSpaceMoveBody is the body of POST .../site-spaces/{siteSpaceId}/move.
type SiteSpaceMoveBody struct {
	Position *SiteSpaceMovePosition `json:"position,omitempty" doc:"Absent: to the end of its level"`
}

// ShareLinkCreateBody is the body of POST .../share-links.
type ShareLinkCreateBody struct {
	Name string `json:"name" maxLength:"50"`
}

// ShareLinkPatchBody is the body of PATCH .../share-links/{shareLinkId}.
type ShareLinkPatchBody struct {
	Active *bool         `json:"active,omitempty"`
	Name   *string       `json:"name,omitempty" maxLength:"50"`
	Nulls  httpapi.Nulls `json:"-"`
}

// UnmarshalJSON records which fields were sent as null.
func (b *ShareLinkPatchBody) UnmarshalJSON(data []byte) error {
	type plain ShareLinkPatchBody
	nulls, err := httpapi.DecodePatch(data, (*plain)(b))
	b.Nulls = nulls
	return err
}

// SiteAdaptiveSchemaBody is the body of PUT .../adaptive-schema.
type SiteAdaptiveSchemaBody struct {
	JSONSchema map[string]any `json:"jsonSchema" doc:"JSON Schema draft-07: an object of boolean claims, an optional unsigned object of boolean claims, additionalProperties false"`
}

// maxSchemaBytes bounds the body of PUT .../adaptive-schema (the schema is
// one stored item).
const maxSchemaBytes = 256 << 10

func pointer(typ, id string) *Pointer { return &Pointer{Type: typ, ID: id} }

func sectionPosition(b *SiteSectionMoveBody) Position {
	var pos Position
	if b == nil || b.Position == nil {
		return pos
	}
	if x := b.Position.Before; x != nil {
		pos.Before = pointer(x.Type, x.SiteSection)
	}
	if x := b.Position.After; x != nil {
		pos.After = pointer(x.Type, x.SiteSection)
	}
	return pos
}

func groupPosition(b *SiteSectionGroupMoveBody) Position {
	var pos Position
	if b == nil || b.Position == nil {
		return pos
	}
	if x := b.Position.Before; x != nil {
		pos.Before = pointer(x.Type, x.ID)
	}
	if x := b.Position.After; x != nil {
		pos.After = pointer(x.Type, x.ID)
	}
	return pos
}

func siteSpacePosition(b *SiteSpaceMoveBody) Position {
	var pos Position
	if b == nil || b.Position == nil {
		return pos
	}
	if x := b.Position.Before; x != nil {
		pos.Before = pointer(x.Type, x.SiteSpace)
	}
	if x := b.Position.After; x != nil {
		pos.After = pointer(x.Type, x.SiteSpace)
	}
	return pos
}

// Response envelopes.

type siteOut struct{ Body Site }
type sectionOut struct{ Body SiteSection }
type groupOut struct{ Body SiteSectionGroup }
type siteSpaceOut struct{ Body SiteSpace }
type shareLinkOut struct{ Body ShareLink }
type publishedOut struct{ Body PublishedContentSite }
type schemaOut struct{ Body SiteAdaptiveSchema }
type conditionsOut struct {
	Body SiteAdaptiveTemplateConditions
}

// item renders one item of a site just written, reading the spaces it shows.
func (s *Service) item(ctx context.Context, site model.Site, role model.Role) (*viewer, error) {
	v, err := s.ViewOf(ctx, site, role)
	if err != nil {
		return nil, err
	}
	return newViewer(ctx, v), nil
}

func (s *Service) sectionAnswer(ctx context.Context, site model.Site, role model.Role, id string) (*sectionOut, error) {
	w, err := s.item(ctx, site, role)
	if err != nil {
		return nil, err
	}
	sec, err := w.st.section(id)
	if err != nil {
		return nil, err
	}
	return &sectionOut{Body: w.section(sec)}, nil
}

func (s *Service) groupAnswer(ctx context.Context, site model.Site, role model.Role, id string) (*groupOut, error) {
	w, err := s.item(ctx, site, role)
	if err != nil {
		return nil, err
	}
	g, err := w.st.group(id)
	if err != nil {
		return nil, err
	}
	return &groupOut{Body: w.group(g)}, nil
}

func (s *Service) siteSpaceAnswer(ctx context.Context, site model.Site, role model.Role, id string) (*siteSpaceOut, error) {
	w, err := s.item(ctx, site, role)
	if err != nil {
		return nil, err
	}
	ss, err := w.st.siteSpace(id)
	if err != nil {
		return nil, err
	}
	v, ok := w.siteSpace(ss)
	if !ok {
		return nil, apperr.NotFoundf("space %s of site space %s not found", ss.SpaceID, id)
	}
	return &siteSpaceOut{Body: v}, nil
}

func shareLinkAnswer(ctx context.Context, site model.Site, id string) (*shareLinkOut, error) {
	l, err := shareLink(&site, id)
	if err != nil {
		return nil, err
	}
	return &shareLinkOut{Body: viewShareLink(ctx, site, *l)}, nil
}

func schemaAnswer(sch model.SiteAdaptiveSchema) (*schemaOut, error) {
	var doc map[string]any
	if err := json.Unmarshal(sch.JSONSchema, &doc); err != nil {
		return nil, err
	}
	return &schemaOut{Body: SiteAdaptiveSchema{Object: "site-adaptive-schema", JSONSchema: doc, UpdatedAt: sch.UpdatedAt}}, nil
}

// Routes adds the sites family's operations, on the service built from d.
func Routes(api *httpapi.API, d *deps.Deps) { Register(api, New(d)) }

// Register adds the sites family's operations.
func Register(api *httpapi.API, s *Service) {
	registerSites(api, s)
	registerSections(api, s)
	registerGroups(api, s)
	registerSiteSpaces(api, s)
	registerShareLinks(api, s)
}

const (
	tag   = "Sites"
	base  = "/v1/orgs/{organizationId}/sites"
	site1 = base + "/{siteId}"
)

func registerSites(api *httpapi.API, s *Service) {
	type listIn struct {
		OrganizationID string `path:"organizationId" maxLength:"64"`
		httpapi.ListParams
		Space     string       `query:"space" maxLength:"64" doc:"Only sites showing this space"`
		Title     string       `query:"title" maxLength:"128" doc:"Only sites whose title contains this, ignoring case"`
		Published OptionalBool `query:"published" doc:"Only published (true) or unpublished (false) sites"`
	}
	type listOut struct{ Body httpapi.List[Site] }
	httpapi.Register(api, httpapi.Op{ID: "listSites", Method: http.MethodGet, Path: base, Tag: tag, Summary: "List the sites of an organization"},
		func(ctx context.Context, in *listIn) (*listOut, error) {
			pub := ""
			if in.Published.Set {
				pub = map[bool]string{true: "true", false: "false"}[in.Published.Value]
			}
			sc := httpapi.Scope("sites", in.OrganizationID, in.Space, in.Title, pub)
			if _, err := s.d.Pager.Key(sc, in.Page); err != nil {
				return nil, err
			}
			all, role, err := s.List(ctx, in.OrganizationID, SiteFilter{Space: in.Space, Title: in.Title, Published: in.Published.Ptr()})
			if err != nil {
				return nil, err
			}
			page, next, err := httpapi.Window(s.d.Pager, sc, in.ListParams, all, func(x model.Site) string { return x.ID }, false)
			if err != nil {
				return nil, err
			}
			return &listOut{Body: httpapi.ListOf(page, next, func(site model.Site) Site { return viewSite(ctx, site, role) })}, nil
		})
	type createIn struct {
		OrganizationID string `path:"organizationId" maxLength:"64"`
		Body           *SiteCreateBody
	}
	httpapi.Register(api, httpapi.Op{ID: "createSite", Method: http.MethodPost, Path: base, Tag: tag, Status: http.StatusCreated, Summary: "Create a site"},
		func(ctx context.Context, in *createIn) (*siteOut, error) {
			var b SiteCreateBody
			if in.Body != nil {
				b = *in.Body
			}
			c := CreateSite{Type: b.Type, Title: b.Title, Visibility: b.Visibility}
			if b.Spaces != nil {
				c.SpaceIDs, c.NewSpace = b.Spaces.IDs, b.Spaces.New
			}
			site, role, err := s.Create(ctx, in.OrganizationID, c)
			if err != nil {
				return nil, err
			}
			return &siteOut{Body: viewSite(ctx, site, role)}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "getSiteById", Method: http.MethodGet, Path: site1, Tag: tag, Summary: "Get a site"},
		func(ctx context.Context, in *SiteParams) (*siteOut, error) {
			l, err := s.Get(ctx, in.OrganizationID, in.SiteID)
			if err != nil {
				return nil, err
			}
			return &siteOut{Body: viewSite(ctx, l.Site, l.Role)}, nil
		})
	type patchIn struct {
		SiteParams
		Body SitePatchBody
	}
	httpapi.Register(api, httpapi.Op{ID: "updateSiteById", Method: http.MethodPatch, Path: site1, Tag: tag, Summary: "Update a site"},
		func(ctx context.Context, in *patchIn) (*siteOut, error) {
			b := in.Body
			if err := refuseNulls(b.Nulls, "title", "visibility", "basename", "adaptiveContent", "agentsContext", "defaultSiteSpace", "defaultSiteSection"); err != nil {
				return nil, err
			}
			ch := SiteChange{Title: b.Title, Visibility: b.Visibility, Basename: b.Basename, AgentsContext: b.AgentsContext,
				DefaultSiteSpace: b.DefaultSiteSpace, DefaultSiteSection: b.DefaultSiteSection, Proxy: b.Proxy, ClearProxy: b.Nulls.Has("proxy")}
			if b.AdaptiveContent != nil {
				ch.AdaptiveContent = &b.AdaptiveContent.Enabled
			}
			site, role, err := s.Update(ctx, in.OrganizationID, in.SiteID, ch)
			if err != nil {
				return nil, err
			}
			return &siteOut{Body: viewSite(ctx, site, role)}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "deleteSiteById", Method: http.MethodDelete, Path: site1, Tag: tag, Status: http.StatusResetContent,
		Summary: "Delete a site with its structure, share links and adaptive schema"},
		func(ctx context.Context, in *SiteParams) (*struct{}, error) {
			return nil, s.Delete(ctx, in.OrganizationID, in.SiteID)
		})
	for _, p := range []struct {
		id, path, summary string
		published         bool
	}{{"publishSite", site1 + "/publish", "Publish a site to the audience its visibility sets", true},
		{"unpublishSite", site1 + "/unpublish", "Unpublish a site", false}} {
		httpapi.Register(api, httpapi.Op{ID: p.id, Method: http.MethodPost, Path: p.path, Tag: tag, Summary: p.summary},
			func(ctx context.Context, in *SiteParams) (*siteOut, error) {
				site, role, err := s.SetPublished(ctx, in.OrganizationID, in.SiteID, p.published)
				if err != nil {
					return nil, err
				}
				return &siteOut{Body: viewSite(ctx, site, role)}, nil
			})
	}
	type publishedIn struct {
		SiteParams
		ShareKey string `query:"shareKey" maxLength:"128" doc:"Key of an active share link: published URLs of a share-link site carry it"`
	}
	httpapi.Register(api, httpapi.Op{ID: "getPublishedContentSite", Method: http.MethodGet, Path: site1 + "/published", Tag: tag,
		Summary: "Get a published site with its structure"},
		func(ctx context.Context, in *publishedIn) (*publishedOut, error) {
			v, err := s.Published(ctx, in.OrganizationID, in.SiteID, in.ShareKey)
			if err != nil {
				return nil, err
			}
			w := newViewer(ctx, v)
			return &publishedOut{Body: PublishedContentSite{Object: "published-content-site", Site: w.site(), Structure: w.structure()}}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "getSiteAdaptiveSchema", Method: http.MethodGet, Path: site1 + "/adaptive-schema", Tag: tag,
		Summary: "Get a site's adaptive content schema"},
		func(ctx context.Context, in *SiteParams) (*schemaOut, error) {
			sch, err := s.AdaptiveSchema(ctx, in.OrganizationID, in.SiteID)
			if err != nil {
				return nil, err
			}
			return schemaAnswer(sch)
		})
	type schemaIn struct {
		SiteParams
		Body SiteAdaptiveSchemaBody
	}
	httpapi.Register(api, httpapi.Op{ID: "updateSiteAdaptiveSchema", Method: http.MethodPut, Path: site1 + "/adaptive-schema", Tag: tag,
		MaxBodyBytes: maxSchemaBytes, Summary: "Set a site's adaptive content schema"},
		func(ctx context.Context, in *schemaIn) (*schemaOut, error) {
			sch, err := s.PutAdaptiveSchema(ctx, in.OrganizationID, in.SiteID, in.Body.JSONSchema)
			if err != nil {
				return nil, err
			}
			return schemaAnswer(sch)
		})
	httpapi.Register(api, httpapi.Op{ID: "listSiteAdaptiveTemplateConditions", Method: http.MethodGet, Path: site1 + "/adaptive-schema/template-conditions",
		Tag: tag, Summary: "Conditions suggested by a site's adaptive schema"},
		func(ctx context.Context, in *SiteParams) (*conditionsOut, error) {
			conds, err := s.TemplateConditions(ctx, in.OrganizationID, in.SiteID)
			if err != nil {
				return nil, err
			}
			out := &conditionsOut{Body: SiteAdaptiveTemplateConditions{Items: make([]SiteAdaptiveTemplateCondition, 0, len(conds))}}
			for _, c := range conds {
				out.Body.Items = append(out.Body.Items, SiteAdaptiveTemplateCondition(c))
			}
			return out, nil
		})
}

func registerSections(api *httpapi.API, s *Service) {
	const path = site1 + "/sections"
	type listIn struct {
		SiteParams
		httpapi.ListParams
		ShareKey string `query:"shareKey" maxLength:"128" doc:"Key of an active share link: published URLs of a share-link site carry it"`
	}
	type listOut struct{ Body httpapi.List[SiteSection] }
	httpapi.Register(api, httpapi.Op{ID: "listSiteSections", Method: http.MethodGet, Path: path, Tag: tag, Summary: "List a site's sections in order"},
		func(ctx context.Context, in *listIn) (*listOut, error) {
			sc := httpapi.Scope("sections", in.SiteID, in.ShareKey)
			if _, err := s.d.Pager.Key(sc, in.Page); err != nil {
				return nil, err
			}
			v, err := s.ReadStructure(ctx, in.OrganizationID, in.SiteID, in.ShareKey)
			if err != nil {
				return nil, err
			}
			w := newViewer(ctx, v)
			page, next, err := httpapi.Window(s.d.Pager, sc, in.ListParams, w.st.sections(), w.st.sectionKey, false)
			if err != nil {
				return nil, err
			}
			return &listOut{Body: httpapi.ListOf(page, next, w.section)}, nil
		})
	type createIn struct {
		SiteParams
		Body SiteSectionCreateBody
	}
	httpapi.Register(api, httpapi.Op{ID: "addSectionToSite", Method: http.MethodPost, Path: path, Tag: tag, Status: http.StatusCreated,
		Summary: "Add a section showing a space (the first section takes the site spaces of the root)"},
		func(ctx context.Context, in *createIn) (*sectionOut, error) {
			title, icon := "", ""
			if in.Body.Title != nil {
				title = *in.Body.Title
			}
			if in.Body.Icon != nil {
				icon = *in.Body.Icon
			}
			site, id, role, err := s.AddSection(ctx, in.OrganizationID, in.SiteID, in.Body.SpaceID, title, icon)
			if err != nil {
				return nil, err
			}
			return s.sectionAnswer(ctx, site, role, id)
		})
	type patchIn struct {
		SectionParams
		Body SiteSectionPatchBody
	}
	httpapi.Register(api, httpapi.Op{ID: "updateSiteSectionById", Method: http.MethodPatch, Path: path + "/{siteSectionId}", Tag: tag, Summary: "Update a section"},
		func(ctx context.Context, in *patchIn) (*sectionOut, error) {
			b := in.Body
			if err := refuseNulls(b.Nulls, "title", "path", "defaultSiteSpace"); err != nil {
				return nil, err
			}
			site, role, err := s.UpdateSection(ctx, in.OrganizationID, in.SiteID, in.SiteSectionID, SectionChange{
				Title: b.Title, Path: b.Path, DefaultSiteSpace: b.DefaultSiteSpace, Condition: b.Condition, Icon: b.Icon,
				Description: b.Description, ClearCondition: b.Nulls.Has("condition"), ClearIcon: b.Nulls.Has("icon"),
				ClearDescription: b.Nulls.Has("description")})
			if err != nil {
				return nil, err
			}
			return s.sectionAnswer(ctx, site, role, in.SiteSectionID)
		})
	httpapi.Register(api, httpapi.Op{ID: "deleteSiteSectionById", Method: http.MethodDelete, Path: path + "/{siteSectionId}", Tag: tag,
		Status: http.StatusResetContent, Summary: "Delete a section with its site spaces"},
		func(ctx context.Context, in *SectionParams) (*struct{}, error) {
			return nil, s.DeleteSection(ctx, in.OrganizationID, in.SiteID, in.SiteSectionID)
		})
	type moveIn struct {
		SectionParams
		Body *SiteSectionMoveBody
	}
	httpapi.Register(api, httpapi.Op{ID: "moveSiteSection", Method: http.MethodPost, Path: path + "/{siteSectionId}/move", Tag: tag,
		Summary: "Move a section before or after another"},
		func(ctx context.Context, in *moveIn) (*sectionOut, error) {
			site, role, err := s.MoveSection(ctx, in.OrganizationID, in.SiteID, in.SiteSectionID, sectionPosition(in.Body))
			if err != nil {
				return nil, err
			}
			return s.sectionAnswer(ctx, site, role, in.SiteSectionID)
		})
}

func registerGroups(api *httpapi.API, s *Service) {
	const path = site1 + "/section-groups"
	type listOut struct {
		Body httpapi.List[SiteSectionGroup]
	}
	type listIn struct {
		SiteParams
		httpapi.ListParams
	}
	httpapi.Register(api, httpapi.Op{ID: "listSiteSectionGroups", Method: http.MethodGet, Path: path, Tag: tag, Summary: "List a site's section groups in order"},
		func(ctx context.Context, in *listIn) (*listOut, error) {
			sc := httpapi.Scope("section-groups", in.SiteID)
			if _, err := s.d.Pager.Key(sc, in.Page); err != nil {
				return nil, err
			}
			v, err := s.ReadStructure(ctx, in.OrganizationID, in.SiteID, "")
			if err != nil {
				return nil, err
			}
			w := newViewer(ctx, v)
			var groups []*model.SiteSectionGroup
			for _, t := range w.st.top() {
				if t.group != nil {
					groups = append(groups, t.group)
				}
			}
			page, next, err := httpapi.Window(s.d.Pager, sc, in.ListParams, groups, func(g *model.SiteSectionGroup) string { return orderKey(g.Order, g.ID) }, false)
			if err != nil {
				return nil, err
			}
			return &listOut{Body: httpapi.ListOf(page, next, w.group)}, nil
		})
	type createIn struct {
		SiteParams
		Body SiteSectionGroupCreateBody
	}
	httpapi.Register(api, httpapi.Op{ID: "addSectionGroupToSite", Method: http.MethodPost, Path: path, Tag: tag, Status: http.StatusCreated, Summary: "Add a section group"},
		func(ctx context.Context, in *createIn) (*groupOut, error) {
			icon := ""
			if in.Body.Icon != nil {
				icon = *in.Body.Icon
			}
			site, id, role, err := s.AddGroup(ctx, in.OrganizationID, in.SiteID, in.Body.Title, icon, in.Body.Sections)
			if err != nil {
				return nil, err
			}
			return s.groupAnswer(ctx, site, role, id)
		})
	type patchIn struct {
		GroupParams
		Body SiteSectionGroupPatchBody
	}
	httpapi.Register(api, httpapi.Op{ID: "updateSiteSectionGroupById", Method: http.MethodPatch, Path: path + "/{siteSectionGroupId}", Tag: tag, Summary: "Update a section group"},
		func(ctx context.Context, in *patchIn) (*groupOut, error) {
			if err := refuseNulls(in.Body.Nulls, "title"); err != nil {
				return nil, err
			}
			site, role, err := s.UpdateGroup(ctx, in.OrganizationID, in.SiteID, in.SiteSectionGroupID,
				GroupChange{Title: in.Body.Title, Icon: in.Body.Icon, ClearIcon: in.Body.Nulls.Has("icon")})
			if err != nil {
				return nil, err
			}
			return s.groupAnswer(ctx, site, role, in.SiteSectionGroupID)
		})
	httpapi.Register(api, httpapi.Op{ID: "deleteSiteSectionGroupById", Method: http.MethodDelete, Path: path + "/{siteSectionGroupId}", Tag: tag,
		Status: http.StatusResetContent, Summary: "Delete a section group (its sections stay, at its place)"},
		func(ctx context.Context, in *GroupParams) (*struct{}, error) {
			return nil, s.DeleteGroup(ctx, in.OrganizationID, in.SiteID, in.SiteSectionGroupID)
		})
	type addIn struct {
		GroupParams
		Body SiteSectionGroupAddBody
	}
	httpapi.Register(api, httpapi.Op{ID: "addSectionToGroup", Method: http.MethodPost, Path: path + "/{siteSectionGroupId}/sections", Tag: tag,
		Status: http.StatusCreated, Summary: "Put a section at the end of a group"},
		func(ctx context.Context, in *addIn) (*groupOut, error) {
			site, role, err := s.AddToGroup(ctx, in.OrganizationID, in.SiteID, in.SiteSectionGroupID, in.Body.SectionID)
			if err != nil {
				return nil, err
			}
			return s.groupAnswer(ctx, site, role, in.SiteSectionGroupID)
		})
	type removeIn struct {
		GroupParams
		SiteSectionID string `path:"siteSectionId" maxLength:"64"`
	}
	httpapi.Register(api, httpapi.Op{ID: "removeSectionFromGroup", Method: http.MethodDelete, Path: path + "/{siteSectionGroupId}/sections/{siteSectionId}", Tag: tag,
		Status: http.StatusResetContent, Summary: "Take a section out of a group (it follows the group)"},
		func(ctx context.Context, in *removeIn) (*struct{}, error) {
			return nil, s.RemoveFromGroup(ctx, in.OrganizationID, in.SiteID, in.SiteSectionGroupID, in.SiteSectionID)
		})
	type moveIn struct {
		GroupParams
		Body *SiteSectionGroupMoveBody
	}
	httpapi.Register(api, httpapi.Op{ID: "moveSiteSectionGroup", Method: http.MethodPost, Path: path + "/{siteSectionGroupId}/move", Tag: tag,
		Summary: "Move a section group before or after a top-level section or group"},
		func(ctx context.Context, in *moveIn) (*groupOut, error) {
			site, role, err := s.MoveGroup(ctx, in.OrganizationID, in.SiteID, in.SiteSectionGroupID, groupPosition(in.Body))
			if err != nil {
				return nil, err
			}
			return s.groupAnswer(ctx, site, role, in.SiteSectionGroupID)
		})
}

func registerSiteSpaces(api *httpapi.API, s *Service) {
	const path = site1 + "/site-spaces"
	type listIn struct {
		SiteParams
		httpapi.ListParams
		ShareKey string       `query:"shareKey" maxLength:"128" doc:"Key of an active share link: published URLs of a share-link site carry it"`
		Default  OptionalBool `query:"default" doc:"true: only default site spaces; false: only the others; absent: all"`
	}
	type listOut struct{ Body httpapi.List[SiteSpace] }
	httpapi.Register(api, httpapi.Op{ID: "listSiteSpaces", Method: http.MethodGet, Path: path, Tag: tag, Summary: "List a site's site spaces in order"},
		func(ctx context.Context, in *listIn) (*listOut, error) {
			def := ""
			if in.Default.Set {
				def = map[bool]string{true: "true", false: "false"}[in.Default.Value]
			}
			sc := httpapi.Scope("site-spaces", in.SiteID, in.ShareKey, def)
			if _, err := s.d.Pager.Key(sc, in.Page); err != nil {
				return nil, err
			}
			v, err := s.ReadStructure(ctx, in.OrganizationID, in.SiteID, in.ShareKey)
			if err != nil {
				return nil, err
			}
			w := newViewer(ctx, v)
			var all []*model.SiteSpace
			for _, ss := range w.st.siteSpaces() {
				if !in.Default.Set || ss.Default == in.Default.Value {
					all = append(all, ss)
				}
			}
			page, next, err := httpapi.Window(s.d.Pager, sc, in.ListParams, all, w.st.siteSpaceKey, false)
			if err != nil {
				return nil, err
			}
			out := &listOut{Body: httpapi.List[SiteSpace]{Items: make([]SiteSpace, 0, len(page)), Next: next}}
			for _, ss := range page {
				if v, ok := w.siteSpace(ss); ok {
					out.Body.Items = append(out.Body.Items, v)
				}
			}
			out.Body.Count = len(out.Body.Items)
			return out, nil
		})
	type createIn struct {
		SiteParams
		Body SiteSpaceCreateBody
	}
	httpapi.Register(api, httpapi.Op{ID: "addSpaceToSite", Method: http.MethodPost, Path: path, Tag: tag, Status: http.StatusCreated, Summary: "Add a space to a site"},
		func(ctx context.Context, in *createIn) (*siteSpaceOut, error) {
			site, id, role, err := s.AddSiteSpace(ctx, in.OrganizationID, in.SiteID, in.Body.SpaceID, in.Body.SectionID)
			if err != nil {
				return nil, err
			}
			return s.siteSpaceAnswer(ctx, site, role, id)
		})
	type patchIn struct {
		SiteSpaceParams
		Body SiteSpacePatchBody
	}
	httpapi.Register(api, httpapi.Op{ID: "updateSiteSpaceById", Method: http.MethodPatch, Path: path + "/{siteSpaceId}", Tag: tag, Summary: "Update a site space"},
		func(ctx context.Context, in *patchIn) (*siteSpaceOut, error) {
			if err := refuseNulls(in.Body.Nulls, "path"); err != nil {
				return nil, err
			}
			site, role, err := s.UpdateSiteSpace(ctx, in.OrganizationID, in.SiteID, in.SiteSpaceID,
				SiteSpaceChange{Path: in.Body.Path, Condition: in.Body.Condition, ClearCondition: in.Body.Nulls.Has("condition")})
			if err != nil {
				return nil, err
			}
			return s.siteSpaceAnswer(ctx, site, role, in.SiteSpaceID)
		})
	httpapi.Register(api, httpapi.Op{ID: "deleteSiteSpaceById", Method: http.MethodDelete, Path: path + "/{siteSpaceId}", Tag: tag,
		Status: http.StatusResetContent, Summary: "Remove a space from a site"},
		func(ctx context.Context, in *SiteSpaceParams) (*struct{}, error) {
			return nil, s.DeleteSiteSpace(ctx, in.OrganizationID, in.SiteID, in.SiteSpaceID)
		})
	type moveIn struct {
		SiteSpaceParams
		Body *SiteSpaceMoveBody
	}
	httpapi.Register(api, httpapi.Op{ID: "moveSiteSpace", Method: http.MethodPost, Path: path + "/{siteSpaceId}/move", Tag: tag,
		Summary: "Move a site space before or after another"},
		func(ctx context.Context, in *moveIn) (*siteSpaceOut, error) {
			site, role, err := s.MoveSiteSpace(ctx, in.OrganizationID, in.SiteID, in.SiteSpaceID, siteSpacePosition(in.Body))
			if err != nil {
				return nil, err
			}
			return s.siteSpaceAnswer(ctx, site, role, in.SiteSpaceID)
		})
}

func registerShareLinks(api *httpapi.API, s *Service) {
	const path = site1 + "/share-links"
	type listIn struct {
		SiteParams
		httpapi.ListParams
	}
	type listOut struct{ Body httpapi.List[ShareLink] }
	httpapi.Register(api, httpapi.Op{ID: "listSiteShareLinks", Method: http.MethodGet, Path: path, Tag: tag, Summary: "List a site's share links (administrators)"},
		func(ctx context.Context, in *listIn) (*listOut, error) {
			sc := httpapi.Scope("share-links", in.SiteID)
			if _, err := s.d.Pager.Key(sc, in.Page); err != nil {
				return nil, err
			}
			l, err := s.ShareLinks(ctx, in.OrganizationID, in.SiteID)
			if err != nil {
				return nil, err
			}
			page, next, err := httpapi.Window(s.d.Pager, sc, in.ListParams, l.Site.ShareLinks, func(x model.ShareLink) string { return x.ID }, false)
			if err != nil {
				return nil, err
			}
			return &listOut{Body: httpapi.ListOf(page, next, func(x model.ShareLink) ShareLink { return viewShareLink(ctx, l.Site, x) })}, nil
		})
	type createIn struct {
		SiteParams
		Body ShareLinkCreateBody
	}
	httpapi.Register(api, httpapi.Op{ID: "createSiteShareLink", Method: http.MethodPost, Path: path, Tag: tag, Status: http.StatusCreated, Summary: "Create a share link"},
		func(ctx context.Context, in *createIn) (*shareLinkOut, error) {
			site, id, _, err := s.CreateShareLink(ctx, in.OrganizationID, in.SiteID, in.Body.Name)
			if err != nil {
				return nil, err
			}
			return shareLinkAnswer(ctx, site, id)
		})
	type patchIn struct {
		ShareLinkParams
		Body ShareLinkPatchBody
	}
	httpapi.Register(api, httpapi.Op{ID: "updateSiteShareLinkById", Method: http.MethodPatch, Path: path + "/{shareLinkId}", Tag: tag,
		Summary: "Rename, activate or deactivate a share link"},
		func(ctx context.Context, in *patchIn) (*shareLinkOut, error) {
			b := in.Body
			if err := refuseNulls(b.Nulls, "active", "name"); err != nil {
				return nil, err
			}
			if b.Active == nil && b.Name == nil {
				return nil, apperr.Field("body", "give active or name")
			}
			site, _, err := s.UpdateShareLink(ctx, in.OrganizationID, in.SiteID, in.ShareLinkID, ShareLinkChange{Name: b.Name, Active: b.Active})
			if err != nil {
				return nil, err
			}
			return shareLinkAnswer(ctx, site, in.ShareLinkID)
		})
	httpapi.Register(api, httpapi.Op{ID: "deleteSiteShareLinkById", Method: http.MethodDelete, Path: path + "/{shareLinkId}", Tag: tag,
		Status: http.StatusResetContent, Summary: "Delete a share link (its key stops working)"},
		func(ctx context.Context, in *ShareLinkParams) (*struct{}, error) {
			return nil, s.DeleteShareLink(ctx, in.OrganizationID, in.SiteID, in.ShareLinkID)
		})
}
