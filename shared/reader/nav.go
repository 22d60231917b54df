package reader

import (
	"context"
	"strings"
	"sync"

	"github.com/galleydocs/galley/shared/content"
)

// navPage is a page of a space's tree as the reader shows it.
type navPage struct {
	ID, Title, Path, Emoji, Type, Href, Description string
	// Hidden pages are served at their URL but left out of navigation,
	// sitemaps and llms.txt; NoIndex ones are left out of sitemaps.
	Hidden, NoIndex bool
	Parent          *navPage
	Children        []*navPage
	// Order is the page's index in nav.order (-1 when not in it).
	Order int
}

// nav is a revision's page tree, as navigation needs it: built once per
// revision (a revision never changes) and kept in the service's cache.
type nav struct {
	top    []*navPage
	byPath map[string]*navPage
	byID   map[string]*navPage
	// order is the reading order: the visible document pages, depth first.
	order []*navPage
}

func buildNav(pages []content.RevisionPage) *nav {
	n := &nav{byPath: map[string]*navPage{}, byID: map[string]*navPage{}}
	var walk func(ps []content.RevisionPage, parent *navPage, hidden bool) []*navPage
	walk = func(ps []content.RevisionPage, parent *navPage, hidden bool) []*navPage {
		out := make([]*navPage, 0, len(ps))
		for i := range ps {
			p := &ps[i]
			np := &navPage{ID: p.ID, Title: p.Title, Path: p.Path, Emoji: p.Emoji, Type: p.Type, Href: p.Href,
				Description: p.Description, Hidden: p.Hidden || hidden, Parent: parent, Order: -1,
				NoIndex: (p.NoIndex != nil && *p.NoIndex) || (p.NoRobotsIndex != nil && *p.NoRobotsIndex)}
			n.byID[np.ID] = np
			if np.Type == content.TypeDocument && np.Path != "" {
				n.byPath[np.Path] = np
				if !np.Hidden {
					np.Order = len(n.order)
					n.order = append(n.order, np)
				}
			}
			np.Children = walk(p.Pages, np, np.Hidden)
			out = append(out, np)
		}
		return out
	}
	n.top = walk(pages, nil, false)
	return n
}

// first is the page a site space's root shows: its first visible document.
func (n *nav) first() *navPage {
	if len(n.order) > 0 {
		return n.order[0]
	}
	return nil
}

// find returns the page at a path ("" for the first page).
func (n *nav) find(path string) *navPage {
	path = strings.Trim(path, "/")
	if path == "" {
		return n.first()
	}
	return n.byPath[path]
}

// navCache keeps the navigation of the revisions read lately. Revisions
// are immutable, so an entry is never stale; the cache is bounded.
type navCache struct {
	mu    sync.Mutex
	max   int
	items map[string]*nav
	keys  []string // insertion order, for eviction
	// building deduplicates concurrent builds of one revision.
	building map[string]*sync.WaitGroup
}

func newNavCache(max int) *navCache {
	return &navCache{max: max, items: map[string]*nav{}, building: map[string]*sync.WaitGroup{}}
}

// get returns the navigation of spaceID's revision, building it with load
// on a miss.
func (c *navCache) get(ctx context.Context, spaceID, revision string, load func(context.Context) ([]content.RevisionPage, error)) (*nav, error) {
	key := spaceID + "@" + revision
	for {
		c.mu.Lock()
		if n, ok := c.items[key]; ok {
			c.mu.Unlock()
			return n, nil
		}
		if wg, ok := c.building[key]; ok {
			c.mu.Unlock()
			wg.Wait()
			continue
		}
		wg := &sync.WaitGroup{}
		wg.Add(1)
		c.building[key] = wg
		c.mu.Unlock()
		pages, err := load(ctx)
		var n *nav
		if err == nil {
			n = buildNav(pages)
		}
		c.mu.Lock()
		delete(c.building, key)
		if err == nil {
			if len(c.keys) >= c.max {
				delete(c.items, c.keys[0])
				c.keys = c.keys[1:]
			}
			c.items[key] = n
			c.keys = append(c.keys, key)
		}
		c.mu.Unlock()
		wg.Done()
		return n, err
	}
}
