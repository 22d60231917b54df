package content

import (
	"context"
	"errors"
	"mime"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/ids"
	"github.com/galleydocs/galley/shared/store"
)

// Uploads (docs/storage.md, "Uploads"): a member who may create content
// asks for an upload URL, PUTs the bytes to it (S3 directly in AWS, Galley
// in local mode), then names the object by its key in an insert_files
// change, or shows it through its read link (a site's logo or icon). An
// uploaded object is a blob under uploads/<organization>/<id>; no record
// describes it: the signed links carry its type, size and name.

// MaxUploadBytes is the largest object an upload URL lets a client write:
// 4 MiB, so that the file, base64-encoded in a Lambda function's answer
// (downloads are served by the content function), stays under Lambda's
// 6 MB response limit.
const MaxUploadBytes = 4 << 20

// UploadTTL is how long an upload URL stays valid.
const UploadTTL = 15 * time.Minute

// The kinds of upload (GitBook's StorageUploadKind).
const (
	UploadOrganizationFile = "organization_file"
	UploadImportFile       = "import_file"
	UploadFont             = "customization_font"
)

// UploadKinds are the kinds an upload may name, in the API's order.
var UploadKinds = []string{UploadFont, UploadImportFile, UploadOrganizationFile}

// uploadTypes are the media types each kind accepts: images and documents
// for files (PDF, text, CSV, JSON), archives and Word documents besides
// for imports, web fonts for fonts. HTML and scripts are refused: uploaded
// objects are served from the API's origin.
var uploadTypes = func() map[string][]string {
	files := []string{"image/png", "image/jpeg", "image/gif", "image/webp", "image/avif", "image/svg+xml",
		"image/x-icon", "image/vnd.microsoft.icon", "application/pdf", "text/plain", "text/markdown", "text/csv", "application/json"}
	imports := append(slices.Clone(files), "application/zip",
		"application/vnd.openxmlformats-officedocument.wordprocessingml.document")
	return map[string][]string{
		UploadOrganizationFile: files,
		UploadImportFile:       imports,
		UploadFont:             {"font/woff2", "font/woff", "font/ttf", "font/otf"},
	}
}()

// UploadTypes returns the media types an upload of kind accepts.
func UploadTypes(kind string) []string { return slices.Clone(uploadTypes[kind]) }

// UploadRequest is what a client says of the file it will upload.
type UploadRequest struct {
	Name, ContentType, Kind string
	Size                    int64
}

// UploadGrant answers an upload request.
type UploadGrant struct {
	// URL takes one PUT of the bytes, with the request's Content-Type and
	// exactly its size, until it expires (UploadTTL).
	URL string
	// Key names the object (insert_files' storageKey).
	Key string
	// ReadURL serves the object once uploaded, to anyone, without expiry
	// (a site's logo or icon).
	ReadURL string
}

const uploadPrefix = "uploads/"

func uploadKey(orgID, fileID string) string { return uploadPrefix + orgID + "/" + fileID }

func uploadScope(orgID, fileID string) string { return "upload:" + orgID + ":" + fileID }
func storedScope(orgID, fileID string) string { return "stored:" + orgID + ":" + fileID }

// storagePath is the API path of an uploaded object: its local upload
// URL and its read link.
func storagePath(apiBase, orgID, fileID string) string {
	return apiBase + "/v1/orgs/" + url.PathEscape(orgID) + "/storage/files/" + url.PathEscape(fileID)
}

// UploadURL grants an upload of one file to organization orgID, whose
// member must be allowed to create content. The file's type must be one
// of its kind's (UploadTypes) and its size at most MaxUploadBytes; a
// refusal is Invalid naming file.type, file.size or kind. apiBase is the
// API's base URL, under which the local upload URL and the read link are.
func (s *Service) UploadURL(ctx context.Context, apiBase, orgID string, in UploadRequest) (UploadGrant, error) {
	if _, err := s.d.Authz.RequireOrg(ctx, orgID, access.CreateContent); err != nil {
		return UploadGrant{}, err
	}
	types, ok := uploadTypes[in.Kind]
	if !ok {
		return UploadGrant{}, apperr.Field("kind", "one of %s", strings.Join(UploadKinds, ", "))
	}
	if strings.TrimSpace(in.Name) == "" {
		return UploadGrant{}, apperr.Field("file.name", "a file needs a name")
	}
	mt, _, err := mime.ParseMediaType(in.ContentType)
	if err != nil || !slices.Contains(types, mt) {
		return UploadGrant{}, apperr.Field("file.type", "a %s upload takes %s", in.Kind, strings.Join(types, ", "))
	}
	if in.Size < 1 || in.Size > MaxUploadBytes {
		return UploadGrant{}, apperr.Field("file.size", "an upload has 1 to %d bytes", MaxUploadBytes)
	}
	now := s.d.Clock()
	fileID := ids.New(now)
	key := uploadKey(orgID, fileID)
	g := UploadGrant{Key: key,
		ReadURL: storagePath(apiBase, orgID, fileID) + "?token=" + url.QueryEscape(
			s.Downloads.sign(storedScope(orgID, fileID), 0, store.Key{IPK: in.ContentType, ISK: in.Name}))}
	if p, ok := s.d.Blobs.(blob.Presigner); ok {
		if g.URL, err = p.PresignPut(ctx, key, in.ContentType, in.Size, UploadTTL); err != nil {
			return UploadGrant{}, err
		}
		return g, nil
	}
	token := s.Downloads.sign(uploadScope(orgID, fileID), now.Add(UploadTTL).Unix(),
		store.Key{IPK: in.ContentType, ISK: strconv.FormatInt(in.Size, 10)})
	g.URL = storagePath(apiBase, orgID, fileID) + "?token=" + url.QueryEscape(token)
	return g, nil
}

// Upload stores the bytes of a local upload URL (where the blob store
// signs none): the token must be valid and unexpired (else Forbidden),
// contentType the one granted (else Invalid naming Content-Type) and data
// exactly the size granted (else Invalid naming the body), as S3 checks a
// pre-signed PUT's.
func (s *Service) Upload(ctx context.Context, orgID, fileID, token, contentType string, data []byte) error {
	k, err := s.Downloads.check(uploadScope(orgID, fileID), token, "invalid or expired upload URL")
	if err != nil {
		return err
	}
	if contentType != k.IPK {
		return apperr.Field("Content-Type", "the upload URL was signed for %q", k.IPK)
	}
	if size := strconv.Itoa(len(data)); size != k.ISK {
		return apperr.Field("body", "the upload URL was signed for %s bytes, not %s", k.ISK, size)
	}
	return s.d.Blobs.Put(ctx, uploadKey(orgID, fileID), data, contentType)
}

// Stored returns an uploaded object through its read link: its type and
// name, and its bytes (NotFound until it is uploaded).
func (s *Service) Stored(ctx context.Context, orgID, fileID, token string) (Download, []byte, error) {
	k, err := s.Downloads.check(storedScope(orgID, fileID), token, "invalid read link")
	if err != nil {
		return Download{}, nil, err
	}
	data, err := s.d.Blobs.Get(ctx, uploadKey(orgID, fileID))
	if errors.Is(err, blob.ErrNotFound) {
		return Download{}, nil, apperr.NotFoundf("nothing is uploaded at this link yet")
	}
	return Download{ContentType: k.IPK, Name: k.ISK}, data, err
}

// Uploaded returns the bytes of the object an upload of organization orgID
// wrote under key, for a caller already allowed to add files to a space of
// orgID. A key of another organization, a malformed one, an object not
// uploaded (yet) and one larger than MaxUploadBytes are Invalid, naming
// field.
func (s *Service) Uploaded(ctx context.Context, orgID, key, field string) ([]byte, error) {
	fileID, ok := strings.CutPrefix(key, uploadPrefix+orgID+"/")
	if !ok || fileID == "" || strings.Contains(fileID, "/") || blob.ValidateKey(key) != nil {
		return nil, apperr.Field(field, "not the key of an upload to this space's organization")
	}
	data, err := s.d.Blobs.Get(ctx, key)
	switch {
	case errors.Is(err, blob.ErrNotFound):
		return nil, apperr.Field(field, "nothing is uploaded under this key (PUT the bytes to the upload URL first)")
	case err != nil:
		return nil, err
	case len(data) > MaxUploadBytes:
		return nil, apperr.Field(field, "an uploaded file has at most %d bytes", MaxUploadBytes)
	}
	return data, nil
}
