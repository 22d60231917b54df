package lexers

import (
	"embed"
	"io/fs"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

//go:embed embedded
var embedded embed.FS

// GlobalLexerRegistry is the global LexerRegistry of Lexers.
//
// The lexers defined in XML are read on the first lookup (Names, Aliases,
// Get, MatchMimeType, Match, Analyse) instead of in a package init, which
// parsed all of them (some 280 files, several milliseconds) in every
// program importing this package. Until then the registry holds the
// lexers registered so far (the Go-coded ones at init); the first lookup
// registers the XML lexers and then those again, so the registry ends as
// before: XML lexers first, a Go-coded lexer of the same name replacing
// its XML one.
var GlobalLexerRegistry = chroma.NewLexerRegistry()

var loadOnce sync.Once

// afterLoad runs, in order, once the XML lexers are registered: the
// package's inits that set an XML lexer's analyser add to it.
var afterLoad []func()

// registry is GlobalLexerRegistry with every lexer in it.
func registry() *chroma.LexerRegistry {
	loadOnce.Do(func() {
		registered := GlobalLexerRegistry.Lexers
		*GlobalLexerRegistry = *chroma.NewLexerRegistry()
		paths, err := fs.Glob(embedded, "embedded/*.xml")
		if err != nil {
			panic(err)
		}
		for _, path := range paths {
			GlobalLexerRegistry.Register(chroma.MustNewXMLLexer(embedded, path))
		}
		for _, l := range registered {
			GlobalLexerRegistry.Register(l)
		}
		for _, f := range afterLoad {
			f()
		}
	})
	return GlobalLexerRegistry
}

// Names of all lexers, optionally including aliases.
func Names(withAliases bool) []string {
	return registry().Names(withAliases)
}

// Aliases of all the lexers, and skip those lexers who do not have any aliases,
// or show their name instead
func Aliases(skipWithoutAliases bool) []string {
	return registry().Aliases(skipWithoutAliases)
}

// Get a Lexer by name, alias or file extension.
//
// Note that this if there isn't an exact match on name or alias, this will
// call Match(), so it is not efficient.
func Get(name string) chroma.Lexer {
	return registry().Get(name)
}

// MatchMimeType attempts to find a lexer for the given MIME type.
func MatchMimeType(mimeType string) chroma.Lexer {
	return registry().MatchMimeType(mimeType)
}

// Match returns the first lexer matching filename.
//
// Note that this iterates over all file patterns in all lexers, so it's not
// particularly efficient.
func Match(filename string) chroma.Lexer {
	return registry().Match(filename)
}

// Register a Lexer with the global registry.
func Register(lexer chroma.Lexer) chroma.Lexer {
	return GlobalLexerRegistry.Register(lexer)
}

// Analyse text content and return the "best" lexer..
func Analyse(text string) chroma.Lexer {
	return registry().Analyse(text)
}

// PlaintextRules is used for the fallback lexer as well as the explicit
// plaintext lexer.
func PlaintextRules() chroma.Rules {
	return chroma.Rules{
		"root": []chroma.Rule{
			{`.+`, chroma.Text, nil},
			{`\n`, chroma.Text, nil},
		},
	}
}

// Fallback lexer if no other is found.
var Fallback chroma.Lexer = chroma.MustNewLexer(&chroma.Config{
	Name:      "fallback",
	Filenames: []string{"*"},
	Priority:  -1,
}, PlaintextRules)
