package infra_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/store/dynamostore"
	"github.com/galleydocs/galley/shared/users"
)

// After a deployment, the administration command (functions/admin), run
// with the deployer's credentials against the stack's table, creates the
// first administrator once and prints their token, which the API accepts
// as the instance administrator's; a second run makes nobody.
func TestAdminCommandCreatesTheFirstAdministratorOnce(t *testing.T) {
	endpoint := ddb.Endpoint(t)
	c := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(endpoint),
		Credentials: credentials.NewStaticCredentialsProvider("galley", "galley", "")})
	table := "galley-admin-" + ids.New(time.Now())
	ctx := context.Background()
	if err := dynamostore.CreateTable(ctx, c, table); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(table)}) })
	bin := filepath.Join(t.TempDir(), "admin")
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if out, err := exec.Command(goBin, "build", "-o", bin, "../functions/admin").CombinedOutput(); err != nil {
		t.Fatalf("go build ./functions/admin: %v\n%s", err, out)
	}
	run := func() (string, error) {
		cmd := exec.Command(bin, "bootstrap", "-email", "ops@example.com", "-name", "Ops")
		cmd.Env = append(os.Environ(), "TABLE_NAME="+table, "AWS_ENDPOINT_URL="+endpoint, "AWS_REGION=us-east-1",
			"AWS_ACCESS_KEY_ID=galley", "AWS_SECRET_ACCESS_KEY=galley")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run()
	if err != nil {
		t.Fatalf("bootstrap: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	token := lines[len(lines)-1]
	if !strings.HasPrefix(token, users.TokenPrefix) {
		t.Fatalf("no token in the output:\n%s", out)
	}
	s := users.New(&deps.Deps{Store: dynamostore.New(c, table)})
	caller, err := s.Authenticate(ctx, token)
	if err != nil || !caller.InstanceAdmin {
		t.Fatalf("the printed token authenticates as %+v, %v", caller, err)
	}
	if u, err := s.Get(ctx, caller.UserID); err != nil || u.Email != "ops@example.com" || u.DisplayName != "Ops" {
		t.Fatalf("administrator %+v, %v", u, err)
	}
	if out, err := run(); err == nil || !strings.Contains(out, "has an administrator already") {
		t.Fatalf("a second bootstrap: %v\n%s", err, out)
	}
}
