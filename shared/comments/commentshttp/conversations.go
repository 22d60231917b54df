package commentshttp

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/comments"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs/orgshttp"
	"github.com/galleydocs/galley/shared/paging"
)

// AgentConversation is a change request's conversation as GitBook's
// document shapes it: in Galley, one of the request's comment threads (a
// comment and its replies; docs/comments.md, "Conversations").
type AgentConversation struct {
	Object    string    `json:"object" enum:"agent-conversation"`
	ID        string    `json:"id" doc:"The id of the thread's comment"`
	Title     string    `json:"title,omitempty" doc:"The title it was given, else the first line of its comment (absent for an empty comment)"`
	Shared    bool      `json:"shared" doc:"Always true: a change request's comments are seen by every reader of the space"`
	CreatedAt time.Time `json:"createdAt" doc:"When its comment was posted"`
	UpdatedAt time.Time `json:"updatedAt" doc:"Its last post, edit or resolution"`
}

// maxTitle is the length of a title made from a comment's first line.
const maxTitle = 100

// conversation renders a comment as a conversation.
func conversation(c model.Comment) AgentConversation {
	v := AgentConversation{Object: "agent-conversation", ID: c.ID, Title: c.Title, Shared: true, CreatedAt: c.PostedAt, UpdatedAt: c.PostedAt}
	if v.Title == "" && c.Body != nil {
		for line := range strings.Lines(*c.Body) {
			if line = strings.TrimSpace(line); line != "" {
				if r := []rune(line); len(r) > maxTitle {
					line = string(r[:maxTitle-1]) + "…"
				}
				v.Title = line
				break
			}
		}
	}
	later := func(t *time.Time) {
		if t != nil && t.After(v.UpdatedAt) {
			v.UpdatedAt = *t
		}
	}
	later(c.EditedAt)
	later(c.ResolvedAt)
	for _, r := range c.Repliers {
		later(&r.UpdatedAt)
	}
	return v
}

// ConversationPath names a conversation of a change request.
type ConversationPath struct {
	ChangeRequestPath
	ConversationID string `path:"conversationId" maxLength:"64" doc:"The id of the conversation's comment"`
}

// UpdateConversationBody is the body of PATCH .../conversations/{conversationId}.
type UpdateConversationBody struct {
	Title string `json:"title" maxLength:"200" doc:"The conversation's new title (\"\": the first line of its comment again)"`
}

type (
	conversationsIn struct {
		ChangeRequestPath
		httpapi.ListParams
	}
	renameIn struct {
		ConversationPath
		Body UpdateConversationBody
	}
	spaceCommentersIn struct {
		SpacePath
		httpapi.ListParams
	}
	crCommentersIn struct {
		ChangeRequestPath
		httpapi.ListParams
	}
)

// commenters answers a thread's list of commenters.
func commenters(ctx context.Context, s *comments.Service, w comments.Where, r paging.Request) (*httpapi.Out[httpapi.List[orgshttp.OrganizationMember]], error) {
	return httpapi.AnswerPage(httpapi.In(ctx, orgshttp.ViewMember))(s.Commenters(ctx, w, r))
}

// registerConversations adds the lists of commenters (of a space's content
// and of a change request) and a change request's conversations.
func registerConversations(api *httpapi.API, s *comments.Service, read, own access.Permission) {
	const crTag, spaceTag = "Change request comments", "Space comments"
	cb := "/v1/spaces/{spaceId}/change-requests/{changeRequestId}"
	httpapi.Register(api, httpapi.Op{ID: "listCommentersInSpace", Needs: read, Method: http.MethodGet, Path: "/v1/spaces/{spaceId}/commenters", Tag: spaceTag,
		Summary: "List the members who posted comments or replies on a space's content"},
		func(ctx context.Context, in *spaceCommentersIn) (*httpapi.Out[httpapi.List[orgshttp.OrganizationMember]], error) {
			return commenters(ctx, s, in.where(), in.Request())
		})
	httpapi.Register(api, httpapi.Op{ID: "listCommentersInChangeRequest", Needs: read, Method: http.MethodGet, Path: cb + "/commenters", Tag: crTag,
		Summary: "List the members who posted comments or replies in a change request"},
		func(ctx context.Context, in *crCommentersIn) (*httpapi.Out[httpapi.List[orgshttp.OrganizationMember]], error) {
			return commenters(ctx, s, in.where(), in.Request())
		})
	httpapi.Register(api, httpapi.Op{ID: "listChangeRequestConversations", Needs: read, Method: http.MethodGet, Path: cb + "/conversations", Tag: crTag,
		Summary: "List a change request's conversations: its comment threads, newest first"},
		func(ctx context.Context, in *conversationsIn) (*httpapi.Out[httpapi.List[AgentConversation]], error) {
			return httpapi.AnswerPage(conversation)(s.Conversations(ctx, in.where(), in.Request()))
		})
	httpapi.Register(api, httpapi.Op{ID: "updateChangeRequestConversation", Needs: own, Method: http.MethodPatch, Path: cb + "/conversations/{conversationId}", Tag: crTag,
		Summary: "Rename a change request's conversation"},
		func(ctx context.Context, in *renameIn) (*httpapi.Out[AgentConversation], error) {
			return httpapi.Answer(conversation)(s.RenameConversation(ctx, in.where(), in.ConversationID, in.Body.Title))
		})
	httpapi.Register(api, httpapi.Op{ID: "deleteChangeRequestConversation", Needs: own, Method: http.MethodDelete, Path: cb + "/conversations/{conversationId}", Tag: crTag,
		Status: http.StatusResetContent, Summary: "Delete a change request's conversation: its comment and the replies"},
		func(ctx context.Context, in *ConversationPath) (*struct{}, error) {
			return nil, s.DeleteConversation(ctx, in.where(), in.ConversationID)
		})
}
