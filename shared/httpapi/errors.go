package httpapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/danielgtaylor/huma/v2"
	"github.com/galleydocs/galley/shared/apperr"
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
	return &ErrorBody{Err: ErrorInfo{Code: status, Message: msg}}
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

// ContentionMessage answers a write that lost every retry (store.ErrContention).
const ContentionMessage = "too many concurrent changes; try again"

// problem turns a service error into the response error, logging internal
// ones (their text never reaches the caller).
func problem(ctx context.Context, err error) error {
	var se huma.StatusError
	if errors.As(err, &se) {
		return se
	}
	kind := apperr.KindOf(err)
	if kind == apperr.Internal && errors.Is(err, store.ErrContention) {
		// store.Retry gave up: others kept changing the same records. The
		// request was fine; the caller may try again (not a server fault).
		return &ErrorBody{Err: ErrorInfo{Code: Status(apperr.Conflict), Message: ContentionMessage}}
	}
	status := Status(kind)
	if kind == apperr.Internal {
		LoggerFrom(ctx).Error("internal error", "err", err.Error())
		return &ErrorBody{Err: ErrorInfo{Code: status, Message: "Internal error"}}
	}
	return &ErrorBody{Err: ErrorInfo{Code: status, Message: err.Error()}}
}

// writeError writes an error response outside of huma (routing, panics).
func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"error":{"code":%d,"message":%q}}`, status, msg)
}
