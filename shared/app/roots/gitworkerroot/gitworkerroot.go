// Package gitworkerroot is the Git worker's composition root (package roots).
package gitworkerroot

import (
	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/wire/gitsyncwire"
	"github.com/galleydocs/galley/shared/queue"
)

// Handlers are the Git worker's job handlers, by kind.
func Handlers(r *app.Root) map[string]queue.Handler { return gitsyncwire.Service(r).Handlers() }
