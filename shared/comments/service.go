// Package comments is the comments family: discussions on a space's content
// and in its change requests. A comment may target a page (and a node of
// it); it gathers replies and emoji reactions, and is open or resolved.
//
// Decisions (docs/comments.md has them all):
//   - A thread is where comments live: a space's content, or one change
//     request of it. Each has its own partition; a comment is reached only
//     through its thread's paths (a change request's comment is not a
//     space comment).
//   - The space's `comments` counts the open comments on its content, a
//     change request's `comments` the open comments in it. Every write that
//     changes a count (create, resolve, reopen, delete) writes the comment
//     and the counting record in one transaction guarded by the counting
//     record's version, retried when another writer got there first: the
//     counts are exact under concurrent writers.
//   - Reading needs the read level on the space; posting, replying,
//     reacting, resolving and reopening the comment level; editing the
//     body of a comment or reply and deleting it are for its author (who
//     still has the comment level) and the space's admins.
//   - A target page must exist in the thread's current revision (the
//     space's head, or the change request's revision); the comment
//     remembers that revision and the page's body. target.page.outdated is
//     true once the thread's current revision no longer has the page, or
//     has another body for it.
//   - Bodies are markdown; `format` renders them as markdown or as the
//     content family's document tree (the default, as for pages).
package comments

import (
	"context"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/store"
)

// Limits of comments.
const (
	// MaxBody is the longest body, in characters.
	MaxBody = 20000
	// MaxEmojis is the most different emojis reacted to one comment or reply.
	MaxEmojis = 50
	// MaxReactions is the most reactions (emoji and user pairs) one comment
	// or reply keeps, so that its item stays far below the 400 KB limit.
	MaxReactions = 2000
)

// Service manages comments and replies.
type Service struct {
	d       *deps.Deps
	content *content.Service
	crs     ChangeRequests
}

// ChangeRequests is what comments ask of the change requests family
// (changerequests.Records): the request a comment is in, and its comment
// counter moved in the comment's transaction (the family owns the record).
type ChangeRequests interface {
	Record(ctx context.Context, spaceID, ref string) (model.ChangeRequest, int64, error)
	CountComments(cr model.ChangeRequest, version int64, delta int) (model.ChangeRequest, []store.Op)
}

// New returns the comments service, reading content through c.
func New(d *deps.Deps, c *content.Service, crs ChangeRequests) *Service {
	return &Service{d: d, content: c, crs: crs}
}

// Where names a thread from a request: a space's content, or one of its
// change requests by id or number.
type Where struct {
	Space         string
	ChangeRequest string
}

// Thread is a thread resolved for a caller.
type Thread struct {
	Space model.Space
	// CR is the change request of the thread, nil for the space's content.
	CR *model.ChangeRequest
	// Level is the caller's level on the space.
	Level  model.Role
	UserID string
	// tree is the tree of revision treeRev once read (the current one,
	// unless a write moved the head since).
	tree    *content.Index
	treeRev string
}

// Key is the thread's partition.
func (t *Thread) Key() string {
	if t.CR == nil {
		return keys.CommentThread(t.Space.ID, "")
	}
	return keys.CommentThread(t.Space.ID, t.CR.ID)
}

// Revision is the thread's current revision: the space's head, or the
// change request's revision.
func (t *Thread) Revision() string {
	if t.CR == nil {
		return t.Space.Revision
	}
	return t.CR.Revision
}

// May reports whether the caller may do op on the thread's content.
func (t *Thread) May(op access.OrgOp) bool { return access.Allowed(t.Level, op) }

// Owns reports whether the caller may edit or delete what author posted:
// its author while they may still comment, and the space's admins.
func (t *Thread) Owns(author string) bool {
	return t.May(access.AdminContent) || (author == t.UserID && t.May(access.CommentContent))
}

// Tree reads the tree of t's current revision, once per thread (again
// only if a write moved the revision since).
func (s *Service) Tree(ctx context.Context, t *Thread) (*content.Index, error) {
	if t.tree == nil || t.treeRev != t.Revision() {
		_, ix, err := s.content.Repo.Load(ctx, t.Space.ID, t.Revision())
		if err != nil {
			return nil, err
		}
		t.tree, t.treeRev = ix, t.Revision()
	}
	return t.tree, nil
}

// User reads a user the views of comments embed (a poster, a resolver, a
// reacting user); one that no longer exists is shown by id alone.
func (s *Service) User(ctx context.Context, userID string) (model.User, error) {
	return s.content.User(ctx, userID)
}

// thread resolves w for the caller, who must be allowed op on the space.
func (s *Service) thread(ctx context.Context, w Where, op access.OrgOp) (*Thread, error) {
	c, err := access.CallerFrom(ctx)
	if err != nil {
		return nil, err
	}
	sp, level, err := s.content.Space(ctx, w.Space, op)
	if err != nil {
		return nil, err
	}
	t := &Thread{Space: sp, Level: level, UserID: c.UserID}
	if w.ChangeRequest != "" {
		cr, _, err := s.crs.Record(ctx, w.Space, w.ChangeRequest)
		if err != nil {
			return nil, err
		}
		t.CR = &cr
	}
	return t, nil
}

// counterOps changes the open comments count of t's space or change request
// by delta, as operations guarded by the counting record's version (read
// now): the caller writes them with the comment.
func (s *Service) counterOps(ctx context.Context, t *Thread, delta int) ([]store.Op, error) {
	if delta == 0 {
		return nil, nil
	}
	if t.CR != nil {
		cr, v, err := s.crs.Record(ctx, t.Space.ID, t.CR.ID)
		if err != nil {
			return nil, err
		}
		cr, ops := s.crs.CountComments(cr, v, delta)
		*t.CR = cr
		return ops, nil
	}
	sp, v, err := spaces.ReadLive(ctx, s.d.Store, t.Space.ID)
	if err != nil {
		return nil, err
	}
	sp, op := spaces.Apply(sp, v, spaces.CountComments(delta))
	t.Space = sp
	return []store.Op{op}, nil
}

// openDelta is how a comment's change of status moves the open count.
func openDelta(from, to string) int {
	switch {
	case from == to:
		return 0
	case to == model.CommentOpen:
		return 1
	case from == model.CommentOpen:
		return -1
	}
	return 0
}
