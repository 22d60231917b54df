package httpapi

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"github.com/galleydocs/galley/shared/idempotency"
)

// Idempotency keeps the answers of operations that accept an
// Idempotency-Key (Op.Idempotent): package idempotency's Store.
type Idempotency interface {
	Begin(ctx context.Context, r idempotency.Request) (*idempotency.Answer, idempotency.Claim, error)
	Save(ctx context.Context, c idempotency.Claim, a idempotency.Answer) error
	Release(ctx context.Context, c idempotency.Claim) error
}

const (
	// IdempotencyKeyHeader names the key a client sends with a create it
	// may retry.
	IdempotencyKeyHeader = "Idempotency-Key"
	// ReplayedHeader marks an answer replayed from a key's first request.
	ReplayedHeader = "Idempotent-Replayed"
	// MaxIdempotencyKey is the longest key accepted.
	MaxIdempotencyKey = 255
	// idempotentMeta marks, in an operation's metadata, one that accepts
	// an Idempotency-Key.
	idempotentMeta = "galley-idempotent"
)

// idempotencyParam documents the header on an operation that accepts it.
func idempotencyParam() *huma.Param {
	minLen, maxLen := 1, MaxIdempotencyKey
	return &huma.Param{Name: IdempotencyKeyHeader, In: "header",
		Description: "A key of the client's choosing (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retry of this request " +
			"answer the first request's answer for 24 hours instead of creating again (per token and operation; another request with the same key answers 422, " +
			"a retry while the first still runs 409). Galley's own: GitBook's API has none.",
		Schema: &huma.Schema{Type: "string", MinLength: &minLen, MaxLength: &maxLen, Pattern: `^[!-~]([ -~]*[!-~])?$`}}
}

// validIdempotencyKey reports whether k is 1 to 255 printable ASCII
// characters (spaces inside only: HTTP trims them at the ends).
func validIdempotencyKey(k string) bool {
	if len(k) == 0 || len(k) > MaxIdempotencyKey || k[0] == ' ' || k[len(k)-1] == ' ' {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < ' ' || k[i] > '~' {
			return false
		}
	}
	return true
}

// idempotent runs an operation that accepts an Idempotency-Key once per
// key: it claims the key, replays the answer kept for it, or keeps the
// operation's successful answer (docs/faults.md, "Idempotency keys").
func (a *API) idempotent(ctx huma.Context, next func(huma.Context)) {
	op := ctx.Operation()
	if a.cfg.Idempotency == nil || op == nil || op.Metadata[idempotentMeta] != true {
		next(ctx)
		return
	}
	r, _ := humago.Unwrap(ctx)
	values := r.Header.Values(IdempotencyKeyHeader)
	if len(values) == 0 {
		next(ctx)
		return
	}
	if len(values) > 1 || !validIdempotencyKey(values[0]) {
		writeCtxError(ctx, http.StatusBadRequest, IdempotencyKeyHeader+": must be one value of 1 to 255 printable ASCII characters")
		return
	}
	limit := op.MaxBodyBytes
	if limit <= 0 {
		limit = MaxBodyBytes
	}
	var body []byte
	if r.Body != nil && r.Body != http.NoBody {
		data, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
		r.Body = readCloser{io.MultiReader(bytes.NewReader(data), r.Body), r.Body}
		if err != nil || int64(len(data)) > limit {
			next(ctx) // huma answers the failed read or 413
			return
		}
		body = data
	}
	c := ctx.Context()
	store := a.cfg.Idempotency
	req := idempotency.Request{Scope: tokenScope(r), Operation: op.OperationID, Key: values[0], Fingerprint: fingerprint(r, body)}
	kept, claim, err := store.Begin(c, req)
	switch {
	case errors.Is(err, idempotency.ErrMismatch):
		writeCtxError(ctx, http.StatusUnprocessableEntity, IdempotencyKeyHeader+": "+err.Error())
		return
	case err != nil:
		status, msg, logMsg := classify(err)
		if logMsg != "" {
			LoggerFrom(c).ErrorContext(c, logMsg, "err", err.Error())
		}
		writeCtxError(ctx, status, msg)
		return
	case kept != nil:
		for name, vs := range kept.Header {
			for _, v := range vs {
				ctx.AppendHeader(name, v)
			}
		}
		ctx.SetHeader(ReplayedHeader, "true")
		ctx.SetStatus(kept.Status)
		_, _ = ctx.BodyWriter().Write(kept.Body)
		return
	}
	// The answer is kept, or the key released, whether or not the client
	// is still there: a client whose answer was lost retries.
	c = context.WithoutCancel(c)
	rec := &recordingContext{humaContext: ctx, header: http.Header{}}
	done := false
	defer func() {
		if !done { // a panic: the key is free again (recover answers 500)
			_ = store.Release(c, claim)
		}
	}()
	next(rec)
	done = true
	status := rec.status
	if status == 0 {
		status = http.StatusOK
	}
	if status < 200 || status > 299 {
		if err := store.Release(c, claim); err != nil {
			LoggerFrom(c).WarnContext(c, "release an idempotency key", "err", err.Error())
		}
		return
	}
	if err := store.Save(c, claim, idempotency.Answer{Status: status, Header: rec.header, Body: rec.body.Bytes()}); err != nil {
		// The write is done and answered; only a retry would do it again.
		LoggerFrom(c).ErrorContext(c, "keep an idempotent answer", "err", err.Error())
		_ = store.Release(c, claim)
	}
}

// tokenScope is what a key is the caller's within: a hash of its bearer
// token (the token itself is never stored).
func tokenScope(r *http.Request) string {
	sum := sha256.Sum256([]byte(bearerToken(r.Header.Get("Authorization"))))
	return hex.EncodeToString(sum[:])
}

// fingerprint identifies a request: its method, path, query and body.
func fingerprint(r *http.Request, body []byte) string {
	h := sha256.New()
	for _, p := range []string{r.Method, r.URL.EscapedPath(), r.URL.RawQuery, string(body)} {
		fmt.Fprintf(h, "%d:%s", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// writeCtxError answers msg in the error shape with any status (huma's
// own errors turn 422 into 400, newError).
func writeCtxError(ctx huma.Context, status int, msg string) {
	body, _ := json.Marshal(ErrorBody{Err: ErrorInfo{Code: status, Message: cleanMessage(msg)}})
	ctx.SetHeader("Content-Type", "application/json")
	ctx.SetHeader("Content-Length", strconv.Itoa(len(body)))
	ctx.SetStatus(status)
	_, _ = ctx.BodyWriter().Write(body)
}

// recordingContext passes an operation's answer through and keeps a copy.
type recordingContext struct {
	humaContext
	status int
	header http.Header
	body   bytes.Buffer
}

func (c *recordingContext) Unwrap() huma.Context { return c.humaContext }

func (c *recordingContext) SetStatus(code int) {
	c.status = code
	c.humaContext.SetStatus(code)
}

func (c *recordingContext) SetHeader(name, value string) {
	c.header.Set(name, value)
	c.humaContext.SetHeader(name, value)
}

func (c *recordingContext) AppendHeader(name, value string) {
	c.header.Add(name, value)
	c.humaContext.AppendHeader(name, value)
}

func (c *recordingContext) BodyWriter() io.Writer {
	return io.MultiWriter(c.humaContext.BodyWriter(), &c.body)
}

// humaContext is huma.Context under another name: embedded, it does not
// hide the interface's Context method behind a field of that name.
type humaContext = huma.Context
