package changerequestshttp

import (
	"context"
	"net/http"
	"net/url"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/changerequests"
	"github.com/galleydocs/galley/shared/content/contenthttp"
	"github.com/galleydocs/galley/shared/httpapi"
)

type pdfIn struct {
	ChangeRequestPath
	contenthttp.PDFParams
}

type pdfDownloadIn struct {
	ChangeRequestPath
	contenthttp.PDFDownloadParams
}

// registerPDF adds the PDF export of a change request and its download
// (made by the content family, as the space's PDF).
func registerPDF(api *httpapi.API, s *changerequests.Service) {
	const tag = "Change requests"
	base := "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf"
	httpapi.Register(api, httpapi.Op{ID: "getChangeRequestPDF", Needs: access.Role(access.ReadContent), Expensive: true, Method: http.MethodGet, Path: base, Tag: tag,
		Summary: "Get a link to a PDF of a change request's content (or one page)"},
		func(ctx context.Context, in *pdfIn) (*contenthttp.PDFOut, error) {
			l, err := s.PDF(ctx, in.SpaceID, in.ChangeRequestID, in.Pick())
			if err != nil {
				return nil, err
			}
			u := httpapi.APIURL(ctx) + "/v1/spaces/" + url.PathEscape(in.SpaceID) + "/change-requests/" + url.PathEscape(l.ChangeRequestID) +
				"/pdf/download?token=" + url.QueryEscape(l.Token)
			return &contenthttp.PDFOut{Body: contenthttp.PDFLink{URL: u}}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "downloadChangeRequestPDF", Needs: access.SignedLink, Method: http.MethodGet, Path: base + "/download", Tag: tag,
		Summary: "Download a change request's PDF through a signed link (the url of getChangeRequestPDF)"},
		func(ctx context.Context, in *pdfDownloadIn) (*contenthttp.PDFDownloadOut, error) {
			dl, err := s.DownloadPDF(ctx, in.SpaceID, in.ChangeRequestID, in.Token)
			if err != nil {
				return nil, err
			}
			return contenthttp.PDFDownloadOutOf(dl), nil
		})
}
