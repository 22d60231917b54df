package content

import (
	"path"
	"strings"
)

// Links of a page: every link and image its body writes, resolved against
// a revision's tree. A page link is a relative path to another page's
// markdown file (GitPath), a file link /files/<fileId>; both are broken
// when the target is missing in the revision. Absolute URLs under the
// application's base are in-app links; other URLs, mail links and anchors
// of the page itself are ok (Galley fetches nothing to check them).

// Link statuses (the reference's ContentReferenceStatus).
const (
	LinkOK     = "ok"
	LinkBroken = "broken"
	LinkInApp  = "in-app"
)

// Link relations (the reference's ContentReferenceRelation): a link
// references its target; an image, or a cover, is part of the page, which
// depends on it.
const (
	RelationReference = "reference"
	RelationDependsOn = "dependsOn"
)

// RawLink is a link or an image of a page body as written.
type RawLink struct {
	Href  string `json:"h"`
	Image bool   `json:"i,omitempty"`
	// Anchor is the id of the heading the link is under ("" above the
	// first heading).
	Anchor string `json:"a,omitempty"`
}

// ExtractLinks returns the links and images of a markdown body, in order.
// Code blocks and code spans hold none.
func ExtractLinks(body string) []RawLink {
	var out []RawLink
	anchor := ""
	fence := ""
	for _, line := range strings.Split(body, "\n") {
		t := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		}
		if m := reFence.FindStringSubmatch(line); m != nil {
			fence = m[1]
			continue
		}
		if m := reHeading.FindStringSubmatch(t); m != nil {
			anchor = HeadingID(m[2])
		}
		for i := 0; i < len(line); i++ {
			switch c := line[i]; {
			case c == '\\':
				i++
			case c == '`':
				n := 1
				for i+n < len(line) && line[i+n] == '`' {
					n++
				}
				if end := strings.Index(line[i+n:], strings.Repeat("`", n)); end >= 0 {
					i += n + end + n - 1
				} else {
					i += n - 1
				}
			case c == '[':
				label, target, end, ok := closing(line, i)
				if !ok {
					continue
				}
				image := i > 0 && line[i-1] == '!'
				// A link's label may hold an image ([![alt](img)](target)).
				for _, l := range ExtractLinks(label) {
					l.Anchor = anchor
					out = append(out, l)
				}
				if target != "" {
					out = append(out, RawLink{Href: target, Image: image, Anchor: anchor})
				}
				i = end - 1
			}
		}
	}
	return out
}

// HeadingID is the anchor of a heading ("" when its text makes none).
func HeadingID(text string) string {
	if id := Slugify(text); reHeadID.MatchString(id) && id != "page" {
		return id
	}
	return ""
}

// ResolvedLink is a link of a page resolved against a revision.
type ResolvedLink struct {
	RawLink
	Status   string
	Relation string
	// Kind is the target's kind: page, file or url; Target its id (the
	// URL for url), TargetAnchor an anchor in a target page.
	Kind, Target, TargetAnchor string
}

// Key identifies the link's target and relation: links of a page are
// grouped by it.
func (l ResolvedLink) Key() string {
	return l.Relation + "\x00" + l.Status + "\x00" + l.Kind + "\x00" + l.Target + "\x00" + l.TargetAnchor
}

// ResolveLinks resolves links written on page p of ix. appBase is the
// application's base URL (links under it are in-app).
func ResolveLinks(ix *Index, p *Page, links []RawLink, appBase string) []ResolvedLink {
	out := make([]ResolvedLink, 0, len(links))
	dir := ""
	if p != nil {
		dir = path.Dir(ix.GitPath(p.ID))
	}
	for _, l := range links {
		r := ResolvedLink{RawLink: l, Status: LinkOK, Relation: RelationReference, Kind: "url", Target: l.Href}
		if l.Image {
			r.Relation = RelationDependsOn
		}
		href := l.Href
		if id, anchor, ok := PagesLink(ix, href); ok {
			if id != "" {
				r.Kind, r.Target, r.TargetAnchor = "page", id, anchor
			} else {
				r.Status = LinkBroken
			}
			out = append(out, r)
			continue
		}
		switch {
		case strings.HasPrefix(href, "/files/"):
			r.Kind, r.Target = "file", strings.TrimPrefix(href, "/files/")
			if ix.File(r.Target) == nil {
				r.Status, r.Kind, r.Target = LinkBroken, "url", href
			}
		case strings.HasPrefix(href, "#"):
			r.Kind, r.Target, r.TargetAnchor = "page", "", strings.TrimPrefix(href, "#")
			if p != nil {
				r.Target = p.ID
			}
		case appBase != "" && (href == appBase || strings.HasPrefix(href, appBase+"/")):
			r.Status = LinkInApp
		case strings.Contains(href, "://") || strings.HasPrefix(href, "mailto:") || strings.HasPrefix(href, "tel:") || strings.HasPrefix(href, "/"):
		default:
			target, anchor, _ := strings.Cut(href, "#")
			if t := ix.ByGitPath(path.Join(dir, target)); t != nil && p != nil {
				r.Kind, r.Target, r.TargetAnchor = "page", t.ID, anchor
			} else if t := byImportedFile(ix, p, target); t != nil {
				r.Kind, r.Target, r.TargetAnchor = "page", t.ID, anchor
			} else {
				r.Status = LinkBroken
			}
		}
		out = append(out, r)
	}
	return out
}

// byImportedFile finds the page a relative link of p reaches when p came
// from a Git repository: the target resolved against p's file, among the
// files other pages came from (a file, or a folder's README.md). It walks
// the tree, so it is asked only for links the slug paths leave broken.
func byImportedFile(ix *Index, p *Page, target string) *Page {
	if p == nil || p.Git == nil || p.Git.Path == "" {
		return nil
	}
	want := path.Clean(path.Join(path.Dir(p.Git.Path), target))
	if strings.HasPrefix(want, "../") {
		return nil
	}
	var found *Page
	ix.Walk(func(q *Page, _ int) bool {
		if q.Git != nil && (q.Git.Path == want || q.Git.Path == want+"/README.md") {
			found = q
		}
		return found == nil
	})
	return found
}

// PageExtras are the links a page holds outside its body: its cover
// images (files) and, for a link page, its target.
func PageExtras(p *Page) []RawLink {
	var out []RawLink
	if p.Cover != nil {
		for _, ref := range []*Ref{&p.Cover.Ref, p.Cover.RefDark} {
			if ref != nil && ref.Kind == "file" {
				out = append(out, RawLink{Href: "/files/" + ref.File, Image: true})
			}
		}
	}
	if p.Target != nil {
		switch p.Target.Kind {
		case "url":
			out = append(out, RawLink{Href: p.Target.URL})
		case "file":
			out = append(out, RawLink{Href: "/files/" + p.Target.File})
		}
	}
	return out
}

// LinkGroup is the links of a page to one target with one relation.
type LinkGroup struct {
	First ResolvedLink
	// Anchors are the headings the links are under, each once, in order.
	Anchors []string
}

// GroupLinks groups links by target and relation, in the order of their
// first occurrence.
func GroupLinks(links []ResolvedLink) []LinkGroup {
	var out []LinkGroup
	at := map[string]int{}
	for _, l := range links {
		k := l.Key()
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, LinkGroup{First: l})
		}
		g := &out[i]
		seen := false
		for _, a := range g.Anchors {
			seen = seen || a == l.Anchor
		}
		if !seen {
			g.Anchors = append(g.Anchors, l.Anchor)
		}
	}
	return out
}
