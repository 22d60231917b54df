package changerequestshttp

import (
	"context"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/changerequests"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/httpapi"
)

// MergeResult is the answer of merge and update.
type MergeResult struct {
	Revision  string             `json:"revision" doc:"The revision made; on conflicts, the unchanged one"`
	Result    string             `json:"result" enum:"merge,update,conflicts"`
	Conflicts []content.Conflict `json:"conflicts,omitempty" doc:"Why the changes could not be merged (result conflicts)"`
}

type mergeOut struct {
	Body MergeResult
}

// registerMerge adds merge and update.
func registerMerge(api *httpapi.API, s *changerequests.Service) {
	const tag = "Change requests"
	base := "/v1/spaces/{spaceId}/change-requests/{changeRequestId}"
	answer := func(r changerequests.Result, err error) (*mergeOut, error) {
		if err != nil {
			return nil, err
		}
		return &mergeOut{Body: MergeResult{Revision: r.Revision, Result: r.Result, Conflicts: r.Conflicts}}, nil
	}
	httpapi.Register(api, httpapi.Op{ID: "mergeChangeRequest", Needs: access.Role(access.MergeContent), Method: http.MethodPost, Path: base + "/merge", Tag: tag,
		Summary: "Merge a change request into the space's content"},
		func(ctx context.Context, in *crIn) (*mergeOut, error) {
			return answer(s.Merge(ctx, in.SpaceID, in.ChangeRequestID))
		})
	httpapi.Register(api, httpapi.Op{ID: "updateChangeRequest", Needs: access.Role(access.EditContent), Method: http.MethodPost, Path: base + "/update", Tag: tag,
		Summary: "Bring the space's changes into a change request"},
		func(ctx context.Context, in *crIn) (*mergeOut, error) {
			return answer(s.UpdateFromSpace(ctx, in.SpaceID, in.ChangeRequestID))
		})
}
