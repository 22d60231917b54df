package httpapi

import (
	"compress/gzip"
	"mime"
	"net/http"
	"strconv"
	"strings"
)

// Compression of text answers (docs/http.md, "Compression").
//
// In AWS an answer leaves the function as the Lambda response, which holds
// at most 6 MB (its body base64-encoded when binary): the page tree of a
// space of 10,000 pages is about 6 MB of JSON, of 50,000 pages 29 MB, a
// large site's sitemap.xml or llms.txt several MB, so those answers could
// not be given at all. Gzipped (BestSpeed), such text is about a tenth of
// that. A text answer of compressMin bytes or more is gzipped when the
// request accepts gzip (Accept-Encoding; browsers and every HTTP client
// library send it, and decompress); smaller answers, binary types, event
// streams, HEAD, 204 and 304 answers are written as they are. An ETag
// stays the one of the content, whatever its coding, so that a client's
// If-None-Match still finds it (a 304 has no body to code).

// compressMin is the smallest text answer gzipped.
const compressMin = 8 << 10

// acceptsGzip tells whether an Accept-Encoding header accepts gzip: a
// gzip (or x-gzip, or *) coding whose quality is not 0.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		switch strings.ToLower(strings.TrimSpace(coding)) {
		case "gzip", "x-gzip", "*":
		default:
			continue
		}
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			if k, v, ok := strings.Cut(strings.TrimSpace(p), "="); ok && strings.EqualFold(k, "q") {
				if f, err := strconv.ParseFloat(v, 64); err == nil {
					q = f
				}
			}
		}
		if q > 0 {
			return true
		}
	}
	return false
}

// compressible tells whether an answer with these headers may be gzipped:
// text (JSON, HTML, markdown, plain text, XML, CSS, JavaScript, SVG), not
// already encoded, and not a stream of events (which must not be held).
func compressible(h http.Header) bool {
	if h.Get("Content-Encoding") != "" {
		return false
	}
	mt, _, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil || mt == "text/event-stream" {
		return false
	}
	switch {
	case strings.HasPrefix(mt, "text/"), strings.HasSuffix(mt, "+json"), strings.HasSuffix(mt, "+xml"):
		return true
	}
	switch mt {
	case "application/json", "application/xml", "application/javascript", "application/x-ndjson":
		return true
	}
	return false
}

// compressWriter holds the start of an answer until it knows whether to
// gzip it: a JSON answer reaching compressMin bytes is gzipped from there
// on; anything else is written as it is. close ends the answer.
type compressWriter struct {
	http.ResponseWriter
	head    bool // a HEAD request: never compressed
	status  int  // 0: not set
	held    []byte
	decided bool
	zw      *gzip.Writer
}

func (c *compressWriter) WriteHeader(code int) {
	if c.decided {
		c.ResponseWriter.WriteHeader(code)
		return
	}
	if c.status == 0 {
		c.status = code
	}
	if c.head || code == http.StatusNoContent || code == http.StatusNotModified || code < 200 || !compressible(c.Header()) {
		c.identity()
	}
}

func (c *compressWriter) Write(b []byte) (int, error) {
	if !c.decided && !compressible(c.Header()) {
		c.identity()
	}
	if c.decided {
		if c.zw != nil {
			return c.zw.Write(b)
		}
		return c.ResponseWriter.Write(b)
	}
	c.held = append(c.held, b...)
	if len(c.held) >= compressMin {
		if err := c.compress(); err != nil {
			return 0, err
		}
	}
	return len(b), nil
}

// identity writes the answer as it is from here on (what was held first).
func (c *compressWriter) identity() {
	c.decided = true
	if c.status != 0 {
		c.ResponseWriter.WriteHeader(c.status)
	}
	if len(c.held) > 0 {
		_, _ = c.ResponseWriter.Write(c.held)
		c.held = nil
	}
}

// compress gzips the answer from here on, starting with what was held.
func (c *compressWriter) compress() error {
	c.decided = true
	h := c.Header()
	h.Set("Content-Encoding", "gzip")
	h.Add("Vary", "Accept-Encoding")
	h.Del("Content-Length")
	if c.status != 0 {
		c.ResponseWriter.WriteHeader(c.status)
	}
	c.zw, _ = gzip.NewWriterLevel(c.ResponseWriter, gzip.BestSpeed)
	_, err := c.zw.Write(c.held)
	c.held = nil
	return err
}

// close ends the answer: an answer still held (smaller than compressMin)
// is written as it is, a gzipped one is finished.
func (c *compressWriter) close() {
	if !c.decided {
		if len(c.held) > 0 || c.status != 0 {
			c.Header().Set("Content-Length", strconv.Itoa(len(c.held)))
		}
		c.identity()
	}
	if c.zw != nil {
		_ = c.zw.Close()
	}
}

// Flush writes what is held (as it is: an answer that flushes streams)
// and flushes.
func (c *compressWriter) Flush() {
	if !c.decided {
		c.identity()
	}
	if c.zw != nil {
		_ = c.zw.Flush()
	}
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (c *compressWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }
