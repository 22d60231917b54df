// Package events holds sample API Gateway HTTP API (payload format 2.0)
// events, at least one per Lambda function, named <family>-<operation>.json.
// events_test.go replays each through its family's handler as
// app.StartLambda builds it, on a temporary local store, so the samples stay
// true. They also serve `sam local invoke <Function> -e events/<file>`.
package events
