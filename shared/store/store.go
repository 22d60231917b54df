// Package store is Galley's storage port: the few operations of a single-table
// key-value model (DynamoDB's, implemented on bbolt too) that every service uses.
//
// An Item is addressed by its primary key (PK, SK) and may be projected into
// two global secondary indexes by carrying GSI1PK/GSI1SK or GSI2PK/GSI2SK; an
// item without an index's partition key is absent from that index (a sparse
// index). The payload is opaque bytes (JSON written by the services).
//
// The store knows nothing of Galley's entities: which keys each entity uses is
// decided once, in package keys.
package store

import (
	"context"
	"errors"
	"fmt"
)

// Limits shared by every adapter, so that code working on the embedded store
// also works on DynamoDB.
const (
	// MaxItemBytes is the largest encoded item (keys, attributes and payload).
	// DynamoDB's limit is 400 KB; larger things belong in the blob store.
	MaxItemBytes = 400 * 1024
	// MaxTransactionOps is the most operations one Write may carry.
	MaxTransactionOps = 100
	// MaxTransactionBytes is the most bytes (items counted by Item.Size) one
	// Write may carry; DynamoDB's limit is 4 MB.
	MaxTransactionBytes = 4 * 1024 * 1024
	// MaxQueryLimit is the most items one Query may return.
	MaxQueryLimit = 1000
	// MaxBatchGetKeys is the most keys one BatchGet may read (DynamoDB's
	// BatchGetItem limit).
	MaxBatchGetKeys = 100
	// MaxPartitionKeyBytes and MaxSortKeyBytes bound a key's parts, in the
	// table and in its indexes (DynamoDB's limits).
	MaxPartitionKeyBytes = 2048
	MaxSortKeyBytes      = 1024
)

var (
	// ErrNotFound: no item has the key.
	ErrNotFound = errors.New("store: item not found")
	// ErrConflict: a condition of a Write did not hold; nothing was written.
	ErrConflict = errors.New("store: condition failed")
	// ErrInvalid: the request breaks a rule of the port (empty key, duplicate
	// key in one transaction, too many operations, item too large, bad cursor).
	ErrInvalid = errors.New("store: invalid request")
	// ErrInvalidKey (an ErrInvalid): a key the port cannot hold, empty, with
	// a NUL (the embedded store's separator) or too long. Keys are made of
	// ids, and ids of requests, so the HTTP layer answers it 400, where
	// other ErrInvalid errors are the code's fault (500).
	ErrInvalidKey = fmt.Errorf("%w: bad key", ErrInvalid)
	// ErrItemTooLarge (an ErrInvalid): an item over MaxItemBytes, or a
	// transaction over MaxTransactionBytes. Records grow with what requests
	// put in them, so the HTTP layer answers it 413.
	ErrItemTooLarge = fmt.Errorf("%w: too large", ErrInvalid)
	// ErrUnavailable: the store is throttling or failing for now (DynamoDB
	// answered throttling or a server error, or did not answer, through
	// every retry of the call). Whether a write that failed this way was
	// applied is unknown only when the connection failed after the request
	// was sent; every other case wrote nothing. The HTTP layer answers it
	// 503 with Retry-After; a job failing with it is retried by its queue.
	ErrUnavailable = errors.New("store: temporarily unavailable")
)

// Item is one row of the single table.
type Item struct {
	PK, SK         string
	GSI1PK, GSI1SK string
	GSI2PK, GSI2SK string
	// Version is written as given; conditions compare against it. Services
	// use it for optimistic concurrency (see Update).
	Version int64
	// Data is the payload, usually JSON.
	Data []byte
	// Expires, when set, is the time (Unix seconds) after which the store
	// may delete the item by itself: DynamoDB's TTL attribute (`TTL`,
	// template.yaml). It is written, never read back (reads leave it 0),
	// and the embedded store ignores it: the owner of such items sweeps
	// them locally (docs/audit.md).
	Expires int64
}

// Size is the item's size as the port counts it against MaxItemBytes.
func (it Item) Size() int {
	return len(it.PK) + len(it.SK) + len(it.GSI1PK) + len(it.GSI1SK) +
		len(it.GSI2PK) + len(it.GSI2SK) + len(it.Data) + 64
}

// Index names the table or one of its global secondary indexes.
type Index string

// The table and its indexes.
const (
	Table Index = ""
	GSI1  Index = "GSI1"
	GSI2  Index = "GSI2"
)

// OpKind is the kind of one write operation.
type OpKind int

// Operation kinds.
const (
	OpPut OpKind = iota + 1
	OpDelete
	// OpCheck writes nothing; it only makes its condition part of the transaction.
	OpCheck
)

// Cond is the condition an operation requires of the item currently stored
// under its key.
type Cond int

// Conditions.
const (
	Always      Cond = iota // no condition
	IfNotExists             // no item has the key
	IfExists                // an item has the key
	IfVersion               // an item has the key and its Version equals Op.Version
)

// Op is one operation of a Write.
type Op struct {
	Kind OpKind
	// Item is the item to put; for delete and check only PK and SK are read.
	Item    Item
	Cond    Cond
	Version int64 // compared when Cond is IfVersion
}

// Put returns an operation that stores it under cond.
func Put(it Item, cond Cond) Op { return Op{Kind: OpPut, Item: it, Cond: cond} }

// PutIfVersion returns an operation that replaces the item stored at version
// v with it (whose Version should be v+1).
func PutIfVersion(it Item, v int64) Op { return Op{Kind: OpPut, Item: it, Cond: IfVersion, Version: v} }

// Delete returns an operation that removes the item at pk, sk under cond.
func Delete(pk, sk string, cond Cond) Op {
	return Op{Kind: OpDelete, Item: Item{PK: pk, SK: sk}, Cond: cond}
}

// DeleteIfVersion returns an operation that removes the item at pk, sk if it is at version v.
func DeleteIfVersion(pk, sk string, v int64) Op {
	return Op{Kind: OpDelete, Item: Item{PK: pk, SK: sk}, Cond: IfVersion, Version: v}
}

// Check returns an operation that requires cond of the item at pk, sk.
func Check(pk, sk string, cond Cond, v int64) Op {
	return Op{Kind: OpCheck, Item: Item{PK: pk, SK: sk}, Cond: cond, Version: v}
}

// Key is a position in a query's results: the primary key of an item and,
// when the query reads an index, the item's keys in that index.
type Key struct {
	PK, SK   string
	IPK, ISK string
}

// Query reads the items of one partition of the table or of an index, in
// ascending (or, with Reverse, descending) order of sort key. Reads of the
// table are strongly consistent; reads of an index are eventually consistent
// on DynamoDB (an item written a moment ago may be missing or stale there),
// so services read an item itself by its key when they must see the latest.
type Query struct {
	Index Index
	PK    string
	// SKPrefix, when set, keeps only items whose sort key begins with it.
	SKPrefix string
	Reverse  bool
	// Limit is the most items to return, 1..MaxQueryLimit.
	Limit int
	// After, when set, resumes after that position (a Page's Next).
	After *Key
}

// ItemKey is the primary key of an item, for BatchGet.
type ItemKey struct {
	PK, SK string
}

// Page is the result of a Query.
type Page struct {
	Items []Item
	// Next is set if and only if more items follow.
	Next *Key
}

// Store is the storage port.
type Store interface {
	// Get returns the item at pk, sk or ErrNotFound.
	Get(ctx context.Context, pk, sk string) (Item, error)
	// Write applies every operation or none. It returns ErrConflict when a
	// condition fails, ErrInvalid when the request breaks a rule of the port,
	// ErrUnavailable when the store is throttling or failing (never
	// ErrConflict for that: a throttled write is not a failed condition).
	// No two operations may name the same key.
	Write(ctx context.Context, ops ...Op) error
	// Query returns one page of a partition.
	Query(ctx context.Context, q Query) (Page, error)
	// BatchGet reads the items at up to MaxBatchGetKeys distinct keys in one
	// request, each read strongly consistent (like Get), but not as one
	// snapshot: it is several Gets saved round trips, not a transaction.
	// The result has one entry per key, in the order of keys; a key with
	// no item gives the zero Item (its PK is empty).
	BatchGet(ctx context.Context, keys []ItemKey) ([]Item, error)
}
