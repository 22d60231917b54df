package content

import (
	"net/url"
	"strconv"
	"time"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/paging"
	"github.com/galleydocs/galley/shared/store"
)

// DownloadTTL is how long a download link stays valid at least; links are
// stable within an hour (so clients may cache them) and valid an hour more.
const DownloadTTL = time.Hour

// Downloads signs and checks the links the API answers for use without a
// token: file download links, and the upload and read links of uploaded
// objects (uploads.go). A link carries what it grants and an expiry,
// signed with the installation's key and bound to its scope (the
// page-token signer's scheme): it works until it expires, and only for
// what it names.
type Downloads struct {
	cursors *paging.Signer
	now     func() time.Time
}

// NewDownloads returns a signer using the key of cursors (the lists'
// cursor signer).
func NewDownloads(cursors *paging.Signer, now func() time.Time) *Downloads {
	return &Downloads{cursors: cursors, now: now}
}

// sign returns a link's token granting k (whose SK it sets to the expiry,
// a Unix time; 0: never) in scope.
func (d *Downloads) sign(scope string, expires int64, k store.Key) string {
	k.SK = strconv.FormatInt(expires, 10)
	return d.cursors.Cursor(scope, k)
}

// check verifies a token of scope and its expiry, and returns what it
// grants; a bad or expired token is Forbidden with message bad.
func (d *Downloads) check(scope, token, bad string) (store.Key, error) {
	k, err := d.cursors.After(scope, token)
	if err != nil || k == nil {
		return store.Key{}, apperr.Forbiddenf("%s", bad)
	}
	expires, err := strconv.ParseInt(k.SK, 10, 64)
	if err != nil || expires != 0 && d.now().Unix() >= expires {
		return store.Key{}, apperr.Forbiddenf("%s", bad)
	}
	return *k, nil
}

func downloadScope(spaceID, fileID string) string { return "download:" + spaceID + ":" + fileID }

// URL returns a signed download link of f under apiBase.
func (d *Downloads) URL(apiBase, spaceID string, f *File) string {
	expires := d.now().Truncate(DownloadTTL).Add(2 * DownloadTTL).Unix()
	token := d.sign(downloadScope(spaceID, f.ID), expires, store.Key{PK: f.Blob, IPK: f.ContentType, ISK: f.Name})
	return apiBase + "/v1/spaces/" + url.PathEscape(spaceID) + "/files/" + url.PathEscape(f.ID) + "/download?token=" + url.QueryEscape(token)
}

// Download is what a valid link grants.
type Download struct {
	Blob, ContentType, Name string
}

// Check verifies a link's token for a space's file.
func (d *Downloads) Check(spaceID, fileID, token string) (Download, error) {
	k, err := d.check(downloadScope(spaceID, fileID), token, "invalid or expired download link")
	if err != nil {
		return Download{}, err
	}
	return Download{Blob: k.PK, ContentType: k.IPK, Name: k.ISK}, nil
}
