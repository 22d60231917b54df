package changerequestshttp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"

	"github.com/danielgtaylor/huma/v2"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/changerequests"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/ids"
)

// maxBatchBytes bounds an authoring request (files travel in it as
// base64; Lambda accepts payloads up to 6 MB).
const maxBatchBytes = 5 << 20

// maxBase64File is the most bytes a base64 file may decode to (GitBook's
// limit; a larger file is fetched from its url).
const maxBase64File = 1 << 20

// ContentChangeInput is one change of POST .../content, in GitBook's shape
// (the reference's ChangeRequestContentChange): an operation and its
// fields. See content.Change for what each does.
type ContentChangeInput struct {
	Operation     string           `json:"operation" enum:"insert_page,update_page,delete_page,revert_page,insert_files,insert_reusable_content,update_reusable_content,delete_reusable_content,update_variables"`
	Page          ids.ID           `json:"page,omitempty" doc:"update_page, delete_page, revert_page: the page's id (or the ref of a page inserted earlier in the batch); update_variables: the document page whose variables change (absent: the space's)"`
	Ref           string           `json:"ref,omitempty" maxLength:"100" pattern:"^[A-Za-z0-9_./-]+$" doc:"insert_page: a name for the new page, valid in this request only; pages of the batch link to it as ./<ref>.md. insert_reusable_content: a name for the new reusable content; bodies of the batch include it as {% include \"/reusable-contents/<ref>\" %} and later changes name it by it"`
	Into          *ids.ID          `json:"into,omitempty" nullable:"true" doc:"The parent page (id or ref); null (update_page) or omitted (insert_page) for the top level"`
	At            *int             `json:"at,omitempty" minimum:"0" maximum:"100000" doc:"Index among the parent's children (default: last)"`
	Type          string           `json:"type,omitempty" enum:"document,group,link,computed" doc:"insert_page (Galley's extension): the page's type, document by default; a group sits at the top level, a link needs href, a computed page computed"`
	Computed      *ComputedInput   `json:"computed,omitempty" doc:"insert_page of type computed: what the page is computed from (the reference's ComputedContentSourceRevision; Galley computes builtin:openapi)"`
	Href          *string          `json:"href,omitempty" maxLength:"2048" format:"uri" doc:"A link page's target (Galley's extension)"`
	Document      *DocumentInput   `json:"document,omitempty" doc:"The page's content: {markdown} (its frontmatter and leading heading set the page's fields) or {document} (a document tree). insert_reusable_content, update_reusable_content: the body ({markdown}: optional frontmatter with a title, then the body, a leading heading included; or {document}). Includes of reusable contents by id must name one of the revision (or of the batch, by ref)"`
	Title         *string          `json:"title,omitempty" minLength:"1" maxLength:"200"`
	Slug          *string          `json:"slug,omitempty" maxLength:"100" pattern:"^[\\p{Ll}\\p{Lo}\\p{Nd}]+(-[\\p{Ll}\\p{Lo}\\p{Nd}]+)*$"`
	Description   *string          `json:"description,omitempty" maxLength:"300"`
	Emoji         *string          `json:"emoji,omitempty" maxLength:"50" doc:"\"\" removes it"`
	Icon          *string          `json:"icon,omitempty" maxLength:"50" doc:"\"\" removes it"`
	Hidden        *bool            `json:"hidden,omitempty"`
	NoIndex       *bool            `json:"noIndex,omitempty"`
	NoRobotsIndex *bool            `json:"noRobotsIndex,omitempty"`
	Condition     *string          `json:"condition,omitempty" maxLength:"1024" doc:"insert_page, update_page: the page's adaptive-content condition (an expression on visitor.claims, as sections'); \"\" removes it"`
	Revision      ids.ID           `json:"revision,omitempty" doc:"revert_page: the revision to revert the page to (default: the request's base)"`
	Block         []string         `json:"block,omitempty" nullable:"false" maxItems:"100" doc:"revert_page: block-level reverts are not supported"`
	Files         []InputFileEntry `json:"files,omitempty" nullable:"false" maxItems:"20" doc:"insert_files: the files"`
	// ReusableContent and Variables are Galley's operations on reusable
	// contents and variables (GitBook's content update defines none).
	ReusableContent ids.ID         `json:"reusableContent,omitempty" doc:"update_reusable_content, delete_reusable_content: the reusable content's id (or the ref of one inserted earlier in the batch)"`
	Variables       VariablesInput `json:"variables,omitempty" doc:"update_variables: names to set to a value, or to remove (null); names not given are kept"`
	Nulls           httpapi.Nulls  `json:"-"`
}

// VariablesInput are the variables an update_variables change sets (a
// value) or removes (null).
type VariablesInput map[string]any

// Schema documents the map: at most content.MaxVariablesPerChange names,
// each a string (at most 256 bytes), a number, a boolean or null.
func (VariablesInput) Schema(r huma.Registry) *huma.Schema {
	lo, hi := 1, content.MaxVariablesPerChange
	s := &huma.Schema{Type: huma.TypeObject, MinProperties: &lo, MaxProperties: &hi,
		Description: "Names (a letter, then letters, digits and underscores) to values: a string of at most 256 bytes, a number, a boolean; null removes the name",
		AdditionalProperties: &huma.Schema{OneOf: []*huma.Schema{
			{Type: huma.TypeString, MaxLength: ptr(content.MaxVariableString), Nullable: true},
			{Type: huma.TypeNumber},
			{Type: huma.TypeBoolean},
		}}}
	return s
}

func ptr[T any](v T) *T { return &v }

// ComputedInput is what a computed page is computed from (the
// reference's ComputedContentSourceRevisionOpenAPI).
type ComputedInput struct {
	Type         string                  `json:"type" enum:"builtin:openapi"`
	Dependencies ComputedDependencyInput `json:"dependencies"`
	Props        *ComputedPropsInput     `json:"props,omitempty"`
}

// ComputedDependencyInput names the spec.
type ComputedDependencyInput struct {
	Spec struct {
		Ref struct {
			Kind string `json:"kind" enum:"openapi"`
			Spec ids.ID `json:"spec" minLength:"1" maxLength:"2048" doc:"The spec's slug (Galley also accepts its id or its source URL)"`
		} `json:"ref"`
	} `json:"spec"`
}

// ComputedPropsInput are the computation's parameters.
type ComputedPropsInput struct {
	Models       *bool  `json:"models,omitempty"`
	DownloadLink *bool  `json:"downloadLink,omitempty"`
	Grouping     string `json:"grouping,omitempty" enum:"by-tag,by-operation" doc:"One generated page per tag (default) or per operation"`
}

// DocumentInput is a page's content as a client sends it.
type DocumentInput struct {
	Markdown *string        `json:"markdown,omitempty" maxLength:"1048576" doc:"The page as markdown: optional frontmatter, a leading # heading for the title, the body"`
	Document map[string]any `json:"document,omitempty" doc:"The page as a document tree ({object: document, nodes: [...]})"`
}

// InputFileEntry is a file of an insert_files change: bytes from url,
// base64, or an upload (storageKey, Galley's: GitBook's document names no
// way to insert an uploaded file).
type InputFileEntry struct {
	Ref         string `json:"ref,omitempty" maxLength:"100" pattern:"^[A-Za-z0-9_./-]+$" doc:"A name for the file, valid in this request only: pages of the batch link to it as ./<ref> (or /files/<ref>)"`
	Name        string `json:"name" minLength:"1" maxLength:"256"`
	ContentType string `json:"contentType,omitempty" maxLength:"255" doc:"Required with base64; default: the type the url serves, else sniffed"`
	URL         string `json:"url,omitempty" maxLength:"2048" format:"uri" doc:"Where to fetch the bytes (public http or https)"`
	Base64      string `json:"base64,omitempty" maxLength:"1398104" doc:"The bytes, base64 (up to 1 MB)"`
	StorageKey  string `json:"storageKey,omitempty" maxLength:"512" doc:"Galley's extension: the key generateStorageUploadURL answered, once the bytes are PUT to its url (up to 4 MiB; an upload to the space's organization)"`
}

// ApplyChangesBody is the body of POST .../change-requests/{id}/content.
type ApplyChangesBody struct {
	Changes []ContentChangeInput `json:"changes" nullable:"false" minItems:"1" maxItems:"50"`
}

type authorIn struct {
	ChangeRequestPath
	Compat httpapi.OptionalBool `query:"compat" doc:"true (default): answer the change request; false: the change request, the pages affected and the files inserted"`
	Body   ApplyChangesBody
}

// PageRef points at a page an authoring batch created or updated.
type PageRef struct {
	Object string      `json:"object" enum:"page"`
	ID     string      `json:"id"`
	URLs   PageRefURLs `json:"urls"`
}

// PageRefURLs is where a page's content is read.
type PageRefURLs struct {
	Location string `json:"location" format:"uri"`
}

// ContentUpdateChange is one page an authoring batch affected (the
// reference's ChangeRequestContentUpdateChange): created_page and
// updated_page carry a PageRef, deleted_page the page's id.
type ContentUpdateChange struct {
	Object string
	Ref    string
	Page   PageRef
	// Deleted is the id of a deleted page.
	Deleted string
}

// MarshalJSON writes the change in its form.
func (c ContentUpdateChange) MarshalJSON() ([]byte, error) {
	switch c.Object {
	case content.PageDeleted:
		return json.Marshal(struct {
			Object string `json:"object"`
			Page   string `json:"page"`
		}{c.Object, c.Deleted})
	case content.PageCreated:
		return json.Marshal(struct {
			Object string  `json:"object"`
			Ref    string  `json:"ref,omitempty"`
			Page   PageRef `json:"page"`
		}{c.Object, c.Ref, c.Page})
	}
	return json.Marshal(struct {
		Object string  `json:"object"`
		Page   PageRef `json:"page"`
	}{c.Object, c.Page})
}

type createdPage struct {
	Object string  `json:"object" enum:"created_page"`
	Ref    string  `json:"ref,omitempty" doc:"The ref the insert_page change gave"`
	Page   PageRef `json:"page"`
}

type updatedPage struct {
	Object string  `json:"object" enum:"updated_page"`
	Page   PageRef `json:"page"`
}

type deletedPage struct {
	Object string `json:"object" enum:"deleted_page"`
	Page   string `json:"page" doc:"The deleted page's id"`
}

// Schema documents the three forms.
func (ContentUpdateChange) Schema(r huma.Registry) *huma.Schema {
	return &huma.Schema{OneOf: []*huma.Schema{
		r.Schema(reflect.TypeFor[createdPage](), true, "ContentUpdateCreatedPage"),
		r.Schema(reflect.TypeFor[updatedPage](), true, "ContentUpdateUpdatedPage"),
		r.Schema(reflect.TypeFor[deletedPage](), true, "ContentUpdateDeletedPage"),
	}}
}

// ContentUpdate answers an authoring batch with compat=false.
type ContentUpdate struct {
	ChangeRequest content.ChangeRequest  `json:"changeRequest"`
	Changes       []ContentUpdateChange  `json:"changes" nullable:"false" doc:"One entry per page affected, in the order the batch first touched them"`
	InsertedFiles []content.RevisionFile `json:"insertedFiles" nullable:"false" doc:"The files the batch inserted, in order"`
	Refs          map[string]string      `json:"refs" doc:"Galley's extension: the ids the batch's refs (pages and files) got"`
}

// AuthorAnswer is the change request (compat=true) or the ContentUpdate
// (compat=false).
type AuthorAnswer struct {
	ChangeRequest *content.ChangeRequest
	Update        *ContentUpdate
}

// MarshalJSON writes the answer in its form.
func (a AuthorAnswer) MarshalJSON() ([]byte, error) {
	if a.Update != nil {
		return json.Marshal(a.Update)
	}
	return json.Marshal(a.ChangeRequest)
}

// Schema documents the two forms.
func (AuthorAnswer) Schema(r huma.Registry) *huma.Schema {
	return &huma.Schema{OneOf: []*huma.Schema{
		r.Schema(reflect.TypeFor[content.ChangeRequest](), true, ""),
		r.Schema(reflect.TypeFor[ContentUpdate](), true, ""),
	}}
}

type authorOut struct {
	Body AuthorAnswer
}

// batchOf converts the HTTP body.
func batchOf(body ApplyChangesBody) (changerequests.Batch, error) {
	b := changerequests.Batch{Changes: make([]content.Change, len(body.Changes)), Inputs: make([][]changerequests.FileInput, len(body.Changes))}
	for i, c := range body.Changes {
		field := func(name string) string { return fmt.Sprintf("changes[%d].%s", i, name) }
		ch := content.Change{Type: c.Operation, Page: string(c.Page), Ref: c.Ref, Into: (*string)(c.Into), At: c.At, Title: c.Title, Slug: c.Slug,
			Description: c.Description, Emoji: c.Emoji, Icon: c.Icon, Hidden: c.Hidden, NoIndex: c.NoIndex,
			NoRobotsIndex: c.NoRobotsIndex, Condition: c.Condition, Revision: string(c.Revision), Block: c.Block, PageType: c.Type, URL: c.Href,
			ReusableContent: string(c.ReusableContent), Variables: c.Variables}
		if c.Nulls.Has("into") {
			if c.Operation != content.UpdatePage {
				return b, apperr.Field(field("into"), "null is for update_page (to the top level); omit it to insert at the top level")
			}
			top := ""
			ch.Into = &top
		}
		for name, set := range map[string]bool{"page": c.Page != "", "ref": c.Ref != "", "into": c.Into != nil || c.Nulls.Has("into"),
			"at": c.At != nil, "document": c.Document != nil, "type": c.Type != "", "computed": c.Computed != nil, "href": c.Href != nil, "revision": c.Revision != "", "block": c.Block != nil, "files": c.Files != nil,
			"reusableContent": c.ReusableContent != "", "variables": c.Variables != nil, "title": c.Title != nil, "slug": c.Slug != nil, "description": c.Description != nil,
			"emoji": c.Emoji != nil, "icon": c.Icon != nil, "hidden": c.Hidden != nil, "noIndex": c.NoIndex != nil, "noRobotsIndex": c.NoRobotsIndex != nil, "condition": c.Condition != nil} {
			if set && !allowed(c.Operation, name) {
				return b, apperr.Field(field(name), "not a field of %s", c.Operation)
			}
		}
		switch c.Operation {
		case content.InsertPage:
			if c.Document == nil && (c.Type == "" || c.Type == content.TypeDocument) {
				return b, apperr.Field(field("document"), "insert_page needs a document ({markdown} or {document})")
			}
			if (c.Computed != nil) != (c.Type == content.TypeComputed) {
				return b, apperr.Field(field("computed"), "a page of type computed, and only one, needs computed")
			}
			if in := c.Computed; in != nil {
				src := &content.ComputedSource{Type: in.Type}
				src.Dependencies.Spec.Ref = content.OpenAPIRef{Kind: in.Dependencies.Spec.Ref.Kind, Spec: string(in.Dependencies.Spec.Ref.Spec)}
				if in.Props != nil {
					src.Props = content.ComputedProps{Models: in.Props.Models, DownloadLink: in.Props.DownloadLink, Grouping: in.Props.Grouping}
				}
				ch.Computed = src
			}
		case content.UpdatePage, content.DeletePage, content.RevertPage:
			if c.Page == "" {
				return b, apperr.Field(field("page"), "%s needs the page's id", c.Operation)
			}
		case content.InsertFiles:
			if len(c.Files) == 0 {
				return b, apperr.Field(field("files"), "insert_files needs files")
			}
		case content.UpdateReusableContent, content.DeleteReusableContent:
			if c.ReusableContent == "" {
				return b, apperr.Field(field("reusableContent"), "%s needs the reusable content's id", c.Operation)
			}
		case content.UpdateVariables:
			if len(c.Variables) == 0 {
				return b, apperr.Field(field("variables"), "update_variables needs variables")
			}
		}
		if d := c.Document; d != nil {
			md, err := d.markdown(field("document")) // {}: an empty document
			if err != nil {
				return b, err
			}
			ch.Markdown = &md
		}
		b.Changes[i] = ch
		for j, f := range c.Files {
			ff := func(name string) string { return fmt.Sprintf("changes[%d].files[%d].%s", i, j, name) }
			in := changerequests.FileInput{Ref: f.Ref, Name: f.Name, ContentType: f.ContentType, URL: f.URL, StorageKey: f.StorageKey}
			sources := 0
			for _, set := range []bool{f.URL != "", f.Base64 != "", f.StorageKey != ""} {
				if set {
					sources++
				}
			}
			switch {
			case sources > 1:
				return b, apperr.Field(ff("base64"), "give one of url, base64 and storageKey")
			case sources == 0:
				return b, apperr.Field(ff("url"), "a file needs a url, base64 bytes or a storageKey")
			case f.Base64 != "":
				if f.ContentType == "" {
					return b, apperr.Field(ff("contentType"), "is required with base64")
				}
				data, err := base64.StdEncoding.DecodeString(f.Base64)
				if err != nil {
					return b, apperr.Field(ff("base64"), "not base64")
				}
				if len(data) > maxBase64File {
					return b, apperr.Field(ff("base64"), "at most %d bytes inline; give a url for larger files", maxBase64File)
				}
				in.Data = data
			}
			b.Inputs[i] = append(b.Inputs[i], in)
		}
	}
	return b, nil
}

// allowed tells whether an operation takes a field.
func allowed(op, field string) bool {
	reusable := op == content.InsertReusableContent || op == content.UpdateReusableContent
	switch field {
	case "page":
		return op == content.UpdatePage || op == content.DeletePage || op == content.RevertPage || op == content.UpdateVariables
	case "ref":
		return op == content.InsertPage || op == content.InsertReusableContent
	case "type", "computed":
		return op == content.InsertPage
	case "href":
		return op == content.InsertPage || op == content.UpdatePage
	case "into", "at":
		return op == content.InsertPage || op == content.UpdatePage
	case "document":
		return op == content.InsertPage || op == content.UpdatePage || reusable
	case "title":
		return !isExtra(op) || reusable
	case "slug", "description", "emoji", "icon", "hidden", "noIndex", "noRobotsIndex", "condition":
		return !isExtra(op)
	case "reusableContent":
		return op == content.UpdateReusableContent || op == content.DeleteReusableContent
	case "variables":
		return op == content.UpdateVariables
	case "revision", "block":
		return op == content.RevertPage
	case "files":
		return op == content.InsertFiles
	}
	return true
}

// isExtra tells the operations on reusable contents and variables, which
// take none of a page's fields.
func isExtra(op string) bool {
	switch op {
	case content.InsertReusableContent, content.UpdateReusableContent, content.DeleteReusableContent, content.UpdateVariables:
		return true
	}
	return false
}

// registerAuthoring adds POST .../content.
func registerAuthoring(api *httpapi.API, s *changerequests.Service) {
	c := s.Content()
	httpapi.Register(api, httpapi.Op{ID: "updateChangeRequestContent", Needs: access.Role(access.EditContent), Method: http.MethodPost,
		Path: "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content", Tag: "Change request content",
		MaxBodyBytes: maxBatchBytes,
		Summary:      "Apply a batch of changes (insert, update, delete, revert pages; insert files; insert, update, delete reusable contents; update variables) to a draft or open change request"},
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
			if !in.Compat.Set || in.Compat.Value {
				return &authorOut{Body: AuthorAnswer{ChangeRequest: &v}}, nil
			}
			up := &ContentUpdate{ChangeRequest: v, Changes: []ContentUpdateChange{}, InsertedFiles: []content.RevisionFile{}, Refs: a.Refs}
			base := httpapi.APIURL(ctx) + "/v1/spaces/" + a.Space.ID + "/change-requests/" + a.ChangeRequest.ID + "/content/page/"
			for _, o := range a.Outcomes {
				ch := ContentUpdateChange{Object: o.Kind, Ref: o.Ref, Deleted: o.Page}
				if o.Kind != content.PageDeleted {
					ch.Page = PageRef{Object: "page", ID: o.Page, URLs: PageRefURLs{Location: base + o.Page}}
				}
				up.Changes = append(up.Changes, ch)
			}
			for _, id := range a.Files {
				f, err := c.File(ctx, at(ctx, a.Space.ID, a.ChangeRequest.ID), id, false)
				if err != nil {
					return nil, err
				}
				up.InsertedFiles = append(up.InsertedFiles, f)
			}
			return &authorOut{Body: AuthorAnswer{Update: up}}, nil
		})
}
