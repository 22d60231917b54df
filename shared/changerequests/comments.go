package changerequests

import (
	"context"

	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/store"
)

// What the comments family needs of change requests: a request's `comments`
// count changes in the same transaction as the comment that changes it.

// Records are change requests as the comments family uses them
// (comments.ChangeRequests): a request read by id or number, and its
// comment counter moved in the comment's transaction. They keep no state,
// so a process's root builds them apart from the Service, which posts
// reviews' comments through the comments family: neither service is built
// from the other.
type Records struct{ store store.Store }

// NewRecords returns the change requests' records on d's store.
func NewRecords(d *deps.Deps) Records { return Records{store: d.Store} }

// Record is Service.Record.
func (r Records) Record(ctx context.Context, spaceID, ref string) (model.ChangeRequest, int64, error) {
	return content.ReadChangeRequest(ctx, r.store, spaceID, ref)
}

// CountComments is the package's CountComments.
func (Records) CountComments(cr model.ChangeRequest, version int64, delta int) (model.ChangeRequest, []store.Op) {
	return CountComments(cr, version, delta)
}

// Record reads a change request of a space by id or number, with its
// version, without authorization: callers authorize on the space first.
// An unknown request is NotFound.
func (s *Service) Record(ctx context.Context, spaceID, ref string) (model.ChangeRequest, int64, error) {
	return s.read(ctx, spaceID, ref)
}

// CountComments moves cr's comment counter by delta (never below 0): it
// returns the request as changed and the operations that rewrite it, read
// at version, with its contributors' copies (at most MaxContributors+1
// operations), for a transaction of another family; the request's write
// fails with store.ErrConflict if it changed since it was read.
func CountComments(cr model.ChangeRequest, version int64, delta int) (model.ChangeRequest, []store.Op) {
	cr.Comments = max(0, cr.Comments+delta)
	return cr, crOps(cr, version)
}
