package comments

import (
	"context"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// commenter is the record that a user posted in a thread (a comment or a
// reply), kept for the thread's list of commenters: one per user, written
// with each post, never removed (they posted, even if what they posted
// was deleted since).
type commenterRecord struct {
	UserID string `json:"userId"`
}

// commenterOp records, in a post's transaction, that userID posted in the
// thread.
func commenterOp(thread, userID string) store.Op {
	return store.Put(records.Item(keys.Commenter(thread, userID), commenterRecord{UserID: userID}, 1), store.Always)
}

// Commenters reads a page of the users who posted comments or replies in a
// thread (read level), by user id, each with their membership of the
// space's organization: users no longer members are left out, so a page
// may hold fewer than limit. Posts made before commenters were recorded
// are not counted.
func (s *Service) Commenters(ctx context.Context, w Where, r paging.Request) (paging.Page[orgs.MemberWithUser], error) {
	t, err := s.thread(ctx, w, access.ReadContent)
	if err != nil {
		return paging.Page[orgs.MemberWithUser]{}, err
	}
	p, err := records.Page[commenterRecord](ctx, s.d.Store, s.d.Cursors, paging.Scope("commenters", t.Key()),
		store.Query{PK: t.Key(), SKPrefix: keys.CommenterPrefix}, r, "commenters")
	if err != nil {
		return paging.Page[orgs.MemberWithUser]{}, err
	}
	ids := make([]string, 0, len(p.Items))
	for _, c := range p.Items {
		ids = append(ids, c.UserID)
	}
	members, err := orgs.ReadMembers(ctx, s.d.Store, t.Space.OrgID, ids)
	if err != nil {
		return paging.Page[orgs.MemberWithUser]{}, err
	}
	out := make([]orgs.MemberWithUser, 0, len(members))
	for _, m := range members {
		u, err := s.User(ctx, m.UserID)
		if err != nil {
			return paging.Page[orgs.MemberWithUser]{}, err
		}
		out = append(out, orgs.MemberWithUser{Member: m, User: u})
	}
	return paging.Page[orgs.MemberWithUser]{Items: out, Next: p.Next}, nil
}

// Conversations read a page of a change request's conversations (read
// level): its comments, newest first, each with its replies (see
// docs/comments.md, "Conversations").
func (s *Service) Conversations(ctx context.Context, w Where, r paging.Request) (paging.Page[model.Comment], error) {
	if w.ChangeRequest == "" {
		return paging.Page[model.Comment]{}, apperr.NotFoundf("conversations are a change request's")
	}
	_, p, err := s.List(ctx, w, Filter{}, r)
	return p, err
}

// RenameConversation sets the title of a change request's conversation
// (its comment): its author or a space admin, at the comment level, as
// for editing its body. "" goes back to the title made from its body.
func (s *Service) RenameConversation(ctx context.Context, w Where, commentID, title string) (model.Comment, error) {
	if w.ChangeRequest == "" {
		return model.Comment{}, apperr.NotFoundf("conversations are a change request's")
	}
	t, err := s.commenter(ctx, w)
	if err != nil {
		return model.Comment{}, err
	}
	var out model.Comment
	err = store.Retry(ctx, func() error {
		c, v, err := s.read(ctx, t, commentID)
		if err != nil {
			return err
		}
		if !t.Owns(c.PostedBy) {
			return apperr.Forbiddenf("only its author or an admin of the space may rename a conversation")
		}
		out = c
		if c.Title == title {
			return nil
		}
		out.Title = title
		return s.d.Store.Write(ctx, store.PutIfVersion(commentItem(t.Key(), out, v+1), v))
	})
	return out, err
}

// DeleteConversation deletes a change request's conversation: its comment
// and the comment's replies (Delete); a conversation that is not there is
// NotFound.
func (s *Service) DeleteConversation(ctx context.Context, w Where, commentID string) error {
	if w.ChangeRequest == "" {
		return apperr.NotFoundf("conversations are a change request's")
	}
	removed, err := s.Delete(ctx, w, commentID)
	if err == nil && !removed {
		err = apperr.NotFoundf("conversation %s not found", commentID)
	}
	return err
}
