package main

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestMain runs the command itself when asked: the test below starts this
// test binary again as the local server (the same main, without linking
// the whole program a second time with go build).
func TestMain(m *testing.M) {
	if os.Getenv("GALLEY_TEST_RUN_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// An invalid variable stops `make run` before it opens anything: the
// message names the variable and the exit status is 1.
func TestInvalidConfigurationStopsTheStart(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, value string }{
		{"LOG_LEVEL", "verbose"},
		{"RATE_LIMIT_ANONYMOUS_BURST", "-5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "GALLEY_TEST_RUN_MAIN=1", "ADDR=127.0.0.1:0", "DATA_DIR="+dir+"/data",
				tc.name+"="+tc.value)
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 1 {
				t.Fatalf("exit: %v, want status 1; output:\n%s", err, out)
			}
			if !strings.Contains(string(out), tc.name+"=") {
				t.Fatalf("output does not name %s:\n%s", tc.name, out)
			}
			if _, err := os.Stat(dir + "/data"); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("DATA_DIR made before the configuration was checked: %v", err)
			}
		})
	}
}
