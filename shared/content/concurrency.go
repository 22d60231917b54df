package content

import "sync"

// recent keeps the values put last under their keys, at most max of them
// (or, with putWeighed, at most max of their weights): the oldest go
// first. It is safe for concurrent use.
type recent[V any] struct {
	mu     sync.Mutex
	m      map[string]V
	weight map[string]int
	total  int
	order  []string
	max    int
}

func newRecent[V any](max int) *recent[V] {
	return &recent[V]{m: map[string]V{}, weight: map[string]int{}, max: max}
}

func (c *recent[V]) get(k string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *recent[V]) put(k string, v V) { c.putWeighed(k, v, 1) }

// putWeighed keeps v under k as weighing w; a value heavier than the
// whole cache is not kept.
func (c *recent[V]) putWeighed(k string, v V, w int) {
	if w > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.weight[k]; ok {
		c.total -= old
	} else {
		c.order = append(c.order, k)
	}
	c.m[k], c.weight[k] = v, w
	c.total += w
	for c.total > c.max {
		c.total -= c.weight[c.order[0]]
		delete(c.m, c.order[0])
		delete(c.weight, c.order[0])
		c.order = c.order[1:]
	}
}

// each calls f on every item, at most workers at once, and returns the
// first error; once one has failed, the items not started yet are skipped.
func each[T any](items []T, workers int, f func(T) error) error {
	var mu sync.Mutex
	var firstErr error
	failed := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return firstErr != nil
	}
	work := make(chan T)
	var wg sync.WaitGroup
	for w := 0; w < min(workers, len(items)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := range work {
				if err := f(it); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	for _, it := range items {
		if failed() {
			break
		}
		work <- it
	}
	close(work)
	wg.Wait()
	return firstErr
}
