// Package orgs is the organizations family: organizations, members, teams,
// invites and email domains.
package orgs

import (
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/users"
)

// Service manages organizations.
type Service struct {
	d     *deps.Deps
	users *users.Service
}

// New returns the organizations service.
func New(d *deps.Deps, u *users.Service) *Service { return &Service{d: d, users: u} }

// Register adds the organizations family's operations.
func Register(api *httpapi.API, s *Service) {}
