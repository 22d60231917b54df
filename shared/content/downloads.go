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

// Downloads signs and checks file download links. A link carries the file's
// blob, content type and name and an expiry, signed with the installation's
// key and bound to the space and file (the page-token signer's scheme): it
// works without a token, until it expires, and only for that file.
type Downloads struct {
	cursors *paging.Signer
	now     func() time.Time
}

// NewDownloads returns a signer using the key of cursors (the lists'
// cursor signer).
func NewDownloads(cursors *paging.Signer, now func() time.Time) *Downloads {
	return &Downloads{cursors: cursors, now: now}
}

func downloadScope(spaceID, fileID string) string { return "download:" + spaceID + ":" + fileID }

// URL returns a signed download link of f under apiBase.
func (d *Downloads) URL(apiBase, spaceID string, f *File) string {
	expires := d.now().Truncate(DownloadTTL).Add(2 * DownloadTTL).Unix()
	token := d.cursors.Cursor(downloadScope(spaceID, f.ID), store.Key{PK: f.Blob, SK: strconv.FormatInt(expires, 10), IPK: f.ContentType, ISK: f.Name})
	return apiBase + "/v1/spaces/" + url.PathEscape(spaceID) + "/files/" + url.PathEscape(f.ID) + "/download?token=" + url.QueryEscape(token)
}

// Download is what a valid link grants.
type Download struct {
	Blob, ContentType, Name string
}

// Check verifies a link's token for a space's file.
func (d *Downloads) Check(spaceID, fileID, token string) (Download, error) {
	bad := apperr.Forbiddenf("invalid or expired download link")
	k, err := d.cursors.After(downloadScope(spaceID, fileID), token)
	if err != nil || k == nil {
		return Download{}, bad
	}
	expires, err := strconv.ParseInt(k.SK, 10, 64)
	if err != nil || d.now().Unix() >= expires {
		return Download{}, bad
	}
	return Download{Blob: k.PK, ContentType: k.IPK, Name: k.ISK}, nil
}
