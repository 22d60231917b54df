package fileinfo_test

import (
	"bytes"
	"image"
	"image/png"
	"testing"

	"github.com/galleydocs/galley/shared/content/fileinfo"
)

func TestDescribe(t *testing.T) {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 7, 3))); err != nil {
		t.Fatal(err)
	}
	if ct, w, h := fileinfo.Describe("logo.bin", b.Bytes()); ct != "image/png" || w != 7 || h != 3 {
		t.Errorf("a PNG: %s %dx%d", ct, w, h)
	}
	// The bytes say only "text": the extension decides.
	if ct, w, h := fileinfo.Describe("style.css", []byte("body { color: red }")); ct != "text/css; charset=utf-8" || w != 0 || h != 0 {
		t.Errorf("a style sheet: %s %dx%d", ct, w, h)
	}
	// An image type whose bytes do not decode has no dimensions.
	if ct, w, h := fileinfo.Describe("broken.png", []byte("\x89PNG\r\n\x1a\nnot really")); ct != "image/png" || w != 0 || h != 0 {
		t.Errorf("a broken PNG: %s %dx%d", ct, w, h)
	}
}
