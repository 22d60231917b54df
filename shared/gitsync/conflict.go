package gitsync

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/gitsync/gitstate"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/store"
)

// Conflicts (docs/workers.md, "Conflicts"): when the branch has commits
// the space has not imported and the space changed since their last sync
// too, an automatic job never pushes over the branch and never replaces
// the space's content. The branch's commit is imported as an open change
// request against the space's revision at the last sync (the request's
// changes are the repository's; merging it merges them with the space's
// edits, overlapping edits answered as conflicts, as for any request),
// the state records the conflict, and automatic exports wait until the
// request is merged; the export that merge queues then pushes the space,
// repository's commits included, on top of the branch.

// proposeConflict proposes the branch's head (snap), which an automatic
// job found moved while the space changed too, as a change request (or
// as the new content of the one already waiting); dir is the project
// directory it reads.
func (s *Service) proposeConflict(ctx context.Context, j queue.Job, p payload, st model.GitSync, snap *snapshot, dir string) error {
	commit := snap.commit.Hash.String()
	if c := st.Conflict; c != nil && c.Commit == commit {
		return s.waitConflict(ctx, p, j, *c) // proposed already
	}
	if err := s.stage(ctx, p, j, "content_process"); err != nil {
		return err
	}
	layout := layoutOf(snap, dir)
	files, err := s.readProject(snap, layout)
	if err != nil {
		return s.fail(ctx, p, j, err)
	}
	files.treeURL = p.RepoTreeURL
	gitCommit := &model.GitCommit{OID: commit, Message: strings.TrimRight(snap.commit.Message, "\n"), CreatedByGitBook: isOurs(snap.commit), Ref: p.Ref}
	if p.RepoCommitURL != "" {
		gitCommit.URL = strings.TrimRight(p.RepoCommitURL, "/") + "/" + commit
	}
	var synced []model.SyncedFile
	build := func(ctx context.Context, base model.Revision, ix *content.Index) (model.Revision, []store.Op, error) {
		b, err := s.build(ctx, p.SpaceID, files, ix, nil)
		if err != nil {
			return model.Revision{}, nil, err
		}
		rev, err := s.content.Repo.NewRevision(ctx, p.SpaceID, content.RevisionEdits, []string{base.ID}, b.ix)
		if err != nil {
			return model.Revision{}, nil, err
		}
		rev.Git, synced = gitCommit, b.synced
		return rev, nil, nil
	}
	subject := fmt.Sprintf("Git Sync: %s at %s (%s), changed in the repository and in the space", strings.TrimPrefix(p.Ref, "refs/heads/"),
		short(commit), firstLine(gitCommit.Message))
	by := p.UserID // the user whose merge found it, else the space's creator
	if by == "" {
		if sp, err := s.readSpace(ctx, p.SpaceID); err == nil {
			by = sp.CreatedBy
		}
	}
	var cr model.ChangeRequest
	var revision string
	if c := st.Conflict; c != nil {
		// The branch moved again while the request waits: its newer
		// commit becomes the request's content, if it is still open.
		if cur, _, err := s.crs.Record(ctx, p.SpaceID, c.ChangeRequest); err == nil && cur.Active() {
			var rev model.Revision
			rev, cr, err = s.crs.LandOnRequest(ctx, p.SpaceID, c.ChangeRequest, by, build)
			if err != nil && !apperr.Is(err, apperr.Conflict) {
				return err
			}
			revision = rev.ID
		}
	}
	if revision == "" {
		cr, err = s.crs.Propose(ctx, p.SpaceID, st.LastRevision, subject, by, build)
		if apperr.Is(err, apperr.NotFound) {
			return nil // the space or its revision is gone
		}
		if err != nil {
			return err
		}
		revision = cr.Revision
	}
	list, err := gitstate.PutSynced(ctx, s.d.Blobs, p.SpaceID, synced) // before the record naming it
	if err != nil {
		return err
	}
	c := model.GitConflict{Commit: commit, ChangeRequest: cr.ID, Number: cr.Number, Revision: revision, FilesList: list, Dir: layout.dir,
		Since: s.d.Clock()}
	if st.Conflict != nil && st.Conflict.ChangeRequest == cr.ID {
		c.Since = st.Conflict.Since
	}
	s.d.Logger.InfoContext(ctx, "Git Sync conflict: the branch's commit proposed as a change request", "space", p.SpaceID, "job", j.ID,
		"commit", commit, "changeRequest", cr.ID, "number", cr.Number)
	_, err = s.updateState(ctx, p.SpaceID, func(st *model.GitSync) error {
		st.Conflict = &c
		return nil
	})
	if err != nil {
		return err
	}
	return s.waitConflict(ctx, p, j, c)
}

// waitConflict concludes an automatic job that waits for a conflict's
// change request.
func (s *Service) waitConflict(ctx context.Context, p payload, j queue.Job, c model.GitConflict) error {
	return s.conclude(ctx, p, j, func(op *model.GitOperation) {
		op.State, op.Error = model.GitFailure, conflictText(p.Ref, c)
	}, nil)
}

// conflictText says a conflict in plain words.
func conflictText(ref string, c model.GitConflict) string {
	return fmt.Sprintf("conflict: the branch %s has commits the space has not imported (now at %s) and the space changed too; "+
		"nothing was pushed or overwritten: the branch's content is change request #%d, merge it to export the space",
		strings.TrimPrefix(ref, "refs/heads/"), short(c.Commit), c.Number)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 72 {
		s = s[:72]
	}
	return s
}

// errWaiting: the export waits for a conflict's change request.
var errWaiting = errors.New("waiting for the conflict's change request")

// settleConflict looks at a state's conflict before an automatic export:
// when its change request was merged, the branch's commit it held is the
// last sync (the space holds it now) and the conflict ends; while it is
// open, the export waits (errWaiting). The state answered is the one to
// export from.
func (s *Service) settleConflict(ctx context.Context, p payload, st model.GitSync) (model.GitSync, error) {
	c := st.Conflict
	if c == nil {
		return st, nil
	}
	cr, _, err := s.crs.Record(ctx, p.SpaceID, c.ChangeRequest)
	if err != nil && !apperr.Is(err, apperr.NotFound) {
		return st, err
	}
	if err == nil && cr.Status != model.CRMerged {
		return st, errWaiting
	}
	// Merged (or deleted: the team dropped the branch's commit in Galley;
	// the space's content, rewritten over the branch, keeps history).
	return s.updateState(ctx, p.SpaceID, func(st *model.GitSync) error {
		if st.Conflict == nil || st.Conflict.ChangeRequest != c.ChangeRequest {
			return nil
		}
		if err == nil {
			st.LastCommit, st.LastRevision, st.SyncedList, st.Synced, st.Dir = c.Commit, c.Revision, c.FilesList, c.Files, c.Dir
		}
		st.Conflict = nil
		return nil
	})
}
