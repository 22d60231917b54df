// Package metrics writes CloudWatch embedded-metric-format (EMF) records:
// a JSON line that a Lambda function prints on stdout and CloudWatch Logs
// turns into metrics, with no API call and no agent. Services count the
// events an operator must see (a search index that could not be stored,
// say) through Count; the API writes its per-request metrics itself
// (package httpapi).
package metrics

import (
	"context"
	"log/slog"
	"time"
)

// Namespace is the CloudWatch namespace of Galley's metrics.
const Namespace = "Galley"

// Count writes a record counting one event of the metric name, with the
// dimensions given as name, value pairs, on l (deps.Deps.Metrics). A nil l
// writes nothing: local mode and tests have no metrics, only the log line
// that goes with each event.
func Count(l *slog.Logger, name string, dims ...string) {
	if l == nil {
		return
	}
	names := []string{}
	attrs := []slog.Attr{}
	for i := 0; i+1 < len(dims); i += 2 {
		names = append(names, dims[i])
		attrs = append(attrs, slog.String(dims[i], dims[i+1]))
	}
	attrs = append(attrs,
		slog.Any("_aws", map[string]any{
			"Timestamp": time.Now().UnixMilli(),
			"CloudWatchMetrics": []map[string]any{{
				"Namespace":  Namespace,
				"Dimensions": [][]string{names},
				"Metrics":    []map[string]string{{"Name": name, "Unit": "Count"}},
			}},
		}),
		slog.Int(name, 1))
	l.LogAttrs(context.Background(), slog.LevelInfo, "metrics", attrs...)
}
