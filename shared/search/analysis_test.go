package search_test

import (
	"testing"

	"github.com/galleydocs/galley/shared/search"
)

func TestAnalysisOfALocale(t *testing.T) {
	for locale, want := range map[string]string{
		"": "en", "en": "en", "fr": "fr", "pt-br": "pt", "PT-BR": "pt", "zh": "cjk", "zh-tw": "cjk", "ja": "cjk",
		"ko": "cjk", "yue": "cjk", "de": "de", "no": "no", "nb": "no", "ru": "ru", "ar": "ar", "he": "plain",
		"vi": "plain", "th": "plain",
	} {
		if got := search.Analysis(locale); got != want {
			t.Errorf("Analysis(%q) = %q, want %q", locale, got, want)
		}
	}
}

func TestTyposByWordLength(t *testing.T) {
	for word, want := range map[string]int{"api": 0, "键": 0, "tokn": 1, "token": 1, "webhook": 1, "webhooks": 2, "検索する方法です": 2} {
		if got := search.Typos(word); got != want {
			t.Errorf("Typos(%q) = %d, want %d", word, got, want)
		}
	}
}
