// Command collections is the CollectionsFunction Lambda function: the
// collections family (collections of spaces, nested, moved, transferred).
// Built for provided.al2023 as "bootstrap" by `make build-CollectionsFunction`.
package main

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/collectionsroot"
)

func main() {
	app.StartLambda(app.NewFamily("collections", "CollectionsFunction", collectionsroot.Routes))
}
