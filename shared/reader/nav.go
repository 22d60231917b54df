package reader

import (
	"context"
	"html/template"
	"strings"
	"sync"

	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/sites"
)

// navPage is a page of a space's tree as the reader shows it.
type navPage struct {
	ID, Title, Path, Emoji, Type, Href, Description string
	// Hidden pages are served at their URL but left out of navigation,
	// sitemaps and llms.txt; NoIndex ones are left out of sitemaps.
	Hidden, NoIndex bool
	// Condition is the page's own condition ("" for none): the page and
	// its children are shown to the visitors for whom it holds
	// (nav.forVisitor).
	Condition string
	Parent    *navPage
	Children  []*navPage
	// Order is the page's index in nav.order (-1 when not in it).
	Order int
	// GitFile is the page's markdown file in a synced repository,
	// relative to the docs' root: the one it was imported from, else
	// where Git Sync writes a page made in Galley (<path>.md, or
	// <path>/README.md when it has child pages; DEVELOPERS.md).
	GitFile string
	// Spec is the OpenAPI spec a computed page, or a page it generates,
	// is computed from (its ref: slug, id or URL); "" for other pages.
	Spec string
}

// nav is a revision's page tree, as navigation needs it: built once per
// revision (a revision never changes) and kept in the service's cache.
type nav struct {
	top    []*navPage
	byPath map[string]*navPage
	byID   map[string]*navPage
	// order is the reading order: the visible document pages, depth first.
	order []*navPage
	// conditional: some page has a condition.
	conditional bool
	// specs are the versions of the specs the computed pages were
	// generated from (content.SpecVersions' form, by ref): the tree
	// is stale once one changes (Service.navOf).
	specs map[string]string
	// bodySpecs are the specs the pages' OpenAPI blocks show (specs.go),
	// shared with the visitors' copies.
	bodySpecs *bodySpecs
	// sidebars are the sidebar's entries kept rendered; nil in a
	// visitor's copy (forVisitor), which keeps none.
	sidebars *navSidebars
}

func buildNav(pages []content.RevisionPage) *nav {
	n := &nav{byPath: map[string]*navPage{}, byID: map[string]*navPage{}, bodySpecs: newBodySpecs(),
		sidebars: &navSidebars{items: map[string]*sidebarEntries{}}}
	var walk func(ps []content.RevisionPage, parent *navPage, hidden bool) []*navPage
	walk = func(ps []content.RevisionPage, parent *navPage, hidden bool) []*navPage {
		out := make([]*navPage, 0, len(ps))
		for i := range ps {
			p := &ps[i]
			np := &navPage{ID: p.ID, Title: p.Title, Path: p.Path, Emoji: p.Emoji, Type: p.Type, Href: p.Href,
				Description: p.Description, Hidden: p.Hidden || hidden, Parent: parent, Order: -1,
				NoIndex:   (p.NoIndex != nil && *p.NoIndex) || (p.NoRobotsIndex != nil && *p.NoRobotsIndex),
				Condition: p.VisitorCondition}
			n.conditional = n.conditional || np.Condition != ""
			if c := p.Computed; c != nil && c.Dependencies.Spec.Ref.Spec != "" {
				np.Spec = c.Dependencies.Spec.Ref.Spec
				if n.specs == nil {
					n.specs = map[string]string{}
				}
				if v := c.Dependencies.Spec.Value; v != nil {
					n.specs[np.Spec] = v.ID + "@" + v.LastVersion
				} else if _, ok := n.specs[np.Spec]; !ok {
					n.specs[np.Spec] = ""
				}
			}
			if p.Git != nil && p.Git.Path != "" {
				np.GitFile = p.Git.Path
			} else if p.Type == content.TypeDocument && p.Path != "" {
				np.GitFile = p.Path + ".md"
				for _, c := range p.Pages {
					if c.Type != content.TypeLink {
						np.GitFile = p.Path + "/README.md"
						break
					}
				}
			}
			n.index(np)
			np.Children = walk(p.Pages, np, np.Hidden)
			out = append(out, np)
		}
		return out
	}
	n.top = walk(pages, nil, false)
	return n
}

// index adds a page to the lookups and the reading order (pages are
// indexed depth first).
func (n *nav) index(np *navPage) {
	n.byID[np.ID] = np
	if np.Type == content.TypeDocument && np.Path != "" {
		n.byPath[np.Path] = np
		if !np.Hidden {
			np.Order = len(n.order)
			n.order = append(n.order, np)
		}
	}
}

// forVisitor is the navigation a visitor sees: without the pages whose
// condition does not hold for their claims (sites.ConditionHolds, the one
// evaluator), nor their children: out of the tree, the reading order and
// the lookups, so that their URLs, .md, sitemap and llms.txt entries are
// gone too. n itself when no page has a condition; the cached n is never
// changed (the visitor's copy is new pages).
func (n *nav) forVisitor(claims map[string]any) *nav {
	if !n.conditional {
		return n
	}
	out := &nav{byPath: map[string]*navPage{}, byID: map[string]*navPage{}, specs: n.specs, bodySpecs: n.bodySpecs}
	var walk func(ps []*navPage, parent *navPage) []*navPage
	walk = func(ps []*navPage, parent *navPage) []*navPage {
		kept := make([]*navPage, 0, len(ps))
		for _, p := range ps {
			if !sites.ConditionHolds(p.Condition, claims) {
				continue
			}
			cp := *p
			cp.Parent, cp.Order = parent, -1
			out.index(&cp)
			cp.Children = walk(p.Children, &cp)
			kept = append(kept, &cp)
		}
		return kept
	}
	out.top = walk(n.top, nil)
	return out
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
// are immutable, so an entry is stale only when a spec its computed pages
// come from changes (dropped then: Service.navOf); the cache is bounded.
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

// drop forgets spaceID's revision (its tree was computed from a spec
// that has changed since).
func (c *navCache) drop(spaceID, revision string) {
	key := spaceID + "@" + revision
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[key]; !ok {
		return
	}
	delete(c.items, key)
	for i, k := range c.keys {
		if k == key {
			c.keys = append(c.keys[:i:i], c.keys[i+1:]...)
			break
		}
	}
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

// navSidebars keeps a revision's sidebar entries rendered (those off the
// current page's branch, which render the same on every page), by the
// address the site is read at (its base path and share key: the entries'
// links), for the revision's shared navigation only (Service.sidebar).
type navSidebars struct {
	mu    sync.Mutex
	items map[string]*sidebarEntries
	// bytes is the size of the entries kept, at most maxSidebarBytes.
	bytes int
}

// maxSidebarBytes bounds the rendered entries a revision keeps, all
// addresses together: a 50,000-page space's entries are about 5.5 MB at
// one address. Past it the kept entries are dropped and kept again as
// pages are read.
const maxSidebarBytes = 8 << 20

// maxSidebarAddresses bounds the addresses a revision keeps entries for
// (a site has a few: its URLs, and one a share link's key).
const maxSidebarAddresses = 16

// sidebarEntries are the entries kept for one address.
type sidebarEntries struct {
	c     *navSidebars
	items map[*navPage]template.HTML
}

// at returns the entries kept for the address key.
func (c *navSidebars) at(key string) *sidebarEntries {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[key]
	if !ok {
		if len(c.items) >= maxSidebarAddresses {
			// The others are dropped (as past maxSidebarBytes);
			// they keep working, keeping nothing more.
			clear(c.items)
			c.bytes = 0
		}
		e = &sidebarEntries{c: c, items: map[*navPage]template.HTML{}}
		c.items[key] = e
	}
	return e
}

// get returns p's entry, rendering it with render when it is not kept (e
// nil: nothing is kept).
func (e *sidebarEntries) get(p *navPage, render func() template.HTML) template.HTML {
	if e == nil {
		return render()
	}
	c := e.c
	c.mu.Lock()
	h, ok := e.items[p]
	c.mu.Unlock()
	if ok {
		return h
	}
	h = render()
	c.mu.Lock()
	if c.bytes+len(h) > maxSidebarBytes {
		// Every address's entries go: a kept *sidebarEntries is
		// still valid, empty.
		for _, x := range c.items {
			clear(x.items)
		}
		c.bytes = 0
	}
	if _, ok := e.items[p]; !ok {
		e.items[p] = h
		c.bytes += len(h)
	}
	c.mu.Unlock()
	return h
}
