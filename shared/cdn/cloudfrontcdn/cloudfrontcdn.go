// Package cloudfrontcdn is the CDN port (package cdn) on Amazon
// CloudFront: one CreateInvalidation per change.
package cloudfrontcdn

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront/types"

	"github.com/galleydocs/galley/shared/cdn"
)

// Connect returns the CDN of a distribution over AWS configuration: what
// a Lambda function's main.go gives its family (app.Family.WithCDN), so
// that only the functions that invalidate link the CloudFront client.
// (Returning New's *CDN as a cdn.CDN proves it implements the port.)
func Connect(cfg aws.Config, distribution string) cdn.CDN {
	return New(cloudfront.NewFromConfig(cfg), distribution)
}

// New returns the CDN of the distribution whose id is distribution,
// through client. It does no I/O.
func New(client *cloudfront.Client, distribution string) *CDN {
	return &CDN{client: client, distribution: distribution}
}

// CDN invalidates paths of one CloudFront distribution.
type CDN struct {
	client       *cloudfront.Client
	distribution string
}

// Invalidate creates one invalidation of paths with ref as its caller
// reference. CloudFront answers a second call with the same reference and
// paths with the first invalidation (nothing new is invalidated), and
// refuses the same reference with other paths.
func (c *CDN) Invalidate(ctx context.Context, ref string, paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	paths = cdn.Paths(paths)
	_, err := c.client.CreateInvalidation(ctx, &cloudfront.CreateInvalidationInput{
		DistributionId: aws.String(c.distribution),
		InvalidationBatch: &types.InvalidationBatch{
			CallerReference: aws.String(ref),
			Paths:           &types.Paths{Quantity: aws.Int32(int32(len(paths))), Items: paths},
		},
	})
	if err != nil {
		return fmt.Errorf("cloudfront: invalidate %d paths (%s): %w", len(paths), ref, err)
	}
	return nil
}
