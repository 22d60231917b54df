// Package contentpdf is the content family's PDF export of a revision
// (docs/content.md, "PDF export"): the space's current revision
// (getSpacePDF) and a change request's (package changerequests asks
// Revision for its revision). Both are made here, kept in the blob store
// by revision, and reached through a signed link. It is a package of its
// own so that only the functions that serve PDFs link the PDF writer
// (infra/linking_test.go): reading content does not need it.
package contentpdf

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
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/document"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/pdf"
	"github.com/galleydocs/galley/shared/store"
)

// Service makes and serves the PDFs of revisions.
type Service struct {
	d       *deps.Deps
	content *content.Service
}

// New returns the PDF service, reading content through c.
func New(d *deps.Deps, c *content.Service) *Service { return &Service{d: d, content: c} }

// TTL is how long a PDF link works.
const TTL = time.Hour

// pdfFormat names the layout of stored PDFs: a change to the rendering
// means a new format, whose PDFs are made afresh. v2: includes,
// expressions and conditional blocks resolved.
const pdfFormat = "v2"

// The limits of one PDF (docs/content.md, "PDF export": measured so that
// the largest PDF renders well within the API's 29 s on a 256 MB
// function). Beyond them the request is refused (413) and a part of the
// space (page) can be printed instead.
const (
	// MaxPages is how many pages one PDF prints at most.
	MaxPages = 500
	// MaxBytes bounds the markdown one PDF prints (the pages' bodies
	// with their includes resolved).
	MaxBytes = 5 << 20
)

// Pick is what a PDF prints of a revision: every page (PageID ""), or
// the page PageID with its descendants, or (Only) that page alone.
type Pick struct {
	PageID string
	Only   bool
}

// Validate refuses only without a page (400 naming page).
func (p Pick) Validate() error {
	if p.Only && p.PageID == "" {
		return apperr.Field("page", "only needs a page")
	}
	return nil
}

// Of is the revision a PDF prints and how it is named.
type Of struct {
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

// Space returns the signed token of a link to a PDF of the space's
// current revision (or of a part of it, pick); the caller needs the read
// level on the space. Download(spaceID, "", token) reads it.
func (s *Service) Space(ctx context.Context, spaceID string, pick Pick) (string, error) {
	if err := pick.Validate(); err != nil {
		return "", err
	}
	sp, _, err := s.content.Space(ctx, spaceID, access.ReadContent)
	if err != nil {
		return "", err
	}
	name := sp.Title
	if name == "" {
		name = "space"
	}
	return s.Revision(ctx, Of{Space: sp, Revision: sp.Revision, Title: sp.Title, Name: name}, pick)
}

// Revision returns the signed token of a link to a PDF of a revision
// of a space. The PDF of a revision is made once and kept in the blob
// store; the link works without a token and expires after TTL. It
// checks no right: callers have checked the space's read level. Errors:
// Invalid (pick), NotFound (the page), TooLarge (beyond MaxPages or
// MaxBytes).
func (s *Service) Revision(ctx context.Context, of Of, pick Pick) (string, error) {
	if err := pick.Validate(); err != nil {
		return "", err
	}
	var ix *content.Index
	if of.Revision != "" {
		var err error
		if _, ix, err = s.content.Repo.Load(ctx, of.Space.ID, of.Revision); err != nil {
			return "", err
		}
	} else {
		ix = content.NewIndex(&content.Tree{})
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
	expires := s.d.Clock().Add(TTL).Unix()
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
func (s *Service) renderPDF(ctx context.Context, of Of, ix *content.Index, pick Pick) ([]byte, error) {
	var picked []*content.Page
	var depths []int
	ix.Walk(func(p *content.Page, depth int) bool {
		if pick.PageID == "" || (pick.Only && p.ID == pick.PageID) || (!pick.Only && ix.IsDescendant(p.ID, pick.PageID)) {
			if p.Type != content.TypeLink {
				picked = append(picked, p)
				depths = append(depths, depth)
			}
		}
		return true
	})
	if len(picked) > MaxPages {
		return nil, &apperr.Error{Kind: apperr.TooLarge, Field: "page",
			Message: fmt.Sprintf("the PDF would print %d pages, more than %d: print a part of the space (page)", len(picked), MaxPages)}
	}
	var hashes []string
	for _, p := range picked {
		if p.Type == content.TypeDocument && p.Document != "" {
			hashes = append(hashes, p.Document)
		}
	}
	for _, rc := range ix.ReusableContents() {
		if rc.Document != "" {
			hashes = append(hashes, rc.Document)
		}
	}
	bodies, err := s.content.Repo.Documents(ctx, of.Space.ID, hashes)
	if err != nil {
		return nil, err
	}
	// Resolved bodies first (their size decides the limit before any
	// rendering); each page's document tree is made as it prints.
	spaceVars := ix.Variables()
	resolved := make([]string, len(picked))
	size := 0
	for i, p := range picked {
		resolved[i] = resolveForPDF(of.Space.ID, ix, p, bodies, spaceVars)
		size += len(resolved[i])
		if size > MaxBytes {
			return nil, &apperr.Error{Kind: apperr.TooLarge, Field: "page",
				Message: fmt.Sprintf("the PDF would print more than %d bytes of text: print a part of the space (page)", MaxBytes)}
		}
	}
	clear(bodies)
	page := func(i int) (pdf.Page, error) {
		p := picked[i]
		doc := document.ToDocument(resolved[i], document.Resolver{Locator: ix, PageID: p.ID})
		resolved[i] = ""
		return pdf.Page{Title: p.Title, Description: p.Description, Depth: depths[i], Document: doc}, nil
	}
	return pdf.RenderEach(of.Title, len(picked), page, func(fileID string) (pdf.Image, bool) {
		f := ix.File(fileID)
		if f == nil {
			return pdf.Image{}, false
		}
		data, err := s.content.Repo.FileBytes(ctx, of.Space.ID, f.Blob)
		if err != nil {
			return pdf.Image{}, false
		}
		return pdf.Image{ContentType: f.ContentType, Data: data}, true
	})
}

// resolveForPDF is a page's body as a member reads it: its includes
// replaced by the revision's reusable contents, its expressions by their
// values (the space's and the page's variables) and its conditional
// blocks evaluated with no visitor's claims. A PDF is
// made for the space's members, not for a site's visitor: a block shown
// only to some visitors (a condition on visitor claims) prints only when
// it holds without claims.
func resolveForPDF(spaceID string, ix *content.Index, p *content.Page, bodies map[string]string, spaceVars content.Variables) string {
	if p.Type != content.TypeDocument || p.Document == "" {
		return ""
	}
	file := ix.SourceFile(p.ID)
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

// PDF is a PDF a signed link grants, and its file name (without ".pdf").
type PDF struct {
	Name string
	Data []byte
}

// Download checks a PDF link's token (scope as given to Revision)
// and reads the PDF. Errors: Forbidden (a token that is not this link's,
// or expired), NotFound (the PDF is gone).
func (s *Service) Download(ctx context.Context, spaceID, scope, token string) (PDF, error) {
	bad := apperr.Forbiddenf("invalid or expired PDF link")
	k, err := s.d.Cursors.After(pdfScope(spaceID, scope), token)
	if err != nil || k == nil {
		return PDF{}, bad
	}
	expires, err := strconv.ParseInt(k.SK, 10, 64)
	if err != nil || s.d.Clock().Unix() >= expires {
		return PDF{}, bad
	}
	data, err := s.d.Blobs.Get(ctx, k.PK)
	if errors.Is(err, blob.ErrNotFound) {
		return PDF{}, apperr.NotFoundf("PDF not found")
	}
	if err != nil {
		return PDF{}, fmt.Errorf("read PDF: %w", err)
	}
	return PDF{Name: k.ISK, Data: data}, nil
}
