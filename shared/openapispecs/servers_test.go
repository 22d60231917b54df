package openapispecs

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/content"
)

func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal([]byte(s), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// What the playground sends with: the servers (the operation's, the
// path's, the document's; relative ones against the source; variables),
// the security alternatives, the parameters' defaults and the body's
// sample.
func TestOperationServersAndSecurity(t *testing.T) {
	doc := decode(t, `{"openapi":"3.0.3",
	"servers":[{"url":"https://{region}.example.com/v1","description":"Production","variables":{"region":{"default":"eu","enum":["eu","us"]}}},
	  {"url":"/v2"},{"url":"ftp://files.example.com"}],
	"security":[{"bearer":[]}],
	"components":{"securitySchemes":{"bearer":{"type":"http","scheme":"Bearer"},"key":{"type":"apiKey","in":"header","name":"X-Key"},
	  "cookie":{"type":"apiKey","in":"cookie","name":"sid"}}},
	"paths":{
	  "/pets":{"get":{"parameters":[{"name":"limit","in":"query","schema":{"type":"integer","default":20}}]},
	    "post":{"security":[{"key":[],"cookie":[]},{}, {"unknown":[]}],"requestBody":{"content":{"application/json":{"schema":{"type":"object","properties":{"name":{"type":"string","example":"Rex"}}}}}}}},
	  "/local":{"servers":[{"url":"http://localhost:8080/"}],"get":{"security":[]}}
	}}`)
	get := operationOf(doc, "https://specs.example.org/api/openapi.json", "GET", "/pets")
	wantServers := []content.OperationServer{
		{URL: "https://{region}.example.com/v1", Description: "Production", Variables: []content.ServerVariable{{Name: "region", Default: "eu", Enum: []string{"eu", "us"}}}},
		{URL: "https://specs.example.org/v2"},
	}
	if !reflect.DeepEqual(get.Servers, wantServers) {
		t.Errorf("servers %+v\nwant %+v", get.Servers, wantServers)
	}
	if want := [][]content.SecurityScheme{{{Name: "bearer", Type: "http", Scheme: "bearer"}}}; !reflect.DeepEqual(get.Security, want) {
		t.Errorf("document's security %+v", get.Security)
	}
	if get.Parameters[0].Default != "20" {
		t.Errorf("default %q", get.Parameters[0].Default)
	}

	post := operationOf(doc, "", "POST", "/pets")
	if len(post.Servers) != 1 || post.Servers[0].URL != "https://{region}.example.com/v1" {
		t.Errorf("a text's relative server is left out: %+v", post.Servers)
	}
	want := [][]content.SecurityScheme{{{Name: "cookie", Type: "apiKey", In: "cookie", Param: "sid"}, {Name: "key", Type: "apiKey", In: "header", Param: "X-Key"}}, {}}
	if !reflect.DeepEqual(post.Security, want) {
		t.Errorf("operation's security %+v\nwant %+v", post.Security, want)
	}
	if post.RequestBody.Sample != "{\n  \"name\": \"Rex\"\n}" {
		t.Errorf("sample %q", post.RequestBody.Sample)
	}

	local := operationOf(doc, "", "GET", "/local")
	if len(local.Servers) != 1 || local.Servers[0].URL != "http://localhost:8080/" || local.Security != nil {
		t.Errorf("the path's server, no security: %+v %+v", local.Servers, local.Security)
	}
}

// Swagger 2.0: schemes, host and basePath; basic read as http basic.
func TestSwagger2ServersAndSecurity(t *testing.T) {
	doc := decode(t, `{"swagger":"2.0","host":"api.example.com","basePath":"/v1","schemes":["https","http"],
	"securityDefinitions":{"basicAuth":{"type":"basic"}},"security":[{"basicAuth":[]}],
	"paths":{"/x":{"get":{}}}}`)
	od := operationOf(doc, "", "GET", "/x")
	if len(od.Servers) != 2 || od.Servers[0].URL != "https://api.example.com/v1" || od.Servers[1].URL != "http://api.example.com/v1" {
		t.Errorf("servers %+v", od.Servers)
	}
	if len(od.Security) != 1 || od.Security[0][0] != (content.SecurityScheme{Name: "basicAuth", Type: "http", Scheme: "basic"}) {
		t.Errorf("security %+v", od.Security)
	}
	// A scheme that is a variable (GitHub Enterprise's).
	v3 := decode(t, `{"openapi":"3.0.3","servers":[{"url":"{protocol}://{hostname}/api/v3","variables":{"hostname":{"default":"HOSTNAME"},"protocol":{"default":"http"}}}],"paths":{"/x":{"get":{}}}}`)
	if od := operationOf(v3, "", "GET", "/x"); len(od.Servers) != 1 || od.Servers[0].URL != "{protocol}://{hostname}/api/v3" || len(od.Servers[0].Variables) != 2 {
		t.Errorf("a variable scheme: %+v", od.Servers)
	}
	// No host: the source's.
	delete(doc, "host")
	if od := operationOf(doc, "http://docs.example.net/swagger.json", "GET", "/x"); len(od.Servers) != 2 || od.Servers[0].URL != "https://docs.example.net/v1" {
		t.Errorf("servers without a host %+v", od.Servers)
	}
	if od := operationOf(doc, "", "GET", "/x"); len(od.Servers) != 0 {
		t.Errorf("no host, no source: %+v", od.Servers)
	}
}

// An OpenAPI 3 document without servers is served at "/" of its source;
// a body example longer than MaxSampleBytes gives no sample (cut, it
// would not be a body).
func TestDefaultServerAndLongSample(t *testing.T) {
	long := strings.Repeat("x", MaxSampleBytes)
	doc := decode(t, `{"openapi":"3.1.0","paths":{"/x":{"put":{"requestBody":{"content":{"application/json":{"example":{"a":"`+long+`"}}}}}}}}`)
	od := operationOf(doc, "https://example.com/specs/api.yaml", "PUT", "/x")
	if len(od.Servers) != 1 || od.Servers[0].URL != "https://example.com/" {
		t.Errorf("servers %+v", od.Servers)
	}
	if od.RequestBody.Sample != "" || !strings.HasSuffix(od.RequestBody.Example, "…") {
		t.Errorf("sample of %d bytes, example %.40q", len(od.RequestBody.Sample), od.RequestBody.Example)
	}
}
