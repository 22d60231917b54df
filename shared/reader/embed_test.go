package reader

import (
	"net/url"
	"strings"
	"testing"
)

func TestPlayerURL(t *testing.T) {
	for u, want := range map[string]string{
		"https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=3": "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ",
		"https://youtu.be/dQw4w9WgXcQ":                    "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ",
		"https://vimeo.com/76979871":                      "https://player.vimeo.com/video/76979871?dnt=1",
		"https://www.loom.com/share/abc123DEF":            "https://www.loom.com/embed/abc123DEF",
		"https://www.youtube.com/watch?v=x\"onload=":      "",
		"javascript:alert(1)":                             "",
		"https://example.com/video":                       "",
		"https://vimeo.com/channels/staffpicks/1":         "",
	} {
		if got, _ := playerURL(u); got != want {
			t.Errorf("%s: %q, want %q", u, got, want)
		}
	}
}

// Every player's frame is allowed by the pages' frame-src.
func TestPlayersAreFrameSources(t *testing.T) {
	allowed := map[string]bool{}
	for _, o := range strings.Fields(playerOrigins) {
		allowed[o] = true
	}
	for _, u := range []string{"https://www.youtube.com/watch?v=a", "https://youtu.be/a", "https://vimeo.com/1", "https://loom.com/share/a"} {
		src, _ := playerURL(u)
		p, err := url.Parse(src)
		if err != nil || !allowed[p.Scheme+"://"+p.Host] {
			t.Errorf("%s plays in %q, whose origin frame-src (%s) does not allow", u, src, playerOrigins)
		}
	}
}

// Images of the public URL and the API (file links) are allowed by their
// origins when http (local mode); https: covers the others.
func TestHTTPOrigins(t *testing.T) {
	got := strings.Join(httpOrigins("http://localhost:8080", "https://api.example.com", "http://LOCALHOST:8080/x", "http://127.0.0.1:9000", "not a url", ""), " ")
	if want := "http://localhost:8080 http://127.0.0.1:9000"; got != want {
		t.Errorf("httpOrigins: %q, want %q", got, want)
	}
}

// A style element's source made from the theme's kept state is its
// text's hash; a sheet that is not the theme's is hashed whole.
func TestStyleHasher(t *testing.T) {
	h := newStyleHasher(map[string]string{"light": "body{color:#000}", "dark": "body{color:#fff}"})
	for _, c := range []struct{ theme, sheet, rest string }{
		{"light", "body{color:#000}", ":root{--primary:#346DDB}"},
		{"dark", "body{color:#fff}", ""},
		{"dark", "body{color:#000}", ".x{}"},
		{"none", "a{}", "b{}"},
	} {
		if got, want := h.source(c.theme, c.sheet, c.rest), hashSource(c.sheet+c.rest); got != want {
			t.Errorf("%s: %s, want %s", c.theme, got, want)
		}
	}
}
