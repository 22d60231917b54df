// Package customfieldshttp is the custom fields family's HTTP layer: its
// operations, request bodies and response shapes, on the service of
// package customfields (which knows no HTTP).
package customfieldshttp

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/customfields"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs/orgshttp"
)

// CustomField is the API shape of a custom field.
type CustomField struct {
	ID          string                 `json:"id"`
	Name        string                 `json:"name" minLength:"1" maxLength:"50" pattern:"^[a-z_\\-0-9]+$"`
	Title       string                 `json:"title" maxLength:"100"`
	Description string                 `json:"description" maxLength:"200"`
	Type        string                 `json:"type" enum:"text,number,boolean,tags,select:multi,select:single"`
	Placeholder string                 `json:"placeholder" maxLength:"100"`
	Options     []string               `json:"options,omitempty" nullable:"false" minItems:"1" maxItems:"50"`
	CreatedAt   time.Time              `json:"createdAt"`
	UpdatedAt   time.Time              `json:"updatedAt"`
	URLs        CustomFieldURLs        `json:"urls"`
	Permissions CustomFieldPermissions `json:"permissions"`
}

// CustomFieldURLs are a custom field's links.
type CustomFieldURLs struct {
	Location string `json:"location" format:"uri"`
}

// CustomFieldPermissions is the `permissions` object of a custom field.
type CustomFieldPermissions struct {
	View bool `json:"view"`
	Edit bool `json:"edit"`
}

// View renders a custom field for a caller with an organization role.
func View(ctx context.Context, f model.CustomField, role model.Role) CustomField {
	return CustomField{ID: f.ID, Name: f.Name, Title: f.Title, Description: f.Description, Type: f.Type, Placeholder: f.Placeholder,
		Options: f.Options, CreatedAt: f.CreatedAt, UpdatedAt: f.UpdatedAt,
		URLs:        CustomFieldURLs{Location: httpapi.APIURL(ctx) + "/v1/orgs/" + f.OrgID + "/custom-fields/" + url.PathEscape(f.Name)},
		Permissions: CustomFieldPermissions{View: access.Allowed(role, access.ReadContent), Edit: access.Allowed(role, access.AdminOrg)}}
}

// CustomFieldValueEntry is a field with a space's value of it.
type CustomFieldValueEntry struct {
	CustomField CustomField `json:"customField"`
	Value       any         `json:"value,omitempty" doc:"A string (at most 256 characters), a number, a boolean or an array of strings; absent when unset"`
}

// CreateCustomFieldBody is the body of POST /v1/orgs/{organizationId}/custom-fields.
type CreateCustomFieldBody struct {
	Name        string   `json:"name" minLength:"1" maxLength:"50" pattern:"^[a-z_\\-0-9]+$"`
	Type        string   `json:"type" enum:"text,number,boolean,tags,select:multi,select:single"`
	Title       string   `json:"title,omitempty" maxLength:"100"`
	Description string   `json:"description,omitempty" maxLength:"200"`
	Placeholder string   `json:"placeholder,omitempty" maxLength:"100"`
	Options     []string `json:"options,omitempty" nullable:"false" minItems:"1" maxItems:"50" doc:"Required for select types, each 1 to 40 characters"`
}

// UpdateCustomFieldBody is the body of PATCH /v1/orgs/{organizationId}/custom-fields/{fieldName}.
type UpdateCustomFieldBody struct {
	Title       *string  `json:"title,omitempty" maxLength:"100"`
	Description *string  `json:"description,omitempty" maxLength:"200"`
	Placeholder *string  `json:"placeholder,omitempty" maxLength:"100"`
	Options     []string `json:"options,omitempty" nullable:"false" minItems:"1" maxItems:"50"`
}

// CustomFieldValueInput is one value to set; null removes it.
type CustomFieldValueInput struct {
	Value any `json:"value" doc:"Typed by the field: a string, a number, a boolean or an array of strings; null removes the value"`
}

// UpdateCustomFieldValuesBody is the body of PATCH /v1/spaces/{spaceId}/custom-fields.
type UpdateCustomFieldValuesBody struct {
	Values map[string]CustomFieldValueInput `json:"values" doc:"Values by field name"`
}

type fieldPath struct {
	OrganizationID string `path:"organizationId" maxLength:"64"`
	FieldName      string `path:"fieldName" maxLength:"50"`
}

// Register adds the custom fields family's operations.
func Register(api *httpapi.API, s *customfields.Service) {
	const tag = "Custom fields"
	httpapi.Register(api, httpapi.Op{ID: "createOrganizationCustomField", Needs: access.Role(access.AdminOrg), Method: http.MethodPost, Path: "/v1/orgs/{organizationId}/custom-fields", Tag: tag,
		Status: http.StatusCreated, Summary: "Define a custom field of the organization's spaces"},
		func(ctx context.Context, in *struct {
			OrganizationID string `path:"organizationId" maxLength:"64"`
			Body           CreateCustomFieldBody
		}) (*httpapi.Created[CustomField], error) {
			b := in.Body
			return httpapi.AnswerCreatedAs(ctx, View, func(v CustomField) string { return v.URLs.Location })(s.Create(ctx, in.OrganizationID,
				customfields.Create{Name: b.Name, Type: b.Type, Title: b.Title, Description: b.Description, Placeholder: b.Placeholder, Options: b.Options}))
		})
	httpapi.Register(api, httpapi.Op{ID: "listOrganizationCustomFields", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: "/v1/orgs/{organizationId}/custom-fields", Tag: tag,
		Summary: "List the organization's custom fields, by name"},
		func(ctx context.Context, in *orgshttp.OrgListIn) (*httpapi.Out[httpapi.List[CustomField]], error) {
			return httpapi.AnswerPageAs(ctx, View)(s.List(ctx, in.OrganizationID, in.Request()))
		})
	httpapi.Register(api, httpapi.Op{ID: "getOrganizationCustomFieldByName", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: "/v1/orgs/{organizationId}/custom-fields/{fieldName}", Tag: tag,
		Summary: "Get a custom field by name"},
		func(ctx context.Context, in *fieldPath) (*httpapi.Out[CustomField], error) {
			return httpapi.AnswerAs(ctx, View)(s.Get(ctx, in.OrganizationID, in.FieldName))
		})
	httpapi.Register(api, httpapi.Op{ID: "updateOrganizationCustomField", Needs: access.Role(access.AdminOrg), Method: http.MethodPatch, Path: "/v1/orgs/{organizationId}/custom-fields/{fieldName}", Tag: tag,
		Summary: "Update a custom field (its name and type do not change)"},
		func(ctx context.Context, in *struct {
			OrganizationID string `path:"organizationId" maxLength:"64"`
			FieldName      string `path:"fieldName" maxLength:"50"`
			Body           UpdateCustomFieldBody
		}) (*httpapi.Out[CustomField], error) {
			b := in.Body
			return httpapi.AnswerAs(ctx, View)(s.Update(ctx, in.OrganizationID, in.FieldName, customfields.Change{Title: b.Title, Description: b.Description, Placeholder: b.Placeholder, Options: b.Options}))
		})
	httpapi.Register(api, httpapi.Op{ID: "deleteOrganizationCustomField", Needs: access.Role(access.AdminOrg), Method: http.MethodDelete, Path: "/v1/orgs/{organizationId}/custom-fields/{fieldName}", Tag: tag,
		Status: http.StatusNoContent, Summary: "Delete a custom field and its values on every space"},
		func(ctx context.Context, in *fieldPath) (*struct{}, error) {
			return nil, s.Delete(ctx, in.OrganizationID, in.FieldName)
		})
	httpapi.Register(api, httpapi.Op{ID: "getSpaceCustomFields", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: "/v1/spaces/{spaceId}/custom-fields", Tag: tag,
		Summary: "The organization's custom fields with the space's values"},
		func(ctx context.Context, in *struct {
			SpaceID string `path:"spaceId" maxLength:"64"`
		}) (*struct{ Body []CustomFieldValueEntry }, error) {
			es, role, err := s.SpaceValues(ctx, in.SpaceID)
			if err != nil {
				return nil, err
			}
			out := make([]CustomFieldValueEntry, 0, len(es))
			for _, e := range es {
				entry := CustomFieldValueEntry{CustomField: View(ctx, e.Field, role)}
				if e.Value != nil {
					if err := json.Unmarshal(e.Value, &entry.Value); err != nil {
						return nil, err
					}
				}
				out = append(out, entry)
			}
			return &struct{ Body []CustomFieldValueEntry }{out}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "updateSpaceCustomFields", Needs: access.Role(access.EditContent), Method: http.MethodPatch, Path: "/v1/spaces/{spaceId}/custom-fields", Tag: tag,
		Status: http.StatusNoContent, Summary: "Set or remove values of the space's custom fields"},
		func(ctx context.Context, in *struct {
			SpaceID string `path:"spaceId" maxLength:"64"`
			Body    UpdateCustomFieldValuesBody
		}) (*struct{}, error) {
			values := make(map[string]any, len(in.Body.Values))
			for name, v := range in.Body.Values {
				values[name] = v.Value
			}
			return nil, s.SetSpaceValues(ctx, in.SpaceID, values)
		})
}
