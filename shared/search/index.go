package search

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/ar" // the analyzers Analysis names register themselves
	"github.com/blevesearch/bleve/v2/analysis/lang/cjk"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/ckb"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/da"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/de"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/es"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/fa"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/fi"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/fr"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/hi"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/hr"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/hu"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/it"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/nl"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/no"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/pt"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/ro"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/ru"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/sv"
	_ "github.com/blevesearch/bleve/v2/analysis/lang/tr"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"
	bleveindex "github.com/blevesearch/bleve_index_api"
)

// The index of a revision holds two kinds of documents:
//   - one per page ("p:<pageId>"): its title, its headings and all its
//     text, which rank pages;
//   - one per section ("s:<pageId>:<n>"): its heading and text, which find
//     the sections of the pages found, and their excerpts.
//
// Text fields use the analyzer of the index's analysis (Analysis: English,
// with lower case, stop words, possessives and Porter stemming, unless a
// site's locale names another language), so "Installing" finds "installs".
// Relevance is BM25; a query matches titles (x4), headings (x2), text, and
// the query as a phrase in the text (x2), each word within an edit distance
// that grows with its length, the last one also as a prefix (query.go).

// Field names. Pages and sections have fields of their own, so that a
// query on one kind needs no filter on the other.
const (
	fPage     = "page" // the page id (both)
	fTitle    = "title"
	fHeadings = "headings"
	fBody     = "body"
	fPath     = "path"
	fHeading  = "heading" // a section's
	fText     = "text"    // a section's
	fAnchor   = "anchor"  // a section's
	// A page's description and the titles of its ancestors (top first,
	// one a line), stored for results.
	fDescription = "description"
	fAncestors   = "ancestors"
)

// Format names the layout of stored indexes: an index of another format
// is rebuilt. v5: the analysis is the locale's (Analysis), and part of the
// index's key.
const Format = "v5"

// The analyses besides bleve's language analyzers: CJK (Chinese, Japanese,
// Korean: width folded, lower case, overlapping bigrams of CJK characters,
// so that a two-character word is one term), and plain (Unicode words in
// lower case, for the languages bleve has no analyzer for).
const (
	AnalysisDefault = en.AnalyzerName
	AnalysisCJK     = cjk.AnalyzerName
	AnalysisPlain   = "plain"
)

// language tells whether a language code names an analyzer of bleve's own
// (stop words and a stemmer of the language), registered by the imports
// above.
func language(lang string) bool {
	switch lang {
	case "ar", "ckb", "da", "de", "en", "es", "fa", "fi", "fr", "hi", "hr", "hu", "it", "nl", "no", "pt", "ro",
		"ru", "sv", "tr":
		return true
	}
	return false
}

// Analysis returns the name of the text analysis for a locale (GitBook's
// language codes: "en", "fr", "pt-br", "zh-tw", ...; a region is ignored):
// the language's bleve analyzer when there is one, AnalysisCJK for zh, ja,
// ko and yue, AnalysisPlain for any other language, and English
// (AnalysisDefault) when the locale is empty.
func Analysis(locale string) string {
	lang, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(locale)), "-")
	lang, _, _ = strings.Cut(lang, "_")
	switch lang {
	case "":
		return AnalysisDefault
	case "zh", "ja", "ko", "yue":
		return AnalysisCJK
	case "nb", "nn":
		return "no"
	}
	if language(lang) {
		return lang
	}
	return AnalysisPlain
}

func indexMapping(analysis string) (mapping.IndexMapping, error) {
	im := bleve.NewIndexMapping()
	if analysis == AnalysisPlain {
		if err := im.AddCustomAnalyzer(AnalysisPlain, map[string]any{"type": custom.Name,
			"tokenizer": unicode.Name, "token_filters": []any{lowercase.Name}}); err != nil {
			return nil, err
		}
	} else if analysis != AnalysisCJK && !language(analysis) {
		return nil, fmt.Errorf("search: unknown analysis %q", analysis)
	}
	// field is a text field's mapping, never in the composite "_all":
	// indexed through analyzer (none: not indexed), kept when store, with
	// term vectors when vectors.
	field := func(analyzer string, store, vectors bool) *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Analyzer, f.Index = analyzer, analyzer != ""
		f.Store, f.IncludeTermVectors, f.IncludeInAll = store, vectors, false
		return f
	}
	text := func(store bool) *mapping.FieldMapping { return field(analysis, store, true) }
	kw := func() *mapping.FieldMapping { return field(keyword.Name, true, false) }
	stored := func() *mapping.FieldMapping { return field("", true, false) }
	doc := bleve.NewDocumentStaticMapping()
	doc.AddFieldMappingsAt(fPage, kw())
	doc.AddFieldMappingsAt(fTitle, text(true))
	doc.AddFieldMappingsAt(fHeadings, text(false))
	doc.AddFieldMappingsAt(fBody, text(false))
	doc.AddFieldMappingsAt(fHeading, text(true))
	doc.AddFieldMappingsAt(fText, text(true))
	doc.AddFieldMappingsAt(fPath, stored())
	doc.AddFieldMappingsAt(fAnchor, stored())
	doc.AddFieldMappingsAt(fDescription, stored())
	doc.AddFieldMappingsAt(fAncestors, stored())
	im.DefaultMapping = doc
	im.DefaultAnalyzer = analysis
	im.ScoringModel = bleveindex.BM25Scoring
	im.StoreDynamic = false
	im.IndexDynamic = false
	im.DocValuesDynamic = false
	return im, nil
}

// Page is a page to index: its place in the tree and its body.
// Ancestors are the titles of the pages above it, top first, one a line.
type Page struct {
	ID, Title, Description, Path, Ancestors, Body string
}

// Build indexes pages into a new index in dir (which must not exist), with
// the text analysis named (Analysis), and closes it. The analysis is kept
// in the index: Update and queries read it from there.
func Build(ctx context.Context, dir, analysis string, pages []Page) error {
	im, err := indexMapping(analysis)
	if err != nil {
		return err
	}
	idx, err := bleve.NewUsing(dir, im, scorch.Name, scorch.Name, nil)
	if err != nil {
		return fmt.Errorf("create search index: %w", err)
	}
	return write(ctx, idx, nil, pages, 1)
}

// Update changes the index in dir: the pages removed (by id) and the
// pages given (added or changed) lose their documents, then the pages
// given are indexed.
func Update(ctx context.Context, dir string, removed []string, pages []Page) error {
	idx, err := bleve.Open(dir)
	if err != nil {
		return fmt.Errorf("open search index: %w", err)
	}
	return write(ctx, idx, removed, pages, maxSegments)
}

// write applies a change to an open index, merges it into one segment when
// it has more than most (a revision's index is read many times and written
// once) and closes it.
func write(ctx context.Context, idx bleve.Index, removed []string, pages []Page, most uint64) (err error) {
	defer func() {
		if cerr := idx.Close(); err == nil {
			err = cerr
		}
	}()
	b := idx.NewBatch()
	flush := func() error {
		if b.Size() == 0 {
			return nil
		}
		if err := idx.Batch(b); err != nil {
			return fmt.Errorf("index pages: %w", err)
		}
		b.Reset()
		return nil
	}
	gone := append([]string(nil), removed...)
	for _, p := range pages {
		gone = append(gone, p.ID)
	}
	for start := 0; start < len(gone); start += 100 {
		ids, err := docsOf(ctx, idx, gone[start:min(start+100, len(gone))])
		if err != nil {
			return err
		}
		for _, id := range ids {
			b.Delete(id)
		}
	}
	if err := flush(); err != nil {
		return err
	}
	for _, p := range pages {
		secs := Sections(p.Body)
		if p.Description != "" {
			secs[0].Text = strings.TrimSpace(p.Description + " " + secs[0].Text)
		}
		var headings, texts []string
		for i, s := range secs {
			if s.Heading != "" {
				headings = append(headings, s.Heading)
			}
			texts = append(texts, s.Text)
			if err := b.Index("s:"+p.ID+":"+strconv.Itoa(i), map[string]any{fPage: p.ID,
				fHeading: s.Heading, fText: s.Text, fAnchor: s.Anchor}); err != nil {
				return fmt.Errorf("index page %s: %w", p.ID, err)
			}
		}
		if err := b.Index("p:"+p.ID, map[string]any{fPage: p.ID, fTitle: p.Title,
			fHeadings: strings.Join(headings, "\n"), fBody: strings.Join(texts, "\n"), fPath: p.Path,
			fDescription: p.Description, fAncestors: p.Ancestors}); err != nil {
			return fmt.Errorf("index page %s: %w", p.ID, err)
		}
		if b.Size() >= 1000 {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	adv, err := idx.Advanced()
	if err != nil {
		return err
	}
	if sc, ok := adv.(*scorch.Scorch); ok && segments(sc) > most {
		if err := sc.ForceMerge(ctx, &mergeplan.SingleSegmentMergePlanOptions); err != nil {
			return fmt.Errorf("merge search index: %w", err)
		}
	}
	return nil
}

// maxSegments is the most segments an updated index keeps: a build merges
// its segments into one; an update adds one, which the index merges with
// others on its own, and when there are more than this all are merged into
// one (queries never read many segments).
const maxSegments = 8

func segments(sc *scorch.Scorch) uint64 {
	m := sc.StatsMap()
	n := uint64(0)
	for _, k := range []string{"num_root_filesegments", "num_root_memorysegments"} {
		if v, ok := m[k].(uint64); ok {
			n += v
		}
	}
	return n
}

// docsOf returns the ids of the documents of pages (a page's and its
// sections').
func docsOf(ctx context.Context, idx bleve.Index, pageIDs []string) ([]string, error) {
	terms := make([]query.Query, 0, len(pageIDs))
	for _, id := range pageIDs {
		t := query.NewTermQuery(id)
		t.SetField(fPage)
		terms = append(terms, t)
	}
	var out []string
	for from := 0; ; from += 10000 {
		req := bleve.NewSearchRequestOptions(query.NewDisjunctionQuery(terms), 10000, from, false)
		res, err := idx.SearchInContext(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("find pages in search index: %w", err)
		}
		for _, h := range res.Hits {
			out = append(out, h.ID)
		}
		if len(res.Hits) < 10000 {
			return out, nil
		}
	}
}

// Open opens a built index read-only.
func Open(dir string) (bleve.Index, error) {
	idx, err := bleve.OpenUsing(dir, map[string]any{"read_only": true})
	if err != nil {
		return nil, fmt.Errorf("open search index: %w", err)
	}
	return idx, nil
}

// Archive packs an index's directory (closed) as a gzipped tar.
func Archive(dir string) ([]byte, error) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	tw := tar.NewWriter(zw)
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := tw.WriteHeader(&tar.Header{Name: filepath.ToSlash(rel), Mode: 0o600, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		_, err = tw.Write(data)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("archive search index: %w", err)
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Unarchive unpacks an archive made by Archive into dir (which must not
// exist). Entries are regular files under dir, or the archive is refused.
func Unarchive(data []byte, dir string) error {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("unpack search index: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("unpack search index: %w", err)
		}
		name := filepath.FromSlash(h.Name)
		if h.Typeflag != tar.TypeReg || !filepath.IsLocal(name) {
			return fmt.Errorf("unpack search index: unexpected entry %q", h.Name)
		}
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return err
		}
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err != nil {
			return err
		}
		_, err = io.Copy(f, tr)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("unpack search index: %w", err)
		}
	}
}
