package fetch_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/fetch"
)

func TestPublic(t *testing.T) {
	for addr, want := range map[string]bool{
		"8.8.8.8": true, "2606:4700::1111": true,
		"127.0.0.1": false, "10.1.2.3": false, "192.168.0.1": false, "172.16.0.1": false, "169.254.169.254": false,
		"100.64.0.1": false, "0.0.0.0": false, "::1": false, "fe80::1": false, "fd00::1": false, "::ffff:127.0.0.1": false,
	} {
		if got := fetch.Public(netip.MustParseAddr(addr)); got != want {
			t.Errorf("Public(%s) = %v, want %v", addr, got, want)
		}
	}
}

func TestGetRefusesPrivateAddressesUnlessAllowed(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/redirect" {
			http.Redirect(w, r, "/data", http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte(strings.Repeat("x", 100)))
	}))
	defer srv.Close()
	ctx := context.Background()
	_, _, err := fetch.New(false).Get(ctx, srv.URL+"/data", 1000, "url")
	if !apperr.Is(err, apperr.Invalid) || !strings.Contains(err.Error(), "not public") {
		t.Fatalf("loopback fetch: %v", err)
	}
	data, ct, err := fetch.New(true).Get(ctx, srv.URL+"/redirect", 1000, "url")
	if err != nil || len(data) != 100 || ct != "text/plain" {
		t.Fatalf("allowed fetch: %d bytes, %q, %v", len(data), ct, err)
	}
	if _, _, err := fetch.New(true).Get(ctx, srv.URL+"/data", 50, "url"); !apperr.Is(err, apperr.TooLarge) {
		t.Fatalf("oversized fetch: %v", err)
	}
	for _, bad := range []string{"file:///etc/passwd", "ftp://example.com/x", "not a url"} {
		if _, _, err := fetch.New(true).Get(ctx, bad, 50, "url"); !apperr.Is(err, apperr.Invalid) {
			t.Errorf("%s: %v", bad, err)
		}
	}
}
