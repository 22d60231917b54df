// Package records stores model records as JSON items under the keys of
// package keys.
package records

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/store"
)

// Item encodes v as the item at k with the given version.
func Item(k keys.Key, v any, version int64) store.Item {
	data, err := json.Marshal(v)
	if err != nil {
		// Records are plain structs; failing to encode one is a programming error.
		panic(fmt.Sprintf("records: encode %T: %v", v, err))
	}
	return store.Item{PK: k.PK, SK: k.SK, Version: version, Data: data}
}

// Same reports whether a and b encode to the same JSON (maps by sorted
// keys, so numbers read back from JSON equal those set in Go). An update
// that would store what is there already leaves the record's updatedAt as
// it is: a GET answer sent back with PUT or PATCH changes nothing
// (docs/http.md, "Read-only fields").
func Same(a, b any) bool {
	ja, erra := json.Marshal(a)
	jb, errb := json.Marshal(b)
	return erra == nil && errb == nil && string(ja) == string(jb)
}

// Decode reads the record of an item.
func Decode[T any](it store.Item) (T, error) {
	var v T
	if err := json.Unmarshal(it.Data, &v); err != nil {
		return v, fmt.Errorf("decode %T at %s/%s: %w", v, it.PK, it.SK, err)
	}
	return v, nil
}

// Get reads the record at k and its version; store.ErrNotFound if absent.
func Get[T any](ctx context.Context, s store.Store, k keys.Key) (T, int64, error) {
	it, err := s.Get(ctx, k.PK, k.SK)
	if err != nil {
		var zero T
		return zero, 0, err
	}
	v, err := Decode[T](it)
	return v, it.Version, err
}

// Read is Get for an owner's read of one of its records: a missing record
// is a NotFound error naming what and id ("space X not found"), any other
// failure is wrapped as "read <what>".
func Read[T any](ctx context.Context, s store.Store, k keys.Key, what, id string) (T, int64, error) {
	v, version, err := Get[T](ctx, s, k)
	if errors.Is(err, store.ErrNotFound) {
		return v, 0, apperr.NotFoundf("%s %s not found", what, id)
	}
	if err != nil {
		return v, 0, fmt.Errorf("read %s: %w", what, err)
	}
	return v, version, nil
}

// GetAll reads the records at ks, in order, a few at a time in parallel
// (each is one round trip on DynamoDB). A missing record is an error.
func GetAll[T any](ctx context.Context, s store.Store, ks []keys.Key) ([]T, error) {
	out := make([]T, len(ks))
	errs := make([]error, len(ks))
	sem := make(chan struct{}, 16)
	var wg sync.WaitGroup
	for i, k := range ks {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			out[i], _, errs[i] = Get[T](ctx, s, k)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("read %s/%s: %w", ks[i].PK, ks[i].SK, err)
		}
	}
	return out, nil
}

// Existing reads the records at ks that exist, in the order of ks (which
// must be distinct), one batch get per store.MaxBatchGetKeys keys; missing
// records are left out.
func Existing[T any](ctx context.Context, s store.Store, ks []keys.Key) ([]T, error) {
	out := make([]T, 0, len(ks))
	for part := range slices.Chunk(ks, store.MaxBatchGetKeys) {
		iks := make([]store.ItemKey, 0, len(part))
		for _, k := range part {
			iks = append(iks, store.ItemKey{PK: k.PK, SK: k.SK})
		}
		items, err := s.BatchGet(ctx, iks)
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			if it.PK == "" {
				continue
			}
			v, err := Decode[T](it)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
	}
	return out, nil
}

// DecodeAll reads the records of items.
func DecodeAll[T any](items []store.Item) ([]T, error) {
	out := make([]T, 0, len(items))
	for _, it := range items {
		v, err := Decode[T](it)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// QueryPage reads one page of q and decodes its records. It returns the
// records and the key the next page resumes after, nil on the last page.
// Errors of the query and of decoding are returned as they are, for the
// caller to wrap with what it was listing.
func QueryPage[T any](ctx context.Context, s store.Store, q store.Query) ([]T, *store.Key, error) {
	p, err := s.Query(ctx, q)
	if err != nil {
		return nil, nil, err
	}
	vs, err := DecodeAll[T](p.Items)
	if err != nil {
		return nil, nil, err
	}
	return vs, p.Next, nil
}

// Page reads the page of q that r asks for and decodes its records: the
// services' paged list of one query. Its cursors are signed by cursors for
// scope, the list they are bound to. A bad cursor's error is returned as it
// is, the query's wrapped as "list <what>".
func Page[T any](ctx context.Context, s store.Store, cursors *paging.Signer, scope string, q store.Query, r paging.Request, what string) (paging.Page[T], error) {
	after, err := cursors.After(scope, r.Cursor)
	if err != nil {
		return paging.Page[T]{}, err
	}
	q.Limit, q.After = r.Size(), after
	vs, next, err := QueryPage[T](ctx, s, q)
	if err != nil {
		return paging.Page[T]{}, fmt.Errorf("list %s: %w", what, err)
	}
	return paging.Page[T]{Items: vs, Next: cursors.Next(scope, next)}, nil
}

// Set applies one field of a partial update to a record: *field becomes *v
// when v is given; nil leaves the field as it is.
func Set[T any](field *T, v *T) {
	if v != nil {
		*field = *v
	}
}

// Update changes the record at k with fn, guarded by its version (see
// store.Update); indexes returns the item's index keys for the new record.
// fn may return extra operations for the same transaction.
func Update[T any](ctx context.Context, s store.Store, k keys.Key, indexes func(*T, *store.Item), fn func(*T) ([]store.Op, error)) (T, error) {
	var out T
	_, err := store.Update(ctx, s, k.PK, k.SK, func(old store.Item) (store.Item, []store.Op, error) {
		v, err := Decode[T](old)
		if err != nil {
			return store.Item{}, nil, err
		}
		extra, err := fn(&v)
		if err != nil {
			return store.Item{}, nil, err
		}
		it := Item(k, v, old.Version+1)
		if indexes != nil {
			indexes(&v, &it)
		}
		out = v
		return it, extra, nil
	})
	return out, err
}
