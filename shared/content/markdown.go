package content

import (
	"strings"

	"github.com/galleydocs/galley/shared/document"
)

// Pages as markdown. Reading markdown (frontmatter, title, body) is the
// document package's; what a page's fields are in frontmatter is here.

// FrontFields is the page metadata RenderMarkdown writes as frontmatter.
type FrontFields int

const (
	// FrontDescription writes the description only: the page as the API
	// reads it (format=markdown).
	FrontDescription FrontFields = iota
	// FrontMetadata writes all the metadata document.Frontmatter reads back: the
	// page as Git Sync exports it, so that an import restores it.
	FrontMetadata
)

// RenderMarkdown writes a page in authored form: frontmatter (when the
// page has metadata among fields), the title heading, the body. It is the
// one renderer of pages as markdown; links in body are written as given
// (Git export rewrites file links before).
func RenderMarkdown(p *Page, body string, fields FrontFields) string {
	front := map[string]any{}
	if p.Description != "" {
		front["description"] = p.Description
	}
	if fields == FrontMetadata {
		if p.Emoji != "" {
			front["emoji"] = p.Emoji
		}
		if p.Icon != "" {
			front["icon"] = p.Icon
		}
		if p.Hidden {
			front["hidden"] = true
		}
		if p.NoIndex {
			front["noIndex"] = true
		}
		if p.NoRobotsIndex {
			front["noRobotsIndex"] = true
		}
		if l := p.Layout; l != nil {
			// GitBook's form: each flag as {visible: bool}.
			vis := func(b bool) map[string]any { return map[string]any{"visible": b} }
			front["layout"] = map[string]any{"width": l.Width, "cover": map[string]any{"visible": l.Cover, "size": l.CoverSize},
				"title": vis(l.Title), "description": vis(l.Description), "tableOfContents": vis(l.TableOfContents),
				"outline": vis(l.Outline), "pagination": vis(l.Pagination), "metadata": vis(l.Metadata)}
		}
		if c := p.Cover; c != nil && c.Ref.Kind == "url" {
			front["cover"] = c.Ref.URL
			front["coverY"] = c.YPos
		}
		if p.Condition != "" {
			front["if"] = p.Condition
		}
		if len(p.Variables) > 0 {
			front["vars"] = map[string]any(p.Variables)
		}
	}
	return document.Compose(front, p.Title, body)
}

// assign sets *dst to *v when v is given.
func assign[T any](dst, v *T) {
	if v != nil {
		*dst = *v
	}
}

// ApplyFrontmatter sets the page metadata f names.
func ApplyFrontmatter(f document.Frontmatter, p *Page) {
	assign(&p.Description, f.Description)
	assign(&p.Emoji, f.Emoji)
	assign(&p.Icon, f.Icon)
	assign(&p.Hidden, f.Hidden)
	assign(&p.NoIndex, f.NoIndex)
	assign(&p.NoRobotsIndex, f.NoRobotsIndex)
	if f.If != nil {
		p.Condition = strings.TrimSpace(*f.If)
	}
	if f.Vars != nil {
		// Authoring checked them (CheckVariables); a repository's that
		// are not variables are left out.
		p.Variables = LenientVariables(*f.Vars)
	}
	if l := f.Layout; l != nil {
		layout := DefaultLayout()
		if p.Layout != nil {
			layout = *p.Layout
		}
		vis := func(dst *bool, v *document.Visibility) {
			if v != nil {
				assign(dst, v.Visible)
			}
		}
		assign(&layout.Width, l.Width)
		vis(&layout.Cover, l.Cover)
		assign(&layout.CoverSize, l.CoverSize)
		if l.Cover != nil {
			assign(&layout.CoverSize, l.Cover.Size)
		}
		vis(&layout.Title, l.Title)
		vis(&layout.Description, l.Description)
		vis(&layout.TableOfContents, l.TableOfContents)
		vis(&layout.Outline, l.Outline)
		vis(&layout.Pagination, l.Pagination)
		vis(&layout.Metadata, l.Metadata)
		vis(&layout.Tags, l.Tags)
		vis(&layout.Actions, l.Actions)
		p.Layout = &layout
	}
	if f.Cover != nil && strings.Contains(*f.Cover, "://") {
		c := &Cover{Ref: Ref{Kind: "url", URL: *f.Cover}}
		if f.CoverY != nil {
			c.YPos = *f.CoverY
		}
		p.Cover = c
	}
}
