package logging

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"
)

func TestRecordsWrittenWithARequestContextCarryItsID(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(Handler(slog.NewJSONHandler(&buf, nil))).With("svc", "x")
	ctx := WithRequestID(context.Background(), "r-1")
	log.InfoContext(ctx, "with")
	log.Info("without")
	lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
	if len(lines) != 2 {
		t.Fatalf("%d lines: %s", len(lines), buf.String())
	}
	var with, without map[string]any
	_ = json.Unmarshal(lines[0], &with)
	_ = json.Unmarshal(lines[1], &without)
	if with["request_id"] != "r-1" || with["svc"] != "x" {
		t.Errorf("record with the context: %v", with)
	}
	if _, ok := without["request_id"]; ok {
		t.Errorf("record without the context has a request id: %v", without)
	}
}
