package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/danielgtaylor/huma/v2"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/store"
)

// ErrorBody is every error response: {"error":{"code":<status>,"message":"..."}}.
type ErrorBody struct {
	Err ErrorInfo `json:"error"`
}

// ErrorInfo is the inside of ErrorBody.
type ErrorInfo struct {
	Code    int    `json:"code" doc:"HTTP status of the response"`
	Message string `json:"message"`
}

func (e *ErrorBody) Error() string  { return e.Err.Message }
func (e *ErrorBody) GetStatus() int { return e.Err.Code }

// Status is the one table from error kinds to HTTP statuses.
func Status(kind apperr.Kind) int {
	switch kind {
	case apperr.Invalid:
		return http.StatusBadRequest
	case apperr.Unauthorized:
		return http.StatusUnauthorized
	case apperr.Forbidden:
		return http.StatusForbidden
	case apperr.NotFound:
		return http.StatusNotFound
	case apperr.Conflict:
		return http.StatusConflict
	case apperr.TooLarge:
		return http.StatusRequestEntityTooLarge
	case apperr.Unavailable:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// newError builds huma's errors (validation, body parsing, size) in our
// shape. Huma reports validation failures as 422; the API answers 400, with
// every offending field named in the message.
func newError(status int, msg string, errs ...error) huma.StatusError {
	if status == http.StatusUnprocessableEntity {
		status = http.StatusBadRequest
	}
	var details []string
	for _, err := range errs {
		if err == nil {
			continue
		}
		var d *huma.ErrorDetail
		if errors.As(err, &d) && d.Location != "" {
			details = append(details, fieldName(d.Location)+": "+d.Message)
		} else {
			details = append(details, err.Error())
		}
	}
	if len(details) > 0 {
		msg = strings.Join(details, "; ")
	}
	if status >= 500 {
		msg = "Internal error"
	}
	return &ErrorBody{Err: ErrorInfo{Code: status, Message: cleanMessage(msg)}}
}

// fieldName turns huma's "body.title" or "query.limit" into "title", "limit".
func fieldName(location string) string {
	for _, p := range []string{"body.", "query.", "path.", "header."} {
		if strings.HasPrefix(location, p) {
			return strings.TrimPrefix(location, p)
		}
	}
	return location
}

var installOnce sync.Once

// installErrors makes huma build errors in our shape. huma.NewError is the
// library's own package-level hook, so this is the one global setting the
// project makes; it is the same for every API and set once.
func installErrors() {
	installOnce.Do(func() { huma.NewError = newError })
}

// Answers to the storage errors a request causes (problem).
const (
	// ContentionMessage answers a write that lost every retry (store.ErrContention).
	ContentionMessage = "too many concurrent changes; try again"
	// InvalidKeyMessage answers a key the store cannot hold (store.ErrInvalidKey).
	InvalidKeyMessage = "an id or name in the request cannot be stored: empty, too long or with a NUL character"
	// TooLargeMessage answers an item over the store's limit (store.ErrItemTooLarge).
	TooLargeMessage = "the change would make a record larger than the store holds"
	// UnavailableMessage answers a storage or queue call that AWS kept
	// throttling or failing through its retries (store, blob and queue
	// ErrUnavailable).
	UnavailableMessage = "the service is busy or a dependency is failing; try again shortly"
	// RetryAfterUnavailable is the Retry-After (seconds) of every 503: the
	// SDK's retries already spent up to a second, and DynamoDB's and S3's
	// throttling usually clears within seconds.
	RetryAfterUnavailable = "1"
)

// problem turns a service error into the response error, logging internal
// ones (their text never reaches the caller).
func problem(ctx context.Context, err error) error {
	var se huma.StatusError
	if errors.As(err, &se) {
		return se
	}
	status, msg, logMsg := classify(err)
	switch {
	case status == http.StatusInternalServerError:
		LoggerFrom(ctx).Error("internal error", "err", err.Error())
	case logMsg != "":
		LoggerFrom(ctx).Warn(logMsg, "err", err.Error())
	}
	return &ErrorBody{Err: ErrorInfo{Code: status, Message: msg}}
}

// StatusOf is the status answering a service error: its kind's (Status),
// or, for the storage errors a request can cause, classify's.
func StatusOf(err error) int {
	status, _, _ := classify(err)
	return status
}

// MessageOf is the message answering a service error, fit for the caller
// ("Internal error" for a 500).
func MessageOf(err error) string {
	_, msg, _ := classify(err)
	return msg
}

// classify decides the status and message answering a service error, and
// what to log (beyond 500s, which are always logged; "" nothing).
func classify(err error) (status int, msg, logMsg string) {
	kind := apperr.KindOf(err)
	if kind != apperr.Internal {
		return Status(kind), cleanMessage(err.Error()), ""
	}
	switch {
	case errors.Is(err, store.ErrContention):
		// store.Retry gave up: others kept changing the same records. The
		// request was fine; the caller may try again (not a server fault).
		return Status(apperr.Conflict), ContentionMessage, ""
	case errors.Is(err, store.ErrInvalidKey):
		// Keys are made of the ids and names requests give, so a key the
		// store cannot hold is the request's fault. The edge refuses such
		// ids first (inputs.go): one reaching the store means a check is
		// missing, hence the log line.
		return Status(apperr.Invalid), InvalidKeyMessage, "store refused a key"
	case errors.Is(err, store.ErrItemTooLarge):
		// Records grow with what requests put in them.
		return Status(apperr.TooLarge), TooLargeMessage, "store refused a large item"
	case errors.Is(err, store.ErrUnavailable), errors.Is(err, blob.ErrUnavailable), errors.Is(err, queue.ErrUnavailable):
		// AWS throttled or failed through every retry of the call: not the
		// request's fault nor the code's; the caller may try again (the
		// status writer adds Retry-After). Logged: a run of them is an
		// outage or a capacity to raise.
		return Status(apperr.Unavailable), UnavailableMessage, "dependency unavailable"
	}
	// Anything else, other store.ErrInvalid errors included (too many
	// operations in one transaction, a bad query): the code's fault.
	return http.StatusInternalServerError, "Internal error", ""
}

// writeError writes an error response outside of huma (routing, panics,
// rate limits, rejected parameters). The message is encoded by
// encoding/json: Go's %q would write \x00 for a NUL, which is not JSON.
func writeError(w http.ResponseWriter, status int, msg string) {
	body, err := json.Marshal(ErrorBody{Err: ErrorInfo{Code: status, Message: cleanMessage(msg)}})
	if err != nil { // not reached: two plain fields
		body = []byte(`{"error":{"code":500,"message":"Internal error"}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// Library internals that must not reach a caller: Go's JSON decoder names
// the struct field and Go types ("json: cannot unmarshal number into Go
// struct field spaceBody.title of type string"); other errors may carry a
// pointer (0xc000123456), a Go type (*url.Error) or a source file.
var (
	unmarshalTypeRE = regexp.MustCompile(`json: cannot unmarshal (\w+) into Go (?:struct field (\S+)|value) of type (\S+)`)
	pointerRE       = regexp.MustCompile(`\b0x[0-9a-fA-F]{4,}\b`)
	goTypeRE        = regexp.MustCompile(`\*?\b[a-z][a-z0-9]*\.[A-Z][A-Za-z0-9_]*\b`)
	sourceFileRE    = regexp.MustCompile(`\S*/[^\s/]+\.go(:\d+)?`)
)

// cleanMessage is the last guard on every error message written: it turns
// the decoder's type errors into "field: expected <JSON type>" and drops
// pointers, Go type names and source paths. Messages are built to need none
// of it; this keeps a missed case from leaking.
func cleanMessage(msg string) string {
	msg = unmarshalTypeRE.ReplaceAllStringFunc(msg, func(m string) string {
		sub := unmarshalTypeRE.FindStringSubmatch(m)
		field := sub[2]
		if i := strings.Index(field, "."); i >= 0 {
			field = field[i+1:] // drop the Go struct's name
		}
		want := jsonTypeOf(sub[3])
		if field == "" {
			return "body: expected " + want + ", got " + sub[1]
		}
		return field + ": expected " + want + ", got " + sub[1]
	})
	msg = strings.ReplaceAll(msg, "json: ", "")
	msg = pointerRE.ReplaceAllString(msg, "")
	msg = sourceFileRE.ReplaceAllString(msg, "")
	msg = goTypeRE.ReplaceAllString(msg, "value")
	return msg
}

// jsonTypeOf names the JSON type a Go type decodes from.
func jsonTypeOf(goType string) string {
	t := strings.TrimLeft(goType, "*")
	switch {
	case t == "string":
		return "string"
	case t == "bool":
		return "boolean"
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"), strings.HasPrefix(t, "float"):
		return "number"
	case strings.HasPrefix(t, "[]"):
		return "array"
	}
	return "object"
}
