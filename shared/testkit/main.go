package testkit

import (
	"os"
	"testing"

	"github.com/galleydocs/galley/shared/testenv"
	"github.com/galleydocs/galley/shared/testenv/lambdarun"
)

// The components a test binary shares: started by the first test that asks
// for one, stopped by Main when the binary's tests are done. They are the
// one package-level state of the kit, by nature: one per test process, as
// the testing package's flags are (a test package, never linked by a
// program).
var (
	dynamo testenv.DynamoDBLocal
	moto   = testenv.NewMoto()
	// binaries are the functions built for the binary's tests.
	binaries lambdarun.Binaries
)

// Main runs a package's tests and stops the components they started; every
// package whose tests use one says
//
//	func TestMain(m *testing.M) { testkit.Main(m) }
//
// A component that is not installed skips its tests, or fails them when
// GALLEY_REQUIRE_EMULATORS=1 (testenv.Missing).
func Main(m *testing.M) {
	code := m.Run()
	dynamo.Stop()
	moto.Stop()
	binaries.Remove()
	os.Exit(code)
}

// FunctionBinaries is the folder of the functions' binaries, built once
// for the test binary (lambdarun.Binaries) and removed by Main.
func FunctionBinaries(tb testing.TB) string { return binaries.Dir(tb) }

// DynamoDBLocal is the test binary's DynamoDB Local (started on first use;
// give each test its own table, as DynamoStore does).
func DynamoDBLocal() *testenv.DynamoDBLocal { return &dynamo }

// Moto is the test binary's moto server (S3, SQS), started on first use.
func Moto() *testenv.Moto { return moto }
