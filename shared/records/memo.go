package records

import (
	"sync"

	"github.com/galleydocs/galley/shared/store"
)

// Memo keeps the values decoded from the last records' bytes it saw, for
// hot reads where decoding JSON is a good part of the CPU (a GET of a space
// decodes the space and the caller's membership). It is keyed by the bytes
// themselves, so a value is the decoding of exactly what was read, whatever
// wrote it; values are handed out through clone, so that callers share
// nothing they could change. Bounded: the oldest entries go first.
type Memo[T any] struct {
	mu    sync.Mutex
	m     map[string]T
	order []string
	max   int
	clone func(T) T
}

// NewMemo returns a memo of at most max values, handed out through clone.
func NewMemo[T any](max int, clone func(T) T) *Memo[T] {
	return &Memo[T]{m: map[string]T{}, max: max, clone: clone}
}

// Decode is Decode[T](it), from the memo when it decoded the same bytes.
func (c *Memo[T]) Decode(it store.Item) (T, error) {
	c.mu.Lock()
	v, ok := c.m[string(it.Data)]
	c.mu.Unlock()
	if ok {
		return c.clone(v), nil
	}
	v, err := Decode[T](it)
	if err != nil {
		return v, err
	}
	k := string(it.Data)
	c.mu.Lock()
	if _, seen := c.m[k]; !seen {
		c.order = append(c.order, k)
	}
	c.m[k] = c.clone(v)
	for len(c.order) > c.max {
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
	c.mu.Unlock()
	return v, nil
}
