package model

import "time"

// JobLease is a background job's hold on the record it works on: the job
// (by its queue.Job id) and until when. A worker that dies leaves it held;
// once Until passes, the record's job is run again (docs/faults.md).
type JobLease struct {
	JobID string    `json:"jobId"`
	Until time.Time `json:"until"`
}
