package httpapi

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/galleydocs/galley/shared/metrics"
)

// MetricsNamespace is the CloudWatch namespace of the API's metrics.
const MetricsNamespace = metrics.Namespace

// emitMetrics writes one record in CloudWatch's embedded metric format
// (EMF) for a request: CloudWatch Logs turns the JSON line a Lambda
// function prints into metrics, with no API call and no agent. Each
// request counts in its family's dimension: Latency (milliseconds), Errors
// (5xx answers), ClientErrors (4xx) and Throttles (429 answers).
func (a *API) emitMetrics(start time.Time, status int) {
	now := time.Now()
	flag := func(b bool) int {
		if b {
			return 1
		}
		return 0
	}
	metric := func(name, unit string) map[string]string { return map[string]string{"Name": name, "Unit": unit} }
	a.cfg.Metrics.LogAttrs(context.Background(), slog.LevelInfo, "metrics",
		slog.Any("_aws", map[string]any{
			"Timestamp": now.UnixMilli(),
			"CloudWatchMetrics": []map[string]any{{
				"Namespace":  MetricsNamespace,
				"Dimensions": [][]string{{"Family"}},
				"Metrics": []map[string]string{metric("Latency", "Milliseconds"), metric("Errors", "Count"),
					metric("ClientErrors", "Count"), metric("Throttles", "Count")},
			}},
		}),
		slog.String("Family", a.cfg.Family),
		slog.Float64("Latency", float64(now.Sub(start).Microseconds())/1000),
		slog.Int("Errors", flag(status >= 500)),
		slog.Int("ClientErrors", flag(status >= 400 && status < 500)),
		slog.Int("Throttles", flag(status == http.StatusTooManyRequests)),
	)
}
