package insights

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"time"

	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// segmentType marks a segment's counter (its claims; no event type).
const segmentType = "~segment"

// Location is where events happened, as counters keep it (GitBook's
// location, its URL's path only). Counter and the queued event embed it:
// their JSON is flat, in this order.
type Location struct {
	URLPath     string `json:"urlPath,omitempty"`
	SiteSection string `json:"siteSection,omitempty"`
	SiteSpace   string `json:"siteSpace,omitempty"`
	Space       string `json:"space,omitempty"`
	Page        string `json:"page,omitempty"`
}

// Facts are an event's own facts as counters keep them: a search's query
// (and whether it had results) and the result opened, a feedback's rating
// and comment, a link's target and position. Embedded as Location.
type Facts struct {
	Query        string `json:"query,omitempty"`
	NoResults    bool   `json:"noResults,omitempty"`
	ResultSpace  string `json:"resultSpace,omitempty"`
	ResultPage   string `json:"resultPage,omitempty"`
	Rating       string `json:"rating,omitempty"`
	Comment      string `json:"comment,omitempty"`
	LinkKind     string `json:"linkKind,omitempty"`
	LinkValue    string `json:"linkValue,omitempty"`
	LinkPosition string `json:"linkPosition,omitempty"`
}

// Counter is one counter of a day: the facts every event it counts
// shares, and how many events, visitors and sessions it counted. Its id
// hashes its JSON without the counts (counterOf): the embedded structs
// keep the JSON the flat struct had, so ids are unchanged.
type Counter struct {
	Day  string `json:"day"`
	Type string `json:"type"`
	Location
	Claims string `json:"claims,omitempty"`
	Facts
	Events   int64 `json:"events"`
	Visitors int64 `json:"visitors"`
	Sessions int64 `json:"sessions"`
}

// counterOf is the counter an event adds to (without counts), and its id.
func counterOf(e event) (Counter, string) {
	c := Counter{Day: Day(e.Time), Type: e.Type, Location: e.Location, Facts: e.Facts}
	b, _ := json.Marshal(c)
	return c, hash(nil, string(b))
}

// segmentPrefix begins a segment's counter id (the segments' counters of
// a day are read alone by it).
const segmentPrefix = "seg-"

// segmentOf is the segment counter an event adds to.
func segmentOf(e event) (Counter, string) {
	c := Counter{Day: Day(e.Time), Type: segmentType, Claims: e.Claims}
	return c, segmentPrefix + hash(nil, e.Claims)
}

// delta is what a job adds to one counter: a day's counter (id: its
// counter id), its month's roll-up or its day's total of its type.
type delta struct {
	c                          Counter
	id                         string
	kind                       rollup
	events, visitors, sessions int64
}

// rollup is what a delta adds to.
type rollup int

const (
	dayCounter rollup = iota
	// monthRollup: a counter over a month (its Day is the month,
	// yyyy-mm), the sum of the counter's days.
	monthRollup
	// typeTotal: a day's total of one event type (only Day and Type
	// set), the sum of the day's counters of that type.
	typeTotal
)

// key is the counter's item.
func (d *delta) key(siteID string) keys.Key {
	switch d.kind {
	case monthRollup:
		return keys.InsightsMonthCounter(siteID, d.c.Day, d.id)
	case typeTotal:
		return keys.InsightsTotal(siteID, d.c.Day, d.id)
	}
	return keys.InsightsCounter(siteID, d.c.Day, d.id)
}

// rollupsOf are the roll-ups a day's counter adds to: its month's (the
// same facts, its Day the month; its id hashes them as a day's does; a
// segment's keeps the day's id: its key's prefix tells them apart) and
// its day's total of its type (the segments' too, segmentType: the
// version their day packs are checked against).
func rollupsOf(d *delta) []*delta {
	m := Counter{Day: d.c.Day[:len("2006-01")], Type: d.c.Type, Claims: d.c.Claims}
	if d.c.Type == segmentType {
		return []*delta{{c: m, id: d.id, kind: monthRollup}, {c: Counter{Day: d.c.Day, Type: segmentType}, id: segmentType, kind: typeTotal}}
	}
	m = d.c
	m.Day = d.c.Day[:len("2006-01")]
	m.Events, m.Visitors, m.Sessions = 0, 0, 0
	b, _ := json.Marshal(m)
	return []*delta{{c: m, id: hash(nil, string(b)), kind: monthRollup}, {c: Counter{Day: d.c.Day, Type: d.c.Type}, id: d.c.Type, kind: typeTotal}}
}

// rollupChunk is how many days' counters go in one transaction with
// their roll-ups (at most two each) and the chunk's marker.
const rollupChunk = (store.MaxTransactionOps - 1) / 3

// count adds a job's deltas to its days' counters and to their roll-ups.
// A day's counter and its roll-ups are written in the same transaction,
// so a roll-up is always the sum of its days' counters (whatever fails,
// whatever is redelivered). A job's counters are written by chunks of
// rollupChunk days' counters, each chunk with its marker (the last's is
// done, the job's marker that Apply looks for first).
func (s *Service) count(ctx context.Context, siteID string, days map[string]*delta, done keys.Key) error {
	ids := make([]string, 0, len(days))
	for id := range days {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for start := 0; start < len(ids); start += rollupChunk {
		end := min(start+rollupChunk, len(ids))
		marker := done
		if end < len(ids) {
			marker = keys.Key{PK: done.PK, SK: fmt.Sprintf("%s-%d", done.SK, start)}
		}
		ds := rollUp(days, ids[start:end])
		if err := s.addCounts(ctx, siteID, ds, marker); err != nil {
			return err
		}
	}
	return nil
}

// rollUp is the deltas of the given ids with those of their roll-ups
// (each roll-up once, with the sum of its days').
func rollUp(days map[string]*delta, ids []string) []*delta {
	ds := make([]*delta, 0, 3*len(ids))
	rolled := map[string]*delta{}
	for _, id := range ids {
		d := days[id]
		d.id = id
		ds = append(ds, d)
		for _, r := range rollupsOf(d) {
			k := fmt.Sprint(r.kind) + "#" + r.c.Day + "#" + r.id
			if got := rolled[k]; got != nil {
				r = got
			} else {
				rolled[k] = r
				ds = append(ds, r)
			}
			r.events, r.visitors, r.sessions = r.events+d.events, r.visitors+d.visitors, r.sessions+d.sessions
		}
	}
	return ds
}

// Apply is the job handler: it adds a batch of events to the site's
// counters. Visitors and sessions are counted once a day per counter
// (markers); a visitor's vote on a page counts once a day. A redelivered
// job is recognised by its marker, written in the same transaction as the
// counters; a job that failed between its markers and its counters counts
// those visitors' events again but not those visitors.
func (s *Service) Apply(ctx context.Context, j queue.Job) error {
	return s.ApplyAll(ctx, []queue.Job{j})
}

// ApplyAll is Apply for several jobs at once (local mode's queue runs its
// due jobs so, the AWS worker a delivery's): a job twice counts once;
// the jobs of a site whose counters fit one transaction together are
// counted in one (their markers with them, so each job is counted
// wholly or not at all), their visitors' markers written together
// before. An error leaves some jobs uncounted and
// others counted: the queue runs each again on its own, and those
// counted find their marker.
func (s *Service) ApplyAll(ctx context.Context, jobs []queue.Job) error {
	type pending struct {
		b    job
		done keys.Key
	}
	var todo []pending
	seen := map[keys.Key]bool{}
	for _, j := range jobs {
		var b job
		if err := json.Unmarshal(j.Payload, &b); err != nil {
			return fmt.Errorf("insights job %s: %w", j.ID, err)
		}
		if len(b.Events) == 0 {
			continue
		}
		// A job twice in one batch (a message delivered twice, or sent
		// twice with one id) counts once.
		done := keys.InsightsMarker(b.SiteID, Day(b.Events[0].Time), "job-"+j.ID)
		if !seen[done] {
			seen[done] = true
			todo = append(todo, pending{b: b, done: done})
		}
	}
	// The jobs counted already (redelivered).
	dones := make([]store.ItemKey, len(todo))
	for i, p := range todo {
		dones[i] = store.ItemKey{PK: p.done.PK, SK: p.done.SK}
	}
	got, err := s.batchGet(ctx, dones)
	if err != nil {
		return err
	}
	bySite := map[string][]pending{}
	var sites []string
	for i, p := range todo {
		if got[i].PK != "" {
			continue
		}
		if bySite[p.b.SiteID] == nil {
			sites = append(sites, p.b.SiteID)
		}
		bySite[p.b.SiteID] = append(bySite[p.b.SiteID], p)
	}
	for _, site := range sites {
		var toPack []string
		var kept []string
		through := ""
		for _, p := range bySite[site] {
			day := Day(p.b.Events[0].Time)
			if slices.Contains(kept, day) {
				continue
			}
			kept = append(kept, day)
			days, end, err := s.keepDay(ctx, site, day)
			if err != nil {
				return err
			}
			toPack, through = append(toPack, days...), max(through, end)
		}
		// Votes: one per visitor, page and day (a rating and a comment
		// each); then the jobs by groups whose counters fit one
		// transaction.
		var group []pending
		var groupEvents [][]event
		ids := map[string]bool{}
		flush := func() error {
			if len(group) == 0 {
				return nil
			}
			if err := s.countJobs(ctx, site, func(add func(b job, events []event)) []keys.Key {
				out := make([]keys.Key, len(group))
				for i, p := range group {
					add(p.b, groupEvents[i])
					out[i] = p.done
				}
				return out
			}); err != nil {
				return err
			}
			for i, p := range group {
				s.tellFeedback(ctx, p.b, groupEvents[i])
			}
			group, groupEvents, ids = nil, nil, map[string]bool{}
			return nil
		}
		for _, p := range bySite[site] {
			events, err := s.votes(ctx, p.b)
			if err != nil {
				return err
			}
			mine := map[string]bool{}
			for _, e := range events {
				_, id := counterOf(e)
				_, sid := segmentOf(e)
				mine[id], mine[sid] = true, true
			}
			union := len(ids)
			for id := range mine {
				if !ids[id] {
					union++
				}
			}
			// A counter, its month's roll-up and its day's total, and a
			// marker a job.
			if len(group) > 0 && 3*union+len(group)+1 > store.MaxTransactionOps {
				if err := flush(); err != nil {
					return err
				}
			}
			for id := range mine {
				ids[id] = true
			}
			group, groupEvents = append(group, p), append(groupEvents, events)
		}
		if err := flush(); err != nil {
			return err
		}
		// Packs are a faster copy of closed days' counters: a failure
		// leaves those days read from their counters (exact) until a
		// job of the site past the lease packs the window again.
		err := s.packDays(ctx, site, slices.Compact(slices.Sorted(slices.Values(toPack))))
		if err == nil && through != "" {
			err = s.notePacked(ctx, site, through)
		}
		if err != nil {
			s.d.Logger.WarnContext(ctx, "insights days not packed", "site", site, "err", err.Error())
		}
	}
	return nil
}

// votes are a job's events but the votes a visitor already cast that day
// on that page (one page_post_feedback and one page_post_feedback_comment
// per visitor, page and day), noting the new ones.
func (s *Service) votes(ctx context.Context, b job) ([]event, error) {
	events := b.Events[:0:0]
	for _, e := range b.Events {
		if e.Type == PagePostFeedback || e.Type == PagePostFeedbackComment {
			vote := keys.InsightsMarker(b.SiteID, Day(e.Time), "vote-"+hash(nil, e.Type, e.Space, e.Page, b.Visitor))
			err := s.d.Store.Write(ctx, store.Put(records.Item(vote, struct{}{}, 1), store.IfNotExists))
			if errors.Is(err, store.ErrConflict) {
				continue
			}
			if err != nil {
				return nil, err
			}
		}
		events = append(events, e)
	}
	return events, nil
}

// countJobs counts the events of jobs of one site: their visitors' and
// sessions' markers, then their counters with the jobs' markers (jobs
// names them, calling add with each job's events). One job's counters
// are written by chunks (count); several jobs' fit one transaction (the
// caller groups them so).
func (s *Service) countJobs(ctx context.Context, siteID string, jobs func(add func(b job, events []event)) []keys.Key) error {
	deltas := map[string]*delta{}
	var marks []markFor
	add := func(b job, events []event) {
		one := func(c Counter, id string, e event) {
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
			one(c, id, e)
			sc, sid := segmentOf(e)
			one(sc, sid, e)
		}
	}
	dones := jobs(add)
	if err := s.mark(ctx, siteID, marks); err != nil {
		return err
	}
	if len(dones) == 1 {
		return s.count(ctx, siteID, deltas, dones[0])
	}
	ds := rollUp(deltas, slices.Sorted(maps.Keys(deltas)))
	return s.addCounts(ctx, siteID, ds, dones...)
}

// PageFeedbackEvent is the webhooks' event of a page feedback (GitBook's
// PageFeedbackEvent).
const PageFeedbackEvent = "page_feedback"

// tellFeedback tells the webhooks of a job's votes counted (the votes a
// visitor already cast that day are not among them): one event per page
// voted on, with the rating and, when the visitor wrote one, the
// comment (the reader sends a vote with a comment as two events,
// page_post_feedback and page_post_feedback_comment: one vote). Told
// once the counters are written: a job that fails before is redelivered
// and tells then; one that fails after its counters (the emitter's own
// failures are logged, not returned) is not told again.
func (s *Service) tellFeedback(ctx context.Context, b job, events []event) {
	if s.events == nil {
		return
	}
	type vote struct {
		e               event
		rating, comment string
	}
	var votes []*vote
	by := map[string]*vote{}
	for _, e := range events {
		if e.Type != PagePostFeedback && e.Type != PagePostFeedbackComment {
			continue
		}
		k := e.Space + "\x00" + e.Page
		v := by[k]
		if v == nil {
			v = &vote{e: e}
			by[k] = v
			votes = append(votes, v)
		}
		if e.Type == PagePostFeedback || v.rating == "" {
			v.rating = e.Rating
		}
		if e.Type == PagePostFeedbackComment {
			v.comment = e.Comment
		}
		if v.e.PageURL == "" {
			v.e.PageURL = e.PageURL
		}
	}
	for _, v := range votes {
		feedback := map[string]any{"rating": v.rating}
		if v.comment != "" {
			feedback["comment"] = v.comment
		}
		s.events.Emit(ctx, model.Event{Type: PageFeedbackEvent, OrgID: b.OrgID, Fields: map[string]any{
			"siteId": b.SiteID, "spaceId": v.e.Space, "pageId": v.e.Page, "feedback": feedback,
			// The visitor as counted: the day's salted hash, never the
			// address nor the user agent (docs/insights.md, "Privacy").
			"visitor": map[string]any{"anonymousId": b.Visitor, "cookies": map[string]string{}, "userAgent": "", "ip": ""},
			"url":     v.e.PageURL, "referrer": "",
		}})
	}
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

// addCounts adds deltas to their counters and writes markers (a job's,
// or several jobs'), in one transaction (read, then write if unchanged;
// again on a race). A job's marker already written (a redelivery) makes
// it a no-op; one of several jobs' an error (each is then counted on its
// own).
func (s *Service) addCounts(ctx context.Context, siteID string, ds []*delta, dones ...keys.Key) error {
	ks := make([]keys.Key, len(ds))
	batch := make([]store.ItemKey, len(ds))
	for i, d := range ds {
		ks[i] = d.key(siteID)
		batch[i] = store.ItemKey{PK: ks[i].PK, SK: ks[i].SK}
	}
	for attempt := 0; ; attempt++ {
		got, err := s.batchGet(ctx, batch)
		if err != nil {
			return err
		}
		ops := make([]store.Op, 0, len(ds)+1)
		for i, d := range ds {
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
				ops = append(ops, store.Put(records.Item(ks[i], c, 1), store.IfNotExists))
			} else {
				ops = append(ops, store.PutIfVersion(records.Item(ks[i], c, got[i].Version+1), got[i].Version))
			}
		}
		for _, done := range dones {
			ops = append(ops, store.Put(records.Item(done, struct{}{}, 1), store.IfNotExists))
		}
		err = s.d.Store.Write(ctx, ops...)
		if err == nil || !errors.Is(err, store.ErrConflict) {
			return err
		}
		for _, done := range dones {
			if _, gerr := s.d.Store.Get(ctx, done.PK, done.SK); gerr == nil {
				if len(dones) == 1 {
					return nil // a redelivery of this job won the race
				}
				return fmt.Errorf("insights counters of site %s: job marker %s written meanwhile: %w", siteID, done.SK, err)
			}
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

// daysRecord lists the days whose markers a site keeps, and how far its
// closed days are packed.
type daysRecord struct {
	Days []string `json:"days"`
	// Packed is the newest day of the last packing window (packWindow
	// days before the oldest kept day) whose packing succeeded; Packing
	// when a job last started packing a window (its lease).
	Packed  string    `json:"packed,omitempty"`
	Packing time.Time `json:"packing,omitzero"`
}

// packLease is how long a job that started packing a site's window has
// it alone: another job of the site retries after it (the packing
// failed, or its process died, or its success was not noted). Longer
// than a worker's invocation (30 s).
const packLease = 5 * time.Minute

// window is the packing window of the days kept: the packWindow days
// before the oldest, newest first.
func window(days []string) []string {
	t, _ := time.Parse(time.DateOnly, days[0])
	out := make([]string, packWindow)
	for i := range out {
		out[i] = Day(t.AddDate(0, 0, -i-1))
	}
	return out
}

// keepDays is how many days of markers are kept: today's and yesterday's
// (a job of yesterday's events may arrive after midnight).
const keepDays = 2

// keepDay notes that the site has markers of day and, when day is new,
// sweeps the markers of days past keepDays and the salts of those days.
// It returns the days to pack once the job is counted: when day is the
// site's new latest, the packing window (window); when it is older than
// the days kept (a late job), day itself, or the window when day is in
// it; when the window's last packing did not succeed (Packed older than
// the window) and no other job holds the lease, the window again (a
// cheap check: the record is read for every job anyway). through is the
// window's newest day when the window is to be packed (notePacked once
// it is), else "".
func (s *Service) keepDay(ctx context.Context, siteID, day string) (toPack []string, through string, err error) {
	k := keys.InsightsDays(siteID)
	rec, v, err := records.Get[daysRecord](ctx, s.d.Store, k)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, "", err
	}
	now := s.d.Clock()
	if slices.Contains(rec.Days, day) {
		w := window(rec.Days)
		if rec.Packed >= w[0] || now.Sub(rec.Packing) < packLease {
			return nil, "", nil
		}
		// A packing of the window failed: this job takes the lease and
		// packs it again (another job that took it first wins).
		rec.Packing = now
		if err := s.d.Store.Write(ctx, store.PutIfVersion(records.Item(k, rec, v+1), v)); err != nil {
			if errors.Is(err, store.ErrConflict) {
				return nil, "", nil
			}
			return nil, "", err
		}
		return w, w[0], nil
	}
	days := append(rec.Days, day)
	sort.Strings(days)
	var old []string
	if len(days) > keepDays {
		old, days = days[:len(days)-keepDays], days[len(days)-keepDays:]
	}
	for _, d := range old {
		if err := s.sweep(ctx, siteID, d); err != nil {
			return nil, "", err
		}
	}
	w := window(days)
	switch {
	case slices.Contains(old, day) && day >= w[len(w)-1]:
		// A late job of a day of the window: the window is not packed
		// until its packing succeeds.
		toPack, through, rec.Packed, rec.Packing = w, w[0], "", now
	case slices.Contains(old, day):
		toPack = []string{day}
	case day == days[len(days)-1]:
		toPack, through, rec.Packing = w, w[0], now
	}
	rec.Days = days
	op := store.Put(records.Item(k, rec, v+1), store.IfNotExists)
	if v > 0 {
		op = store.PutIfVersion(records.Item(k, rec, v+1), v)
	}
	if err := s.d.Store.Write(ctx, op); err != nil && !errors.Is(err, store.ErrConflict) {
		return nil, "", err
	}
	// A conflict: another job noted a day at the same time; the next job
	// of a new day sweeps again.
	return toPack, through, nil
}

// notePacked notes that the packing window ending with through is packed
// (Packed), unless a newer one is; on a race, read again (a few times:
// else the next job past the lease packs the window again, finding its
// days packed).
func (s *Service) notePacked(ctx context.Context, siteID, through string) error {
	k := keys.InsightsDays(siteID)
	for attempt := 0; ; attempt++ {
		rec, v, err := records.Get[daysRecord](ctx, s.d.Store, k)
		if err != nil || rec.Packed >= through {
			return err
		}
		rec.Packed, rec.Packing = through, time.Time{}
		err = s.d.Store.Write(ctx, store.PutIfVersion(records.Item(k, rec, v+1), v))
		if err == nil || !errors.Is(err, store.ErrConflict) || attempt == 3 {
			return err
		}
	}
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
