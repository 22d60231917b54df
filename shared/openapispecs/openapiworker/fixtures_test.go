package openapiworker_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/galleydocs/galley/shared/openapispecs/openapiworker"
)

func TestScratchProblems(t *testing.T) {
	docs := map[string]string{
		"undeclared": `{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{"/pets/{id}":{"get":{"responses":{"200":{"description":"ok"}}}}}}`,
		"recursive": `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{"/t":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Tree"}}}}}}}},
		"components":{"schemas":{"Tree":{"$id":"tree","$recursiveAnchor":true,"type":"object","properties":{"children":{"type":"array","items":{"$recursiveRef":"#"}}}}}}}`,
		"null":      `{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{"/t":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"anyOf":[{"type":"string"},{"type":"null"}]}}}}}}}}}`,
		"lookahead": `{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{"/t":{"get":{"parameters":[{"name":"q","in":"query","schema":{"type":"string","pattern":"^(?!-)[a-z-]+$"}}],"responses":{"200":{"description":"ok"}}}}}}`,
		"noversion": "openapi: 3.0.3\ninfo: {title: x}\npaths:\n  /t:\n    get:\n      responses:\n        200: {description: ok}\n",
		"html":      "<!DOCTYPE html><html><body>Not found</body></html>",
		"bytes":     "\x00\x01\xff\xfe garbage \x9c",
	}
	for name, d := range docs {
		p, err := openapiworker.Parse(context.Background(), []byte(d))
		t.Logf("%s: err=%v ops=%v warnings=%d %q", name, err, p.Operations, p.WarningCount, p.Warnings)
	}
	_ = os.ReadFile
	_ = filepath.Join
}
