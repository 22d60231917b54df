// Package lambdarun runs the functions' binaries as Lambda runs them, for
// tests: built once per test binary with the deployment's flags, started
// with AWS_LAMBDA_RUNTIME_API at a loopback Runtime API and
// AWS_ENDPOINT_URL at the emulators (or a fault proxy before them); HTTP
// requests turned into API Gateway's events by the template's routes
// (Gateway), SQS messages delivered to the workers as Lambda's event
// source mapping does (EventSource). The infra package's process tests
// and the soak's lambda rig (shared/app/soak) use it.
package lambdarun

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/galleydocs/galley/shared/app/families"
	"github.com/galleydocs/galley/shared/testenv"
)

// FunctionNames are every Lambda function's directory under functions/:
// the families' and the workers'.
func FunctionNames() []string {
	var names []string
	for _, f := range families.All() {
		names = append(names, f.Name)
	}
	for w := range families.WorkerHandlers() {
		names = append(names, w)
	}
	sort.Strings(names)
	return names
}

// Binaries are the functions (and infra/hellolambda, the baseline of the
// start-up figures) built once for this machine, in one go build with the
// flags of the Makefile's build targets; a test package keeps one in a
// package variable (as testenv.DynamoDBLocal) so that its tests share it.
type Binaries struct {
	once sync.Once
	dir  string
	err  error
}

// Dir builds the binaries the first time, and answers their folder: one
// file per function, named as its folder under functions/.
func (b *Binaries) Dir(tb testing.TB) string {
	tb.Helper()
	b.once.Do(func() {
		root := testenv.ModuleRoot(tb)
		dir, err := os.MkdirTemp("", "galley-functions-")
		if err != nil {
			b.err = err
			return
		}
		pkgs := []string{"./infra/hellolambda"}
		for _, n := range FunctionNames() {
			pkgs = append(pkgs, "./functions/"+n)
		}
		args := []string{"build", "-tags", "lambda.norpc", "-trimpath", "-ldflags=-s -w", "-o", dir + string(os.PathSeparator)}
		cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), append(args, pkgs...)...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
		b.dir = dir
	})
	if b.err != nil {
		tb.Fatal(b.err)
	}
	return b.dir
}

// Remove deletes the binaries (from a TestMain, after the tests).
func (b *Binaries) Remove() {
	if b.dir != "" {
		_ = os.RemoveAll(b.dir)
	}
}

// Command is a function's process as Lambda starts it: its Runtime API at
// runtimeAddr (host:port), the region and fake credentials, the AWS SDK
// sent to endpoint, DynamoDB table table; extra variables override these.
func Command(bin, runtimeAddr, endpoint, table string, extra ...string) *exec.Cmd {
	cmd := exec.Command(bin)
	cmd.Env = []string{
		"AWS_LAMBDA_RUNTIME_API=" + runtimeAddr,
		"AWS_REGION=us-east-1", "AWS_ACCESS_KEY_ID=galley", "AWS_SECRET_ACCESS_KEY=galley",
		"AWS_ENDPOINT_URL=" + endpoint,
		"TABLE_NAME=" + table, "BUCKET_NAME=galley-test", "LOG_LEVEL=error",
		"AWS_LAMBDA_FUNCTION_NAME=galley-test", "AWS_LAMBDA_FUNCTION_MEMORY_SIZE=512",
	}
	cmd.Env = append(cmd.Env, extra...)
	return cmd
}

// Start starts a function's process (Command) whose output goes to logs;
// it is killed (SIGKILL) when tb ends, or by stop.
func Start(tb testing.TB, bin, runtimeAddr, endpoint, table string, extra ...string) (stop func(), logs *bytes.Buffer) {
	tb.Helper()
	cmd := Command(bin, runtimeAddr, endpoint, table, extra...)
	logs = &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	var once sync.Once
	stop = func() {
		once.Do(func() {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		})
	}
	tb.Cleanup(stop)
	return stop, logs
}

// TemplateVariables are the names of the environment variables template.yaml
// gives the function whose logical id is function (its own, not the
// Globals'): which queues' URLs it is given, say.
func TemplateVariables(tb testing.TB, function string) []string {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join(testenv.ModuleRoot(tb), "template.yaml"))
	if err != nil {
		tb.Fatal(err)
	}
	var tpl struct {
		Resources map[string]struct {
			Properties struct {
				Environment struct {
					Variables map[string]yaml.Node `yaml:"Variables"`
				} `yaml:"Environment"`
			} `yaml:"Properties"`
		} `yaml:"Resources"`
	}
	if err := yaml.Unmarshal(raw, &tpl); err != nil {
		tb.Fatalf("template.yaml: %v", err)
	}
	res, ok := tpl.Resources[function]
	if !ok {
		tb.Fatalf("template.yaml has no %s", function)
	}
	var names []string
	for v := range res.Properties.Environment.Variables {
		names = append(names, v)
	}
	sort.Strings(names)
	return names
}
