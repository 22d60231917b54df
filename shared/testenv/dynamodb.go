package testenv

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// ErrNotInstalled is matched (errors.Is) by the error of a starter when a
// component, or the runtime it needs, is not installed.
var ErrNotInstalled = errors.New("not installed")

// missingError names what is not installed.
type missingError struct{ what string }

func (e *missingError) Error() string { return e.what + " is not installed" }
func (e *missingError) Unwrap() error { return ErrNotInstalled }

// dynamoDBLocalMain is DynamoDB Local's entry point. It is started by class
// name with an explicit class path because the jar's manifest names its
// dependencies as AWS's zip lays them out, not as Maven resolves them.
const dynamoDBLocalMain = "software.amazon.dynamodb.services.local.main.ServerRunner"

// dynamoDBLocalStartTimeout bounds the JVM's start on a slow, busy machine.
const dynamoDBLocalStartTimeout = 60 * time.Second

// DynamoDBLocalDir is where infra/dynamodb-local/install.sh installs
// DynamoDB Local: DynamoDBLocal.jar, and lib/ with its dependencies and the
// native SQLite libraries.
func DynamoDBLocalDir() string { return filepath.Join(CacheDir(), "dynamodb-local") }

// StartDynamoDBLocal starts DynamoDB Local in memory on a free loopback
// port, with telemetry off. The error wraps ErrNotInstalled when it or java
// is missing. The caller stops the process.
func StartDynamoDBLocal() (*Process, error) {
	dir := DynamoDBLocalDir()
	jar := filepath.Join(dir, "DynamoDBLocal.jar")
	lib := filepath.Join(dir, "lib")
	if _, err := os.Stat(jar); err != nil {
		return nil, &missingError{"DynamoDB Local (" + jar + ")"}
	}
	java, err := javaPath()
	if err != nil {
		return nil, err
	}
	port, err := FreePort()
	if err != nil {
		return nil, fmt.Errorf("dynamodb local: free port: %w", err)
	}
	cmd := exec.Command(java,
		"-Djava.library.path="+lib,
		"-cp", jar+string(os.PathListSeparator)+filepath.Join(lib, "*"),
		dynamoDBLocalMain,
		"-inMemory", "-port", strconv.Itoa(port), "-disableTelemetry")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "DDB_LOCAL_TELEMETRY=0")
	cmd.SysProcAttr = dieWithParent()
	return Start(cmd, port, dynamoDBLocalStartTimeout)
}

// javaPath finds java in $JAVA_HOME, else on the PATH.
func javaPath() (string, error) {
	if home := os.Getenv("JAVA_HOME"); home != "" {
		p := filepath.Join(home, "bin", "java")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	p, err := exec.LookPath("java")
	if err != nil {
		return "", &missingError{"java (needed by DynamoDB Local)"}
	}
	return p, nil
}

// dieWithParent asks the kernel, where it can (Linux's Pdeathsig), to kill
// the component when the test binary dies without stopping it, e.g. on a
// `go test -timeout` panic. The field is set by reflection because it exists
// only on Linux and this file builds everywhere.
func dieWithParent() *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{}
	if f := reflect.ValueOf(attr).Elem().FieldByName("Pdeathsig"); f.IsValid() && f.CanSet() {
		f.Set(reflect.ValueOf(syscall.SIGKILL))
	}
	return attr
}

// DynamoDBLocal is one DynamoDB Local shared by the tests of a test binary:
// started by the first test that asks for its endpoint, stopped by TestMain.
// Give each test its own table. The tests of the services use the one of
// package testkit (testkit.DynamoDBLocal, stopped by testkit.Main).
type DynamoDBLocal struct {
	once sync.Once
	proc *Process
	err  error
}

// Endpoint returns the base URL of the shared DynamoDB Local, starting it
// if needed. A missing installation stops tb through Missing.
func (d *DynamoDBLocal) Endpoint(tb testing.TB) string {
	tb.Helper()
	d.once.Do(func() { d.proc, d.err = StartDynamoDBLocal() })
	return endpointOr(tb, d.proc, d.err)
}

// Stop ends the shared process, if it was started.
func (d *DynamoDBLocal) Stop() { d.proc.Stop() }

// DynamoDB starts a DynamoDB Local for tb alone, stopped at its cleanup, and
// returns its base URL. Prefer a shared DynamoDBLocal when several tests
// need one: the JVM takes seconds to start.
func DynamoDB(tb testing.TB) string {
	tb.Helper()
	p, err := StartDynamoDBLocal()
	if err == nil {
		tb.Cleanup(p.Stop)
	}
	return endpointOr(tb, p, err)
}

func endpointOr(tb testing.TB, p *Process, err error) string {
	tb.Helper()
	var missing *missingError
	if errors.As(err, &missing) {
		Missing(tb, missing.what)
	}
	if err != nil {
		tb.Fatalf("start DynamoDB Local: %v", err)
	}
	return p.Endpoint
}
