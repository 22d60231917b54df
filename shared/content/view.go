package content

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/galleydocs/galley/shared/condition"
	"github.com/galleydocs/galley/shared/document"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/users"
)

// Revision is the API shape of a revision (the reference's Revision).
type Revision struct {
	Object           string                    `json:"object" enum:"revision"`
	ID               string                    `json:"id"`
	Parents          []string                  `json:"parents"`
	Pages            []RevisionPage            `json:"pages"`
	Files            []RevisionFile            `json:"files"`
	ReusableContents []RevisionReusableContent `json:"reusableContents"`
	Variables        Variables                 `json:"variables" nullable:"false" doc:"The space's variables (GitBook's space.vars): names to strings, numbers or booleans"`
	Tags             []RevisionTag             `json:"tags" nullable:"false" doc:"Tags of the revision's content: Galley has none yet"`
	CreatedAt        time.Time                 `json:"createdAt"`
	Git              *model.GitCommit          `json:"git,omitempty"`
	URLs             RevisionURLs              `json:"urls"`
	Type             string                    `json:"type" enum:"edits,merge,rollback,update,computed"`
	MergedFrom       *ChangeRequest            `json:"mergedFrom,omitempty" doc:"The change request merged (merge revisions)"`
}

// RevisionTag is a tag pages may carry (GitBook's RevisionTag).
type RevisionTag struct {
	Slug  string `json:"slug"`
	Label string `json:"label"`
}

// RevisionReusableContent is the API shape of a reusable content (the
// reference's RevisionReusableContent).
type RevisionReusableContent struct {
	ID       string   `json:"id"`
	Title    string   `json:"title"`
	Document string   `json:"document,omitempty" doc:"ID of the document with the content body (absent: empty)"`
	Git      *GitBlob `json:"git,omitempty"`
}

// ReusableContentView renders a reusable content.
func ReusableContentView(rc *ReusableContent, o Options) RevisionReusableContent {
	v := RevisionReusableContent{ID: rc.ID, Title: rc.Title, Document: rc.Document}
	if o.Metadata {
		v.Git = rc.Git
	}
	return v
}

// ReusableContentsView renders a tree's reusable contents, by id.
func ReusableContentsView(ix *Index, o Options) []RevisionReusableContent {
	rcs := ix.ReusableContents()
	out := make([]RevisionReusableContent, 0, len(rcs))
	for i := range rcs {
		out = append(out, ReusableContentView(&rcs[i], o))
	}
	return out
}

// RevisionURLs are a revision's links.
type RevisionURLs struct {
	App string `json:"app" format:"uri"`
}

// RevisionPage is the API shape of a page (the reference's RevisionPage:
// its document, group and link variants in one shape, told apart by type).
type RevisionPage struct {
	ID            string         `json:"id"`
	Title         string         `json:"title"`
	Kind          string         `json:"kind" enum:"sheet,group,link" doc:"Deprecated form of type"`
	Type          string         `json:"type" enum:"document,group,link,computed"`
	Emoji         string         `json:"emoji,omitempty"`
	Icon          string         `json:"icon,omitempty"`
	CreatedAt     *time.Time     `json:"createdAt,omitempty"`
	UpdatedAt     *time.Time     `json:"updatedAt,omitempty"`
	URLs          *PageURLs      `json:"urls,omitempty"`
	Slug          string         `json:"slug" doc:"The page's slug in its parent (empty for links)"`
	Path          string         `json:"path" doc:"The page's slug path from the root (empty for links)"`
	Description   string         `json:"description,omitempty"`
	DocumentID    string         `json:"documentId,omitempty"`
	Pages         []RevisionPage `json:"pages" doc:"Child pages (document and group pages; empty for a leaf and for links)"`
	Tags          []PageTag      `json:"tags" doc:"The page's tags (Galley has none yet: always empty)"`
	Variables     Variables      `json:"variables,omitempty" doc:"The page's variables (GitBook's page.vars): names to strings, numbers or booleans"`
	Git           *GitBlob       `json:"git,omitempty"`
	Layout        *Layout        `json:"layout,omitempty"`
	Cover         *Cover         `json:"cover,omitempty"`
	Hidden        bool           `json:"hidden"`
	NoIndex       *bool          `json:"noIndex,omitempty"`
	NoRobotsIndex *bool          `json:"noRobotsIndex,omitempty"`
	Condition     string         `json:"condition,omitempty" doc:"The page's adaptive-content condition: the page and its children are shown to the site's visitors for whom it holds. Only with a user's token, never with a site token"`
	// VisitorCondition is the page's condition whoever reads: for the
	// reader and the site search, which read as a visitor in process and
	// leave out the pages it hides (HiddenFor). Never written out.
	VisitorCondition string                 `json:"-"`
	Target           *Ref                   `json:"target,omitempty"`
	Href             string                 `json:"href,omitempty"`
	Markdown         *string                `json:"markdown,omitempty" doc:"The page as markdown (format=markdown)"`
	Document         *document.JSONDocument `json:"document,omitempty" doc:"The page as a document tree (format=document)"`
	Computed         *ComputedSource        `json:"computed,omitempty" doc:"What the page is computed from: on a computed page (type computed, read with computed=false), and on the pages a computed read generates"`
	ComputedSeed     string                 `json:"computedSeed,omitempty" doc:"Seed of the ids of a computed read's generated pages"`
}

// PageTag is a tag of a page (the reference's RevisionPageTag).
type PageTag struct {
	Tag     PageTagRef `json:"tag"`
	Primary bool       `json:"primary,omitempty"`
}

// PageTagRef references a tag.
type PageTagRef struct {
	Kind string `json:"kind" enum:"tag"`
	Tag  string `json:"tag"`
}

// PageURLs are a page's links.
type PageURLs struct {
	App string `json:"app" format:"uri"`
}

// RevisionFile is the API shape of a file (the reference's RevisionFile).
type RevisionFile struct {
	ID          string          `json:"id"`
	Name        string          `json:"name"`
	ContentType string          `json:"contentType"`
	DownloadURL string          `json:"downloadURL" format:"uri"`
	Size        int64           `json:"size"`
	Dimensions  *FileDimensions `json:"dimensions,omitempty"`
	Git         *GitBlob        `json:"git,omitempty"`
}

// FileDimensions are an image's size in pixels.
type FileDimensions struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

// ChangeRequest is the API shape of a change request.
type ChangeRequest struct {
	Object                 string            `json:"object" enum:"change-request"`
	ID                     string            `json:"id"`
	Number                 int               `json:"number"`
	Status                 string            `json:"status" enum:"draft,open,archived,merged"`
	Subject                string            `json:"subject" maxLength:"100"`
	CreatedBy              users.User        `json:"createdBy"`
	CreatedAt              time.Time         `json:"createdAt"`
	UpdatedAt              time.Time         `json:"updatedAt"`
	Space                  string            `json:"space" doc:"ID of the space the request belongs to"`
	Revision               string            `json:"revision" doc:"The request's current revision"`
	RevisionInitial        string            `json:"revisionInitial" doc:"The space revision the request was created from"`
	RevisionMergedAncestor string            `json:"revisionMergedAncestor,omitempty" doc:"The space revision last brought in by an update"`
	RevisionMerged         string            `json:"revisionMerged,omitempty" doc:"The space revision its merge made"`
	Comments               int               `json:"comments"`
	Outdated               bool              `json:"outdated" doc:"The space has changed since the request's base"`
	URLs                   ChangeRequestURLs `json:"urls"`
}

// ChangeRequestURLs are a change request's links.
type ChangeRequestURLs struct {
	App      string `json:"app" format:"uri"`
	Location string `json:"location" format:"uri"`
}

// ChangeRequestView renders a change request, with its links under b; head
// is the space's current revision (a request is outdated while active and
// based on another).
func ChangeRequestView(ctx context.Context, b Bases, cr model.ChangeRequest, head string, by model.User) ChangeRequest {
	return ChangeRequest{Object: "change-request", ID: cr.ID, Number: cr.Number, Status: cr.Status, Subject: cr.Subject,
		CreatedBy: users.ViewUser(b.API, by), CreatedAt: cr.CreatedAt, UpdatedAt: cr.UpdatedAt, Space: cr.SpaceID,
		Revision: cr.Revision, RevisionInitial: cr.RevisionInitial, RevisionMergedAncestor: cr.RevisionMergedAncestor,
		RevisionMerged: cr.RevisionMerged, Comments: cr.Comments, Outdated: cr.Active() && cr.Base() != head,
		URLs: ChangeRequestURLs{
			App:      b.App + "/s/" + cr.SpaceID + "/~/changes/" + strconv.Itoa(cr.Number),
			Location: b.API + "/v1/spaces/" + cr.SpaceID + "/change-requests/" + cr.ID,
		}}
}

// Options select what a content read includes.
type Options struct {
	// Metadata false omits the mutable git metadata.
	Metadata bool
	// AppBase is the application URL of the content (space or change
	// request); page links are under it.
	AppBase string
	// APIBase is the API's absolute base URL (download links are under it).
	APIBase string
	// Downloads signs file download URLs.
	Downloads *Downloads
	SpaceID   string
	// Conditions shows pages' conditions (RevisionPage.Condition): to
	// users' tokens, never to site tokens (as GitBook).
	Conditions bool
}

// RevisionView renders a revision and its tree.
func RevisionView(rev model.Revision, ix *Index, o Options) Revision {
	v := Revision{Object: "revision", ID: rev.ID, Parents: rev.Parents, Pages: PagesView(ix, o), Files: FilesView(ix.Files(), o),
		ReusableContents: ReusableContentsView(ix, o), Variables: ix.Variables(), Tags: []RevisionTag{}, CreatedAt: rev.CreatedAt, URLs: RevisionURLs{App: o.AppBase + "/~/revisions/" + rev.ID},
		Type: rev.Type}
	if v.Parents == nil {
		v.Parents = []string{}
	}
	if v.Variables == nil {
		v.Variables = Variables{}
	}
	if o.Metadata {
		v.Git = rev.Git
	}
	return v
}

// PagesView renders the page tree, nested.
func PagesView(ix *Index, o Options) []RevisionPage {
	paths := ix.Paths()
	var build func(parent string) []RevisionPage
	build = func(parent string) []RevisionPage {
		ids := ix.Children(parent)
		out := make([]RevisionPage, 0, len(ids))
		for _, id := range ids {
			p := ix.Page(id)
			v := PageView(p, paths[id], o)
			if p.Type != TypeLink {
				v.Pages = build(id)
			}
			out = append(out, v)
		}
		return out
	}
	return build("")
}

// PageView renders one page without its children.
func PageView(p *Page, path string, o Options) RevisionPage {
	v := RevisionPage{ID: p.ID, Title: p.Title, Type: p.Type, Emoji: p.Emoji, Icon: p.Icon, Hidden: p.Hidden,
		Pages: []RevisionPage{}, Tags: []PageTag{}, VisitorCondition: p.Condition}
	if o.Conditions {
		v.Condition = p.Condition
	}
	if !p.CreatedAt.IsZero() {
		c, u := p.CreatedAt, p.UpdatedAt
		v.CreatedAt, v.UpdatedAt = &c, &u
	}
	if o.Metadata {
		v.Git = p.Git
	}
	switch p.Type {
	case TypeLink:
		v.Kind = "link"
		v.Target = p.Target
		if p.Target != nil && p.Target.Kind == "url" {
			v.Href = p.Target.URL
		}
		return v
	case TypeGroup:
		v.Kind = "group"
	case TypeComputed:
		v.Kind = "sheet"
		v.Computed = p.Computed
		v.Description = p.Description
		v.URLs = &PageURLs{App: o.AppBase + "/" + escapePath(path)}
	default:
		v.Kind = "sheet"
		layout := DefaultLayout()
		if p.Layout != nil {
			layout = *p.Layout
		}
		v.Layout = &layout
		v.Cover = p.Cover
		v.Description = p.Description
		v.DocumentID = p.Document
		v.Variables = p.Variables
		v.URLs = &PageURLs{App: o.AppBase + "/" + escapePath(path)}
	}
	v.Slug, v.Path = p.Slug, path
	noIndex, noRobots := p.NoIndex, p.NoRobotsIndex
	v.NoIndex, v.NoRobotsIndex = &noIndex, &noRobots
	return v
}

// FilesView renders files.
func FilesView(files []File, o Options) []RevisionFile {
	out := make([]RevisionFile, 0, len(files))
	for i := range files {
		out = append(out, FileView(&files[i], o))
	}
	return out
}

// FileView renders one file, with a signed download URL.
func FileView(f *File, o Options) RevisionFile {
	v := RevisionFile{ID: f.ID, Name: f.Name, ContentType: f.ContentType, Size: f.Size}
	if f.Width > 0 && f.Height > 0 {
		v.Dimensions = &FileDimensions{Width: f.Width, Height: f.Height}
	}
	if o.Downloads != nil {
		v.DownloadURL = o.Downloads.URL(o.APIBase, o.SpaceID, f)
	}
	if o.Metadata {
		v.Git = f.Git
	}
	return v
}

func escapePath(p string) string {
	u := url.URL{Path: p}
	return u.EscapedPath()
}

// EscapeSegments escapes each part of a slash-separated path as a path
// segment (a published page's URL: readers and the site search page).
func EscapeSegments(p string) string {
	parts := strings.Split(p, "/")
	for i, x := range parts {
		parts[i] = url.PathEscape(x)
	}
	return strings.Join(parts, "/")
}

// HiddenFor returns the ids of the pages of a tree that a site's visitor
// with claims is not shown: those whose condition (VisitorCondition) does
// not hold for them, and their descendants (package condition evaluates;
// a page without a condition is shown). Nil when none is hidden.
func HiddenFor(pages []RevisionPage, claims map[string]any) map[string]bool {
	var out map[string]bool
	var walk func(ps []RevisionPage, hidden bool)
	walk = func(ps []RevisionPage, hidden bool) {
		for i := range ps {
			p := &ps[i]
			h := hidden || (p.VisitorCondition != "" && !condition.Holds(p.VisitorCondition, claims))
			if h {
				if out == nil {
					out = map[string]bool{}
				}
				out[p.ID] = true
			}
			walk(p.Pages, h)
		}
	}
	walk(pages, false)
	return out
}
