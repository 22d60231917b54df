// Package tree keeps the arrangement of an organization's content: which
// collection holds each space and collection, and in which order.
//
// Every space and collection inside a parent (a collection, or the top
// level of the organization) has a position there: an order key (package
// order) recorded three ways, all written in one transaction:
//   - in its own record (Position, and for collections Path: the positions
//     from the top, so that sorting by Path lists a whole tree in order);
//   - in the record's index keys, so that lists come back in order from
//     one query;
//   - as an entry in the parent's partition (keys.ChildEntry), written "if
//     not exists": positions are unique among siblings, and neighbours and
//     children are read consistently from the table, not from an index.
//
// A collection's record counts its children; attaching or detaching a child
// rewrites it under a version guard, so that changes which depend on the
// set of children (deleting, moving or transferring a collection) conflict
// with concurrent insertions instead of missing them.
package tree

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/order"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// MaxPathBytes bounds a collection's path (an index sort key; DynamoDB
// allows 1024 bytes). It limits how deep collections nest: about a hundred
// levels when positions are short.
const MaxPathBytes = 1000

// Pointer names a space or a collection.
type Pointer struct {
	Kind string // model.KindSpace or model.KindCollection
	ID   string
}

// Position is where to put an item among the children of its parent: just
// before or just after a sibling, or (zero value) at the end.
type Position struct {
	Before, After *Pointer
}

// Tx gathers one change to the tree: the collections it reads (each once,
// each written or checked under a guard on the version read) and its other
// operations, committed in one transaction.
type Tx struct {
	st    store.Store
	cols  map[string]*colState
	order []string
	ops   []store.Op
}

type colState struct {
	c       model.Collection
	version int64
	write   bool
	check   bool
	deleted bool
}

// Run builds a change with fn and commits it, building it again from fresh
// reads when a concurrent change got in first.
func Run(ctx context.Context, st store.Store, fn func(*Tx) error) error {
	var fnErr error // fn's own errors end Run as they are, never retried
	err := store.Retry(ctx, func() error {
		tx := &Tx{st: st, cols: map[string]*colState{}}
		if fnErr = fn(tx); fnErr != nil {
			return nil
		}
		return tx.commit(ctx)
	})
	switch {
	case fnErr != nil:
		return fnErr
	case errors.Is(err, store.ErrContention):
		return apperr.Conflictf("the content changed while this change was made; try again")
	}
	return err
}

// Collection returns the collection id as this change sees it (read once).
// A missing collection is NotFound.
func (tx *Tx) Collection(ctx context.Context, id string) (*model.Collection, error) {
	if s, ok := tx.cols[id]; ok {
		if s.deleted {
			return nil, apperr.NotFoundf("collection %s not found", id)
		}
		return &s.c, nil
	}
	c, v, err := records.Get[model.Collection](ctx, tx.st, keys.Collection(id))
	if errors.Is(err, store.ErrNotFound) {
		return nil, apperr.NotFoundf("collection %s not found", id)
	}
	if err != nil {
		return nil, fmt.Errorf("read collection: %w", err)
	}
	tx.cols[id] = &colState{c: c, version: v}
	tx.order = append(tx.order, id)
	return &tx.cols[id].c, nil
}

// AncestorsIn is the Ancestors of content placed in parentID ("" the top
// level): the parent's own and the parent, as this change reads them.
func (tx *Tx) AncestorsIn(ctx context.Context, parentID string) ([]string, error) {
	if parentID == "" {
		return nil, nil
	}
	p, err := tx.Collection(ctx, parentID)
	if err != nil {
		return nil, err
	}
	return Below(*p), nil
}

// Below is the Ancestors of content directly inside c.
func Below(c model.Collection) []string {
	return append(append(make([]string, 0, len(c.Ancestors)+1), c.Ancestors...), c.ID)
}

// Rebase is the Ancestors of content below root after root moved: the
// part of old from root down, under root's new ancestors. A list that does
// not name root (made before lists were kept) is left as it is: it is a
// hint only.
func Rebase(old []string, root model.Collection) []string {
	i := slices.Index(old, root.ID)
	if i < 0 {
		return old
	}
	return append(append(make([]string, 0, len(root.Ancestors)+len(old)-i), root.Ancestors...), old[i:]...)
}

// Version is the version of collection id as read by this change.
func (tx *Tx) Version(id string) int64 { return tx.cols[id].version }

// New adds a collection that this change creates.
func (tx *Tx) New(c model.Collection) {
	tx.cols[c.ID] = &colState{c: c, write: true}
	tx.order = append(tx.order, c.ID)
}

// Write marks a collection read by this change to be written.
func (tx *Tx) Write(id string) { tx.cols[id].write = true }

// Check makes the change conditional on collection id being unchanged.
func (tx *Tx) Check(id string) { tx.cols[id].check = true }

// Remove deletes a collection read by this change.
func (tx *Tx) Remove(id string) { tx.cols[id].deleted = true }

// Add appends other operations to the change.
func (tx *Tx) Add(ops ...store.Op) { tx.ops = append(tx.ops, ops...) }

// Size is the number of operations the change would commit.
func (tx *Tx) Size() int { return len(tx.build()) }

func (tx *Tx) build() []store.Op {
	var ops []store.Op
	for _, id := range tx.order {
		s := tx.cols[id]
		k := keys.Collection(id)
		switch {
		case s.deleted:
			ops = append(ops, store.DeleteIfVersion(k.PK, k.SK, s.version))
		case s.write && s.version == 0:
			ops = append(ops, store.Put(CollectionItem(s.c, 1), store.IfNotExists))
		case s.write:
			ops = append(ops, store.PutIfVersion(CollectionItem(s.c, s.version+1), s.version))
		case s.check:
			ops = append(ops, store.Check(k.PK, k.SK, store.IfVersion, s.version))
		}
	}
	return append(ops, tx.ops...)
}

func (tx *Tx) commit(ctx context.Context) error {
	ops := tx.build()
	if len(ops) == 0 {
		return nil
	}
	if len(ops) > store.MaxTransactionOps {
		return apperr.Conflictf("this change would rewrite %d items; at most %d change in one step (move or transfer a smaller part of the tree)",
			len(ops), store.MaxTransactionOps)
	}
	return tx.st.Write(ctx, ops...)
}

// CollectionItem is a collection's item: in its organization's list by
// path, and among its siblings by position.
func CollectionItem(c model.Collection, version int64) store.Item {
	it := records.Item(keys.Collection(c.ID), c, version)
	g1 := keys.CollectionInOrg(c.OrgID, c.Path)
	g2 := keys.CollectionAmongSiblings(c.OrgID, c.Parent, c.Position)
	it.GSI1PK, it.GSI1SK, it.GSI2PK, it.GSI2SK = g1.PK, g1.SK, g2.PK, g2.SK
	return it
}

// Attach puts child's entry at position key in parent ("" the top level)
// and counts it in the parent collection.
func (tx *Tx) Attach(ctx context.Context, orgID, parentID, key string, child Pointer) error {
	tx.Add(store.Put(records.Item(keys.ChildEntry(orgID, parentID, key), model.Child{Kind: child.Kind, ID: child.ID}, 1), store.IfNotExists))
	return tx.count(ctx, parentID, 1)
}

// Detach removes the entry at position key of parent and uncounts it.
func (tx *Tx) Detach(ctx context.Context, orgID, parentID, key string) error {
	k := keys.ChildEntry(orgID, parentID, key)
	tx.Add(store.Delete(k.PK, k.SK, store.IfExists))
	return tx.count(ctx, parentID, -1)
}

func (tx *Tx) count(ctx context.Context, parentID string, delta int) error {
	if parentID == "" {
		return nil
	}
	p, err := tx.Collection(ctx, parentID)
	if err != nil {
		return err
	}
	p.Children = max(0, p.Children+delta)
	tx.Write(parentID)
	return nil
}

// Gap is where a new position goes: strictly between Lo and Hi ("" for no
// bound). Key is a position in the gap.
type Gap struct {
	Lo, Hi, Key string
}

// Holds reports whether position key already lies in the gap: placing its
// item there would change nothing.
func (g Gap) Holds(key string) bool {
	return key != "" && (g.Lo == "" || key > g.Lo) && (g.Hi == "" || key < g.Hi)
}

// Place finds the gap for self at pos among the children of parent ("" the
// top level of orgID), reading the parent's entries consistently. self's
// own entry is ignored, so that moving next to a neighbour works. A
// neighbour that is not a child of parent is a 400 naming the position field.
func Place(ctx context.Context, st store.Store, orgID, parentID string, self Pointer, pos Position) (Gap, error) {
	part := keys.ChildrenPartition(orgID, parentID)
	neighbour := func(from string, reverse bool) (string, error) {
		q := store.Query{PK: part, SKPrefix: keys.ChildPrefix, Reverse: reverse, Limit: 2}
		if from != "" {
			q.After = &store.Key{PK: part, SK: keys.ChildPrefix + from}
		}
		p, err := st.Query(ctx, q)
		if err != nil {
			return "", fmt.Errorf("read positions: %w", err)
		}
		for _, it := range p.Items {
			ch, err := records.Decode[model.Child](it)
			if err != nil {
				return "", err
			}
			if ch.ID != self.ID {
				return strings.TrimPrefix(it.SK, keys.ChildPrefix), nil
			}
		}
		return "", nil
	}
	var g Gap
	var err error
	switch {
	case pos.Before != nil:
		g.Hi, err = siblingPosition(ctx, st, orgID, parentID, self, *pos.Before, "position.before")
		if err == nil {
			g.Lo, err = neighbour(g.Hi, true)
		}
	case pos.After != nil:
		g.Lo, err = siblingPosition(ctx, st, orgID, parentID, self, *pos.After, "position.after")
		if err == nil {
			g.Hi, err = neighbour(g.Lo, false)
		}
	default:
		g.Lo, err = neighbour("", true)
	}
	if err != nil {
		return Gap{}, err
	}
	g.Key, err = order.Between(g.Lo, g.Hi)
	if err != nil {
		return Gap{}, fmt.Errorf("position between %q and %q: %w", g.Lo, g.Hi, err)
	}
	return g, nil
}

// siblingPosition is the position of p, which must be a live child of
// parent other than self.
func siblingPosition(ctx context.Context, st store.Store, orgID, parentID string, self, p Pointer, field string) (string, error) {
	if p.Kind == self.Kind && p.ID == self.ID {
		return "", apperr.Field(field, "an item cannot be placed next to itself")
	}
	var org, parent, position string
	switch p.Kind {
	case model.KindSpace:
		sp, _, err := records.Get[model.Space](ctx, st, keys.Space(p.ID))
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return "", fmt.Errorf("read space: %w", err)
		}
		if err == nil && sp.DeletedAt == nil {
			org, parent, position = sp.OrgID, sp.Parent, sp.Position
		}
	case model.KindCollection:
		c, _, err := records.Get[model.Collection](ctx, st, keys.Collection(p.ID))
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return "", fmt.Errorf("read collection: %w", err)
		}
		if err == nil {
			org, parent, position = c.OrgID, c.Parent, c.Position
		}
	}
	if org != orgID || parent != parentID || position == "" {
		return "", apperr.Field(field, "%s %s is not in the destination", p.Kind, p.ID)
	}
	return position, nil
}

// Children reads the entries of a collection's children, in order,
// consistently.
func Children(ctx context.Context, st store.Store, orgID, collectionID string) ([]model.Child, error) {
	items, err := store.QueryAll(ctx, st, store.Query{PK: keys.ChildrenPartition(orgID, collectionID), SKPrefix: keys.ChildPrefix})
	if err != nil {
		return nil, fmt.Errorf("read children: %w", err)
	}
	return records.DecodeAll[model.Child](items)
}

// JoinPath is the path of a collection at position under a parent whose
// path is parentPath ("" at the top level). The separator sorts before
// every digit of a position, so a collection's descendants come right after
// it and before its next sibling.
func JoinPath(parentPath, position string) string {
	if parentPath == "" {
		return position
	}
	return parentPath + "/" + position
}
