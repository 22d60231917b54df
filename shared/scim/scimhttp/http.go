// Package scimhttp serves SCIM 2.0 (package scim, docs/scim.md): the
// administration of an organization's SCIM tokens, operations of Galley's
// API like the others, and the SCIM protocol itself under
// /scim/v2/orgs/{organizationId}, which is not GitBook's API: its
// operations are registered raw (httpapi.RegisterRaw), answer
// application/scim+json in SCIM's shapes and errors, authenticate with
// the organization's SCIM token, and are left out of the API's OpenAPI
// document.
package scimhttp

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs/orgshttp"
	"github.com/galleydocs/galley/shared/scim"
)

// Base is the path of an organization's SCIM endpoints (the identity
// provider's "SCIM base URL" is the API's URL followed by it).
const Base = "/scim/v2/orgs/{organizationId}"

// ContentType is SCIM's media type (RFC 7644 §3.1).
const ContentType = "application/scim+json"

// SCIMToken is the API shape of a SCIM token.
type SCIMToken struct {
	Object    string    `json:"object" enum:"scim-token"`
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"createdAt"`
	CreatedBy string    `json:"createdBy" doc:"The admin who made it"`
	Token     string    `json:"token,omitempty" doc:"The secret, answered once, when the token is made"`
}

func view(t model.SCIMToken) SCIMToken {
	return SCIMToken{Object: "scim-token", ID: t.ID, Name: t.Name, CreatedAt: t.CreatedAt, CreatedBy: t.CreatedBy}
}

// Register adds the SCIM operations.
func Register(api *httpapi.API, s *scim.Service) {
	const tag = "SCIM"
	tokens := "/v1/orgs/{organizationId}/scim/tokens"
	admin := access.Role(access.AdminOrg)
	httpapi.Register(api, httpapi.Op{ID: "createOrganizationSCIMToken", Needs: admin, Method: http.MethodPost, Path: tokens, Tag: tag, Status: http.StatusCreated,
		Summary: "Create a SCIM token of an organization (its secret is answered once)"},
		func(ctx context.Context, in *struct {
			orgshttp.OrgPath
			Body struct {
				Name string `json:"name" minLength:"1" maxLength:"100"`
			}
		}) (*httpapi.Out[SCIMToken], error) {
			t, secret, err := s.CreateToken(ctx, in.OrganizationID, in.Body.Name)
			if err != nil {
				return nil, err
			}
			v := view(t)
			v.Token = secret
			return &httpapi.Out[SCIMToken]{Body: v}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "listOrganizationSCIMTokens", Needs: admin, Method: http.MethodGet, Path: tokens, Tag: tag,
		Summary: "List the SCIM tokens of an organization"},
		func(ctx context.Context, in *orgshttp.OrgPath) (*httpapi.Out[httpapi.List[SCIMToken]], error) {
			ts, err := s.Tokens(ctx, in.OrganizationID)
			if err != nil {
				return nil, err
			}
			out := httpapi.List[SCIMToken]{Count: len(ts), Items: []SCIMToken{}}
			for _, t := range ts {
				out.Items = append(out.Items, view(t))
			}
			return &httpapi.Out[httpapi.List[SCIMToken]]{Body: out}, nil
		})
	httpapi.RegisterDelete(api, httpapi.Op{ID: "revokeOrganizationSCIMToken", Needs: admin, Path: tokens + "/{tokenId}", Tag: tag,
		Summary: "Revoke a SCIM token of an organization"}, "SCIM token",
		func(ctx context.Context, in *struct {
			orgshttp.OrgPath
			TokenID string `path:"tokenId" maxLength:"64"`
		}) (bool, error) {
			return s.RevokeToken(ctx, in.OrganizationID, in.TokenID)
		})

	h := &handler{s: s}
	raw := func(id, method, path string, fn func(context.Context, *request) (int, any, error)) {
		httpapi.RegisterRaw(api, httpapi.Op{ID: id, Needs: access.SCIMToken, Method: method, Path: Base + path}, h.serve(fn))
	}
	raw("scimServiceProviderConfig", http.MethodGet, "/ServiceProviderConfig", func(_ context.Context, r *request) (int, any, error) {
		return http.StatusOK, scim.ServiceProviderConfig(r.sc.Base), nil
	})
	raw("scimResourceTypes", http.MethodGet, "/ResourceTypes", func(_ context.Context, r *request) (int, any, error) {
		return http.StatusOK, listOf(scim.ResourceTypes(r.sc.Base)), nil
	})
	raw("scimResourceType", http.MethodGet, "/ResourceTypes/{id}", func(_ context.Context, r *request) (int, any, error) {
		return one(scim.Find(scim.ResourceTypes(r.sc.Base), r.PathValue("id")))
	})
	raw("scimSchemas", http.MethodGet, "/Schemas", func(_ context.Context, r *request) (int, any, error) {
		return http.StatusOK, listOf(scim.Schemas(r.sc.Base)), nil
	})
	raw("scimSchema", http.MethodGet, "/Schemas/{id}", func(_ context.Context, r *request) (int, any, error) {
		return one(scim.Find(scim.Schemas(r.sc.Base), r.PathValue("id")))
	})
	raw("scimListUsers", http.MethodGet, "/Users", func(ctx context.Context, r *request) (int, any, error) {
		pg, err := r.page()
		if err != nil {
			return 0, nil, err
		}
		return one(s.ListUsers(ctx, r.sc, r.URL.Query().Get("filter"), pg))
	})
	raw("scimCreateUser", http.MethodPost, "/Users", func(ctx context.Context, r *request) (int, any, error) {
		u, err := s.CreateUser(ctx, r.sc, r.body)
		return created(u, err)
	})
	raw("scimGetUser", http.MethodGet, "/Users/{id}", func(ctx context.Context, r *request) (int, any, error) {
		return one(s.GetUser(ctx, r.sc, r.PathValue("id")))
	})
	raw("scimReplaceUser", http.MethodPut, "/Users/{id}", withBody(s.ReplaceUser))
	raw("scimPatchUser", http.MethodPatch, "/Users/{id}", withBody(s.PatchUser))
	raw("scimDeleteUser", http.MethodDelete, "/Users/{id}", deleted(s.DeleteUser))
	raw("scimListGroups", http.MethodGet, "/Groups", func(ctx context.Context, r *request) (int, any, error) {
		pg, err := r.page()
		if err != nil {
			return 0, nil, err
		}
		return one(s.ListGroups(ctx, r.sc, r.URL.Query().Get("filter"), pg, r.withMembers()))
	})
	raw("scimCreateGroup", http.MethodPost, "/Groups", func(ctx context.Context, r *request) (int, any, error) {
		g, err := s.CreateGroup(ctx, r.sc, r.body)
		return created(g, err)
	})
	raw("scimGetGroup", http.MethodGet, "/Groups/{id}", func(ctx context.Context, r *request) (int, any, error) {
		return one(s.GetGroup(ctx, r.sc, r.PathValue("id"), r.withMembers()))
	})
	raw("scimReplaceGroup", http.MethodPut, "/Groups/{id}", withBody(s.ReplaceGroup))
	raw("scimPatchGroup", http.MethodPatch, "/Groups/{id}", withBody(s.PatchGroup))
	raw("scimDeleteGroup", http.MethodDelete, "/Groups/{id}", deleted(s.DeleteGroup))
	// RFC 7644 §3.4.3's search of every resource type at once is not
	// served: 501, as §3.12 says of an operation not supported.
	raw("scimSearch", http.MethodPost, "/.search", func(context.Context, *request) (int, any, error) {
		return http.StatusNotImplemented, nil, nil
	})
	// Any other path under the base (GET) answers SCIM's 404, not the API's.
	raw("scimNotFound", http.MethodGet, "/{path...}", func(_ context.Context, r *request) (int, any, error) {
		return 0, nil, apperr.NotFoundf("no SCIM endpoint /%s", r.PathValue("path"))
	})
}

func one[T any](v T, err error) (int, any, error) { return http.StatusOK, v, err }

// withBody serves a change of the resource {id} with the request's body.
func withBody[T any](fn func(context.Context, scim.Scope, string, []byte) (T, error)) func(context.Context, *request) (int, any, error) {
	return func(ctx context.Context, r *request) (int, any, error) {
		return one(fn(ctx, r.sc, r.PathValue("id"), r.body))
	}
}

// deleted serves the deletion of the resource {id}.
func deleted(fn func(context.Context, scim.Scope, string) error) func(context.Context, *request) (int, any, error) {
	return func(ctx context.Context, r *request) (int, any, error) {
		return http.StatusNoContent, nil, fn(ctx, r.sc, r.PathValue("id"))
	}
}

func created[T any](v T, err error) (int, any, error) { return http.StatusCreated, v, err }

func listOf[T any](items []T) scim.ListResponse[T] {
	return scim.ListResponse[T]{Schemas: []string{scim.ListSchema}, TotalResults: len(items), StartIndex: 1, ItemsPerPage: len(items), Resources: items}
}

type handler struct{ s *scim.Service }

// request is an authenticated SCIM request with its body.
type request struct {
	*http.Request
	sc   scim.Scope
	body []byte
}

// page reads startIndex and count (RFC 7644 §3.4.2.4): absent, 1 and
// scim.MaxCount.
func (r *request) page() (scim.Page, error) {
	pg := scim.Page{StartIndex: 1, Count: scim.MaxCount}
	for name, dst := range map[string]*int{"startIndex": &pg.StartIndex, "count": &pg.Count} {
		if v := r.URL.Query().Get(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return pg, apperr.Field(name, "must be an integer")
			}
			*dst = n
		}
	}
	if pg.Count < 0 {
		pg.Count = 0
	}
	return pg, nil
}

// withMembers is false when excludedAttributes names members (Entra ID
// reads groups so).
func (r *request) withMembers() bool {
	for _, a := range strings.Split(r.URL.Query().Get("excludedAttributes"), ",") {
		if strings.EqualFold(strings.TrimSpace(a), "members") {
			return false
		}
	}
	return true
}

func (h *handler) serve(fn func(context.Context, *request) (int, any, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		orgID := r.PathValue("organizationId")
		token := r.Header.Get("Authorization")
		if len(token) > 7 && strings.EqualFold(token[:7], "Bearer ") {
			token = strings.TrimSpace(token[7:])
		} else {
			token = ""
		}
		t, err := h.s.Authenticate(ctx, orgID, token)
		if err != nil {
			writeErr(ctx, w, err)
			return
		}
		req := &request{Request: r, sc: scim.Scope{OrgID: orgID, Token: t, Base: httpapi.APIURL(ctx) + strings.Replace(Base, "{organizationId}", orgID, 1)}}
		if r.Method == http.MethodPost || r.Method == http.MethodPut || r.Method == http.MethodPatch {
			body, err := io.ReadAll(io.LimitReader(r.Body, httpapi.MaxBodyBytes+1))
			if err != nil {
				writeErr(ctx, w, apperr.New(apperr.Invalid, "cannot read the body"))
				return
			}
			if len(body) > httpapi.MaxBodyBytes {
				writeErr(ctx, w, apperr.New(apperr.TooLarge, "the body is larger than %d bytes", httpapi.MaxBodyBytes))
				return
			}
			req.body = body
		}
		status, v, err := fn(ctx, req)
		if err != nil {
			writeErr(ctx, w, err)
			return
		}
		switch status {
		case http.StatusNoContent:
			w.WriteHeader(status)
			return
		case http.StatusNotImplemented:
			writeStatus(w, status, "", "not supported by Galley's SCIM service (docs/scim.md)")
			return
		}
		raw, err := json.Marshal(v)
		if err == nil {
			raw, err = project(raw, r.URL.Query())
		}
		if err != nil {
			writeErr(ctx, w, err)
			return
		}
		if status == http.StatusCreated {
			var loc struct {
				Meta struct {
					Location string `json:"location"`
				} `json:"meta"`
			}
			if json.Unmarshal(raw, &loc) == nil && loc.Meta.Location != "" {
				w.Header().Set("Location", loc.Meta.Location)
			}
		}
		w.Header().Set("Content-Type", ContentType)
		w.WriteHeader(status)
		_, _ = w.Write(raw)
	})
}

// errorBody is SCIM's error (RFC 7644 §3.12): status is a string.
type errorBody struct {
	Schemas  []string `json:"schemas"`
	Status   string   `json:"status"`
	ScimType string   `json:"scimType,omitempty"`
	Detail   string   `json:"detail"`
}

// writeErr answers err in SCIM's error shape, with the status and
// message of the API's one table (httpapi.StatusOf: store contention 409,
// AWS unavailable 503, ...); internal errors are logged and not shown.
func writeErr(ctx context.Context, w http.ResponseWriter, err error) {
	kind := apperr.KindOf(err)
	status, detail := httpapi.StatusOf(err), httpapi.MessageOf(err)
	if status == http.StatusInternalServerError {
		httpapi.LoggerFrom(ctx).ErrorContext(ctx, "scim", "err", err.Error())
	}
	scimType := scim.ScimType(err)
	if scimType == "" && kind == apperr.Invalid {
		scimType = "invalidValue"
	}
	if status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", httpapi.RetryAfterUnavailable)
	}
	writeStatus(w, status, scimType, detail)
}

// writeStatus answers a SCIM error of status.
func writeStatus(w http.ResponseWriter, status int, scimType, detail string) {
	raw, _ := json.Marshal(errorBody{Schemas: []string{scim.ErrorSchema}, Status: strconv.Itoa(status), ScimType: scimType, Detail: detail})
	w.Header().Set("Content-Type", ContentType)
	w.WriteHeader(status)
	_, _ = w.Write(raw)
}
