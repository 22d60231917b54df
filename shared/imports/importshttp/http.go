// Package importshttp is the content import family's HTTP layer: its
// operations, request body and response shape, on the service of package
// imports (which knows no HTTP).
package importshttp

import (
	"context"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/imports"
)

// ImportContentBody is the body of POST .../content/import (the
// reference's ImportContent).
type ImportContentBody struct {
	URL    string `json:"url" format:"uri" minLength:"1" maxLength:"2048" doc:"URL of the content to import"`
	Source string `json:"source" enum:"website,docx,markdown,html,zip,confluence,github-wiki,notion,google-docs" doc:"What the URL holds; Galley imports website, html, markdown, zip and github-wiki"`
}

// ImportContentResult answers an import (the reference's
// ImportContentResult, and Galley's skippedResources and skipped: the
// reference has no place for what an import left out).
type ImportContentResult struct {
	Revision          string        `json:"revision" doc:"ID of the new revision"`
	ImportedResources int           `json:"importedResources" doc:"How many pages were imported"`
	TotalResources    int           `json:"totalResources" doc:"How many pages were found"`
	SkippedResources  int           `json:"skippedResources" doc:"How many pages found were left out (generated index and search pages, pages too large, pages that could not be read); pages beyond the import's bounds are not counted"`
	Skipped           []SkippedPage `json:"skipped" maxItems:"100" doc:"The first 100 pages left out, in the order found"`
}

// SkippedPage is a page an import found and left out.
type SkippedPage struct {
	URL    string `json:"url" doc:"URL of the page"`
	Reason string `json:"reason" enum:"generated,too-large,unreadable" doc:"generated: an index or search page the documentation generator makes (Sphinx); too-large: over 2 MB of HTML or 1 MiB of markdown; unreadable: a broken link, or not an HTML page"`
}

// maxSkippedListed bounds the pages left out that an answer lists.
const maxSkippedListed = 100

type resultOut struct {
	Body ImportContentResult
}

// Register adds the content import operations.
func Register(api *httpapi.API, s *imports.Service) {
	const tag = "Content import"
	view := func(r imports.Result) *resultOut {
		skipped := make([]SkippedPage, 0, min(len(r.Skipped), maxSkippedListed))
		for _, p := range r.Skipped[:min(len(r.Skipped), maxSkippedListed)] {
			skipped = append(skipped, SkippedPage{URL: p.URL, Reason: p.Reason})
		}
		return &resultOut{Body: ImportContentResult{Revision: r.Revision, ImportedResources: r.Imported, TotalResources: r.Total,
			SkippedResources: len(r.Skipped), Skipped: skipped}}
	}
	httpapi.Register(api, httpapi.Op{ID: "importContent", Idempotent: true, Needs: access.Role(access.EditContent), Expensive: true, Method: http.MethodPost, Path: "/v1/spaces/{spaceId}/content/import", Tag: tag,
		Status: http.StatusCreated, Summary: "Import content from a URL into a space (a new revision of its content)"},
		func(ctx context.Context, in *struct {
			SpaceID string `path:"spaceId" maxLength:"64"`
			Body    ImportContentBody
		}) (*resultOut, error) {
			r, err := s.Import(ctx, in.SpaceID, "", in.Body.URL, in.Body.Source)
			if err != nil {
				return nil, err
			}
			return view(r), nil
		})
	httpapi.Register(api, httpapi.Op{ID: "importContentInChangeRequest", Idempotent: true, Needs: access.Role(access.EditContent), Expensive: true, Method: http.MethodPost,
		Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/import", Tag: tag,
		Status: http.StatusCreated, Summary: "Import content from a URL into a change request (a new revision of it)"},
		func(ctx context.Context, in *struct {
			SpaceID         string `path:"spaceId" maxLength:"64"`
			ChangeRequestID string `path:"changeRequestId" maxLength:"64"`
			Body            ImportContentBody
		}) (*resultOut, error) {
			r, err := s.Import(ctx, in.SpaceID, in.ChangeRequestID, in.Body.URL, in.Body.Source)
			if err != nil {
				return nil, err
			}
			return view(r), nil
		})
}
