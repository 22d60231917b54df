package gitsync

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/gitsync/gitjob"
	"github.com/galleydocs/galley/shared/gitsync/gitstate"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/queue"
)

// Jobs on one space never run at the same time (docs/workers.md, "Site-wide
// Git Sync"). The FIFO queue orders a space's own jobs (group: the space)
// and a site's (group: site:<id>), but a site job works on many spaces, so
// the two groups meet on a space: whichever job starts first holds the
// space's lease (in the space's state) until it concludes, and the other
// returns errBusy and is retried by the queue.

// leaseTTL bounds a lease whose job died without concluding: longer than a
// Git worker runs (5 minutes), so that a live job never loses it. It is
// also the lease of a queued job (model.GitPending.Until).
const leaseTTL = gitjob.LeaseTTL

// retryLease is the lease of a job left to the queue to retry (an
// unreachable repository): longer than the Git queue's visibility
// timeout (30 minutes), after which SQS delivers it again.
const retryLease = 40 * time.Minute

// errBusy: another job holds the space's lease. Returned by a handler, it
// makes the queue deliver the job again later.
func errBusy(spaceID, holder string) error {
	return apperr.Conflictf("space %s is being synced by Git job %s; this job runs when that one is done", spaceID, holder)
}

// acquire takes the lease of a space for job (again, when job holds it).
func (s *Service) acquire(ctx context.Context, spaceID, job string) error {
	_, err := s.updateState(ctx, spaceID, func(st *model.GitSync) error {
		now := s.d.Clock()
		if l := st.Lease; l != nil && l.JobID != job && now.Before(l.Until) {
			return errBusy(spaceID, l.JobID)
		}
		st.Lease = &model.GitLease{JobID: job, Until: now.Add(leaseTTL)}
		// The job's own lease starts again with this run.
		if i := slices.IndexFunc(st.Pending, func(q model.GitPending) bool { return q.JobID == job }); i >= 0 {
			st.Pending[i].Until = st.Lease.Until
		}
		return nil
	})
	return err
}

// release gives a space's lease back, when job holds it.
func (s *Service) release(ctx context.Context, spaceID, job string) error {
	st, _, err := s.state(ctx, spaceID)
	if err != nil || st.Lease == nil || st.Lease.JobID != job {
		return err
	}
	_, err = s.updateState(ctx, spaceID, func(st *model.GitSync) error {
		if st.Lease != nil && st.Lease.JobID == job {
			st.Lease = nil
		}
		return nil
	})
	return err
}

// acquireAll takes the leases of the spaces of a site job (each space's
// part has its own job id, sub(spaceID)); when one is held by another
// job, it gives back those it took and answers errBusy.
func (s *Service) acquireAll(ctx context.Context, spaceIDs []string, sub func(string) string) error {
	for i, id := range spaceIDs {
		if err := s.acquire(ctx, id, sub(id)); err != nil {
			for _, took := range spaceIDs[:i] {
				if rerr := s.release(ctx, took, sub(took)); rerr != nil {
					return rerr
				}
			}
			return err
		}
	}
	return nil
}

// A queued Git job carries a lease (model.GitPending: the job as queued,
// Until), renewed when a worker starts it. A worker killed mid-job leaves
// it running; SQS delivers the message again after its visibility
// timeout, and the job runs from the start (docs/faults.md). When the
// message is gone (five deaths: the dead-letter queue; or never sent), the
// lease expires: the next read of the state (GET .../git/info) queues the
// job again, and after model.GitMaxHandOuts such hand-outs concludes it
// failed (model.GitErrInterrupted), so that no operation shows running
// for ever.

// pendingOf is the pending entry of a job queued at now.
func pendingOf(job queue.Job, op model.GitOperation, trigger string) model.GitPending {
	return model.GitPending{JobID: job.ID, Direction: op.Direction, Trigger: trigger, EnqueuedAt: op.StartedAt,
		Kind: job.Kind, Group: job.Group, Payload: job.Payload, Until: op.StartedAt.Add(leaseTTL)}
}

// expired tells whether a pending job's lease passed at now (an entry
// written before leases: its enqueue time and leaseTTL).
func expired(p model.GitPending, now time.Time) bool {
	until := p.Until
	if until.IsZero() {
		until = p.EnqueuedAt.Add(leaseTTL)
	}
	return !now.Before(until)
}

// anyExpired tells whether some pending job's lease passed at now.
func anyExpired(pending []model.GitPending, now time.Time) bool {
	return slices.ContainsFunc(pending, func(p model.GitPending) bool { return expired(p, now) })
}

// handOut goes through the pending jobs whose lease passed at now: those
// that may be queued again get a new lease and are returned in again;
// the others (handed out too often, or kept without their job) are taken
// off the list and returned in lost, for their operation to fail.
func handOut(pending *[]model.GitPending, now time.Time) (again []queue.Job, lost []model.GitPending) {
	*pending = slices.DeleteFunc(*pending, func(p model.GitPending) bool {
		if !expired(p, now) {
			return false
		}
		if p.Payload == nil || p.HandedOut >= model.GitMaxHandOuts {
			lost = append(lost, p)
			return true
		}
		return false
	})
	for i := range *pending {
		p := &(*pending)[i]
		if expired(*p, now) {
			p.HandedOut++
			p.Until = now.Add(leaseTTL)
			again = append(again, queue.Job{ID: p.JobID, Kind: p.Kind, Group: p.Group, Payload: p.Payload})
		}
	}
	return again, lost
}

// interrupted is the failure of a job whose lease expired for good.
func interrupted(p model.GitPending) string {
	return fmt.Sprintf("the Git job stopped without concluding (its worker was stopped or timed out), also after it was queued again %d times; ask for it again", p.HandedOut)
}

// revive hands out again the jobs of a space whose lease expired, and
// fails those given up (see above); it answers the state as it is then.
// A failure is logged and the state answered as read (the next read
// tries again).
func (s *Service) revive(ctx context.Context, st model.GitSync) model.GitSync {
	now := s.d.Clock()
	if !anyExpired(st.Pending, now) {
		return st
	}
	var again []queue.Job
	var lost []model.GitPending
	out, err := s.updateState(ctx, st.SpaceID, func(st *model.GitSync) error {
		again, lost = handOut(&st.Pending, now)
		for _, p := range lost {
			kind := ImportKind
			if p.Direction == model.GitExport {
				kind = ExportKind
			}
			if p.Kind != "" {
				kind = p.Kind
			}
			if slices.Contains(st.Done, p.JobID) {
				continue
			}
			finish(st, payload{Trigger: p.Trigger}, queue.Job{ID: p.JobID, Kind: kind}, now, func(op *model.GitOperation) {
				op.State, op.Error, op.Code = model.GitFailure, interrupted(p), model.GitErrInterrupted
			}, nil)
		}
		restage(st.Operation, again, now)
		return nil
	})
	if err != nil {
		s.d.Logger.WarnContext(ctx, "Git jobs not handed out again", "space", st.SpaceID, "err", err.Error())
		return st
	}
	s.dropIntents(ctx, st.SpaceID, lost)
	if s.sendAgain(ctx, "space", st.SpaceID, again, s.Handle) {
		if fresh, _, err := s.state(ctx, st.SpaceID); err == nil {
			out = fresh
		}
	}
	return out
}

// reviveSite is revive for a site's jobs.
func (s *Service) reviveSite(ctx context.Context, st model.SiteGitSync) model.SiteGitSync {
	now := s.d.Clock()
	if !anyExpired(st.Pending, now) {
		return st
	}
	var again []queue.Job
	var lost []model.GitPending
	var out model.SiteGitSync
	err := s.updateSite(ctx, st.SiteID, func(st *model.SiteGitSync) error {
		again, lost = handOut(&st.Pending, now)
		for _, p := range lost {
			if slices.Contains(st.Done, p.JobID) {
				continue
			}
			st.Done = keepLast(append(st.Done, p.JobID), doneKept)
			if op := st.Operation; op != nil && op.JobID == p.JobID {
				op.State, op.Error, op.Code, op.UpdatedAt, op.Stage = model.GitFailure, interrupted(p), model.GitErrInterrupted, now, "finalize"
			}
		}
		if st.Operation != nil {
			restage(&st.Operation.GitOperation, again, now)
		}
		out = *st
		return nil
	})
	if err != nil {
		s.d.Logger.WarnContext(ctx, "site Git jobs not handed out again", "site", st.SiteID, "err", err.Error())
		return st
	}
	s.dropIntents(ctx, "site-"+st.SiteID, lost)
	if s.sendAgain(ctx, "site", st.SiteID, again, s.HandleSite) {
		if fresh, _, err := gitstate.GetSite(ctx, s.d.Store, st.SiteID); err == nil {
			out = fresh
		}
	}
	return out
}

// dropIntents deletes the push intents (export.go) of the jobs given up
// as interrupted, once that is written: such a job never runs again (a
// late delivery finds it concluded), so nothing reads its intents, and
// without this their blob stayed for ever. Imports keep none; their
// delete finds nothing.
func (s *Service) dropIntents(ctx context.Context, owner string, lost []model.GitPending) {
	for _, p := range lost {
		if p.Direction != model.GitImport {
			s.dropIntent(ctx, owner, p.JobID)
		}
	}
}

// restage shows op running from its first stage again when its job is
// among those handed out again.
func restage(op *model.GitOperation, again []queue.Job, now time.Time) {
	if op != nil && slices.ContainsFunc(again, func(j queue.Job) bool { return j.ID == op.JobID }) {
		op.Stage, op.UpdatedAt = "repo_fetch", now
	}
}

// sendAgain queues the jobs handed out again of a space or site (what,
// id), or runs them with handle when the service has no queue; it tells
// whether some ran here (the state is then read again).
func (s *Service) sendAgain(ctx context.Context, what, id string, again []queue.Job, handle func(context.Context, queue.Job) error) bool {
	for _, j := range again {
		s.d.Logger.InfoContext(ctx, "Git job handed out again after its lease expired", what, id, "job", j.ID, "kind", j.Kind)
		if err := s.dispatch(ctx, j, handle); err != nil {
			s.d.Logger.WarnContext(ctx, "Git job not handed out again", what, id, "job", j.ID, "err", err.Error())
		}
	}
	return len(again) > 0 && s.d.Queue == nil
}

// keepLast keeps the last n of list.
func keepLast(list []string, n int) []string {
	if len(list) > n {
		return list[len(list)-n:]
	}
	return list
}
