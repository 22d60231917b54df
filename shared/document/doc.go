// Package document is Galley's page text, as pure functions and types: no
// storage, no services, no access checks, no HTTP. It reads and writes the
// forms a page's content takes:
//
//   - authored markdown: frontmatter, title heading, body (markdown.go).
//     Split is the one reading of where frontmatter, title and body are;
//     Parse reads a write strictly (unknown keys and an unclosed
//     frontmatter are errors), ParseLenient reads a repository's file as
//     Git Sync does (they are ignored); Compose writes the form back.
//   - the document tree (GitBook's JSONDocument): ToDocument converts a
//     markdown body, GitBook's blocks included (document.go, blocks.go);
//     MarkdownOfDocument converts back (docmarkdown.go, blocksmd.go).
//     Links are resolved to content references through a Resolver, which
//     finds pages through a PageLocator (content.Index is one).
//   - GitBook's inline expressions, conditional blocks ({% if %}) and
//     includes ({% include %}, reusable contents found through a
//     ReusableLocator) in both forms (expressions.go, conditional.go,
//     include.go); Resolve is the markdown a visitor sees of a body
//     (includes expanded, expressions evaluated, conditional blocks kept
//     or dropped by package condition), References lists a body's
//     constructs (resolve.go).
//   - links of a body (ExtractLinks) and the slug rules: Slug for pages
//     and site paths, HeadingID and HeadingAnchor for headings (slug.go).
//
// What a page is (its tree, its stored fields, which frontmatter keys set
// which field) belongs to shared/content, which uses this package, as do
// Git Sync, imports, change requests, comments, search, PDF and the
// reader. Features of the page text itself (reusable content, variables,
// expressions, conditional blocks) belong here.
package document
