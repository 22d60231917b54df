package contenthttp

import (
	"context"
	"net/http"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/httpapi"
)

// StorageFileMetadata describes the file a client will upload (GitBook's
// StorageFileMetadata).
type StorageFileMetadata struct {
	Name string `json:"name" minLength:"1" maxLength:"256" doc:"The file's name, with its extension"`
	Type string `json:"type" minLength:"1" maxLength:"255" doc:"The file's media type: the upload's PUT must send it as its Content-Type. Images, PDF, text, CSV and JSON for organization_file; ZIP archives and Word documents besides for import_file; WOFF, WOFF2, TTF and OTF fonts for customization_font"`
	Size int64  `json:"size" minimum:"1" maximum:"4194304" doc:"The file's size in bytes: the upload's PUT must send exactly this many (at most 4 MiB)"`
}

// StorageUploadBody is the body of generateStorageUploadURL.
type StorageUploadBody struct {
	File StorageFileMetadata `json:"file"`
	Kind string              `json:"kind" enum:"customization_font,import_file,organization_file" doc:"What the file is for; it decides the media types accepted"`
}

// StorageUploadURL answers an upload request (GitBook's StorageUploadURL).
type StorageUploadURL struct {
	Object string `json:"object" enum:"storage-signed-url"`
	URL    string `json:"url" format:"uri" doc:"Where to PUT the bytes, with the file's type as Content-Type, for 15 minutes: a pre-signed S3 URL in AWS, a signed URL of Galley in local mode"`
	Key    string `json:"key" minLength:"1" maxLength:"512" doc:"The object's key: an insert_files change names the uploaded file by it (storageKey)"`
	// DownloadURL is Galley's: where the object is read once uploaded,
	// by anyone with the link (a site's logo or icon takes it).
	DownloadURL string `json:"downloadURL" format:"uri" doc:"Galley's extension: a signed link that serves the uploaded file to anyone, without expiry (a site's logo, icon or favicon may point at it)"`
}

// StorageFileParams name an uploaded object and carry its link's token.
type StorageFileParams struct {
	OrganizationID string `path:"organizationId" maxLength:"64"`
	FileID         string `path:"fileId" maxLength:"64"`
	Token          string `query:"token" maxLength:"2048" doc:"The signature of the link"`
}

type storageUploadIn struct {
	StorageFileParams
	ContentType string `header:"Content-Type" maxLength:"255"`
	RawBody     []byte `contentType:"application/octet-stream" doc:"The file's bytes, exactly the size given, with the type given as Content-Type"`
}

// registerStorage adds the upload operations: GitBook's upload URL, and
// Galley's own PUT and read of an uploaded object.
func registerStorage(api *httpapi.API, s *content.Service) {
	const tag = "Storage"
	files := "/v1/orgs/{organizationId}/storage/files/{fileId}"
	httpapi.Register(api, httpapi.Op{ID: "generateStorageUploadURL", Needs: access.Role(access.CreateContent), Method: http.MethodPost,
		Path: "/v1/orgs/{organizationId}/storage/upload", Tag: tag, Status: http.StatusCreated,
		Summary: "Get a URL to upload a file to (then name it in insert_files, or show it as a site's logo or icon)"},
		func(ctx context.Context, in *struct {
			OrganizationID string `path:"organizationId" maxLength:"64"`
			Body           StorageUploadBody
		}) (*struct{ Body StorageUploadURL }, error) {
			g, err := s.UploadURL(ctx, httpapi.APIURL(ctx), in.OrganizationID, content.UploadRequest{
				Name: in.Body.File.Name, ContentType: in.Body.File.Type, Size: in.Body.File.Size, Kind: in.Body.Kind})
			if err != nil {
				return nil, err
			}
			return &struct{ Body StorageUploadURL }{Body: StorageUploadURL{Object: "storage-signed-url", URL: g.URL, Key: g.Key, DownloadURL: g.ReadURL}}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "uploadStorageFile", Needs: access.SignedLink, Method: http.MethodPut, Path: files, Tag: tag,
		MaxBodyBytes: content.MaxUploadBytes,
		Summary:      "Upload a file's bytes through the signed URL generateStorageUploadURL answered (local mode; in AWS the URL is S3's)"},
		func(ctx context.Context, in *storageUploadIn) (*struct{}, error) {
			return &struct{}{}, s.Upload(ctx, in.OrganizationID, in.FileID, in.Token, in.ContentType, in.RawBody)
		})
	httpapi.Register(api, httpapi.Op{ID: "downloadStorageFile", Needs: access.SignedLink, Method: http.MethodGet, Path: files, Tag: tag,
		Summary: "Read an uploaded file through its signed link (generateStorageUploadURL's downloadURL)"},
		func(ctx context.Context, in *StorageFileParams) (*downloadOut, error) {
			dl, data, err := s.Stored(ctx, in.OrganizationID, in.FileID, in.Token)
			if err != nil {
				return nil, err
			}
			// The link does not expire, and its object changes only while
			// its upload URL lasts (content.UploadTTL).
			return fileOut(dl, data, "public, max-age=3600"), nil
		})
}
