// Command routes prints the routes each Lambda function serves, built from
// families.All() the way each function builds its API, and keeps
// template.yaml's Events sections in step with them.
//
//	go run ./functions/routes                      # Events sections, per function
//	go run ./functions/routes -list                # "Function METHOD path" lines
//	go run ./functions/routes -write template.yaml # rewrite the generated sections
//	go run ./functions/routes -openapi shared/apidoc/openapi.json # write the API's document
//
// In template.yaml the Events section of each function sits between
// "# BEGIN routes <Function>" and "# END routes <Function>" comments; -write
// replaces what is between them. infra/template_test.go fails when
// template.yaml and the code disagree.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/galleydocs/galley/shared/app/families"
)

func main() {
	list := flag.Bool("list", false, "print one \"Function METHOD path\" line per route")
	write := flag.String("write", "", "rewrite the generated Events sections of this template file")
	openapi := flag.String("openapi", "", "write the OpenAPI document of every family to this file (package apidoc embeds it)")
	flag.Parse()
	if *openapi != "" {
		doc, err := families.OpenAPI()
		if err != nil {
			fail(err)
		}
		if err := os.WriteFile(*openapi, doc, 0o644); err != nil {
			fail(err)
		}
		fmt.Fprintf(os.Stderr, "%s: written\n", *openapi)
		if *write == "" {
			return
		}
	}
	functions := families.Functions()
	switch {
	case *write != "":
		old, err := os.ReadFile(*write)
		if err != nil {
			fail(err)
		}
		updated, err := families.WriteRoutes(old, functions)
		if err != nil {
			fail(fmt.Errorf("%s: %w", *write, err))
		}
		if bytes.Equal(old, updated) {
			fmt.Fprintf(os.Stderr, "%s: routes up to date\n", *write)
			return
		}
		if err := os.WriteFile(*write, updated, 0o644); err != nil {
			fail(err)
		}
		fmt.Fprintf(os.Stderr, "%s: routes rewritten\n", *write)
	case *list:
		for _, f := range functions {
			for _, r := range f.Routes {
				fmt.Printf("%s\t%s\t%s\n", f.Function, r.Method, r.Path)
			}
		}
	default:
		for _, f := range functions {
			fmt.Printf("# %s (functions/%s): %d routes\n", f.Function, f.Family, len(f.Routes))
			fmt.Print(families.EventsBlock(f, "      "))
			fmt.Println()
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "routes:", err)
	os.Exit(1)
}
