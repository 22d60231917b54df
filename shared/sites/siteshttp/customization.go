package siteshttp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/danielgtaylor/huma/v2"
	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/sites"
)

type customizationOut struct{ Body SiteCustomizationSettings }

// customizationView renders effective settings (a JSON object the service
// keeps) in the API's shape.
func customizationView(c sites.Customization) (SiteCustomizationSettings, error) {
	var out SiteCustomizationSettings
	raw, err := json.Marshal(c.Settings)
	if err != nil {
		return out, err
	}
	if err := json.Unmarshal(raw, &out.SiteCustomizationInput); err != nil {
		return out, fmt.Errorf("stored customization: %w", err)
	}
	if out.SocialAccounts == nil {
		out.SocialAccounts = []CustomizationSocialAccount{}
	}
	out.UpdatedAt = c.UpdatedAt
	return out, nil
}

func customizationAnswer(c sites.Customization, err error) (*customizationOut, error) {
	if err != nil {
		return nil, err
	}
	v, err := customizationView(c)
	if err != nil {
		return nil, err
	}
	return &customizationOut{Body: v}, nil
}

// settingsValidator checks customization settings, given as a JSON
// object, against the schema of SiteCustomizationInput (the reference's
// fields, enums, colours and limits). A lazy API (httpapi.Config.Lazy)
// builds the schema on the first check, an eager one at once (its registry
// is then complete before the API serves).
type settingsValidator struct {
	reg    huma.Registry
	schema func() *huma.Schema
}

func newSettingsValidator(api *httpapi.API) settingsValidator {
	reg := api.Huma.OpenAPI().Components.Schemas
	build := func() *huma.Schema { return reg.Schema(reflect.TypeFor[SiteCustomizationInput](), true, "") }
	if !api.Config().Lazy {
		s := build()
		build = func() *huma.Schema { return s }
	}
	return settingsValidator{reg: reg, schema: sync.OnceValue(build)}
}

// check answers a 400 naming each offending field.
func (v settingsValidator) check(settings map[string]any) error {
	res := &huma.ValidateResult{}
	huma.Validate(v.reg, v.schema(), huma.NewPathBuffer([]byte{}, 0), huma.ModeWriteToServer, settings, res)
	if len(res.Errors) == 0 {
		return nil
	}
	msgs := make([]string, 0, len(res.Errors))
	for _, e := range res.Errors {
		if d, ok := e.(*huma.ErrorDetail); ok {
			msgs = append(msgs, d.Location+": "+d.Message)
		} else {
			msgs = append(msgs, e.Error())
		}
	}
	sort.Strings(msgs)
	return apperr.New(apperr.Invalid, "%s", strings.Join(msgs, "; "))
}

// withoutNulls is an override with its resets left out (a null is always
// valid: it shows the site's value again).
func withoutNulls(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if v == nil {
			continue
		}
		if sub, ok := v.(map[string]any); ok {
			out[k] = withoutNulls(sub)
			continue
		}
		out[k] = v
	}
	return out
}

func registerCustomization(api *httpapi.API, s *sites.Service) {
	settings := newSettingsValidator(api)
	type getIn struct {
		SiteParams
		Unmasked bool `query:"unmasked" doc:"Ignored: Galley masks nothing"`
	}
	httpapi.Register(api, httpapi.Op{ID: "getSiteCustomizationById", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodGet, Path: site1 + "/customization", Tag: tag,
		Summary: "Get a site's customization settings"},
		func(ctx context.Context, in *getIn) (*customizationOut, error) {
			return customizationAnswer(s.Customization(ctx, in.OrganizationID, in.SiteID))
		})
	type putIn struct {
		SiteParams
		Body SiteCustomizationInput
	}
	httpapi.Register(api, httpapi.Op{ID: "updateSiteCustomizationById", Needs: access.Role(access.AdminContent), Method: http.MethodPut, Path: site1 + "/customization", Tag: tag,
		Summary: "Replace a site's customization settings"},
		func(ctx context.Context, in *putIn) (*customizationOut, error) {
			raw, err := json.Marshal(in.Body)
			if err != nil {
				return nil, err
			}
			var m map[string]any
			if err := json.Unmarshal(raw, &m); err != nil {
				return nil, err
			}
			return customizationAnswer(s.PutCustomization(ctx, in.OrganizationID, in.SiteID, m))
		})
	type ssGetIn struct {
		SiteSpaceParams
		Unmasked bool `query:"unmasked" doc:"Ignored: Galley masks nothing"`
	}
	httpapi.Register(api, httpapi.Op{ID: "getSiteSpaceCustomizationById", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodGet, Path: site1 + "/site-spaces/{siteSpaceId}/customization",
		Tag: tag, Summary: "Get a site space's customization settings (the site's, with the site space's overrides)"},
		func(ctx context.Context, in *ssGetIn) (*customizationOut, error) {
			return customizationAnswer(s.SiteSpaceCustomization(ctx, in.OrganizationID, in.SiteID, in.SiteSpaceID))
		})
	type patchIn struct {
		SiteSpaceParams
		Body map[string]any `doc:"Settings overriding the site's, in the shape of the site's settings; null resets a member to the site's value. A member sent with the value the site space shows, and not overridden, stays the site's; updatedAt (read only) is ignored"`
	}
	httpapi.Register(api, httpapi.Op{ID: "overrideSiteSpaceCustomizationById", Needs: access.Role(access.AdminContent), Method: http.MethodPatch, Path: site1 + "/site-spaces/{siteSpaceId}/customization",
		Tag: tag, Summary: "Override a site's customization settings for one site space"},
		func(ctx context.Context, in *patchIn) (*customizationOut, error) {
			delete(in.Body, "updatedAt") // read only: the GET answer's, sent back
			if err := settings.check(sites.MergeCustomization(sites.DefaultCustomization(), withoutNulls(in.Body))); err != nil {
				return nil, err
			}
			return customizationAnswer(s.OverrideSiteSpaceCustomization(ctx, in.OrganizationID, in.SiteID, in.SiteSpaceID, in.Body))
		})
	httpapi.Register(api, httpapi.Op{ID: "deleteSiteSpaceCustomizationById", Needs: access.Role(access.AdminContent), Method: http.MethodDelete, Path: site1 + "/site-spaces/{siteSpaceId}/customization",
		Tag: tag, Status: http.StatusResetContent, Summary: "Remove a site space's overrides (205; 204 when it had none)",
		Also: map[int]string{http.StatusNoContent: "The site space had no overrides"}},
		func(ctx context.Context, in *SiteSpaceParams) (*httpapi.RemovedOut, error) {
			return httpapi.Removed(s.DeleteSiteSpaceCustomization(ctx, in.OrganizationID, in.SiteID, in.SiteSpaceID))
		})
}
