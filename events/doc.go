// Package events holds sample API Gateway HTTP API (payload format 2.0)
// events, at least one per Lambda function, named <family>-<operation>.json.
// events_test.go replays each through its family's handler as
// app.StartLambda builds it, on a temporary local store, so the samples stay
// true; infra/process_test.go replays each through its function's binary
// and compares the answers. A sample that needs data names its seed in
// Seeds (seed.go): both tests run it first, and replace the placeholder
// ids the sample holds by the seeded ones (reader-read-published-page.json:
// a published public site, its page answered 200 with its HTML). They
// also serve `sam local invoke <Function> -e events/<file>` (a seeded
// sample then needs its data and ids).
package events
