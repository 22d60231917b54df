// Package embeds makes link cards (GET /v1/urls/embed and
// GET /v1/spaces/{spaceId}/embed; docs/content.md, "Link cards"): the
// title, site, description and icon of the page a URL names, read from
// its HTML head through the guarded fetcher (package fetch: public
// addresses only unless FETCH_ALLOW_PRIVATE, bounded in time, redirects
// and size) and kept a while in the process's memory. It is a package of
// its own so that only the content function links the HTML parser for it.
package embeds

import (
	"bytes"
	"context"
	"errors"
	"mime"
	"net/url"
	"path"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/fetch"
	"github.com/galleydocs/galley/shared/model"
)

// Limits of one card.
const (
	// MaxBytes is how much of a page is read: its head is at the start.
	MaxBytes = 512 << 10
	// Timeout bounds one fetch, redirects included (a card is asked for
	// while someone edits).
	Timeout = 10 * time.Second
	// TTL is how long a card is kept.
	TTL = time.Hour
	// MaxCached bounds the cards kept (the oldest go first).
	MaxCached = 1000
	// maxText bounds a title or description.
	maxText = 300
)

// Card is a link card.
type Card struct {
	Title, Site, Description, Icon string
}

// Spaces is what embeds asks of content: whether the caller may read a
// space (content.Service.Space).
type Spaces interface {
	Space(ctx context.Context, spaceID string, op access.OrgOp) (model.Space, model.Role, error)
}

// Service makes link cards.
type Service struct {
	d      *deps.Deps
	spaces Spaces

	mu    sync.Mutex
	cards map[string]cached
	order []string
}

type cached struct {
	card    Card
	expires time.Time
}

// New returns the link cards service; spaces checks the space of
// InSpace.
func New(d *deps.Deps, spaces Spaces) *Service {
	return &Service{d: d, spaces: spaces, cards: map[string]cached{}}
}

// InSpace is Card for a caller who may read the space spaceID (else
// NotFound).
func (s *Service) InSpace(ctx context.Context, spaceID, rawURL string) (Card, error) {
	if _, _, err := s.spaces.Space(ctx, spaceID, access.ReadContent); err != nil {
		return Card{}, err
	}
	return s.Card(ctx, rawURL)
}

// Card returns the link card of rawURL (any signed-in caller: the fetch
// is anonymous, so the card is the same for everyone and shared). A URL
// that is not http(s), or whose address is not public, is Invalid naming
// url; a page that cannot be read (an error status, a timeout, no HTML)
// gets a plain card (its address as title, its host as site), which is
// not kept.
func (s *Service) Card(ctx context.Context, rawURL string) (Card, error) {
	if _, err := access.CallerFrom(ctx); err != nil {
		return Card{}, err
	}
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Card{}, apperr.Field("url", "must be an http or https URL")
	}
	if u.User != nil {
		return Card{}, apperr.Field("url", "must not embed credentials")
	}
	u.Fragment = ""
	key := u.String()
	now := s.d.Clock()
	if c, ok := s.get(key, now); ok {
		return c, nil
	}
	res, err := fetch.NewWithTimeout(s.d.FetchAllowPrivate, Timeout).FetchPrefix(ctx, key, MaxBytes)
	var fe *fetch.Error
	if errors.As(err, &fe) && (fe.Code == fetch.CodeRefused || fe.Code == fetch.CodeInvalid) {
		return Card{}, apperr.Field("url", "%s", fe.Error())
	}
	if err != nil {
		s.d.Logger.InfoContext(ctx, "link card fetch failed", "url", fetch.Redact(key), "err", err.Error())
		return plain(u), nil
	}
	final, err := url.Parse(res.URL)
	if err != nil {
		final = u
	}
	c := parse(res, final)
	s.put(key, c, now.Add(TTL))
	return c, nil
}

// plain is the card of a page that could not be read.
func plain(u *url.URL) Card {
	return Card{Title: u.String(), Site: u.Hostname()}
}

func (s *Service) get(key string, now time.Time) (Card, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.cards[key]
	if !ok || now.After(c.expires) {
		return Card{}, false
	}
	return c.card, true
}

func (s *Service) put(key string, c Card, expires time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.cards[key]; !ok {
		s.order = append(s.order, key)
	}
	s.cards[key] = cached{card: c, expires: expires}
	for len(s.order) > MaxCached {
		delete(s.cards, s.order[0])
		s.order = s.order[1:]
	}
}

// parse reads a card from a fetched body: from an HTML page's head (Open
// Graph's og:title, og:site_name, og:description, else <title> and the
// description meta, and the first icon link), else from the URL (a file's
// name as title).
func parse(res fetch.Response, u *url.URL) Card {
	c := Card{Site: u.Hostname()}
	mt, _, _ := mime.ParseMediaType(res.ContentType)
	if mt != "text/html" && mt != "application/xhtml+xml" {
		if name := path.Base(u.Path); name != "/" && name != "." {
			c.Title = name
		} else {
			c.Title = u.String()
		}
		return c
	}
	var title, ogTitle, ogSite, desc, ogDesc, icon string
	z := html.NewTokenizer(bytes.NewReader(res.Body))
	inTitle := false
scan:
	for {
		switch z.Next() {
		case html.ErrorToken:
			break scan
		case html.TextToken:
			if inTitle && title == "" {
				title = strings.TrimSpace(string(z.Text()))
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			switch atom.Lookup(name) {
			case atom.Title:
				inTitle = false
			case atom.Head:
				break scan
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			if a == atom.Body {
				break scan
			}
			if a == atom.Title {
				inTitle = true
				continue
			}
			if !hasAttr || (a != atom.Meta && a != atom.Link) {
				continue
			}
			attrs := map[string]string{}
			for {
				k, v, more := z.TagAttr()
				attrs[strings.ToLower(string(k))] = string(v)
				if !more {
					break
				}
			}
			if a == atom.Link {
				if icon == "" && isIcon(attrs["rel"]) && attrs["href"] != "" {
					icon = attrs["href"]
				}
				continue
			}
			content := strings.TrimSpace(attrs["content"])
			switch strings.ToLower(attrs["property"] + attrs["name"]) {
			case "og:title":
				ogTitle = content
			case "og:site_name":
				ogSite = content
			case "og:description":
				ogDesc = content
			case "description":
				desc = content
			}
		}
	}
	c.Title = clip(first(ogTitle, title, u.String()))
	c.Site = clip(first(ogSite, c.Site))
	c.Description = clip(first(ogDesc, desc))
	if icon != "" {
		if ref, err := u.Parse(icon); err == nil && (ref.Scheme == "http" || ref.Scheme == "https") {
			c.Icon = ref.String()
		}
	}
	return c
}

// isIcon tells whether a link's rel names an icon.
func isIcon(rel string) bool {
	for _, r := range strings.Fields(strings.ToLower(rel)) {
		if r == "icon" || r == "apple-touch-icon" {
			return true
		}
	}
	return false
}

func first(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// clip bounds a text shown on a card, on a rune boundary, with its
// whitespace runs made single spaces.
func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) > maxText {
		return string(r[:maxText-1]) + "…"
	}
	return s
}
