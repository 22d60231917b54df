package contenthttp

import (
	"context"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/document"
	"github.com/galleydocs/galley/shared/httpapi"
)

// PagePathParam is a page's path in a by-path read: its slugs from the
// root, slashes included ("intro/setup"). Its route ends in a wildcard
// ({pagePath...}), so the path's slashes need no escaping; escaped
// characters are decoded.
type PagePathParam struct {
	PagePath string `path:"pagePath" maxLength:"2048" doc:"The page's path: its slugs from the root, joined by /"`
}

// RevisionPath names a revision of a space in an operation's path.
type RevisionPath struct {
	SpaceID    string `path:"spaceId" maxLength:"64"`
	RevisionID string `path:"revisionId" maxLength:"64"`
}

// at is the revision, for the content service's reads.
func (p RevisionPath) at(ctx context.Context) content.At {
	return content.At{SpaceID: p.SpaceID, Revision: p.RevisionID, Bases: Bases(ctx)}
}

type revisionIn struct {
	RevisionPath
	ReadParams
}

type revisionPageIn struct {
	RevisionPath
	PageID string `path:"pageId" maxLength:"64"`
	PageParams
}

type revisionPageRefIn struct {
	RevisionPath
	PageID string `path:"pageId" maxLength:"64"`
}

type revisionPageDocumentIn struct {
	RevisionPath
	PageID string `path:"pageId" maxLength:"64"`
	DocumentParams
}

type revisionFilesIn struct {
	RevisionPath
	FileListParams
}

type revisionFileIn struct {
	RevisionPath
	FileID string `path:"fileId" maxLength:"64"`
	ReadParams
}

type revisionPathIn struct {
	RevisionPath
	PagePathParam
	PageParams
}

type pathIn struct {
	SpacePath
	PagePathParam
	PageParams
}

type changesIn struct {
	RevisionPath
	ReadParams
	Limit int `query:"limit" default:"10" minimum:"1" maximum:"1000" doc:"At most this many changes"`
}

type documentIn struct {
	SpaceID    string `path:"spaceId" maxLength:"64"`
	DocumentID string `path:"documentId" maxLength:"128"`
}

// DocumentOut answers a document read.
type DocumentOut = httpapi.Out[document.JSONDocument]

// MetaLinksOut answers a page's meta links.
type MetaLinksOut = httpapi.Out[content.MetaLinks]

// registerRevisions adds the reads of a revision of a space by id, of
// pages by path, and of documents by id.
func registerRevisions(api *httpapi.API, s *content.Service) {
	const tag = "Space content"
	base := "/v1/spaces/{spaceId}/revisions/{revisionId}"
	httpapi.Register(api, httpapi.Op{ID: "getRevisionById", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodGet, Path: base, Tag: tag,
		Summary: "Get a revision of the space by id"},
		func(ctx context.Context, in *revisionIn) (*RevisionOut, error) {
			return AsIs(s.RevisionOf(ctx, in.On(in.at(ctx)), in.Metadata))
		})
	httpapi.Register(api, httpapi.Op{ID: "getRevisionSemanticChanges", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base + "/changes", Tag: tag,
		Summary: "List the pages a revision created, edited, moved and deleted, against its parent"},
		func(ctx context.Context, in *changesIn) (*httpapi.Out[content.SemanticChanges], error) {
			return AsIs(s.SemanticChanges(ctx, in.at(ctx), in.Limit))
		})
	httpapi.Register(api, httpapi.Op{ID: "listPagesInRevisionById", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodGet, Path: base + "/pages", Tag: tag,
		Summary: "List the pages of a revision (nested)"},
		func(ctx context.Context, in *revisionIn) (*PagesOut, error) {
			return httpapi.Answer(ListTree)(s.PageTree(ctx, in.On(in.at(ctx)), in.Metadata))
		})
	httpapi.Register(api, httpapi.Op{ID: "listFilesInRevisionById", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodGet, Path: base + "/files", Tag: tag,
		Summary: "List the files of a revision"},
		func(ctx context.Context, in *revisionFilesIn) (*FilesOut, error) {
			return ListAsIs(s.Files(ctx, in.at(ctx), in.Request(), in.Metadata))
		})
	httpapi.Register(api, httpapi.Op{ID: "getFileInRevisionById", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodGet, Path: base + "/files/{fileId}", Tag: tag,
		Summary: "Get a file of a revision"},
		func(ctx context.Context, in *revisionFileIn) (*FileOut, error) {
			return AsIs(s.File(ctx, in.at(ctx), in.FileID, in.Metadata))
		})
	httpapi.Register(api, httpapi.Op{ID: "getPageInRevisionById", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodGet, Path: base + "/page/{pageId}", Tag: tag,
		Summary: "Get a page of a revision"},
		func(ctx context.Context, in *revisionPageIn) (*PageOut, error) {
			return AsIs(s.Page(ctx, in.On(in.at(ctx)), in.PageID, in.Format, in.Metadata))
		})
	httpapi.Register(api, httpapi.Op{ID: "getPageDocumentInRevisionById", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodGet, Path: base + "/page/{pageId}/document", Tag: tag,
		Summary: "Get the document of a page of a revision"},
		func(ctx context.Context, in *revisionPageDocumentIn) (*DocumentOut, error) {
			at := in.at(ctx)
			at.Document = in.Options()
			return AsIs(s.PageDocument(ctx, at, in.PageID))
		})
	httpapi.Register(api, httpapi.Op{ID: "listRevisionPageMetaLinks", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodGet, Path: base + "/page/{pageId}/meta-links", Tag: tag,
		Summary: "Get the meta links of a page of a revision"},
		func(ctx context.Context, in *revisionPageRefIn) (*MetaLinksOut, error) {
			return AsIs(s.PageMetaLinks(ctx, in.at(ctx), in.PageID))
		})
	httpapi.Register(api, httpapi.Op{ID: "getPageInRevisionByPath", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodGet, Path: base + "/path/{pagePath...}", Tag: tag,
		Summary: "Get a page of a revision by its path"},
		func(ctx context.Context, in *revisionPathIn) (*PageOut, error) {
			return AsIs(s.PageByPath(ctx, in.On(in.at(ctx)), in.PagePath, in.Format, in.Metadata))
		})
	httpapi.Register(api, httpapi.Op{ID: "getPageByPath", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodGet, Path: "/v1/spaces/{spaceId}/content/path/{pagePath...}", Tag: tag,
		Summary: "Get a page of the space's current revision by its path"},
		func(ctx context.Context, in *pathIn) (*PageOut, error) {
			return AsIs(s.PageByPath(ctx, in.On(in.at(ctx)), in.PagePath, in.Format, in.Metadata))
		})
	httpapi.Register(api, httpapi.Op{ID: "listSpacePageMetaLinks", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: "/v1/spaces/{spaceId}/content/page/{pageId}/meta-links", Tag: tag,
		Summary: "Get the meta links of a page of the space's current revision"},
		func(ctx context.Context, in *pageRefIn) (*MetaLinksOut, error) {
			return AsIs(s.PageMetaLinks(ctx, in.at(ctx), in.PageID))
		})
	httpapi.Register(api, httpapi.Op{ID: "getDocumentById", Needs: access.Role(access.ReadContent), Visitor: true, Method: http.MethodGet, Path: "/v1/spaces/{spaceId}/documents/{documentId}", Tag: tag,
		Summary: "Get a document of the space by id (a page's documentId)"},
		func(ctx context.Context, in *documentIn) (*DocumentOut, error) {
			return AsIs(s.Document(ctx, in.SpaceID, in.DocumentID))
		})
}

type pageRefIn struct {
	SpacePath
	PageID string `path:"pageId" maxLength:"64"`
}
