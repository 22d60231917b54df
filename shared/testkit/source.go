package testkit

import (
	"go/ast"
	"strconv"
	"strings"
)

// ImportNames maps the names a Go file's imports go by in it (the name
// given, else the path's last element) to their paths, for the tests that
// read the project's own source (which function links which family, which
// package builds which service).
func ImportNames(f *ast.File) map[string]string {
	names := map[string]string{}
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		name := p[strings.LastIndex(p, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		names[name] = p
	}
	return names
}
