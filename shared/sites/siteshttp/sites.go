package siteshttp

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/sites"
)

// SiteCreateSpaces is the spaces of a new site: a list of space ids, or
// "sample" / "empty" for a new space.
type SiteCreateSpaces struct {
	IDs []string
	New string
}

// Schema documents both forms.
func (SiteCreateSpaces) Schema(r huma.Registry) *huma.Schema {
	maxItems := sites.MaxSiteSpaces
	return &huma.Schema{OneOf: []*huma.Schema{
		{Type: huma.TypeArray, MaxItems: &maxItems, Description: "IDs of spaces to add to the site",
			Items: httpapi.IDSchema(r, 0)},
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
	Basename           *ids.ID              `json:"basename,omitempty" minLength:"1" maxLength:"100"`
	AdaptiveContent    *SiteAdaptiveContent `json:"adaptiveContent,omitempty"`
	AgentsContext      *string              `json:"agentsContext,omitempty" enum:"excluded,included"`
	DefaultSiteSpace   *ids.ID              `json:"defaultSiteSpace,omitempty" doc:"Site space made the default of the root, or of the default section"`
	DefaultSiteSection *ids.ID              `json:"defaultSiteSection,omitempty"`
	Proxy              *string              `json:"proxy,omitempty" maxLength:"512" pattern:"^([\\w-]+\\.)*[\\w-]+\\.[a-zA-Z]{2,}(\\/[\\w-]+)+$" nullable:"true" doc:"null removes the proxy"`
	FrameAncestors     *[]string            `json:"frameAncestors,omitempty" maxItems:"20" nullable:"true" doc:"Galley's extension: origins (scheme://host[:port]) that may show the site's pages in a frame, besides the site's own; null or [] leaves the site's own only"`
	Nulls              httpapi.Nulls        `json:"-"`
}

// SiteAdaptiveSchemaBody is the body of PUT .../adaptive-schema.
type SiteAdaptiveSchemaBody struct {
	JSONSchema map[string]any `json:"jsonSchema" doc:"JSON Schema draft-07: an object of boolean claims, an optional unsigned object of boolean claims, additionalProperties false"`
}

// maxSchemaBytes bounds the body of PUT .../adaptive-schema (the schema is
// one stored item).
const maxSchemaBytes = 256 << 10

type siteOut struct{ Body Site }

type publishedOut struct{ Body PublishedContentSite }

type schemaOut struct{ Body SiteAdaptiveSchema }

type conditionsOut struct {
	Body SiteAdaptiveTemplateConditions
}

func schemaAnswer(sch model.SiteAdaptiveSchema) (*schemaOut, error) {
	var doc map[string]any
	if err := json.Unmarshal(sch.JSONSchema, &doc); err != nil {
		return nil, err
	}
	return &schemaOut{Body: SiteAdaptiveSchema{Object: "site-adaptive-schema", JSONSchema: doc, UpdatedAt: sch.UpdatedAt}}, nil
}

func registerSites(api *httpapi.API, s *sites.Service) {
	type listIn struct {
		OrganizationID string `path:"organizationId" maxLength:"64"`
		httpapi.ListParams
		Space     string               `query:"space" maxLength:"64" doc:"Only sites showing this space"`
		Title     string               `query:"title" maxLength:"128" doc:"Only sites whose title contains this, ignoring case"`
		Published httpapi.OptionalBool `query:"published" doc:"Only published (true) or unpublished (false) sites"`
	}
	type listOut struct{ Body httpapi.List[Site] }
	httpapi.Register(api, httpapi.Op{ID: "listSites", Needs: access.Role(access.ViewOrg), Method: http.MethodGet, Path: base, Tag: tag, Summary: "List the sites of an organization"},
		func(ctx context.Context, in *listIn) (*listOut, error) {
			p, err := s.List(ctx, in.OrganizationID, sites.SiteFilter{Space: in.Space, Title: in.Title, Published: in.Published.Ptr()}, in.Request())
			if err != nil {
				return nil, err
			}
			base, err := s.SitesBase(ctx, in.OrganizationID)
			if err != nil {
				return nil, err
			}
			return &listOut{Body: httpapi.ListPage(p, func(l sites.Loaded) Site { return viewSite(ctx, l.Site, l.Role, base) })}, nil
		})
	type createIn struct {
		OrganizationID string `path:"organizationId" maxLength:"64"`
		Body           *SiteCreateBody
	}
	httpapi.Register(api, httpapi.Op{ID: "createSite", Idempotent: true, Needs: access.Role(access.CreateContent), Method: http.MethodPost, Path: base, Tag: tag, Status: http.StatusCreated, Summary: "Create a site"},
		func(ctx context.Context, in *createIn) (*siteOut, error) {
			var b SiteCreateBody
			if in.Body != nil {
				b = *in.Body
			}
			c := sites.CreateSite{Type: b.Type, Title: b.Title, Visibility: b.Visibility}
			if b.Spaces != nil {
				c.SpaceIDs, c.NewSpace = b.Spaces.IDs, b.Spaces.New
			}
			site, role, err := s.Create(ctx, in.OrganizationID, c)
			if err != nil {
				return nil, err
			}
			return siteAnswer(ctx, s, site, role)
		})
	httpapi.Register(api, httpapi.Op{ID: "getSiteById", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: site1, Tag: tag, Summary: "Get a site"},
		func(ctx context.Context, in *SiteParams) (*siteOut, error) {
			l, err := s.Get(ctx, in.OrganizationID, in.SiteID)
			if err != nil {
				return nil, err
			}
			return siteAnswer(ctx, s, l.Site, l.Role)
		})
	type patchIn struct {
		SiteParams
		Body SitePatchBody
	}
	httpapi.Register(api, httpapi.Op{ID: "updateSiteById", Needs: access.Role(access.AdminContent), Method: http.MethodPatch, Path: site1, Tag: tag, Summary: "Update a site"},
		func(ctx context.Context, in *patchIn) (*siteOut, error) {
			b := in.Body
			ch := sites.SiteChange{Title: b.Title, Visibility: b.Visibility, Basename: (*string)(b.Basename), AgentsContext: b.AgentsContext,
				DefaultSiteSpace: (*string)(b.DefaultSiteSpace), DefaultSiteSection: (*string)(b.DefaultSiteSection), Proxy: b.Proxy, ClearProxy: b.Nulls.Has("proxy"),
				FrameAncestors: b.FrameAncestors}
			if b.Nulls.Has("frameAncestors") {
				ch.FrameAncestors = &[]string{}
			}
			if b.AdaptiveContent != nil {
				ch.AdaptiveContent = &b.AdaptiveContent.Enabled
			}
			site, role, err := s.Update(ctx, in.OrganizationID, in.SiteID, ch)
			if err != nil {
				return nil, err
			}
			return siteAnswer(ctx, s, site, role)
		})
	httpapi.Register(api, httpapi.Op{ID: "deleteSiteById", Needs: access.Role(access.AdminContent), Method: http.MethodDelete, Path: site1, Tag: tag, Status: http.StatusResetContent,
		Summary: "Delete a site with its structure, share links and adaptive schema"},
		func(ctx context.Context, in *SiteParams) (*struct{}, error) {
			return nil, s.Delete(ctx, in.OrganizationID, in.SiteID)
		})
	for _, p := range []struct {
		id, path, summary string
		published         bool
	}{{"publishSite", site1 + "/publish", "Publish a site to the audience its visibility sets", true},
		{"unpublishSite", site1 + "/unpublish", "Unpublish a site", false}} {
		httpapi.Register(api, httpapi.Op{ID: p.id, Needs: access.Role(access.AdminContent), Method: http.MethodPost, Path: p.path, Tag: tag, Summary: p.summary},
			func(ctx context.Context, in *SiteParams) (*siteOut, error) {
				site, role, err := s.SetPublished(ctx, in.OrganizationID, in.SiteID, p.published)
				if err != nil {
					return nil, err
				}
				return siteAnswer(ctx, s, site, role)
			})
	}
	type publishedIn struct {
		SiteParams
		ShareKey string `query:"shareKey" maxLength:"128" doc:"Key of an active share link: published URLs of a share-link site carry it"`
	}
	httpapi.Register(api, httpapi.Op{ID: "getPublishedContentSite", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodGet, Path: site1 + "/published", Tag: tag,
		Summary: "Get a published site with its structure"},
		func(ctx context.Context, in *publishedIn) (*publishedOut, error) {
			v, err := s.Published(ctx, in.OrganizationID, in.SiteID, in.ShareKey)
			if err != nil {
				return nil, err
			}
			w := newViewer(ctx, v)
			cust, err := publishedCustomizations(v.Customizations)
			if err != nil {
				return nil, err
			}
			return &publishedOut{Body: PublishedContentSite{Object: "published-content-site", Site: w.site(), Structure: w.structure(),
				Customizations: cust, Scripts: []SiteIntegrationScript{}}}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "getSiteStructure", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodGet, Path: site1 + "/structure", Tag: tag,
		Summary: "Get a site's structure: its sections and groups, or its site spaces"},
		func(ctx context.Context, in *publishedIn) (*httpapi.Out[SiteStructure], error) {
			structure := func(v sites.View) SiteStructure { return newViewer(ctx, v).structure() }
			return httpapi.Answer(structure)(s.Structure(ctx, in.OrganizationID, in.SiteID, in.ShareKey))
		})
	httpapi.Register(api, httpapi.Op{ID: "getSiteAdaptiveSchema", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: site1 + "/adaptive-schema", Tag: tag,
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
	httpapi.Register(api, httpapi.Op{ID: "updateSiteAdaptiveSchema", Needs: access.Role(access.CreateContent), Method: http.MethodPut, Path: site1 + "/adaptive-schema", Tag: tag,
		MaxBodyBytes: maxSchemaBytes, Summary: "Set a site's adaptive content schema"},
		func(ctx context.Context, in *schemaIn) (*schemaOut, error) {
			sch, err := s.PutAdaptiveSchema(ctx, in.OrganizationID, in.SiteID, in.Body.JSONSchema)
			if err != nil {
				return nil, err
			}
			return schemaAnswer(sch)
		})
	httpapi.Register(api, httpapi.Op{ID: "listSiteAdaptiveTemplateConditions", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: site1 + "/adaptive-schema/template-conditions",
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

// siteAnswer renders a site after an operation on it, under its
// organization's sites base (sites.Service.SitesBase).
func siteAnswer(ctx context.Context, s *sites.Service, site model.Site, role model.Role) (*siteOut, error) {
	var base string
	if sites.ByBasename(site) {
		var err error
		if base, err = s.SitesBase(ctx, site.OrgID); err != nil {
			return nil, err
		}
	}
	return &siteOut{Body: viewSite(ctx, site, role, base)}, nil
}
