package reader

import "testing"

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
