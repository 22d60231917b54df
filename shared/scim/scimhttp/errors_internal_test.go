package scimhttp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/galleydocs/galley/shared/store"
)

// A SCIM write that loses to concurrent changes through every retry, or
// finds AWS unavailable, answers as the API does (409, 503 with
// Retry-After), in SCIM's error shape; only the code's faults are 500s
// and they show nothing of the error.
func TestErrorsAnswerTheAPIsStatuses(t *testing.T) {
	for _, c := range []struct {
		err        error
		status     int
		retryAfter bool
	}{
		{fmt.Errorf("add member: %w", store.ErrContention), http.StatusConflict, false},
		{fmt.Errorf("put: %w", store.ErrUnavailable), http.StatusServiceUnavailable, true},
		{fmt.Errorf("secret detail"), http.StatusInternalServerError, false},
	} {
		w := httptest.NewRecorder()
		writeErr(context.Background(), w, c.err)
		var body errorBody
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
			t.Fatal(err)
		}
		if w.Code != c.status || body.Status != fmt.Sprint(c.status) || (w.Header().Get("Retry-After") != "") != c.retryAfter {
			t.Errorf("%v: %d %+v Retry-After %q, want %d", c.err, w.Code, body, w.Header().Get("Retry-After"), c.status)
		}
		if c.status == http.StatusInternalServerError && body.Detail != "Internal error" {
			t.Errorf("a 500 shows %q", body.Detail)
		}
	}
}
