package reader

import (
	"bytes"
	"fmt"
	"html/template"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/sites"
)

// link is a titled link of the page's navigation.
type link struct {
	Title, Href string
	Current     bool
	// NewTab opens an external link in a new tab (the site's
	// externalLinks.target).
	NewTab bool
}

// menu is a section group: a menu of sections.
type menu struct {
	Title    string
	Current  bool
	Sections []link
}

// topItem is a section (or an external link) or a section group of the
// top navigation.
type topItem struct {
	Section *link
	Group   *menu
}

// sideItem is an entry of the page tree.
type sideItem struct {
	Title, Href, Emoji string
	Current, Group     bool
	Children           []sideItem
}

// pageData is what the page template shows.
type pageData struct {
	Lang, Title, SiteTitle, Description, Canonical string
	NoIndex                                        bool
	OGImage                                        string
	Favicon                                        template.URL
	Logo, LogoDark                                 string
	// Theme names the style sheet CSS (light, dark, system, or toggle:
	// the visitor chooses, ThemeDefault being the site's theme, and
	// DarkCSS is the dark rules' own style element).
	Theme, ThemeDefault, DarkCSS string
	// CSS and Vars are the site's style sheet and its colours; PageCSS
	// the page's own rules (columns' widths). The three are the text of
	// the page's style element, whose hash is in the page's CSP.
	CSS, Vars, PageCSS                string
	Home                              string
	Top                               []topItem
	Variants                          []link
	Variant                           string
	Sidebar                           template.HTML
	Crumbs                            []link
	PageTitle, Emoji, PageDescription string
	// HideTitle keeps the title for screen readers only (the page's
	// layout hides it); Cover is the cover image's URL, CoverFull its
	// full-width size (else hero).
	HideTitle  bool
	Cover      string
	CoverFull  bool
	Body       template.HTML
	Outline    []heading
	Prev, Next *link
	Markdown   string
	Status     string
	// HeaderLinks and FooterGroups are the site's links (customization);
	// FooterLogo (FooterLogoDark) and Copyright the footer's.
	HeaderLinks                []headerLink
	FooterGroups               []footerGroup
	FooterLogo, FooterLogoDark string
	Copyright                  string
	// LayoutClass and BodyClass are the styles' classes (styling.sidebar
	// and styling.depth: customize.go), "" for the defaults.
	LayoutClass, BodyClass string
	// W are the interface's strings in the site's language; Dir its
	// direction (ltr, rtl).
	W   words
	Dir string
	// Edit is the link to edit the page in its space's Git repository
	// (the `git` page action), nil without one.
	Edit *headerLink
	// Search is the site's search page (served by the search function);
	// ShareKey goes with its form on share-link sites.
	Search, ShareKey string
	// Announcement is the site's banner (nil: none); Actions the page's
	// actions (nil: none).
	Announcement *announcement
	Actions      *pageActionsData
	// Mermaid is the URL of the mermaid module on a page with a diagram
	// ("" otherwise: no script); MermaidSources the CSP sources allowing
	// it and its chunks.
	Mermaid, MermaidSources string
	// Playground: the page has an API playground (its script), whose
	// requests go to the origins Connect (its connect-src).
	Playground bool
	Connect    []string
	// Insights are the page's insights script's data and feedback form
	// (insights.go); nil on error pages and members' previews.
	Insights *insightsData
}

// page renders a page of the site space.
func (s *Service) page(st *site, req Request) (Answer, error) {
	p := st.nav.find(st.res.Pathname)
	if p == nil {
		err := notFound("/" + st.res.Pathname)
		return s.errorPage(st, err), err
	}
	edit := s.editLink(st, p)
	what := "html " + p.ID
	if edit != nil {
		what += " " + edit.Href
	}
	// The specs the page shows, with their versions (specs.go); the
	// page's read when finding them took one.
	at := content.At{SpaceID: st.res.Space.ID, Revision: st.revision}
	specs, read, err := s.pageSpecs(st, p, at)
	if err != nil {
		return s.errorPage(st, err), err
	}
	what += specs
	return s.respond(st, req, what, TypeHTML, func() ([]byte, string, error) {
		var rp content.RevisionPage
		if read != nil {
			rp = *read
		} else if rp, err = s.content.ShownPage(st.vctx, at, p.ID, content.FormatDocument, st.audience()); err != nil {
			return nil, "", err
		}
		var nodes []map[string]any
		if rp.Document != nil {
			nodes = rp.Document.Nodes
		}
		links := &pageLinks{s: s, st: st, at: at, files: map[string]fileInfo{}}
		d := s.chrome(st, p)
		doc := renderDocument(nodes, s.hl, links, d.W)
		d.Playground, d.Connect = doc.Playground, doc.Connect
		if doc.Diagrams {
			if s.assets.mermaid() {
				d.Mermaid = st.searchBase + strings.TrimPrefix(assetsSeg, "/") + MermaidDir + "/" + mermaidEntry
				d.MermaidSources = mermaidSources(st.origin, d.Mermaid)
			} else {
				s.assets.missing(st.vctx)
			}
		}
		d.PageTitle, d.Emoji, d.PageDescription, d.Body, d.Outline, d.PageCSS = rp.Title, rp.Emoji, rp.Description, doc.HTML, doc.Outline, doc.CSS
		d.Title = rp.Title + " | " + d.SiteTitle
		if rp.Description != "" {
			d.Description = rp.Description
		}
		d.Canonical = st.canonical(p)
		if p.Order >= 0 {
			if p.Order > 0 {
				prev := st.nav.order[p.Order-1]
				d.Prev = &link{Title: prev.Title, Href: st.pageURL(prev)}
			}
			if p.Order+1 < len(st.nav.order) {
				next := st.nav.order[p.Order+1]
				d.Next = &link{Title: next.Title, Href: st.pageURL(next)}
			}
		}
		if st.res.View.Site.AgentsContext != "excluded" {
			d.Markdown = st.res.BasePath + content.EscapeSegments(p.Path) + ".md" + st.query
		}
		d.Edit = edit
		d.Actions = st.pageActions(d.Markdown, d.W)
		d.Insights = st.insightsOf(p)
		applyLayout(d, rp, links)
		return s.render(st, d)
	})
}

// editLink is the page's "Edit on GitHub" (GitLab) link: when the site
// space's customization lists the `git` page action (pageActions.items,
// the list of the actions enabled) and the space is synced with a
// github.com or gitlab.com repository (gitstate.Editors); nil otherwise.
// A failed read of the Git Sync state leaves the link out.
func (s *Service) editLink(st *site, p *navPage) *headerLink {
	if !pageAction(st.custom, "git") || p.GitFile == "" {
		return nil
	}
	e, ok, err := s.editors.Of(st.vctx, st.res.Space.ID)
	if err != nil {
		s.d.Logger.WarnContext(st.vctx, "reader: Git Sync state", "space", st.res.Space.ID, "err", err.Error())
		return nil
	}
	if !ok {
		return nil
	}
	href := e.URL(p.ID, p.GitFile)
	if href == "" {
		return nil
	}
	w := wordsFor(st.lang())
	return &headerLink{Title: fmt.Sprintf(w.EditOn, e.Provider), Href: href, External: true, NewTab: st.newTab()}
}

// lang is the language of the site space's pages: its space's, then the
// customization's locale, then English (docs/reader.md, "Interface
// language").
func (st *site) lang() string {
	if l := st.res.Space.Language; l != "" {
		return l
	}
	if l := setting(st.custom, "internationalization.locale"); l != "" {
		return l
	}
	return "en"
}

// pageAction tells whether the customization enables a page action: the
// actions in pageActions.items are the enabled ones.
func pageAction(c map[string]any, action string) bool {
	pa, _ := c["pageActions"].(map[string]any)
	items, _ := pa["items"].([]any)
	for _, it := range items {
		if it == action {
			return true
		}
	}
	return false
}

// applyLayout follows the page's layout flags: its title and description,
// cover (with its size), page tree, outline and previous/next links shown
// or not; and finds the cover's URL (a file of the space, or a URL).
func applyLayout(d *pageData, rp content.RevisionPage, links *pageLinks) {
	l := content.DefaultLayout()
	if rp.Layout != nil {
		l = *rp.Layout
	}
	d.HideTitle = !l.Title
	if !l.Description {
		d.PageDescription = ""
	}
	if !l.TableOfContents {
		d.Sidebar = ""
	}
	if !l.Outline {
		d.Outline = nil
	}
	if !l.Pagination {
		d.Prev, d.Next = nil, nil
	}
	if c := rp.Cover; c != nil && l.Cover {
		switch c.Ref.Kind {
		case "file":
			if f, ok := links.file(c.Ref.File); ok {
				d.Cover = f.URL
			}
		case "url":
			if u := safeURL(c.Ref.URL); u != "#" {
				d.Cover = u
			}
		}
		d.CoverFull = l.CoverSize == "full"
	}
}

// render renders a page of the site st (nil: a site not known) and
// returns it with its Content-Security-Policy.
func (s *Service) render(st *site, d *pageData) ([]byte, string, error) {
	var b bytes.Buffer
	b.Grow(32 << 10)
	if err := s.pages.Execute(&b, d); err != nil {
		return nil, "", err
	}
	frame := "'self'"
	var origins []string
	if st != nil {
		frame, origins = st.frameAncestors(), httpOrigins(st.appURL, st.apiURL)
	}
	style := s.styles.source(d.Theme, d.CSS, d.Vars+d.PageCSS)
	if rest, ok := strings.CutPrefix(d.DarkCSS, s.darkCSS); ok && d.DarkCSS != "" {
		// The dark rules' element: the same rules, then the site's dark
		// colours (the hash of the rules is kept).
		style += " " + s.darkStyles.source("dark", s.darkCSS, rest)
	}
	scripts := s.scripts
	if d.Mermaid != "" {
		// mermaid writes style elements and attributes made for each
		// diagram, which no hash allows beforehand (docs/reader.md,
		// "Diagrams").
		style, scripts = "'unsafe-inline'", scripts+" "+s.diagramScript+" "+d.MermaidSources
	}
	connect := "'self'"
	if d.Playground {
		// The playground calls the spec's servers from the browser
		// (docs/reader.md, "API playground").
		scripts += " " + s.playgroundScript
		for _, o := range d.Connect {
			connect += " " + o
		}
	}
	return b.Bytes(), s.pagePolicy(scripts, style, connect, frame, origins), nil
}

// pageLinks resolves a page's references: pages of the site space to their
// published URLs, files of the space to their download links.
type pageLinks struct {
	s     *Service
	st    *site
	at    content.At
	files map[string]fileInfo
	// specs are the operation lookups of the specs the page's blocks name.
	specs map[string]func(method, path string) *content.OperationDetail
	// otherNavs are the site's other site spaces (others).
	otherNavs []siteSpaceNav
}

func (l *pageLinks) newTab() bool { return l.st.newTab() }

// page resolves a page of a space: of the site space being read when it
// is there (and space is its space or ""), else of the first site space
// the visitor is shown that holds it (a page of another space: the first
// showing that space; without a space, a page id of none of this space's
// pages is looked for in the other site spaces). "" when none does: pages
// of spaces no site space shows, or hidden from the visitor, stay
// unlinked.
func (l *pageLinks) page(space, id string) (string, string) {
	if space == "" || space == l.st.res.Space.ID {
		if p := l.st.nav.byID[id]; p != nil {
			return l.st.pageURL(p), p.Title
		}
	}
	others, err := l.others()
	if err != nil {
		return "", ""
	}
	for _, o := range others {
		if space != "" && o.ss.SpaceID != space {
			continue
		}
		if p := o.nav.byID[id]; p != nil && p.Type != content.TypeGroup {
			if p.Type == content.TypeLink {
				return p.Href, p.Title
			}
			if first := o.nav.first(); first != nil && first.ID == p.ID {
				return o.base + l.st.query, p.Title
			}
			return o.base + content.EscapeSegments(p.Path) + l.st.query, p.Title
		}
	}
	return "", ""
}

// space resolves a space's root: the first site space the visitor is
// shown that shows it ("" when none does).
func (l *pageLinks) space(id string) (string, string) {
	if id == l.st.res.Space.ID {
		return l.st.res.BasePath + l.st.query, l.st.res.Space.Title
	}
	for _, ss := range l.st.tree.All() {
		if sp, ok := l.st.res.View.Spaces[ss.SpaceID]; ok && ss.SpaceID == id {
			return l.st.siteSpaceBase(ss.Section, ss.Path, ss.Default) + l.st.query, sp.Title
		}
	}
	return "", ""
}

// others are the site's other site spaces the visitor is shown, with
// their navigation (read once per page, on its first link that needs it;
// each revision's navigation is cached by the service).
func (l *pageLinks) others() ([]siteSpaceNav, error) {
	if l.otherNavs == nil {
		all, err := l.s.all(l.st)
		if err != nil {
			return nil, err
		}
		l.otherNavs = []siteSpaceNav{}
		for _, o := range all {
			if o.ss.ID != l.st.res.SiteSpace.ID {
				l.otherNavs = append(l.otherNavs, o)
			}
		}
	}
	return l.otherNavs, nil
}

// operation looks an operation up in its spec, read once per page.
func (l *pageLinks) operation(spec, method, path string) *content.OperationDetail {
	lookup, ok := l.specs[spec]
	if !ok {
		var err error
		if lookup, err = l.s.content.Operations(l.st.vctx, l.at, spec); err != nil {
			lookup = nil // the blocks stay cards naming the spec
		}
		if l.specs == nil {
			l.specs = map[string]func(method, path string) *content.OperationDetail{}
		}
		l.specs[spec] = lookup
	}
	if lookup == nil {
		return nil
	}
	return lookup(method, path)
}

func (l *pageLinks) file(id string) (fileInfo, bool) {
	if f, ok := l.files[id]; ok {
		return f, f.URL != ""
	}
	var fi fileInfo
	f, err := l.s.content.File(l.st.vctx, l.at, id, false)
	if err == nil {
		fi = fileInfo{URL: f.DownloadURL, Name: f.Name}
		if f.Dimensions != nil {
			fi.Width, fi.Height = f.Dimensions.Width, f.Dimensions.Height
		}
	}
	l.files[id] = fi
	return fi, fi.URL != ""
}

var reColor = regexp.MustCompile(`^#(?:[0-9a-fA-F]{3}){1,2}$`)

// setting reads a customization setting by its path ("styling.primaryColor.light").
func setting(m map[string]any, path string) string {
	var v any = m
	for _, k := range strings.Split(path, ".") {
		mm, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		v = mm[k]
	}
	s, _ := v.(string)
	return s
}

// chrome is what every page of a site shows around its content.
func (s *Service) chrome(st *site, cur *navPage) *pageData {
	c := st.custom
	d := &pageData{Lang: st.lang(), SiteTitle: st.res.View.Site.Title,
		NoIndex: st.noIndex(), Home: st.res.SiteBasePath + st.query,
		Search: st.searchBase + "~search", ShareKey: st.res.View.ShareKey}
	d.W, d.Dir = wordsFor(d.Lang), direction(d.Lang)
	if t := setting(c, "title"); t != "" {
		d.SiteTitle = t
	}
	theme := setting(c, "themes.default")
	if theme != "light" && theme != "dark" {
		theme = "system"
	}
	if themes, _ := c["themes"].(map[string]any); themes["toggeable"] == true {
		// The visitor chooses; the site's theme is the default.
		d.ThemeDefault, theme = theme, "toggle"
	}
	d.Theme, d.CSS = theme, s.css[theme]
	light, dark := setting(c, "styling.primaryColor.light"), setting(c, "styling.primaryColor.dark")
	if !reColor.MatchString(light) {
		light = "#346DDB"
	}
	if !reColor.MatchString(dark) {
		dark = light
	}
	// --primary is the site's colour as chosen (borders); --primary-text
	// the same, made readable as text on the theme's backgrounds.
	// A tint colours the page and panel backgrounds (styling.tint); the
	// primary colour as text is made readable on those.
	themeVars := func(primary, tint string, isDark bool) string {
		if !reColor.MatchString(tint) {
			return ":root{--primary:" + primary + ";--primary-text:" + readable(primary, isDark) + "}"
		}
		bg, soft := tinted(tint, isDark)
		return ":root{--bg:" + bg + ";--soft:" + soft + ";--primary:" + primary + ";--primary-text:" + readable(primary, isDark, bg, soft) + "}"
	}
	tintLight, tintDark := setting(c, "styling.tint.color.light"), setting(c, "styling.tint.color.dark")
	if !reColor.MatchString(tintDark) {
		tintDark = tintLight
	}
	lightPrimary, darkPrimary := themeVars(light, tintLight, false), themeVars(dark, tintDark, true)
	switch theme {
	case "light":
		d.Vars = lightPrimary
	case "dark":
		d.Vars = darkPrimary
	case "toggle":
		d.Vars, d.DarkCSS = lightPrimary, s.darkCSS+darkPrimary
	default:
		d.Vars = lightPrimary + "@media (prefers-color-scheme: dark){" + darkPrimary + "}"
	}
	d.Vars += styleVars(c)
	d.LayoutClass, d.BodyClass = layoutClasses(c), bodyClasses(c)
	d.HeaderLinks, d.FooterGroups = s.headerLinks(st), s.footerGroups(st)
	d.Announcement = s.announcementOf(st)
	d.FooterLogo, d.FooterLogoDark = safeImage(setting(c, "footer.logo.light")), safeImage(setting(c, "footer.logo.dark"))
	if d.FooterLogoDark == d.FooterLogo {
		d.FooterLogoDark = ""
	}
	d.Copyright = setting(c, "footer.copyright")
	d.Logo, d.LogoDark = setting(c, "header.logo.light"), setting(c, "header.logo.dark")
	if d.LogoDark == d.Logo {
		d.LogoDark = ""
	}
	if ic := setting(c, "favicon.icon.light"); ic != "" {
		d.Favicon = template.URL(safeURL(ic))
	} else if e := setting(c, "favicon.emoji"); e != "" {
		d.Favicon = template.URL("data:image/svg+xml," + url.PathEscape(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text y=".9em" font-size="90">`+
			template.HTMLEscapeString(e)+`</text></svg>`))
	}
	d.OGImage = setting(c, "socialPreview.url")
	d.Title = d.SiteTitle
	// Sections and external links, and section groups as menus of them.
	res := st.res
	for _, it := range st.tree.Top() {
		if it.Group == nil {
			l := st.navLink(it)
			d.Top = append(d.Top, topItem{Section: &l})
			continue
		}
		m := &menu{Title: it.Group.Title}
		for _, in := range st.tree.GroupItems(it.Group.ID) {
			l := st.navLink(in)
			m.Current = m.Current || l.Current
			m.Sections = append(m.Sections, l)
		}
		d.Top = append(d.Top, topItem{Group: m})
	}
	// The site spaces of the section: variants.
	level := ""
	if res.Section != nil {
		level = res.Section.ID
	}
	if sss := st.tree.Level(level); len(sss) > 1 {
		for _, ss := range sss {
			if ss.Hidden && ss.ID != res.SiteSpace.ID {
				continue // hidden from navigation, still reachable by its URL
			}
			l := link{Title: res.View.Spaces[ss.SpaceID].Title, Href: st.siteSpaceBase(ss.Section, ss.Path, ss.Default) + st.query,
				Current: ss.ID == res.SiteSpace.ID}
			if l.Current {
				d.Variant = l.Title
			}
			d.Variants = append(d.Variants, l)
		}
		if len(d.Variants) < 2 {
			d.Variant, d.Variants = "", nil // the others are hidden: nothing to switch to
		}
	}
	d.Sidebar = s.sidebar(st, cur)
	for p := cur; p != nil; p = p.Parent {
		l := link{Title: p.Title, Current: p == cur}
		if p.Type == content.TypeDocument && !l.Current {
			l.Href = st.pageURL(p)
		}
		d.Crumbs = append([]link{l}, d.Crumbs...)
	}
	return d
}

// navLink is the top navigation's link to a section or an external link
// (its title in the site's language).
func (st *site) navLink(it sites.TopItem) link {
	if l := it.Link; l != nil {
		title := l.Title
		if t := l.LocalizedTitle[setting(st.custom, "internationalization.locale")]; t != "" {
			title = t
		}
		return link{Title: title, Href: l.URL, NewTab: st.newTab()}
	}
	sec := it.Section
	return link{Title: sec.Title, Href: st.res.SiteBasePath + url.PathEscape(sec.Path) + "/" + st.query,
		Current: st.res.Section != nil && st.res.Section.ID == sec.ID}
}

// siteSpaceBase is the path of a site space's root.
func (st *site) siteSpaceBase(sectionID, path string, def bool) string {
	b := st.res.SiteBasePath
	if sectionID != "" {
		if sec, err := st.tree.Section(sectionID); err == nil {
			b += url.PathEscape(sec.Path) + "/"
		}
	}
	if !def {
		b += url.PathEscape(path) + "/"
	}
	return b
}

// sidebar is the page tree as shown for cur: every top-level entry, the
// pages of groups, and the children of cur and its ancestors (a large
// space is not sent whole with every page: docs/reader.md, "5,000 and
// 50,000 pages").
//
// An entry off cur's branch renders the same on every page of a revision
// at one address: the revision's navigation keeps such entries rendered
// (navSidebars), and only the entries of cur's branch are rendered for
// the page. A visitor's copy of the navigation (pages hidden by
// conditions left out) keeps nothing, so nothing one visitor may not see
// is shown to another.
func (s *Service) sidebar(st *site, cur *navPage) template.HTML {
	open := map[*navPage]bool{}
	for p := cur; p != nil; p = p.Parent {
		open[p] = true
	}
	var kept *sidebarEntries
	if sb := st.nav.sidebars; sb != nil {
		kept = sb.at(st.res.BasePath + "\x00" + st.query)
	}
	var b strings.Builder
	var list func(ps []*navPage)
	list = func(ps []*navPage) {
		b.WriteString("<ul>")
		for _, p := range ps {
			if p.Hidden {
				continue
			}
			if !open[p] {
				b.WriteString(string(kept.get(p, func() template.HTML { return s.sideEntryHTML(st, p) })))
				continue
			}
			// An entry of cur's branch: its children listed, its own
			// part rendered as in the template's "item".
			b.WriteString(string(s.execute("entry", st.sideEntry(p, cur))))
			if slices.ContainsFunc(p.Children, func(c *navPage) bool { return !c.Hidden }) {
				list(p.Children)
			}
			b.WriteString("</li>")
		}
		b.WriteString("</ul>")
	}
	list(st.nav.top)
	if b.Len() == len("<ul></ul>") {
		return "" // no entry: no sidebar
	}
	return template.HTML(b.String())
}

// sideEntry is p's entry of the sidebar, without its children.
func (st *site) sideEntry(p *navPage, cur *navPage) sideItem {
	it := sideItem{Title: p.Title, Emoji: p.Emoji, Current: p == cur, Group: p.Type == content.TypeGroup}
	if !it.Group {
		it.Href = st.pageURL(p)
	}
	return it
}

// sideEntryHTML renders p's entry off the current page's branch: closed,
// unless it is a group (whose pages are always listed).
func (s *Service) sideEntryHTML(st *site, p *navPage) template.HTML {
	var walk func(p *navPage) sideItem
	walk = func(p *navPage) sideItem {
		it := st.sideEntry(p, nil)
		if it.Group {
			for _, c := range p.Children {
				if !c.Hidden {
					it.Children = append(it.Children, walk(c))
				}
			}
		}
		return it
	}
	return s.execute("item", walk(p))
}

// execute renders the page template's named template with data.
func (s *Service) execute(name string, data any) template.HTML {
	var b strings.Builder
	if err := s.pages.ExecuteTemplate(&b, name, data); err != nil {
		// The templates are the program's own and an entry is plain
		// strings: an error here is a bug.
		panic(err)
	}
	return template.HTML(b.String())
}

// errorPage is the HTML answer of an error: in the site's look when the
// site is known (st non-nil).
func (s *Service) errorPage(st *site, err error) Answer {
	title, msg := "Page not found", "There is no page at this address."
	switch apperr.KindOf(err) {
	case apperr.NotFound:
	case apperr.Invalid:
		title, msg = "Bad request", "This address is not valid."
	case apperr.Unauthorized:
		title, msg = "Sign in required", "This site is for authenticated visitors. Open it from the link your sign-in gives you."
	default:
		title, msg = "Something went wrong", "The page could not be shown. Please try again."
	}
	var d *pageData
	if st != nil {
		d = s.chrome(st, nil)
	} else {
		d = &pageData{Lang: "en", Theme: "system", CSS: s.css["system"], Vars: ":root{--primary:#346DDB}", SiteTitle: "Galley", W: wordsFor("en"), Dir: "ltr"}
	}
	d.Title, d.PageTitle, d.PageDescription, d.Status, d.NoIndex = title, title, msg, title, true
	b, csp, rerr := s.render(st, d)
	if rerr != nil {
		b, csp = []byte("<!doctype html><title>"+title+"</title><h1>"+title+"</h1>"), DataPolicy
	}
	return Answer{ContentType: TypeHTML, Body: b, NoIndex: true, CSP: csp}
}
