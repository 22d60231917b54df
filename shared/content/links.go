package content

import (
	"path"
	"strings"

	"github.com/galleydocs/galley/shared/document"
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

// ResolvedLink is a link of a page resolved against a revision.
type ResolvedLink struct {
	document.RawLink
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
func ResolveLinks(ix *Index, p *Page, links []document.RawLink, appBase string) []ResolvedLink {
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
		if l.Include {
			// The page shows the reusable content it includes: it depends
			// on it. One that names nothing is broken, a URL as written.
			r.Relation = RelationDependsOn
			if id := includedID(ix, p, href); id != "" {
				r.Kind, r.Target = "reusable-content", id
			} else {
				r.Status = LinkBroken
			}
			out = append(out, r)
			continue
		}
		if id, anchor, ok := document.PagesLink(ix, href); ok {
			if id != "" {
				r.Kind, r.Target, r.TargetAnchor = "page", id, anchor
			} else {
				r.Status = LinkBroken
			}
			out = append(out, r)
			continue
		}
		switch {
		case strings.HasPrefix(href, reusableLinkPrefix):
			// A reference to a reusable content of the revision.
			r.Kind, r.Target = "reusable-content", strings.TrimPrefix(href, reusableLinkPrefix)
			if ix.ReusableContent(r.Target) == nil {
				r.Status, r.Kind, r.Target = LinkBroken, "url", href
			}
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

// includedID is the id of the reusable content of ix an include of page p
// names (as written), or "": GitBook's /reusable-content/<id> (of this
// space), Galley's /reusable-contents/<id>, or a path to its file
// (Index.ReusableContentAt).
func includedID(ix *Index, p *Page, src string) string {
	t, ok := document.ReadIncludeTarget(src, "")
	if ok && t.ID != "" {
		if t.Space == "" && ix.ReusableContent(t.ID) != nil {
			return t.ID
		}
		return ""
	}
	id := ""
	if p != nil {
		id = ix.ReusableContentAt(p.ID, src)
	}
	return id
}

// BodyLinks are the links of a page body (document.ExtractLinks) and the
// targets of its includes (RawLink.Include), outside code.
func BodyLinks(body string) []document.RawLink {
	out := document.ExtractLinks(body)
	for _, ref := range document.References(body, "") {
		if ref.Kind == document.KindInclude {
			out = append(out, document.RawLink{Href: ref.Source, Include: true})
		}
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
func PageExtras(p *Page) []document.RawLink {
	var out []document.RawLink
	if p.Cover != nil {
		for _, ref := range []*Ref{&p.Cover.Ref, p.Cover.RefDark} {
			if ref != nil && ref.Kind == "file" {
				out = append(out, document.RawLink{Href: "/files/" + ref.File, Image: true})
			}
		}
	}
	if p.Target != nil {
		switch p.Target.Kind {
		case "url":
			out = append(out, document.RawLink{Href: p.Target.URL})
		case "file":
			out = append(out, document.RawLink{Href: "/files/" + p.Target.File})
		case "reusable-content":
			out = append(out, document.RawLink{Href: ReusableContentLink(p.Target.ReusableContent)})
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
