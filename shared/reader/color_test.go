package reader

import (
	"strings"
	"testing"
)

// The primary colour is made readable as text on the theme's backgrounds,
// and no more than that: a readable colour is kept as written.
func TestReadable(t *testing.T) {
	lum := func(hex string) float64 {
		c, ok := parseHex(hex)
		if !ok {
			t.Fatalf("%q is not a colour", hex)
		}
		return relLuminance(c)
	}
	cases := []struct {
		color string
		dark  bool
		kept  bool
	}{
		{"#346DDB", false, false}, // GitBook's default: 4.49:1 on #f6f7f9
		{"#346DDB", true, false},  // 3.8:1 on #141517
		{"#1d4ed8", false, true},
		{"#7dd3fc", true, true},
		{"#ff0", false, false}, // yellow on white: far from readable
		{"#000080", true, false},
	}
	for _, c := range cases {
		got := readable(c.color, c.dark)
		if (got == c.color) != c.kept {
			t.Errorf("readable(%s, dark=%v) = %s; kept as written: %v, want %v", c.color, c.dark, got, got == c.color, c.kept)
		}
		bgs := []string{lightBg, lightSoft}
		if c.dark {
			bgs = []string{darkBg, darkSoft}
		}
		for _, bg := range bgs {
			if r := contrast(lum(got), lum(bg)); r < minContrast {
				t.Errorf("readable(%s, dark=%v) = %s: %.2f:1 on %s", c.color, c.dark, got, r, bg)
			}
		}
	}
	// The theme's colours are the ones checked against.
	for _, v := range []string{lightBg, lightSoft} {
		if !strings.Contains(baseCSS, v) {
			t.Errorf("baseCSS lacks %s", v)
		}
	}
	for _, v := range []string{darkBg, darkSoft} {
		if !strings.Contains(darkVars, v) {
			t.Errorf("darkVars lacks %s", v)
		}
	}
	if readable("red", false) != "red" {
		t.Error("a colour that is not hex should be left alone")
	}
}

// A tint moves the backgrounds a little toward its colour, and the primary
// colour as text stays readable (4.5:1) on the tinted backgrounds.
func TestTintedBackgrounds(t *testing.T) {
	for _, c := range []struct {
		tint string
		dark bool
	}{{"#ff0000", false}, {"#346DDB", false}, {"#00ff00", true}, {"#ffffff", true}} {
		bg, soft := tinted(c.tint, c.dark)
		base, baseSoft := lightBg, lightSoft
		if c.dark {
			base, baseSoft = darkBg, darkSoft
		}
		if bg == base || soft == baseSoft || !reColor.MatchString(bg) || !reColor.MatchString(soft) {
			t.Errorf("tint %s (dark %v): backgrounds %s %s", c.tint, c.dark, bg, soft)
		}
		for _, primary := range []string{"#346DDB", "#ffcc00", "#111111"} {
			got := readable(primary, c.dark, bg, soft)
			g, _ := parseHex(got)
			for _, b := range []string{bg, soft} {
				bb, _ := parseHex(b)
				if r := contrast(relLuminance(g), relLuminance(bb)); r < minContrast {
					t.Errorf("tint %s: %s as text %s is %.2f:1 on %s", c.tint, primary, got, r, b)
				}
			}
		}
	}
	if bg, soft := tinted("not a colour", false); bg != lightBg || soft != lightSoft {
		t.Errorf("an invalid tint changed the backgrounds: %s %s", bg, soft)
	}
}
