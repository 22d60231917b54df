// Package openapispecshttp is the OpenAPI specs family's HTTP layer: its
// operations, request bodies and response shapes, on the service of
// package openapispecs (which knows no HTTP).
package openapispecshttp

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/openapispecs"
	"github.com/galleydocs/galley/shared/orgs/orgshttp"
)

// SlugPattern is the reference's OpenAPISpecSlug pattern.
const SlugPattern = `^[a-z0-9]+(?:-[a-z0-9]+)*$`

// OpenAPISpec is the API shape of an OpenAPI spec.
type OpenAPISpec struct {
	Object                  string                 `json:"object" enum:"openapi-spec"`
	ID                      string                 `json:"id"`
	CreatedAt               time.Time              `json:"createdAt"`
	UpdatedAt               time.Time              `json:"updatedAt"`
	Slug                    string                 `json:"slug" minLength:"1" maxLength:"100" pattern:"^[a-z0-9]+(?:-[a-z0-9]+)*$"`
	SourceURL               string                 `json:"sourceURL,omitempty" format:"uri" maxLength:"2048"`
	ProcessingState         string                 `json:"processingState" enum:"pending,progress,complete"`
	Visibility              string                 `json:"visibility" enum:"private,public" doc:"public: the content's urls.public is set (the source URL of a spec fetched from one; Galley serves no public copy of a text)"`
	LastVersion             string                 `json:"lastVersion,omitempty" doc:"ID of the latest version"`
	LastProcessedAt         *time.Time             `json:"lastProcessedAt,omitempty"`
	LastProcessErrorCode    string                 `json:"lastProcessErrorCode,omitempty" enum:"FETCH_TIMEOUT,FETCH_ERROR,PARSE_ERROR"`
	LastProcessedErrors     []OpenAPIErrorObject   `json:"lastProcessedErrors,omitempty" maxItems:"100" doc:"The last processing's problems, at most 100: its failure's reason (code as lastProcessErrorCode), or the document's validation problems (code VALIDATION_WARNING), which did not stop it"`
	LastProcessedErrorCount int                    `json:"lastProcessedErrorCount" minimum:"0" doc:"Total number of processing errors before truncation of lastProcessedErrors"`
	Permissions             OpenAPISpecPermissions `json:"permissions"`
	URLs                    OpenAPISpecURLs        `json:"urls"`
}

// OpenAPIErrorObject is a problem met processing a document.
type OpenAPIErrorObject struct {
	Message string `json:"message" doc:"Description of the problem"`
	Code    string `json:"code,omitempty" doc:"FETCH_TIMEOUT, FETCH_ERROR or PARSE_ERROR (the processing failed), or VALIDATION_WARNING"`
}

// OpenAPISpecPermissions is what the caller may do with a spec.
type OpenAPISpecPermissions struct {
	View   bool `json:"view"`
	Edit   bool `json:"edit"`
	Delete bool `json:"delete"`
}

// OpenAPISpecURLs are a spec's links.
type OpenAPISpecURLs struct {
	Location string `json:"location" format:"uri"`
	App      string `json:"app" format:"uri"`
}

// OpenAPISpecVersion is the API shape of a spec version.
type OpenAPISpecVersion struct {
	Object    string                 `json:"object" enum:"openapi-spec-version"`
	ID        string                 `json:"id"`
	CreatedAt time.Time              `json:"createdAt"`
	URL       string                 `json:"url" format:"uri" maxLength:"2048" doc:"Where the specification is accessible"`
	URLs      OpenAPISpecVersionURLs `json:"urls"`
	// Galley's: what the document holds.
	OperationCount int `json:"galleyOperationCount" minimum:"0" doc:"Galley: how many operations the document has (listed by listOpenAPISpecVersionOperations)"`
	WarningCount   int `json:"galleyWarningCount" minimum:"0" doc:"Galley: how many validation problems the document has (the spec's lastProcessedErrors has the first 100 of its latest processing)"`
}

// OpenAPIOperationPointer is an operation of a document (the reference's
// OpenAPIOperationPointer).
type OpenAPIOperationPointer struct {
	Path   string `json:"path" doc:"Path of the operation in the OpenAPI spec"`
	Method string `json:"method" enum:"get,put,post,delete,options,head,patch,trace" doc:"HTTP method of the operation, lower case"`
}

// OpenAPISpecOperations is a version's operations (Galley's).
type OpenAPISpecOperations struct {
	Object string                    `json:"object" enum:"openapi-spec-operations"`
	Items  []OpenAPIOperationPointer `json:"items" doc:"The operations, by path then method (Swagger 2.0 documents: as converted to OpenAPI 3)"`
	Count  int                       `json:"count" minimum:"0"`
}

// OpenAPISpecVersionURLs are a version's links.
type OpenAPISpecVersionURLs struct {
	Location string `json:"location" format:"uri"`
}

// OpenAPISpecContent is a version's document: filesystem maps the document's file
// name to the document (as JSON); urls.source is where it can be read.
type OpenAPISpecContent struct {
	Filesystem map[string]json.RawMessage `json:"filesystem" doc:"The specification's files, by name, each as JSON"`
	URLs       OpenAPISpecContentURLs     `json:"urls"`
	URL        string                     `json:"url" format:"uri" maxLength:"2048" doc:"As urls.source (GitBook's earlier documents have it)"`
}

// OpenAPISpecRawContent is a version's source as it was read.
type OpenAPISpecRawContent struct {
	Text   string `json:"text" doc:"The source, as given or fetched"`
	Format string `json:"format" enum:"json,yaml"`
}

// OpenAPISpecContentURLs are a content's links.
type OpenAPISpecContentURLs struct {
	Source string  `json:"source" format:"uri" maxLength:"2048" doc:"Where the document was fetched from, or where this content is readable for a text"`
	Public *string `json:"public" format:"uri" nullable:"true" doc:"Publicly accessible URL: the source URL of a public spec fetched from one; else null (private specs, and texts, of which Galley serves no public copy)"`
}

func location(ctx context.Context, orgID, slug string) string {
	return httpapi.APIURL(ctx) + "/v1/orgs/" + orgID + "/openapi/" + slug
}

// View renders a spec for a caller with an organization role.
func View(ctx context.Context, sp model.OpenAPISpec, role model.Role) OpenAPISpec {
	edit := access.Allowed(role, access.CreateOpenAPI)
	return OpenAPISpec{Object: "openapi-spec", ID: sp.ID, CreatedAt: sp.CreatedAt, UpdatedAt: sp.UpdatedAt, Slug: sp.Slug,
		SourceURL: sp.SourceURL, ProcessingState: sp.ProcessingState, Visibility: openapispecs.Visibility(sp), LastVersion: sp.LastVersion,
		LastProcessedAt: sp.LastProcessedAt, LastProcessErrorCode: sp.LastProcessErrorCode,
		LastProcessedErrors: problems(sp.LastProcessedErrors), LastProcessedErrorCount: sp.LastProcessedErrorCount,
		Permissions: OpenAPISpecPermissions{View: access.Allowed(role, access.ReadContent), Edit: edit, Delete: edit},
		URLs:        OpenAPISpecURLs{Location: location(ctx, sp.OrgID, sp.Slug), App: httpapi.AppURL(ctx) + "/o/" + sp.OrgID + "/openapi/" + sp.Slug}}
}

func problems(ps []model.OpenAPIProblem) []OpenAPIErrorObject {
	var out []OpenAPIErrorObject
	for _, p := range ps {
		out = append(out, OpenAPIErrorObject{Message: p.Message, Code: p.Code})
	}
	return out
}

// VersionView renders a version.
func VersionView(ctx context.Context, sp model.OpenAPISpec, v model.OpenAPISpecVersion) OpenAPISpecVersion {
	loc := location(ctx, sp.OrgID, sp.Slug) + "/versions/" + v.ID
	u := v.URL
	if u == "" {
		// A text has no URL of its own: it is readable here.
		u = loc + "/content"
	}
	return OpenAPISpecVersion{Object: "openapi-spec-version", ID: v.ID, CreatedAt: v.CreatedAt, URL: u, URLs: OpenAPISpecVersionURLs{Location: loc},
		OperationCount: v.OperationCount, WarningCount: v.WarningCount}
}

// OpenAPISpecSource is a spec's source: a URL or a text.
type OpenAPISpecSource struct {
	URL  string `json:"url,omitempty" format:"uri" maxLength:"2048" doc:"Create the specification from a URL"`
	Text string `json:"text,omitempty" minLength:"1" doc:"The specification as text (JSON or YAML)"`
}

// CreateOpenAPISpecBody is the body of POST /v1/orgs/{organizationId}/openapi.
type CreateOpenAPISpecBody struct {
	Slug   string            `json:"slug" minLength:"1" maxLength:"100" pattern:"^[a-z0-9]+(?:-[a-z0-9]+)*$"`
	Source OpenAPISpecSource `json:"source"`
}

// PutOpenAPISpecBody is the body of PUT /v1/orgs/{organizationId}/openapi/{specSlug}.
type PutOpenAPISpecBody struct {
	Source OpenAPISpecSource `json:"source"`
}

type orgPath struct {
	OrganizationID string `path:"organizationId" maxLength:"64"`
}

type specPath struct {
	OrganizationID string `path:"organizationId" maxLength:"64"`
	SpecSlug       string `path:"specSlug" minLength:"1" maxLength:"100" pattern:"^[a-z0-9]+(?:-[a-z0-9]+)*$"`
}

type versionPath struct {
	OrganizationID string `path:"organizationId" maxLength:"64"`
	SpecSlug       string `path:"specSlug" minLength:"1" maxLength:"100" pattern:"^[a-z0-9]+(?:-[a-z0-9]+)*$"`
	VersionID      string `path:"versionId" maxLength:"64"`
}

type specOut struct {
	Body OpenAPISpec
}

type putOut struct {
	Status int
	Body   OpenAPISpec
}

type versionOut struct {
	Body OpenAPISpecVersion
}

type contentOut struct {
	Body OpenAPISpecContent
}

// maxTextBytes bounds a request carrying a specification as text.
const maxTextBytes = 5 << 20

// Register adds the OpenAPI specs operations.
func Register(api *httpapi.API, s *openapispecs.Service) {
	const tag = "OpenAPI"
	const base = "/v1/orgs/{organizationId}/openapi"
	httpapi.Register(api, httpapi.Op{ID: "listOpenAPISpecs", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base, Tag: tag,
		Summary: "List the organization's OpenAPI specs (slug order)"},
		func(ctx context.Context, in *orgshttp.OrgListIn) (*httpapi.Out[httpapi.List[OpenAPISpec]], error) {
			return httpapi.AnswerPageAs(ctx, View)(s.List(ctx, in.OrganizationID, in.Request()))
		})
	httpapi.Register(api, httpapi.Op{ID: "createOpenAPISpec", Needs: access.Role(access.CreateOpenAPI), Expensive: true, Method: http.MethodPost, Path: base, Tag: tag,
		Status: http.StatusCreated, MaxBodyBytes: maxTextBytes, Summary: "Create an OpenAPI spec (processed in the background)"},
		func(ctx context.Context, in *struct {
			OrganizationID string `path:"organizationId" maxLength:"64"`
			Body           CreateOpenAPISpecBody
		}) (*httpapi.Out[OpenAPISpec], error) {
			return httpapi.AnswerAs(ctx, View)(s.Create(ctx, in.OrganizationID, in.Body.Slug, openapispecs.Source{URL: in.Body.Source.URL, Text: in.Body.Source.Text}))
		})
	httpapi.Register(api, httpapi.Op{ID: "getOpenAPISpecBySlug", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base + "/{specSlug}", Tag: tag,
		Summary: "Get an OpenAPI spec"},
		func(ctx context.Context, in *specPath) (*httpapi.Out[OpenAPISpec], error) {
			return httpapi.AnswerAs(ctx, View)(s.Get(ctx, in.OrganizationID, in.SpecSlug))
		})
	httpapi.Register(api, httpapi.Op{ID: "createOrUpdateOpenAPISpecBySlug", Needs: access.Role(access.CreateOpenAPI), Expensive: true, Method: http.MethodPut, Path: base + "/{specSlug}", Tag: tag,
		MaxBodyBytes: maxTextBytes, Summary: "Create or update an OpenAPI spec (200 updated, 201 created; processed in the background)",
		Also: map[int]string{http.StatusCreated: "The spec was created"}},
		func(ctx context.Context, in *struct {
			OrganizationID string `path:"organizationId" maxLength:"64"`
			SpecSlug       string `path:"specSlug" minLength:"1" maxLength:"100" pattern:"^[a-z0-9]+(?:-[a-z0-9]+)*$"`
			Body           PutOpenAPISpecBody
		}) (*putOut, error) {
			sp, role, created, err := s.Put(ctx, in.OrganizationID, in.SpecSlug, openapispecs.Source{URL: in.Body.Source.URL, Text: in.Body.Source.Text})
			if err != nil {
				return nil, err
			}
			out := &putOut{Status: http.StatusOK, Body: View(ctx, sp, role)}
			if created {
				out.Status = http.StatusCreated
			}
			return out, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "updateOpenAPISpecBySlug", Needs: access.Role(access.CreateOpenAPI), Method: http.MethodPatch, Path: base + "/{specSlug}", Tag: tag,
		Summary: "Set an OpenAPI spec's visibility"},
		func(ctx context.Context, in *struct {
			OrganizationID string `path:"organizationId" maxLength:"64"`
			SpecSlug       string `path:"specSlug" minLength:"1" maxLength:"100" pattern:"^[a-z0-9]+(?:-[a-z0-9]+)*$"`
			Body           struct {
				Visibility string `json:"visibility" enum:"private,public"`
			}
		}) (*httpapi.Out[OpenAPISpec], error) {
			return httpapi.AnswerAs(ctx, View)(s.SetVisibility(ctx, in.OrganizationID, in.SpecSlug, in.Body.Visibility))
		})
	httpapi.RegisterDelete(api, httpapi.Op{ID: "deleteOpenAPISpecBySlug", Needs: access.Role(access.CreateOpenAPI), Path: base + "/{specSlug}", Tag: tag,
		Summary: "Delete an OpenAPI spec and its versions (204 when there was none)"}, "spec",
		func(ctx context.Context, in *specPath) (bool, error) {
			return s.Delete(ctx, in.OrganizationID, in.SpecSlug)
		})
	httpapi.Register(api, httpapi.Op{ID: "listOpenAPISpecVersions", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base + "/{specSlug}/versions", Tag: tag,
		Summary: "List a spec's versions (newest first)"},
		func(ctx context.Context, in *struct {
			OrganizationID string `path:"organizationId" maxLength:"64"`
			SpecSlug       string `path:"specSlug" minLength:"1" maxLength:"100" pattern:"^[a-z0-9]+(?:-[a-z0-9]+)*$"`
			httpapi.ListParams
		}) (*struct {
			Body httpapi.List[OpenAPISpecVersion]
		}, error) {
			p, sp, err := s.Versions(ctx, in.OrganizationID, in.SpecSlug, in.Request())
			if err != nil {
				return nil, err
			}
			view := func(v model.OpenAPISpecVersion) OpenAPISpecVersion { return VersionView(ctx, sp, v) }
			return &struct {
				Body httpapi.List[OpenAPISpecVersion]
			}{httpapi.ListPage(p, view)}, nil
		})
	version := func(ctx context.Context, orgID, slug, id string) (*versionOut, error) {
		sp, v, err := s.Version(ctx, orgID, slug, id)
		if err != nil {
			return nil, err
		}
		return &versionOut{Body: VersionView(ctx, sp, v)}, nil
	}
	content := func(ctx context.Context, orgID, slug, id string) (*contentOut, error) {
		sp, v, doc, err := s.Content(ctx, orgID, slug, id)
		if err != nil {
			return nil, err
		}
		var public *string
		if openapispecs.Visibility(sp) == model.OpenAPIPublic && v.URL != "" {
			public = &v.URL
		}
		return &contentOut{Body: OpenAPISpecContent{Filesystem: map[string]json.RawMessage{v.Name: doc},
			URLs: OpenAPISpecContentURLs{Source: VersionView(ctx, sp, v).URL, Public: public}, URL: VersionView(ctx, sp, v).URL}}, nil
	}
	httpapi.Register(api, httpapi.Op{ID: "getLatestOpenAPISpecVersion", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base + "/{specSlug}/versions/latest", Tag: tag,
		Summary: "Get a spec's latest version"},
		func(ctx context.Context, in *specPath) (*versionOut, error) {
			return version(ctx, in.OrganizationID, in.SpecSlug, "latest")
		})
	httpapi.Register(api, httpapi.Op{ID: "getLatestOpenAPISpecVersionContent", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base + "/{specSlug}/versions/latest/content", Tag: tag,
		Summary: "Get the content of a spec's latest version"},
		func(ctx context.Context, in *specPath) (*contentOut, error) {
			return content(ctx, in.OrganizationID, in.SpecSlug, "latest")
		})
	httpapi.Register(api, httpapi.Op{ID: "getLatestOpenAPISpecVersionContentRaw", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base + "/{specSlug}/versions/latest/content/raw", Tag: tag,
		Summary: "Get the source of a spec's latest version as it was read (404 for versions made before Galley kept sources)"},
		func(ctx context.Context, in *specPath) (*httpapi.Out[OpenAPISpecRawContent], error) {
			text, format, err := s.RawContent(ctx, in.OrganizationID, in.SpecSlug)
			if err != nil {
				return nil, err
			}
			return &httpapi.Out[OpenAPISpecRawContent]{Body: OpenAPISpecRawContent{Text: string(text), Format: format}}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "getOpenAPISpecVersionById", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base + "/{specSlug}/versions/{versionId}", Tag: tag,
		Summary: "Get a version of a spec"},
		func(ctx context.Context, in *versionPath) (*versionOut, error) {
			return version(ctx, in.OrganizationID, in.SpecSlug, in.VersionID)
		})
	httpapi.Register(api, httpapi.Op{ID: "listOpenAPISpecVersionOperations", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base + "/{specSlug}/versions/{versionId}/operations", Tag: tag,
		Summary: "List the operations of a version of a spec (Galley's; versionId may be latest)"},
		func(ctx context.Context, in *versionPath) (*struct{ Body OpenAPISpecOperations }, error) {
			_, ops, err := s.Operations(ctx, in.OrganizationID, in.SpecSlug, in.VersionID)
			if err != nil {
				return nil, err
			}
			out := OpenAPISpecOperations{Object: "openapi-spec-operations", Items: make([]OpenAPIOperationPointer, len(ops)), Count: len(ops)}
			for i, o := range ops {
				out.Items[i] = OpenAPIOperationPointer{Path: o.Path, Method: o.Method}
			}
			return &struct{ Body OpenAPISpecOperations }{out}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "getOpenAPISpecVersionContentById", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base + "/{specSlug}/versions/{versionId}/content", Tag: tag,
		Summary: "Get the content of a version of a spec"},
		func(ctx context.Context, in *versionPath) (*contentOut, error) {
			return content(ctx, in.OrganizationID, in.SpecSlug, in.VersionID)
		})
}
