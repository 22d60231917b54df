// Package contentpdfwire provides the process's PDF service of the
// content family (package wire): only the functions that serve PDFs (the
// content and change requests families) link it, and through it the PDF
// writer.
package contentpdfwire

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/contentwire"
	"github.com/galleydocs/galley/shared/content/contentpdf"
)

// Service is the root's PDF service.
func Service(r *app.Root) *contentpdf.Service {
	return app.Service(r, func() *contentpdf.Service { return contentpdf.New(r.Deps, contentwire.Service(r)) })
}
