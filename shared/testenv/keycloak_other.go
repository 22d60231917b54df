//go:build !unix

package testenv

import (
	"testing"
	"time"
)

// Keycloak is a Keycloak server started for a test; Keycloak's tests run
// on Unix only (kc.sh).
type Keycloak struct {
	Endpoint, AdminUser, AdminPassword string
	Started                            time.Duration
}

// KeycloakFor stops tb through Missing: kc.sh needs a Unix shell.
func KeycloakFor(tb testing.TB) *Keycloak {
	tb.Helper()
	Missing(tb, "Keycloak (kc.sh needs a Unix system)")
	return nil
}

// Stop does nothing.
func (k *Keycloak) Stop() {}
