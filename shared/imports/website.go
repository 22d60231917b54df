package imports

import (
	"bytes"
	"context"
	"fmt"
	"mime"
	"net/url"
	"path"
	"strings"
	"sync"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/fetch"
	"github.com/galleydocs/galley/shared/gitsync"
)

// webPage is a fetched HTML page.
type webPage struct {
	url   *url.URL
	key   string // the URL without fragment, query and trailing slash
	depth int
	title string
	main  *html.Node
	file  string // its markdown file in the project
}

// pageKey normalizes a URL naming a page: no fragment, no query, no
// trailing slash or index file.
func pageKey(u *url.URL) string {
	p := u.EscapedPath()
	for _, index := range []string{"index.html", "index.htm"} {
		p = strings.TrimSuffix(p, "/"+index)
	}
	p = strings.TrimRight(p, "/")
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host) + p
}

// crawlWorkers is how many pages a crawl fetches at once.
const crawlWorkers = 4

// fetched is a page read by a crawl: its document, or why not.
type fetched struct {
	doc *html.Node
	err error
}

// fetchPage reads and parses an HTML page.
func fetchPage(ctx context.Context, c *fetch.Client, u *url.URL) fetched {
	res, err := c.Fetch(ctx, u.String(), MaxPageBytes)
	if err != nil {
		return fetched{err: fetchFailure(err)}
	}
	if mt, _, _ := mime.ParseMediaType(res.ContentType); mt != "text/html" && mt != "application/xhtml+xml" {
		return fetched{err: errNotHTML}
	}
	doc, err := html.Parse(bytes.NewReader(res.Body))
	if err != nil {
		return fetched{err: apperr.Field("url", "the page cannot be read as HTML")}
	}
	return fetched{doc: doc}
}

// crawl reads the same-origin pages reachable from start, breadth first,
// at most s.Pages pages s.Depth links away, crawlWorkers at a time (in
// the order of a crawl of one page at a time). It returns the pages read,
// in that order, and how many same-origin pages it found (read or not).
func (s *Service) crawl(ctx context.Context, c *fetch.Client, start *url.URL, follow bool) ([]*webPage, int, error) {
	origin := strings.ToLower(start.Scheme + "://" + start.Host)
	seen := map[string]bool{pageKey(start): true}
	queue := []*webPage{{url: start, key: pageKey(start)}}
	var pages []*webPage
	for len(queue) > 0 && len(pages) < s.Pages {
		if ctx.Err() != nil {
			break // the time budget is spent: what was read is imported
		}
		batch := queue[:min(len(queue), s.Pages-len(pages), crawlWorkers)]
		queue = queue[len(batch):]
		results := make([]fetched, len(batch))
		var wg sync.WaitGroup
		for i, pg := range batch {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i] = fetchPage(ctx, c, pg.url)
			}()
		}
		wg.Wait()
		for i, pg := range batch {
			doc, err := results[i].doc, results[i].err
			if err != nil {
				if len(pages) == 0 {
					return nil, 0, err
				}
				continue // a broken link of the site, or not a page: skipped
			}
			// Links first: the navigation, where sites list their pages,
			// is not content and goes with extract.
			links := hrefs(doc)
			pg.title, pg.main = extract(doc)
			pages = append(pages, pg)
			if !follow {
				return pages, len(seen), nil
			}
			for _, href := range links {
				u, err := pg.url.Parse(href)
				if err != nil || (u.Scheme != "http" && u.Scheme != "https") || strings.ToLower(u.Scheme+"://"+u.Host) != origin {
					continue
				}
				u.Fragment, u.RawQuery = "", ""
				if !isPagePath(u.Path) {
					continue
				}
				k := pageKey(u)
				if seen[k] {
					continue
				}
				seen[k] = true
				if pg.depth+1 <= s.Depth {
					queue = append(queue, &webPage{url: u, key: k, depth: pg.depth + 1})
				}
			}
		}
	}
	return pages, len(seen), nil
}

// isPagePath tells page links from links to files (images, archives...).
func isPagePath(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case "", ".html", ".htm", ".php", ".asp", ".aspx", ".jsp":
		return true
	}
	return false
}

// extract finds a page's title and main content (findMain), pruned of
// what is not content (prune) and normalized for the conversion
// (normalize).
func extract(doc *html.Node) (string, *html.Node) {
	var title string
	var h1 *html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.DataAtom {
			case atom.Title:
				if title == "" && n.FirstChild != nil {
					title = strings.TrimSpace(n.FirstChild.Data)
				}
			case atom.H1:
				if h1 == nil {
					h1 = n
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	main := findMain(doc)
	// A page's <header> is the site's, but in a content element (where
	// Docusaurus puts the title).
	prune(main, main.DataAtom != atom.Body && main.Type != html.DocumentNode)
	normalize(main)
	// The first heading of the content is the title when it has one (and
	// is not repeated in the body).
	if h := firstHeading(main); h != nil {
		if t := headingText(h); t != "" {
			title = t
			h.Parent.RemoveChild(h)
		}
	} else if h1 != nil && title == "" {
		prune(h1, false)
		title = headingText(h1)
	}
	// "Page - Site" titles: the page's part.
	for _, sep := range []string{" | ", " – ", " — ", " - "} {
		if i := strings.Index(title, sep); i > 0 {
			title = title[:i]
			break
		}
	}
	return strings.TrimSpace(title), main
}

// headingText is a heading's text on one line (its permalinks are pruned
// already: a "#" left is the title's, as in "C#").
func headingText(h *html.Node) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(textOf(h), "\u200b", "")), " ")
}

// firstHeading is the first h1 of the content, if it comes before any
// other text.
func firstHeading(n *html.Node) *html.Node {
	var found *html.Node
	var walk func(n *html.Node) bool
	walk = func(n *html.Node) bool {
		if n.Type == html.ElementNode && n.DataAtom == atom.H1 {
			found = n
			return true
		}
		if n.Type == html.TextNode && strings.TrimSpace(n.Data) != "" {
			return true
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if walk(c) {
				return true
			}
		}
		return false
	}
	walk(n)
	return found
}

func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// hrefs are the link targets of a whole page.
func hrefs(doc *html.Node) []string {
	var out []string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.DataAtom == atom.A {
			for _, a := range n.Attr {
				if a.Key == "href" {
					out = append(out, a.Val)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out
}

// attr returns a pointer to an element's attribute, or nil.
func attr(n *html.Node, key string) *html.Attribute {
	for i := range n.Attr {
		if n.Attr[i].Key == key {
			return &n.Attr[i]
		}
	}
	return nil
}

// websiteProject turns crawled pages into a project: one markdown file per
// page, at a path from its URL, nested under the closest page above it in
// a SUMMARY.md in crawl order; links between the pages become relative
// paths between their files; images are fetched (within the bounds) into
// .gitbook/assets.
func (s *Service) websiteProject(ctx context.Context, c *fetch.Client, pages []*webPage) (*gitsync.Project, error) {
	pr := gitsync.NewProject()
	byKey := map[string]*webPage{}
	used := map[string]bool{}
	for _, pg := range pages {
		byKey[pg.key] = pg
	}
	// Files: by URL path, a page with pages under it as a folder's README.
	parent := map[*webPage]*webPage{}
	children := map[*webPage][]*webPage{}
	var top []*webPage
	for _, pg := range pages {
		var best *webPage
		for k := pg.key; ; {
			i := strings.LastIndex(k, "/")
			if i <= len("https://") {
				break
			}
			k = k[:i]
			if p, ok := byKey[k]; ok && p != pg {
				best = p
				break
			}
		}
		if best == nil {
			top = append(top, pg)
		} else {
			parent[pg] = best
			children[best] = append(children[best], pg)
		}
	}
	var name func(pg *webPage) string
	name = func(pg *webPage) string {
		seg := path.Base(strings.TrimRight(pg.url.Path, "/"))
		seg = strings.TrimSuffix(seg, path.Ext(seg))
		if seg == "" || seg == "." || seg == "/" || seg == "index" {
			seg = pg.title
		}
		base := content.Slugify(seg)
		dir := ""
		if p := parent[pg]; p != nil {
			dir = strings.TrimSuffix(p.file, "/README.md")
		}
		for n := 1; ; n++ {
			candidate := base
			if n > 1 {
				candidate = fmt.Sprintf("%s-%d", base, n)
			}
			file := path.Join(dir, candidate+".md")
			if len(children[pg]) > 0 {
				file = path.Join(dir, candidate, "README.md")
			}
			if !used[file] && !used[path.Join(dir, candidate+".md")] && !used[path.Join(dir, candidate, "README.md")] {
				used[file] = true
				return file
			}
		}
	}
	var assign func(list []*webPage)
	assign = func(list []*webPage) {
		for _, pg := range list {
			pg.file = name(pg)
			assign(children[pg])
		}
	}
	assign(top)
	// Images, then bodies.
	images := 0
	assets := map[string]string{} // image URL -> asset path
	for _, pg := range pages {
		var walk func(n *html.Node)
		walk = func(n *html.Node) {
			if n.Type == html.ElementNode {
				switch n.DataAtom {
				case atom.A:
					if a := attr(n, "href"); a != nil {
						if u, err := pg.url.Parse(a.Val); err == nil {
							anchor := u.Fragment
							u.Fragment, u.RawQuery = "", ""
							if target, ok := byKey[pageKey(u)]; ok {
								a.Val = relPath(pg.file, target.file)
								if anchor != "" {
									a.Val += "#" + anchor
								}
							} else if u.Scheme == "http" || u.Scheme == "https" {
								a.Val = u.String()
								if anchor != "" {
									a.Val += "#" + anchor
								}
							}
						}
					}
				case atom.Img:
					if a := attr(n, "src"); a != nil {
						if u, err := pg.url.Parse(a.Val); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
							asset, ok := assets[u.String()]
							if !ok && images < MaxImages && ctx.Err() == nil {
								images++
								if res, err := c.Fetch(ctx, u.String(), content.MaxFileBytes); err == nil {
									base := path.Base(u.Path)
									if base == "." || base == "/" || base == "" {
										base = "image"
									}
									asset = path.Join(".gitbook/assets", fmt.Sprintf("%d-%s", len(assets)+1, base))
									if err := pr.Add(asset, res.Body); err == nil {
										assets[u.String()] = asset
										ok = true
									}
								}
							}
							if ok {
								a.Val = relPath(pg.file, asset)
							} else {
								a.Val = u.String()
							}
						}
					}
				}
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		walk(pg.main)
		md, err := s.conv.ConvertNode(pg.main)
		if err != nil {
			return nil, fmt.Errorf("convert %s: %w", pg.url.Redacted(), err)
		}
		title := pg.title
		if title == "" {
			title = "Untitled"
		}
		if err := pr.Add(pg.file, []byte("# "+title+"\n\n"+string(md)+"\n")); err != nil {
			return nil, err
		}
	}
	// The table of contents, in crawl order, nested by URL path.
	var b strings.Builder
	b.WriteString("# Table of contents\n\n")
	var write func(list []*webPage, depth int)
	write = func(list []*webPage, depth int) {
		for _, pg := range list {
			title := strings.NewReplacer(`\`, `\\`, "]", `\]`, "[", `\[`).Replace(pg.title)
			if title == "" {
				title = "Untitled"
			}
			b.WriteString(strings.Repeat("  ", depth) + "* [" + title + "](" + pg.file + ")\n")
			write(children[pg], depth+1)
		}
	}
	write(top, 0)
	if err := pr.Add("SUMMARY.md", []byte(b.String())); err != nil {
		return nil, err
	}
	return pr, nil
}

// relPath is the relative path from the folder of file from to file to.
func relPath(from, to string) string {
	fromDir := path.Dir(from)
	var fs []string
	if fromDir != "." {
		fs = strings.Split(fromDir, "/")
	}
	ts := strings.Split(to, "/")
	i := 0
	for i < len(fs) && i < len(ts)-1 && fs[i] == ts[i] {
		i++
	}
	return strings.Repeat("../", len(fs)-i) + strings.Join(ts[i:], "/")
}
