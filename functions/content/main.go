// Command content is the ContentFunction Lambda function: the space content
// family (reads of a space's current revision, its pages and files, and
// signed file downloads). Built for provided.al2023 as "bootstrap" by
// `make build-ContentFunction`.
package main

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/contentroot"
	"github.com/galleydocs/galley/shared/cdn/cloudfrontcdn"
)

// Duplicating a site space changes a published site's navigation: its CDN
// copies are invalidated.
func main() {
	app.StartLambda(app.NewFamily("content", "ContentFunction", contentroot.Routes).WithCDN(cloudfrontcdn.Connect))
}
