package app

import (
	"context"
	"fmt"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"
	"github.com/galleydocs/galley/shared/awsretry"
	"github.com/galleydocs/galley/shared/blob/s3blob"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/store/dynamostore"
)

// AWSDeps assembles the dependencies on DynamoDB, S3, when queues
// connects them (a function that enqueues jobs), SQS and, when cdns
// connects it (a function that changes what published pages show) and
// CDN_DISTRIBUTION_ID names one, CloudFront.
func AWSDeps(ctx context.Context, c Config, queues Queues, cdns CDNs) (*deps.Deps, error) {
	if c.TableName == "" || c.BucketName == "" {
		return nil, fmt.Errorf("TABLE_NAME and BUCKET_NAME must be set")
	}
	awsCfg, err := EnvAWSConfig()
	if err != nil {
		return nil, err
	}
	d := deps.Deps{
		Store: dynamostore.New(dynamodb.NewFromConfig(awsCfg), c.TableName),
		Blobs: s3blob.New(s3.NewFromConfig(awsCfg), c.BucketName, ""),
	}
	// Each worker's jobs go to its queue; a function given no queue URL
	// runs the jobs it makes itself (see queueRouter).
	switch {
	case queues != nil:
		d.Queue = queueRouter(map[string]string{"QUEUE_URL": c.QueueURL, "GIT_QUEUE_URL": c.GitQueueURL,
			"WEBHOOKS_QUEUE_URL": c.WebhooksQueueURL, "INSIGHTS_QUEUE_URL": c.InsightsQueueURL}, queues(awsCfg))
	case c.QueueURL != "" || c.GitQueueURL != "" || c.WebhooksQueueURL != "" || c.InsightsQueueURL != "":
		return nil, fmt.Errorf("QUEUE_URL, GIT_QUEUE_URL, WEBHOOKS_QUEUE_URL or INSIGHTS_QUEUE_URL is set but this function links no SQS client: its main.go gives its family sqsqueue.Connect (Family.WithQueues)")
	}
	if c.CDNDistribution != "" && cdns != nil {
		d.CDN = cdns(awsCfg, c.CDNDistribution)
	}
	return NewDeps(ctx, c, d)
}

// StartLambda runs one family as a Lambda function; functions/<family>/main.go
// calls it and nothing else. Nothing is read from the network before the
// first invocation. A configuration or dependency it cannot start with is
// logged and fails the function's init (Lambda reports it).
func StartLambda(f Family) {
	ctx := context.Background()
	c, err := ConfigFromEnv()
	if err != nil {
		c.Logger().Error("start", "family", f.Name, "err", err.Error())
		panic(err)
	}
	// One embedded-metric record per request (and per event the services
	// count) on stdout, whatever the log level: CloudWatch makes the
	// family's metrics from them.
	c.Metrics = slog.New(slog.NewJSONHandler(os.Stdout, nil))
	d, err := AWSDeps(ctx, c, f.Queues, f.CDN)
	if err != nil {
		c.Logger().Error("start", "family", f.Name, "err", err.Error())
		panic(err)
	}
	h := NewAPI(c, NewRoot(d), f).Handler()
	lambda.Start(httpadapter.NewV2(h).ProxyWithContext)
}

// EnvAWSConfig is the AWS configuration of a Lambda function, read from
// the environment Lambda sets: the region (AWS_REGION) and the execution
// role's credentials (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
// AWS_SESSION_TOKEN), plus AWS_ENDPOINT_URL for tests against emulators.
// It replaces config.LoadDefaultConfig, whose chain of credential providers
// (shared files, SSO, STS web identity, IMDS) a Lambda function never uses,
// reads files at start-up and links the STS, SSO and sign-in clients into
// every binary (docs/functions.md).
//
// The administration command (functions/admin) reads the deployer's
// credentials the same way.
func EnvAWSConfig() (aws.Config, error) {
	region := os.Getenv("AWS_REGION")
	if region == "" {
		region = os.Getenv("AWS_DEFAULT_REGION")
	}
	id, key := os.Getenv("AWS_ACCESS_KEY_ID"), os.Getenv("AWS_SECRET_ACCESS_KEY")
	if region == "" || id == "" || key == "" {
		return aws.Config{}, fmt.Errorf("aws config: AWS_REGION, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set (Lambda sets them)")
	}
	cfg := aws.Config{
		Region:      region,
		Credentials: credentials.NewStaticCredentialsProvider(id, key, os.Getenv("AWS_SESSION_TOKEN")),
		// One retry policy for DynamoDB, S3 and SQS (docs/faults.md).
		Retryer: awsretry.New,
		// Each attempt waits at most awsretry.AttemptTimeout for its answer.
		HTTPClient: awsretry.HTTPClient(),
	}
	if u := os.Getenv("AWS_ENDPOINT_URL"); u != "" {
		cfg.BaseEndpoint = aws.String(u)
	}
	return cfg, nil
}
