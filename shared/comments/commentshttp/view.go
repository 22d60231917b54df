package commentshttp

import (
	"context"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/comments"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/document"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/users/usershttp"
)

// Comment is the API shape of a comment (the reference's Comment, in its
// open or resolved variant).
type Comment struct {
	Object      string             `json:"object" enum:"comment"`
	ID          string             `json:"id"`
	PostedBy    usershttp.User     `json:"postedBy"`
	PostedAt    time.Time          `json:"postedAt"`
	EditedAt    *time.Time         `json:"editedAt,omitempty" doc:"When the body was last edited"`
	Reactions   []EmojiReaction    `json:"reactions"`
	Replies     int                `json:"replies" doc:"Number of replies"`
	Repliers    []UserContributor  `json:"repliers" nullable:"false" doc:"The users who replied"`
	Body        CommentDocument    `json:"body"`
	Target      CommentTarget      `json:"target"`
	URLs        CommentURLs        `json:"urls"`
	Permissions CommentPermissions `json:"permissions"`
	Status      string             `json:"status" enum:"open,resolved"`
	ResolvedAt  *time.Time         `json:"resolvedAt,omitempty"`
	ResolvedBy  *usershttp.User    `json:"resolvedBy,omitempty"`
}

// UserContributor is a user who replied to a comment: how many times, and
// when last.
type UserContributor = usershttp.UserContributor

// CommentReply is the API shape of a reply.
type CommentReply struct {
	Object      string             `json:"object" enum:"comment-reply"`
	ID          string             `json:"id"`
	PostedBy    usershttp.User     `json:"postedBy"`
	PostedAt    time.Time          `json:"postedAt"`
	EditedAt    *time.Time         `json:"editedAt,omitempty" doc:"When the body was last edited"`
	Reactions   []EmojiReaction    `json:"reactions"`
	Body        CommentDocument    `json:"body"`
	URLs        CommentURLs        `json:"urls"`
	Permissions CommentPermissions `json:"permissions"`
}

// CommentDocument is a comment's content: {markdown}, {document} or, for an empty
// body, {}.
type CommentDocument struct {
	Markdown *string                `json:"markdown,omitempty" doc:"The body as markdown (format=markdown)"`
	Document *document.JSONDocument `json:"document,omitempty" doc:"The body as a document tree (format=document)"`
}

// CommentTarget is what a comment is about.
type CommentTarget struct {
	Node          *CommentNode       `json:"node,omitempty"`
	ChangeRequest string             `json:"changeRequest,omitempty" doc:"The change request the comment was made in"`
	Review        string             `json:"review,omitempty" doc:"The review the comment was posted with"`
	Page          *CommentTargetPage `json:"page,omitempty"`
	Space         string             `json:"space"`
	Revision      string             `json:"revision" doc:"The revision the target was found in when the comment was posted"`
}

// CommentNode is the node of a page a comment is attached to.
type CommentNode struct {
	ID string `json:"id"`
}

// CommentTargetPage is the page a comment targets: as it is in the thread's
// current revision, or as it was when it no longer exists.
type CommentTargetPage struct {
	ID        string     `json:"id"`
	Title     string     `json:"title"`
	Emoji     string     `json:"emoji,omitempty"`
	Icon      string     `json:"icon,omitempty"`
	CreatedAt *time.Time `json:"createdAt,omitempty"`
	UpdatedAt *time.Time `json:"updatedAt,omitempty"`
	Path      string     `json:"path"`
	Outdated  bool       `json:"outdated" doc:"The page changed or disappeared since the comment was posted"`
}

// EmojiReaction is one emoji and the users who reacted with it.
type EmojiReaction struct {
	Emoji string              `json:"emoji"`
	Count int                 `json:"count"`
	Users []EmojiReactionUser `json:"users"`
}

// EmojiReactionUser is one user's reaction.
type EmojiReactionUser struct {
	User      usershttp.User `json:"user"`
	ReactedAt time.Time      `json:"reactedAt"`
}

// CommentURLs are a comment's or a reply's links.
type CommentURLs struct {
	Location string `json:"location" format:"uri"`
}

// CommentPermissions say what the caller may do with a comment or reply. React
// equals Reply: the reference lists it among the required fields.
type CommentPermissions struct {
	View   bool `json:"view"`
	Edit   bool `json:"edit"`
	Reply  bool `json:"reply"`
	React  bool `json:"react"`
	Delete bool `json:"delete"`
}

// renderer renders comments of one thread for one request, reading each
// user once and the thread's current revision at most once.
type renderer struct {
	ctx    context.Context
	s      *comments.Service
	t      *comments.Thread
	format string
	users  map[string]usershttp.User
}

func newRenderer(ctx context.Context, s *comments.Service, t *comments.Thread, format string) *renderer {
	return &renderer{ctx: ctx, s: s, t: t, format: format, users: map[string]usershttp.User{}}
}

func (r *renderer) user(id string) (usershttp.User, error) {
	if u, ok := r.users[id]; ok {
		return u, nil
	}
	u, err := r.s.User(r.ctx, id)
	if err != nil {
		return usershttp.User{}, err
	}
	v := usershttp.View(r.ctx, u)
	r.users[id] = v
	return v, nil
}

// base is the API URL of the thread's comments.
func (r *renderer) base() string {
	b := httpapi.APIURL(r.ctx) + "/v1/spaces/" + r.t.Space.ID
	if r.t.CR != nil {
		b += "/change-requests/" + r.t.CR.ID
	}
	return b + "/comments/"
}

func (r *renderer) body(b *string) CommentDocument {
	if b == nil {
		return CommentDocument{}
	}
	if r.format == content.FormatMarkdown {
		md := *b
		return CommentDocument{Markdown: &md}
	}
	doc := document.ToDocument(*b, document.Resolver{})
	return CommentDocument{Document: &doc}
}

func (r *renderer) reactions(rs []model.Reaction) ([]EmojiReaction, error) {
	out := make([]EmojiReaction, 0, len(rs))
	for _, x := range rs {
		v := EmojiReaction{Emoji: x.Emoji, Count: len(x.Users), Users: make([]EmojiReactionUser, 0, len(x.Users))}
		for _, u := range x.Users {
			uv, err := r.user(u.UserID)
			if err != nil {
				return nil, err
			}
			v.Users = append(v.Users, EmojiReactionUser{User: uv, ReactedAt: u.ReactedAt})
		}
		out = append(out, v)
	}
	return out, nil
}

func (r *renderer) permissions(author string) CommentPermissions {
	may := r.t.May(access.CommentContent)
	return CommentPermissions{View: true, Edit: r.t.Owns(author), Reply: may, React: may, Delete: r.t.Owns(author)}
}

// page renders a comment's target page against the thread's current
// revision.
func (r *renderer) page(p *model.CommentPage) (*CommentTargetPage, error) {
	latest, err := r.s.Tree(r.ctx, r.t)
	if err != nil {
		return nil, err
	}
	cur := latest.Page(p.ID)
	if cur == nil {
		v := &CommentTargetPage{ID: p.ID, Title: p.Title, Emoji: p.Emoji, Icon: p.Icon, Path: p.Path, Outdated: true}
		v.CreatedAt, v.UpdatedAt = times(p.CreatedAt, p.UpdatedAt)
		return v, nil
	}
	v := &CommentTargetPage{ID: cur.ID, Title: cur.Title, Emoji: cur.Emoji, Icon: cur.Icon, Path: latest.Path(cur.ID),
		Outdated: cur.Document != p.Document}
	v.CreatedAt, v.UpdatedAt = times(cur.CreatedAt, cur.UpdatedAt)
	return v, nil
}

func times(c, u time.Time) (*time.Time, *time.Time) {
	if c.IsZero() {
		return nil, nil
	}
	return &c, &u
}

// message renders what a comment and a reply share: the author and the
// reactions.
func (r *renderer) message(postedBy string, reactions []model.Reaction) (usershttp.User, []EmojiReaction, error) {
	by, err := r.user(postedBy)
	if err != nil {
		return usershttp.User{}, nil, err
	}
	rs, err := r.reactions(reactions)
	return by, rs, err
}

// comment renders a comment.
func (r *renderer) comment(c model.Comment) (Comment, error) {
	by, rs, err := r.message(c.PostedBy, c.Reactions)
	if err != nil {
		return Comment{}, err
	}
	v := Comment{Object: "comment", ID: c.ID, PostedBy: by, PostedAt: c.PostedAt, EditedAt: c.EditedAt, Reactions: rs,
		Replies: c.Replies, Body: r.body(c.Body), Target: CommentTarget{ChangeRequest: c.ChangeRequestID, Review: c.Review, Space: c.SpaceID, Revision: c.Revision},
		URLs: CommentURLs{Location: r.base() + c.ID}, Permissions: r.permissions(c.PostedBy), Status: c.Status}
	v.Repliers = make([]UserContributor, 0, len(c.Repliers))
	for _, x := range c.Repliers {
		u, err := r.user(x.UserID)
		if err != nil {
			return Comment{}, err
		}
		v.Repliers = append(v.Repliers, UserContributor{User: u, Count: x.Count, UpdatedAt: x.UpdatedAt})
	}
	if c.Node != "" {
		v.Target.Node = &CommentNode{ID: c.Node}
	}
	if c.Page != nil {
		if v.Target.Page, err = r.page(c.Page); err != nil {
			return Comment{}, err
		}
	}
	if c.Status == model.CommentResolved {
		rb, err := r.user(c.ResolvedBy)
		if err != nil {
			return Comment{}, err
		}
		v.ResolvedAt, v.ResolvedBy = c.ResolvedAt, &rb
	}
	return v, nil
}

// Render renders one comment of a change request's thread for the caller
// (the review answers embed their comment); format is markdown or document.
func Render(ctx context.Context, s *comments.Service, spaceID, changeRequestID, commentID, format string) (Comment, error) {
	t, c, err := s.Get(ctx, comments.Where{Space: spaceID, ChangeRequest: changeRequestID}, commentID)
	if err != nil {
		return Comment{}, err
	}
	return newRenderer(ctx, s, t, format).comment(c)
}

// reply renders a reply.
func (r *renderer) reply(x model.CommentReply) (CommentReply, error) {
	by, rs, err := r.message(x.PostedBy, x.Reactions)
	if err != nil {
		return CommentReply{}, err
	}
	return CommentReply{Object: "comment-reply", ID: x.ID, PostedBy: by, PostedAt: x.PostedAt, EditedAt: x.EditedAt,
		Reactions: rs, Body: r.body(x.Body), URLs: CommentURLs{Location: r.base() + x.CommentID + "/replies/" + x.ID},
		Permissions: r.permissions(x.PostedBy)}, nil
}
