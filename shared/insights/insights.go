// Package insights is the site insights family: the events a published
// site's readers make (page views, searches, link clicks, page feedback),
// counted per site, day, event type, site section, site space, page and
// visitor segment, and the aggregations GitBook's insights operations
// answer from those counters (docs/insights.md).
//
// Decisions:
//   - Raw events are not stored. Track checks a batch, hashes the
//     visitor's address with the day's random salt and enqueues one job;
//     the job (Apply, the insights worker in AWS, the in-process queue
//     locally) adds the batch to counters. So there is nothing to expire
//     but the day's markers and salts, which Apply sweeps (docs/insights.md,
//     "Privacy").
//   - The aggregate reads counters, their month roll-ups, day totals
//     and closed days' packs (pack.go), never events.
//   - A visitor is a hash of the site, the address and the user agent with
//     the day's salt: distinct per day, unlinkable across days once the salt
//     is deleted (two days later).
//   - Do-Not-Track and Sec-GPC: a request carrying either records nothing.
package insights

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/sites"
	"github.com/galleydocs/galley/shared/store"
)

// Limits.
const (
	// MaxEvents is the most events one request tracks: a job's counters,
	// its segments' counters and its marker fit one transaction.
	MaxEvents = (store.MaxTransactionOps - 4) / 2
	// MaxComment bounds a feedback comment (GitBook's 512 characters).
	MaxComment = 512
	// MaxQuery bounds a search query as counted (longer ones are cut).
	MaxQuery = 256
	// MaxClaimsBytes bounds a segment's claims (JSON).
	MaxClaimsBytes = 1024
	// MaxID bounds the ids an event names (location, session, result).
	MaxID = 128
	// MaxSkew is how far an event's timestamp may be from now (GitBook's
	// five minutes).
	MaxSkew = 5 * time.Minute
)

// JobKind is the kind of the jobs adding tracked events to counters.
const JobKind = "insights-aggregate"

// Event types (GitBook's SiteInsightsEventType).
const (
	PageView                = "page_view"
	PageMarkdownRequest     = "page_markdown_request"
	SearchOpen              = "search_open"
	SearchTypeQuery         = "search_type_query"
	SearchOpenResult        = "search_open_result"
	PagePostFeedback        = "page_post_feedback"
	PagePostFeedbackComment = "page_post_feedback_comment"
	LinkClick               = "link_click"
)

// Types lists every event type GitBook defines; all are accepted and
// counted.
var Types = []string{PageView, PageMarkdownRequest, SearchOpen, SearchTypeQuery, SearchOpenResult,
	PagePostFeedback, PagePostFeedbackComment, "agent_feedback", "ask_question", "ask_view", "ask_rate_response",
	LinkClick, "api_client_open", "api_client_request", "ad_click", "ad_display", "trademark_click",
	"llms_request", "mcp_request", "rss_request"}

// Ratings are a page feedback's ratings (GitBook's PageFeedbackRating).
var Ratings = []string{"bad", "ok", "good"}

// LinkPositions are where a clicked link was (SiteInsightsLinkPosition).
var LinkPositions = []string{"announcement", "header", "footer", "sidebar", "content"}

// Event is one tracked event, as the HTTP layer read it.
type Event struct {
	Type string
	// Time is the event's timestamp (zero: now).
	Time time.Time
	// Where it happened (GitBook's location).
	URL                                     string
	SiteSection, SiteSpace, Space, Revision string
	Page                                    string
	// SessionID is the visitor's session as the page gave it (not a cookie).
	SessionID string
	// Claims are the visitor's claims (the segment).
	Claims map[string]any
	// Search: the query; ResultsCount (Galley's) how many results it had
	// (nil: not said); ResultSpace and ResultPage the result opened.
	Query                   string
	ResultsCount            *int
	ResultSpace, ResultPage string
	// Feedback.
	Rating, Comment string
	// Link clicks: the target's kind and value, and the link's position.
	LinkKind, LinkValue, LinkPosition string
}

// Visitor is who sent the events, as the request says.
type Visitor struct {
	// Addr is the client's address; UserAgent its User-Agent. Neither is
	// kept: they are hashed with the day's salt.
	Addr, UserAgent string
	// NoTrack: the request asked not to be tracked (DNT: 1 or Sec-GPC: 1).
	NoTrack bool
}

// Sites is what insights ask of the sites family (sites.Service): the
// published site as the caller sees it, and a site with the caller's role.
type Sites interface {
	Published(ctx context.Context, orgID, siteID, shareKey string) (sites.View, error)
	Get(ctx context.Context, orgID, siteID string) (sites.Loaded, error)
	Require(ctx context.Context, orgID, siteID string, op access.OrgOp) (model.Site, model.Role, error)
}

// Events is told of the page feedback recorded (the webhooks' emitter:
// webhooks.Service; nil tells nobody).
type Events interface {
	Emit(ctx context.Context, e model.Event)
}

// Service records and aggregates site insights.
type Service struct {
	d      *deps.Deps
	sites  Sites
	events Events

	mu    sync.Mutex
	salts map[string][]byte // by day; two kept

	// decoded keeps the counters aggregates read, decoded (query.go).
	decoded decodedCounters
	// packs keeps the day packs aggregates read, decoded (pack.go).
	packs decodedPacks
}

// New returns the insights service; events (may be nil) is told of each
// page feedback counted.
func New(d *deps.Deps, s Sites, events Events) *Service {
	return &Service{d: d, sites: s, events: events, salts: map[string][]byte{}}
}

// Day is the UTC day of t, as counters are keyed.
func Day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// job is a queued batch.
type job struct {
	OrgID   string  `json:"orgId"`
	SiteID  string  `json:"siteId"`
	Visitor string  `json:"visitor"`
	Events  []event `json:"events"`
}

// event is an Event as queued: the session is a hash, the claims JSON.
type event struct {
	Type string    `json:"type"`
	Time time.Time `json:"time"`
	Location
	Session string `json:"session,omitempty"`
	Claims  string `json:"claims,omitempty"`
	Facts
	// PageURL is a feedback's page, for its webhook (not counted).
	PageURL string `json:"pageUrl,omitempty"`
}

// Track records a batch of a site's events: a member who may read the
// organization's content, or a visitor whose site token is the site's
// (the reader). The site must be published. Errors: NotFound (no such
// published site for the caller), Unauthorized, Invalid naming
// events[i].<field>.
func (s *Service) Track(ctx context.Context, orgID, siteID string, events []Event, v Visitor) error {
	view, err := s.sites.Published(ctx, orgID, siteID, "")
	if err != nil {
		return err
	}
	if len(events) == 0 {
		return apperr.Field("events", "at least one event")
	}
	if len(events) > MaxEvents {
		return apperr.Field("events", "at most %d events a request", MaxEvents)
	}
	now := s.d.Clock()
	out := make([]event, 0, len(events))
	for i, e := range events {
		q, err := s.check(view, e, now)
		if err != nil {
			var ae *apperr.Error
			if errors.As(err, &ae) && ae.Field != "" {
				return apperr.Field(fmt.Sprintf("events[%d].%s", i, ae.Field), "%s", ae.Message)
			}
			return err
		}
		out = append(out, q)
	}
	if v.NoTrack {
		return nil
	}
	salt, err := s.salt(ctx, Day(now))
	if err != nil {
		return err
	}
	visitor := hash(salt, siteID, v.Addr, v.UserAgent)
	for i := range out {
		if out[i].Session != "" {
			out[i].Session = hash(salt, visitor, out[i].Session)
		}
	}
	payload, err := json.Marshal(job{OrgID: orgID, SiteID: siteID, Visitor: visitor, Events: out})
	if err != nil {
		return err
	}
	j := queue.Job{ID: ids.New(now), Kind: JobKind, Payload: payload}
	if s.d.Queue == nil {
		// A process without a queue runs the jobs it makes itself (as the
		// other families do).
		return s.Apply(ctx, j)
	}
	return s.d.Queue.Enqueue(ctx, j)
}

// check validates one event and gives it as queued.
func (s *Service) check(view sites.View, e Event, now time.Time) (event, error) {
	if !slices.Contains(Types, e.Type) {
		return event{}, apperr.Field("type", "unknown event type %q", e.Type)
	}
	t := e.Time
	if t.IsZero() {
		t = now
	}
	if d := t.Sub(now); d > MaxSkew || d < -MaxSkew {
		return event{}, apperr.Field("timestamp", "an event's timestamp is within 5 minutes of now")
	}
	for _, id := range []struct{ field, v string }{{"location.siteSection", e.SiteSection}, {"location.siteSpace", e.SiteSpace},
		{"location.space", e.Space}, {"location.revision", e.Revision}, {"location.page", e.Page}, {"session.sessionId", e.SessionID},
		{"result.pageId", e.ResultPage}, {"result.spaceId", e.ResultSpace}} {
		// The API's schema bounds them too; the reader's own route
		// (<site>/~gitbook/__evt) reads its body without it.
		if len(id.v) > MaxID {
			return event{}, apperr.Field(id.field, "at most %d characters", MaxID)
		}
	}
	q := event{Type: e.Type, Time: t.UTC(), Location: Location{SiteSection: e.SiteSection, SiteSpace: e.SiteSpace, Space: e.Space, Page: e.Page}, Session: e.SessionID}
	if e.URL != "" {
		q.URLPath = urlPath(e.URL)
	}
	if len(e.Claims) > 0 {
		b, err := json.Marshal(e.Claims)
		if err != nil {
			return event{}, apperr.Field("session.visitorAuthClaims", "claims are a plain object")
		}
		if len(b) > MaxClaimsBytes {
			return event{}, apperr.Field("session.visitorAuthClaims", "at most %d bytes of claims", MaxClaimsBytes)
		}
		q.Claims = string(b)
	}
	switch e.Type {
	case SearchTypeQuery, SearchOpenResult:
		if strings.TrimSpace(e.Query) == "" {
			return event{}, apperr.Field("query", "a search event names its query")
		}
		q.Query = normalizeQuery(e.Query)
		if e.ResultsCount != nil {
			if *e.ResultsCount < 0 {
				return event{}, apperr.Field("resultsCount", "a count is not negative")
			}
			q.NoResults = *e.ResultsCount == 0
		}
		if e.Type == SearchOpenResult {
			if e.ResultPage == "" {
				return event{}, apperr.Field("result", "the result opened names its page (or record)")
			}
			q.ResultSpace, q.ResultPage = e.ResultSpace, e.ResultPage
		}
	case PagePostFeedback, PagePostFeedbackComment:
		if !FeedbackOn(view, e.SiteSpace) {
			return event{}, apperr.Field("type", "page feedback is off for this site (its customization's feedback.enabled)")
		}
		if e.Page == "" {
			return event{}, apperr.Field("location.page", "feedback is on a page")
		}
		if !slices.Contains(Ratings, e.Rating) {
			return event{}, apperr.Field("feedback.rating", "one of bad, ok, good")
		}
		q.Rating = e.Rating
		q.PageURL = e.URL
		if i := strings.IndexAny(q.PageURL, "?#"); i >= 0 {
			// A query may name a visitor (a share link's key).
			q.PageURL = q.PageURL[:i]
		}
		if len(q.PageURL) > 2048 {
			q.PageURL = ""
		}
		if e.Type == PagePostFeedbackComment {
			c := strings.TrimSpace(e.Comment)
			if c == "" {
				return event{}, apperr.Field("feedback.comment", "a comment is 1 to %d characters", MaxComment)
			}
			if utf8.RuneCountInString(e.Comment) > MaxComment {
				return event{}, apperr.Field("feedback.comment", "a comment is 1 to %d characters", MaxComment)
			}
			q.Comment = e.Comment
		}
	case LinkClick:
		if e.LinkKind == "" {
			return event{}, apperr.Field("link.target", "a link click names its target")
		}
		if !slices.Contains(LinkPositions, e.LinkPosition) {
			return event{}, apperr.Field("link.position", "one of %s", strings.Join(LinkPositions, ", "))
		}
		q.LinkKind, q.LinkValue, q.LinkPosition = e.LinkKind, e.LinkValue, e.LinkPosition
		if e.LinkKind == "url" {
			// A URL's query and fragment may name a visitor (a share
			// link's key): only its scheme, host and path are counted.
			if i := strings.IndexAny(q.LinkValue, "?#"); i >= 0 {
				q.LinkValue = q.LinkValue[:i]
			}
		}
		if len(q.LinkValue) > 2048 {
			return event{}, apperr.Field("link.target", "at most 2048 characters")
		}
	}
	return q, nil
}

// FeedbackOn tells whether page feedback is on for a site space of a
// published view (its customization's feedback.enabled; the site's when
// the site space is unknown).
func FeedbackOn(v sites.View, siteSpaceID string) bool {
	if v.Customizations == nil {
		return false
	}
	settings := v.Customizations.Site.Settings
	if c, ok := v.Customizations.SiteSpaces[siteSpaceID]; ok {
		settings = c.Settings
	}
	f, _ := settings["feedback"].(map[string]any)
	on, _ := f["enabled"].(bool)
	return on
}

// normalizeQuery is how a query is counted: trimmed, lower-case, spaces
// folded, at most MaxQuery characters.
func normalizeQuery(q string) string {
	q = strings.Join(strings.Fields(strings.ToLower(q)), " ")
	if utf8.RuneCountInString(q) > MaxQuery {
		q = string([]rune(q)[:MaxQuery])
	}
	return q
}

// urlPath is the path of a URL (its query and fragment may name a
// visitor: they are not kept).
func urlPath(raw string) string {
	if i := strings.Index(raw, "://"); i >= 0 {
		raw = raw[i+3:]
		if j := strings.IndexByte(raw, '/'); j >= 0 {
			raw = raw[j:]
		} else {
			raw = "/"
		}
	}
	if i := strings.IndexAny(raw, "?#"); i >= 0 {
		raw = raw[:i]
	}
	if len(raw) > 512 {
		raw = raw[:512]
	}
	return raw
}

// hash is a keyed hash of parts (16 bytes, hex).
func hash(key []byte, parts ...string) string {
	m := hmac.New(sha256.New, key)
	for _, p := range parts {
		m.Write([]byte(p))
		m.Write([]byte{0})
	}
	return hex.EncodeToString(m.Sum(nil)[:16])
}

// saltRecord is a day's salt.
type saltRecord struct {
	Salt []byte `json:"salt"`
}

// salt returns the day's random salt, made once by whichever process asks
// first (put if absent), kept in memory for the day.
func (s *Service) salt(ctx context.Context, day string) ([]byte, error) {
	s.mu.Lock()
	b, ok := s.salts[day]
	s.mu.Unlock()
	if ok {
		return b, nil
	}
	k := keys.InsightsSalt(day)
	rec, _, err := records.Get[saltRecord](ctx, s.d.Store, k)
	if errors.Is(err, store.ErrNotFound) {
		fresh := saltRecord{Salt: make([]byte, 32)}
		if _, err := rand.Read(fresh.Salt); err != nil {
			return nil, err
		}
		err = s.d.Store.Write(ctx, store.Put(records.Item(k, fresh, 1), store.IfNotExists))
		if errors.Is(err, store.ErrConflict) {
			// Another process made it first: read theirs.
			rec, _, err = records.Get[saltRecord](ctx, s.d.Store, k)
		} else {
			rec = fresh
		}
	}
	if err != nil {
		return nil, fmt.Errorf("insights salt: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for d := range s.salts {
		if d != day {
			delete(s.salts, d)
		}
	}
	s.salts[day] = rec.Salt
	return rec.Salt, nil
}

// requireEditor checks that the caller may read a site's insights: their
// level on the site (organization role and site grants) may edit content.
// Outsiders, and members who cannot read the site, get NotFound; readers
// and commenters Forbidden.
func (s *Service) requireEditor(ctx context.Context, orgID, siteID string) error {
	_, _, err := s.sites.Require(ctx, orgID, siteID, access.EditContent)
	return err
}
