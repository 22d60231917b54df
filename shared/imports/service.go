// Package imports is content import: pages brought into a space or a
// change request from a URL (a website, an HTML page, a markdown file, a
// zip of markdown files, a GitHub wiki), as one new revision.
//
// Decisions (docs/workers.md has the whole story):
//   - An import runs within the request, in its own function
//     (ImportsFunction), bounded so that it ends well within API Gateway's
//     30 seconds: a 20-second budget for fetching (what was read when it
//     runs out is imported), MaxPages pages MaxDepth links away, MaxImages
//     images, size caps. The answer names the revision it made, which a
//     queued job could not give a request that has to answer at once.
//   - Everything is fetched through the guarded fetcher (a wiki through
//     Git's smart HTTP over it).
//   - A web page reads like its source (clean.go): its main content
//     without the chrome of documentation generators (Sphinx, MkDocs
//     Material, Docusaurus...), headings without permalink marks, code
//     blocks with their language (named as GitBook's and the reader's
//     highlighters know it: Sphinx's highlight-default is python),
//     admonitions as GitBook hints, GFM tables.
//   - A website import leaves out, and lists in the answer (Skipped), the
//     pages Sphinx generates (indices, search: not fetched), the pages too
//     large (over MaxPageBytes of HTML or gitsync.MaxMarkdownBytes of
//     markdown) and the pages that cannot be read: a page never fails the
//     import but the first.
//   - Imported pages are added after the top-level pages of the space's
//     head (or of the change request's revision), with their files, in
//     one revision written by a version-guarded write (changerequests
//     LandOnSpace / LandOnRequest); the existing pages are left as they
//     are.
//   - totalResources counts the pages found (website: the same-origin
//     pages discovered, within the bounds or not; zip and wiki: the
//     markdown files), importedResources the pages imported.
//   - Rights: edit on the space (the space's content changes at once, as
//     an editor's live edits would).
package imports

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"net/url"
	"os"
	"path"
	"strings"
	"time"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/changerequests"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/deps"
	"github.com/galleydocs/galley/shared/document"
	"github.com/galleydocs/galley/shared/fetch"
	"github.com/galleydocs/galley/shared/gitsync"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/store"
)

// Bounds of an import.
const (
	// Budget bounds the fetching of an import.
	Budget = 20 * time.Second
	// MaxPages is the default bound of a website's crawl (Config.Pages).
	MaxPages     = 500
	MaxDepth     = 3
	MaxImages    = 50
	MaxPageBytes = 2 << 20
	// MaxArchiveBytes bounds a zip (and MaxArchiveFilesBytes what it
	// holds); a zip is streamed to a temporary file, not held in memory.
	MaxArchiveBytes      = 100 << 20
	MaxArchiveFilesBytes = 250 << 20
	// MaxArchivePages bounds the pages of a zip or a wiki (Config.ArchivePages):
	// an import answers within the request, which API Gateway ends at
	// 29 seconds, and writes each page body to the blob store (an S3 PUT
	// in AWS, 32 at a time). Measured locally (BenchmarkZipImport): 0.34
	// ms a page, 17 s for 50,000; in AWS 10,000 pages are about 313 rounds
	// of PUTs (about 8 s at 25 ms a PUT) besides the fetch (at most 15 s
	// for 100 MB) and the parsing. Larger archives answer 413: Git Sync
	// imports up to gitsync.MaxPages in its worker.
	MaxArchivePages = 10000
)

// Sources (the reference's ImportContentSource) and those Galley imports.
var (
	Sources   = []string{"website", "docx", "markdown", "html", "zip", "confluence", "github-wiki", "notion", "google-docs"}
	supported = map[string]bool{"website": true, "markdown": true, "html": true, "zip": true, "github-wiki": true}
)

// Service imports content.
type Service struct {
	d       *deps.Deps
	content *content.Service
	crs     ChangeRequests
	git     Git
	conv    *converter.Converter
	// Budget bounds the fetching of one import; Pages and Depth bound a
	// website's crawl; ArchivePages the pages of a zip or a wiki.
	Budget       time.Duration
	Pages, Depth int
	ArchivePages int
}

// Config bounds imports; a zero field is its default (Budget, MaxPages,
// MaxDepth, MaxArchivePages: a crawl of the start page alone is
// Service.Depth = 0).
type Config struct {
	Budget       time.Duration
	Pages        int
	Depth        int
	ArchivePages int
}

// ChangeRequests is what imports ask of the change requests family
// (changerequests.Service): the request imported into, and the landing of
// an import's revision.
type ChangeRequests interface {
	Get(ctx context.Context, spaceID, ref string) (model.ChangeRequest, model.Space, error)
	LandOnRequest(ctx context.Context, spaceID, ref, userID string, build changerequests.Builder) (model.Revision, model.ChangeRequest, error)
	LandOnSpace(ctx context.Context, spaceID string, standalone bool, build changerequests.Builder) (model.Revision, model.Space, error)
}

// Git is what imports ask of Git Sync (gitsync.Service): a repository read
// and its project added to a revision.
type Git interface {
	ReadRepository(ctx context.Context, rawURL, ref string) (*gitsync.Project, error)
	AddProject(ctx context.Context, spaceID string, pr *gitsync.Project, ix *content.Index) (int, error)
}

// Needs are the other families' services imports use.
type Needs struct {
	Content        *content.Service
	ChangeRequests ChangeRequests
	Git            Git
}

// New returns the import service with the default bounds.
func New(d *deps.Deps, n Needs) *Service { return NewWithConfig(d, n, Config{}) }

// NewWithConfig returns the import service with the bounds of c.
func NewWithConfig(d *deps.Deps, n Needs, c Config) *Service {
	s := &Service{d: d, content: n.Content, crs: n.ChangeRequests, git: n.Git, conv: newConverter(),
		Budget: Budget, Pages: MaxPages, Depth: MaxDepth, ArchivePages: MaxArchivePages}
	if c.ArchivePages > 0 {
		s.ArchivePages = c.ArchivePages
	}
	if c.Budget > 0 {
		s.Budget = c.Budget
	}
	if c.Pages > 0 {
		s.Pages = c.Pages
	}
	if c.Depth > 0 {
		s.Depth = c.Depth
	}
	return s
}

// Result is what an import made.
type Result struct {
	Revision string
	Imported int
	Total    int
	// Skipped are the pages found and left out, in the order found (a
	// website's: Sphinx's generated pages, pages too large, pages that
	// could not be read); pages beyond the bounds are not listed
	// (Total counts them).
	Skipped []Skipped
}

// Skipped is a page an import found and left out, and why.
type Skipped struct {
	URL    string
	Reason string // a Skip constant
}

// Why a page is left out.
const (
	// SkipGenerated: a page Sphinx generates (its indices, its search
	// page), not fetched.
	SkipGenerated = "generated"
	// SkipTooLarge: a page over MaxPageBytes, or whose markdown is over
	// gitsync.MaxMarkdownBytes.
	SkipTooLarge = "too-large"
	// SkipUnreadable: a broken link, or not an HTML page.
	SkipUnreadable = "unreadable"
)

var errNotHTML = errors.New("the URL is not an HTML page")

// fetchFailure turns a failed fetch of the import's URL into a 400
// naming url.
func fetchFailure(err error) error {
	var fe *fetch.Error
	if errors.As(err, &fe) {
		if fe.Code == fetch.CodeTooLarge {
			return apperr.New(apperr.TooLarge, "url: the content is too large to import")
		}
		return apperr.Field("url", "%s", fe.Error())
	}
	return apperr.Field("url", "%s", err.Error())
}

// Import imports the content at rawURL into a space's head, or into a
// change request when crRef is not empty.
func (s *Service) Import(ctx context.Context, spaceID, crRef, rawURL, source string) (Result, error) {
	c, err := access.CallerFrom(ctx)
	if err != nil {
		return Result{}, err
	}
	if _, _, err := s.content.Space(ctx, spaceID, access.EditContent); err != nil {
		return Result{}, err
	}
	if crRef != "" {
		cr, _, err := s.crs.Get(ctx, spaceID, crRef)
		if err != nil {
			return Result{}, err
		}
		if !cr.Active() {
			return Result{}, apperr.Conflictf("change request is %s; only draft and open requests accept changes", cr.Status)
		}
	}
	if !supported[source] {
		return Result{}, apperr.Field("source", "importing from %s is not supported; supported sources: website, html, markdown, zip, github-wiki", source)
	}
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Result{}, apperr.Field("url", "must be an http or https URL")
	}
	fctx, cancel := context.WithTimeout(ctx, s.Budget)
	defer cancel()
	client := fetch.NewWithTimeout(s.d.FetchAllowPrivate, min(fetch.Timeout, s.Budget))
	var pr *gitsync.Project
	var skipped []Skipped
	total := 1
	switch source {
	case "website", "html":
		pages, found, crawlSkipped, err := s.crawl(fctx, client, u, source == "website")
		if err != nil {
			if errors.Is(err, errNotHTML) {
				return Result{}, apperr.Field("url", "%s", err.Error())
			}
			return Result{}, err
		}
		total = found
		var tooLarge []Skipped
		if pr, tooLarge, err = s.websiteProject(fctx, client, pages); err != nil {
			return Result{}, err
		}
		skipped = append(crawlSkipped, tooLarge...)
	case "markdown":
		res, err := client.Fetch(fctx, rawURL, gitsync.MaxMarkdownBytes)
		if err != nil {
			return Result{}, fetchFailure(err)
		}
		pr = gitsync.NewProject()
		name := document.Slug(strings.TrimSuffix(path.Base(u.Path), path.Ext(u.Path)), "page")
		if err := pr.Add(name+".md", res.Body); err != nil {
			return Result{}, apperr.Field("url", "%s", err.Error())
		}
	case "zip":
		if pr, err = fetchZip(fctx, client, rawURL); err != nil {
			return Result{}, err
		}
		total = pr.Pages()
	case "github-wiki":
		if pr, err = s.git.ReadRepository(fctx, rawURL, ""); err != nil {
			return Result{}, apperr.Field("url", "%s", err.Error())
		}
		pr.Wiki()
		total = pr.Pages()
	}
	if pr.Pages() == 0 {
		return Result{}, apperr.Field("url", "nothing to import: no page found")
	}
	if n := pr.Pages(); n > s.ArchivePages {
		return Result{}, apperr.New(apperr.TooLarge, "url: the archive has %d pages; an import answers within the request and takes at most %d: "+
			"import it in parts, or with Git Sync (up to %d pages, in the background)", n, s.ArchivePages, gitsync.MaxPages)
	}
	var out Result
	build := func(ctx context.Context, base model.Revision, ix *content.Index) (model.Revision, []store.Op, error) {
		n, err := s.git.AddProject(ctx, spaceID, pr, ix)
		if err != nil {
			return model.Revision{}, nil, apperr.Field("url", "%s", err.Error())
		}
		rev, err := s.content.Repo.NewRevision(ctx, spaceID, content.RevisionEdits, []string{base.ID}, ix)
		out = Result{Revision: rev.ID, Imported: n, Total: max(total, n), Skipped: skipped}
		return rev, nil, err
	}
	if crRef != "" {
		_, _, err = s.crs.LandOnRequest(ctx, spaceID, crRef, c.UserID, build)
	} else {
		_, _, err = s.crs.LandOnSpace(ctx, spaceID, false, build)
	}
	if err != nil {
		return Result{}, err
	}
	s.d.Logger.InfoContext(ctx, "content import", "space", spaceID, "changeRequest", crRef, "source", source,
		"url", fetch.Redact(rawURL), "revision", out.Revision, "imported", out.Imported, "total", out.Total, "skipped", len(out.Skipped))
	return out, nil
}

// fetchZip reads a zip of markdown files from a URL: streamed to a
// temporary file (removed after), so that an archive is not held in
// memory besides the files read from it.
func fetchZip(ctx context.Context, client *fetch.Client, rawURL string) (*gitsync.Project, error) {
	f, err := os.CreateTemp("", "galley-import-*.zip")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	n, err := client.FetchTo(ctx, rawURL, MaxArchiveBytes, f)
	if err != nil {
		var fe *fetch.Error
		if errors.As(err, &fe) {
			return nil, fetchFailure(err)
		}
		return nil, err // the temporary file could not be written
	}
	return zipProject(f, n)
}

// zipProject reads a zip of markdown files (and their files). A single
// folder holding everything is the project's folder.
func zipProject(r io.ReaderAt, size int64) (*gitsync.Project, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, apperr.Field("url", "not a zip archive")
	}
	var names []string
	var total uint64
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		name := path.Clean(strings.ReplaceAll(f.Name, `\`, "/"))
		if strings.HasPrefix(name, "../") || strings.HasPrefix(name, "/") || name == ".." || strings.HasPrefix(name, "__MACOSX/") {
			continue
		}
		total += f.UncompressedSize64
		if total > MaxArchiveFilesBytes {
			return nil, apperr.New(apperr.TooLarge, "url: the archive holds more than %d bytes", MaxArchiveFilesBytes)
		}
		names = append(names, name)
	}
	// A common top folder ("docs/...", as archives of a folder are) is
	// the project's root.
	prefix := ""
	if len(names) > 0 {
		if i := strings.Index(names[0], "/"); i > 0 {
			prefix = names[0][:i+1]
			for _, n := range names {
				if !strings.HasPrefix(n, prefix) {
					prefix = ""
					break
				}
			}
		}
	}
	pr := gitsync.NewProject()
	for _, f := range zr.File {
		name := path.Clean(strings.ReplaceAll(f.Name, `\`, "/"))
		if f.FileInfo().IsDir() || strings.HasPrefix(name, "../") || strings.HasPrefix(name, "/") || strings.HasPrefix(name, "__MACOSX/") {
			continue
		}
		rel := strings.TrimPrefix(name, prefix)
		if hiddenPath(rel) {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, apperr.Field("url", "the archive cannot be read: %s", err.Error())
		}
		var buf bytes.Buffer
		_, err = buf.ReadFrom(io.LimitReader(rc, int64(content.MaxFileBytes)+1))
		rc.Close()
		if err != nil {
			return nil, apperr.Field("url", "the archive cannot be read: %s", err.Error())
		}
		if buf.Len() > content.MaxFileBytes && !strings.EqualFold(path.Ext(rel), ".md") {
			continue // too large a file: left out
		}
		if err := pr.Add(rel, buf.Bytes()); err != nil {
			return nil, apperr.Field("url", "%s", err.Error())
		}
	}
	return pr, nil
}

// hiddenPath tells dotfiles and files in dot folders (but .gitbook/assets).
func hiddenPath(rel string) bool {
	if strings.HasPrefix(rel, ".gitbook/assets/") {
		return false
	}
	for _, seg := range strings.Split(rel, "/") {
		if strings.HasPrefix(seg, ".") {
			return true
		}
	}
	return false
}
