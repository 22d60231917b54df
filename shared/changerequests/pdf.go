package changerequests

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/document"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/pdf"
	"github.com/galleydocs/galley/shared/store"
)

// PDFTTL is how long a PDF link works.
const PDFTTL = time.Hour

// pdfFormat names the layout of stored PDFs: a change to the rendering
// means a new format, whose PDFs are made afresh.
const pdfFormat = "v1"

// PDFToken signs a link to a change request's PDF: the request's PDF
// download (the request named by id) with the token.
type PDFToken struct {
	ChangeRequestID string
	Token           string
}

// PDF returns the signed token of a link to a PDF of a change request's
// content: every page, or the page pageID with its descendants, or (only)
// that page alone. The PDF of a revision is made once and kept in the blob
// store; the link works without a token and expires after PDFTTL.
func (s *Service) PDF(ctx context.Context, spaceID, ref, pageID string, only bool) (PDFToken, error) {
	if only && pageID == "" {
		return PDFToken{}, apperr.Field("page", "only needs a page")
	}
	sp, _, err := s.content.Space(ctx, spaceID, access.ReadContent)
	if err != nil {
		return PDFToken{}, err
	}
	cr, _, err := s.read(ctx, spaceID, ref)
	if err != nil {
		return PDFToken{}, err
	}
	_, ix, err := s.repo.Load(ctx, spaceID, cr.Revision)
	if err != nil {
		return PDFToken{}, err
	}
	which := "all"
	if pageID != "" {
		if ix.Page(pageID) == nil {
			return PDFToken{}, apperr.NotFoundf("page %s not found", pageID)
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
			return PDFToken{}, err
		}
		if err := s.d.Blobs.Put(ctx, key, data, "application/pdf"); err != nil {
			return PDFToken{}, fmt.Errorf("write PDF: %w", err)
		}
	} else if err != nil {
		return PDFToken{}, fmt.Errorf("read PDF: %w", err)
	}
	expires := s.d.Clock().Add(PDFTTL).Unix()
	name := sp.Title
	if name == "" {
		name = "space"
	}
	token := s.d.Cursors.Cursor(pdfScope(spaceID, cr.ID), store.Key{PK: key, SK: strconv.FormatInt(expires, 10), ISK: name + " #" + strconv.Itoa(cr.Number)})
	return PDFToken{ChangeRequestID: cr.ID, Token: token}, nil
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
			Document: document.ToDocument(bodies[p.Document], document.Resolver{Locator: ix, PageID: p.ID})})
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
	k, err := s.d.Cursors.After(pdfScope(spaceID, crID), token)
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
