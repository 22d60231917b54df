// Package changerequests is the change requests family: proposals of edits
// to a space's content, authored as batches of changes, brought up to date
// with the space (update) and merged into it (merge), and their content.
//
// Decisions:
//   - A new request is a draft. Statuses move freely among draft, open and
//     archived (an archived request can be reopened); merged is final and
//     reached only by merging a draft or open request. Only draft and open
//     requests accept changes, updates and merges (others answer 409).
//   - number counts the space's requests: it is the space's changeRequests
//     counter after the increment, written in the same version-guarded
//     transaction as the request and a "put if not exists" reservation of
//     the number, so concurrent creations never share one.
//   - The space's counters (changeRequests: every request ever made;
//     changeRequestsOpen, changeRequestsDraft: by status) change in the same
//     transaction as the request's status.
//   - A request is outdated while active and based on a space revision (its
//     revisionMergedAncestor, else revisionInitial) that is no longer the
//     space's head.
//   - Contributors are the creator and everyone who authored changes; each
//     has a copy of the request indexed by status, so that the contributor
//     filter lists without a join. The copies are rewritten with the request.
//   - A merge, and a revision landed on a space's head without Git
//     metadata (a direct edit), are told to the Landings the composition
//     root gives (Git Sync's export on merge) after they are written.
package changerequests

import (
	"context"
	"slices"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/store"
)

// MaxContributors bounds the contributors whose copies a request keeps, so
// that a request and its copies fit in one transaction with room to spare.
const MaxContributors = 80

// Service manages change requests.
type Service struct {
	d       *deps.Deps
	content *content.Service
	repo    *content.Repo
	// pdfs makes the requests' PDFs.
	pdfs PDFs
	// commenter posts reviews' comments; nil refuses them.
	commenter ReviewCommenter
	// landings are told of merges and direct edits (Git Sync); nil none.
	landings Landings
	// sites answers the spaces of a site (the sites family's); nil
	// refuses the organization list's site filter.
	sites SiteSpaces
	// events are told of requests opened and merged; nil: nobody.
	events Events
}

// New returns the change requests service, reading content through c
// and making PDFs through pdfs (the content family's); commenter posts the comments given with reviews (the comments family's
// service; nil in a process that does not link it, where reviews with a
// comment are refused); landings are told of each merge and direct edit
// of a space (Git Sync's export on merge; nil: nobody); sites answers the
// spaces a site shows, for the organization list's site filter (the sites
// family's service; nil in a process that does not link it, where the
// filter is refused); events are told of requests opened and merged (the
// webhooks family's emitter; nil: nobody).
func New(d *deps.Deps, c *content.Service, pdfs PDFs, commenter ReviewCommenter, landings Landings, sites SiteSpaces, events Events) *Service {
	return &Service{d: d, content: c, repo: c.Repo, pdfs: pdfs, commenter: commenter, landings: landings, sites: sites, events: events}
}

// Create is the input of Create.
type Create struct {
	Subject, AgentTaskID string
}

// Change is the input of Update: nil fields are left as they are.
type Change struct {
	Subject *string
	Status  *string
}

// Filter selects the requests of a list.
type Filter struct {
	Status      string
	Contributor string
}

// caller returns the authenticated user's id.
func caller(ctx context.Context) (string, error) {
	c, err := access.CallerFrom(ctx)
	return c.UserID, err
}

// callerOn returns the authenticated user's id and the space, which they
// must reach at op.
func (s *Service) callerOn(ctx context.Context, spaceID string, op access.OrgOp) (string, model.Space, error) {
	userID, err := caller(ctx)
	if err != nil {
		return "", model.Space{}, err
	}
	sp, _, err := s.content.Space(ctx, spaceID, op)
	return userID, sp, err
}

// Create opens a change request on the space's current revision.
func (s *Service) Create(ctx context.Context, spaceID string, in Create) (model.ChangeRequest, model.Space, error) {
	userID, _, err := s.callerOn(ctx, spaceID, access.EditContent)
	if err != nil {
		return model.ChangeRequest{}, model.Space{}, err
	}
	var cr model.ChangeRequest
	var sp model.Space
	err = store.Retry(ctx, func() error {
		old, cur, err := s.readSpace(ctx, spaceID)
		if err != nil {
			return err
		}
		now := s.d.Clock()
		cur, spOp := spaces.Apply(cur, old, spaces.NumberChangeRequest())
		cr = model.ChangeRequest{ID: ids.New(now), SpaceID: spaceID, Number: cur.ChangeRequests, Status: model.CRDraft,
			Subject: in.Subject, AgentTaskID: in.AgentTaskID, CreatedBy: userID, CreatedAt: now, UpdatedAt: now,
			Revision: cur.Revision, RevisionInitial: cur.Revision, Contributors: []string{userID}, OrgID: cur.OrgID}
		sp = cur
		ops := []store.Op{spOp,
			store.Put(records.Item(keys.ChangeRequestNumber(spaceID, cr.Number), content.ChangeRequestNumber{ID: cr.ID}, 1), store.IfNotExists)}
		ops = append(ops, crOps(cr, 0)...)
		return s.d.Store.Write(ctx, ops...)
	})
	return cr, sp, err
}

// readSpace reads a live space and its version (no authorization), for a
// change written with spaceOp in the same transaction.
func (s *Service) readSpace(ctx context.Context, spaceID string) (int64, model.Space, error) {
	sp, v, err := spaces.ReadLive(ctx, s.d.Store, spaceID)
	return v, sp, err
}

// crOps writes a request (if still at version; 0 for a new one) and its
// contributors' copies. A request whose organization is known is listed in
// it: by last update on its own item, by creation on its creator's copy
// (GSI2 of each).
func crOps(cr model.ChangeRequest, version int64) []store.Op {
	it := records.Item(keys.ChangeRequest(cr.SpaceID, cr.ID), cr, version+1)
	ik := keys.ChangeRequestByStatus(cr.SpaceID, cr.Status, cr.Number)
	it.GSI1PK, it.GSI1SK = ik.PK, ik.SK
	if cr.OrgID != "" {
		ok := keys.ChangeRequestInOrg(cr.OrgID, cr.Status, updatedKey(cr.UpdatedAt), cr.ID)
		it.GSI2PK, it.GSI2SK = ok.PK, ok.SK
	}
	ops := make([]store.Op, 0, 1+len(cr.Contributors))
	if version == 0 {
		ops = append(ops, store.Put(it, store.IfNotExists))
	} else {
		ops = append(ops, store.PutIfVersion(it, version))
	}
	for _, u := range cr.Contributors {
		c := records.Item(keys.ChangeRequestContributor(cr.SpaceID, u, cr.ID), cr, 1)
		ck := keys.ContributorByStatus(cr.SpaceID, u, cr.Status, cr.Number)
		c.GSI1PK, c.GSI1SK = ck.PK, ck.SK
		if u == cr.CreatedBy && cr.OrgID != "" {
			ok := keys.ChangeRequestCreatedInOrg(cr.OrgID, cr.Status, cr.ID)
			c.GSI2PK, c.GSI2SK = ok.PK, ok.SK
		}
		ops = append(ops, store.Put(c, store.Always))
	}
	return ops
}

// updatedKey writes a request's last update so that keys sort as times do.
func updatedKey(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000000Z") }

// Get returns a change request by id or number, with its space.
func (s *Service) Get(ctx context.Context, spaceID, ref string) (model.ChangeRequest, model.Space, error) {
	sp, _, err := s.content.Space(ctx, spaceID, access.ReadContent)
	if err != nil {
		return model.ChangeRequest{}, sp, err
	}
	cr, _, err := s.read(ctx, spaceID, ref)
	return cr, sp, err
}

// read reads a request (by id or number) and its version.
func (s *Service) read(ctx context.Context, spaceID, ref string) (model.ChangeRequest, int64, error) {
	return content.ReadChangeRequest(ctx, s.d.Store, spaceID, ref)
}

// readActive is read for an operation only draft and open requests take:
// a conflict, naming what the request's status refuses (refused, e.g.
// "accept changes"), for a merged or archived one.
func (s *Service) readActive(ctx context.Context, spaceID, ref, refused string) (model.ChangeRequest, int64, error) {
	cr, v, err := s.read(ctx, spaceID, ref)
	if err != nil {
		return model.ChangeRequest{}, 0, err
	}
	if !cr.Active() {
		return model.ChangeRequest{}, 0, apperr.Conflictf("change request is %s; only draft and open requests %s", cr.Status, refused)
	}
	return cr, v, nil
}

// List returns a page of a space's requests of one status (open when
// f.Status is ""), newest first, optionally only those a user contributed
// to.
func (s *Service) List(ctx context.Context, spaceID string, f Filter, r paging.Request) (paging.Page[model.ChangeRequest], model.Space, error) {
	if f.Status == "" {
		f.Status = model.CROpen
	}
	scope := "change-requests:" + spaceID + ":" + f.Status + ":" + f.Contributor
	if _, err := s.d.Cursors.After(scope, r.Cursor); err != nil { // a bad cursor before the caller's rights
		return paging.Page[model.ChangeRequest]{}, model.Space{}, err
	}
	sp, _, err := s.content.Space(ctx, spaceID, access.ReadContent)
	if err != nil {
		return paging.Page[model.ChangeRequest]{}, sp, err
	}
	pk := keys.SpaceChangeRequests(spaceID, f.Status)
	if f.Contributor != "" {
		pk = keys.ContributorChangeRequests(spaceID, f.Contributor, f.Status)
	}
	crs, err := records.Page[model.ChangeRequest](ctx, s.d.Store, s.d.Cursors, scope, store.Query{Index: store.GSI1, PK: pk, Reverse: true}, r, "change requests")
	return crs, sp, err
}

// Creators reads the creators of requests, by id, each once; a user that
// no longer exists is shown by id alone.
func (s *Service) Creators(ctx context.Context, crs []model.ChangeRequest) (map[string]model.User, error) {
	byID := map[string]model.User{}
	for _, cr := range crs {
		if _, ok := byID[cr.CreatedBy]; ok {
			continue
		}
		u, err := s.content.User(ctx, cr.CreatedBy)
		if err != nil {
			return nil, err
		}
		byID[cr.CreatedBy] = u
	}
	return byID, nil
}

// Content is the content service the requests' content is read through
// (its reads check the caller's right on the space).
func (s *Service) Content() *content.Service { return s.content }

// Transitions: merged is final; the other statuses move freely among
// themselves (merged is reached only by Merge).
func allowed(from, to string) error {
	if from == to {
		return nil
	}
	if from == model.CRMerged {
		return apperr.Conflictf("change request is merged; its status cannot change")
	}
	if to == model.CRMerged {
		return apperr.Field("status", "a change request becomes merged only by merging it")
	}
	return nil
}

// Update changes a request's subject or status.
func (s *Service) Update(ctx context.Context, spaceID, ref string, ch Change) (model.ChangeRequest, model.Space, error) {
	sp, _, err := s.content.Space(ctx, spaceID, access.EditContent)
	if err != nil {
		return model.ChangeRequest{}, sp, err
	}
	var out model.ChangeRequest
	opened := false
	err = store.Retry(ctx, func() error {
		cr, v, err := s.read(ctx, spaceID, ref)
		if err != nil {
			return err
		}
		from, was := cr.Status, cr
		opened = false
		if ch.Status != nil {
			if err := allowed(from, *ch.Status); err != nil {
				return err
			}
			cr.Status = *ch.Status
		}
		records.Set(&cr.Subject, ch.Subject)
		if !records.Same(was, cr) {
			cr.UpdatedAt = s.d.Clock()
		}
		cr.OrgID = sp.OrgID
		ops := crOps(cr, v)
		if cr.Status != from {
			old, cur, err := s.readSpace(ctx, spaceID)
			if err != nil {
				return err
			}
			var op store.Op
			sp, op = spaces.Apply(cur, old, spaces.MoveChangeRequest(from, cr.Status))
			ops = append(ops, op)
			opened = cr.Status == model.CROpen
		}
		out = cr
		return s.d.Store.Write(ctx, ops...)
	})
	if err == nil && opened {
		s.emit(ctx, "change_request_opened", out)
	}
	return out, sp, err
}

// addContributor counts a change userID made at to a request: they join
// its contributors (up to MaxContributors) and their edits are counted.
func addContributor(cr *model.ChangeRequest, userID string, at time.Time) {
	if !slices.Contains(cr.Contributors, userID) {
		if len(cr.Contributors) >= MaxContributors {
			return
		}
		cr.Contributors = append(cr.Contributors, userID)
	}
	cr.Edits = model.Contribute(cr.Edits, userID, at)
}
