package insights

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/galleydocs/galley/shared/keys"
)

// SeedCounters adds counters (their counts included) to a site's as the
// worker's last step does (count: read, add, write the days' counters and
// their months' roll-ups), without the visitors' markers: the benchmarks' set-up of a
// million recorded events in minutes' fewer writes.
func (s *Service) SeedCounters(ctx context.Context, siteID string, cs []Counter) error {
	for start := 0; start < len(cs); start += 95 {
		deltas := map[string]*delta{}
		end := min(start+95, len(cs))
		for _, c := range cs[start:end] {
			bare := c
			bare.Events, bare.Visitors, bare.Sessions = 0, 0, 0
			id := "seg-" + hash(nil, c.Claims)
			if c.Type != segmentType {
				b, _ := json.Marshal(bare)
				id = hash(nil, string(b))
			}
			d := deltas[id]
			if d == nil {
				d = &delta{c: bare}
				deltas[id] = d
			}
			d.events, d.visitors, d.sessions = d.events+c.Events, d.visitors+c.Visitors, d.sessions+c.Sessions
		}
		done := keys.InsightsMarker(siteID, cs[start].Day, fmt.Sprintf("job-seed-%d", start))
		if err := s.count(ctx, siteID, deltas, done); err != nil {
			return err
		}
	}
	return nil
}

// SegmentType is the type of a segment's counter.
const SegmentType = segmentType

// AggregateByDays answers as Aggregate does from the days' counters only
// (no month roll-up): what the roll-ups must answer alike.
func (s *Service) AggregateByDays(ctx context.Context, orgID, siteID string, q Aggregation) (Result, error) {
	return s.aggregate(ctx, orgID, siteID, q, false)
}

// PlanSpans tells how Aggregate reads a range: the month roll-ups it
// adds, the days it subtracts, and whether it reads the totals by type.
func (s *Service) PlanSpans(q Aggregation) (months, subtracted int, totals bool) {
	for _, sp := range s.plan(q.From, q.To, sourceOf(q)) {
		switch {
		case sp.sign < 0:
			subtracted++
		case strings.HasPrefix(sp.prefix, "MONTH#"):
			months++
		case strings.HasPrefix(sp.prefix, "TOTAL#"):
			totals = true
		}
	}
	return months, subtracted, totals
}
