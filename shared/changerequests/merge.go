package changerequests

import (
	"context"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/mergerules"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/orgs"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/store"
)

// Merge and update results.
const (
	ResultMerge     = "merge"
	ResultUpdate    = "update"
	ResultConflicts = "conflicts"
)

// Result is the outcome of a merge or an update.
type Result struct {
	// Revision is the revision made, or on conflicts the unchanged one
	// (the space's head for a merge, the request's for an update).
	Revision  string
	Result    string
	Conflicts []content.Conflict
}

// loader reads revisions once each during one merge.
type loader struct {
	s       *Service
	spaceID string
	revs    map[string]model.Revision
	ixs     map[string]*content.Index
}

func (s *Service) loader(spaceID string) *loader {
	return &loader{s: s, spaceID: spaceID, revs: map[string]model.Revision{}, ixs: map[string]*content.Index{}}
}

func (l *loader) load(ctx context.Context, id string) (model.Revision, *content.Index, error) {
	if ix, ok := l.ixs[id]; ok {
		return l.revs[id], ix, nil
	}
	rev, ix, err := l.s.repo.Load(ctx, l.spaceID, id)
	if err != nil {
		return rev, nil, err
	}
	l.revs[id], l.ixs[id] = rev, ix
	return rev, ix, nil
}

// merge3 merges ours and theirs over base. When one side did not change
// the base, the other side's revision is the result as it is (its tree is
// reused, nothing is merged); tree is then that tree's key.
func (s *Service) merge3(ctx context.Context, spaceID, base, ours, theirs, oursName, theirsName string) (tree string, conflicts []content.Conflict, err error) {
	switch {
	case base == ours:
		rev, err := s.repo.Revision(ctx, spaceID, theirs)
		return rev.Tree, nil, err
	case base == theirs:
		rev, err := s.repo.Revision(ctx, spaceID, ours)
		return rev.Tree, nil, err
	}
	l := s.loader(spaceID)
	_, b, err := l.load(ctx, base)
	if err != nil {
		return "", nil, err
	}
	_, o, err := l.load(ctx, ours)
	if err != nil {
		return "", nil, err
	}
	_, t, err := l.load(ctx, theirs)
	if err != nil {
		return "", nil, err
	}
	m := &content.Merger{Base: b, Ours: o, Theirs: t, OursName: oursName, TheirsName: theirsName,
		Document:    func(h string) (string, error) { return s.repo.Document(ctx, spaceID, h) },
		PutDocument: func(body string) (string, error) { return s.repo.PutDocument(ctx, spaceID, body) }}
	ix, conflicts, err := m.Merge()
	if err != nil || len(conflicts) > 0 {
		return "", conflicts, err
	}
	tree, err = s.repo.PutTree(ctx, spaceID, ix.Tree())
	return tree, nil, err
}

// newRevision makes a revision record of a merged tree.
func (s *Service) newRevision(spaceID, typ, tree string, parents []string) model.Revision {
	now := s.d.Clock()
	return model.Revision{ID: ids.New(now), SpaceID: spaceID, Parents: parents, Type: typ, CreatedAt: now, Tree: tree}
}

// Merge merges a draft or open request into the space: the space's head
// moves to a new "merge" revision and the request becomes merged, in one
// transaction guarded by the space's and the request's versions. When the
// head moved meanwhile, the merge is made again on the new head, so that
// concurrent merges never lose a change. Overlapping edits change nothing
// and answer the conflicts.
func (s *Service) Merge(ctx context.Context, spaceID, ref string) (Result, error) {
	userID, space, err := s.callerOn(ctx, spaceID, access.MergeContent)
	if err != nil {
		return Result{}, err
	}
	rules, err := s.mergeRules(ctx, space)
	if err != nil {
		return Result{}, err
	}
	var out Result
	var merged model.ChangeRequest
	// The merge of three revisions is kept across attempts: an attempt that
	// lost its race to a write that moved no revision (a comment counted on
	// the space, a request's subject) writes the same merge again without
	// making it again.
	var made struct {
		ok                       bool
		base, ours, theirs, tree string
		conflicts                []content.Conflict
	}
	err = store.Retry(ctx, func() error {
		cr, v, err := s.readActive(ctx, spaceID, ref, "can be merged")
		if err != nil {
			return err
		}
		old, sp, err := s.readSpace(ctx, spaceID)
		if err != nil {
			return err
		}
		if err := s.checkRules(ctx, rules, cr, sp, userID); err != nil {
			return err
		}
		if !made.ok || made.base != cr.Base() || made.ours != sp.Revision || made.theirs != cr.Revision {
			tree, conflicts, err := s.merge3(ctx, spaceID, cr.Base(), sp.Revision, cr.Revision, "the space", "the change request")
			if err != nil {
				return err
			}
			made.ok, made.base, made.ours, made.theirs, made.tree, made.conflicts = true, cr.Base(), sp.Revision, cr.Revision, tree, conflicts
		}
		tree, conflicts := made.tree, made.conflicts
		if len(conflicts) > 0 {
			out = Result{Revision: sp.Revision, Result: ResultConflicts, Conflicts: conflicts}
			return nil
		}
		rev := s.newRevision(spaceID, content.RevisionMerge, tree, []string{sp.Revision, cr.Revision})
		rev.MergedFrom = cr.ID
		from := cr.Status
		cr.Status, cr.RevisionMerged, cr.UpdatedAt, cr.OrgID = model.CRMerged, rev.ID, rev.CreatedAt, sp.OrgID
		_, spOp := spaces.Apply(sp, old, spaces.MoveChangeRequest(from, cr.Status), spaces.SetHead(rev.ID, rev.CreatedAt))
		ops := append([]store.Op{spOp, content.Put(rev)}, crOps(cr, v)...)
		if err := s.d.Store.Write(ctx, ops...); err != nil {
			return err
		}
		out, merged = Result{Revision: rev.ID, Result: ResultMerge}, cr
		return nil
	})
	if err == nil && out.Result == ResultMerge {
		s.landed(ctx, Landing{SpaceID: spaceID, Revision: out.Revision, UserID: userID, ChangeRequest: &merged})
		s.contentUpdated(ctx, merged.OrgID, spaceID, merged.RevisionMerged, []string{userID})
		s.emit(ctx, "change_request_merged", merged)
	}
	return out, err
}

// mergeRules reads the merge rules that apply to a space's requests: its
// own, or its organization's.
func (s *Service) mergeRules(ctx context.Context, sp model.Space) (model.MergeRules, error) {
	if sp.MergeRules != nil && sp.MergeRules.Type != model.MergeRulesInherit {
		return *sp.MergeRules, nil
	}
	org, _, err := orgs.ReadOrg(ctx, s.d.Store, sp.OrgID)
	if err != nil {
		return model.MergeRules{}, err
	}
	return mergerules.Effective(sp.MergeRules, org.MergeRules), nil
}

// checkRules refuses (409) a merge the rules do not allow yet.
func (s *Service) checkRules(ctx context.Context, rules model.MergeRules, cr model.ChangeRequest, sp model.Space, userID string) error {
	if rules.Type != model.MergeRulesRules {
		return nil
	}
	reviews, pending, err := s.currentReviews(ctx, cr.SpaceID, cr.ID)
	if err != nil {
		return err
	}
	return mergerules.Check(rules, mergerules.Facts{Merger: userID, Author: cr.CreatedBy, Subject: cr.Subject,
		UpToDate: cr.Base() == sp.Revision, Reviews: reviews, Pending: pending})
}

// UpdateFromSpace brings the space's changes into a draft or open request: the
// request's head moves to a new "update" revision merging the space's head,
// which becomes its revisionMergedAncestor (it is no longer outdated). A
// request already up to date is left as it is. Overlapping edits change
// nothing and answer the conflicts.
func (s *Service) UpdateFromSpace(ctx context.Context, spaceID, ref string) (Result, error) {
	userID, _, err := s.callerOn(ctx, spaceID, access.EditContent)
	if err != nil {
		return Result{}, err
	}
	var out Result
	err = store.Retry(ctx, func() error {
		cr, v, err := s.readActive(ctx, spaceID, ref, "can be updated")
		if err != nil {
			return err
		}
		_, sp, err := s.readSpace(ctx, spaceID)
		if err != nil {
			return err
		}
		if cr.Base() == sp.Revision {
			out = Result{Revision: cr.Revision, Result: ResultUpdate}
			return nil
		}
		tree, conflicts, err := s.merge3(ctx, spaceID, cr.Base(), cr.Revision, sp.Revision, "the change request", "the space")
		if err != nil {
			return err
		}
		if len(conflicts) > 0 {
			out = Result{Revision: cr.Revision, Result: ResultConflicts, Conflicts: conflicts}
			return nil
		}
		rev := s.newRevision(spaceID, content.RevisionUpdate, tree, []string{cr.Revision, sp.Revision})
		cr.Revision, cr.RevisionMergedAncestor, cr.UpdatedAt, cr.OrgID = rev.ID, sp.Revision, rev.CreatedAt, sp.OrgID
		addContributor(&cr, userID, rev.CreatedAt)
		if err := s.d.Store.Write(ctx, append(crOps(cr, v), content.Put(rev))...); err != nil {
			return err
		}
		out = Result{Revision: rev.ID, Result: ResultUpdate}
		return nil
	})
	return out, err
}
