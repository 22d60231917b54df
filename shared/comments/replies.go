package comments

import (
	"context"
	"errors"
	"fmt"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

func replyItem(thread string, r model.CommentReply, version int64) store.Item {
	return records.Item(keys.CommentReply(thread, r.CommentID, r.ID), r, version)
}

// readReply reads a reply of t and its version.
func (s *Service) readReply(ctx context.Context, t *Thread, commentID, replyID string) (model.CommentReply, int64, error) {
	r, v, err := records.Get[model.CommentReply](ctx, s.d.Store, keys.CommentReply(t.Key(), commentID, replyID))
	if errors.Is(err, store.ErrNotFound) {
		return r, 0, apperr.NotFoundf("reply %s not found", replyID)
	}
	if err != nil {
		return r, 0, fmt.Errorf("read reply: %w", err)
	}
	return r, v, nil
}

// CreateReply replies to a comment (comment level); the comment's replies
// count changes in the same transaction.
func (s *Service) CreateReply(ctx context.Context, w Where, commentID string, body *string) (*Thread, model.CommentReply, error) {
	t, err := s.thread(ctx, w, access.CommentContent)
	if err != nil {
		return nil, model.CommentReply{}, err
	}
	now := s.d.Clock()
	r := model.CommentReply{ID: ids.New(now), CommentID: commentID, SpaceID: t.Space.ID, PostedBy: t.UserID, PostedAt: now, Body: body}
	if t.CR != nil {
		r.ChangeRequestID = t.CR.ID
	}
	err = store.Retry(ctx, func() error {
		c, v, err := s.read(ctx, t, commentID)
		if err != nil {
			return err
		}
		c.Replies++
		c.AddReplier(r.PostedBy, r.PostedAt)
		return s.d.Store.Write(ctx, store.Put(replyItem(t.Key(), r, 1), store.IfNotExists),
			store.PutIfVersion(commentItem(t.Key(), c, v+1), v), commenterOp(t.Key(), t.UserID))
	})
	if err != nil {
		return nil, model.CommentReply{}, err
	}
	return t, r, nil
}

// GetReply reads a reply (read level).
func (s *Service) GetReply(ctx context.Context, w Where, commentID, replyID string) (*Thread, model.CommentReply, error) {
	t, err := s.thread(ctx, w, access.ReadContent)
	if err != nil {
		return nil, model.CommentReply{}, err
	}
	if _, _, err := s.read(ctx, t, commentID); err != nil {
		return nil, model.CommentReply{}, err
	}
	r, _, err := s.readReply(ctx, t, commentID, replyID)
	return t, r, err
}

// ListReplies reads a page of a comment's replies in posting order (read
// level).
func (s *Service) ListReplies(ctx context.Context, w Where, commentID string, r paging.Request) (*Thread, paging.Page[model.CommentReply], error) {
	t, err := s.thread(ctx, w, access.ReadContent)
	if err != nil {
		return nil, paging.Page[model.CommentReply]{}, err
	}
	if _, _, err := s.read(ctx, t, commentID); err != nil {
		return nil, paging.Page[model.CommentReply]{}, err
	}
	scope := "comment-replies:" + t.Key() + ":" + commentID
	after, err := s.d.Cursors.After(scope, r.Cursor)
	if err != nil {
		return nil, paging.Page[model.CommentReply]{}, err
	}
	q := store.Query{PK: t.Key(), SKPrefix: keys.ReplyPrefix(commentID), After: after}
	rs, next, err := scan(ctx, s.d.Store, q, r.Size(), false, func(model.CommentReply) bool { return true })
	if err != nil {
		return nil, paging.Page[model.CommentReply]{}, err
	}
	return t, paging.Page[model.CommentReply]{Items: rs, Next: s.d.Cursors.Next(scope, next)}, nil
}

// UpdateReply changes a reply: its reactions (comment level), its body
// (its author or a space admin).
func (s *Service) UpdateReply(ctx context.Context, w Where, commentID, replyID string, ch Edit) (*Thread, model.CommentReply, error) {
	t, err := s.commenter(ctx, w)
	if err != nil {
		return nil, model.CommentReply{}, err
	}
	if _, _, err := s.read(ctx, t, commentID); err != nil {
		return nil, model.CommentReply{}, err
	}
	var out model.CommentReply
	err = store.Retry(ctx, func() error {
		r, v, err := s.readReply(ctx, t, commentID, replyID)
		if err != nil {
			return err
		}
		if err := ch.apply(t, "reply", r.PostedBy, &r.Body, &r.EditedAt, &r.Reactions, s.d.Clock()); err != nil {
			return err
		}
		out = r
		return s.d.Store.Write(ctx, store.PutIfVersion(replyItem(t.Key(), r, v+1), v))
	})
	if err != nil {
		return nil, model.CommentReply{}, err
	}
	return t, out, nil
}

// DeleteReply removes a reply (its author or a space admin); the comment's
// replies count changes in the same transaction.
func (s *Service) DeleteReply(ctx context.Context, w Where, commentID, replyID string) (bool, error) {
	_, removed, err := s.remove(ctx, w, func(t *Thread) (bool, error) {
		c, cv, err := s.read(ctx, t, commentID)
		if err != nil {
			return apperr.Is(err, apperr.NotFound), err
		}
		r, rv, err := s.readReply(ctx, t, commentID, replyID)
		if err != nil {
			return apperr.Is(err, apperr.NotFound), err
		}
		if !t.Owns(r.PostedBy) {
			return false, apperr.Forbiddenf("only its author or an admin of the space may delete a reply")
		}
		c.Replies = max(0, c.Replies-1)
		c.RemoveReplier(r.PostedBy)
		k := keys.CommentReply(t.Key(), commentID, replyID)
		return false, s.d.Store.Write(ctx, store.DeleteIfVersion(k.PK, k.SK, rv), store.PutIfVersion(commentItem(t.Key(), c, cv+1), cv))
	})
	return removed, err
}
