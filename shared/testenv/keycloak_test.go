//go:build unix

package testenv

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Without Keycloak, or without the Java it needs, the error names what is
// missing and matches ErrNotInstalled, which KeycloakFor turns into Missing.
func TestStartKeycloakNamesWhatIsMissing(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("GALLEY_CACHE", cache)
	t.Setenv("KEYCLOAK_JAVA_HOME", "")
	_, err := StartKeycloak()
	if !errors.Is(err, ErrNotInstalled) || !strings.Contains(err.Error(), filepath.Join(cache, "keycloak", "bin", "kc.sh")) {
		t.Errorf("no Keycloak: %v; want ErrNotInstalled naming kc.sh", err)
	}

	bin := filepath.Join(cache, "keycloak", "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "kc.sh"), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err = StartKeycloak()
	if !errors.Is(err, ErrNotInstalled) || !strings.Contains(err.Error(), "Java 21+ for Keycloak") {
		t.Errorf("no java-home: %v; want ErrNotInstalled naming Java 21+", err)
	}

	if err := os.WriteFile(filepath.Join(cache, "keycloak", "java-home"), []byte(filepath.Join(cache, "nojdk")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = StartKeycloak()
	if !errors.Is(err, ErrNotInstalled) || !strings.Contains(err.Error(), filepath.Join(cache, "nojdk", "bin", "java")) {
		t.Errorf("java-home without java: %v; want ErrNotInstalled naming its java", err)
	}
}

// A Keycloak that exits before it answers is an error with its output,
// not a wait until the timeout.
func TestStartKeycloakReportsAnEarlyExit(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("GALLEY_CACHE", cache)
	bin := filepath.Join(cache, "keycloak", "bin")
	jdk := filepath.Join(cache, "jdk")
	for _, d := range []string{bin, filepath.Join(jdk, "bin")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(jdk, "bin", "java"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KEYCLOAK_JAVA_HOME", jdk)
	if err := os.WriteFile(filepath.Join(bin, "kc.sh"), []byte("#!/bin/sh\necho \"boom: $1 $2 JAVA_HOME=$JAVA_HOME\"\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := StartKeycloak()
	if err == nil || errors.Is(err, ErrNotInstalled) || !strings.Contains(err.Error(), "boom: start-dev --db=dev-mem JAVA_HOME="+jdk) {
		t.Errorf("early exit: %v; want its output", err)
	}
}
