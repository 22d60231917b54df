package insights

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/store"
)

// SeedCounters adds counters (their counts included) to a site's as the
// worker's last step does (count: read, add, write the days' counters and
// their months' roll-ups), without the visitors' markers, then packs
// every day but the last two, as the worker's first job of each new day
// does: the benchmarks' set-up of a million recorded events in minutes'
// fewer writes.
func (s *Service) SeedCounters(ctx context.Context, siteID string, cs []Counter) error {
	if err := s.AddCounters(ctx, siteID, cs); err != nil {
		return err
	}
	var days []string
	for _, c := range cs {
		if !slices.Contains(days, c.Day) {
			days = append(days, c.Day)
		}
	}
	sort.Strings(days)
	return s.packDays(ctx, siteID, days[:max(0, len(days)-keepDays)])
}

// AddCounters is SeedCounters without the packs: the days' packs it
// writes in are no longer at their totals' versions.
func (s *Service) AddCounters(ctx context.Context, siteID string, cs []Counter) error {
	for start := 0; start < len(cs); start += 95 {
		deltas := map[string]*delta{}
		end := min(start+95, len(cs))
		for _, c := range cs[start:end] {
			bare := c
			bare.Events, bare.Visitors, bare.Sessions = 0, 0, 0
			id := segmentPrefix + hash(nil, c.Claims)
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

// ValidPacks are the days (yyyy-mm-dd) of a month (yyyy-mm) whose every
// type's pack is at its total's version: the days aggregates read from
// their packs.
func (s *Service) ValidPacks(ctx context.Context, siteID, month string) ([]string, error) {
	totals, err := s.dayTotals(ctx, siteID, month)
	if err != nil {
		return nil, err
	}
	var out []string
	for day, types := range totals {
		packs, err := s.readPacks(ctx, siteID, keys.InsightsPackPrefix(day)+"#")
		if err != nil {
			return nil, err
		}
		valid := true
		for typ, v := range types {
			valid = valid && packs[typ].total == v
		}
		if valid {
			out = append(out, day)
		}
	}
	sort.Strings(out)
	return out, nil
}

// SegmentType is the type of a segment's counter.
const SegmentType = segmentType

// DropSegmentsTotal deletes a day's segments total, as the days counted
// before the segments had one.
func (s *Service) DropSegmentsTotal(ctx context.Context, siteID, day string) error {
	k := keys.InsightsTotal(siteID, day, segmentType)
	return s.d.Store.Write(ctx, store.Delete(k.PK, k.SK, store.Always))
}

// SegmentsByDays answers as Segments does from every counter of the days
// (no pack).
func (s *Service) SegmentsByDays(ctx context.Context, orgID, siteID string) ([]Segment, error) {
	return s.segments(ctx, orgID, siteID, false)
}

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
