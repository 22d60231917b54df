package document

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
	// If is the page's adaptive-content condition, as GitBook documents
	// its frontmatter (`if: visitor.claims...`).
	If *string `yaml:"if"`
	// Vars are the page's variables (GitBook's `vars:`, page.vars in
	// expressions): names to strings, numbers or booleans, checked by
	// content (content.CheckVariables). A pointer keeps Frontmatter
	// comparable.
	Vars *Vars `yaml:"vars"`
}

// Vars are variables as frontmatter writes them.
type Vars map[string]any

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

// Source is where the parts of a page's markdown source ("\n" line ends)
// are: the one reading of frontmatter and title that both parsers share.
type Source struct {
	// Front is the frontmatter's text (between the --- lines).
	Front string
	// Unclosed is true when the source opens a frontmatter (a first
	// "---" line) that no later "---" line followed by a newline closes;
	// the source then has no frontmatter and Title and Body count from 0.
	Unclosed bool
	// Title is the offset of the title line, -1 when there is none.
	Title int
	// Body is the offset of the body (after the title and blank lines).
	Body int
}

// Split finds the parts of a page's source ("\n" line ends).
func Split(src string) Source {
	s := Source{Title: -1}
	off := 0
	if rest, ok := strings.CutPrefix(src, "---\n"); ok {
		if strings.HasPrefix(rest, "---\n") {
			off = 8
		} else if end := strings.Index(rest, "\n---\n"); end >= 0 {
			s.Front, off = rest[:end], 4+end+5
		} else {
			s.Unclosed = true
		}
	}
	skipBlank := func(i int) int {
		for i < len(src) {
			line, _, _ := strings.Cut(src[i:], "\n")
			if strings.TrimSpace(line) != "" {
				return i
			}
			i += len(line) + 1
		}
		return len(src)
	}
	i := skipBlank(off)
	line, _, _ := strings.Cut(src[i:], "\n")
	if strings.HasPrefix(strings.TrimSpace(line), "# ") {
		s.Title, s.Body = i, skipBlank(min(len(src), i+len(line)+1))
		return s
	}
	s.Body = i
	return s
}

// title is the text of the title line at the start of src, its
// backslash escapes removed (`# Windows \(C++\)` is "Windows (C++)").
func title(src string) string {
	line, _, _ := strings.Cut(src, "\n")
	t, _ := strings.CutPrefix(strings.TrimSpace(line), "# ")
	return Unescape(strings.TrimSpace(strings.TrimRight(strings.TrimSpace(t), "#")))
}

// asciiPunct are the characters a backslash escapes in markdown
// (CommonMark: ASCII punctuation).
const asciiPunct = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// Unescape removes markdown's backslash escapes from inline text: a
// backslash before ASCII punctuation stands for that character; any
// other backslash is itself.
func Unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(asciiPunct, s[i+1]) >= 0 {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// escapeTitle writes a title so that title reads it back: a backslash
// that would escape the character after it is doubled.
func escapeTitle(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(asciiPunct, s[i+1]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// parts reads the title and body Split found.
func (s Source) parts(src string, a *Authored) {
	if s.Title >= 0 {
		a.Title = title(src[s.Title:])
	}
	a.Body = NormalizeBody(src[s.Body:])
}

// Parse splits authored markdown into frontmatter, title and body, as an
// author's write is read: the frontmatter must be closed and hold only
// the keys Frontmatter knows; the error describes what is wrong. A source
// ending in a "---" line without a newline after it is frontmatter
// without a body.
func Parse(src string) (Authored, error) {
	src = strings.ReplaceAll(strings.ReplaceAll(src, "\r\n", "\n"), "\r", "\n")
	src = strings.TrimPrefix(src, "\ufeff")
	var a Authored
	s := Split(src)
	if s.Unclosed {
		rest := strings.TrimPrefix(src, "---\n")
		front, ok := strings.CutSuffix(rest, "\n---")
		if !ok {
			return a, errFrontmatter("frontmatter is not closed by a --- line")
		}
		s = Source{Front: front, Title: -1, Body: len(src)}
	}
	if strings.TrimSpace(s.Front) != "" {
		dec := yaml.NewDecoder(strings.NewReader(s.Front))
		dec.KnownFields(true)
		if err := dec.Decode(&a.Front); err != nil {
			return a, errFrontmatter("frontmatter: " + err.Error())
		}
	}
	s.parts(src, &a)
	return a, nil
}

// ParseLenient reads a page's markdown file as a repository holds it (Git
// Sync): frontmatter keys Galley does not know are ignored, frontmatter
// that does not parse is left out all the same (its text stays in the
// repository: an export keeps unchanged pages as they are), and an
// unclosed frontmatter is body text.
func ParseLenient(src string) Authored {
	src = strings.TrimPrefix(strings.ReplaceAll(src, "\r\n", "\n"), "\ufeff")
	var a Authored
	s := Split(src)
	if s.Front != "" {
		if err := yaml.Unmarshal([]byte(s.Front), &a.Front); err != nil {
			a.Front = Frontmatter{}
		}
	}
	s.parts(src, &a)
	return a
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

// Compose writes a page in authored form: front as YAML frontmatter (when
// it has keys; written in key order), the title heading (a backslash in
// it escaped where Parse would read it as an escape), the body.
func Compose(front map[string]any, title, body string) string {
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
	b.WriteString(escapeTitle(title))
	b.WriteString("\n")
	if body != "" {
		b.WriteString("\n")
		b.WriteString(body)
	}
	return b.String()
}
