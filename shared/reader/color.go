package reader

import (
	"fmt"
	"math"
	"strconv"
)

// The backgrounds text is drawn on, in each theme: the page (--bg) and the
// soft panels (--soft: the current page of the tree, hints, table heads).
const (
	lightBg   = "#fff"
	lightSoft = "#f6f7f9"
	darkBg    = "#141517"
	darkSoft  = "#1e2024"
)

// minContrast is WCAG 2's AA contrast for normal text.
const minContrast = 4.5

// readable returns the site's primary colour, darkened (light theme) or
// lightened (dark theme) just enough to be read as text on the theme's
// backgrounds (WCAG AA, 4.5:1). A colour that already is is kept as
// written. The primary colour is the site's choice (GitBook's default,
// #346DDB, is 4.49:1 on the light soft panels and 3.8:1 on the dark page),
// so links, the current page and the focus ring use this colour instead.
// bgs are the backgrounds to read it on (tinted ones, see tinted); none:
// the theme's own.
func readable(color string, dark bool, bgs ...string) string {
	rgb, ok := parseHex(color)
	if !ok {
		return color
	}
	target := [3]float64{0, 0, 0}
	if dark {
		target = [3]float64{255, 255, 255}
	}
	if len(bgs) == 0 {
		bgs = []string{lightBg, lightSoft}
		if dark {
			bgs = []string{darkBg, darkSoft}
		}
	}
	var lums []float64
	for _, bg := range bgs {
		c, _ := parseHex(bg)
		lums = append(lums, relLuminance(c))
	}
	fits := func(c [3]float64) bool {
		l := relLuminance(c)
		for _, b := range lums {
			if contrast(l, b) < minContrast {
				return false
			}
		}
		return true
	}
	if fits(rgb) {
		return color
	}
	// Mix toward black or white in 2% steps: the first that fits.
	for i := 1; i <= 50; i++ {
		t := float64(i) / 50
		var c [3]float64
		for k := range c {
			c[k] = math.Round(rgb[k] + (target[k]-rgb[k])*t)
		}
		if fits(c) {
			return fmt.Sprintf("#%02x%02x%02x", int(c[0]), int(c[1]), int(c[2]))
		}
	}
	return fmt.Sprintf("#%02x%02x%02x", int(target[0]), int(target[1]), int(target[2]))
}

// tinted returns the theme's page and panel backgrounds tinted toward the
// site's tint colour (styling.tint): 4% of it in the page, 8% in the soft
// panels, enough to colour the site, too little to cost text its contrast
// (the primary colour's is computed on them, readable).
func tinted(tint string, dark bool) (bg, soft string) {
	bg, soft = lightBg, lightSoft
	if dark {
		bg, soft = darkBg, darkSoft
	}
	t, ok := parseHex(tint)
	if !ok {
		return bg, soft
	}
	mix := func(base string, w float64) string {
		b, _ := parseHex(base)
		var c [3]float64
		for i := range c {
			c[i] = math.Round(b[i] + (t[i]-b[i])*w)
		}
		return fmt.Sprintf("#%02x%02x%02x", int(c[0]), int(c[1]), int(c[2]))
	}
	return mix(bg, 0.04), mix(soft, 0.08)
}

// parseHex reads #rgb and #rrggbb.
func parseHex(s string) ([3]float64, bool) {
	var c [3]float64
	if len(s) == 4 && s[0] == '#' {
		s = "#" + string([]byte{s[1], s[1], s[2], s[2], s[3], s[3]})
	}
	if len(s) != 7 || s[0] != '#' {
		return c, false
	}
	for i := range c {
		v, err := strconv.ParseUint(s[1+2*i:3+2*i], 16, 8)
		if err != nil {
			return c, false
		}
		c[i] = float64(v)
	}
	return c, true
}

// relLuminance is WCAG 2's relative luminance of an sRGB colour (0..255).
func relLuminance(c [3]float64) float64 {
	var l [3]float64
	for i, v := range c {
		v /= 255
		if v <= 0.03928 {
			l[i] = v / 12.92
		} else {
			l[i] = math.Pow((v+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2]
}

// contrast is WCAG 2's contrast ratio of two relative luminances.
func contrast(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	return (a + 0.05) / (b + 0.05)
}
