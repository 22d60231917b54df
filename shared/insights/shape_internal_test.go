package insights

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// flatCounter and flatEvent are Counter and the queued event as they were
// before they embedded Location and Facts (one flat struct each).
type flatCounter struct {
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

type flatEvent struct {
	Type         string    `json:"type"`
	Time         time.Time `json:"time"`
	URLPath      string    `json:"urlPath,omitempty"`
	SiteSection  string    `json:"siteSection,omitempty"`
	SiteSpace    string    `json:"siteSpace,omitempty"`
	Space        string    `json:"space,omitempty"`
	Page         string    `json:"page,omitempty"`
	Session      string    `json:"session,omitempty"`
	Claims       string    `json:"claims,omitempty"`
	Query        string    `json:"query,omitempty"`
	NoResults    bool      `json:"noResults,omitempty"`
	ResultSpace  string    `json:"resultSpace,omitempty"`
	ResultPage   string    `json:"resultPage,omitempty"`
	Rating       string    `json:"rating,omitempty"`
	Comment      string    `json:"comment,omitempty"`
	LinkKind     string    `json:"linkKind,omitempty"`
	LinkValue    string    `json:"linkValue,omitempty"`
	LinkPosition string    `json:"linkPosition,omitempty"`
}

// Counters' ids hash their JSON: on random events (fields set or empty),
// the counter an event adds to has the id the flat struct's JSON gives,
// and a queued event reads back from the flat struct's JSON the same
// (jobs queued before the change are applied alike).
func TestEmbeddedFactsKeepIDsAndJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 13))
	maybe := func(s string) string {
		if r.IntN(2) == 0 {
			return ""
		}
		return fmt.Sprintf("%s-%d", s, r.IntN(1000))
	}
	for i := 0; i < 500; i++ {
		f := flatEvent{Type: PageView, Time: time.Date(2026, 3, 1+r.IntN(28), r.IntN(24), 0, 0, 0, time.UTC),
			URLPath: maybe("/p"), SiteSection: maybe("sec"), SiteSpace: maybe("ss"), Space: maybe("sp"), Page: maybe("pg"),
			Session: maybe("s"), Claims: maybe("c"), Query: maybe("q"), NoResults: r.IntN(2) == 0, ResultSpace: maybe("rs"),
			ResultPage: maybe("rp"), Rating: maybe("r"), Comment: maybe("cm"), LinkKind: maybe("lk"), LinkValue: maybe("lv"), LinkPosition: maybe("lp")}
		raw, _ := json.Marshal(f)
		var e event
		if err := json.Unmarshal(raw, &e); err != nil {
			t.Fatal(err)
		}
		again, _ := json.Marshal(e)
		if string(again) != string(raw) {
			t.Fatalf("queued event JSON %s, flat %s", again, raw)
		}
		_, id := counterOf(e)
		want, _ := json.Marshal(flatCounter{Day: Day(f.Time), Type: f.Type, URLPath: f.URLPath, SiteSection: f.SiteSection, SiteSpace: f.SiteSpace,
			Space: f.Space, Page: f.Page, Query: f.Query, NoResults: f.NoResults, ResultSpace: f.ResultSpace, ResultPage: f.ResultPage,
			Rating: f.Rating, Comment: f.Comment, LinkKind: f.LinkKind, LinkValue: f.LinkValue, LinkPosition: f.LinkPosition})
		if id != hash(nil, string(want)) {
			t.Fatalf("event %s: counter id %s, the flat counter's %s", raw, id, hash(nil, string(want)))
		}
	}
}
