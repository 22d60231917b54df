// Command admin administers a deployed Galley with the deployer's AWS
// credentials, without going through the API: today, it creates the first
// instance administrator of a deployment (the API has no account before
// one exists) and prints their API token, once.
//
//	TABLE_NAME=<table> go run ./functions/admin bootstrap [-email you@example.com] [-name "Your Name"]
//
// Credentials and region come from the environment (AWS_REGION,
// AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN; with a
// profile or SSO: eval "$(aws configure export-credentials --format env)");
// AWS_ENDPOINT_URL points it at an emulator. It exits 1 when the instance
// has an administrator already (the command never makes a second one).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/store/dynamostore"
	"github.com/galleydocs/galley/shared/users"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "admin:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 || args[0] != "bootstrap" {
		return fmt.Errorf("usage: admin bootstrap [-email ADDRESS] [-name NAME] (TABLE_NAME and AWS credentials from the environment)")
	}
	fs := flag.NewFlagSet("bootstrap", flag.ContinueOnError)
	email := fs.String("email", users.AdminEmail, "the administrator's email address")
	name := fs.String("name", "Administrator", "the administrator's display name")
	table := fs.String("table", os.Getenv("TABLE_NAME"), "the DynamoDB table (the stack's TableName output; default $TABLE_NAME)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *table == "" {
		return fmt.Errorf("no table: set TABLE_NAME or -table (sam list stack-outputs --stack-name <stack>)")
	}
	cfg, err := app.EnvAWSConfig()
	if err != nil {
		return err
	}
	d := &deps.Deps{Store: dynamostore.New(dynamodb.NewFromConfig(cfg), *table)}
	created, token, err := users.New(d).BootstrapAs(context.Background(), *email, *name, "")
	if err != nil {
		return err
	}
	if !created {
		return fmt.Errorf("the instance has an administrator already; sign in with their token (tokens are managed at /v1/user/tokens)")
	}
	fmt.Printf("Instance administrator %s created. Their API token (shown once):\n\n%s\n", *email, token)
	return nil
}
