// Package translationshttp is the translations family's HTTP layer: its
// operations, request bodies and response shapes, on the service of
// package translations (which knows no HTTP).
package translationshttp

import (
	"context"
	"net/http"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs/orgshttp"
	"github.com/galleydocs/galley/shared/translations"
)

// TranslationSettings is the API shape of translation settings.
type TranslationSettings struct {
	Object      string                         `json:"object" enum:"translation-settings"`
	ID          string                         `json:"id"`
	Title       string                         `json:"title" minLength:"1" maxLength:"100"`
	Languages   []string                       `json:"languages" nullable:"false" enum:"en,fr,de,es,it,pt,ru,ja,zh,ko,ar,hi,nl,pl,tr,sv,no,da,fi,el,cs,hu,ro,th,vi,id,ms,he,uk,sk,bg,hr,lt,lv,et,sl"`
	CreatedAt   time.Time                      `json:"createdAt"`
	UpdatedAt   time.Time                      `json:"updatedAt"`
	Permissions TranslationSettingsPermissions `json:"permissions"`
	URLs        TranslationSettingsURLs        `json:"urls"`
}

// TranslationSettingsPermissions is the `permissions` object of translation settings.
type TranslationSettingsPermissions struct {
	View bool `json:"view"`
	Edit bool `json:"edit"`
}

// TranslationSettingsURLs are the links of translation settings.
type TranslationSettingsURLs struct {
	Location string `json:"location" format:"uri"`
}

// View renders translation settings for a caller with an organization role.
func View(ctx context.Context, t model.TranslationSettings, role model.Role) TranslationSettings {
	langs := t.Languages
	if langs == nil {
		langs = []string{}
	}
	return TranslationSettings{Object: "translation-settings", ID: t.ID, Title: t.Title, Languages: langs,
		CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt,
		Permissions: TranslationSettingsPermissions{View: access.Allowed(role, access.ReadContent), Edit: access.Allowed(role, access.AdminOrg)},
		URLs:        TranslationSettingsURLs{Location: httpapi.APIURL(ctx) + "/v1/orgs/" + t.OrgID + "/translations/" + t.ID}}
}

// CreateTranslationBody is the body of POST /v1/orgs/{organizationId}/translations.
type CreateTranslationBody struct {
	Title     string   `json:"title" minLength:"1" maxLength:"100"`
	Languages []string `json:"languages,omitempty" nullable:"false" maxItems:"36" uniqueItems:"true" doc:"Language codes; default none" enum:"en,fr,de,es,it,pt,ru,ja,zh,ko,ar,hi,nl,pl,tr,sv,no,da,fi,el,cs,hu,ro,th,vi,id,ms,he,uk,sk,bg,hr,lt,lv,et,sl"`
}

// UpdateTranslationBody is the body of PUT /v1/orgs/{organizationId}/translations/{translationSettingsId}.
type UpdateTranslationBody struct {
	Title     string   `json:"title" minLength:"1" maxLength:"100"`
	Languages []string `json:"languages,omitempty" nullable:"false" maxItems:"36" uniqueItems:"true" doc:"Replaces the languages; omitted: unchanged" enum:"en,fr,de,es,it,pt,ru,ja,zh,ko,ar,hi,nl,pl,tr,sv,no,da,fi,el,cs,hu,ro,th,vi,id,ms,he,uk,sk,bg,hr,lt,lv,et,sl"`
}

type settingsPath struct {
	OrganizationID        string `path:"organizationId" maxLength:"64"`
	TranslationSettingsID string `path:"translationSettingsId" maxLength:"64"`
}

// Register adds the translation settings operations.
func Register(api *httpapi.API, s *translations.Service) {
	const tag = "Translations"
	const base = "/v1/orgs/{organizationId}/translations"
	httpapi.Register(api, httpapi.Op{ID: "listTranslations", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base, Tag: tag,
		Summary: "List the organization's translation settings (oldest first)"},
		func(ctx context.Context, in *orgshttp.OrgListIn) (*httpapi.Out[httpapi.List[TranslationSettings]], error) {
			return httpapi.AnswerPageAs(ctx, View)(s.List(ctx, in.OrganizationID, in.Request()))
		})
	httpapi.Register(api, httpapi.Op{ID: "createTranslation", Needs: access.Role(access.AdminOrg), Method: http.MethodPost, Path: base, Tag: tag, Status: http.StatusCreated,
		Summary: "Create translation settings"},
		func(ctx context.Context, in *struct {
			OrganizationID string `path:"organizationId" maxLength:"64"`
			Body           CreateTranslationBody
		}) (*httpapi.Created[TranslationSettings], error) {
			t, role, err := s.Create(ctx, in.OrganizationID, in.Body.Title, in.Body.Languages)
			if err != nil {
				return nil, err
			}
			v := View(ctx, t, role)
			return &httpapi.Created[TranslationSettings]{Location: v.URLs.Location, Body: v}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "getTranslation", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base + "/{translationSettingsId}", Tag: tag,
		Summary: "Get translation settings"},
		func(ctx context.Context, in *settingsPath) (*httpapi.Out[TranslationSettings], error) {
			return httpapi.AnswerAs(ctx, View)(s.Get(ctx, in.OrganizationID, in.TranslationSettingsID))
		})
	httpapi.Register(api, httpapi.Op{ID: "updateTranslation", Needs: access.Role(access.AdminOrg), Method: http.MethodPut, Path: base + "/{translationSettingsId}", Tag: tag,
		Summary: "Replace the title (and, when given, the languages) of translation settings"},
		func(ctx context.Context, in *struct {
			OrganizationID        string `path:"organizationId" maxLength:"64"`
			TranslationSettingsID string `path:"translationSettingsId" maxLength:"64"`
			Body                  UpdateTranslationBody
		}) (*httpapi.Out[TranslationSettings], error) {
			return httpapi.AnswerAs(ctx, View)(s.Replace(ctx, in.OrganizationID, in.TranslationSettingsID, in.Body.Title, in.Body.Languages))
		})
	httpapi.Register(api, httpapi.Op{ID: "deleteTranslation", Needs: access.Role(access.AdminOrg), Method: http.MethodDelete, Path: base + "/{translationSettingsId}", Tag: tag,
		Status: http.StatusResetContent, Summary: "Delete translation settings (205; 204 when there were none)", Also: httpapi.NothingToRemove("translation")},
		func(ctx context.Context, in *settingsPath) (*httpapi.RemovedOut, error) {
			return httpapi.Removed(s.Delete(ctx, in.OrganizationID, in.TranslationSettingsID))
		})
}
