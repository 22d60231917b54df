package changerequests

import (
	"context"
	"strconv"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/content/contentpdf"
)

// PDFs is what change requests ask of the content family's PDF export
// (contentpdf.Service): a request's PDF is its revision's.
type PDFs interface {
	Revision(ctx context.Context, of contentpdf.Of, pick contentpdf.Pick) (string, error)
	Download(ctx context.Context, spaceID, scope, token string) (contentpdf.PDF, error)
}

// PDFToken signs a link to a change request's PDF: the request's PDF
// download (the request named by id) with the token.
type PDFToken struct {
	ChangeRequestID string
	Token           string
}

// PDF returns the signed token of a link to a PDF of a change request's
// content (pick: every page, a page with its descendants, or a page
// alone), made by the content family from the request's revision.
func (s *Service) PDF(ctx context.Context, spaceID, ref string, pick contentpdf.Pick) (PDFToken, error) {
	if err := pick.Validate(); err != nil {
		return PDFToken{}, err
	}
	sp, _, err := s.content.Space(ctx, spaceID, access.ReadContent)
	if err != nil {
		return PDFToken{}, err
	}
	cr, _, err := s.read(ctx, spaceID, ref)
	if err != nil {
		return PDFToken{}, err
	}
	name := sp.Title
	if name == "" {
		name = "space"
	}
	title := sp.Title + " — #" + strconv.Itoa(cr.Number)
	if cr.Subject != "" {
		title += " " + cr.Subject
	}
	token, err := s.pdfs.Revision(ctx, contentpdf.Of{Space: sp, Revision: cr.Revision, Title: title,
		Name: name + " #" + strconv.Itoa(cr.Number), Scope: cr.ID}, pick)
	if err != nil {
		return PDFToken{}, err
	}
	return PDFToken{ChangeRequestID: cr.ID, Token: token}, nil
}

// DownloadPDF checks a PDF link's token and reads the PDF.
func (s *Service) DownloadPDF(ctx context.Context, spaceID, crID, token string) (contentpdf.PDF, error) {
	return s.pdfs.Download(ctx, spaceID, crID, token)
}
