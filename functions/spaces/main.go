// Command spaces is the SpacesFunction Lambda function: the spaces family
// (the lifecycle of spaces). Built for provided.al2023 as "bootstrap" by
// `make build-SpacesFunction`.
package main

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/spacesroot"
)

func main() { app.StartLambda(app.NewFamily("spaces", "SpacesFunction", spacesroot.Routes)) }
