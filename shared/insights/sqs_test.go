package insights_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/galleydocs/galley/shared/app/wire/insightswire"
	"github.com/galleydocs/galley/shared/insights"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/testkit"
)

// TestSQSWorkerAppliesADeliveryTogether: the AWS insights worker's path
// (moto's SQS, sqsqueue.BatchingHandler) gives a delivery's insights jobs
// to ApplyAll together. The same events on two sites, one's jobs applied
// one by one, the other's sent to SQS with two jobs sent twice (a
// duplicate inside a delivery) and a job that cannot be applied: that
// delivery's batch fails, its jobs run one by one and only the bad one is
// reported failed; both sites answer alike (every metric by type, page
// and segment).
func TestSQSWorkerAppliesADeliveryTogether(t *testing.T) {
	testkit.Backends(t, func(t *testing.T, k *testkit.Kit) {
		f := setup(t, k)
		other := f.otherSite(t)
		s := insightswire.Service(f.Root)
		one, sent := f.trackOnBoth(t, other, rand.New(rand.NewPCG(28, 5)), 16)
		for _, j := range one {
			if err := s.Apply(k.Ctx, j); err != nil {
				t.Fatal(err)
			}
		}
		w := testkit.NewSQSWorker(t, false)
		type batch struct {
			ids []string
			err error
		}
		var batches []batch
		w.Batches = map[string]queue.BatchHandler{insights.JobKind: func(ctx context.Context, jobs []queue.Job) error {
			var ids []string
			for _, j := range jobs {
				ids = append(ids, j.ID)
			}
			err := s.ApplyAll(ctx, jobs)
			batches = append(batches, batch{ids, err})
			return err
		}}
		handlers := map[string]queue.Handler{insights.JobKind: s.Apply}
		send := func(jobs ...queue.Job) {
			for _, j := range jobs {
				if err := w.Queue.Enqueue(k.Ctx, j); err != nil {
					t.Fatal(err)
				}
			}
		}
		// A delivery of 8 jobs, two of them twice.
		send(append(slices.Clone(sent[:8]), sent[3], sent[5])...)
		if n, failed := w.Deliver(t, handlers); n != 10 || len(failed) != 0 {
			t.Fatalf("first delivery: %d messages, %v failed; want 10, none", n, failed)
		}
		if len(batches) != 1 || len(batches[0].ids) != 10 || batches[0].err != nil {
			t.Fatalf("batches %v: want one of 10 jobs (two twice), applied", batches)
		}
		// A delivery of the 8 others and a job that cannot be applied:
		// the batch fails, its jobs run one by one, only the bad one is
		// reported failed (each delivery, until dropped as the
		// dead-letter queue would).
		bad := queue.Job{ID: "bad-job", Kind: insights.JobKind, Payload: json.RawMessage(`{"siteId": 5}`)}
		send(append(slices.Clone(sent[8:]), bad)...)
		n, failed := w.Deliver(t, handlers)
		if n != 9 || len(failed) != 1 || len(batches) != 2 || batches[1].err == nil {
			t.Fatalf("second delivery: %d messages, %v failed, batches %v; want 9, one failed, a failed batch", n, failed, batches)
		}
		if n, again := w.Deliver(t, handlers); n != 1 || !slices.Equal(again, failed) {
			t.Fatalf("redelivery: %d messages, %v failed; want the bad job's %v alone", n, again, failed)
		}
		w.Purge(t)
		f.sameAnswers(t, other)
	})
}
