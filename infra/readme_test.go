package infra_test

import (
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/testenv"
)

// The README's walk-through works when pasted into a shell: run as is
// (bash -e, so a failing command fails it), on a free port instead of
// 8080, it builds and starts the local server, waits for it, makes a user,
// an organization and a space, lists the space and stops the server.
func TestReadmeWalkThroughRunsAsPasted(t *testing.T) {
	for _, tool := range []string{"bash", "curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			if testenv.Required() {
				t.Fatalf("%s is not installed (make test-deps installs it: infra/debian/install.sh)", tool)
			}
			t.Skipf("%s is not installed (make test-deps installs it)", tool)
		}
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(readme)
	i := strings.Index(s, "## A walk-through with curl")
	if i < 0 {
		t.Fatal("README.md has no walk-through")
	}
	start := strings.Index(s[i:], "```sh\n")
	end := strings.Index(s[i+start+6:], "```")
	if start < 0 || end < 0 {
		t.Fatal("the walk-through has no sh block")
	}
	script := s[i+start+6 : i+start+6+end]
	if !strings.Contains(script, "localhost:8080") {
		t.Fatal("the walk-through no longer uses localhost:8080; update this test")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	script = strings.ReplaceAll(script, "localhost:8080", "localhost:"+port)
	script = strings.ReplaceAll(script, "/tmp/galley", t.TempDir()+"/galley")
	cmd := exec.Command("bash", "-e", "-c", script)
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "ADDR=127.0.0.1:"+port)
	out, err := cmd.CombinedOutput()
	os.Remove("../galley.log")
	if err != nil {
		t.Fatalf("the walk-through failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), `"Handbook"`) || !strings.Contains(string(out), `"displayName":"Ada"`) {
		t.Fatalf("the walk-through did not list its space or user:\n%s", out)
	}
	// The server it started goes.
	for tries := 0; ; tries++ {
		c, err := net.Dial("tcp", "127.0.0.1:"+port)
		if err != nil {
			break
		}
		c.Close()
		if tries == 50 {
			t.Fatal("the walk-through left its server running")
		}
		time.Sleep(100 * time.Millisecond)
	}
}
