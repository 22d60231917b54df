// Package roots holds each Lambda function's composition root, in one
// package per function: the routes (or the worker's job handlers) its
// family serves, on services built once by the process's root (app.Root)
// through the providers of package wire, each given the other families'
// services its constructor takes. A function's main.go names its
// package's Routes (or Handlers), so that its binary links only what its
// family uses; local mode (package families) lists every one on one root.
package roots
