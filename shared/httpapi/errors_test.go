package httpapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/store"
)

// The storage errors a request can cause answer 4xx with a message of
// their own; the others stay 500 ("Internal error"), and every one of them
// is logged.
func TestStorageErrorsAnswerTheirStatus(t *testing.T) {
	for _, c := range []struct {
		err    error
		status int
		msg    string
		logged string
	}{
		{fmt.Errorf("create space: %w", fmt.Errorf("%w: key contains NUL", store.ErrInvalidKey)), 400, InvalidKeyMessage, "store refused a key"},
		{fmt.Errorf("read: %w", fmt.Errorf("%w: key of 9+2000 bytes", store.ErrInvalidKey)), 400, InvalidKeyMessage, "store refused a key"},
		{fmt.Errorf("%w: item P/S is 500000 bytes", store.ErrItemTooLarge), 413, TooLargeMessage, "store refused a large item"},
		{fmt.Errorf("%w: 101 operations, at most 100", store.ErrInvalid), 500, "Internal error", "internal error"},
		{fmt.Errorf("%w: query limit 0 not in 1..1000", store.ErrInvalid), 500, "Internal error", "internal error"},
		{fmt.Errorf("update: %w", store.ErrContention), 409, ContentionMessage, ""},
		{fmt.Errorf("dynamodb put P/S: %w: ThrottlingException", store.ErrUnavailable), 503, UnavailableMessage, "dependency unavailable"},
		{fmt.Errorf("s3blob: get: %w: SlowDown", blob.ErrUnavailable), 503, UnavailableMessage, "dependency unavailable"},
		{fmt.Errorf("enqueue: %w: RequestThrottled", queue.ErrUnavailable), 503, UnavailableMessage, "dependency unavailable"},
		{apperr.New(apperr.Unavailable, "the renderer is busy"), 503, "the renderer is busy", ""},
		{apperr.Field("parent", "no such collection"), 400, "parent: no such collection", ""},
		{errors.New("boom"), 500, "Internal error", "internal error"},
	} {
		var logs bytes.Buffer
		ctx := context.WithValue(context.Background(), infoKey{}, &requestInfo{id: "r1", base: slog.New(slog.NewTextHandler(&logs, nil))})
		var body *ErrorBody
		if !errors.As(problem(ctx, c.err), &body) {
			t.Fatalf("%v: not an ErrorBody", c.err)
		}
		if body.Err.Code != c.status || body.Err.Message != c.msg || StatusOf(c.err) != c.status || MessageOf(c.err) != c.msg {
			t.Errorf("%v: %d %q, want %d %q", c.err, body.Err.Code, body.Err.Message, c.status, c.msg)
		}
		if c.logged == "" && logs.Len() > 0 || c.logged != "" && !strings.Contains(logs.String(), c.logged) {
			t.Errorf("%v: logged %q, want %q", c.err, logs.String(), c.logged)
		}
		if c.status == http.StatusInternalServerError && strings.Contains(body.Err.Message, "store") {
			t.Errorf("%v: message %q shows the store's error", c.err, body.Err.Message)
		}
	}
}
