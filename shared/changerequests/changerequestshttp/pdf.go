package changerequestshttp

import (
	"context"
	"mime"
	"net/http"
	"net/url"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/changerequests"
	"github.com/galleydocs/galley/shared/httpapi"
)

type pdfIn struct {
	ChangeRequestPath
	Only bool   `query:"only" doc:"The PDF of the page alone (needs page)"`
	Page string `query:"page" maxLength:"64" doc:"The page to print, with its descendants unless only"`
}

// PDFLink is the answer of a PDF request.
type PDFLink struct {
	URL string `json:"url" format:"uri" doc:"A link to the PDF, working without a token for an hour"`
}

type pdfOut struct {
	Body PDFLink
}

type pdfDownloadIn struct {
	ChangeRequestPath
	Token string `query:"token" maxLength:"2048" doc:"The signature of the link"`
}

type pdfDownloadOut struct {
	ContentType           string `header:"Content-Type"`
	ContentDisposition    string `header:"Content-Disposition"`
	CacheControl          string `header:"Cache-Control"`
	ContentSecurityPolicy string `header:"Content-Security-Policy"`
	NoSniff               string `header:"X-Content-Type-Options"`
	Body                  []byte
}

// registerPDF adds the PDF export of a change request and its download.
func registerPDF(api *httpapi.API, s *changerequests.Service) {
	const tag = "Change requests"
	base := "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf"
	httpapi.Register(api, httpapi.Op{ID: "getChangeRequestPDF", Needs: access.Role(access.ReadContent), Expensive: true, Method: http.MethodGet, Path: base, Tag: tag,
		Summary: "Get a link to a PDF of a change request's content (or one page)"},
		func(ctx context.Context, in *pdfIn) (*pdfOut, error) {
			l, err := s.PDF(ctx, in.SpaceID, in.ChangeRequestID, in.Page, in.Only)
			if err != nil {
				return nil, err
			}
			u := httpapi.APIURL(ctx) + "/v1/spaces/" + url.PathEscape(in.SpaceID) + "/change-requests/" + url.PathEscape(l.ChangeRequestID) +
				"/pdf/download?token=" + url.QueryEscape(l.Token)
			return &pdfOut{Body: PDFLink{URL: u}}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "downloadChangeRequestPDF", Needs: access.SignedLink, Method: http.MethodGet, Path: base + "/download", Tag: tag,
		Summary: "Download a change request's PDF through a signed link (the url of getChangeRequestPDF)"},
		func(ctx context.Context, in *pdfDownloadIn) (*pdfDownloadOut, error) {
			dl, err := s.DownloadPDF(ctx, in.SpaceID, in.ChangeRequestID, in.Token)
			if err != nil {
				return nil, err
			}
			return &pdfDownloadOut{ContentType: "application/pdf", Body: dl.Data, CacheControl: "private, max-age=3600",
				ContentDisposition:    mime.FormatMediaType("inline", map[string]string{"filename": dl.Name + ".pdf"}),
				ContentSecurityPolicy: "default-src 'none'; sandbox", NoSniff: "nosniff"}, nil
		})
}
