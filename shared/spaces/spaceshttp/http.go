// Package spaceshttp is the spaces family's HTTP layer: the API shape of a
// space and the operations on /v1/orgs/{organizationId}/spaces and
// /v1/spaces/{spaceId}, over the spaces service.
package spaceshttp

import (
	"context"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/mergerules"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/spaces"
)

// Space is a space in the API (spaces.Space).
type Space = spaces.Space

// URLs are a space's links (spaces.URLs).
type URLs = spaces.URLs

// View renders a space for a caller of role, with links under the
// request's bases.
func View(ctx context.Context, s model.Space, role model.Role) Space {
	return spaces.ViewSpace(httpapi.APIURL(ctx), httpapi.AppURL(ctx), s, role)
}

type spaceOut struct {
	Body Space
}

type spaceIn struct {
	SpaceID string `path:"spaceId" maxLength:"64"`
}

// CreateBody is the (optional) body of POST /v1/orgs/{organizationId}/spaces.
type CreateBody struct {
	Title    string `json:"title,omitempty" maxLength:"50"`
	Emoji    string `json:"emoji,omitempty" maxLength:"50"`
	Parent   ids.ID `json:"parent,omitempty" doc:"ID of a parent collection"`
	EditMode string `json:"editMode,omitempty" enum:"live,locked"`
	Language string `json:"language,omitempty" enum:"en,fr,de,es,it,pt,pt-br,ru,ja,zh,zh-tw,yue,ko,ar,hi,nl,pl,tr,sv,no,da,fi,el,cs,hu,ro,th,vi,id,ms,he,uk,sk,bg,hr,lt,lv,et,sl" doc:"The language of the space's content"`
}

type createIn struct {
	OrganizationID string `path:"organizationId" maxLength:"64"`
	Body           *CreateBody
}

type listIn struct {
	OrganizationID string `path:"organizationId" maxLength:"64"`
	httpapi.ListParams
}

type listOut struct {
	Body httpapi.List[Space]
}

// PatchBody is the body of PATCH /v1/spaces/{spaceId}.
type PatchBody struct {
	Title        *string                 `json:"title,omitempty" maxLength:"50"`
	EditMode     *string                 `json:"editMode,omitempty" enum:"live,locked"`
	DefaultLevel *string                 `json:"defaultLevel,omitempty" enum:"admin,create,review,edit,comment,read,inherit" nullable:"true" doc:"null makes guests the default"`
	Emoji        *string                 `json:"emoji,omitempty" maxLength:"50" nullable:"true" doc:"null removes the emoji"`
	Icon         *string                 `json:"icon,omitempty" maxLength:"2048" format:"uri" nullable:"true" doc:"null removes the icon"`
	Parent       *ids.ID                 `json:"parent,omitempty" nullable:"true" doc:"Moves the space to the end of this collection; null moves it to the top level"`
	MergeRules   *mergerules.SpaceConfig `json:"mergeRules,omitempty" doc:"What a change request needs before it is merged (admin)"`
	Language     *string                 `json:"language,omitempty" enum:"en,fr,de,es,it,pt,pt-br,ru,ja,zh,zh-tw,yue,ko,ar,hi,nl,pl,tr,sv,no,da,fi,el,cs,hu,ro,th,vi,id,ms,he,uk,sk,bg,hr,lt,lv,et,sl" nullable:"true" doc:"The language of the space's content; null removes it"`
	Nulls        httpapi.Nulls           `json:"-"`
}

type patchIn struct {
	SpaceID string `path:"spaceId" maxLength:"64"`
	Body    PatchBody
}

// Register adds the spaces family's operations.
func Register(api *httpapi.API, s *spaces.Service) {
	const tag = "Spaces"
	httpapi.Register(api, httpapi.Op{ID: "createSpace", Idempotent: true, Needs: access.Role(access.CreateContent), Method: http.MethodPost, Path: "/v1/orgs/{organizationId}/spaces", Tag: tag,
		Status: http.StatusCreated, Summary: "Create a space"},
		func(ctx context.Context, in *createIn) (*spaceOut, error) {
			var b CreateBody
			if in.Body != nil {
				b = *in.Body
			}
			sp, role, err := s.Create(ctx, in.OrganizationID, spaces.Create{Title: b.Title, Emoji: b.Emoji, Parent: string(b.Parent), EditMode: b.EditMode, Language: b.Language})
			if err != nil {
				return nil, err
			}
			return &spaceOut{Body: View(ctx, sp, role)}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "listSpacesInOrganizationById", Needs: access.Role(access.ViewOrg), Method: http.MethodGet, Path: "/v1/orgs/{organizationId}/spaces", Tag: tag,
		Summary: "List the spaces of an organization"},
		func(ctx context.Context, in *listIn) (*listOut, error) {
			p, _, err := s.List(ctx, in.OrganizationID, in.Request())
			if err != nil {
				return nil, err
			}
			views := make([]Space, 0, len(p.Spaces))
			for i, sp := range p.Spaces {
				views = append(views, View(ctx, sp, p.Levels[i]))
			}
			return &listOut{Body: httpapi.ListPage(paging.Page[Space]{Items: views, Next: p.Next}, func(v Space) Space { return v })}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "getSpaceById", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodGet, Path: "/v1/spaces/{spaceId}", Tag: tag, Summary: "Get a space"},
		func(ctx context.Context, in *spaceIn) (*spaceOut, error) {
			sp, role, err := s.Get(ctx, in.SpaceID)
			if err != nil {
				return nil, err
			}
			return &spaceOut{Body: View(ctx, sp, role)}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "updateSpaceById", Needs: access.Role(access.AdminContent), Method: http.MethodPatch, Path: "/v1/spaces/{spaceId}", Tag: tag, Summary: "Update a space"},
		func(ctx context.Context, in *patchIn) (*spaceOut, error) {
			b := in.Body
			ch := spaces.Change{Title: b.Title, EditMode: b.EditMode, Emoji: b.Emoji, Icon: b.Icon, DefaultLevel: b.DefaultLevel,
				ClearEmoji: b.Nulls.Has("emoji"), ClearIcon: b.Nulls.Has("icon"), Parent: (*string)(b.Parent), Language: b.Language}
			if b.MergeRules != nil {
				r := mergerules.ToModel(b.MergeRules.Type, b.MergeRules.Rules)
				ch.MergeRules = &r
			}
			if b.Nulls.Has("parent") {
				top := ""
				ch.Parent = &top
			}
			if b.Nulls.Has("language") {
				none := ""
				ch.Language = &none
			}
			if b.Nulls.Has("defaultLevel") {
				guest := ""
				ch.DefaultLevel = &guest
			}
			sp, role, err := s.Update(ctx, in.SpaceID, ch)
			if err != nil {
				return nil, err
			}
			return &spaceOut{Body: View(ctx, sp, role)}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "deleteSpaceById", Needs: access.Role(access.AdminContent), Method: http.MethodDelete, Path: "/v1/spaces/{spaceId}", Tag: tag,
		Status: http.StatusResetContent, Summary: "Delete a space (soft: it can be restored)"},
		func(ctx context.Context, in *spaceIn) (*struct{}, error) {
			return nil, s.Delete(ctx, in.SpaceID)
		})
	httpapi.Register(api, httpapi.Op{ID: "restoreSpace", Needs: access.Role(access.AdminContent), Method: http.MethodPost, Path: "/v1/spaces/{spaceId}/restore", Tag: tag, Summary: "Restore a deleted space"},
		func(ctx context.Context, in *spaceIn) (*spaceOut, error) {
			sp, role, err := s.Restore(ctx, in.SpaceID)
			if err != nil {
				return nil, err
			}
			return &spaceOut{Body: View(ctx, sp, role)}, nil
		})
}
