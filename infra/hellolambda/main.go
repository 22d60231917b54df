// Command hellolambda is the baseline of the functions' start-up benchmark
// (infra: BenchmarkFunctionInit, BenchmarkFunctionBinaries): the smallest
// aws-lambda-go function, built the way every Galley function is built.
package main

import (
	"context"
	"encoding/json"

	"github.com/aws/aws-lambda-go/lambda"
)

func main() {
	lambda.Start(func(context.Context, json.RawMessage) (string, error) { return "hello", nil })
}
