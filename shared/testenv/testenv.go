// Package testenv starts the real components that integration tests run
// against (DynamoDB Local, moto's server) from the project's cache folder,
// where `make test-deps` installs them.
//
// A component that is not installed makes its tests skip when run by hand
// with `go test`, and fail when GALLEY_REQUIRE_EMULATORS=1 (set by
// `make test`, hence in CI): nothing is silently skipped there.
package testenv

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// CacheDir is where test dependencies are installed: $GALLEY_CACHE, or
// ~/.cache/galley.
func CacheDir() string {
	if d := os.Getenv("GALLEY_CACHE"); d != "" {
		return d
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "galley-cache")
	}
	return filepath.Join(home, ".cache", "galley")
}

// ModuleRoot is the folder of the go.mod above the test's working
// directory (its package's folder).
func ModuleRoot(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			tb.Fatal("no go.mod above the test's folder")
		}
		dir = up
	}
}

// Required reports whether missing components must fail the tests.
func Required() bool { return os.Getenv("GALLEY_REQUIRE_EMULATORS") == "1" }

// Missing stops a test that needs a component that is not there: a failure
// when components are required, a skip otherwise.
func Missing(tb testing.TB, what string) {
	tb.Helper()
	msg := fmt.Sprintf("%s is missing; run `make test-deps` to install it (cache: %s)", what, CacheDir())
	if Required() {
		tb.Fatal(msg)
	}
	tb.Skip(msg)
}

// FreePort returns a loopback TCP port that was free a moment ago.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Process is a component started for a test binary.
type Process struct {
	cmd *exec.Cmd
	// Endpoint is the component's base URL, e.g. http://127.0.0.1:41234.
	Endpoint string
}

// Start runs cmd, which must listen on port, and waits until it accepts
// connections.
func Start(cmd *exec.Cmd, port int, timeout time.Duration) (*Process, error) {
	cmd.Stdout, cmd.Stderr = nil, nil
	if os.Getenv("GALLEY_TEST_VERBOSE") == "1" {
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			c.Close()
			return &Process{cmd: cmd, Endpoint: "http://" + addr}, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	return nil, fmt.Errorf("%s did not listen on %s within %s", cmd.Path, addr, timeout)
}

// Stop ends the process.
func (p *Process) Stop() {
	if p == nil || p.cmd.Process == nil {
		return
	}
	_ = p.cmd.Process.Kill()
	_ = p.cmd.Wait()
}

// SyncBuffer is a buffer safe for concurrent writers: the log or metrics
// destination of a server that tests read while it runs.
type SyncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns what was written.
func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Take returns what was written since the last Take and empties the buffer.
func (b *SyncBuffer) Take() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.buf.String()
	b.buf.Reset()
	return s
}
