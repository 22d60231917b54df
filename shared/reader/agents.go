package reader

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/model"
)

// For AI agents and crawlers: each page as markdown (its URL with .md),
// llms.txt, sitemap.xml and robots.txt at the site's root. None shows a
// page the HTML would not: only the visitor's site spaces, no hidden page
// in lists (a hidden page is served at its URL, as in HTML).

// agentsExcluded is the error of an agent endpoint on a site whose
// agentsContext is excluded.
func agentsExcluded() error {
	return apperr.NotFoundf("this site is not published for AI agents (agentsContext: excluded)")
}

// markdown answers a page as markdown.
func (s *Service) markdown(st *site, req Request) (Answer, error) {
	if st.res.View.Site.AgentsContext == "excluded" {
		err := agentsExcluded()
		return s.errorPage(st, err), err
	}
	p := st.nav.find(st.res.Pathname)
	if p == nil || strings.Trim(st.res.Pathname, "/") == "" {
		err := notFound("/" + st.res.Pathname + ".md")
		return s.errorPage(st, err), err
	}
	// A computed page's markdown lists its spec's operations: its ETag
	// follows the spec's version (specs.go).
	at := content.At{SpaceID: st.res.Space.ID, Revision: st.revision}
	what := "md " + p.ID
	if p.Spec != "" {
		vs, err := s.specVersions(st, at, []string{p.Spec})
		if err != nil {
			return s.errorPage(st, err), err
		}
		what += " spec " + p.Spec + "=" + vs[p.Spec]
	}
	a, err := s.answer(st, req, what, TypeMarkdown, func() ([]byte, error) {
		rp, err := s.content.ShownPage(st.vctx, at, p.ID, content.FormatMarkdown, st.audience())
		if err != nil {
			return nil, err
		}
		return []byte(content.AgentMarkdown(rp)), nil
	})
	return a, err
}

// siteSpaceNav is a site space with its navigation, for the site-wide lists.
type siteSpaceNav struct {
	ss    *model.SiteSpace
	title string
	base  string
	nav   *nav
}

// all returns every site space of the site the visitor sees, in order,
// with its navigation.
func (s *Service) all(st *site) ([]siteSpaceNav, error) {
	var out []siteSpaceNav
	for _, ss := range st.tree.All() {
		sp, ok := st.res.View.Spaces[ss.SpaceID]
		if !ok {
			continue
		}
		n, err := s.navOf(st, sp.ID, sp.Revision)
		if err != nil {
			return nil, err
		}
		title := sp.Title
		if ss.Section != "" {
			if sec, err := st.tree.Section(ss.Section); err == nil && sec.Title != title {
				title = sec.Title + " › " + title
			}
		}
		out = append(out, siteSpaceNav{ss: ss, title: title, base: st.siteSpaceBase(ss.Section, ss.Path, ss.Default), nav: n})
	}
	return out, nil
}

// llms answers llms.txt: the site's title and, by site space, its visible
// pages as links to their markdown.
func (s *Service) llms(st *site, req Request) (Answer, error) {
	return s.agentText(st, req, "llms.txt", func(b *bytes.Buffer, all []siteSpaceNav) error {
		for _, sn := range all {
			fmt.Fprintf(b, "\n## %s\n\n", sn.title)
			for _, p := range sn.nav.order {
				fmt.Fprintf(b, "- [%s](%s%s%s.md%s)", mdLabel(p.Title), st.origin, sn.base, content.EscapeSegments(p.Path), st.query)
				if p.Description != "" {
					fmt.Fprintf(b, ": %s", strings.ReplaceAll(p.Description, "\n", " "))
				}
				b.WriteByte('\n')
			}
		}
		return nil
	})
}

// maxFullPages bounds the pages llms-full.txt holds (each is one read).
const maxFullPages = 2000

// llmsFull answers llms-full.txt: every page llms.txt lists, in order, as
// markdown under its title and URL (at most maxFullPages; a last line says
// when the site has more).
func (s *Service) llmsFull(st *site, req Request) (Answer, error) {
	return s.agentText(st, req, "llms-full.txt", func(b *bytes.Buffer, all []siteSpaceNav) error {
		n := 0
		for _, sn := range all {
			sp := st.res.View.Spaces[sn.ss.SpaceID]
			at := content.At{SpaceID: sp.ID, Revision: sp.Revision}
			for _, p := range sn.nav.order {
				if n == maxFullPages {
					fmt.Fprintf(b, "\n(The site has more pages; llms.txt lists them all.)\n")
					return nil
				}
				n++
				rp, err := s.content.ShownPage(st.vctx, at, p.ID, content.FormatMarkdown, st.audience())
				if err != nil {
					return err
				}
				fmt.Fprintf(b, "\n---\n\nSource: %s%s%s%s\n\n", st.origin, sn.base, content.EscapeSegments(p.Path), st.query)
				md := content.AgentMarkdown(rp)
				b.WriteString(md)
				if !strings.HasSuffix(md, "\n") {
					b.WriteByte('\n')
				}
			}
		}
		return nil
	})
}

// agentText answers a text file for agents at the site's root (closed by
// agentsContext excluded): the site's title as a heading, then what body
// writes of its site spaces.
func (s *Service) agentText(st *site, req Request, name string, body func(*bytes.Buffer, []siteSpaceNav) error) (Answer, error) {
	if st.res.View.Site.AgentsContext == "excluded" {
		err := agentsExcluded()
		return s.errorPage(st, err), err
	}
	return s.answer(st, req, name, TypeText, func() ([]byte, error) {
		all, err := s.all(st)
		if err != nil {
			return nil, err
		}
		var b bytes.Buffer
		title := st.res.View.Site.Title
		if t := setting(st.custom, "title"); t != "" {
			title = t
		}
		fmt.Fprintf(&b, "# %s\n", title)
		if err := body(&b, all); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	})
}

func mdLabel(s string) string {
	return strings.NewReplacer("[", `\[`, "]", `\]`).Replace(s)
}

// sitemap answers sitemap.xml on a public site: the visible pages that
// are not marked noindex, of every site space.
func (s *Service) sitemap(st *site, req Request) (Answer, error) {
	if st.res.View.Site.Visibility != "public" {
		err := apperr.NotFoundf("only a public site has a sitemap")
		return s.errorPage(st, err), err
	}
	return s.answer(st, req, "sitemap.xml", TypeXML, func() ([]byte, error) {
		all, err := s.all(st)
		if err != nil {
			return nil, err
		}
		var b bytes.Buffer
		b.WriteString(xml.Header + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		for _, sn := range all {
			for i, p := range sn.nav.order {
				if p.NoIndex {
					continue
				}
				loc := st.origin + sn.base
				if i > 0 {
					loc += content.EscapeSegments(p.Path)
				}
				b.WriteString("<url><loc>")
				_ = xml.EscapeText(&b, []byte(loc))
				b.WriteString("</loc></url>\n")
			}
		}
		b.WriteString("</urlset>\n")
		return b.Bytes(), nil
	})
}

// robots answers robots.txt: a public site is open to crawlers and names
// its sitemap; another (unlisted, share-link) is closed to them.
func (s *Service) robots(st *site, req Request) (Answer, error) {
	return s.answer(st, req, "robots.txt", TypeText, func() ([]byte, error) {
		if st.res.View.Site.Visibility != "public" {
			return []byte("User-agent: *\nDisallow: /\n"), nil
		}
		return []byte("User-agent: *\nAllow: /\n\nSitemap: " + st.origin + st.res.SiteBasePath + "sitemap.xml\n"), nil
	})
}
