package content

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/condition"
	"github.com/galleydocs/galley/shared/document"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/pdf"
	"github.com/galleydocs/galley/shared/store"
)

// PDF export of a revision (docs/content.md, "PDF export"): the space's
// current revision (getSpacePDF) and a change request's (package
// changerequests calls RevisionPDF for its revision). Both make the PDF
// here, keep it in the blob store by revision and sign the link to it.

// PDFTTL is how long a PDF link works.
const PDFTTL = time.Hour

// pdfFormat names the layout of stored PDFs: a change to the rendering
// means a new format, whose PDFs are made afresh. v2: includes,
// expressions and conditional blocks resolved.
const pdfFormat = "v2"

// The limits of one PDF (docs/content.md, "PDF export": measured so that
// the largest PDF renders well within the API's 29 s on a 256 MB
// function). Beyond them the request is refused (413) and a part of the
// space (page) can be printed instead.
const (
	// MaxPDFPages is how many pages one PDF prints at most.
	MaxPDFPages = 500
	// MaxPDFBytes bounds the markdown one PDF prints (the pages' bodies
	// with their includes resolved).
	MaxPDFBytes = 4 << 20
)

// PDFPick is what a PDF prints of a revision: every page (PageID ""), or
// the page PageID with its descendants, or (Only) that page alone.
type PDFPick struct {
	PageID string
	Only   bool
}

// Validate refuses only without a page (400 naming page).
func (p PDFPick) Validate() error {
	if p.Only && p.PageID == "" {
		return apperr.Field("page", "only needs a page")
	}
	return nil
}

// PDFOf is the revision a PDF prints and how it is named.
type PDFOf struct {
	Space    model.Space
	Revision string
	// Title is the PDF's title (its metadata).
	Title string
	// Name is the downloaded file's name, without ".pdf".
	Name string
	// Scope binds the link: "" for the space's own PDF, a change
	// request's id for the request's.
	Scope string
}

// SpacePDF returns the signed token of a link to a PDF of the space's
// current revision (or of a part of it, pick); the caller needs the read
// level on the space. DownloadPDF(spaceID, "", token) reads it.
func (s *Service) SpacePDF(ctx context.Context, spaceID string, pick PDFPick) (string, error) {
	if err := pick.Validate(); err != nil {
		return "", err
	}
	sp, _, err := s.Space(ctx, spaceID, access.ReadContent)
	if err != nil {
		return "", err
	}
	name := sp.Title
	if name == "" {
		name = "space"
	}
	return s.RevisionPDF(ctx, PDFOf{Space: sp, Revision: sp.Revision, Title: sp.Title, Name: name}, pick)
}

// RevisionPDF returns the signed token of a link to a PDF of a revision
// of a space. The PDF of a revision is made once and kept in the blob
// store; the link works without a token and expires after PDFTTL. It
// checks no right: callers have checked the space's read level. Errors:
// Invalid (pick), NotFound (the page), TooLarge (beyond MaxPDFPages or
// MaxPDFBytes).
func (s *Service) RevisionPDF(ctx context.Context, of PDFOf, pick PDFPick) (string, error) {
	if err := pick.Validate(); err != nil {
		return "", err
	}
	var ix *Index
	if of.Revision != "" {
		var err error
		if _, ix, err = s.Repo.Load(ctx, of.Space.ID, of.Revision); err != nil {
			return "", err
		}
	} else {
		ix = NewIndex(&Tree{})
	}
	which := "all"
	if pick.PageID != "" {
		if ix.Page(pick.PageID) == nil {
			return "", apperr.NotFoundf("page %s not found", pick.PageID)
		}
		which = pick.PageID
		if pick.Only {
			which += "-only"
		}
	}
	key := "spaces/" + of.Space.ID + "/pdf/" + of.Revision + "-" + which + "." + pdfFormat
	if _, err := s.d.Blobs.Get(ctx, key); errors.Is(err, blob.ErrNotFound) {
		data, err := s.renderPDF(ctx, of, ix, pick)
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
	return s.d.Cursors.Cursor(pdfScope(of.Space.ID, of.Scope), store.Key{PK: key, SK: strconv.FormatInt(expires, 10), ISK: of.Name}), nil
}

// pdfScope binds a link to its space and scope; the change requests'
// scopes ("pdf:<space>:<request>") are the ones they had before the space
// PDF existed, so links made then still work.
func pdfScope(spaceID, scope string) string {
	if scope == "" {
		return "pdf:" + spaceID
	}
	return "pdf:" + spaceID + ":" + scope
}

// renderPDF prints the picked pages of a revision, their includes,
// expressions and conditional blocks resolved.
func (s *Service) renderPDF(ctx context.Context, of PDFOf, ix *Index, pick PDFPick) ([]byte, error) {
	var picked []*Page
	var depths []int
	ix.Walk(func(p *Page, depth int) bool {
		if pick.PageID == "" || (pick.Only && p.ID == pick.PageID) || (!pick.Only && ix.IsDescendant(p.ID, pick.PageID)) {
			if p.Type != TypeLink {
				picked = append(picked, p)
				depths = append(depths, depth)
			}
		}
		return true
	})
	if len(picked) > MaxPDFPages {
		return nil, &apperr.Error{Kind: apperr.TooLarge, Field: "page",
			Message: fmt.Sprintf("the PDF would print %d pages, more than %d: print a part of the space (page)", len(picked), MaxPDFPages)}
	}
	var hashes []string
	for _, p := range picked {
		if p.Type == TypeDocument && p.Document != "" {
			hashes = append(hashes, p.Document)
		}
	}
	for _, rc := range ix.ReusableContents() {
		if rc.Document != "" {
			hashes = append(hashes, rc.Document)
		}
	}
	bodies, err := s.Repo.Documents(ctx, of.Space.ID, hashes)
	if err != nil {
		return nil, err
	}
	spaceVars := ix.Variables()
	pages := make([]pdf.Page, 0, len(picked))
	size := 0
	for i, p := range picked {
		body := resolveForPDF(of.Space.ID, ix, p, bodies, spaceVars)
		size += len(body)
		if size > MaxPDFBytes {
			return nil, &apperr.Error{Kind: apperr.TooLarge, Field: "page",
				Message: fmt.Sprintf("the PDF would print more than %d bytes of text: print a part of the space (page)", MaxPDFBytes)}
		}
		pages = append(pages, pdf.Page{Title: p.Title, Description: p.Description, Depth: depths[i],
			Document: document.ToDocument(body, document.Resolver{Locator: ix, PageID: p.ID})})
	}
	return pdf.Render(of.Title, pages, func(fileID string) (pdf.Image, bool) {
		f := ix.File(fileID)
		if f == nil {
			return pdf.Image{}, false
		}
		data, err := s.Repo.FileBytes(ctx, of.Space.ID, f.Blob)
		if err != nil {
			return pdf.Image{}, false
		}
		return pdf.Image{ContentType: f.ContentType, Data: data}, true
	})
}

// resolveForPDF is a page's body as a member reads it: its includes replaced by the revision's reusable contents,
// its expressions by their values (the space's and the page's variables)
// and its conditional blocks evaluated with no visitor's claims. A PDF is
// made for the space's members, not for a site's visitor: a block shown
// only to some visitors (a condition on visitor claims) prints only when
// it holds without claims.
func resolveForPDF(spaceID string, ix *Index, p *Page, bodies map[string]string, spaceVars Variables) string {
	if p.Type != TypeDocument || p.Document == "" {
		return ""
	}
	// Includes are read from the file the page came from (Git Sync), else
	// the one Galley writes it to, as Index.ReusableContentAt reads them.
	file := ""
	if froms := includeFroms(p, ix.GitPath(p.ID)); len(froms) > 0 {
		file = froms[0]
	}
	body, _ := document.Resolve(bodies[p.Document], document.ResolveOptions{
		Env:  condition.Env{SpaceVars: spaceVars, PageVars: p.Variables},
		File: file,
		Include: func(t document.IncludeTarget) (document.Included, bool) {
			id := t.ID
			switch {
			case id != "" && t.Space != "" && t.Space != spaceID:
				return document.Included{}, false // another space's: not in this revision
			case id == "":
				// A path from the space's root, or Galley's
				// /reusable-contents/<id> form read as a path.
				id = ix.ReusableContentAt(p.ID, "/"+t.Path)
			}
			rc := ix.ReusableContent(id)
			if rc == nil {
				return document.Included{}, false
			}
			inc := document.Included{Body: bodies[rc.Document]}
			if rc.Git != nil {
				inc.File = rc.Git.Path
			}
			return inc, true
		},
	})
	return body
}

// PDFDownload is a PDF a signed link grants.
type PDFDownload struct {
	Name string
	Data []byte
}

// DownloadPDF checks a PDF link's token (scope as given to RevisionPDF)
// and reads the PDF. Errors: Forbidden (a token that is not this link's,
// or expired), NotFound (the PDF is gone).
func (s *Service) DownloadPDF(ctx context.Context, spaceID, scope, token string) (PDFDownload, error) {
	bad := apperr.Forbiddenf("invalid or expired PDF link")
	k, err := s.d.Cursors.After(pdfScope(spaceID, scope), token)
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
