// Package fileinfo describes a file inserted into a space: its content
// type and, for images, its dimensions. It is apart from package content
// so that only the functions that insert files (change requests, Git
// Sync) link the image decoders (docs/functions.md: the search function's
// size).
package fileinfo

import (
	"bytes"
	"image"
	_ "image/gif"  // dimensions of GIF files
	_ "image/jpeg" // dimensions of JPEG files
	_ "image/png"  // dimensions of PNG files
	"mime"
	"net/http"
	"path"
	"strings"
)

// Describe returns a file's content type, sniffed from its bytes (the
// extension decides only when the bytes say nothing more than "text" or
// "binary"), and an image's dimensions (0 when not a decodable image).
func Describe(name string, data []byte) (contentType string, width, height int) {
	contentType = http.DetectContentType(data)
	generic := contentType == "application/octet-stream" || strings.HasPrefix(contentType, "text/plain") || strings.HasPrefix(contentType, "text/xml")
	if byExt := mime.TypeByExtension(strings.ToLower(path.Ext(name))); generic && byExt != "" {
		contentType = byExt
	}
	if strings.HasPrefix(contentType, "image/") {
		if cfg, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
			width, height = cfg.Width, cfg.Height
		}
	}
	return contentType, width, height
}
