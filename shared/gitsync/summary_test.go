package gitsync_test

import (
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/content"
)

// A structural change rewrites SUMMARY.md, and the rewrite keeps what
// GitBook wrote around the entries: after one page of GitBook's docs moves
// among its siblings, SUMMARY.md differs from the original only in that
// page's line (its "***" separator, group anchors, blank lines and the
// other entries are the same bytes).
func TestSummaryRewriteChangesOnlyTheMovedEntry(t *testing.T) {
	f := setup(t)
	bare := f.git.fromBundle(t, "repo", fixtureBundle(t, "gitbook-docs"))
	sp := f.space(t)
	f.importRepo(t, sp, "repo", nil)
	_, _, ix := f.head(t, sp)
	head0 := strings.TrimSpace(gitOK(bare, "rev-parse", "main"))
	// "***" ends the group above it: Skill is a top-level page, after
	// the group Help.
	skill, help := ix.ByGitPath("skill/README.md"), ix.ByPath("help")
	if skill == nil || help == nil || skill.Parent != "" || help.Type != content.TypeGroup || skill.Pos <= help.Pos {
		t.Fatalf("Skill %+v, Help %+v: want Skill at the top level after the group Help", skill, help)
	}

	// Glossary moves to the end of its group (Reference).
	glossary := ix.ByGitPath("reference/glossary.md")
	if glossary == nil {
		t.Fatal("no page from reference/glossary.md")
	}
	f.restructure(t, sp, func(ix *content.Index) {
		p := *ix.Page(glossary.ID)
		p.Pos = ix.PosAt(p.Parent, -1, p.ID)
		ix.Put(p)
	})
	f.exportTo(t, sp, "repo", "move the glossary", nil)
	head1 := strings.TrimSpace(gitOK(bare, "rev-parse", "main"))
	if head1 == head0 {
		t.Fatal("the move made no commit")
	}
	if changed := strings.Fields(gitOK(bare, "diff", "--name-only", head0, head1)); strings.Join(changed, " ") != "SUMMARY.md" {
		t.Fatalf("the move changed %v", changed)
	}
	diff := gitOK(bare, "diff", "-U0", head0, head1, "--", "SUMMARY.md")
	var minus, plus []string
	for _, line := range strings.Split(diff, "\n") {
		switch {
		case strings.HasPrefix(line, "---") || strings.HasPrefix(line, "+++"):
		case strings.HasPrefix(line, "-"):
			minus = append(minus, line[1:])
		case strings.HasPrefix(line, "+"):
			plus = append(plus, line[1:])
		}
	}
	const entry = "* [Glossary](reference/glossary.md)"
	if len(minus) != 1 || len(plus) != 1 || minus[0] != entry || plus[0] != entry {
		t.Fatalf("SUMMARY.md differs by more than the moved entry:\n%s", diff)
	}
}
