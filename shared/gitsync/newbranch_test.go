package gitsync_test

import (
	"strings"
	"testing"
)

// An export to a new branch of a repository that does not advertise its
// HEAD (Bitbucket Server does not; here HEAD names a branch never pushed)
// starts from its main branch: the commit follows main's head, never a
// commit without a parent. A repository whose branches give no default
// one makes the export fail, and pushes nothing.
func TestNewBranchWithoutAdvertisedHead(t *testing.T) {
	f := setup(t)
	f.git.repo(t, "src", escapedRepo)
	bare := f.git.repo(t, "docs", map[string]string{"README.md": "# Docs\n", "CONTRIBUTING.md": "# Contributing\n"})
	git(t, bare, "symbolic-ref", "HEAD", "refs/heads/gone")
	main := strings.TrimSpace(gitOK(bare, "rev-parse", "main"))
	sp, _, _ := f.importNew(t, "src", nil)

	f.exportTo(t, sp, "docs", "preview", map[string]any{"ref": "refs/heads/preview"})
	f.succeeded(t, sp, "export")
	if parents := strings.Fields(gitOK(bare, "log", "-1", "--format=%P", "preview")); len(parents) != 1 || parents[0] != main {
		t.Fatalf("the new branch's commit has parents %v, want main's %s", parents, main)
	}
	if got := gitOK(bare, "show", "preview:CONTRIBUTING.md"); got != "# Contributing\n" {
		t.Errorf("CONTRIBUTING.md on the new branch: %q", got)
	}

	// Two branches, neither main nor master, and no HEAD.
	git(t, bare, "branch", "-m", "main", "one")
	git(t, bare, "branch", "two", "one")
	git(t, bare, "branch", "-D", "preview")
	other := f.space(t)
	f.importRepo(t, other, "src", nil)
	f.exportTo(t, other, "docs", "orphan?", map[string]any{"ref": "refs/heads/three"})
	if op := f.info(t, other)["operation"].(map[string]any); op["state"] != "failure" || !strings.Contains(op["error"].(string), "no default branch") {
		t.Errorf("export with no branch to start from: %v", op)
	}
	if out := gitOK(bare, "rev-parse", "--verify", "-q", "refs/heads/three"); out != "" {
		t.Errorf("the export pushed refs/heads/three at %s", out)
	}
}
