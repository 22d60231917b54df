// Package pdf renders the pages of a revision as a PDF document, in Go
// (github.com/go-pdf/fpdf, no browser): each page starts a PDF page with
// its title and description, then its body read as the document model of
// package content: headings, paragraphs with bold, italic and code marks,
// lists (nested, ordered from their start, tasks), code blocks, quotes
// and hints, dividers and images (files of the revision; PNG, JPEG and
// GIF). Text is set in the Go fonts, embedded, so any Latin, Greek or
// Cyrillic text prints and can be copied out.
package pdf

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/go-pdf/fpdf"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gobolditalic"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"

	"github.com/galleydocs/galley/shared/document"
)

// Page is a page to print.
type Page struct {
	Title, Description string
	// Document is the page's body as a document tree.
	Document document.JSONDocument
	// Depth is the page's depth in the tree (for the outline).
	Depth int
}

// Image is a file's bytes, for the images pages show.
type Image struct {
	ContentType string
	Data        []byte
}

// Images finds the bytes of a file of the revision by id (false when the
// file is not there or cannot be read).
type Images func(fileID string) (Image, bool)

// Text sizes, in points, and the line height factor.
const (
	sizeBody  = 11
	sizeTitle = 22
	sizeCode  = 9
	lineRatio = 0.5 // mm of line height per point of font size
)

type writer struct {
	f      *fpdf.Fpdf
	images Images
	seen   map[string]string // file id -> registered image name ("" unusable)
	left   float64
	// glyphs is the text font's character map: what it lacks prints as
	// a replacement (fpdf fails on characters beyond the BMP).
	glyphs *sfnt.Font
	buf    sfnt.Buffer
}

// missingGlyph replaces a character the fonts cannot print.
const missingGlyph = '?'

// clean replaces the characters the fonts lack (emoji and others beyond
// the Basic Multilingual Plane, which fpdf refuses with an error; scripts
// the Go fonts do not cover) so that any page prints.
func (w *writer) clean(s string) string {
	ok := true
	for _, r := range s {
		if !w.printable(r) {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	return strings.Map(func(r rune) rune {
		if w.printable(r) {
			return r
		}
		if unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || r == 0x200d || (r >= 0xfe00 && r <= 0xfe0f) || (r >= 0x1f3fb && r <= 0x1f3ff) {
			return -1 // joiners, variation selectors, skin tones: part of the character before
		}
		return missingGlyph
	}, s)
}

func (w *writer) printable(r rune) bool {
	if r < 0x80 && r >= 0x20 || r == '\n' || r == '\t' {
		return true
	}
	if r > 0xffff || w.glyphs == nil {
		return r <= 0xffff
	}
	i, err := w.glyphs.GlyphIndex(&w.buf, r)
	return err == nil && i != 0
}

// Render prints pages (in order) as one PDF titled title.
func Render(title string, pages []Page, images Images) ([]byte, error) {
	return RenderEach(title, len(pages), func(i int) (Page, error) { return pages[i], nil }, images)
}

// RenderEach prints n pages, asking page for each in turn, as one PDF
// titled title: a page's document tree (several times its markdown) is
// made just before it prints and dropped after, so that a PDF of many
// pages never holds all their trees at once.
func RenderEach(title string, n int, page func(i int) (Page, error), images Images) ([]byte, error) {
	f := fpdf.New("P", "mm", "A4", "")
	f.SetTitle(title, true)
	f.SetCreator("Galley", true)
	f.AddUTF8FontFromBytes("go", "", goregular.TTF)
	f.AddUTF8FontFromBytes("go", "B", gobold.TTF)
	f.AddUTF8FontFromBytes("go", "I", goitalic.TTF)
	f.AddUTF8FontFromBytes("go", "BI", gobolditalic.TTF)
	f.AddUTF8FontFromBytes("mono", "", gomono.TTF)
	f.SetMargins(20, 20, 20)
	f.SetAutoPageBreak(true, 20)
	w := &writer{f: f, images: images, seen: map[string]string{}, left: 20}
	if font, err := sfnt.Parse(goregular.TTF); err == nil {
		w.glyphs = font
	}
	if n == 0 {
		f.AddPage()
		w.font("B", sizeTitle)
		f.MultiCell(0, sizeTitle*lineRatio, w.clean(title), "", "L", false)
	}
	for i := 0; i < n; i++ {
		p, err := page(i)
		if err != nil {
			return nil, err
		}
		f.AddPage()
		f.Bookmark(p.Title, min(p.Depth, 5), -1)
		w.font("B", sizeTitle)
		f.MultiCell(0, sizeTitle*lineRatio, w.clean(p.Title), "", "L", false)
		if p.Description != "" {
			w.font("I", sizeBody+1)
			f.MultiCell(0, (sizeBody+1)*lineRatio, w.clean(p.Description), "", "L", false)
		}
		f.Ln(3)
		w.blocks(p.Document.Nodes, 0)
		if err := f.Error(); err != nil {
			return nil, fmt.Errorf("render page %q: %w", p.Title, err)
		}
	}
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		return nil, fmt.Errorf("render PDF: %w", err)
	}
	return buf.Bytes(), nil
}

func (w *writer) font(style string, size float64) {
	w.f.SetFont("go", style, size)
}

// indent sets the left margin depth levels in (5 mm each).
func (w *writer) indent(depth int) {
	x := w.left + float64(depth)*6
	w.f.SetLeftMargin(x)
	w.f.SetX(x)
}

func (w *writer) blocks(nodes []document.Node, depth int) {
	for _, n := range nodes {
		w.block(n, depth)
	}
}

func (w *writer) block(n document.Node, depth int) {
	f := w.f
	typ, _ := n["type"].(string)
	kids := children(n)
	w.indent(depth)
	switch typ {
	case "heading-1", "heading-2", "heading-3":
		size := map[string]float64{"heading-1": 18, "heading-2": 15, "heading-3": 13}[typ]
		f.Ln(2)
		w.inline(kids, "B", size)
		f.Ln(size*lineRatio + 1.5)
	case "paragraph":
		w.inline(kids, "", sizeBody)
		f.Ln(sizeBody*lineRatio + 2)
	case "list-unordered", "list-ordered", "list-tasks":
		start := 1
		if data, ok := n["data"].(document.Node); ok {
			if s, ok := data["start"].(int); ok {
				start = s
			}
		}
		for i, item := range kids {
			marker := "•"
			switch typ {
			case "list-ordered":
				marker = strconv.Itoa(start+i) + "."
			case "list-tasks":
				marker = "[ ]"
				if data, ok := item["data"].(document.Node); ok && data["checked"] == true {
					marker = "[x]"
				}
			}
			w.indent(depth)
			w.font("", sizeBody)
			f.Write(sizeBody*lineRatio, w.clean(marker+" "))
			w.listItem(children(item), depth+1)
		}
		f.Ln(1)
	case "code":
		var lines []string
		for _, line := range kids {
			lines = append(lines, plain(children(line)))
		}
		f.SetFont("mono", "", sizeCode)
		f.SetFillColor(240, 240, 240)
		f.MultiCell(0, sizeCode*lineRatio, w.clean(strings.Join(lines, "\n")), "", "L", true)
		f.Ln(2)
	case "blockquote", "hint":
		y := f.GetY()
		w.blocks(kids, depth+1)
		f.SetDrawColor(180, 180, 180)
		f.SetLineWidth(0.8)
		x := w.left + float64(depth)*6 + 2
		f.Line(x, y, x, f.GetY()-2)
		f.SetLineWidth(0.2)
	case "divider":
		f.Ln(2)
		f.SetDrawColor(180, 180, 180)
		pw, _ := f.GetPageSize()
		f.Line(w.left+float64(depth)*6, f.GetY(), pw-20, f.GetY())
		f.Ln(4)
	case "images":
		for _, img := range kids {
			w.image(img)
		}
	default:
		// Containers (tabs, steps, columns), blocks whose content is in
		// fragments (tables, expandables, captions), embeds and math: their
		// text, in order.
		data, _ := n["data"].(document.Node)
		if u, ok := data["url"].(string); ok && typ == "embed" {
			w.font("", sizeBody)
			f.MultiCell(0, sizeBody*lineRatio, w.clean(u), "", "L", false)
		}
		if formula, ok := data["formula"].(string); ok {
			f.SetFont("mono", "", sizeCode)
			f.MultiCell(0, sizeCode*lineRatio, w.clean(formula), "", "L", false)
		}
		if len(kids) > 0 {
			w.blocks(kids, depth)
		}
		for _, fr := range fragments(n) {
			w.blocks(children(fr), depth)
		}
	}
	w.indent(0)
}

// fragments are a block's fragments (a table's cells, an expandable's
// title and body, a caption).
func fragments(n document.Node) []document.Node { return nodeList(n["fragments"]) }

// listItem writes an item's blocks: the first paragraph after the marker,
// the rest under it.
func (w *writer) listItem(blocks []document.Node, depth int) {
	for i, b := range blocks {
		if i == 0 && b["type"] == "paragraph" {
			w.f.SetLeftMargin(w.left + float64(depth)*6)
			w.inline(children(b), "", sizeBody)
			w.f.Ln(sizeBody*lineRatio + 1)
			continue
		}
		if i == 0 {
			w.f.Ln(sizeBody*lineRatio + 1)
		}
		w.block(b, depth)
	}
	if len(blocks) == 0 {
		w.f.Ln(sizeBody*lineRatio + 1)
	}
}

// inline writes texts and inlines with their marks, flowing.
func (w *writer) inline(nodes []document.Node, base string, size float64) {
	f := w.f
	h := size * lineRatio
	for _, n := range nodes {
		switch n["object"] {
		case "text":
			for _, l := range leaves(n) {
				text, _ := l["text"].(string)
				style := base
				code := false
				for _, m := range marks(l) {
					switch m {
					case "bold":
						if !strings.Contains(style, "B") {
							style = "B" + style
						}
					case "italic":
						if !strings.Contains(style, "I") {
							style += "I"
						}
					case "code":
						code = true
					}
				}
				if code {
					f.SetFont("mono", "", size-1)
				} else {
					w.font(style, size)
				}
				f.Write(h, w.clean(text))
			}
		case "inline":
			switch n["type"] {
			case "link":
				f.SetTextColor(30, 80, 180)
				w.inline(children(n), base, size)
				f.SetTextColor(0, 0, 0)
			case "inline-image":
				if data, ok := n["data"].(document.Node); ok {
					if c, _ := data["caption"].(string); c != "" {
						w.font("I", size)
						f.Write(h, w.clean(c))
					}
				}
			default:
				w.inline(children(n), base, size)
			}
		}
	}
}

// image places an image block: a file of the revision, scaled to fit the
// text width; other images print their description.
func (w *writer) image(n document.Node) {
	f := w.f
	data, _ := n["data"].(document.Node)
	ref, _ := data["ref"].(document.Node)
	alt, _ := data["alt"].(string)
	name := ""
	if ref["kind"] == "file" {
		id, _ := ref["file"].(string)
		name = w.register(id)
	}
	if name == "" {
		if alt != "" {
			w.font("I", sizeBody)
			f.MultiCell(0, sizeBody*lineRatio, w.clean("["+alt+"]"), "", "L", false)
		}
		return
	}
	info := f.GetImageInfo(name)
	pw, ph := f.GetPageSize()
	maxW := pw - 40 - (f.GetX() - w.left)
	wmm, hmm := info.Width(), info.Height()
	if wmm > maxW {
		hmm, wmm = hmm*maxW/wmm, maxW
	}
	if hmm > ph-60 {
		wmm, hmm = wmm*(ph-60)/hmm, ph-60
	}
	f.ImageOptions(name, f.GetX(), f.GetY(), wmm, hmm, true, fpdf.ImageOptions{ReadDpi: false}, 0, "")
	if alt != "" {
		w.font("I", sizeBody-1)
		f.MultiCell(0, (sizeBody-1)*lineRatio, w.clean(alt), "", "C", false)
	}
	f.Ln(2)
}

// register makes a file an image of the document, once.
func (w *writer) register(id string) string {
	if name, ok := w.seen[id]; ok {
		return name
	}
	w.seen[id] = ""
	img, ok := w.images(id)
	if !ok {
		return ""
	}
	typ := map[string]string{"image/png": "PNG", "image/jpeg": "JPG", "image/gif": "GIF"}[img.ContentType]
	if typ == "" {
		return ""
	}
	name := "file-" + id
	info := w.f.RegisterImageOptionsReader(name, fpdf.ImageOptions{ImageType: typ}, bytes.NewReader(img.Data))
	if info == nil || w.f.Err() {
		// A file that does not decode is left out, not the whole document.
		w.f.ClearError()
		return ""
	}
	w.seen[id] = name
	return name
}

func children(n document.Node) []document.Node { return nodeList(n["nodes"]) }

// nodeList reads a list of nodes (decoded from JSON, or built).
func nodeList(v any) []document.Node {
	switch c := v.(type) {
	case []document.Node:
		return c
	case []any:
		out := make([]document.Node, 0, len(c))
		for _, x := range c {
			if m, ok := x.(document.Node); ok {
				out = append(out, m)
			}
		}
		return out
	}
	return nil
}

func leaves(n document.Node) []document.Node {
	if l, ok := n["leaves"].([]document.Node); ok {
		return l
	}
	return nil
}

func marks(l document.Node) []string {
	var out []string
	if ms, ok := l["marks"].([]document.Node); ok {
		for _, m := range ms {
			if t, ok := m["type"].(string); ok {
				out = append(out, t)
			}
		}
	}
	return out
}

// plain is the text of inline nodes.
func plain(nodes []document.Node) string {
	var b strings.Builder
	for _, n := range nodes {
		for _, l := range leaves(n) {
			s, _ := l["text"].(string)
			b.WriteString(s)
		}
		b.WriteString(plain(children(n)))
	}
	return b.String()
}
