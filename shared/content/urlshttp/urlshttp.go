// Package urlshttp is the content family's URL operations: link cards
// (package embeds) and the resolution of Galley's own URLs to the
// collection or content they name. A package of its own so that only the
// content function links what they need (the HTML parser, the collections
// family): package changerequestshttp uses contenthttp's shapes.
package urlshttp

import (
	"context"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/collections/collectionshttp"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/content/contenthttp"
	"github.com/galleydocs/galley/shared/content/embeds"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/spaces/spaceshttp"
)

// Embed is a link card (the reference's Embed, of type link).
type Embed struct {
	Type        string `json:"type" enum:"link"`
	Title       string `json:"title" doc:"The page's title (Open Graph's, else its <title>, else the URL)"`
	Site        string `json:"site" doc:"The site's name (Open Graph's, else the host)"`
	Description string `json:"description,omitempty" doc:"Galley's: the page's description, if it has one"`
	Icon        string `json:"icon,omitempty" format:"uri" doc:"The page's icon, if it declares one"`
}

func viewEmbed(c embeds.Card) Embed {
	return Embed{Type: "link", Title: c.Title, Site: c.Site, Description: c.Description, Icon: c.Icon}
}

// URLContent answers GET /v1/urls/content: a collection, or a space with
// the change request and the page the URL names.
type URLContent struct {
	Collection    *collectionshttp.Collection `json:"collection,omitempty"`
	Space         *spaceshttp.Space           `json:"space,omitempty"`
	ChangeRequest *content.ChangeRequest      `json:"changeRequest,omitempty"`
	Page          *content.RevisionPage       `json:"page,omitempty"`
}

// Collections is what resolving a collection's URL asks of the collections
// family (collections.Service).
type Collections interface {
	Get(ctx context.Context, id string) (model.Collection, model.Role, error)
}

// URLQuery is the URL an operation resolves.
type URLQuery struct {
	URL string `query:"url" required:"true" minLength:"1" maxLength:"2048" doc:"URL to resolve"`
}

// Register adds the link cards (made by cards) and the resolution of
// Galley's own URLs to the collection (through cols) or the content they
// name.
func Register(api *httpapi.API, s *content.Service, cards *embeds.Service, cols Collections) {
	const tag = "URLs"
	httpapi.Register(api, httpapi.Op{ID: "getEmbedByUrl", Needs: access.SignedIn, Expensive: true, Method: http.MethodGet, Path: "/v1/urls/embed", Tag: tag,
		Summary: "A link card for a URL: its title, site, description and icon (read through the guarded fetcher, kept an hour)"},
		func(ctx context.Context, in *URLQuery) (*httpapi.Out[Embed], error) {
			return httpapi.Answer(viewEmbed)(cards.Card(ctx, in.URL))
		})
	httpapi.Register(api, httpapi.Op{ID: "getEmbedByUrlInSpace", Needs: access.Role(access.ReadContent), Expensive: true, Method: http.MethodGet, Path: "/v1/spaces/{spaceId}/embed", Tag: tag,
		Summary: "A link card for a URL, for a reader of the space (as getEmbedByUrl)"},
		func(ctx context.Context, in *struct {
			contenthttp.SpacePath
			URLQuery
		}) (*httpapi.Out[Embed], error) {
			return httpapi.Answer(viewEmbed)(cards.InSpace(ctx, in.SpaceID, in.URL))
		})
	httpapi.Register(api, httpapi.Op{ID: "getContentByUrl", Needs: access.SignedIn, Method: http.MethodGet, Path: "/v1/urls/content", Tag: tag,
		Summary: "Resolve a URL of Galley's application (a urls.app) to its collection, or its space with the change request and page it names"},
		func(ctx context.Context, in *URLQuery) (*httpapi.Out[URLContent], error) {
			u, err := content.ParseAppURL(in.URL, httpapi.AppURL(ctx))
			if err != nil {
				return nil, err
			}
			if u.CollectionID != "" {
				c, level, err := cols.Get(ctx, u.CollectionID)
				if err != nil {
					return nil, err
				}
				v := collectionshttp.View(ctx, c, level)
				return &httpapi.Out[URLContent]{Body: URLContent{Collection: &v}}, nil
			}
			at := u.At
			at.Bases = contenthttp.Bases(ctx)
			r, err := s.ContentAt(ctx, at, u.PagePath)
			if err != nil {
				return nil, err
			}
			sp := spaceshttp.View(ctx, r.Space, r.Role)
			return &httpapi.Out[URLContent]{Body: URLContent{Space: &sp, ChangeRequest: r.ChangeRequest, Page: r.Page}}, nil
		})
}
