package document

import (
	"fmt"
	"iter"
	"path"
	"strings"

	"github.com/galleydocs/galley/shared/condition"
)

// Output resolution: the markdown a reader sees of a page body. Includes
// are replaced by the bodies they name (their relative links rewritten
// for the page's file), inline expressions by their values' text, and
// conditional blocks by their inner blocks when the condition holds or by
// nothing when it does not. Everything else keeps GitBook's source
// syntax, so the result is read by ToDocument (the reader's HTML, PDF)
// or served as it is (.md pages, llms files, MCP, search).

// MaxIncludeDepth is how deep includes nest by default: a page's include
// is level 1, an include inside it level 2, and so on. GitBook documents
// no limit (its reusable contents cannot nest in its editor); 3 is
// Galley's choice (docs/content.md).
const MaxIncludeDepth = 3

// ResolveOptions are what Resolve reads besides the body.
type ResolveOptions struct {
	// Env is what expressions and conditions read: the visitor's claims,
	// the space's and the page's variables.
	Env condition.Env
	// File is the repository path of the page's markdown file: includes
	// are read from its folder, and the relative links of included bodies
	// are rewritten to be read from it. "" reads from the space's root.
	File string
	// Include returns the body an include names (IncludeTarget.Path from
	// the space's root, or a reusable content's id); ok is false when it
	// names nothing. Nil: no include resolves.
	Include func(t IncludeTarget) (Included, bool)
	// MaxDepth bounds nested includes; 0 is MaxIncludeDepth.
	MaxDepth int
	// Anyone resolves the body for every visitor at once (the site
	// search's index): a conditional block whose condition reads the
	// visitor's claims is left out whatever Env.Claims holds, as some
	// visitor may not see it.
	Anyone bool
}

// Included is the body an include names.
type Included struct {
	// Body is its markdown body (without frontmatter).
	Body string
	// File is the repository path its relative links and includes are
	// read from; "" is the target's Path.
	File string
}

// Problem is a construct of a body that shows nothing to a reader: an
// expression without a value, a condition that cannot be read, an include
// that names nothing or nests too deep.
type Problem struct {
	// Kind is "expression", "condition" or "include".
	Kind string `json:"kind"`
	// Source is the construct as written: the expression, the condition,
	// the include's path.
	Source string `json:"source"`
	// Reason says why it shows nothing.
	Reason string `json:"reason"`
}

// The kinds of constructs.
const (
	KindExpression = "expression"
	KindCondition  = "condition"
	KindInclude    = "include"
)

// Resolve is the markdown a reader with o.Env sees of body, and the
// constructs that showed nothing (in the order met).
func Resolve(body string, o ResolveOptions) (string, []Problem) {
	if o.MaxDepth <= 0 {
		o.MaxDepth = MaxIncludeDepth
	}
	rs := &resolver{o: o, exprs: map[string]*condition.Expr{}}
	out := rs.body(body, o.File, 0, nil)
	return out, rs.problems
}

type resolver struct {
	o        ResolveOptions
	problems []Problem
	// exprs caches parsed expressions (nil for one that does not parse).
	exprs map[string]*condition.Expr
}

func (rs *resolver) problem(kind, src, format string, args ...any) {
	rs.problems = append(rs.problems, Problem{Kind: kind, Source: src, Reason: fmt.Sprintf(format, args...)})
}

func (rs *resolver) parse(kind, src string) *condition.Expr {
	e, seen := rs.exprs[src]
	if !seen {
		var err error
		if e, err = condition.Parse(src); err != nil {
			rs.problem(kind, src, "%v", err)
		}
		rs.exprs[src] = e
	} else if e == nil {
		rs.problem(kind, src, "the expression cannot be read")
	}
	return e
}

// body resolves a body read from file at include depth, stack holding the
// includes being expanded (to stop cycles).
func (rs *resolver) body(body, file string, depth int, stack []string) string {
	if !strings.Contains(body, "{%") && !strings.Contains(body, exprOpen) {
		return body
	}
	lines := strings.Split(body, "\n")
	out := rs.lines(lines, file, depth, stack, nil)
	return strings.Join(out, "\n")
}

// lines resolves lines onto out.
func (rs *resolver) lines(lines []string, file string, depth int, stack []string, out []string) []string {
	fence := ""
	// drop leaves a construct out, with one of the blank lines around it.
	drop := func(next int) int {
		if next < len(lines) && strings.TrimSpace(lines[next]) == "" && (len(out) == 0 || strings.TrimSpace(out[len(out)-1]) == "") {
			return next + 1
		}
		return next
	}
	for i := 0; i < len(lines); {
		line := lines[i]
		if fence != "" {
			if strings.HasPrefix(strings.TrimSpace(line), fence) {
				fence = ""
			}
			out = append(out, line)
			i++
			continue
		}
		if f, ok := openFence(line); ok {
			fence = f
			out = append(out, line)
			i++
			continue
		}
		if strings.Contains(line, "{%") {
			if cond, ok := ifCondition(line); ok {
				end := endOfIf(lines, i)
				if end == len(lines) {
					rs.problem(KindCondition, cond, "no {%% endif %%} closes the block: it runs to the end of its container")
				}
				if e := rs.parse(KindCondition, cond); e != nil && !(rs.o.Anyone && e.ReadsClaims()) && e.Holds(rs.o.Env) {
					out = rs.lines(lines[i+1:end], file, depth, stack, out)
					i = end + 1
				} else {
					i = drop(end + 1)
				}
				continue
			}
			if reEndIf.MatchString(line) {
				rs.problem(KindCondition, strings.TrimSpace(line), "no {%% if %%} opens it")
				i = drop(i + 1)
				continue
			}
			if m := reInclude.FindStringSubmatch(line); m != nil {
				if text, ok := rs.include(m[1], file, depth, stack); ok {
					indent := line[:leading(line)]
					for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
						if l != "" {
							l = indent + l
						}
						out = append(out, l)
					}
					i++
				} else {
					i = drop(i + 1)
				}
				continue
			}
		}
		if strings.Contains(line, exprOpen) {
			line = rs.expressions(line)
		}
		out = append(out, line)
		i++
	}
	return out
}

// include is the resolved body an include names; ok is false when it
// shows nothing (reported).
func (rs *resolver) include(src, file string, depth int, stack []string) (string, bool) {
	t, ok := ReadIncludeTarget(src, file)
	if !ok {
		rs.problem(KindInclude, src, "the path names no file of the space")
		return "", false
	}
	key := "path:" + t.Path
	if t.Path == "" {
		key = "id:" + t.Space + "/" + t.ID
	}
	for _, k := range stack {
		if k == key {
			rs.problem(KindInclude, src, "the include includes itself")
			return "", false
		}
	}
	if depth >= rs.o.MaxDepth {
		rs.problem(KindInclude, src, "includes nest more than %d deep", rs.o.MaxDepth)
		return "", false
	}
	var inc Included
	found := false
	if rs.o.Include != nil {
		inc, found = rs.o.Include(t)
	}
	if !found {
		rs.problem(KindInclude, src, "the include names no reusable content")
		return "", false
	}
	incFile := inc.File
	if incFile == "" {
		incFile = t.Path
	}
	b := inc.Body
	if incFile != "" {
		b = RelinkFrom(b, incFile, rs.o.File)
	}
	return rs.body(b, incFile, depth+1, append(stack[:len(stack):len(stack)], key)), true
}

// expressions replaces the expression spans of a line (outside code
// spans) by their values' text, escaped as markdown text.
func (rs *resolver) expressions(line string) string {
	var b strings.Builder
	prev := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '`':
			i = codeSpanEnd(line, i) - 1
		case '<':
			expr, end, ok := expressionAt(line, i)
			if !ok {
				continue
			}
			b.WriteString(line[prev:i])
			if e := rs.parse(KindExpression, expr); e != nil {
				if v, ok := e.Value(rs.o.Env); ok {
					b.WriteString(markEscaper.Replace(condition.Text(v)))
				} else {
					rs.problem(KindExpression, expr, "the expression has no value: it reads a variable or claim that is not set")
				}
			}
			prev, i = end, end-1
		}
	}
	if prev == 0 {
		return line
	}
	b.WriteString(line[prev:])
	return b.String()
}

// codeSpanEnd is the index after the code span opening at s[i] == '`', or
// after the run of backticks when no span closes it.
func codeSpanEnd(s string, i int) int {
	n := 1
	for i+n < len(s) && s[i+n] == '`' {
		n++
	}
	if end := strings.Index(s[i+n:], s[i:i+n]); end >= 0 {
		return i + n + end + n
	}
	return i + n
}

// Reference is one expression, condition or include of a body.
type Reference struct {
	// Kind is KindExpression, KindCondition or KindInclude.
	Kind string `json:"kind"`
	// Source is the expression, the condition or the include's path as
	// written.
	Source string `json:"source"`
	// Line is its line in the body (from 1).
	Line int `json:"line"`
	// Include is what an include names (read from the body's file).
	Include IncludeTarget `json:"-"`
	// Err says why it cannot work whatever the visitor: an expression or
	// condition that does not parse, an include whose path names no file
	// of the space, a block no {% endif %} closes. "" otherwise: an
	// include still needs its target checked.
	Err string `json:"error,omitempty"`
}

// References lists the expressions, conditions and includes of a body
// read from file (outside code blocks and code spans, in order), for the
// API to report broken ones as it reports broken links.
func References(body, file string) []Reference {
	var out []Reference
	if !strings.Contains(body, "{%") && !strings.Contains(body, exprOpen) {
		return nil
	}
	lines := strings.Split(body, "\n")
	for i, line := range proseLines(lines, 0) {
		if cond, ok := ifCondition(line); ok {
			ref := Reference{Kind: KindCondition, Source: cond, Line: i + 1}
			if _, err := condition.Parse(cond); err != nil {
				ref.Err = err.Error()
			} else if endOfIf(lines, i) == len(lines) {
				ref.Err = "no {% endif %} closes the block"
			}
			out = append(out, ref)
			continue
		}
		if m := reInclude.FindStringSubmatch(line); m != nil {
			ref := Reference{Kind: KindInclude, Source: m[1], Line: i + 1}
			t, ok := ReadIncludeTarget(m[1], file)
			if ok {
				ref.Include = t
			} else {
				ref.Err = "the path names no file of the space"
			}
			out = append(out, ref)
			continue
		}
		for j := 0; j < len(line); j++ {
			switch line[j] {
			case '\\':
				j++
			case '`':
				j = codeSpanEnd(line, j) - 1
			case '<':
				if expr, end, ok := expressionAt(line, j); ok {
					ref := Reference{Kind: KindExpression, Source: expr, Line: i + 1}
					if _, err := condition.Parse(expr); err != nil {
						ref.Err = err.Error()
					}
					out = append(out, ref)
					j = end - 1
				}
			}
		}
	}
	return out
}

// RewriteLinks rewrites the link targets of a markdown body (markdown
// links and images, HTML src and href, GitBook's url="…" attributes),
// outside code blocks and code spans, with fn (which returns a target
// unchanged when it does not apply).
func RewriteLinks(body string, fn func(target string) string) string {
	lines := strings.Split(body, "\n")
	for i, line := range proseLines(lines, 0) {
		if !strings.Contains(line, "](") && !strings.Contains(line, `="`) {
			continue
		}
		// Code spans keep their text.
		parts := strings.Split(line, "`")
		for j := 0; j < len(parts); j += 2 {
			parts[j] = rewriteTargets(parts[j], fn)
		}
		lines[i] = strings.Join(parts, "`")
	}
	return strings.Join(lines, "\n")
}

// rewriteTargets rewrites the targets of ](target), ](<target>) and
// src="target", href="target", url="target" in s.
func rewriteTargets(s string, fn func(string) string) string {
	var b strings.Builder
	prev := 0
	for i := 0; i+1 < len(s); i++ {
		var start, end int
		angle := false
		switch {
		case s[i] == ']' && s[i+1] == '(':
			start = i + 2
			if start < len(s) && s[start] == '<' {
				k := strings.IndexAny(s[start:], ">\n")
				if k < 0 || s[start+k] != '>' {
					continue
				}
				angle, end = true, start+k+1
			} else {
				end = start
				for end < len(s) && strings.IndexByte(") \t\n\r\f\v", s[end]) < 0 {
					end++
				}
			}
		case s[i] == '=' && s[i+1] == '"' && (strings.HasSuffix(s[:i], "src") || strings.HasSuffix(s[:i], "href") || strings.HasSuffix(s[:i], "url")):
			start = i + 2
			k := strings.IndexByte(s[start:], '"')
			if k < 0 {
				continue
			}
			end = start + k
		default:
			continue
		}
		if end == start {
			continue
		}
		target, out := s[start:end], ""
		if angle {
			inner := target[1 : len(target)-1]
			switch o := fn(inner); {
			case o == inner:
				out = target
			case strings.ContainsAny(o, " \t"):
				out = "<" + o + ">"
			default:
				out = o
			}
		} else {
			out = fn(target)
		}
		b.WriteString(s[prev:start])
		b.WriteString(out)
		prev, i = end, end-1
	}
	if prev == 0 {
		return s
	}
	b.WriteString(s[prev:])
	return b.String()
}

// proseLines yields the index and text of each of lines[from:] outside
// fenced code (the fences' own lines left out too).
func proseLines(lines []string, from int) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		fence := ""
		for i := from; i < len(lines); i++ {
			line := lines[i]
			if fence != "" {
				if strings.HasPrefix(strings.TrimSpace(line), fence) {
					fence = ""
				}
				continue
			}
			if f, ok := openFence(line); ok {
				fence = f
				continue
			}
			if !yield(i, line) {
				return
			}
		}
	}
}

// openFence is the fence a line opens fenced code with, if it does.
func openFence(line string) (string, bool) {
	t := strings.TrimLeft(line, " \t")
	if !strings.HasPrefix(t, "```") && !strings.HasPrefix(t, "~~~") {
		return "", false
	}
	m := reFence.FindStringSubmatch(line)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// RelinkFrom rewrites the relative links of a body read from the file
// from so that they reach the same files when read from the file to (both
// repository paths from the space's root): what an included body needs
// in the page that includes it. Absolute links, anchors and links that
// leave the space keep their text.
func RelinkFrom(body, from, to string) string {
	if path.Dir(from) == path.Dir(to) {
		return body
	}
	return RewriteLinks(body, func(target string) string {
		if target == "" || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "/") ||
			strings.Contains(target, ":") || strings.HasPrefix(target, "{") {
			return target // anchors, absolute paths, URLs (scheme:), mailto:, data:
		}
		t, anchor, hasAnchor := strings.Cut(target, "#")
		folder := strings.HasSuffix(t, "/") || t == "."
		p := path.Clean(path.Join(path.Dir(from), t))
		if p == ".." || strings.HasPrefix(p, "../") {
			return target
		}
		var out string
		if p == "." {
			// The space's root folder.
			if d := path.Dir(to); d != "." {
				out = strings.Repeat("../", strings.Count(d, "/")+1)
			}
			if out == "" {
				out = "./"
			}
		} else {
			out = RelativePath(to, p)
			if folder {
				out += "/"
			}
		}
		if hasAnchor {
			out += "#" + anchor
		}
		return out
	})
}
