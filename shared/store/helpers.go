package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// MaxAttempts is the retry budget of Retry: how many times a write that
// lost a race is built again from fresh reads before the caller is told to
// try later. Contention on one item rarely lasts this long; when it does,
// giving up (409) is better than holding a request open.
const MaxAttempts = 40

// ErrContention is what Retry returns when every attempt lost a race. It
// wraps ErrConflict (errors.Is(err, ErrConflict) holds), and the HTTP layer
// answers it with 409 Conflict: the request was valid, others kept changing
// the same records, and trying again later may succeed.
var ErrContention = fmt.Errorf("%w: still changed concurrently after %d attempts", ErrConflict, MaxAttempts)

// Retry is the one retry loop of version-guarded writes (read, decide,
// write under conditions). It calls attempt until attempt returns anything
// but ErrConflict, backing off a random, growing while between two calls so
// that writers that collided do not collide again in lockstep. attempt must
// read afresh each time: a conflict means what it read is stale. After
// MaxAttempts conflicts Retry returns ErrContention; an attempt's own
// ErrContention (a nested Retry that gave up) ends it at once, so budgets
// never multiply. The context ends the wait early.
func Retry(ctx context.Context, attempt func() error) error {
	for n := 0; n < MaxAttempts; n++ {
		err := attempt()
		if err == nil || !errors.Is(err, ErrConflict) || errors.Is(err, ErrContention) {
			return err
		}
		wait := time.Duration(rand.Int64N(int64(time.Millisecond) << min(n, 6)))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
	return ErrContention
}

// Update applies fn to the item at pk, sk as a read-modify-write guarded by
// the item's version: the new item is written only if nobody wrote it since
// it was read, and fn runs again on the fresher item otherwise (see Retry).
// fn may return extra operations to commit in the same transaction. It
// returns the item as written.
func Update(ctx context.Context, s Store, pk, sk string, fn func(Item) (Item, []Op, error)) (Item, error) {
	var out Item
	var fnErr error // fn's own errors end Update as they are, never retried
	err := Retry(ctx, func() error {
		old, err := s.Get(ctx, pk, sk)
		if err != nil {
			return err
		}
		next, extra, err := fn(old)
		if err != nil {
			fnErr = err
			return nil
		}
		next.PK, next.SK, next.Version = pk, sk, old.Version+1
		if err := s.Write(ctx, append([]Op{PutIfVersion(next, old.Version)}, extra...)...); err != nil {
			return err
		}
		out = next
		return nil
	})
	if fnErr != nil {
		return Item{}, fnErr
	}
	if err != nil {
		return Item{}, err
	}
	return out, nil
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
			for _, ix := range [][2]string{{op.Item.GSI1PK, op.Item.GSI1SK}, {op.Item.GSI2PK, op.Item.GSI2SK}} {
				if ix[0] != "" {
					if err := ValidateKey(ix[0], ix[1]); err != nil {
						return fmt.Errorf("index key of %s/%s: %w", k[0], k[1], err)
					}
				}
			}
			if n := op.Item.Size(); n > MaxItemBytes {
				return fmt.Errorf("%w: item %s/%s is %d bytes, at most %d", ErrItemTooLarge, k[0], k[1], n, MaxItemBytes)
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
		return fmt.Errorf("%w: transaction of %d bytes, at most %d", ErrItemTooLarge, total, MaxTransactionBytes)
	}
	return nil
}

// ValidateKey checks a key (a primary key, or an index's), failing with
// ErrInvalidKey.
func ValidateKey(pk, sk string) error {
	if pk == "" || sk == "" {
		return fmt.Errorf("%w: empty key", ErrInvalidKey)
	}
	if len(pk) > MaxPartitionKeyBytes || len(sk) > MaxSortKeyBytes {
		return fmt.Errorf("%w: key of %d+%d bytes, at most %d+%d", ErrInvalidKey, len(pk), len(sk), MaxPartitionKeyBytes, MaxSortKeyBytes)
	}
	if strings.IndexByte(pk, 0) >= 0 || strings.IndexByte(sk, 0) >= 0 {
		return fmt.Errorf("%w: key contains NUL", ErrInvalidKey)
	}
	return nil
}

// validatePartition checks a query's partition key, failing with
// ErrInvalidKey.
func validatePartition(pk string) error {
	switch {
	case pk == "":
		return fmt.Errorf("%w: query without partition key", ErrInvalidKey)
	case len(pk) > MaxPartitionKeyBytes:
		return fmt.Errorf("%w: partition key of %d bytes, at most %d", ErrInvalidKey, len(pk), MaxPartitionKeyBytes)
	case strings.IndexByte(pk, 0) >= 0:
		return fmt.Errorf("%w: partition key contains NUL", ErrInvalidKey)
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
	if err := validatePartition(q.PK); err != nil {
		return err
	}
	if len(q.SKPrefix) > MaxSortKeyBytes || strings.IndexByte(q.SKPrefix, 0) >= 0 {
		return fmt.Errorf("%w: sort key prefix too long or with a NUL", ErrInvalidKey)
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
