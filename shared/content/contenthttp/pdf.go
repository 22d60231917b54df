package contenthttp

import (
	"context"
	"mime"
	"net/http"
	"net/url"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/content/contentpdf"
	"github.com/galleydocs/galley/shared/httpapi"
)

// PDFParams are the query parameters of a PDF request (the space's and a
// change request's).
type PDFParams struct {
	Only bool   `query:"only" doc:"The PDF of the page alone (needs page)"`
	Page string `query:"page" maxLength:"64" doc:"The page to print, with its descendants unless only"`
}

// Pick is what the PDF prints.
func (p PDFParams) Pick() contentpdf.Pick { return contentpdf.Pick{PageID: p.Page, Only: p.Only} }

// PDFLink is the answer of a PDF request.
type PDFLink struct {
	URL string `json:"url" format:"uri" doc:"A link to the PDF, working without a token for an hour"`
}

// PDFOut answers a PDF request.
type PDFOut struct {
	Body PDFLink
}

// PDFDownloadParams are the query parameters of a PDF download.
type PDFDownloadParams struct {
	Token string `query:"token" maxLength:"2048" doc:"The signature of the link"`
}

// PDFDownloadOut serves a PDF.
type PDFDownloadOut struct {
	ContentType           string `header:"Content-Type"`
	ContentDisposition    string `header:"Content-Disposition"`
	CacheControl          string `header:"Cache-Control"`
	ContentSecurityPolicy string `header:"Content-Security-Policy"`
	NoSniff               string `header:"X-Content-Type-Options"`
	Body                  []byte
}

// PDFDownloadOutOf serves a downloaded PDF inline, sandboxed.
func PDFDownloadOutOf(dl contentpdf.PDF) *PDFDownloadOut {
	return &PDFDownloadOut{ContentType: "application/pdf", Body: dl.Data, CacheControl: "private, max-age=3600",
		ContentDisposition:    mime.FormatMediaType("inline", map[string]string{"filename": dl.Name + ".pdf"}),
		ContentSecurityPolicy: "default-src 'none'; sandbox", NoSniff: "nosniff"}
}

type spacePDFIn struct {
	SpacePath
	PDFParams
}

type spacePDFDownloadIn struct {
	SpacePath
	PDFDownloadParams
}

// registerPDF adds the PDF export of the space's current revision and its
// download.
func registerPDF(api *httpapi.API, s *contentpdf.Service) {
	const tag = "Space content"
	base := "/v1/spaces/{spaceId}/pdf"
	httpapi.Register(api, httpapi.Op{ID: "getSpacePDF", Needs: access.Role(access.ReadContent), Expensive: true, Method: http.MethodGet, Path: base, Tag: tag,
		Summary: "Get a link to a PDF of the space's current content (or one page)"},
		func(ctx context.Context, in *spacePDFIn) (*PDFOut, error) {
			token, err := s.Space(ctx, in.SpaceID, in.Pick())
			if err != nil {
				return nil, err
			}
			u := httpapi.APIURL(ctx) + "/v1/spaces/" + url.PathEscape(in.SpaceID) + "/pdf/download?token=" + url.QueryEscape(token)
			return &PDFOut{Body: PDFLink{URL: u}}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "downloadSpacePDF", Needs: access.SignedLink, Method: http.MethodGet, Path: base + "/download", Tag: tag,
		Summary: "Download a space's PDF through a signed link (the url of getSpacePDF)"},
		func(ctx context.Context, in *spacePDFDownloadIn) (*PDFDownloadOut, error) {
			dl, err := s.Download(ctx, in.SpaceID, "", in.Token)
			if err != nil {
				return nil, err
			}
			return PDFDownloadOutOf(dl), nil
		})
}
