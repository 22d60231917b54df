package app

import (
	"context"
	"fmt"

	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"
	"github.com/galleydocs/galley/shared/blob/s3blob"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/queue/sqsqueue"
	"github.com/galleydocs/galley/shared/store/dynamostore"
)

// AWSDeps assembles the dependencies on DynamoDB, S3 and SQS.
func AWSDeps(ctx context.Context, c Config) (*deps.Deps, error) {
	if c.TableName == "" || c.BucketName == "" {
		return nil, fmt.Errorf("TABLE_NAME and BUCKET_NAME must be set")
	}
	awsCfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return nil, fmt.Errorf("aws config: %w", err)
	}
	d := deps.Deps{
		Store: dynamostore.New(dynamodb.NewFromConfig(awsCfg), c.TableName),
		Blobs: s3blob.New(s3.NewFromConfig(awsCfg), c.BucketName, ""),
	}
	// Each worker's jobs go to its queue; a function given no queue URL
	// runs the jobs it makes itself (see queueRouter).
	sqsClient := sqs.NewFromConfig(awsCfg)
	d.Queue = queueRouter(map[string]string{"QUEUE_URL": c.QueueURL, "GIT_QUEUE_URL": c.GitQueueURL},
		func(url string) queue.Queue { return sqsqueue.New(sqsClient, url) })
	return NewDeps(ctx, c, d)
}

// StartLambda runs one family as a Lambda function; functions/<family>/main.go
// calls it and nothing else.
func StartLambda(family string) {
	ctx := context.Background()
	c := ConfigFromEnv()
	f, err := FamilyByName(family)
	if err != nil {
		panic(err)
	}
	d, err := AWSDeps(ctx, c)
	if err != nil {
		c.Logger().Error("start", "family", family, "err", err.Error())
		panic(err)
	}
	h := NewAPI(c, d, f).Handler()
	lambda.Start(httpadapter.NewV2(h).ProxyWithContext)
}
