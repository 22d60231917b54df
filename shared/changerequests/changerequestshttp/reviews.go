package changerequestshttp

import (
	"context"
	"net/http"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/changerequests"
	"github.com/galleydocs/galley/shared/comments"
	"github.com/galleydocs/galley/shared/comments/commentshttp"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/document"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/users/usershttp"
)

// ChangeRequestReview is the API shape of a review (the reference's
// ChangeRequestReview).
type ChangeRequestReview struct {
	Object      string                `json:"object" enum:"change-request-review"`
	ID          string                `json:"id"`
	Revision    string                `json:"revision" doc:"The change request's revision that was reviewed"`
	Reviewer    usershttp.User        `json:"reviewer"`
	RequestedBy *usershttp.User       `json:"requestedBy,omitempty" doc:"Who asked for the review; absent when nobody did"`
	Status      string                `json:"status" enum:"approved,changes-requested"`
	Outdated    bool                  `json:"outdated" doc:"The reviewer reviewed again, or was asked to, since"`
	Comment     *commentshttp.Comment `json:"comment,omitempty" doc:"The comment posted with the review"`
	CreatedAt   time.Time             `json:"createdAt"`
	UpdatedAt   time.Time             `json:"updatedAt"`
	URLs        ReviewURLs            `json:"urls"`
}

// ReviewURLs are a review's links.
type ReviewURLs struct {
	Location string `json:"location" format:"uri"`
}

// RequestedReviewer is the API shape of a pending review request (the
// reference's ChangeRequestRequestedReviewer, user variant).
type RequestedReviewer struct {
	Object      string         `json:"object" enum:"change-request-requested-reviewer"`
	Revision    string         `json:"revision" doc:"The change request's revision when the review was asked"`
	RequestedBy usershttp.User `json:"requestedBy"`
	CreatedAt   time.Time      `json:"createdAt"`
	Kind        string         `json:"kind" enum:"user"`
	User        usershttp.User `json:"user"`
}

// SubmitReviewBody is the body of POST .../reviews.
type SubmitReviewBody struct {
	Status  string         `json:"status" enum:"approved,changes-requested"`
	Comment *DocumentInput `json:"comment,omitempty" doc:"A comment posted with the review in the change request's comments"`
}

// RequestReviewersBody is the body of POST .../requested-reviewers.
type RequestReviewersBody struct {
	Users       []ids.ID       `json:"users" nullable:"false" minItems:"1" maxItems:"20" doc:"Ids of the users asked to review"`
	Subject     *string        `json:"subject,omitempty" maxLength:"100" doc:"Also sets the change request's subject"`
	Description map[string]any `json:"description,omitempty" doc:"Not kept: Galley's change requests have no description (refused when given)"`
}

type reviewsIn struct {
	ChangeRequestPath
	httpapi.ListParams
	Format   string `query:"format" enum:"document,markdown" doc:"The review comments' body form (default document)"`
	Outdated string `query:"outdated" enum:"true,false" doc:"Only outdated (true) or current (false) reviews"`
}

type submitReviewIn struct {
	ChangeRequestPath
	Body SubmitReviewBody
}

type reviewIn struct {
	ChangeRequestPath
	ReviewID string `path:"reviewId" maxLength:"64"`
	Format   string `query:"format" enum:"document,markdown"`
}

type reviewOut struct {
	Body ChangeRequestReview
}

type createdReviewOut struct {
	Location string `header:"Location"`
	Body     ChangeRequestReview
}

type reviewsOut struct {
	Body httpapi.List[ChangeRequestReview]
}

type requestedIn struct {
	ChangeRequestPath
	httpapi.ListParams
}

type requestedOut struct {
	Body httpapi.List[RequestedReviewer]
}

type requestReviewersIn struct {
	ChangeRequestPath
	Body RequestReviewersBody
}

type requestReviewersOut struct {
	Body struct {
		Users []RequestedReviewer `json:"users" doc:"The requests sent"`
	}
}

type removeReviewerIn struct {
	ChangeRequestPath
	UserID string `path:"userId" maxLength:"64"`
}

// reviewViews renders reviews and requests, reading each user once.
type reviewViews struct {
	ctx      context.Context
	s        *changerequests.Service
	comments *comments.Service
	format   string
	users    map[string]usershttp.User
}

func (v *reviewViews) user(id string) (usershttp.User, error) {
	if u, ok := v.users[id]; ok {
		return u, nil
	}
	u, err := v.s.Content().User(v.ctx, id)
	if err != nil {
		return usershttp.User{}, err
	}
	v.users[id] = usershttp.View(v.ctx, u)
	return v.users[id], nil
}

func (v *reviewViews) review(rv model.Review) (ChangeRequestReview, error) {
	by, err := v.user(rv.Reviewer)
	if err != nil {
		return ChangeRequestReview{}, err
	}
	out := ChangeRequestReview{Object: "change-request-review", ID: rv.ID, Revision: rv.Revision, Reviewer: by, Status: rv.Status,
		Outdated: rv.Outdated, CreatedAt: rv.CreatedAt, UpdatedAt: rv.UpdatedAt,
		URLs: ReviewURLs{Location: httpapi.APIURL(v.ctx) + "/v1/spaces/" + rv.SpaceID + "/change-requests/" + rv.ChangeRequestID + "/reviews/" + rv.ID}}
	if rv.RequestedBy != "" {
		u, err := v.user(rv.RequestedBy)
		if err != nil {
			return ChangeRequestReview{}, err
		}
		out.RequestedBy = &u
	}
	if rv.Comment != "" {
		c, err := commentshttp.Render(v.ctx, v.comments, rv.SpaceID, rv.ChangeRequestID, rv.Comment, v.format)
		switch {
		case err == nil:
			out.Comment = &c
		case !apperr.Is(err, apperr.NotFound): // a deleted comment leaves the review without one
			return ChangeRequestReview{}, err
		}
	}
	return out, nil
}

func (v *reviewViews) request(q model.ReviewRequest) (RequestedReviewer, error) {
	by, err := v.user(q.RequestedBy)
	if err != nil {
		return RequestedReviewer{}, err
	}
	u, err := v.user(q.User)
	if err != nil {
		return RequestedReviewer{}, err
	}
	return RequestedReviewer{Object: "change-request-requested-reviewer", Revision: q.Revision, RequestedBy: by,
		CreatedAt: q.CreatedAt, Kind: "user", User: u}, nil
}

// each renders every item through view.
func each[T, V any](items []T, view func(T) (V, error)) ([]V, error) {
	out := make([]V, 0, len(items))
	for _, it := range items {
		v, err := view(it)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// markdown is the markdown of a document as a client sends it: {markdown},
// a document tree, or {} (empty); field names it in errors.
func (d DocumentInput) markdown(field string) (string, error) {
	switch {
	case d.Markdown != nil && d.Document != nil:
		return "", apperr.Field(field, "give markdown or document, not both")
	case d.Markdown != nil:
		return *d.Markdown, nil
	case d.Document != nil:
		md, err := document.MarkdownOfDocument(d.Document)
		if err != nil {
			return "", apperr.Field(field+".document", "%s", err.Error())
		}
		return md, nil
	}
	return "", nil
}

// registerReviews adds reviews and review requests.
func registerReviews(api *httpapi.API, s *changerequests.Service, cs *comments.Service) {
	const tag = "Change requests"
	base := "/v1/spaces/{spaceId}/change-requests/{changeRequestId}"
	views := func(ctx context.Context, format string) *reviewViews {
		if format == "" {
			format = content.FormatDocument
		}
		return &reviewViews{ctx: ctx, s: s, comments: cs, format: format, users: map[string]usershttp.User{}}
	}
	httpapi.Register(api, httpapi.Op{ID: "submitChangeRequestReview", Needs: access.Role(access.ReviewContent), Method: http.MethodPost, Path: base + "/reviews", Tag: tag,
		Status: http.StatusCreated, Summary: "Review a change request (approve it or request changes)"},
		func(ctx context.Context, in *submitReviewIn) (*createdReviewOut, error) {
			nr := changerequests.NewReview{Status: in.Body.Status}
			if in.Body.Comment != nil {
				md, err := in.Body.Comment.markdown("comment")
				if err != nil {
					return nil, err
				}
				nr.Comment = &md
			}
			rv, err := s.SubmitReview(ctx, in.SpaceID, in.ChangeRequestID, nr)
			if err != nil {
				return nil, err
			}
			v, err := views(ctx, "").review(rv)
			if err != nil {
				return nil, err
			}
			return &createdReviewOut{Location: v.URLs.Location, Body: v}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "getReviewsByChangeRequestId", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base + "/reviews", Tag: tag,
		Summary: "List a change request's reviews (submission order)"},
		func(ctx context.Context, in *reviewsIn) (*reviewsOut, error) {
			var outdated *bool
			if in.Outdated != "" {
				b := in.Outdated == "true"
				outdated = &b
			}
			p, err := s.Reviews(ctx, in.SpaceID, in.ChangeRequestID, outdated, in.Request())
			if err != nil {
				return nil, err
			}
			items, err := each(p.Items, views(ctx, in.Format).review)
			if err != nil {
				return nil, err
			}
			return &reviewsOut{Body: httpapi.ListPage(paging.Page[ChangeRequestReview]{Items: items, Next: p.Next}, same)}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "getChangeRequestReviewById", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base + "/reviews/{reviewId}", Tag: tag,
		Summary: "Get a review of a change request"},
		func(ctx context.Context, in *reviewIn) (*reviewOut, error) {
			rv, err := s.Review(ctx, in.SpaceID, in.ChangeRequestID, in.ReviewID)
			if err != nil {
				return nil, err
			}
			v, err := views(ctx, in.Format).review(rv)
			if err != nil {
				return nil, err
			}
			return &reviewOut{Body: v}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "getRequestedReviewersByChangeRequestId", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base + "/requested-reviewers", Tag: tag,
		Summary: "List the reviews asked for and not given yet"},
		func(ctx context.Context, in *requestedIn) (*requestedOut, error) {
			p, err := s.RequestedReviewers(ctx, in.SpaceID, in.ChangeRequestID, in.Request())
			if err != nil {
				return nil, err
			}
			items, err := each(p.Items, views(ctx, "").request)
			if err != nil {
				return nil, err
			}
			return &requestedOut{Body: httpapi.ListPage(paging.Page[RequestedReviewer]{Items: items, Next: p.Next}, same)}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "requestReviewersForChangeRequest", Needs: access.Role(access.EditContent), Method: http.MethodPost, Path: base + "/requested-reviewers", Tag: tag,
		Summary: "Ask users to review a change request"},
		func(ctx context.Context, in *requestReviewersIn) (*requestReviewersOut, error) {
			if in.Body.Description != nil {
				return nil, apperr.Field("description", "Galley's change requests have no description")
			}
			qs, err := s.RequestReviewers(ctx, in.SpaceID, in.ChangeRequestID, ids.Strings(in.Body.Users), in.Body.Subject)
			if err != nil {
				return nil, err
			}
			items, err := each(qs, views(ctx, "").request)
			if err != nil {
				return nil, err
			}
			out := &requestReviewersOut{}
			out.Body.Users = items
			return out, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "removeRequestedReviewerFromChangeRequest", Needs: access.Role(access.EditContent), Method: http.MethodDelete, Path: base + "/requested-reviewers/{userId}", Tag: tag,
		Status: http.StatusResetContent, Summary: "Withdraw a review request (205; 204 when the user had none)",
		Also: map[int]string{http.StatusNoContent: "The user was not a requested reviewer"}},
		func(ctx context.Context, in *removeReviewerIn) (*httpapi.RemovedOut, error) {
			return httpapi.Removed(s.RemoveRequestedReviewer(ctx, in.SpaceID, in.ChangeRequestID, in.UserID))
		})
}

func same[T any](v T) T { return v }
