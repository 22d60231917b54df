// Package wire holds, in one package per family, the providers of the
// services other families use: each builds its family's service once per
// process root (app.Service), from the root's dependencies and the
// services its constructor takes, which it asks of the other providers.
// A provider package imports only service packages (no HTTP): a Lambda
// function links the providers of the services its family uses, and
// nothing else (infra/linking_test.go). The families' routes and worker
// handlers, which also register the HTTP handlers, are in package roots.
package wire
