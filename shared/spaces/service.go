// Package spaces is the spaces family: the lifecycle of spaces.
package spaces

import (
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/httpapi"
)

// Service manages spaces.
type Service struct {
	d *deps.Deps
}

// New returns the spaces service.
func New(d *deps.Deps) *Service { return &Service{d: d} }

// Register adds the spaces family's operations.
func Register(api *httpapi.API, s *Service) {}
