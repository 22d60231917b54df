package testkit

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/testenv"
)

// PDFText extracts a PDF's text with pdftotext (Debian's poppler-utils,
// installed by make test-deps), its whitespace collapsed to single spaces.
func PDFText(t testing.TB, data []byte) string {
	t.Helper()
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		testenv.Missing(t, "pdftotext (Debian package poppler-utils)")
	}
	in := filepath.Join(t.TempDir(), "out.pdf")
	if err := os.WriteFile(in, data, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "-enc", "UTF-8", in, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v: %s", err, out)
	}
	return strings.Join(strings.Fields(string(out)), " ")
}

// InOrder reports the first of words not found in text after the previous
// ones ("" when all are there, in that order).
func InOrder(text string, words ...string) string {
	at := 0
	for _, w := range words {
		i := strings.Index(text[at:], w)
		if i < 0 {
			return w
		}
		at += i + len(w)
	}
	return ""
}
