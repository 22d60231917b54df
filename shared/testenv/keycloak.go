//go:build unix

package testenv

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// keycloakStartTimeout bounds Keycloak's start in dev mode: 13 to 16 s on
// a quiet 2-core machine once installed (infra/keycloak/install.sh builds
// its dev-mode image), up to about a minute under load.
const keycloakStartTimeout = 4 * time.Minute

// keycloakStopGrace is how long Keycloak may take to shut down on SIGTERM
// before its process group is killed.
const keycloakStopGrace = 20 * time.Second

// KeycloakDir is where infra/keycloak/install.sh installs Keycloak: the
// distribution (bin/kc.sh, lib/, …) and java-home, the JDK (21 or newer)
// it runs on.
func KeycloakDir() string { return filepath.Join(CacheDir(), "keycloak") }

// KeycloakArgs are the arguments of kc.sh for tests, port aside: dev mode
// with an in-memory database (each start is a blank Keycloak). The install
// script starts it once with the same build options, so that the tests do
// not pay for Keycloak's rebuild of its image.
func KeycloakArgs(httpPort, managementPort int) []string {
	return []string{"start-dev", "--db=dev-mem",
		"--http-port=" + strconv.Itoa(httpPort), "--http-management-port=" + strconv.Itoa(managementPort)}
}

// Keycloak is a Keycloak server started for a test.
type Keycloak struct {
	cmd  *exec.Cmd
	done chan struct{}
	// Endpoint is its base URL, e.g. http://127.0.0.1:41234.
	Endpoint string
	// AdminUser and AdminPassword are the master realm's bootstrap admin.
	AdminUser, AdminPassword string
	// Started is how long the start took, until the server answered.
	Started time.Duration
}

// lockedBuffer is a bytes.Buffer written by the process's output copier
// and read by the test.
type lockedBuffer struct {
	ch  chan struct{}
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.ch <- struct{}{}
	defer func() { <-b.ch }()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.ch <- struct{}{}
	defer func() { <-b.ch }()
	return b.buf.String()
}

// keycloakJavaHome is the JDK Keycloak runs on: $KEYCLOAK_JAVA_HOME, else
// the one the install script recorded (Keycloak needs Java 21 or newer; the
// default java may be older).
func keycloakJavaHome(dir string) (string, error) {
	home := os.Getenv("KEYCLOAK_JAVA_HOME")
	if home == "" {
		b, err := os.ReadFile(filepath.Join(dir, "java-home"))
		if err != nil {
			return "", &missingError{"Java 21+ for Keycloak (" + filepath.Join(dir, "java-home") + ")"}
		}
		home = strings.TrimSpace(string(b))
	}
	if _, err := os.Stat(filepath.Join(home, "bin", "java")); err != nil {
		return "", &missingError{"Java 21+ for Keycloak (" + filepath.Join(home, "bin", "java") + ")"}
	}
	return home, nil
}

// StartKeycloak starts Keycloak in dev mode (bin/kc.sh start-dev) on free
// loopback ports, with a bootstrap admin, and waits until its master realm
// answers. The error wraps ErrNotInstalled when Keycloak or its Java is
// missing. The caller stops it.
func StartKeycloak() (*Keycloak, error) {
	dir := KeycloakDir()
	kcsh := filepath.Join(dir, "bin", "kc.sh")
	if _, err := os.Stat(kcsh); err != nil {
		return nil, &missingError{"Keycloak (" + kcsh + ")"}
	}
	javaHome, err := keycloakJavaHome(dir)
	if err != nil {
		return nil, err
	}
	port, err := FreePort()
	if err != nil {
		return nil, fmt.Errorf("keycloak: free port: %w", err)
	}
	mport, err := FreePort()
	if err != nil {
		return nil, fmt.Errorf("keycloak: free port: %w", err)
	}
	k := &Keycloak{Endpoint: "http://127.0.0.1:" + strconv.Itoa(port), AdminUser: "admin", AdminPassword: "admin-" + strconv.Itoa(port),
		done: make(chan struct{})}
	cmd := exec.Command(kcsh, KeycloakArgs(port, mport)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "JAVA_HOME="+javaHome,
		"KC_BOOTSTRAP_ADMIN_USERNAME="+k.AdminUser, "KC_BOOTSTRAP_ADMIN_PASSWORD="+k.AdminPassword)
	out := &lockedBuffer{ch: make(chan struct{}, 1)}
	cmd.Stdout, cmd.Stderr = out, out
	if os.Getenv("GALLEY_TEST_VERBOSE") == "1" {
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	}
	// kc.sh runs java as its child and forwards SIGTERM to it: it gets
	// SIGTERM when the test binary dies (Pdeathsig), and is in a process
	// group of its own, which Stop kills if the shutdown hangs.
	cmd.SysProcAttr = termWithParent()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", kcsh, err)
	}
	k.cmd = cmd
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(k.done) }()

	ctx, cancel := context.WithTimeout(context.Background(), keycloakStartTimeout)
	defer cancel()
	client := &http.Client{Timeout: 5 * time.Second}
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, k.Endpoint+"/realms/master", nil)
		if res, err := client.Do(req); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				k.Started = time.Since(start)
				return k, nil
			}
		}
		select {
		case <-k.done:
			return nil, fmt.Errorf("keycloak exited before it was ready (%v); its output:\n%s", waitErr, tail(out.String(), 60))
		case <-ctx.Done():
			k.Stop()
			return nil, fmt.Errorf("keycloak did not answer on %s within %s; its output:\n%s", k.Endpoint, keycloakStartTimeout, tail(out.String(), 60))
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// Stop shuts Keycloak down: SIGTERM (kc.sh forwards it to java), then, if
// it has not exited within a grace period, SIGKILL to its process group.
func (k *Keycloak) Stop() {
	if k == nil || k.cmd == nil || k.cmd.Process == nil {
		return
	}
	_ = k.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-k.done:
	case <-time.After(keycloakStopGrace):
	}
	// Whatever is left of the group (java, if kc.sh went first).
	_ = syscall.Kill(-k.cmd.Process.Pid, syscall.SIGKILL)
	<-k.done
}

// termWithParent puts the process in a new process group and, where the
// kernel can (Linux's Pdeathsig), sends it SIGTERM when the test binary
// dies; see dieWithParent for why the field is set by reflection.
func termWithParent() *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{Setpgid: true}
	if f := reflect.ValueOf(attr).Elem().FieldByName("Pdeathsig"); f.IsValid() && f.CanSet() {
		f.Set(reflect.ValueOf(syscall.SIGTERM))
	}
	return attr
}

// KeycloakFor starts a Keycloak for tb alone, stopped at its cleanup. A
// missing installation stops tb through Missing.
func KeycloakFor(tb testing.TB) *Keycloak {
	tb.Helper()
	k, err := StartKeycloak()
	var missing *missingError
	if errors.As(err, &missing) {
		Missing(tb, missing.what)
	}
	if err != nil {
		tb.Fatalf("start Keycloak: %v", err)
	}
	tb.Cleanup(k.Stop)
	tb.Logf("Keycloak started in %s at %s", k.Started.Round(100*time.Millisecond), k.Endpoint)
	return k
}
