package insights

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// segmentType marks a segment's counter (its claims; no event type).
const segmentType = "~segment"

// Counter is one counter of a day: the facts every event it counts
// shares, and how many events, visitors and sessions it counted.
type Counter struct {
	Day          string `json:"day"`
	Type         string `json:"type"`
	URLPath      string `json:"urlPath,omitempty"`
	SiteSection  string `json:"siteSection,omitempty"`
	SiteSpace    string `json:"siteSpace,omitempty"`
	Space        string `json:"space,omitempty"`
	Page         string `json:"page,omitempty"`
	Claims       string `json:"claims,omitempty"`
	Query        string `json:"query,omitempty"`
	NoResults    bool   `json:"noResults,omitempty"`
	ResultSpace  string `json:"resultSpace,omitempty"`
	ResultPage   string `json:"resultPage,omitempty"`
	Rating       string `json:"rating,omitempty"`
	Comment      string `json:"comment,omitempty"`
	LinkKind     string `json:"linkKind,omitempty"`
	LinkValue    string `json:"linkValue,omitempty"`
	LinkPosition string `json:"linkPosition,omitempty"`
	Events       int64  `json:"events"`
	Visitors     int64  `json:"visitors"`
	Sessions     int64  `json:"sessions"`
}

// counterOf is the counter an event adds to (without counts), and its id.
func counterOf(e event) (Counter, string) {
	c := Counter{Day: Day(e.Time), Type: e.Type, URLPath: e.URLPath, SiteSection: e.SiteSection, SiteSpace: e.SiteSpace, Space: e.Space, Page: e.Page,
		Query: e.Query, NoResults: e.NoResults, ResultSpace: e.ResultSpace, ResultPage: e.ResultPage, Rating: e.Rating, Comment: e.Comment,
		LinkKind: e.LinkKind, LinkValue: e.LinkValue, LinkPosition: e.LinkPosition}
	b, _ := json.Marshal(c)
	return c, hash(nil, string(b))
}

// segmentOf is the segment counter an event adds to.
func segmentOf(e event) (Counter, string) {
	c := Counter{Day: Day(e.Time), Type: segmentType, Claims: e.Claims}
	return c, "seg-" + hash(nil, e.Claims)
}

// delta is what a job adds to one counter.
type delta struct {
	c                          Counter
	events, visitors, sessions int64
}

// Apply is the job handler: it adds a batch of events to the site's
// counters. Visitors and sessions are counted once a day per counter
// (markers); a visitor's vote on a page counts once a day. A redelivered
// job is recognised by its marker, written in the same transaction as the
// counters; a job that failed between its markers and its counters counts
// those visitors' events again but not the visitors.
func (s *Service) Apply(ctx context.Context, j queue.Job) error {
	var b job
	if err := json.Unmarshal(j.Payload, &b); err != nil {
		return fmt.Errorf("insights job %s: %w", j.ID, err)
	}
	if len(b.Events) == 0 {
		return nil
	}
	day := Day(b.Events[0].Time)
	done := keys.InsightsMarker(b.SiteID, day, "job-"+j.ID)
	if _, err := s.d.Store.Get(ctx, done.PK, done.SK); err == nil {
		return nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	if err := s.keepDay(ctx, b.SiteID, day); err != nil {
		return err
	}
	// Votes: one per visitor, page and day (a rating and a comment each).
	events := b.Events[:0:0]
	for _, e := range b.Events {
		if e.Type == PagePostFeedback || e.Type == PagePostFeedbackComment {
			vote := keys.InsightsMarker(b.SiteID, Day(e.Time), "vote-"+hash(nil, e.Type, e.Space, e.Page, b.Visitor))
			err := s.d.Store.Write(ctx, store.Put(records.Item(vote, struct{}{}, 1), store.IfNotExists))
			if errors.Is(err, store.ErrConflict) {
				continue
			}
			if err != nil {
				return err
			}
		}
		events = append(events, e)
	}
	deltas := map[string]*delta{}
	var marks []markFor
	add := func(c Counter, id string, e event) {
		d := deltas[id]
		if d == nil {
			d = &delta{c: c}
			deltas[id] = d
		}
		d.events++
		marks = append(marks, markFor{id: id, day: c.Day, kind: "v", who: b.Visitor, d: d})
		session := e.Session
		if session == "" {
			session = b.Visitor
		}
		marks = append(marks, markFor{id: id, day: c.Day, kind: "s", who: session, d: d})
	}
	for _, e := range events {
		c, id := counterOf(e)
		add(c, id, e)
		sc, sid := segmentOf(e)
		add(sc, sid, e)
	}
	if err := s.mark(ctx, b.SiteID, marks); err != nil {
		return err
	}
	return s.addCounts(ctx, b.SiteID, deltas, done)
}

// markFor is a visitor ("v") or session ("s") to count once a day for a
// counter.
type markFor struct {
	id, day, kind, who string
	d                  *delta
}

// mark writes the markers of a job's visitors and sessions that are not
// there yet, and counts each new one on its counter.
func (s *Service) mark(ctx context.Context, siteID string, marks []markFor) error {
	seen := map[keys.Key]bool{}
	var todo []markFor
	var ks []keys.Key
	for _, m := range marks {
		k := keys.InsightsMarker(siteID, m.day, m.kind+"-"+m.id+"-"+m.who)
		if seen[k] {
			continue
		}
		seen[k] = true
		todo = append(todo, m)
		ks = append(ks, k)
	}
	for start := 0; start < len(todo); start += store.MaxBatchGetKeys {
		end := min(start+store.MaxBatchGetKeys, len(todo))
		batch := make([]store.ItemKey, 0, end-start)
		for _, k := range ks[start:end] {
			batch = append(batch, store.ItemKey{PK: k.PK, SK: k.SK})
		}
		got, err := s.d.Store.BatchGet(ctx, batch)
		if err != nil {
			return err
		}
		var newMarks []markFor
		var newKeys []keys.Key
		for i, it := range got {
			if it.PK == "" {
				newMarks, newKeys = append(newMarks, todo[start+i]), append(newKeys, ks[start+i])
			}
		}
		if err := s.putMarkers(ctx, newMarks, newKeys); err != nil {
			return err
		}
	}
	return nil
}

// putMarkers writes new markers, each if absent, and counts those it
// wrote on their counters: all in one transaction (the usual case: a
// job's markers are its own), else, when another job wrote one of them
// meanwhile (the transaction's condition fails), one by one.
func (s *Service) putMarkers(ctx context.Context, marks []markFor, ks []keys.Key) error {
	count := func(m markFor) {
		if m.kind == "v" {
			m.d.visitors++
		} else {
			m.d.sessions++
		}
	}
	for start := 0; start < len(marks); start += store.MaxTransactionOps {
		end := min(start+store.MaxTransactionOps, len(marks))
		ops := make([]store.Op, 0, end-start)
		for _, k := range ks[start:end] {
			ops = append(ops, store.Put(records.Item(k, struct{}{}, 1), store.IfNotExists))
		}
		err := s.d.Store.Write(ctx, ops...)
		if err == nil {
			for _, m := range marks[start:end] {
				count(m)
			}
			continue
		}
		if !errors.Is(err, store.ErrConflict) {
			return err
		}
		for i, op := range ops {
			err := s.d.Store.Write(ctx, op)
			if errors.Is(err, store.ErrConflict) {
				continue // another job counted them just now
			}
			if err != nil {
				return err
			}
			count(marks[start+i])
		}
	}
	return nil
}

// addCounts adds deltas to their counters and writes the job's marker, in
// one transaction (read, then write if unchanged; again on a race).
func (s *Service) addCounts(ctx context.Context, siteID string, deltas map[string]*delta, done keys.Key) error {
	ids := make([]string, 0, len(deltas))
	for id := range deltas {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for attempt := 0; ; attempt++ {
		batch := make([]store.ItemKey, len(ids))
		for i, id := range ids {
			k := keys.InsightsCounter(siteID, deltas[id].c.Day, id)
			batch[i] = store.ItemKey{PK: k.PK, SK: k.SK}
		}
		got, err := s.batchGet(ctx, batch)
		if err != nil {
			return err
		}
		ops := make([]store.Op, 0, len(ids)+1)
		for i, id := range ids {
			d := deltas[id]
			k := keys.InsightsCounter(siteID, d.c.Day, id)
			c := d.c
			if got[i].PK != "" {
				if c, err = records.Decode[Counter](got[i]); err != nil {
					return err
				}
			}
			c.Events += d.events
			c.Visitors += d.visitors
			c.Sessions += d.sessions
			if got[i].PK == "" {
				ops = append(ops, store.Put(records.Item(k, c, 1), store.IfNotExists))
			} else {
				ops = append(ops, store.PutIfVersion(records.Item(k, c, got[i].Version+1), got[i].Version))
			}
		}
		ops = append(ops, store.Put(records.Item(done, struct{}{}, 1), store.IfNotExists))
		err = s.d.Store.Write(ctx, ops...)
		if err == nil || !errors.Is(err, store.ErrConflict) {
			return err
		}
		if _, gerr := s.d.Store.Get(ctx, done.PK, done.SK); gerr == nil {
			return nil // a redelivery of this job won the race
		}
		if attempt == 8 {
			return fmt.Errorf("insights counters of site %s: %w", siteID, err)
		}
		time.Sleep(time.Duration(attempt+1) * 5 * time.Millisecond)
	}
}

// batchGet reads any number of keys.
func (s *Service) batchGet(ctx context.Context, ks []store.ItemKey) ([]store.Item, error) {
	out := make([]store.Item, 0, len(ks))
	for start := 0; start < len(ks); start += store.MaxBatchGetKeys {
		got, err := s.d.Store.BatchGet(ctx, ks[start:min(start+store.MaxBatchGetKeys, len(ks))])
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	return out, nil
}

// daysRecord lists the days whose markers a site keeps.
type daysRecord struct {
	Days []string `json:"days"`
}

// keepDays is how many days of markers are kept: today's and yesterday's
// (a job of yesterday's events may arrive after midnight).
const keepDays = 2

// keepDay notes that the site has markers of day and, when day is new,
// sweeps the markers of days past keepDays and the salts of those days.
func (s *Service) keepDay(ctx context.Context, siteID, day string) error {
	k := keys.InsightsDays(siteID)
	rec, v, err := records.Get[daysRecord](ctx, s.d.Store, k)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	for _, d := range rec.Days {
		if d == day {
			return nil
		}
	}
	days := append(rec.Days, day)
	sort.Strings(days)
	var old []string
	if len(days) > keepDays {
		old, days = days[:len(days)-keepDays], days[len(days)-keepDays:]
	}
	for _, d := range old {
		if err := s.sweep(ctx, siteID, d); err != nil {
			return err
		}
	}
	op := store.Put(records.Item(k, daysRecord{Days: days}, v+1), store.IfNotExists)
	if v > 0 {
		op = store.PutIfVersion(records.Item(k, daysRecord{Days: days}, v+1), v)
	}
	if err := s.d.Store.Write(ctx, op); err != nil && !errors.Is(err, store.ErrConflict) {
		return err
	}
	// A conflict: another job noted a day at the same time; the next job
	// of a new day sweeps again.
	return nil
}

// sweep deletes a site's markers of a day, and the day's salt.
func (s *Service) sweep(ctx context.Context, siteID, day string) error {
	pk := keys.InsightsDayPartition(siteID, day)
	for {
		page, err := s.d.Store.Query(ctx, store.Query{PK: pk, Limit: store.MaxTransactionOps})
		if err != nil {
			return err
		}
		if len(page.Items) == 0 {
			break
		}
		ops := make([]store.Op, len(page.Items))
		for i, it := range page.Items {
			ops[i] = store.Delete(it.PK, it.SK, store.Always)
		}
		if err := s.d.Store.Write(ctx, ops...); err != nil {
			return err
		}
	}
	salt := keys.InsightsSalt(day)
	return s.d.Store.Write(ctx, store.Delete(salt.PK, salt.SK, store.Always))
}
