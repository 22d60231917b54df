package fetch_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/galleydocs/galley/shared/fetch"
)

// target is a loopback server standing for an internal service: a fetch
// that reaches it is a server-side request forgery.
type target struct {
	*httptest.Server
	hits atomic.Int32
	port string
}

func newTarget(t *testing.T) *target {
	tg := &target{}
	tg.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tg.hits.Add(1)
		w.Write([]byte("internal secret"))
	}))
	t.Cleanup(tg.Close)
	_, tg.port, _ = net.SplitHostPort(tg.Listener.Addr().String())
	return tg
}

// Every hostile URL fails without reaching the internal server, whatever
// form its address takes.
func TestHostileURLsAreRefused(t *testing.T) {
	tg := newTarget(t)
	p := tg.port
	cases := []struct {
		name string
		url  string
		// refused: the error must be the address refusal (other forms may
		// fail earlier, at resolution, which is as good).
		refused bool
	}{
		{"LoopbackIPv4", "http://127.0.0.1:" + p + "/", true},
		{"LoopbackOtherIPv4", "http://127.1.2.3:" + p + "/", true},
		{"LoopbackIPv6", "http://[::1]:" + p + "/", true},
		{"IPv4MappedLoopback", "http://[::ffff:127.0.0.1]:" + p + "/", true},
		{"IPv4MappedHex", "http://[::ffff:7f00:1]:" + p + "/", true},
		{"MetadataAddress", "http://169.254.169.254/latest/meta-data/iam/security-credentials/", true},
		{"MetadataIPv4Mapped", "http://[::ffff:169.254.169.254]/latest/meta-data/", true},
		{"PrivateTen", "http://10.0.0.1:" + p + "/", true},
		{"PrivateOneNineTwo", "http://192.168.1.1:" + p + "/", true},
		{"UniqueLocalIPv6", "http://[fd00::1]:" + p + "/", true},
		{"LinkLocalIPv6", "http://[fe80::1]:" + p + "/", true},
		{"NAT64OfLoopback", "http://[64:ff9b::7f00:1]:" + p + "/", true},
		{"SixToFourOfPrivate", "http://[2002:a00:1::]:" + p + "/", true},
		{"Unspecified", "http://0.0.0.0:" + p + "/", true},
		{"HostnameResolvingToLoopback", "http://localhost:" + p + "/", true},
		{"DecimalLoopback", "http://2130706433:" + p + "/", false},
		{"HexLoopback", "http://0x7f000001:" + p + "/", false},
		{"OctalLoopback", "http://0177.0.0.1:" + p + "/", false},
		{"ShortLoopback", "http://127.1:" + p + "/", false},
		{"FileScheme", "file:///etc/passwd", false},
		{"GopherScheme", "gopher://127.0.0.1:" + p + "/", false},
	}
	c := fetch.NewWithTimeout(false, 5*time.Second)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := tg.hits.Load()
			_, err := c.Fetch(context.Background(), tc.url, 1000)
			var fe *fetch.Error
			if !errors.As(err, &fe) {
				t.Fatalf("fetch %s: %v, want a refusal", tc.url, err)
			}
			if tc.refused && fe.Code != fetch.CodeRefused {
				t.Errorf("code %s (%v), want %s", fe.Code, fe, fetch.CodeRefused)
			}
			if tg.hits.Load() != before {
				t.Errorf("the internal server was reached")
			}
		})
	}
}

// Redirects are checked again on every hop: a server the policy allows
// cannot bounce the fetch to one it does not.
func TestRedirectsToPrivateAddressesAreRefused(t *testing.T) {
	internal := newTarget(t)
	var redirectTo string
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		case "/ok":
			w.Write([]byte("public"))
		default:
			http.Redirect(w, r, redirectTo, http.StatusFound)
		}
	}))
	defer front.Close()
	frontAddr := netip.MustParseAddrPort(front.Listener.Addr().String())
	// The front server stands for a public host: only it may be dialled.
	c := fetch.NewWithPolicy(func(ap netip.AddrPort) bool { return ap == frontAddr }, 5*time.Second)
	ctx := context.Background()
	if res, err := c.Fetch(ctx, front.URL+"/ok", 100); err != nil || string(res.Body) != "public" {
		t.Fatalf("allowed fetch: %q, %v", res.Body, err)
	}
	for name, to := range map[string]string{
		"ToLoopback":     internal.URL + "/",
		"ToLocalhost":    "http://localhost:" + internal.port + "/",
		"ToMetadata":     "http://169.254.169.254/latest/meta-data/",
		"ToMappedIPv6":   "http://[::ffff:127.0.0.1]:" + internal.port + "/",
		"ToFileScheme":   "file:///etc/passwd",
		"ToDecimalIPv4":  "http://2130706433:" + internal.port + "/",
		"ToPrivateRange": "http://10.1.2.3/",
	} {
		t.Run(name, func(t *testing.T) {
			redirectTo = to
			before := internal.hits.Load()
			_, err := c.Fetch(ctx, front.URL+"/go", 100)
			if err == nil {
				t.Fatal("the redirect was followed")
			}
			if internal.hits.Load() != before {
				t.Error("the internal server was reached")
			}
		})
	}
	t.Run("TooManyRedirects", func(t *testing.T) {
		_, err := c.Fetch(ctx, front.URL+"/loop", 100)
		var fe *fetch.Error
		if !errors.As(err, &fe) || fe.Code != fetch.CodeNetwork {
			t.Fatalf("redirect loop: %v", err)
		}
	})
}

// Credentials in a URL are sent as basic authentication and never appear
// in errors or in the URL reported back.
func TestCredentialsAreUsedAndNeverReported(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, pass, ok := r.BasicAuth()
		if !ok || user != "bot" || pass != "s3cr3t-token" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Write([]byte("ok"))
	}))
	defer srv.Close()
	c := fetch.New(true)
	withCreds := strings.Replace(srv.URL, "http://", "http://bot:s3cr3t-token@", 1)
	res, err := c.Fetch(context.Background(), withCreds+"/x", 100)
	if err != nil || string(res.Body) != "ok" {
		t.Fatalf("fetch with credentials: %q, %v", res.Body, err)
	}
	if strings.Contains(res.URL, "s3cr3t") || strings.Contains(res.URL, "bot@") {
		t.Errorf("reported URL %q holds the credentials", res.URL)
	}
	wrong := strings.Replace(srv.URL, "http://", "http://bot:s3cr3t-wrong@", 1)
	_, err = c.Fetch(context.Background(), wrong+"/x", 100)
	if err == nil || strings.Contains(err.Error(), "s3cr3t") {
		t.Errorf("error %v: want a failure without the credentials", err)
	}
	_, err = fetch.New(false).Fetch(context.Background(), withCreds+"/x", 100)
	if err == nil || strings.Contains(err.Error(), "s3cr3t") {
		t.Errorf("refusal %v: want one without the credentials", err)
	}
	if got := fetch.Redact("https://bot:s3cr3t-token@example.com/r.git?x=1"); got != "https://example.com/r.git?x=1" {
		t.Errorf("Redact = %q", got)
	}
}

// A server that does not answer in time ends with the timeout code.
func TestSlowServerTimesOut(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	_, err := fetch.NewWithTimeout(true, 200*time.Millisecond).Fetch(context.Background(), srv.URL, 100)
	var fe *fetch.Error
	if !errors.As(err, &fe) || fe.Code != fetch.CodeTimeout {
		t.Fatalf("slow server: %v, want %s", err, fetch.CodeTimeout)
	}
}
