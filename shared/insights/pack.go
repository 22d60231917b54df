package insights

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// Day packs (docs/insights.md, "Day packs"): once a day is closed, the
// worker writes its counters of each event type again in a few large
// items, the day's pack of that type, made from the counters while the
// day's total of that type had a given version. Every write of a day's
// counter of a type writes that day's total of the type in the same
// transaction (rollupsOf), so a pack whose version is its total's holds
// exactly the day's counters of its type; a pack of another version (a
// late job wrote the day since) is not read: the day's counters are.

// packChunkBytes bounds the counters' JSON of one chunk of a pack (far
// below the store's 400 KB item limit; stored compressed, DEFLATE, some
// 6 to 10 times smaller).
const packChunkBytes = 256 * 1024

// packRecord is one chunk of a day's pack of one type.
type packRecord struct {
	// Total is the version of the day's total of the type the pack was
	// made at.
	Total int64 `json:"total"`
	// Build tells the chunks of one making apart from another's; Of is
	// how many chunks it has (a chunk's index is in its key).
	Build string `json:"build"`
	Of    int    `json:"of"`
	// Counters are the day's counters of the type, without their Day and
	// Type (the pack's).
	Counters []packedCounter `json:"counters"`
}

// packedCounter is a counter in a pack: its facts and counts in a short
// form (a counter's JSON less its day and type; empty facts left out).
type packedCounter struct {
	Location
	Claims string `json:"claims,omitempty"`
	Facts
	E int64 `json:"e"`
	V int64 `json:"v"`
	S int64 `json:"s"`
}

// dayTotals reads a day's totals by type: each type's total's version
// (a type without a total has no counter that day).
func (s *Service) dayTotals(ctx context.Context, siteID, period string) (map[string]map[string]int64, error) {
	out := map[string]map[string]int64{}
	q := store.Query{PK: keys.InsightsPartition(siteID), SKPrefix: keys.InsightsTotalPrefix(period), Limit: store.MaxQueryLimit}
	for {
		page, err := s.d.Store.Query(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, it := range page.Items {
			// TOTAL#<day>#<type>
			rest := strings.TrimPrefix(it.SK, keys.InsightsTotalPrefix(""))
			day, typ, ok := strings.Cut(rest, "#")
			if !ok {
				continue
			}
			if out[day] == nil {
				out[day] = map[string]int64{}
			}
			out[day][typ] = it.Version
		}
		if page.Next == nil {
			return out, nil
		}
		q.After = page.Next
	}
}

// packDays makes the packs of days that have none at their totals'
// versions (PackDay for each).
func (s *Service) packDays(ctx context.Context, siteID string, days []string) error {
	for _, d := range days {
		if err := s.packDay(ctx, siteID, d); err != nil {
			return fmt.Errorf("insights pack of site %s, %s: %w", siteID, d, err)
		}
	}
	return nil
}

// packDay writes a day's packs of the types whose pack is missing or
// older than their total: it reads the totals, the packs and the
// counters, reads the totals again and packs the types whose totals did
// not change meanwhile (a job writing the day makes it again later, or
// its counters are read). Idempotent.
func (s *Service) packDay(ctx context.Context, siteID, day string) error {
	before, err := s.dayTotals(ctx, siteID, day+"#")
	if err != nil || len(before[day]) == 0 {
		return err
	}
	packs, err := s.readPacks(ctx, siteID, keys.InsightsPackPrefix(day)+"#")
	if err != nil {
		return err
	}
	todo := map[string]bool{}
	for typ, v := range before[day] {
		if p, ok := packs[typ]; !ok || p.total != v {
			todo[typ] = true
		}
	}
	if len(todo) == 0 {
		return nil
	}
	by := map[string][]packedCounter{}
	q := store.Query{PK: keys.InsightsPartition(siteID), SKPrefix: keys.InsightsCounterPrefix(day) + "#", Limit: store.MaxQueryLimit}
	for {
		page, err := s.d.Store.Query(ctx, q)
		if err != nil {
			return err
		}
		for _, it := range page.Items {
			c, err := records.Decode[Counter](it)
			if err != nil {
				return err
			}
			if todo[c.Type] {
				by[c.Type] = append(by[c.Type], packedCounter{Location: c.Location, Claims: c.Claims, Facts: c.Facts, E: c.Events, V: c.Visitors, S: c.Sessions})
			}
		}
		if page.Next == nil {
			break
		}
		q.After = page.Next
	}
	after, err := s.dayTotals(ctx, siteID, day+"#")
	if err != nil {
		return err
	}
	types := make([]string, 0, len(todo))
	for typ := range todo {
		if after[day][typ] == before[day][typ] {
			types = append(types, typ)
		}
	}
	sort.Strings(types)
	for _, typ := range types {
		if err := s.writePack(ctx, siteID, day, typ, before[day][typ], by[typ]); err != nil {
			return err
		}
	}
	return nil
}

// writePack writes a pack's chunks, the first last: a reader that finds
// the first finds the others of its build (or another build's, which it
// tells apart and does not read).
func (s *Service) writePack(ctx context.Context, siteID, day, typ string, total int64, cs []packedCounter) error {
	var chunks [][]packedCounter
	size := 0
	for _, c := range cs {
		b, err := json.Marshal(c)
		if err != nil {
			return err
		}
		if len(chunks) == 0 || size+len(b) > packChunkBytes {
			chunks, size = append(chunks, nil), 0
		}
		chunks[len(chunks)-1] = append(chunks[len(chunks)-1], c)
		size += len(b) + 1
	}
	if len(chunks) == 0 {
		chunks = append(chunks, nil)
	}
	build := ids.New(s.d.Clock())
	for i := len(chunks) - 1; i >= 0; i-- {
		rec := packRecord{Total: total, Build: build, Of: len(chunks), Counters: chunks[i]}
		it := records.Item(keys.InsightsPack(siteID, day, typ, i), rec, total)
		var z bytes.Buffer
		w, _ := flate.NewWriter(&z, flate.BestCompression) // a valid level: no error
		if _, err := w.Write(it.Data); err != nil {
			return err
		}
		if err := w.Close(); err != nil {
			return err
		}
		it.Data = z.Bytes()
		if err := s.d.Store.Write(ctx, store.Put(it, store.Always)); err != nil {
			return err
		}
	}
	return nil
}

// pack is a day's pack of one type as read: complete (every chunk of
// its build), its counters decoded.
type pack struct {
	total    int64
	counters []*Counter
}

// readPacks reads the packs under a prefix (a day's, or a day's of one
// type), by type; a pack missing a chunk of its build is left out.
func (s *Service) readPacks(ctx context.Context, siteID, prefix string) (map[string]pack, error) {
	type chunk struct {
		n   int
		dec *decodedPack
	}
	byType := map[string][]chunk{}
	q := store.Query{PK: keys.InsightsPartition(siteID), SKPrefix: prefix, Limit: store.MaxQueryLimit}
	for {
		page, err := s.d.Store.Query(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, it := range page.Items {
			// PACK#<day>#<type>#<n>
			parts := strings.Split(it.SK, "#")
			if len(parts) != 4 {
				continue
			}
			n, err := strconv.Atoi(parts[3])
			if err != nil {
				continue
			}
			dec, err := s.packs.decode(it, parts[1], parts[2])
			if err != nil {
				return nil, err
			}
			byType[parts[2]] = append(byType[parts[2]], chunk{n: n, dec: dec})
		}
		if page.Next == nil {
			break
		}
		q.After = page.Next
	}
	out := map[string]pack{}
	for typ, chunks := range byType {
		sort.Slice(chunks, func(i, j int) bool { return chunks[i].n < chunks[j].n })
		if chunks[0].n != 0 || len(chunks) < chunks[0].dec.of {
			continue
		}
		first := chunks[0].dec
		p := pack{total: first.total}
		complete := true
		for i := 0; i < first.of; i++ {
			if chunks[i].n != i || chunks[i].dec.build != first.build || chunks[i].dec.total != first.total {
				complete = false
				break
			}
			p.counters = append(p.counters, chunks[i].dec.counters...)
		}
		if complete {
			out[typ] = p
		}
	}
	return out, nil
}

// maxPackBytes bounds the packs' JSON a process keeps decoded (with
// their decoding, some three times as much memory).
const maxPackBytes = 32 << 20

// decodedPacks keeps pack chunks decoded, by key and content: a chunk
// read again with the same bytes is not decoded again. Emptied when full.
type decodedPacks struct {
	mu    sync.Mutex
	bytes int
	m     map[string]*decodedPack // by partition and sort key
}

type decodedPack struct {
	data     []byte
	total    int64
	build    string
	of       int
	counters []*Counter
}

// decode decodes a chunk, or returns its decoding when its bytes are
// those decoded before (shared: read only).
func (d *decodedPacks) decode(it store.Item, day, typ string) (*decodedPack, error) {
	k := it.PK + "\x00" + it.SK
	d.mu.Lock()
	got := d.m[k]
	d.mu.Unlock()
	if got != nil && bytes.Equal(got.data, it.Data) {
		return got, nil
	}
	raw, err := io.ReadAll(flate.NewReader(bytes.NewReader(it.Data)))
	if err != nil {
		return nil, fmt.Errorf("insights pack %s/%s: %w", it.PK, it.SK, err)
	}
	rec, err := records.Decode[packRecord](store.Item{PK: it.PK, SK: it.SK, Data: raw})
	if err != nil {
		return nil, err
	}
	dec := &decodedPack{data: it.Data, total: rec.Total, build: rec.Build, of: rec.Of, counters: make([]*Counter, len(rec.Counters))}
	all := make([]Counter, len(rec.Counters))
	for i, c := range rec.Counters {
		all[i] = Counter{Day: day, Type: typ, Location: c.Location, Claims: c.Claims, Facts: c.Facts, Events: c.E, Visitors: c.V, Sessions: c.S}
		dec.counters[i] = &all[i]
	}
	d.mu.Lock()
	if d.m == nil || d.bytes+len(it.Data) > maxPackBytes {
		d.m, d.bytes = map[string]*decodedPack{}, 0
	}
	if old := d.m[k]; old != nil {
		d.bytes -= len(old.data)
	}
	d.m[k] = dec
	d.bytes += len(it.Data)
	d.mu.Unlock()
	return dec, nil
}

// eachDayCounter calls fn with the counters of the days first..last (of
// one month) of the given types (nil: all but segments), each day's
// from its packs where they are at their totals' versions, else from its
// counters. totals are the month's totals by day and type (dayTotals).
// The segments' counters of a day with totals but none of segmentType
// (written before the segments had theirs) are read from its counters.
func (s *Service) eachDayCounter(ctx context.Context, siteID string, totals map[string]map[string]int64, first, last string, types []string, sign int64, fn func(*Counter, int64)) error {
	days := make([]string, 0, len(totals))
	for d := range totals {
		if d >= first && d <= last {
			days = append(days, d)
		}
	}
	sort.Strings(days)
	for _, day := range days {
		want := map[string]bool{}
		for typ := range totals[day] {
			if types == nil && typ != segmentType || slices.Contains(types, typ) {
				want[typ] = true
			}
		}
		_, segments := totals[day][segmentType]
		legacy := !segments && slices.Contains(types, segmentType)
		if len(want) == 0 && !legacy {
			continue
		}
		packs := map[string]pack{}
		if types == nil {
			got, err := s.readPacks(ctx, siteID, keys.InsightsPackPrefix(day)+"#")
			if err != nil {
				return err
			}
			packs = got
		} else {
			for typ := range want {
				got, err := s.readPacks(ctx, siteID, keys.InsightsPackPrefix(day)+"#"+typ+"#")
				if err != nil {
					return err
				}
				if p, ok := got[typ]; ok {
					packs[typ] = p
				}
			}
		}
		rest := map[string]bool{}
		if legacy {
			rest[segmentType] = true
		}
		for _, typ := range slices.Sorted(maps.Keys(want)) {
			p, ok := packs[typ]
			if !ok || p.total != totals[day][typ] {
				rest[typ] = true
				continue
			}
			for _, c := range p.counters {
				fn(c, sign)
			}
		}
		prefix := keys.InsightsCounterPrefix(day) + "#"
		switch {
		case len(rest) == 0:
			continue
		case len(rest) == 1 && rest[segmentType]:
			prefix += segmentPrefix // the segments' counters alone
		}
		err := s.eachCounter(ctx, siteID, []span{{prefix: prefix, sign: sign}}, func(c *Counter, sign int64) {
			if rest[c.Type] {
				fn(c, sign)
			}
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// packWindow is how many days before the kept ones (keepDays) a site's
// first job of a new day packs (those without a pack at their totals'
// versions: the day just closed, and the days a failure left unpacked).
const packWindow = 7
