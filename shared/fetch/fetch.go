// Package fetch is the guarded fetcher: how the server reads a URL a caller
// gave it (files of a batch, content imports, OpenAPI documents, Git
// repositories over smart HTTP). Only http and https; by default only public
// addresses, checked on every connection the client makes (redirects
// included) against the address actually dialled, so that a caller cannot
// make the server reach its loopback, its private network or a cloud
// metadata endpoint, not even through a name that resolves there or starts
// resolving there later (DNS rebinding); bounded in time, redirects and
// size.
//
// Credentials embedded in a URL (https://user:token@host/...) are sent as
// basic authentication and never appear in errors: Redact removes them from
// any URL that is logged, stored or answered.
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
	return NewWithTimeout(allowPrivate, Timeout)
}

// NewWithTimeout returns a client whose fetches (and each request of the
// HTTP client it lends, see HTTP) take at most timeout.
func NewWithTimeout(allowPrivate bool, timeout time.Duration) *Client {
	allow := func(ap netip.AddrPort) bool { return Public(ap.Addr()) }
	if allowPrivate {
		allow = func(netip.AddrPort) bool { return true }
	}
	return NewWithPolicy(allow, timeout)
}

// NewWithPolicy returns a client that connects only to the addresses allow
// accepts (New's policy is Public; tests narrow it to exercise redirects).
func NewWithPolicy(allow func(netip.AddrPort) bool, timeout time.Duration) *Client {
	dialer := &net.Dialer{Timeout: 5 * time.Second, Control: func(network, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("fetch: bad address %q", address)
		}
		if !allow(ap) {
			return errRefused
		}
		return nil
	}}
	tr := &http.Transport{DialContext: dialer.DialContext, Proxy: nil, TLSHandshakeTimeout: 5 * time.Second,
		ResponseHeaderTimeout: 10 * time.Second, MaxIdleConns: 4}
	return &Client{http: &http.Client{Transport: tr, Timeout: timeout,
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

// HTTP returns the guarded HTTP client itself, for protocols spoken over
// HTTP by a library (Git's smart HTTP): the same address checks on every
// connection, the same redirect rules and time bound.
func (c *Client) HTTP() *http.Client { return c.http }

var errRefused = errors.New("address not allowed")

// Refused reports whether err (from the client, or from a library using
// HTTP) is the refusal of a non-public address.
func Refused(err error) bool { return errors.Is(err, errRefused) }

var (
	sharedSpace = netip.MustParsePrefix("100.64.0.0/10")  // carrier-grade NAT
	benchmark   = netip.MustParsePrefix("198.18.0.0/15")  // network benchmarks
	reserved    = netip.MustParsePrefix("240.0.0.0/4")    // reserved, and broadcast
	nat64       = netip.MustParsePrefix("64:ff9b::/96")   // IPv4 embedded in the last 32 bits
	nat64Local  = netip.MustParsePrefix("64:ff9b:1::/48") // local-use NAT64
	sixToFour   = netip.MustParsePrefix("2002::/16")      // IPv4 embedded in bits 16..48
	documentV6  = netip.MustParsePrefix("2001:db8::/32")  // documentation
	discardV6   = netip.MustParsePrefix("100::/64")       // discard-only
	teredo      = netip.MustParsePrefix("2001::/32")      // tunnels to arbitrary IPv4 hosts
	siteLocalV6 = netip.MustParsePrefix("fec0::/10")      // deprecated site-local
	thisNetwork = netip.MustParsePrefix("0.0.0.0/8")      // "this" network
	ietfV4      = netip.MustParsePrefix("192.0.0.0/24")   // IETF protocol assignments
	testNets    = []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24"), netip.MustParsePrefix("198.51.100.0/24"), netip.MustParsePrefix("203.0.113.0/24")}
)

// Public reports whether an address is on the public internet: not
// loopback, private, unique-local, link-local (169.254.169.254, the cloud
// metadata address, among them), shared (CGNAT), reserved, multicast or
// unspecified; IPv4-mapped, NAT64 and 6to4 addresses are judged by the IPv4
// address they carry.
func Public(a netip.Addr) bool {
	a = a.Unmap()
	if a.Is6() {
		b := a.As16()
		switch {
		case nat64.Contains(a):
			return Public(netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}))
		case sixToFour.Contains(a):
			return Public(netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}))
		case nat64Local.Contains(a), documentV6.Contains(a), discardV6.Contains(a), teredo.Contains(a), siteLocalV6.Contains(a):
			return false
		}
	}
	if a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() {
		return false
	}
	if a.Is4() {
		for _, p := range append([]netip.Prefix{sharedSpace, benchmark, reserved, thisNetwork, ietfV4}, testNets...) {
			if p.Contains(a) {
				return false
			}
		}
	}
	return true
}

// Error codes of a failed fetch.
const (
	CodeInvalid  = "invalid"   // not an http or https URL
	CodeRefused  = "refused"   // the address is not public
	CodeTimeout  = "timeout"   // no complete answer in time
	CodeStatus   = "status"    // the server answered other than 200
	CodeTooLarge = "too_large" // the body is larger than the limit
	CodeNetwork  = "network"   // anything else: DNS, connection, TLS, redirects
)

// Error is a failed fetch. Its message never holds the URL's credentials.
type Error struct {
	Code string
	// Status is the HTTP status when Code is CodeStatus.
	Status int
	msg    string
}

func (e *Error) Error() string { return e.msg }

func fail(code, format string, args ...any) *Error {
	return &Error{Code: code, msg: fmt.Sprintf(format, args...)}
}

// Response is a fetched body.
type Response struct {
	Body        []byte
	ContentType string
	// URL is where the body came from after redirects, without credentials.
	URL string
}

// Fetch reads a URL's body, at most limit bytes. Failures are *Error.
func (c *Client) Fetch(ctx context.Context, rawURL string, limit int64) (Response, error) {
	return c.fetch(ctx, rawURL, limit, false)
}

// FetchPrefix reads the first limit bytes of a URL's body at most: a
// longer body is cut there, not refused (what is wanted is at its start,
// as a page's head is). Failures are *Error.
func (c *Client) FetchPrefix(ctx context.Context, rawURL string, limit int64) (Response, error) {
	return c.fetch(ctx, rawURL, limit, true)
}

func (c *Client) fetch(ctx context.Context, rawURL string, limit int64, cut bool) (Response, error) {
	res, err := c.open(ctx, rawURL)
	if err != nil {
		return Response{}, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, limit+1))
	if err != nil {
		return Response{}, classify(err, "could not read the URL")
	}
	if int64(len(data)) > limit {
		if !cut {
			return Response{}, fail(CodeTooLarge, "more than %d bytes", limit)
		}
		data = data[:limit]
	}
	return Response{Body: data, ContentType: res.Header.Get("Content-Type"), URL: Redact(res.Request.URL.String())}, nil
}

// FetchTo copies a URL's body to w, at most limit bytes, without holding
// it in memory; it returns how many bytes it copied. Failures are *Error
// (but those of w); past limit, what was copied is more than limit.
func (c *Client) FetchTo(ctx context.Context, rawURL string, limit int64, w io.Writer) (int64, error) {
	res, err := c.open(ctx, rawURL)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	n, err := io.Copy(w, &readErr{io.LimitReader(res.Body, limit+1)})
	var re readError
	if errors.As(err, &re) {
		return n, classify(re.err, "could not read the URL")
	}
	if err != nil {
		return n, err
	}
	if n > limit {
		return n, fail(CodeTooLarge, "more than %d bytes", limit)
	}
	return n, nil
}

// readErr marks the errors of reading a body, told from those of writing
// it.
type readErr struct{ r io.Reader }

type readError struct{ err error }

func (e readError) Error() string { return e.err.Error() }

func (r *readErr) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && err != io.EOF {
		err = readError{err}
	}
	return n, err
}

// open sends a GET for a URL and answers its 200 response.
func (c *Client) open(ctx context.Context, rawURL string) (*http.Response, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fail(CodeInvalid, "only http and https URLs can be fetched")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fail(CodeInvalid, "invalid URL")
	}
	req.Header.Set("User-Agent", "Galley (+fetch)")
	res, err := c.http.Do(req)
	if err != nil {
		return nil, classify(err, "could not fetch the URL")
	}
	if res.StatusCode != http.StatusOK {
		res.Body.Close()
		e := fail(CodeStatus, "fetching the URL answered %d", res.StatusCode)
		e.Status = res.StatusCode
		return nil, e
	}
	return res, nil
}

// classify turns a transport error into an *Error without its text (which
// may name the URL).
func classify(err error, msg string) *Error {
	var ne net.Error
	switch {
	case errors.Is(err, errRefused):
		return fail(CodeRefused, "the URL's address is not public")
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return fail(CodeTimeout, "the URL did not answer in time")
	}
	return fail(CodeNetwork, "%s", msg)
}

// Get reads a URL's body, at most limit bytes. Errors are Invalid (naming
// field) for a URL the server will not or cannot read, TooLarge past limit.
func (c *Client) Get(ctx context.Context, rawURL string, limit int64, field string) ([]byte, string, error) {
	res, err := c.Fetch(ctx, rawURL, limit)
	var fe *Error
	if errors.As(err, &fe) {
		if fe.Code == CodeTooLarge {
			return nil, "", apperr.New(apperr.TooLarge, "%s: more than %d bytes", field, limit)
		}
		return nil, "", apperr.Field(field, "%s", fe.msg)
	}
	if err != nil {
		return nil, "", err
	}
	return res.Body, res.ContentType, nil
}

// Redact returns a URL without the credentials it may embed (user and
// password), for logs, records and answers. A string that does not parse
// as a URL is replaced entirely when it might hold credentials.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "<unparsable URL>"
	}
	u.User = nil
	return u.String()
}

// Credentials splits a URL into the URL without credentials and the user
// name and password it embeds (both "" when none).
func Credentials(raw string) (clean, user, password string, err error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", "", "", fail(CodeInvalid, "invalid URL")
	}
	if u.User != nil {
		user = u.User.Username()
		password, _ = u.User.Password()
	}
	u.User = nil
	return u.String(), user, password, nil
}
