package pdf_test

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/document"
	"github.com/galleydocs/galley/shared/pdf"
)

// Characters outside the Basic Multilingual Plane (emoji) and others the
// font lacks print as a replacement; the export does not fail.
func TestRenderWithCharactersTheFontLacks(t *testing.T) {
	text := "Ship it 🚀 today 👍🏽 — 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 and 中文"
	para := document.Node{"object": "block", "type": "paragraph", "nodes": []any{
		map[string]any{"object": "text", "leaves": []document.Node{{"object": "leaf", "text": text, "marks": []any{}}}},
	}}
	code := document.Node{"object": "block", "type": "code", "nodes": []any{
		map[string]any{"object": "block", "type": "code-line", "nodes": []any{
			map[string]any{"object": "text", "leaves": []document.Node{{"object": "leaf", "text": "print('🎉')", "marks": []any{}}}},
		}},
	}}
	out, err := pdf.Render("Release 🎉", []pdf.Page{{Title: "Launch 🚀", Description: "All 🌍 ok",
		Document: document.JSONDocument{Nodes: []document.Node{para, code}}}}, nil)
	if err != nil {
		t.Fatalf("Render: %v", err)
	}
	if !bytes.HasPrefix(out, []byte("%PDF-")) {
		t.Fatalf("not a PDF: %.20q", out)
	}
	if _, err := exec.LookPath("pdftotext"); err != nil {
		return // the PDF was made; its text is checked where poppler is installed
	}
	cmd := exec.Command("pdftotext", "-", "-")
	cmd.Stdin = bytes.NewReader(out)
	txt, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Launch ?", "Ship it ? today ? — ??????? and ??", "print('?')"} {
		if !strings.Contains(string(txt), want) {
			t.Errorf("text %q lacks %q", txt, want)
		}
	}
}
