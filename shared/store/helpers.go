package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// maxUpdateAttempts bounds the retries of Update under contention.
const maxUpdateAttempts = 40

// Update applies fn to the item at pk, sk as a read-modify-write guarded by
// the item's version: the new item is written only if nobody wrote it since
// it was read, and fn runs again on the fresher item otherwise. fn may return
// extra operations to commit in the same transaction. It returns the item as
// written.
func Update(ctx context.Context, s Store, pk, sk string, fn func(Item) (Item, []Op, error)) (Item, error) {
	for attempt := 0; attempt < maxUpdateAttempts; attempt++ {
		old, err := s.Get(ctx, pk, sk)
		if err != nil {
			return Item{}, err
		}
		next, extra, err := fn(old)
		if err != nil {
			return Item{}, err
		}
		next.PK, next.SK, next.Version = pk, sk, old.Version+1
		err = s.Write(ctx, append([]Op{PutIfVersion(next, old.Version)}, extra...)...)
		if err == nil {
			return next, nil
		}
		if !errors.Is(err, ErrConflict) {
			return Item{}, err
		}
		// Writers that collided back off for a random, growing while, so
		// that they do not collide again in lockstep.
		wait := time.Duration(rand.Int64N(int64(time.Millisecond) << min(attempt, 6)))
		select {
		case <-ctx.Done():
			return Item{}, ctx.Err()
		case <-time.After(wait):
		}
	}
	return Item{}, fmt.Errorf("update %s/%s: %w after %d attempts", pk, sk, ErrConflict, maxUpdateAttempts)
}

// QueryAll reads every item of a query, page after page. Use it only for
// partitions known to be small (an organization's members or teams).
func QueryAll(ctx context.Context, s Store, q Query) ([]Item, error) {
	if q.Limit == 0 {
		q.Limit = MaxQueryLimit
	}
	var all []Item
	for {
		p, err := s.Query(ctx, q)
		if err != nil {
			return nil, err
		}
		all = append(all, p.Items...)
		if p.Next == nil {
			return all, nil
		}
		q.After = p.Next
	}
}

// Validate checks a Write's operations against the rules of the port. Every
// adapter calls it first, so that both fail the same way.
func Validate(ops []Op) error {
	if len(ops) == 0 {
		return fmt.Errorf("%w: no operations", ErrInvalid)
	}
	if len(ops) > MaxTransactionOps {
		return fmt.Errorf("%w: %d operations, at most %d", ErrInvalid, len(ops), MaxTransactionOps)
	}
	seen := make(map[[2]string]bool, len(ops))
	total := 0
	for _, op := range ops {
		k := [2]string{op.Item.PK, op.Item.SK}
		if err := ValidateKey(k[0], k[1]); err != nil {
			return err
		}
		if seen[k] {
			return fmt.Errorf("%w: key %s/%s appears twice", ErrInvalid, k[0], k[1])
		}
		seen[k] = true
		total += op.Item.Size()
		switch op.Kind {
		case OpPut:
			if (op.Item.GSI1PK == "") != (op.Item.GSI1SK == "") || (op.Item.GSI2PK == "") != (op.Item.GSI2SK == "") {
				return fmt.Errorf("%w: index keys of %s/%s must be set in pairs", ErrInvalid, k[0], k[1])
			}
			if n := op.Item.Size(); n > MaxItemBytes {
				return fmt.Errorf("%w: item %s/%s is %d bytes, at most %d", ErrInvalid, k[0], k[1], n, MaxItemBytes)
			}
		case OpDelete:
		case OpCheck:
			if op.Cond == Always {
				return fmt.Errorf("%w: check of %s/%s without condition", ErrInvalid, k[0], k[1])
			}
		default:
			return fmt.Errorf("%w: unknown operation kind %d", ErrInvalid, op.Kind)
		}
	}
	if total > MaxTransactionBytes {
		return fmt.Errorf("%w: transaction of %d bytes, at most %d", ErrInvalid, total, MaxTransactionBytes)
	}
	return nil
}

// ValidateKey checks a primary key.
func ValidateKey(pk, sk string) error {
	if pk == "" || sk == "" {
		return fmt.Errorf("%w: empty key", ErrInvalid)
	}
	for _, s := range []string{pk, sk} {
		for i := 0; i < len(s); i++ {
			if s[i] == 0 {
				return fmt.Errorf("%w: key contains NUL", ErrInvalid)
			}
		}
	}
	return nil
}

// ValidateBatchGet checks the keys of a BatchGet against the rules of the port.
func ValidateBatchGet(keys []ItemKey) error {
	if len(keys) > MaxBatchGetKeys {
		return fmt.Errorf("%w: %d keys in one batch get, at most %d", ErrInvalid, len(keys), MaxBatchGetKeys)
	}
	seen := make(map[ItemKey]bool, len(keys))
	for _, k := range keys {
		if err := ValidateKey(k.PK, k.SK); err != nil {
			return err
		}
		if seen[k] {
			return fmt.Errorf("%w: key %s/%s appears twice in one batch get", ErrInvalid, k.PK, k.SK)
		}
		seen[k] = true
	}
	return nil
}

// ValidateQuery checks a query against the rules of the port.
func ValidateQuery(q Query) error {
	if q.PK == "" {
		return fmt.Errorf("%w: query without partition key", ErrInvalid)
	}
	if q.Limit < 1 || q.Limit > MaxQueryLimit {
		return fmt.Errorf("%w: query limit %d not in 1..%d", ErrInvalid, q.Limit, MaxQueryLimit)
	}
	switch q.Index {
	case Table, GSI1, GSI2:
	default:
		return fmt.Errorf("%w: unknown index %q", ErrInvalid, q.Index)
	}
	if q.After != nil {
		if q.After.PK == "" || q.After.SK == "" {
			return fmt.Errorf("%w: incomplete start key", ErrInvalid)
		}
		if q.Index != Table && (q.After.IPK != q.PK || q.After.ISK == "") {
			return fmt.Errorf("%w: start key not of this index partition", ErrInvalid)
		}
		if q.Index == Table && q.After.PK != q.PK {
			return fmt.Errorf("%w: start key not of this partition", ErrInvalid)
		}
	}
	return nil
}
