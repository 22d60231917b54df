package comments

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/document"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// NewComment is the input of Create.
type NewComment struct {
	// Body is markdown; nil is the empty body.
	Body *string
	// Page and Node are the target ("" for none); a node needs its page.
	Page, Node string
	// Review is the change request review the comment goes with ("" for
	// none).
	Review string
}

// Change is the input of Update: what is nil or empty is left as it is.
type Change struct {
	Resolved *bool
	Edit
}

// Edit changes a message (a comment or a reply), the input of
// UpdateReply: what is empty is left as it is.
type Edit struct {
	// SetBody replaces the body with Body (nil: the empty body).
	SetBody bool
	Body    *string
	// Document, with SetBody and no Body: the body sent back as the GET
	// answer shows it (read only): kept when it is the body's own,
	// refused otherwise (keptBody).
	Document *document.JSONDocument
	Added    []string
	Removed  []string
}

// apply makes e on a message posted by postedBy (what names it in a
// refusal) through its body, editedAt and reactions fields: only its author
// or a space admin may change its body.
func (e Edit) apply(t *Thread, what, postedBy string, body **string, editedAt **time.Time, reactions *[]model.Reaction, now time.Time) error {
	if e.SetBody {
		if !t.Owns(postedBy) {
			return apperr.Forbiddenf("only its author or an admin of the space may edit a %s", what)
		}
		if e.Document != nil {
			if err := keptBody(*body, e.Document); err != nil {
				return err
			}
		} else if !sameBody(*body, e.Body) {
			*body, *editedAt = e.Body, &now
		}
	}
	r, err := react(*reactions, t.UserID, now, e.Added, e.Removed)
	if err != nil {
		return err
	}
	*reactions = r
	return nil
}

// commenter resolves w for a caller who must be allowed to comment (a
// reader who may not is refused, a non-reader finds nothing).
func (s *Service) commenter(ctx context.Context, w Where) (*Thread, error) {
	t, err := s.thread(ctx, w, access.ReadContent)
	if err != nil {
		return nil, err
	}
	if !t.May(access.CommentContent) {
		return nil, apperr.Forbiddenf("your role does not allow commenting on the space (%s)", access.CommentContent)
	}
	return t, nil
}

// List orders and statuses.
const (
	OrderAsc  = "asc"
	OrderDesc = "desc"
	StatusAll = "all"
)

// Filter selects and orders the comments of a list.
type Filter struct {
	// Order is OrderDesc (newest first, the default) or OrderAsc.
	Order string
	// Status is StatusAll (the default), model.CommentOpen or
	// model.CommentResolved.
	Status string
	// Page keeps the comments targeting this page.
	Page string
	// Authors keeps the comments posted by one of these users.
	Authors []string
}

// maxExamined bounds the comments one list request reads while filtering
// in memory (authors, or status on a page's comments): a page may come
// back short, with a next token, rather than reading without end.
const maxExamined = 2000

// commentItem is a comment's item: in its thread by id, among the thread's
// comments of its status (GSI1) and, when it targets a page, among the
// thread's comments on that page (GSI2). Ids sort by posting time.
func commentItem(thread string, c model.Comment, version int64) store.Item {
	it := records.Item(keys.Comment(thread, c.ID), c, version)
	sk := keys.CommentByStatus(thread, c.Status, c.ID)
	it.GSI1PK, it.GSI1SK = sk.PK, sk.SK
	if c.Page != nil {
		pk := keys.CommentByPage(thread, c.Page.ID, c.ID)
		it.GSI2PK, it.GSI2SK = pk.PK, pk.SK
	}
	return it
}

// Create posts a comment (comment level). The open comments count of the
// space or change request changes in the same transaction.
func (s *Service) Create(ctx context.Context, w Where, in NewComment) (*Thread, model.Comment, error) {
	t, err := s.thread(ctx, w, access.CommentContent)
	if err != nil {
		return nil, model.Comment{}, err
	}
	if in.Node != "" && in.Page == "" {
		return nil, model.Comment{}, apperr.Field("node", "a node is in a page: give its page too")
	}
	now := s.d.Clock()
	c := model.Comment{ID: ids.New(now), SpaceID: t.Space.ID, PostedBy: t.UserID, PostedAt: now, Body: in.Body,
		Revision: t.Revision(), Node: in.Node, Status: model.CommentOpen, Review: in.Review}
	if t.CR != nil {
		c.ChangeRequestID = t.CR.ID
	}
	if in.Page != "" {
		_, ix, err := s.content.Repo.Load(ctx, t.Space.ID, c.Revision)
		if err != nil {
			return nil, model.Comment{}, err
		}
		t.tree, t.treeRev = ix, c.Revision
		p := ix.Page(in.Page)
		if p == nil {
			return nil, model.Comment{}, apperr.Field("page", "page %s not found in revision %s", in.Page, c.Revision)
		}
		c.Page = &model.CommentPage{ID: p.ID, Title: p.Title, Emoji: p.Emoji, Icon: p.Icon, Path: ix.Path(p.ID),
			Document: p.Document, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt}
	}
	err = store.Retry(ctx, func() error {
		ops, err := s.counterOps(ctx, t, +1)
		if err != nil {
			return err
		}
		return s.d.Store.Write(ctx, append([]store.Op{store.Put(commentItem(t.Key(), c, 1), store.IfNotExists), commenterOp(t.Key(), t.UserID)}, ops...)...)
	})
	if err != nil {
		return nil, model.Comment{}, err
	}
	return t, c, nil
}

// PostReviewComment posts the comment given with a change request's review
// (changerequests.ReviewCommenter): a comment in the request whose target
// names the review.
func (s *Service) PostReviewComment(ctx context.Context, spaceID, changeRequestID, reviewID, markdown string) (string, error) {
	if len([]rune(markdown)) > MaxBody {
		return "", apperr.Field("comment", "at most %d characters", MaxBody)
	}
	_, c, err := s.Create(ctx, Where{Space: spaceID, ChangeRequest: changeRequestID}, NewComment{Body: &markdown, Review: reviewID})
	return c.ID, err
}

// read reads a comment of t and its version.
func (s *Service) read(ctx context.Context, t *Thread, commentID string) (model.Comment, int64, error) {
	c, v, err := records.Get[model.Comment](ctx, s.d.Store, keys.Comment(t.Key(), commentID))
	if errors.Is(err, store.ErrNotFound) {
		return c, 0, apperr.NotFoundf("comment %s not found", commentID)
	}
	if err != nil {
		return c, 0, fmt.Errorf("read comment: %w", err)
	}
	return c, v, nil
}

// Get reads a comment (read level).
func (s *Service) Get(ctx context.Context, w Where, commentID string) (*Thread, model.Comment, error) {
	t, err := s.thread(ctx, w, access.ReadContent)
	if err != nil {
		return nil, model.Comment{}, err
	}
	c, _, err := s.read(ctx, t, commentID)
	return t, c, err
}

// List reads a page of a thread's comments (read level). Comments on one
// page, or of one status, are read from an index; other filters are
// applied while reading, so a page may hold fewer than limit comments.
func (s *Service) List(ctx context.Context, w Where, f Filter, r paging.Request) (*Thread, paging.Page[model.Comment], error) {
	t, err := s.thread(ctx, w, access.ReadContent)
	if err != nil {
		return nil, paging.Page[model.Comment]{}, err
	}
	if f.Order == "" {
		f.Order = OrderDesc
	}
	if f.Status == "" {
		f.Status = StatusAll
	}
	authors := slices.Clone(f.Authors)
	slices.Sort(authors)
	authors = slices.Compact(authors)
	scope := strings.Join([]string{"comments", t.Key(), f.Order, f.Status, f.Page, strings.Join(authors, ",")}, ":")
	after, err := s.d.Cursors.After(scope, r.Cursor)
	if err != nil {
		return nil, paging.Page[model.Comment]{}, err
	}
	q := store.Query{PK: t.Key(), SKPrefix: keys.CommentPrefix, Reverse: f.Order == OrderDesc, After: after}
	statusFiltered := f.Status != StatusAll
	switch {
	case f.Page != "":
		q = store.Query{Index: store.GSI2, PK: keys.CommentsOnPage(t.Key(), f.Page), Reverse: q.Reverse, After: after}
	case statusFiltered:
		q = store.Query{Index: store.GSI1, PK: keys.CommentsOfStatus(t.Key(), f.Status), Reverse: q.Reverse, After: after}
		statusFiltered = false
	}
	keep := func(c model.Comment) bool {
		return (!statusFiltered || c.Status == f.Status) && (len(authors) == 0 || slices.Contains(authors, c.PostedBy))
	}
	filtered := statusFiltered || len(authors) > 0
	cs, next, err := scan(ctx, s.d.Store, q, r.Size(), filtered, keep)
	if err != nil {
		return nil, paging.Page[model.Comment]{}, err
	}
	return t, paging.Page[model.Comment]{Items: cs, Next: s.d.Cursors.Next(scope, next)}, nil
}

// scan reads up to limit records of q that keep accepts, and the position
// to resume from when more may follow. Without filter it reads one page.
func scan[T any](ctx context.Context, st store.Store, q store.Query, limit int, filtered bool, keep func(T) bool) ([]T, *store.Key, error) {
	out := make([]T, 0, limit)
	examined := 0
	for {
		q.Limit = limit - len(out)
		if filtered {
			q.Limit = min(store.MaxQueryLimit, max(q.Limit, 100))
		}
		p, err := st.Query(ctx, q)
		if err != nil {
			return nil, nil, fmt.Errorf("list: %w", err)
		}
		for i, it := range p.Items {
			examined++
			v, err := records.Decode[T](it)
			if err != nil {
				return nil, nil, err
			}
			if !keep(v) {
				continue
			}
			out = append(out, v)
			if len(out) == limit {
				// No next page when nothing read but not returned matches
				// and nothing is left to read.
				more := p.Next != nil
				for _, rest := range p.Items[i+1:] {
					if more {
						break
					}
					r, err := records.Decode[T](rest)
					if err != nil {
						return nil, nil, err
					}
					more = keep(r)
				}
				if !more {
					return out, nil, nil
				}
				return out, position(it, q.Index), nil
			}
		}
		if p.Next == nil {
			return out, nil, nil
		}
		if examined >= maxExamined {
			return out, p.Next, nil
		}
		q.After = p.Next
	}
}

// position is where a query of index resumes after it.
func position(it store.Item, index store.Index) *store.Key {
	k := &store.Key{PK: it.PK, SK: it.SK}
	switch index {
	case store.GSI1:
		k.IPK, k.ISK = it.GSI1PK, it.GSI1SK
	case store.GSI2:
		k.IPK, k.ISK = it.GSI2PK, it.GSI2SK
	}
	return k
}

// Update changes a comment: its status and reactions (comment level), its
// body (its author or a space admin). Resolving and reopening change the
// open comments count in the same transaction.
func (s *Service) Update(ctx context.Context, w Where, commentID string, ch Change) (*Thread, model.Comment, error) {
	t, err := s.commenter(ctx, w)
	if err != nil {
		return nil, model.Comment{}, err
	}
	var out model.Comment
	err = store.Retry(ctx, func() error {
		c, v, err := s.read(ctx, t, commentID)
		if err != nil {
			return err
		}
		now := s.d.Clock()
		if err := ch.apply(t, "comment", c.PostedBy, &c.Body, &c.EditedAt, &c.Reactions, now); err != nil {
			return err
		}
		from := c.Status
		if ch.Resolved != nil {
			resolve(&c, *ch.Resolved, t.UserID, now)
		}
		ops, err := s.counterOps(ctx, t, openDelta(from, c.Status))
		if err != nil {
			return err
		}
		out = c
		return s.d.Store.Write(ctx, append([]store.Op{store.PutIfVersion(commentItem(t.Key(), c, v+1), v)}, ops...)...)
	})
	if err != nil {
		return nil, model.Comment{}, err
	}
	return t, out, nil
}

// resolve resolves or reopens c; resolving a resolved comment (or
// reopening an open one) changes nothing.
func resolve(c *model.Comment, resolved bool, userID string, now time.Time) {
	switch {
	case resolved && c.Status != model.CommentResolved:
		c.Status, c.ResolvedAt, c.ResolvedBy = model.CommentResolved, &now, userID
	case !resolved && c.Status != model.CommentOpen:
		c.Status, c.ResolvedAt, c.ResolvedBy = model.CommentOpen, nil, ""
	}
}

// sameBody compares two bodies (nil is the empty body).
// keptBody accepts a body sent as a document tree (read only: Galley
// takes bodies as markdown) when it is body's own, as a GET answer shows
// it; another one answers 400.
func keptBody(body *string, doc *document.JSONDocument) error {
	if body != nil && records.Same(document.ToDocument(*body, document.Resolver{}), doc) {
		return nil
	}
	return apperr.Field("body.document", "is read only: send the new body as markdown")
}

func sameBody(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// Delete removes a comment (its author or a space admin), then its
// replies. The open comments count changes with the comment.
func (s *Service) Delete(ctx context.Context, w Where, commentID string) (bool, error) {
	t, removed, err := s.remove(ctx, w, func(t *Thread) (bool, error) {
		c, v, err := s.read(ctx, t, commentID)
		if err != nil {
			return apperr.Is(err, apperr.NotFound), err
		}
		if !t.Owns(c.PostedBy) {
			return false, apperr.Forbiddenf("only its author or an admin of the space may delete a comment")
		}
		ops, err := s.counterOps(ctx, t, openDelta(c.Status, ""))
		if err != nil {
			return false, err
		}
		k := keys.Comment(t.Key(), c.ID)
		return false, s.d.Store.Write(ctx, append([]store.Op{store.DeleteIfVersion(k.PK, k.SK, v)}, ops...)...)
	})
	if err != nil || !removed {
		return false, err
	}
	return true, s.deleteReplies(ctx, t, commentID)
}

// remove runs del, a read and a guarded write, for a caller who may read
// w, again when the write meets a concurrent change; del reports missing
// when what it removes is not there (removed false, no error).
func (s *Service) remove(ctx context.Context, w Where, del func(t *Thread) (missing bool, err error)) (*Thread, bool, error) {
	t, err := s.thread(ctx, w, access.ReadContent)
	if err != nil {
		return nil, false, err
	}
	missing := false
	err = store.Retry(ctx, func() error {
		var err error
		if missing, err = del(t); missing {
			return nil
		}
		return err
	})
	return t, !missing && err == nil, err
}

// deleteReplies removes the replies of a deleted comment, a transaction
// of up to 100 at a time. No reply can be added meanwhile (adding one
// rewrites the comment, which is gone); replies left by an interruption
// are unreachable, as every read of a reply reads its comment first.
func (s *Service) deleteReplies(ctx context.Context, t *Thread, commentID string) error {
	for {
		p, err := s.d.Store.Query(ctx, store.Query{PK: t.Key(), SKPrefix: keys.ReplyPrefix(commentID), Limit: store.MaxTransactionOps})
		if err != nil {
			return fmt.Errorf("list replies: %w", err)
		}
		if len(p.Items) == 0 {
			return nil
		}
		ops := make([]store.Op, 0, len(p.Items))
		for _, it := range p.Items {
			ops = append(ops, store.Delete(it.PK, it.SK, store.Always))
		}
		if err := s.d.Store.Write(ctx, ops...); err != nil {
			return fmt.Errorf("delete replies: %w", err)
		}
	}
}
