package changerequestshttp

import (
	"context"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/changerequests"
	"github.com/galleydocs/galley/shared/content/contenthttp"
	"github.com/galleydocs/galley/shared/httpapi"
)

type reusableIn struct {
	SpaceID           string `path:"spaceId" maxLength:"64"`
	ChangeRequestID   string `path:"changeRequestId" maxLength:"64"`
	ReusableContentID string `path:"reusableContentId" maxLength:"64"`
	contenthttp.ReadParams
}

// registerReusable adds the read of a reusable content of a change
// request's content.
func registerReusable(api *httpapi.API, s *changerequests.Service) {
	c := s.Content()
	httpapi.Register(api, httpapi.Op{ID: "getReusableContentInChangeRequestById", Needs: access.Role(access.ReadContent), Method: http.MethodGet,
		Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/reusable-contents/{reusableContentId}", Tag: "Change request content",
		Summary: "Get a reusable content of a change request"},
		func(ctx context.Context, in *reusableIn) (*contenthttp.ReusableContentOut, error) {
			r, err := c.ReusableContent(ctx, in.On(at(ctx, in.SpaceID, in.ChangeRequestID)), in.ReusableContentID, in.Metadata)
			if err != nil {
				return nil, err
			}
			return &contenthttp.ReusableContentOut{Body: r}, nil
		})
}
