package model

import "time"

// Comment statuses (the reference's Comment variants).
const (
	CommentOpen     = "open"
	CommentResolved = "resolved"
)

// Comment is a discussion thread on a space's content or on a change
// request: its first message, its status, its reactions and how many
// replies it has. The replies are records of their own (CommentReply).
type Comment struct {
	ID      string `json:"id"`
	SpaceID string `json:"spaceId"`
	// ChangeRequestID is set for a comment made in a change request.
	ChangeRequestID string `json:"changeRequestId,omitempty"`
	// Review is the review the comment was posted with, "" for none.
	Review   string     `json:"review,omitempty"`
	PostedBy string     `json:"postedBy"`
	PostedAt time.Time  `json:"postedAt"`
	EditedAt *time.Time `json:"editedAt,omitempty"`
	// Body is markdown; nil is the empty body ({}).
	Body *string `json:"body,omitempty"`
	// Revision is the revision the target was found in when posted: the
	// space's head, or the change request's revision.
	Revision string `json:"revision"`
	// Page is the targeted page as it was in Revision, nil for none.
	Page *CommentPage `json:"page,omitempty"`
	// Node is the targeted node of the page, "" for none.
	Node       string     `json:"node,omitempty"`
	Status     string     `json:"status"`
	ResolvedAt *time.Time `json:"resolvedAt,omitempty"`
	ResolvedBy string     `json:"resolvedBy,omitempty"`
	Replies    int        `json:"replies"`
	// Repliers are the users who replied, with their number of replies
	// and the time of their latest, kept with Replies in the reply's
	// transaction.
	Repliers  []Replier  `json:"repliers,omitempty"`
	Reactions []Reaction `json:"reactions,omitempty"`
	// Title names the comment's thread as a change request's conversation
	// (docs/comments.md, "Conversations"); "" until renamed.
	Title string `json:"title,omitempty"`
}

// Contribution is a user's part in a record: how many times they
// contributed (a comment's replies, a change request's edits) and when
// they last did.
type Contribution struct {
	UserID    string    `json:"userId"`
	Count     int       `json:"count"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// Replier is a user who replied to a comment.
type Replier = Contribution

// Contribute counts one contribution of user made at in list.
func Contribute(list []Contribution, user string, at time.Time) []Contribution {
	for i := range list {
		if list[i].UserID == user {
			list[i].Count++
			list[i].UpdatedAt = at
			return list
		}
	}
	return append(list, Contribution{UserID: user, Count: 1, UpdatedAt: at})
}

// AddReplier counts a reply of user posted at.
func (c *Comment) AddReplier(user string, at time.Time) {
	c.Repliers = Contribute(c.Repliers, user, at)
}

// RemoveReplier uncounts a deleted reply of user.
func (c *Comment) RemoveReplier(user string) {
	for i := range c.Repliers {
		if c.Repliers[i].UserID == user {
			if c.Repliers[i].Count--; c.Repliers[i].Count <= 0 {
				c.Repliers = append(c.Repliers[:i], c.Repliers[i+1:]...)
			}
			return
		}
	}
}

// CommentPage is what a comment remembers of its page: enough to show it
// when the page is gone, and the hash of its body to tell whether it changed.
type CommentPage struct {
	ID        string    `json:"id"`
	Title     string    `json:"title"`
	Emoji     string    `json:"emoji,omitempty"`
	Icon      string    `json:"icon,omitempty"`
	Path      string    `json:"path"`
	Document  string    `json:"document,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// CommentReply is a reply to a comment.
type CommentReply struct {
	ID              string     `json:"id"`
	CommentID       string     `json:"commentId"`
	SpaceID         string     `json:"spaceId"`
	ChangeRequestID string     `json:"changeRequestId,omitempty"`
	PostedBy        string     `json:"postedBy"`
	PostedAt        time.Time  `json:"postedAt"`
	EditedAt        *time.Time `json:"editedAt,omitempty"`
	Body            *string    `json:"body,omitempty"`
	Reactions       []Reaction `json:"reactions,omitempty"`
}

// Reaction is one emoji and the users who reacted with it, in the order
// they did.
type Reaction struct {
	Emoji string         `json:"emoji"`
	Users []ReactionUser `json:"users"`
}

// ReactionUser is one user's reaction.
type ReactionUser struct {
	UserID    string    `json:"userId"`
	ReactedAt time.Time `json:"reactedAt"`
}
