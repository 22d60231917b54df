package changerequestshttp

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/changerequests"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/httpapi"
)

// maxBatchBytes bounds an authoring request (files travel in it as
// base64; Lambda accepts payloads up to 6 MB).
const maxBatchBytes = 5 << 20

// ContentChangeInput is one change of POST .../content (see content.Change).
type ContentChangeInput struct {
	Type        string           `json:"type" enum:"insert_page,update_page,delete_page,insert_files"`
	Ref         string           `json:"ref,omitempty" maxLength:"64" pattern:"^[A-Za-z0-9_.-]+$" doc:"insert_page: a name for the new page, usable by later changes of the batch as into or page"`
	Page        string           `json:"page,omitempty" maxLength:"64" doc:"update_page, delete_page: the page's id, or the ref of a page inserted earlier in the batch"`
	Into        *string          `json:"into,omitempty" maxLength:"64" doc:"The parent page (id or ref); empty for the top level"`
	At          *int             `json:"at,omitempty" minimum:"0" maximum:"100000" doc:"Index among the parent's children (default: last)"`
	PageType    string           `json:"pageType,omitempty" enum:"document,group,link" doc:"insert_page: the page's type (default document)"`
	Markdown    *string          `json:"markdown,omitempty" maxLength:"1048576" doc:"The page as markdown: optional frontmatter, a leading # heading for the title, the body"`
	Title       *string          `json:"title,omitempty" minLength:"1" maxLength:"200"`
	Slug        *string          `json:"slug,omitempty" maxLength:"100" pattern:"^[\\p{Ll}\\p{Lo}\\p{Nd}]+(-[\\p{Ll}\\p{Lo}\\p{Nd}]+)*$"`
	Description *string          `json:"description,omitempty" maxLength:"300"`
	Emoji       *string          `json:"emoji,omitempty" maxLength:"50"`
	Icon        *string          `json:"icon,omitempty" maxLength:"50"`
	Hidden      *bool            `json:"hidden,omitempty"`
	URL         *string          `json:"url,omitempty" maxLength:"2048" format:"uri" doc:"A link page's target"`
	Files       []InputFileEntry `json:"files,omitempty" maxItems:"20" doc:"insert_files: the files"`
}

// InputFileEntry is a file of an insert_files change.
type InputFileEntry struct {
	Ref         string `json:"ref,omitempty" maxLength:"64" pattern:"^[A-Za-z0-9_.-]+$" doc:"A name for the file: markdown of the batch may point at /files/<ref>"`
	Name        string `json:"name" minLength:"1" maxLength:"255"`
	ContentType string `json:"contentType,omitempty" maxLength:"255" doc:"Default: sniffed from the bytes"`
	Content     string `json:"content,omitempty" maxLength:"1398104" doc:"The bytes, base64 (up to 1 MB)"`
	URL         string `json:"url,omitempty" maxLength:"2048" format:"uri" doc:"Where to fetch the bytes (public http or https)"`
}

// ApplyChangesBody is the body of POST .../change-requests/{id}/content.
type ApplyChangesBody struct {
	Changes []ContentChangeInput `json:"changes" minItems:"1" maxItems:"50"`
}

type authorIn struct {
	SpaceID         string `path:"spaceId" maxLength:"64"`
	ChangeRequestID string `path:"changeRequestId" maxLength:"64"`
	Body            ApplyChangesBody
}

// AuthoredChangeRequest answers an authoring batch: the request, with the
// ids its refs got.
type AuthoredChangeRequest struct {
	content.ChangeRequest
	Refs map[string]string `json:"refs" doc:"The ids of the pages and files the batch's refs name"`
}

type authorOut struct {
	Body AuthoredChangeRequest
}

// batchOf converts the HTTP body.
func batchOf(body ApplyChangesBody) (changerequests.Batch, error) {
	b := changerequests.Batch{Changes: make([]content.Change, len(body.Changes)), Inputs: make([][]changerequests.FileInput, len(body.Changes))}
	for i, c := range body.Changes {
		b.Changes[i] = content.Change{Type: c.Type, Ref: c.Ref, Page: c.Page, Into: c.Into, At: c.At, PageType: c.PageType,
			Markdown: c.Markdown, Title: c.Title, Slug: c.Slug, Description: c.Description, Emoji: c.Emoji, Icon: c.Icon,
			Hidden: c.Hidden, URL: c.URL}
		if c.Type == content.InsertFiles && len(c.Files) == 0 {
			return b, apperr.Field(fmt.Sprintf("changes[%d].files", i), "insert_files needs files")
		}
		for j, f := range c.Files {
			in := changerequests.FileInput{Ref: f.Ref, Name: f.Name, ContentType: f.ContentType, URL: f.URL}
			if f.Content != "" {
				data, err := base64.StdEncoding.DecodeString(f.Content)
				if err != nil {
					return b, apperr.Field(fmt.Sprintf("changes[%d].files[%d].content", i, j), "not base64")
				}
				in.Data = data
			}
			b.Inputs[i] = append(b.Inputs[i], in)
		}
	}
	return b, nil
}

// registerAuthoring adds POST .../content.
func registerAuthoring(api *httpapi.API, s *changerequests.Service) {
	httpapi.Register(api, httpapi.Op{ID: "applyChangesToChangeRequest", Method: http.MethodPost,
		Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content", Tag: "Change request content",
		MaxBodyBytes: maxBatchBytes,
		Summary:      "Apply a batch of changes (insert, update, delete pages; insert files) to a draft or open change request"},
		func(ctx context.Context, in *authorIn) (*authorOut, error) {
			b, err := batchOf(in.Body)
			if err != nil {
				return nil, err
			}
			a, err := s.Author(ctx, in.SpaceID, in.ChangeRequestID, b)
			if err != nil {
				return nil, err
			}
			v, err := view(ctx, s, a.ChangeRequest, a.Space)
			if err != nil {
				return nil, err
			}
			return &authorOut{Body: AuthoredChangeRequest{ChangeRequest: v, Refs: a.Refs}}, nil
		})
}
