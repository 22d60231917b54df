// Package collectionshttp is the collections family's HTTP layer: its
// operations, request bodies and response shapes, on the service of
// package collections (which knows no HTTP).
package collectionshttp

import (
	"context"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/collections"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/spaces/spaceshttp"
	"github.com/galleydocs/galley/shared/tree"
)

// Collection is the API shape of a collection.
type Collection struct {
	Object         string                       `json:"object" enum:"collection"`
	ID             string                       `json:"id"`
	Title          string                       `json:"title" maxLength:"50"`
	Description    string                       `json:"description,omitempty" maxLength:"100"`
	Organization   string                       `json:"organization"`
	Parent         string                       `json:"parent,omitempty"`
	DefaultLevel   *string                      `json:"defaultLevel" enum:"admin,create,review,edit,comment,read,inherit" nullable:"true"`
	CollectionURLs CollectionURLs               `json:"urls"`
	Permissions    access.CollectionPermissions `json:"permissions"`
}

// CollectionURLs are a collection's links.
type CollectionURLs struct {
	Location string `json:"location" format:"uri"`
	App      string `json:"app" format:"uri"`
}

// View renders a collection for a caller whose level on it is level.
func View(ctx context.Context, c model.Collection, level model.Role) Collection {
	v := Collection{Object: "collection", ID: c.ID, Title: c.Title, Description: c.Description, Organization: c.OrgID,
		Parent: c.Parent, CollectionURLs: CollectionURLs{Location: location(ctx, c.ID), App: httpapi.AppURL(ctx) + "/c/" + c.ID},
		Permissions: access.ForCollection(level)}
	if c.DefaultLevel != "" {
		l := c.DefaultLevel
		v.DefaultLevel = &l
	}
	return v
}

func location(ctx context.Context, id string) string {
	return httpapi.APIURL(ctx) + "/v1/collections/" + id
}

type collectionIn struct {
	CollectionID string `path:"collectionId" maxLength:"64"`
}

// collectionBodyIn is the input of an operation on a collection that
// takes a body.
type collectionBodyIn[B any] struct {
	CollectionID string `path:"collectionId" maxLength:"64"`
	Body         B
}

// CreateCollectionBody is the (optional) body of POST /v1/orgs/{organizationId}/collections.
type CreateCollectionBody struct {
	Title  string `json:"title,omitempty" maxLength:"50"`
	Parent ids.ID `json:"parent,omitempty" doc:"ID of a parent collection"`
}

// UpdateCollectionBody is the body of PATCH /v1/collections/{collectionId}.
type UpdateCollectionBody struct {
	Title        *string       `json:"title,omitempty" maxLength:"50"`
	Description  *string       `json:"description,omitempty" maxLength:"100" nullable:"true" doc:"null removes the description"`
	DefaultLevel *string       `json:"defaultLevel,omitempty" enum:"admin,create,review,edit,comment,read,inherit" nullable:"true" doc:"null: members get no access by default (guest)"`
	Nulls        httpapi.Nulls `json:"-"`
}

// CollectionMovePointer names a sibling: {"type":"space","space":id} or {"type":"collection","collection":id}.
type CollectionMovePointer struct {
	Type       string `json:"type" enum:"space,collection"`
	Space      ids.ID `json:"space,omitempty"`
	Collection ids.ID `json:"collection,omitempty"`
}

// CollectionMovePosition places an item just before or just after a sibling.
type CollectionMovePosition struct {
	Before *CollectionMovePointer `json:"before,omitempty"`
	After  *CollectionMovePointer `json:"after,omitempty"`
}

// MoveCollectionBody is the body of POST /v1/collections/{collectionId}/move.
type MoveCollectionBody struct {
	Parent   *ids.ID                 `json:"parent,omitempty" nullable:"true" doc:"The new parent collection; null for the top level; absent to stay in the current one"`
	Position *CollectionMovePosition `json:"position,omitempty" doc:"Where to put the collection among its new siblings; at the end when absent"`
	Nulls    httpapi.Nulls           `json:"-"`
}

// target is where a move goes: the parent (nil: the current one; "" the
// top level) and the position among its children.
func (m MoveCollectionBody) target() (*string, tree.Position, error) {
	parent := (*string)(m.Parent)
	if m.Nulls.Has("parent") {
		top := ""
		parent = &top
	}
	if parent == nil && m.Position == nil {
		return nil, tree.Position{}, apperr.Field("body", "give parent, position or both")
	}
	pos, err := position(m.Position)
	return parent, pos, err
}

// position converts a body's position, naming the field at fault.
func position(p *CollectionMovePosition) (tree.Position, error) {
	if p == nil {
		return tree.Position{}, nil
	}
	if p.Before != nil && p.After != nil {
		return tree.Position{}, apperr.Field("position", "give before or after, not both")
	}
	conv := func(ptr *CollectionMovePointer, field string) (*tree.Pointer, error) {
		if ptr == nil {
			return nil, nil
		}
		id := ptr.Space
		if ptr.Type == model.KindCollection {
			id = ptr.Collection
		}
		if id == "" {
			return nil, apperr.Field(field+"."+ptr.Type, "the %s to place next to is missing", ptr.Type)
		}
		return &tree.Pointer{Kind: ptr.Type, ID: string(id)}, nil
	}
	before, err := conv(p.Before, "position.before")
	if err != nil {
		return tree.Position{}, err
	}
	after, err := conv(p.After, "position.after")
	return tree.Position{Before: before, After: after}, err
}

// TransferCollectionBody is the body of POST /v1/collections/{collectionId}/transfer.
type TransferCollectionBody struct {
	Organization ids.ID `json:"organization" minLength:"1" doc:"The target organization"`
}

type listIn struct {
	OrganizationID string `path:"organizationId" maxLength:"64"`
	httpapi.ListParams
	Nested bool `query:"nested" default:"true" doc:"true (default): every collection, in tree order; false: the top-level ones"`
}

type spacesIn struct {
	CollectionID string `path:"collectionId" maxLength:"64"`
	httpapi.ListParams
}

// Register adds the collections family's operations.
func Register(api *httpapi.API, s *collections.Service) {
	const tag = "Collections"
	httpapi.Register(api, httpapi.Op{ID: "createCollection", Idempotent: true, Needs: access.Role(access.CreateContent), Method: http.MethodPost, Path: "/v1/orgs/{organizationId}/collections", Tag: tag,
		Status: http.StatusCreated, Summary: "Create a collection"},
		func(ctx context.Context, in *struct {
			OrganizationID string `path:"organizationId" maxLength:"64"`
			Body           *CreateCollectionBody
		}) (*httpapi.Created[Collection], error) {
			var b CreateCollectionBody
			if in.Body != nil {
				b = *in.Body
			}
			return httpapi.AnswerCreatedAs(ctx, View, func(v Collection) string { return v.CollectionURLs.Location })(s.Create(ctx, in.OrganizationID, b.Title, string(b.Parent)))
		})
	httpapi.Register(api, httpapi.Op{ID: "listCollectionsInOrganizationById", Needs: access.Role(access.ViewOrg), Method: http.MethodGet, Path: "/v1/orgs/{organizationId}/collections", Tag: tag,
		Summary: "List the collections of an organization"},
		func(ctx context.Context, in *listIn) (*struct{ Body httpapi.List[Collection] }, error) {
			p, err := s.List(ctx, in.OrganizationID, in.Nested, in.Request())
			if err != nil {
				return nil, err
			}
			view := func(it collections.Item) Collection { return View(ctx, it.Collection, it.Level) }
			return &struct{ Body httpapi.List[Collection] }{httpapi.ListPage(p, view)}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "getCollectionById", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: "/v1/collections/{collectionId}", Tag: tag, Summary: "Get a collection"},
		func(ctx context.Context, in *collectionIn) (*httpapi.Out[Collection], error) {
			return httpapi.AnswerAs(ctx, View)(s.Get(ctx, in.CollectionID))
		})
	httpapi.Register(api, httpapi.Op{ID: "updateCollectionById", Needs: access.Role(access.AdminContent), Method: http.MethodPatch, Path: "/v1/collections/{collectionId}", Tag: tag, Summary: "Update a collection"},
		func(ctx context.Context, in *collectionBodyIn[UpdateCollectionBody]) (*httpapi.Out[Collection], error) {
			b := in.Body
			ch := collections.Change{Title: b.Title, Description: b.Description, DefaultLevel: b.DefaultLevel, ClearDescription: b.Nulls.Has("description")}
			if b.Nulls.Has("defaultLevel") {
				guest := ""
				ch.DefaultLevel = &guest
			}
			return httpapi.AnswerAs(ctx, View)(s.Update(ctx, in.CollectionID, ch))
		})
	httpapi.Register(api, httpapi.Op{ID: "deleteCollectionById", Needs: access.Role(access.AdminContent), Method: http.MethodDelete, Path: "/v1/collections/{collectionId}", Tag: tag,
		Status: http.StatusResetContent, Summary: "Delete an empty collection"},
		func(ctx context.Context, in *collectionIn) (*struct{}, error) {
			return nil, s.Delete(ctx, in.CollectionID)
		})
	httpapi.Register(api, httpapi.Op{ID: "listSpacesInCollectionById", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: "/v1/collections/{collectionId}/spaces", Tag: tag,
		Summary: "List the spaces of a collection, in order"},
		func(ctx context.Context, in *spacesIn) (*struct {
			Body httpapi.List[spaceshttp.Space]
		}, error) {
			p, err := s.ListSpaces(ctx, in.CollectionID, in.Request())
			if err != nil {
				return nil, err
			}
			view := func(it collections.SpaceItem) spaceshttp.Space { return spaceshttp.View(ctx, it.Space, it.Level) }
			return &struct {
				Body httpapi.List[spaceshttp.Space]
			}{httpapi.ListPage(p, view)}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "moveCollection", Needs: access.Role(access.AdminContent), Method: http.MethodPost, Path: "/v1/collections/{collectionId}/move", Tag: tag,
		Summary: "Move a collection to another parent or position"},
		func(ctx context.Context, in *collectionBodyIn[MoveCollectionBody]) (*httpapi.Out[Collection], error) {
			parent, pos, err := in.Body.target()
			if err != nil {
				return nil, err
			}
			return httpapi.AnswerAs(ctx, View)(s.Move(ctx, in.CollectionID, parent, pos))
		})
	httpapi.Register(api, httpapi.Op{ID: "moveSpace", Needs: access.Role(access.AdminContent), Method: http.MethodPost, Path: "/v1/spaces/{spaceId}/move", Tag: tag,
		Summary: "Move a space into a collection, out of it, or among its siblings"},
		func(ctx context.Context, in *struct {
			SpaceID string `path:"spaceId" maxLength:"64"`
			Body    MoveCollectionBody
		}) (*struct{ Body spaceshttp.Space }, error) {
			parent, pos, err := in.Body.target()
			if err != nil {
				return nil, err
			}
			sp, level, err := s.MoveSpace(ctx, in.SpaceID, parent, pos)
			if err != nil {
				return nil, err
			}
			return &struct{ Body spaceshttp.Space }{spaceshttp.View(ctx, sp, level)}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "transferCollection", Needs: access.Role(access.AdminOrg), Method: http.MethodPost, Path: "/v1/collections/{collectionId}/transfer", Tag: tag,
		Summary: "Transfer a collection, with everything in it, to another organization"},
		func(ctx context.Context, in *collectionBodyIn[TransferCollectionBody]) (*httpapi.Out[Collection], error) {
			return httpapi.AnswerAs(ctx, View)(s.Transfer(ctx, in.CollectionID, string(in.Body.Organization)))
		})
}
