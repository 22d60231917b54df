package gitsync

import (
	"context"
	"time"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/model"
)

// Jobs on one space never run at the same time (docs/workers.md, "Site-wide
// Git Sync"). The FIFO queue orders a space's own jobs (group: the space)
// and a site's (group: site:<id>), but a site job works on many spaces, so
// the two groups meet on a space: whichever job starts first holds the
// space's lease (in the space's state) until it concludes, and the other
// returns errBusy and is retried by the queue.

// leaseTTL bounds a lease whose job died without concluding: longer than a
// Git worker runs (5 minutes), so that a live job never loses it.
const leaseTTL = 10 * time.Minute

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
