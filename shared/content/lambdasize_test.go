package content_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/aws/aws-lambda-go/events"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"github.com/galleydocs/galley/shared/testenv/lambdarun"
)

// The page tree of a large space leaves the content function as a Lambda
// response under Lambda's 6 MB (lambdarun.ResponseMax) when the client accepts gzip (every HTTP
// client library does), through the adapter the functions use; the same
// answer as identity JSON would not fit (20,000 pages: about 12 MB).
func TestLargePageTreeFitsALambdaResponseGzipped(t *testing.T) {
	bs := seedBigSpace(t, 20000)
	proxy := httpadapter.NewV2(bs.api.API.Handler())
	invoke := func(accept string) ([]byte, events.APIGatewayV2HTTPResponse) {
		headers := map[string]string{"authorization": "Bearer " + bs.api.Tokens["admin"]}
		if accept != "" {
			headers["accept-encoding"] = accept
		}
		ev := events.APIGatewayV2HTTPRequest{Version: "2.0", RouteKey: "$default", RawPath: "/v1/spaces/" + bs.space + "/content/pages",
			Headers: headers, RequestContext: events.APIGatewayV2HTTPRequestContext{
				HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: http.MethodGet, Path: "/v1/spaces/" + bs.space + "/content/pages", SourceIP: "192.0.2.1"}}}
		res, err := proxy.ProxyWithContext(context.Background(), ev)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := json.Marshal(res) // what Lambda returns to API Gateway
		if err != nil {
			t.Fatal(err)
		}
		return raw, res
	}
	plainRaw, plain := invoke("")
	if plain.StatusCode != 200 || len(plainRaw) <= lambdarun.ResponseMax {
		t.Fatalf("identity: %d, %d bytes: the space is too small to show the limit", plain.StatusCode, len(plainRaw))
	}
	raw, res := invoke("gzip, deflate, br")
	if res.StatusCode != 200 || res.Headers["Content-Encoding"] != "gzip" || !res.IsBase64Encoded {
		t.Fatalf("gzip: %d %v base64 %v", res.StatusCode, res.Headers, res.IsBase64Encoded)
	}
	if len(raw) > lambdarun.ResponseMax {
		t.Fatalf("the gzipped page tree is a %d-byte Lambda response, over %d", len(raw), lambdarun.ResponseMax)
	}
	z, err := base64.StdEncoding.DecodeString(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(body, []byte(plain.Body)) {
		t.Fatalf("the gzipped answer is not the identity one (%v)", err)
	}
	t.Logf("page tree of 20,000 pages: %d bytes of JSON, a %d-byte Lambda response identity, %d gzipped", len(plain.Body), len(plainRaw), len(raw))
}
