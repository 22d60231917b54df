// Package commentshttp is the comments family's HTTP layer: the same ten
// operations on a space's content and on a change request, their bodies,
// parameters and answers (the views of comments and replies, with their
// URLs), on the service of package comments (which knows no HTTP).
package commentshttp

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"unicode"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/comments"
	"github.com/galleydocs/galley/shared/document"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/paging"
)

// CommentBody is a body as sent: {markdown}, or {} for an empty body.
type CommentBody struct {
	Markdown *string `json:"markdown,omitempty" maxLength:"20000" doc:"The content as markdown"`
}

func (b *CommentBody) text() *string {
	if b == nil || b.Markdown == nil {
		return nil
	}
	md := *b.Markdown
	return &md
}

// CommentBodyUpdate is a body as sent to replace one: CommentBody, or
// the body as the GET answer shows it ({document}, read only) sent back.
type CommentBodyUpdate struct {
	CommentBody
	Document *document.JSONDocument `json:"document,omitempty" readOnly:"true" doc:"Read only (Galley takes bodies as markdown): accepted when it is the body's own, as the GET answer shows it, which then stays as it is"`
}

// change is the body's part of a change: set it (to nil: empty), or,
// sent back as a document tree, keep it.
func (b *CommentBodyUpdate) change() (set bool, text *string, doc *document.JSONDocument) {
	if b == nil {
		return false, nil, nil
	}
	if b.Markdown == nil && b.Document != nil {
		return true, nil, b.Document
	}
	return true, b.text(), nil
}

// CreateCommentBody is the body of POST .../comments.
type CreateCommentBody struct {
	Node ids.ID      `json:"node,omitempty" doc:"The node of the page the comment is attached to (needs page)"`
	Page ids.ID      `json:"page,omitempty" doc:"The page the comment is about, in the current revision"`
	Body CommentBody `json:"body"`
}

// CreateReplyBody is the body of POST .../comments/{commentId}/replies.
type CreateReplyBody struct {
	Body CommentBody `json:"body"`
}

// UpdateCommentBody is the body of PUT .../comments/{commentId}.
type UpdateCommentBody struct {
	Resolved         *bool              `json:"resolved,omitempty" doc:"true resolves the comment, false reopens it"`
	Body             *CommentBodyUpdate `json:"body,omitempty" doc:"Replaces the body (its author or a space admin)"`
	AddedReactions   []string           `json:"addedReactions,omitempty" nullable:"false" maxItems:"20" doc:"Emojis the caller reacts with"`
	RemovedReactions []string           `json:"removedReactions,omitempty" nullable:"false" maxItems:"20" doc:"Emojis the caller no longer reacts with"`
}

// UpdateReplyBody is the body of PUT .../replies/{commentReplyId}.
type UpdateReplyBody struct {
	Body             *CommentBodyUpdate `json:"body,omitempty" doc:"Replaces the body (its author or a space admin)"`
	AddedReactions   []string           `json:"addedReactions,omitempty" nullable:"false" maxItems:"20" doc:"Emojis the caller reacts with"`
	RemovedReactions []string           `json:"removedReactions,omitempty" nullable:"false" maxItems:"20" doc:"Emojis the caller no longer reacts with"`
}

// emojis checks reactions as sent: 1 to 50 characters, no spaces.
func emojis(field string, list []string) error {
	for i, e := range list {
		n := 0
		for _, r := range e {
			if unicode.IsSpace(r) || unicode.IsControl(r) {
				return apperr.Field(field+"["+strconv.Itoa(i)+"]", "an emoji has no spaces")
			}
			n++
		}
		if n < 1 || n > 50 {
			return apperr.Field(field+"["+strconv.Itoa(i)+"]", "an emoji is 1 to 50 characters")
		}
	}
	return nil
}

// The parts of the operations' inputs, shared by the operations on a
// space's content and on a change request: huma reads parameters through
// embedded structs of exported types.

// SpacePath locates a space's content thread.
type SpacePath struct {
	SpaceID string `path:"spaceId" maxLength:"64"`
}

func (p SpacePath) where() comments.Where { return comments.Where{Space: p.SpaceID} }

// ChangeRequestPath locates a change request's thread.
type ChangeRequestPath struct {
	SpaceID         string `path:"spaceId" maxLength:"64"`
	ChangeRequestID string `path:"changeRequestId" maxLength:"64" doc:"The change request's id or its number in the space"`
}

func (p ChangeRequestPath) where() comments.Where {
	return comments.Where{Space: p.SpaceID, ChangeRequest: p.ChangeRequestID}
}

// CommentPath names a comment of a thread.
type CommentPath struct {
	CommentID string `path:"commentId" maxLength:"64"`
}

func (p CommentPath) comment() string { return p.CommentID }

// ReplyPath names a reply to a comment.
type ReplyPath struct {
	CommentID      string `path:"commentId" maxLength:"64"`
	CommentReplyID string `path:"commentReplyId" maxLength:"64"`
}

func (p ReplyPath) comment() string { return p.CommentID }
func (p ReplyPath) reply() string   { return p.CommentReplyID }

// FormatQuery selects the form of bodies in an answer.
type FormatQuery struct {
	Format string `query:"format" enum:"document,markdown" doc:"The form of bodies (default document)"`
}

func (q FormatQuery) format() string { return q.Format }

// ListQuery are the parameters of a comments list.
type ListQuery struct {
	httpapi.ListParams
	Order             string   `query:"order" enum:"asc,desc" doc:"By posting time (default desc: newest first)"`
	Status            string   `query:"status" enum:"all,open,resolved" doc:"Only comments of this status (default all)"`
	Format            string   `query:"format" enum:"document,markdown" doc:"The form of bodies (default document)"`
	CommentTargetPage string   `query:"targetPage" maxLength:"64" doc:"Only comments on this page"`
	Authors           []string `query:"authors,explode" maxItems:"50" doc:"Only comments posted by these users (repeated, or separated by commas)"`
}

func (q ListQuery) list() ListQuery { return q }

// RepliesQuery are the parameters of a replies list.
type RepliesQuery struct {
	httpapi.ListParams
	FormatQuery
}

func (q RepliesQuery) list() RepliesQuery { return q }

// CreateInput is what posting a comment reads besides its path.
type CreateInput struct {
	FormatQuery
	Body CreateCommentBody
}

func (p CreateInput) create() CreateCommentBody { return p.Body }

// UpdateInput is what updating a comment reads besides its path.
type UpdateInput struct {
	FormatQuery
	Body *UpdateCommentBody
}

func (p UpdateInput) update() UpdateCommentBody {
	if p.Body == nil {
		return UpdateCommentBody{}
	}
	return *p.Body
}

// CreateReplyInput is what posting a reply reads besides its path.
type CreateReplyInput struct {
	FormatQuery
	Body CreateReplyBody
}

func (p CreateReplyInput) create() CreateReplyBody { return p.Body }

// UpdateReplyInput is what updating a reply reads besides its path.
type UpdateReplyInput struct {
	FormatQuery
	Body *UpdateReplyBody
}

func (p UpdateReplyInput) update() UpdateReplyBody {
	if p.Body == nil {
		return UpdateReplyBody{}
	}
	return *p.Body
}

// The inputs of each operation, on a space and on a change request.
type (
	spaceList struct {
		SpacePath
		ListQuery
	}
	crList struct {
		ChangeRequestPath
		ListQuery
	}
	spaceCreate struct {
		SpacePath
		CreateInput
	}
	crCreate struct {
		ChangeRequestPath
		CreateInput
	}
	spaceGet struct {
		SpacePath
		CommentPath
		FormatQuery
	}
	crGet struct {
		ChangeRequestPath
		CommentPath
		FormatQuery
	}
	spaceUpdate struct {
		SpacePath
		CommentPath
		UpdateInput
	}
	crUpdate struct {
		ChangeRequestPath
		CommentPath
		UpdateInput
	}
	spaceDelete struct {
		SpacePath
		CommentPath
	}
	crDelete struct {
		ChangeRequestPath
		CommentPath
	}
	spaceReplies struct {
		SpacePath
		CommentPath
		RepliesQuery
	}
	crReplies struct {
		ChangeRequestPath
		CommentPath
		RepliesQuery
	}
	spaceCreateReply struct {
		SpacePath
		CommentPath
		CreateReplyInput
	}
	crCreateReply struct {
		ChangeRequestPath
		CommentPath
		CreateReplyInput
	}
	spaceGetReply struct {
		SpacePath
		ReplyPath
		FormatQuery
	}
	crGetReply struct {
		ChangeRequestPath
		ReplyPath
		FormatQuery
	}
	spaceUpdateReply struct {
		SpacePath
		ReplyPath
		UpdateReplyInput
	}
	crUpdateReply struct {
		ChangeRequestPath
		ReplyPath
		UpdateReplyInput
	}
	spaceDeleteReply struct {
		SpacePath
		ReplyPath
	}
	crDeleteReply struct {
		ChangeRequestPath
		ReplyPath
	}
)

type located interface{ where() comments.Where }

// same is the identity: the lists' items are rendered before they are
// listed (a rendering may fail).
func same[T any](v T) T { return v }

type (
	commentOut  = httpapi.Out[Comment]
	commentsOut = httpapi.Out[httpapi.List[Comment]]
	replyOut    = httpapi.Out[CommentReply]
	repliesOut  = httpapi.Out[httpapi.List[CommentReply]]
)

// answer is httpapi.Answer for the service's comments and replies: the
// record rendered by view ((*renderer).comment or reply) for its thread,
// in format, or the service's error.
func answer[T, V any](ctx context.Context, s *comments.Service, format string, view func(*renderer, T) (V, error)) func(*comments.Thread, T, error) (*httpapi.Out[V], error) {
	return func(t *comments.Thread, x T, err error) (*httpapi.Out[V], error) {
		if err != nil {
			return nil, err
		}
		v, err := view(newRenderer(ctx, s, t, format), x)
		if err != nil {
			return nil, err
		}
		return &httpapi.Out[V]{Body: v}, nil
	}
}

// answerPage is answer for a page of a list: each item rendered (one
// renderer for the page, which reads each author once).
func answerPage[T, V any](ctx context.Context, s *comments.Service, format string, view func(*renderer, T) (V, error)) func(*comments.Thread, paging.Page[T], error) (*httpapi.Out[httpapi.List[V]], error) {
	return func(t *comments.Thread, p paging.Page[T], err error) (*httpapi.Out[httpapi.List[V]], error) {
		if err != nil {
			return nil, err
		}
		r := newRenderer(ctx, s, t, format)
		items := make([]V, 0, len(p.Items))
		for _, x := range p.Items {
			v, err := view(r, x)
			if err != nil {
				return nil, err
			}
			items = append(items, v)
		}
		return &httpapi.Out[httpapi.List[V]]{Body: httpapi.ListPage(paging.Page[V]{Items: items, Next: p.Next}, same[V])}, nil
	}
}

// reactions checks the emojis an update adds and removes.
func reactions(added, removed []string) error {
	if err := emojis("addedReactions", added); err != nil {
		return err
	}
	return emojis("removedReactions", removed)
}

func list[I interface {
	located
	list() ListQuery
}](s *comments.Service) func(context.Context, *I) (*commentsOut, error) {
	return func(ctx context.Context, in *I) (*commentsOut, error) {
		q := (*in).list()
		var authors []string
		for _, a := range q.Authors {
			for _, id := range strings.Split(a, ",") {
				if id = strings.TrimSpace(id); id != "" {
					authors = append(authors, id)
				}
			}
		}
		return answerPage(ctx, s, q.Format, (*renderer).comment)(s.List(ctx, (*in).where(),
			comments.Filter{Order: q.Order, Status: q.Status, Page: q.CommentTargetPage, Authors: authors}, q.Request()))
	}
}

func create[I interface {
	located
	format() string
	create() CreateCommentBody
}](s *comments.Service) func(context.Context, *I) (*commentOut, error) {
	return func(ctx context.Context, in *I) (*commentOut, error) {
		b := (*in).create()
		return answer(ctx, s, (*in).format(), (*renderer).comment)(s.Create(ctx, (*in).where(),
			comments.NewComment{Body: b.Body.text(), Page: string(b.Page), Node: string(b.Node)}))
	}
}

func get[I interface {
	located
	format() string
	comment() string
}](s *comments.Service) func(context.Context, *I) (*commentOut, error) {
	return func(ctx context.Context, in *I) (*commentOut, error) {
		return answer(ctx, s, (*in).format(), (*renderer).comment)(s.Get(ctx, (*in).where(), (*in).comment()))
	}
}

func update[I interface {
	located
	format() string
	comment() string
	update() UpdateCommentBody
}](s *comments.Service) func(context.Context, *I) (*commentOut, error) {
	return func(ctx context.Context, in *I) (*commentOut, error) {
		b := (*in).update()
		if err := reactions(b.AddedReactions, b.RemovedReactions); err != nil {
			return nil, err
		}
		ch := comments.Change{Resolved: b.Resolved, Edit: comments.Edit{Added: b.AddedReactions, Removed: b.RemovedReactions}}
		ch.SetBody, ch.Body, ch.Document = b.Body.change()
		return answer(ctx, s, (*in).format(), (*renderer).comment)(s.Update(ctx, (*in).where(), (*in).comment(), ch))
	}
}

func remove[I interface {
	located
	comment() string
}](s *comments.Service) func(context.Context, *I) (*httpapi.RemovedOut, error) {
	return func(ctx context.Context, in *I) (*httpapi.RemovedOut, error) {
		return httpapi.Removed(s.Delete(ctx, (*in).where(), (*in).comment()))
	}
}

func listReplies[I interface {
	located
	comment() string
	list() RepliesQuery
}](s *comments.Service) func(context.Context, *I) (*repliesOut, error) {
	return func(ctx context.Context, in *I) (*repliesOut, error) {
		q := (*in).list()
		return answerPage(ctx, s, q.Format, (*renderer).reply)(s.ListReplies(ctx, (*in).where(), (*in).comment(), q.Request()))
	}
}

func createReply[I interface {
	located
	format() string
	comment() string
	create() CreateReplyBody
}](s *comments.Service) func(context.Context, *I) (*replyOut, error) {
	return func(ctx context.Context, in *I) (*replyOut, error) {
		b := (*in).create()
		return answer(ctx, s, (*in).format(), (*renderer).reply)(s.CreateReply(ctx, (*in).where(), (*in).comment(), b.Body.text()))
	}
}

func getReply[I interface {
	located
	format() string
	comment() string
	reply() string
}](s *comments.Service) func(context.Context, *I) (*replyOut, error) {
	return func(ctx context.Context, in *I) (*replyOut, error) {
		return answer(ctx, s, (*in).format(), (*renderer).reply)(s.GetReply(ctx, (*in).where(), (*in).comment(), (*in).reply()))
	}
}

func updateReply[I interface {
	located
	format() string
	comment() string
	reply() string
	update() UpdateReplyBody
}](s *comments.Service) func(context.Context, *I) (*replyOut, error) {
	return func(ctx context.Context, in *I) (*replyOut, error) {
		b := (*in).update()
		if err := reactions(b.AddedReactions, b.RemovedReactions); err != nil {
			return nil, err
		}
		ch := comments.Edit{Added: b.AddedReactions, Removed: b.RemovedReactions}
		ch.SetBody, ch.Body, ch.Document = b.Body.change()
		return answer(ctx, s, (*in).format(), (*renderer).reply)(s.UpdateReply(ctx, (*in).where(), (*in).comment(), (*in).reply(), ch))
	}
}

func removeReply[I interface {
	located
	comment() string
	reply() string
}](s *comments.Service) func(context.Context, *I) (*httpapi.RemovedOut, error) {
	return func(ctx context.Context, in *I) (*httpapi.RemovedOut, error) {
		return httpapi.Removed(s.DeleteReply(ctx, (*in).where(), (*in).comment(), (*in).reply()))
	}
}

// Register adds the comments family's operations: the same ten on a
// space's content and on a change request.
func Register(api *httpapi.API, s *comments.Service) {
	const spaceTag, crTag = "Space comments", "Change request comments"
	sb := "/v1/spaces/{spaceId}/comments"
	cb := "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments"
	op := func(id string, needs access.Permission, method, path, tag, summary string) httpapi.Op {
		// Posting a comment or a reply makes a new one each time: a retry
		// may carry an Idempotency-Key.
		o := httpapi.Op{ID: id, Needs: needs, Method: method, Path: path, Tag: tag, Summary: summary, Idempotent: method == http.MethodPost}
		if method == http.MethodDelete {
			o.Status = http.StatusResetContent
			o.Also = httpapi.NothingToRemove("comment")
			if strings.HasSuffix(path, "{commentReplyId}") {
				o.Also = httpapi.NothingToRemove("reply")
			}
		}
		return o
	}
	get1, post, put, del := http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete
	// What the service asks (comments.Service.thread, Thread.Owns): read
	// for reads, comment to post, resolve or react (editing a body also
	// takes its author or an admin), and to delete its author or an admin.
	read, comment, own := access.Role(access.ReadContent), access.Role(access.CommentContent), access.Role(access.AdminContent).OrAuthor()

	httpapi.Register(api, op("listCommentsInSpace", read, get1, sb, spaceTag, "List the comments on a space's content"), list[spaceList](s))
	httpapi.Register(api, op("postCommentInSpace", comment, post, sb, spaceTag, "Comment on a space's content"), create[spaceCreate](s))
	httpapi.Register(api, op("getCommentInSpace", read, get1, sb+"/{commentId}", spaceTag, "Get a comment"), get[spaceGet](s))
	httpapi.Register(api, op("updateCommentInSpace", comment, put, sb+"/{commentId}", spaceTag, "Resolve, reopen, edit or react to a comment"), update[spaceUpdate](s))
	httpapi.Register(api, op("deleteCommentInSpace", own, del, sb+"/{commentId}", spaceTag, "Delete a comment and its replies"), remove[spaceDelete](s))
	httpapi.Register(api, op("listCommentRepliesInSpace", read, get1, sb+"/{commentId}/replies", spaceTag, "List a comment's replies (oldest first)"), listReplies[spaceReplies](s))
	httpapi.Register(api, op("postCommentReplyInSpace", comment, post, sb+"/{commentId}/replies", spaceTag, "Reply to a comment"), createReply[spaceCreateReply](s))
	httpapi.Register(api, op("getCommentReplyInSpace", read, get1, sb+"/{commentId}/replies/{commentReplyId}", spaceTag, "Get a reply"), getReply[spaceGetReply](s))
	httpapi.Register(api, op("updateCommentReplyInSpace", comment, put, sb+"/{commentId}/replies/{commentReplyId}", spaceTag, "Edit or react to a reply"), updateReply[spaceUpdateReply](s))
	httpapi.Register(api, op("deleteCommentReplyInSpace", own, del, sb+"/{commentId}/replies/{commentReplyId}", spaceTag, "Delete a reply"), removeReply[spaceDeleteReply](s))

	httpapi.Register(api, op("listCommentsInChangeRequest", read, get1, cb, crTag, "List the comments of a change request"), list[crList](s))
	httpapi.Register(api, op("postCommentInChangeRequest", comment, post, cb, crTag, "Comment in a change request"), create[crCreate](s))
	httpapi.Register(api, op("getCommentInChangeRequest", read, get1, cb+"/{commentId}", crTag, "Get a comment"), get[crGet](s))
	httpapi.Register(api, op("updateCommentInChangeRequest", comment, put, cb+"/{commentId}", crTag, "Resolve, reopen, edit or react to a comment"), update[crUpdate](s))
	httpapi.Register(api, op("deleteCommentInChangeRequest", own, del, cb+"/{commentId}", crTag, "Delete a comment and its replies"), remove[crDelete](s))
	httpapi.Register(api, op("listCommentRepliesInChangeRequest", read, get1, cb+"/{commentId}/replies", crTag, "List a comment's replies (oldest first)"), listReplies[crReplies](s))
	httpapi.Register(api, op("postCommentReplyInChangeRequest", comment, post, cb+"/{commentId}/replies", crTag, "Reply to a comment"), createReply[crCreateReply](s))
	httpapi.Register(api, op("getCommentReplyInChangeRequest", read, get1, cb+"/{commentId}/replies/{commentReplyId}", crTag, "Get a reply"), getReply[crGetReply](s))
	httpapi.Register(api, op("updateCommentReplyInChangeRequest", comment, put, cb+"/{commentId}/replies/{commentReplyId}", crTag, "Edit or react to a reply"), updateReply[crUpdateReply](s))
	httpapi.Register(api, op("deleteCommentReplyInChangeRequest", own, del, cb+"/{commentId}/replies/{commentReplyId}", crTag, "Delete a reply"), removeReply[crDeleteReply](s))
	registerConversations(api, s, read, own)
}
