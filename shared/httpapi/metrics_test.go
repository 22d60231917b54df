package httpapi_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/httpapi"
)

// Each request writes one embedded-metric-format record: the _aws block
// declaring the metrics and the Family dimension, and their values.
func TestEveryRequestEmitsEmbeddedMetrics(t *testing.T) {
	var buf bytes.Buffer
	api := httpapi.New(httpapi.Config{Logger: slog.New(slog.NewJSONHandler(&bytes.Buffer{}, nil)),
		Metrics: slog.New(slog.NewJSONHandler(&buf, nil)), Family: "spaces"})
	h := api.Handler()
	for _, path := range []string{"/v1/nowhere", "/v1/elsewhere"} {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, path, nil))
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d metric records for 2 requests: %s", len(lines), buf.String())
	}
	var rec struct {
		AWS struct {
			Timestamp         int64 `json:"Timestamp"`
			CloudWatchMetrics []struct {
				Namespace  string     `json:"Namespace"`
				Dimensions [][]string `json:"Dimensions"`
				Metrics    []struct{ Name, Unit string }
			} `json:"CloudWatchMetrics"`
		} `json:"_aws"`
		Family       string   `json:"Family"`
		Latency      *float64 `json:"Latency"`
		Errors       *int     `json:"Errors"`
		ClientErrors *int     `json:"ClientErrors"`
		Throttles    *int     `json:"Throttles"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &rec); err != nil {
		t.Fatal(err)
	}
	m := rec.AWS.CloudWatchMetrics
	if rec.AWS.Timestamp == 0 || len(m) != 1 || m[0].Namespace != "Galley" || len(m[0].Dimensions) != 1 || m[0].Dimensions[0][0] != "Family" {
		t.Fatalf("_aws block: %s", lines[0])
	}
	names := map[string]string{}
	for _, x := range m[0].Metrics {
		names[x.Name] = x.Unit
	}
	if names["Latency"] != "Milliseconds" || names["Errors"] != "Count" || names["ClientErrors"] != "Count" || names["Throttles"] != "Count" {
		t.Fatalf("metrics declared: %v", names)
	}
	if rec.Family != "spaces" || rec.Latency == nil || *rec.Latency < 0 || rec.Errors == nil || *rec.Errors != 0 ||
		rec.ClientErrors == nil || *rec.ClientErrors != 1 || rec.Throttles == nil || *rec.Throttles != 0 {
		t.Fatalf("values of a 404: %s", lines[0])
	}
}

// Without a metrics logger (local mode), nothing is emitted.
func TestNoMetricsWithoutAMetricsLogger(t *testing.T) {
	var buf bytes.Buffer
	api := httpapi.New(httpapi.Config{Logger: slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelError}))})
	api.Handler().ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/v1/nowhere", nil))
	if strings.Contains(buf.String(), "_aws") {
		t.Fatalf("metrics written: %s", buf.String())
	}
}
