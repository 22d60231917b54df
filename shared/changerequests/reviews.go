package changerequests

import (
	"context"
	"fmt"
	"slices"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// Review limits.
const (
	// MaxReviews bounds the reviews one request keeps (every submission,
	// outdated ones included).
	MaxReviews = 1000
	// MaxRequestedReviewers bounds the users asked in one call.
	MaxRequestedReviewers = 20
)

// ReviewCommenter posts the comment given with a review in the request's
// comments (the comments family owns comments; the process's root passes
// its service to New).
type ReviewCommenter interface {
	PostReviewComment(ctx context.Context, spaceID, changeRequestID, reviewID, markdown string) (commentID string, err error)
}

// NewReview is the input of SubmitReview.
type NewReview struct {
	Status string
	// Comment is markdown posted with the review; nil for none.
	Comment *string
}

// reviewItem is a review's item.
func reviewItem(r model.Review, version int64) store.Item {
	return records.Item(keys.ChangeRequestReview(r.SpaceID, r.ChangeRequestID, r.ID), r, version)
}

// allReviews reads every review of a request with its version (at most
// MaxReviews), in submission order.
func (s *Service) allReviews(ctx context.Context, spaceID, crID string) ([]model.Review, []int64, error) {
	var out []model.Review
	var versions []int64
	var after *store.Key
	for {
		k := keys.ChangeRequestReview(spaceID, crID, "") // the partition and the reviews' prefix
		p, err := s.d.Store.Query(ctx, store.Query{PK: k.PK, SKPrefix: k.SK, Limit: store.MaxQueryLimit, After: after})
		if err != nil {
			return nil, nil, fmt.Errorf("list reviews: %w", err)
		}
		for _, it := range p.Items {
			r, err := records.Decode[model.Review](it)
			if err != nil {
				return nil, nil, err
			}
			out, versions = append(out, r), append(versions, it.Version)
		}
		if p.Next == nil {
			return out, versions, nil
		}
		after = p.Next
	}
}

// pending reads a request's pending review requests.
func (s *Service) pending(ctx context.Context, spaceID, crID string) ([]model.ReviewRequest, error) {
	var out []model.ReviewRequest
	var after *store.Key
	for {
		k := keys.ReviewRequest(spaceID, crID, "") // the partition and the requests' prefix
		rs, next, err := records.QueryPage[model.ReviewRequest](ctx, s.d.Store, store.Query{PK: k.PK, SKPrefix: k.SK,
			Limit: store.MaxQueryLimit, After: after})
		if err != nil {
			return nil, fmt.Errorf("list review requests: %w", err)
		}
		out = append(out, rs...)
		if next == nil {
			return out, nil
		}
		after = next
	}
}

// outdate marks a user's current review outdated (in ops), if any.
func outdate(reviews []model.Review, versions []int64, userID string, now model.Review) []store.Op {
	var ops []store.Op
	for i, r := range reviews {
		if r.Reviewer == userID && !r.Outdated {
			r.Outdated, r.UpdatedAt = true, now.CreatedAt
			ops = append(ops, store.PutIfVersion(reviewItem(r, versions[i]+1), versions[i]))
		}
	}
	return ops
}

// SubmitReview records the caller's review of a draft or open request
// (review level; not on a request they created). Their earlier review
// becomes outdated and a pending request for their review is fulfilled
// (its requester is the review's), in one transaction. A comment is posted
// in the request's comments first, so that it is kept even if the review
// must be submitted again.
func (s *Service) SubmitReview(ctx context.Context, spaceID, ref string, in NewReview) (model.Review, error) {
	userID, _, err := s.callerOn(ctx, spaceID, access.ReviewContent)
	if err != nil {
		return model.Review{}, err
	}
	if in.Status != model.ReviewApproved && in.Status != model.ReviewChangesRequested {
		return model.Review{}, apperr.Field("status", "approved or changes-requested")
	}
	cr, _, err := s.readActive(ctx, spaceID, ref, "are reviewed")
	if err != nil {
		return model.Review{}, err
	}
	if cr.CreatedBy == userID {
		return model.Review{}, apperr.Forbiddenf("the author of a change request cannot review it")
	}
	now := s.d.Clock()
	rv := model.Review{ID: ids.New(now), SpaceID: spaceID, ChangeRequestID: cr.ID, Reviewer: userID, Status: in.Status,
		CreatedAt: now, UpdatedAt: now}
	if in.Comment != nil {
		if s.commenter == nil {
			return model.Review{}, apperr.Field("comment", "review comments are not available here")
		}
		if rv.Comment, err = s.commenter.PostReviewComment(ctx, spaceID, cr.ID, rv.ID, *in.Comment); err != nil {
			return model.Review{}, err
		}
	}
	err = store.Retry(ctx, func() error {
		cr, _, err := s.read(ctx, spaceID, ref)
		if err != nil {
			return err
		}
		reviews, versions, err := s.allReviews(ctx, spaceID, cr.ID)
		if err != nil {
			return err
		}
		if len(reviews) >= MaxReviews {
			return apperr.Conflictf("change request has %d reviews, the most it keeps", MaxReviews)
		}
		rv.Revision = cr.Revision
		ops := []store.Op{store.Put(reviewItem(rv, 1), store.IfNotExists)}
		ops = append(ops, outdate(reviews, versions, userID, rv)...)
		req, v, err := records.Read[model.ReviewRequest](ctx, s.d.Store, keys.ReviewRequest(spaceID, cr.ID, userID), "review request", userID)
		switch {
		case err == nil:
			rv.RequestedBy = req.RequestedBy
			ops[0] = store.Put(reviewItem(rv, 1), store.IfNotExists)
			k := keys.ReviewRequest(spaceID, cr.ID, userID)
			ops = append(ops, store.DeleteIfVersion(k.PK, k.SK, v))
		case !apperr.Is(err, apperr.NotFound):
			return err
		}
		return s.d.Store.Write(ctx, ops...)
	})
	return rv, err
}

// reviewable reads a request for the review reads (read level).
func (s *Service) reviewable(ctx context.Context, spaceID, ref string) (model.ChangeRequest, error) {
	if _, _, err := s.content.Space(ctx, spaceID, access.ReadContent); err != nil {
		return model.ChangeRequest{}, err
	}
	cr, _, err := s.read(ctx, spaceID, ref)
	return cr, err
}

// Reviews lists a request's reviews in submission order; outdated, when
// set, keeps only the outdated (true) or current (false) ones.
func (s *Service) Reviews(ctx context.Context, spaceID, ref string, outdated *bool, r paging.Request) (paging.Page[model.Review], error) {
	cr, err := s.reviewable(ctx, spaceID, ref)
	if err != nil {
		return paging.Page[model.Review]{}, err
	}
	all, _, err := s.allReviews(ctx, spaceID, cr.ID)
	if err != nil {
		return paging.Page[model.Review]{}, err
	}
	filter := "all"
	if outdated != nil {
		filter = fmt.Sprint(*outdated)
		all = slices.DeleteFunc(all, func(rv model.Review) bool { return rv.Outdated != *outdated })
	}
	return pageOf(s, all, "reviews:"+spaceID+":"+cr.ID+":"+filter, r,
		func(rv model.Review) store.Key { return storeKey(keys.ChangeRequestReview(spaceID, cr.ID, rv.ID)) })
}

// pageOf cuts one page of a list read whole (bounded by MaxReviews),
// resuming after the cursor's key.
func pageOf[T any](s *Service, all []T, scope string, r paging.Request, key func(T) store.Key) (paging.Page[T], error) {
	after, err := s.d.Cursors.After(scope, r.Cursor)
	if err != nil {
		return paging.Page[T]{}, err
	}
	start := 0
	if after != nil {
		start = len(all)
		for i, x := range all {
			if k := key(x); k.SK > after.SK {
				start = i
				break
			}
		}
	}
	end := min(start+r.Size(), len(all))
	page := paging.Page[T]{Items: all[start:end]}
	if end < len(all) {
		k := key(all[end-1])
		page.Next = s.d.Cursors.Next(scope, &k)
	}
	return page, nil
}

func storeKey(k keys.Key) store.Key { return store.Key{PK: k.PK, SK: k.SK} }

// Review reads one review.
func (s *Service) Review(ctx context.Context, spaceID, ref, reviewID string) (model.Review, error) {
	cr, err := s.reviewable(ctx, spaceID, ref)
	if err != nil {
		return model.Review{}, err
	}
	rv, _, err := records.Read[model.Review](ctx, s.d.Store, keys.ChangeRequestReview(spaceID, cr.ID, reviewID), "review", reviewID)
	return rv, err
}

// RequestedReviewers lists a request's pending review requests.
func (s *Service) RequestedReviewers(ctx context.Context, spaceID, ref string, r paging.Request) (paging.Page[model.ReviewRequest], error) {
	cr, err := s.reviewable(ctx, spaceID, ref)
	if err != nil {
		return paging.Page[model.ReviewRequest]{}, err
	}
	all, err := s.pending(ctx, spaceID, cr.ID)
	if err != nil {
		return paging.Page[model.ReviewRequest]{}, err
	}
	return pageOf(s, all, "review-requests:"+spaceID+":"+cr.ID, r,
		func(q model.ReviewRequest) store.Key { return storeKey(keys.ReviewRequest(spaceID, cr.ID, q.User)) })
}

// RequestReviewers asks users for their review of a draft or open request
// (edit level), optionally setting its subject. Each user must be able to
// review the space and must not be the request's author; a user asked
// again is asked anew (their current review becomes outdated).
func (s *Service) RequestReviewers(ctx context.Context, spaceID, ref string, users []string, subject *string) ([]model.ReviewRequest, error) {
	userID, sp, err := s.callerOn(ctx, spaceID, access.EditContent)
	if err != nil {
		return nil, err
	}
	if len(users) == 0 || len(users) > MaxRequestedReviewers {
		return nil, apperr.Field("users", "between 1 and %d users", MaxRequestedReviewers)
	}
	cr, _, err := s.readActive(ctx, spaceID, ref, "are reviewed")
	if err != nil {
		return nil, err
	}
	node := access.SpaceNode(sp)
	for i, u := range users {
		field := fmt.Sprintf("users[%d]", i)
		if slices.Contains(users[:i], u) {
			return nil, apperr.Field(field, "user %s is listed twice", u)
		}
		if u == cr.CreatedBy {
			return nil, apperr.Field(field, "the author of a change request cannot review it")
		}
		v, err := s.d.Authz.ViewerOn(ctx, access.Caller{UserID: u}, node)
		if err != nil && !apperr.Is(err, apperr.NotFound) && !apperr.Is(err, apperr.Forbidden) {
			return nil, err
		}
		var level model.Role
		if err == nil {
			if level, err = v.Level(ctx, node); err != nil {
				return nil, err
			}
		}
		if !access.Allowed(level, access.ReviewContent) {
			return nil, apperr.Field(field, "user %s is not a member who may review this space", u)
		}
	}
	if subject != nil {
		if _, _, err := s.Update(ctx, spaceID, cr.ID, Change{Subject: subject}); err != nil {
			return nil, err
		}
	}
	now := s.d.Clock()
	out := make([]model.ReviewRequest, 0, len(users))
	err = store.Retry(ctx, func() error {
		cr, _, err := s.read(ctx, spaceID, cr.ID)
		if err != nil {
			return err
		}
		reviews, versions, err := s.allReviews(ctx, spaceID, cr.ID)
		if err != nil {
			return err
		}
		out = out[:0]
		var ops []store.Op
		for _, u := range users {
			q := model.ReviewRequest{SpaceID: spaceID, ChangeRequestID: cr.ID, User: u, RequestedBy: userID, Revision: cr.Revision, CreatedAt: now}
			out = append(out, q)
			ops = append(ops, store.Put(records.Item(keys.ReviewRequest(spaceID, cr.ID, u), q, 1), store.Always))
			ops = append(ops, outdate(reviews, versions, u, model.Review{CreatedAt: now})...)
		}
		return s.d.Store.Write(ctx, ops...)
	})
	return out, err
}

// RemoveRequestedReviewer withdraws a pending review request (edit level);
// false when the user had none.
func (s *Service) RemoveRequestedReviewer(ctx context.Context, spaceID, ref, userID string) (bool, error) {
	if _, _, err := s.content.Space(ctx, spaceID, access.EditContent); err != nil {
		return false, err
	}
	cr, _, err := s.read(ctx, spaceID, ref)
	if err != nil {
		return false, err
	}
	k := keys.ReviewRequest(spaceID, cr.ID, userID)
	if _, _, err := records.Read[model.ReviewRequest](ctx, s.d.Store, k, "requested reviewer", userID); err != nil {
		if apperr.Is(err, apperr.NotFound) {
			return false, nil
		}
		return false, err
	}
	return true, s.d.Store.Write(ctx, store.Delete(k.PK, k.SK, store.Always))
}

// currentReviews are the reviews merge rules count and the pending
// requests' users.
func (s *Service) currentReviews(ctx context.Context, spaceID, crID string) ([]model.Review, []string, error) {
	all, _, err := s.allReviews(ctx, spaceID, crID)
	if err != nil {
		return nil, nil, err
	}
	all = slices.DeleteFunc(all, func(rv model.Review) bool { return rv.Outdated })
	reqs, err := s.pending(ctx, spaceID, crID)
	if err != nil {
		return nil, nil, err
	}
	users := make([]string, 0, len(reqs))
	for _, q := range reqs {
		users = append(users, q.User)
	}
	return all, users, nil
}
