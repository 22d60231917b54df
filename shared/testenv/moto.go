package testenv

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/galleydocs/galley/shared/awsretry"
)

// MotoServerPath is where infra/python/install.sh puts moto_server.
func MotoServerPath() string {
	return filepath.Join(CacheDir(), "venv", "bin", "moto_server")
}

// motoStartTimeout allows for moto's slow import of botocore on a loaded
// 2-core machine (other test binaries compiling and running alongside).
const motoStartTimeout = 90 * time.Second

// Moto is moto's server (S3, SQS and the other mocked AWS services), shared by
// every test of one test binary. Create it in TestMain with NewMoto and stop
// it there after m.Run; the process starts on the first test that asks for
// its endpoint, so a run that selects no such test does not pay for it.
type Moto struct {
	once sync.Once
	proc *Process
	err  error
}

// NewMoto returns a server that is not started yet.
func NewMoto() *Moto { return &Moto{} }

// Endpoint starts the server if needed and returns its base URL. When moto
// is not installed the test stops through Missing (a skip, or a failure when
// emulators are required); when it is installed but does not start, the test
// fails.
func (m *Moto) Endpoint(tb testing.TB) string {
	tb.Helper()
	path := MotoServerPath()
	if _, err := os.Stat(path); err != nil {
		Missing(tb, "moto_server ("+path+")")
	}
	m.once.Do(func() {
		port, err := FreePort()
		if err != nil {
			m.err = fmt.Errorf("moto: pick a port: %w", err)
			return
		}
		cmd := exec.Command(path, "-H", "127.0.0.1", "-p", fmt.Sprint(port))
		m.proc, m.err = Start(cmd, port, motoStartTimeout)
		if m.err != nil {
			m.err = fmt.Errorf("moto: %w", m.err)
		}
	})
	if m.err != nil {
		tb.Fatal(m.err)
	}
	return m.proc.Endpoint
}

// AWSConfig returns an SDK configuration aimed at this server: region
// us-east-1, fixed fake credentials and the server as base endpoint. It is
// built from nothing rather than loaded, so no profile, environment variable
// or instance role can point a test at real AWS. S3 clients also need
// UsePathStyle, since moto does not serve bucket subdomains of 127.0.0.1.
// Its clients retry as the deployment's do (awsretry).
func (m *Moto) AWSConfig(tb testing.TB) aws.Config {
	tb.Helper()
	endpoint := m.Endpoint(tb)
	return aws.Config{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(endpoint),
		Retryer:      awsretry.New,
		HTTPClient:   awsretry.HTTPClient(),
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: "test", SecretAccessKey: "test", Source: "testenv"}, nil
		}),
	}
}

// Stop ends the server if it was started.
func (m *Moto) Stop() {
	if m == nil {
		return
	}
	m.proc.Stop()
}
