// Package fetch is the guarded fetcher: how the server reads a URL a caller
// gave it (files of a batch, and later imports). Only http and https; by
// default only public addresses, checked on every connection the client
// makes (redirects included), so that a caller cannot make the server reach
// its loopback, its private network or a cloud metadata endpoint; bounded in
// time, redirects and size.
package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"syscall"
	"time"

	"github.com/galleydocs/galley/shared/apperr"
)

// Timeout bounds one fetch, redirects included.
const Timeout = 15 * time.Second

// MaxRedirects bounds the redirects followed.
const MaxRedirects = 5

// Client fetches URLs for the server.
type Client struct {
	http *http.Client
}

// New returns a client; allowPrivate lets it reach loopback and private
// addresses (FETCH_ALLOW_PRIVATE, for local testing only).
func New(allowPrivate bool) *Client {
	dialer := &net.Dialer{Timeout: 5 * time.Second, Control: func(network, address string, _ syscall.RawConn) error {
		if allowPrivate {
			return nil
		}
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("fetch: bad address %q", address)
		}
		if !Public(ap.Addr()) {
			return errRefused
		}
		return nil
	}}
	tr := &http.Transport{DialContext: dialer.DialContext, Proxy: nil, TLSHandshakeTimeout: 5 * time.Second,
		ResponseHeaderTimeout: 10 * time.Second, MaxIdleConns: 4}
	return &Client{http: &http.Client{Transport: tr, Timeout: Timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= MaxRedirects {
				return fmt.Errorf("more than %d redirects", MaxRedirects)
			}
			if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
				return fmt.Errorf("redirect to a %s URL", req.URL.Scheme)
			}
			return nil
		}}}
}

var errRefused = errors.New("address not allowed")

// Public reports whether an address is on the public internet: not
// loopback, private, link-local, shared (CGNAT), multicast or unspecified.
func Public(a netip.Addr) bool {
	a = a.Unmap()
	if a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() {
		return false
	}
	if a.Is4() && netip.MustParsePrefix("100.64.0.0/10").Contains(a) {
		return false
	}
	if a.Is4() && a.As4()[0] == 0 {
		return false
	}
	return true
}

// Get reads a URL's body, at most limit bytes. Errors are Invalid (naming
// field) for a URL the server will not or cannot read, TooLarge past limit.
func (c *Client) Get(ctx context.Context, rawURL string, limit int64, field string) ([]byte, string, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, "", apperr.Field(field, "only http and https URLs can be fetched")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, "", apperr.Field(field, "invalid URL")
	}
	req.Header.Set("User-Agent", "Galley (+fetch)")
	res, err := c.http.Do(req)
	if err != nil {
		if errors.Is(err, errRefused) {
			return nil, "", apperr.Field(field, "the URL's address is not public")
		}
		return nil, "", apperr.Field(field, "could not fetch the URL")
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, "", apperr.Field(field, "fetching the URL answered %d", res.StatusCode)
	}
	data, err := io.ReadAll(io.LimitReader(res.Body, limit+1))
	if err != nil {
		return nil, "", apperr.Field(field, "could not read the URL")
	}
	if int64(len(data)) > limit {
		return nil, "", apperr.New(apperr.TooLarge, "%s: more than %d bytes", field, limit)
	}
	return data, res.Header.Get("Content-Type"), nil
}
