package content

import (
	"bytes"
	"strings"

	"gopkg.in/yaml.v3"
)

// Authored is a page as written in markdown: optional YAML frontmatter, a
// leading "# " heading for its title, then its body. It is the form pages
// are authored in and read back as (the form Git Sync writes).
type Authored struct {
	// Title is the leading heading's text; "" when there is none.
	Title string
	Front Frontmatter
	// Body is the markdown after the title, with "\n" line ends.
	Body string
}

// Frontmatter holds the page metadata a markdown file may set; nil fields
// are absent. It reads GitBook's documented frontmatter: layout flags as
// `{visible: bool}` (or a plain bool), `cover` and `coverY`.
type Frontmatter struct {
	Description   *string       `yaml:"description"`
	Emoji         *string       `yaml:"emoji"`
	Icon          *string       `yaml:"icon"`
	Hidden        *bool         `yaml:"hidden"`
	NoIndex       *bool         `yaml:"noIndex"`
	NoRobotsIndex *bool         `yaml:"noRobotsIndex"`
	Layout        *LayoutFields `yaml:"layout"`
	// Cover is the cover image: a URL, or (Git Sync) a path relative to
	// the page's file; CoverY its vertical offset.
	Cover  *string  `yaml:"cover"`
	CoverY *float64 `yaml:"coverY"`
	// If is the page's adaptive-content condition (Page.Condition), as
	// GitBook documents its frontmatter (`if: visitor.claims...`).
	If *string `yaml:"if"`
}

// LayoutFields are layout options set in frontmatter; nil fields keep
// their value.
type LayoutFields struct {
	Width           *string     `yaml:"width"`
	Cover           *Visibility `yaml:"cover"`
	CoverSize       *string     `yaml:"coverSize"`
	Title           *Visibility `yaml:"title"`
	Description     *Visibility `yaml:"description"`
	TableOfContents *Visibility `yaml:"tableOfContents"`
	Outline         *Visibility `yaml:"outline"`
	Pagination      *Visibility `yaml:"pagination"`
	Metadata        *Visibility `yaml:"metadata"`
	Tags            *Visibility `yaml:"tags"`
	Actions         *Visibility `yaml:"actions"`
}

// Visibility is a layout flag: GitBook writes `title: {visible: true}`
// (the cover adds `size`); a plain boolean is read too.
type Visibility struct {
	Visible *bool   `yaml:"visible"`
	Size    *string `yaml:"size"`
}

// UnmarshalYAML reads a boolean or a {visible, size} mapping.
func (v *Visibility) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		var b bool
		if err := n.Decode(&b); err != nil {
			return err
		}
		v.Visible = &b
		return nil
	}
	type plain Visibility
	return n.Decode((*plain)(v))
}

// ParseMarkdown splits authored markdown into frontmatter, title and body.
// The error describes malformed frontmatter.
func ParseMarkdown(src string) (Authored, error) {
	src = strings.ReplaceAll(strings.ReplaceAll(src, "\r\n", "\n"), "\r", "\n")
	src = strings.TrimPrefix(src, "\ufeff")
	var a Authored
	if rest, ok := strings.CutPrefix(src, "---\n"); ok {
		end := strings.Index(rest, "\n---\n")
		front := ""
		switch {
		case strings.HasPrefix(rest, "---\n"):
			src = rest[4:]
		case end >= 0:
			front, src = rest[:end], rest[end+5:]
		case strings.HasSuffix(rest, "\n---"):
			front, src = strings.TrimSuffix(rest, "\n---"), ""
		default:
			return a, errFrontmatter("frontmatter is not closed by a --- line")
		}
		if strings.TrimSpace(front) != "" {
			dec := yaml.NewDecoder(strings.NewReader(front))
			dec.KnownFields(true)
			if err := dec.Decode(&a.Front); err != nil {
				return a, errFrontmatter("frontmatter: " + err.Error())
			}
		}
	}
	lines := strings.Split(src, "\n")
	i := 0
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	if i < len(lines) {
		if t, ok := strings.CutPrefix(strings.TrimSpace(lines[i]), "# "); ok {
			a.Title = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(t), "#"))
			i++
			for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
				i++
			}
		}
	}
	a.Body = NormalizeBody(strings.Join(lines[i:], "\n"))
	return a, nil
}

type frontmatterError string

func (e frontmatterError) Error() string { return string(e) }

func errFrontmatter(msg string) error { return frontmatterError(msg) }

// NormalizeBody gives a body one form: "\n" line ends, no trailing blank
// lines, a final newline unless empty. Equal texts hash equal.
func NormalizeBody(body string) string {
	body = strings.ReplaceAll(strings.ReplaceAll(body, "\r\n", "\n"), "\r", "\n")
	body = strings.TrimRight(body, " \t\n")
	if body == "" {
		return ""
	}
	return body + "\n"
}

// FrontFields is the page metadata RenderMarkdown writes as frontmatter.
type FrontFields int

const (
	// FrontDescription writes the description only: the page as the API
	// reads it (format=markdown).
	FrontDescription FrontFields = iota
	// FrontMetadata writes all the metadata Frontmatter reads back: the
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
	}
	var b strings.Builder
	if len(front) > 0 {
		var buf bytes.Buffer
		enc := yaml.NewEncoder(&buf)
		enc.SetIndent(2)
		_ = enc.Encode(front)
		b.WriteString("---\n")
		b.Write(buf.Bytes())
		b.WriteString("---\n\n")
	}
	b.WriteString("# ")
	b.WriteString(p.Title)
	b.WriteString("\n")
	if body != "" {
		b.WriteString("\n")
		b.WriteString(body)
	}
	return b.String()
}

// Apply sets the page metadata the frontmatter names.
func (f Frontmatter) Apply(p *Page) {
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	setb := func(dst *bool, v *bool) {
		if v != nil {
			*dst = *v
		}
	}
	set(&p.Description, f.Description)
	set(&p.Emoji, f.Emoji)
	set(&p.Icon, f.Icon)
	setb(&p.Hidden, f.Hidden)
	setb(&p.NoIndex, f.NoIndex)
	setb(&p.NoRobotsIndex, f.NoRobotsIndex)
	if f.If != nil {
		p.Condition = strings.TrimSpace(*f.If)
	}
	if l := f.Layout; l != nil {
		layout := DefaultLayout()
		if p.Layout != nil {
			layout = *p.Layout
		}
		vis := func(dst *bool, v *Visibility) {
			if v != nil {
				setb(dst, v.Visible)
			}
		}
		set(&layout.Width, l.Width)
		vis(&layout.Cover, l.Cover)
		set(&layout.CoverSize, l.CoverSize)
		if l.Cover != nil {
			set(&layout.CoverSize, l.Cover.Size)
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
