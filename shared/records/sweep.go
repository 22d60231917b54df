package records

import (
	"context"
	"errors"
	"time"

	"github.com/galleydocs/galley/shared/store"
)

// SweepExpired deletes, oldest first, the records of T listed in an
// expiry index (GSI1 partition pk, sorted by expiry) whose expiresAt is
// not after now, and returns how many. del makes each record's delete;
// each batch of up to store.MaxTransactionOps is one write when together,
// else one write a record, a conflict then leaving that record alone (a
// delete at the version read, of a record changed meanwhile). Local mode
// runs the families' sweeps; in AWS DynamoDB's TTL deletes the items
// (their Expires attribute).
func SweepExpired[T any](ctx context.Context, s store.Store, pk string, now time.Time, together bool,
	expiresAt func(T) time.Time, del func(store.Item) store.Op) (int, error) {
	n := 0
	for {
		p, err := s.Query(ctx, store.Query{Index: store.GSI1, PK: pk, Limit: store.MaxTransactionOps})
		if err != nil {
			return n, err
		}
		var ops []store.Op
		for _, it := range p.Items {
			v, err := Decode[T](it)
			if err != nil {
				return n, err
			}
			if expiresAt(v).After(now) {
				break
			}
			ops = append(ops, del(it))
		}
		if len(ops) == 0 {
			return n, nil
		}
		batches := [][]store.Op{ops}
		if !together {
			batches = batches[:0]
			for _, op := range ops {
				batches = append(batches, []store.Op{op})
			}
		}
		for _, b := range batches {
			if err := s.Write(ctx, b...); err != nil && !errors.Is(err, store.ErrConflict) {
				return n, err
			}
			n += len(b)
		}
		if len(ops) < len(p.Items) || p.Next == nil {
			return n, nil
		}
	}
}
