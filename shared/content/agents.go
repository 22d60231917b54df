package content

// What published sites give AI agents of a page (the reader's .md and
// llms-full.txt, the search family's MCP getPage): one definition, so the
// three answer the same text.

// AgentMarkdown is a page read in FormatMarkdown as agents are given it:
// its markdown (with its description as frontmatter), or its title as a
// heading when it has no body.
func AgentMarkdown(p RevisionPage) string {
	if p.Markdown == nil {
		return "# " + p.Title + "\n"
	}
	return *p.Markdown
}

// FirstDocument is the page a site space's root shows: the first document
// page in reading order (depth first) that is not hidden, nor under a
// hidden page; nil when there is none.
func FirstDocument(pages []RevisionPage) *RevisionPage {
	for i := range pages {
		p := &pages[i]
		if p.Hidden {
			continue
		}
		if p.Type == TypeDocument && p.Path != "" {
			return p
		}
		if f := FirstDocument(p.Pages); f != nil {
			return f
		}
	}
	return nil
}
