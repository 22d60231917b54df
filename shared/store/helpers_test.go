package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/galleydocs/galley/shared/store"
)

func TestRetry(t *testing.T) {
	ctx := context.Background()
	boom := errors.New("boom")
	for _, c := range []struct {
		name  string
		fails []error // what each attempt returns, nil after the list
		want  error
		calls int
	}{
		{"success at once", nil, nil, 1},
		{"conflicts then success", []error{store.ErrConflict, store.ErrConflict}, nil, 3},
		{"other errors end it", []error{store.ErrConflict, boom}, boom, 2},
		{"a nested give-up ends it", []error{store.ErrContention}, store.ErrContention, 1},
		{"gives up after the budget", repeat(store.ErrConflict, store.MaxAttempts+5), store.ErrContention, store.MaxAttempts},
	} {
		t.Run(c.name, func(t *testing.T) {
			calls := 0
			err := store.Retry(ctx, func() error {
				calls++
				if calls <= len(c.fails) {
					return c.fails[calls-1]
				}
				return nil
			})
			if !errors.Is(err, c.want) || (c.want == nil && err != nil) || calls != c.calls {
				t.Fatalf("err %v after %d calls, want %v after %d", err, calls, c.want, c.calls)
			}
		})
	}
	if !errors.Is(store.ErrContention, store.ErrConflict) {
		t.Error("ErrContention does not wrap ErrConflict")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := store.Retry(cctx, func() error { return store.ErrConflict }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
}

func repeat(err error, n int) []error {
	out := make([]error, n)
	for i := range out {
		out[i] = err
	}
	return out
}
