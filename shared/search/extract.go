package search

import (
	"regexp"
	"strings"

	"github.com/galleydocs/galley/shared/document"
)

// Section is a part of a page body: the text under one heading (or, for
// the first, above every heading), as plain text.
type Section struct {
	// Anchor is the heading's id ("" for the first section, and for a
	// heading whose text makes none).
	Anchor  string
	Heading string
	Text    string
}

var (
	reHeading = regexp.MustCompile(`^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$`)
	reFence   = regexp.MustCompile("^\\s*(```+|~~~+)")
	reTag     = regexp.MustCompile(`\{%.*?%\}`)
	reImage   = regexp.MustCompile(`!\[([^\]]*)\]\([^)]*\)`)
	reLink    = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	reHTML    = regexp.MustCompile(`</?[A-Za-z][^>]*>`)
	reMarks   = regexp.MustCompile("(\\*\\*|__|~~|`+|\\*)")
	reList    = regexp.MustCompile(`^\s*([-*+]|\d{1,9}[.)])\s+(\[[ xX]\]\s+)?`)
	reQuote   = regexp.MustCompile(`^\s*(>\s?)+`)
	reRule    = regexp.MustCompile(`^\s*([-*_]\s*){3,}$`)
	reSpaces  = regexp.MustCompile(`\s+`)
)

// Sections splits a markdown body at its headings and turns each part into
// plain text: marks, link targets, tags and fences are dropped; link
// labels, image descriptions and code are kept.
func Sections(body string) []Section {
	out := []Section{{}}
	var text []string
	flush := func() {
		out[len(out)-1].Text = strings.TrimSpace(reSpaces.ReplaceAllString(strings.Join(text, " "), " "))
		text = text[:0]
	}
	fence := ""
	for _, line := range strings.Split(body, "\n") {
		if fence != "" {
			if strings.HasPrefix(strings.TrimSpace(line), fence) {
				fence = ""
				continue
			}
			text = append(text, line)
			continue
		}
		if m := reFence.FindStringSubmatch(line); m != nil {
			fence = m[1]
			continue
		}
		if m := reHeading.FindStringSubmatch(line); m != nil {
			flush()
			h := Plain(m[2])
			out = append(out, Section{Anchor: document.HeadingID(m[2]), Heading: h})
			continue
		}
		if reRule.MatchString(line) {
			continue
		}
		line = reQuote.ReplaceAllString(line, "")
		line = reList.ReplaceAllString(line, "")
		text = append(text, Plain(line))
	}
	flush()
	if out[0].Text == "" && len(out) > 1 {
		out = out[1:]
	}
	return out
}

// Plain is inline markdown as plain text.
func Plain(s string) string {
	s = reTag.ReplaceAllString(s, " ")
	s = reImage.ReplaceAllString(s, "$1")
	s = reLink.ReplaceAllString(s, "$1")
	s = reHTML.ReplaceAllString(s, " ")
	s = reMarks.ReplaceAllString(s, "")
	s = strings.ReplaceAll(s, "\\", "")
	return strings.TrimSpace(reSpaces.ReplaceAllString(s, " "))
}

// Excerpt returns about n bytes of text around byte offset at, cut at
// spaces, with "…" where text was left out.
func Excerpt(text string, at, n int) string {
	if len(text) <= n {
		return text
	}
	start := max(0, min(at-n/3, len(text)-n))
	end := min(len(text), start+n)
	if start > 0 {
		if i := strings.IndexByte(text[start:end], ' '); i >= 0 && i < n/4 {
			start += i + 1
		}
	}
	if end < len(text) {
		if i := strings.LastIndexByte(text[start:end], ' '); i > n/2 {
			end = start + i
		}
	}
	// Never cut a UTF-8 sequence.
	for start > 0 && start < len(text) && text[start]&0xC0 == 0x80 {
		start++
	}
	for end < len(text) && end > start && text[end]&0xC0 == 0x80 {
		end--
	}
	out := text[start:end]
	if start > 0 {
		out = "…" + out
	}
	if end < len(text) {
		out += "…"
	}
	return out
}
