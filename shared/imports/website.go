package imports

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"mime"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/document"
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
	doc      *html.Node
	err      error
	tooLarge bool // over MaxPageBytes
}

// fetchPage reads and parses an HTML page.
func fetchPage(ctx context.Context, c *fetch.Client, u *url.URL) fetched {
	res, err := c.Fetch(ctx, u.String(), MaxPageBytes)
	if err != nil {
		var fe *fetch.Error
		return fetched{err: fetchFailure(err), tooLarge: errors.As(err, &fe) && fe.Code == fetch.CodeTooLarge}
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
// in that order, how many same-origin pages it found (read or not), and
// the pages found and left out: Sphinx's generated pages (not fetched),
// pages over MaxPageBytes, pages that could not be read.
func (s *Service) crawl(ctx context.Context, c *fetch.Client, start *url.URL, follow bool) ([]*webPage, int, []Skipped, error) {
	origin := strings.ToLower(start.Scheme + "://" + start.Host)
	seen := map[string]bool{pageKey(start): true}
	queue := []*webPage{{url: start, key: pageKey(start)}}
	var pages []*webPage
	var skipped []Skipped
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
					return nil, 0, nil, err
				}
				if ctx.Err() != nil {
					continue // cut by the budget: not read, not skipped
				}
				// A broken link of the site, not a page, or too large.
				reason := SkipUnreadable
				if results[i].tooLarge {
					reason = SkipTooLarge
				}
				skipped = append(skipped, Skipped{URL: fetch.Redact(pg.url.String()), Reason: reason})
				continue
			}
			// Links first: the navigation, where sites list their pages,
			// is not content and goes with extract.
			links := hrefs(doc)
			sphinx := isSphinx(doc)
			pg.title, pg.main = extract(doc)
			pages = append(pages, pg)
			if !follow {
				return pages, len(seen), nil, nil
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
				if sphinx && sphinxGenerated(u.Path) {
					skipped = append(skipped, Skipped{URL: fetch.Redact(u.String()), Reason: SkipGenerated})
					continue
				}
				if pg.depth+1 <= s.Depth {
					queue = append(queue, &webPage{url: u, key: k, depth: pg.depth + 1})
				}
			}
		}
	}
	return pages, len(seen), skipped, nil
}

// isSphinx tells a page Sphinx wrote: its themes (all built on its
// "basic" layout) load _static/documentation_options.js (with the id
// "documentation_options" before Sphinx 7); some say so in a generator
// meta tag.
func isSphinx(doc *html.Node) bool {
	found := false
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if found {
			return
		}
		if n.Type == html.ElementNode {
			switch {
			case n.DataAtom == atom.Body:
				return // both are in the head
			case n.DataAtom == atom.Script && (attrVal(n, "id") == "documentation_options" || isDocumentationOptions(attrVal(n, "src"))),
				n.DataAtom == atom.Meta && strings.EqualFold(attrVal(n, "name"), "generator") && strings.HasPrefix(attrVal(n, "content"), "Sphinx"):
				found = true
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return found
}

// isDocumentationOptions tells the URL of Sphinx's
// documentation_options.js.
func isDocumentationOptions(src string) bool {
	u, err := url.Parse(src)
	return err == nil && path.Base(u.Path) == "documentation_options.js"
}

// sphinxGenerated tells the pages Sphinx generates rather than writes
// from a document, which a person importing the site leaves out: the
// general index (genindex, its letters genindex-A..., genindex-all), the
// domain indices (py-modindex...), the search page, and the highlighted
// sources of sphinx.ext.viewcode (_modules/). Sphinx reserves these
// names: no document can take them. Both builders' URLs are read
// ("genindex.html", dirhtml's "genindex/").
func sphinxGenerated(p string) bool {
	p = strings.TrimSuffix(strings.TrimSuffix(p, "/index.html"), "/")
	if strings.Contains(p+"/", "/_modules/") {
		return true
	}
	name := strings.ToLower(path.Base(p))
	name = strings.TrimSuffix(strings.TrimSuffix(name, ".html"), ".htm")
	return name == "genindex" || strings.HasPrefix(name, "genindex-") || name == "modindex" ||
		strings.HasSuffix(name, "-modindex") || name == "search"
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

// Placeholders of links in a page's markdown until the files of the
// pages are known (websiteProject): refPage<i>: (and a fragment) the
// page pages[i], refAsset<i>: the image assets[i].
const (
	refPage  = "galley-import-page-"
	refAsset = "galley-import-asset-"
)

var reRef = regexp.MustCompile(`galley-import-(page|asset)-([0-9]+):`)

// asset is an image fetched for an import.
type asset struct {
	path string // in the project
	data []byte
}

// websiteProject turns crawled pages into a project: one markdown file per
// page, at a path from its URL, nested under the closest page above it in
// a SUMMARY.md in crawl order; links between the pages become relative
// paths between their files; images are fetched (within the bounds) into
// .gitbook/assets. A page whose markdown is over gitsync.MaxMarkdownBytes
// is left out (a link to it stays a link to its URL) and answered in the
// skipped pages; when every page is, the import is too large.
//
// Each page is converted once, with placeholders for the links to pages
// and images: leaving a page out moves the files of the pages nested
// under it, and so the links, which are then written again in the
// markdown.
func (s *Service) websiteProject(ctx context.Context, c *fetch.Client, pages []*webPage) (*gitsync.Project, []Skipped, error) {
	index := map[string]int{}
	for i, pg := range pages {
		index[pg.key] = i
	}
	var assets []asset
	byURL := map[string]int{} // image URL -> assets index
	images := 0
	md := make([]string, len(pages))
	for i, pg := range pages {
		var walk func(n *html.Node)
		walk = func(n *html.Node) {
			if n.Type == html.ElementNode {
				switch n.DataAtom {
				case atom.A:
					if a := attr(n, "href"); a != nil {
						if u, err := pg.url.Parse(a.Val); err == nil {
							anchor := u.Fragment
							u.Fragment, u.RawQuery = "", ""
							if target, ok := index[pageKey(u)]; ok {
								a.Val = fmt.Sprintf("%s%d:", refPage, target)
							} else if u.Scheme == "http" || u.Scheme == "https" {
								a.Val = u.String()
							} else {
								anchor = "" // left as written
							}
							if anchor != "" {
								a.Val += "#" + anchor
							}
						}
					}
				case atom.Img:
					if a := attr(n, "src"); a != nil {
						if u, err := pg.url.Parse(a.Val); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
							a.Val = u.String()
							k, ok := byURL[a.Val]
							if !ok && images < MaxImages && ctx.Err() == nil {
								images++
								if res, err := c.Fetch(ctx, a.Val, content.MaxFileBytes); err == nil {
									base := path.Base(u.Path)
									if base == "." || base == "/" || base == "" {
										base = "image"
									}
									k, ok = len(assets), true
									assets = append(assets, asset{path: path.Join(".gitbook/assets", fmt.Sprintf("%d-%s", k+1, base)), data: res.Body})
									byURL[a.Val] = k
								}
							}
							if ok {
								a.Val = fmt.Sprintf("%s%d:", refAsset, k)
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
		out, err := s.conv.ConvertNode(pg.main)
		if err != nil {
			return nil, nil, fmt.Errorf("convert %s: %w", fetch.Redact(pg.url.String()), err)
		}
		title := pg.title
		if title == "" {
			title = "Untitled"
		}
		md[i] = "# " + title + "\n\n" + string(out) + "\n"
	}
	// Files, and bodies with their links; again without the pages found
	// too large, until none is.
	left := make([]bool, len(pages))
	var skipped []Skipped
	for {
		var kept []*webPage
		for i, pg := range pages {
			if !left[i] {
				kept = append(kept, pg)
			}
		}
		if len(kept) == 0 {
			return nil, skipped, apperr.New(apperr.TooLarge, "url: the page's markdown is larger than %d bytes", gitsync.MaxMarkdownBytes)
		}
		top, children := layout(kept)
		bodies := make([]string, len(pages))
		used := map[int]bool{} // assets
		over := false
		for i, pg := range pages {
			if left[i] {
				continue
			}
			bodies[i] = reRef.ReplaceAllStringFunc(md[i], func(ref string) string {
				m := reRef.FindStringSubmatch(ref)
				k, err := strconv.Atoi(m[2])
				if err != nil || (m[1] == "asset" && k >= len(assets)) || (m[1] == "page" && k >= len(pages)) {
					return ref // the page's own text
				}
				if m[1] == "asset" {
					used[k] = true
					return document.RelativePath(pg.file, assets[k].path)
				}
				if left[k] {
					return pages[k].url.String()
				}
				return document.RelativePath(pg.file, pages[k].file)
			})
			if len(bodies[i]) > gitsync.MaxMarkdownBytes {
				left[i], over = true, true
				skipped = append(skipped, Skipped{URL: fetch.Redact(pg.url.String()), Reason: SkipTooLarge})
			}
		}
		if over {
			continue
		}
		pr := gitsync.NewProject()
		for k, a := range assets {
			if used[k] {
				if err := pr.Add(a.path, a.data); err != nil {
					return nil, nil, err
				}
			}
		}
		for i, pg := range pages {
			if !left[i] {
				if err := pr.Add(pg.file, []byte(bodies[i])); err != nil {
					return nil, nil, err
				}
			}
		}
		if err := pr.Add("SUMMARY.md", []byte(summary(top, children))); err != nil {
			return nil, nil, err
		}
		return pr, skipped, nil
	}
}

// layout gives pages their files: by URL path, a page with pages under
// it as a folder's README. It answers the top pages and the pages nested
// under each.
func layout(pages []*webPage) ([]*webPage, map[*webPage][]*webPage) {
	byKey := map[string]*webPage{}
	used := map[string]bool{}
	for _, pg := range pages {
		byKey[pg.key] = pg
	}
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
	name := func(pg *webPage) string {
		seg := path.Base(strings.TrimRight(pg.url.Path, "/"))
		seg = strings.TrimSuffix(seg, path.Ext(seg))
		if seg == "" || seg == "." || seg == "/" || seg == "index" {
			seg = pg.title
		}
		base := document.Slug(seg, "page")
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
	return top, children
}

// summary is the table of contents: the pages in crawl order, nested by
// URL path.
func summary(top []*webPage, children map[*webPage][]*webPage) string {
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
	return b.String()
}
