// Command customfields is the CustomFieldsFunction Lambda function: the
// custom fields family (an organization's custom fields and the values of
// its spaces). Built for provided.al2023 as "bootstrap" by
// `make build-CustomFieldsFunction`.
package main

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/roots/customfieldsroot"
)

func main() {
	app.StartLambda(app.NewFamily("customfields", "CustomFieldsFunction", customfieldsroot.Routes))
}
