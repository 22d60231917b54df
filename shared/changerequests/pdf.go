package changerequests

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/pdf"
	"github.com/galleydocs/galley/shared/store"
)

// PDFTTL is how long a PDF link works.
const PDFTTL = time.Hour

// pdfFormat names the layout of stored PDFs: a change to the rendering
// means a new format, whose PDFs are made afresh.
const pdfFormat = "v1"

// PDF returns a link to a PDF of a change request's content: every page,
// or the page pageID with its descendants, or (only) that page alone. The
// PDF of a revision is made once and kept in the blob store; the link is
// signed, works without a token, and expires after PDFTTL.
func (s *Service) PDF(ctx context.Context, spaceID, ref, pageID string, only bool) (string, error) {
	if only && pageID == "" {
		return "", apperr.Field("page", "only needs a page")
	}
	sp, _, err := s.content.Space(ctx, spaceID, access.ReadContent)
	if err != nil {
		return "", err
	}
	cr, _, err := s.read(ctx, spaceID, ref)
	if err != nil {
		return "", err
	}
	_, ix, err := s.repo.Load(ctx, spaceID, cr.Revision)
	if err != nil {
		return "", err
	}
	which := "all"
	if pageID != "" {
		if ix.Page(pageID) == nil {
			return "", apperr.NotFoundf("page %s not found", pageID)
		}
		which = pageID
		if only {
			which += "-only"
		}
	}
	key := "spaces/" + spaceID + "/pdf/" + cr.Revision + "-" + which + "." + pdfFormat
	if _, err := s.d.Blobs.Get(ctx, key); errors.Is(err, blob.ErrNotFound) {
		data, err := s.renderPDF(ctx, sp, cr, ix, pageID, only)
		if err != nil {
			return "", err
		}
		if err := s.d.Blobs.Put(ctx, key, data, "application/pdf"); err != nil {
			return "", fmt.Errorf("write PDF: %w", err)
		}
	} else if err != nil {
		return "", fmt.Errorf("read PDF: %w", err)
	}
	expires := s.d.Clock().Add(PDFTTL).Unix()
	name := sp.Title
	if name == "" {
		name = "space"
	}
	token := s.d.Pager.Token(pdfScope(spaceID, cr.ID), store.Key{PK: key, SK: strconv.FormatInt(expires, 10), ISK: name + " #" + strconv.Itoa(cr.Number)})
	return httpapi.APIURL(ctx) + "/v1/spaces/" + url.PathEscape(spaceID) + "/change-requests/" + url.PathEscape(cr.ID) +
		"/pdf/download?token=" + url.QueryEscape(token), nil
}

func pdfScope(spaceID, crID string) string { return "pdf:" + spaceID + ":" + crID }

// renderPDF prints the pages of a request's revision.
func (s *Service) renderPDF(ctx context.Context, sp model.Space, cr model.ChangeRequest, ix *content.Index, pageID string, only bool) ([]byte, error) {
	var picked []*content.Page
	var depths []int
	ix.Walk(func(p *content.Page, depth int) bool {
		if pageID == "" || (only && p.ID == pageID) || (!only && ix.IsDescendant(p.ID, pageID)) {
			if p.Type != content.TypeLink {
				picked = append(picked, p)
				depths = append(depths, depth)
			}
		}
		return true
	})
	var hashes []string
	for _, p := range picked {
		if p.Type == content.TypeDocument && p.Document != "" {
			hashes = append(hashes, p.Document)
		}
	}
	bodies, err := s.repo.Documents(ctx, sp.ID, hashes)
	if err != nil {
		return nil, err
	}
	pages := make([]pdf.Page, 0, len(picked))
	for i, p := range picked {
		pages = append(pages, pdf.Page{Title: p.Title, Description: p.Description, Depth: depths[i],
			Document: content.ToDocument(bodies[p.Document], content.Resolver{Index: ix, Page: p})})
	}
	title := sp.Title + " — #" + strconv.Itoa(cr.Number)
	if cr.Subject != "" {
		title += " " + cr.Subject
	}
	return pdf.Render(title, pages, func(fileID string) (pdf.Image, bool) {
		f := ix.File(fileID)
		if f == nil {
			return pdf.Image{}, false
		}
		data, err := s.repo.FileBytes(ctx, sp.ID, f.Blob)
		if err != nil {
			return pdf.Image{}, false
		}
		return pdf.Image{ContentType: f.ContentType, Data: data}, true
	})
}

// PDFDownload is a PDF a signed link grants.
type PDFDownload struct {
	Name string
	Data []byte
}

// DownloadPDF checks a PDF link's token and reads the PDF.
func (s *Service) DownloadPDF(ctx context.Context, spaceID, crID, token string) (PDFDownload, error) {
	bad := apperr.Forbiddenf("invalid or expired PDF link")
	k, err := s.d.Pager.Key(pdfScope(spaceID, crID), token)
	if err != nil || k == nil {
		return PDFDownload{}, bad
	}
	expires, err := strconv.ParseInt(k.SK, 10, 64)
	if err != nil || s.d.Clock().Unix() >= expires {
		return PDFDownload{}, bad
	}
	data, err := s.d.Blobs.Get(ctx, k.PK)
	if errors.Is(err, blob.ErrNotFound) {
		return PDFDownload{}, apperr.NotFoundf("PDF not found")
	}
	if err != nil {
		return PDFDownload{}, fmt.Errorf("read PDF: %w", err)
	}
	return PDFDownload{Name: k.ISK, Data: data}, nil
}

type pdfIn struct {
	SpaceID         string `path:"spaceId" maxLength:"64"`
	ChangeRequestID string `path:"changeRequestId" maxLength:"64"`
	Only            bool   `query:"only" doc:"The PDF of the page alone (needs page)"`
	Page            string `query:"page" maxLength:"64" doc:"The page to print, with its descendants unless only"`
}

// PDFLink is the answer of a PDF request.
type PDFLink struct {
	URL string `json:"url" format:"uri" doc:"A link to the PDF, working without a token for an hour"`
}

type pdfOut struct {
	Body PDFLink
}

type pdfDownloadIn struct {
	SpaceID         string `path:"spaceId" maxLength:"64"`
	ChangeRequestID string `path:"changeRequestId" maxLength:"64"`
	Token           string `query:"token" maxLength:"2048" doc:"The signature of the link"`
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
func registerPDF(api *httpapi.API, s *Service) {
	const tag = "Change requests"
	base := "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf"
	httpapi.Register(api, httpapi.Op{ID: "getChangeRequestPDF", Method: http.MethodGet, Path: base, Tag: tag,
		Summary: "Get a link to a PDF of a change request's content (or one page)"},
		func(ctx context.Context, in *pdfIn) (*pdfOut, error) {
			u, err := s.PDF(ctx, in.SpaceID, in.ChangeRequestID, in.Page, in.Only)
			if err != nil {
				return nil, err
			}
			return &pdfOut{Body: PDFLink{URL: u}}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "downloadChangeRequestPDF", Method: http.MethodGet, Path: base + "/download", Tag: tag,
		Public: true, Summary: "Download a change request's PDF through a signed link (the url of getChangeRequestPDF)"},
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
