package insights

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// flatJSON is a value's JSON as the flat structs Counter and the queued
// event were before they embedded Location and Facts wrote it: the
// fields in that order, each left out when empty but those named always.
func flatJSON(order []string, always map[string]bool, v map[string]any) string {
	var parts []string
	for _, k := range order {
		x, ok := v[k]
		if !always[k] && (!ok || x == "" || x == false) {
			continue
		}
		b, _ := json.Marshal(x)
		parts = append(parts, fmt.Sprintf("%q:%s", k, b))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// The flat structs' fields, in order.
var (
	flatFacts   = []string{"query", "noResults", "resultSpace", "resultPage", "rating", "comment", "linkKind", "linkValue", "linkPosition"}
	flatWhere   = []string{"urlPath", "siteSection", "siteSpace", "space", "page"}
	flatCounter = append(append(append([]string{"day", "type"}, flatWhere...), "claims"), append(flatFacts, "events", "visitors", "sessions")...)
	flatEvent   = append(append(append([]string{"type", "time"}, flatWhere...), "session", "claims"), flatFacts...)
)

// Counters' ids hash their JSON: on random events (fields set or empty),
// a queued event's JSON is the flat event's (jobs queued before the
// change read alike), and the counter it adds to has the JSON, so the
// id, of the flat counter.
func TestEmbeddedFactsKeepIDsAndJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 13))
	for i := 0; i < 500; i++ {
		when := time.Date(2026, 3, 1+r.IntN(28), r.IntN(24), 0, 0, 0, time.UTC)
		v := map[string]any{"type": PageView, "time": when, "noResults": r.IntN(2) == 0}
		for _, k := range append(append([]string{"session", "claims"}, flatWhere...), flatFacts...) {
			if k != "noResults" && r.IntN(2) == 0 {
				v[k] = fmt.Sprintf("%s-%d", k, r.IntN(1000))
			}
		}
		raw := flatJSON(flatEvent, map[string]bool{"type": true, "time": true}, v)
		var e event
		if err := json.Unmarshal([]byte(raw), &e); err != nil {
			t.Fatal(err)
		}
		if again, _ := json.Marshal(e); string(again) != raw {
			t.Fatalf("queued event JSON %s, flat %s", again, raw)
		}
		c, id := counterOf(e)
		v["day"], v["events"], v["visitors"], v["sessions"] = Day(when), 0, 0, 0
		delete(v, "claims") // a counter of an event type keeps no claims
		want := flatJSON(flatCounter, map[string]bool{"day": true, "type": true, "events": true, "visitors": true, "sessions": true}, v)
		if got, _ := json.Marshal(c); string(got) != want {
			t.Fatalf("counter JSON %s, flat %s", got, want)
		}
		if id != hash(nil, want) {
			t.Fatalf("event %s: counter id %s, the flat counter's %s", raw, id, hash(nil, want))
		}
	}
}
