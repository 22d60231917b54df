package gitsync

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/galleydocs/galley/shared/fetch"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/queue"
)

// runSiteExport exports every synced space of the site into its directory
// (the space export: each space writes only its directory, no commit when
// it did not change), then docs.yaml, only when the structure it describes
// differs from the branch's. When the branch moved since the site last
// synced with it, the export fails and changes nothing, unless forced.
func (s *Service) runSiteExport(ctx context.Context, j queue.Job, p sitePayload, st model.SiteGitSync, r *remote) error {
	head, err := r.fetch(ctx, p.Ref)
	if err != nil {
		return s.concludeSite(ctx, p, j, fmt.Errorf("fetch %s: %w", p.Ref, gitError(err)), nil)
	}
	if !p.Force && head.commit != nil && st.LastCommit != "" && st.URL == p.URL && st.LastCommit != head.commit.Hash.String() {
		return s.concludeSite(ctx, p, j, fmt.Errorf("%w: %s has commits the site has not imported (it is at %s, the site last synced with %s); import them first, or export with force",
			errNotFastForward, p.Ref, short(head.commit.Hash.String()), short(st.LastCommit)), nil)
	}
	nodes, err := s.nodesOfSite(ctx, p.OrgID, p.SiteID, st)
	if err != nil {
		return s.siteFailure(ctx, p, j, err)
	}
	l, err := s.structure.Get(ctx, p.OrgID, p.SiteID)
	if err != nil {
		return s.siteFailure(ctx, p, j, err)
	}
	title := l.Site.Title
	ops, err := s.syncSpaces(ctx, ExportKind, j, p, nodes, r)
	if err != nil {
		return err
	}
	for id, op := range ops {
		if op.State != model.GitSuccess {
			return s.concludeSite(ctx, p, j, fmt.Errorf("space %s: %s", id, op.Error), &siteOutcome{spaces: ops})
		}
	}
	snap, err := r.fetch(ctx, p.Ref)
	if err != nil {
		return s.concludeSite(ctx, p, j, fmt.Errorf("fetch %s: %w", p.Ref, gitError(err)), nil)
	}
	commit, err := s.writeSiteConfig(ctx, p, snap, r, title, nodes)
	if err != nil {
		return s.concludeSite(ctx, p, j, err, &siteOutcome{spaces: ops})
	}
	s.d.Logger.InfoContext(ctx, "site Git export", "site", p.SiteID, "job", j.ID, "url", fetch.Redact(p.URL), "ref", p.Ref, "commit", commit)
	return s.concludeSite(ctx, p, j, nil, &siteOutcome{title: title, commit: commit, nodes: nodes, spaces: ops})
}

// writeSiteConfig pushes docs.yaml when the branch's says something else
// than nodes; it answers the branch's commit after.
func (s *Service) writeSiteConfig(ctx context.Context, p sitePayload, snap *snapshot, r *remote, title string, nodes []model.SiteGitNode) (string, error) {
	file := path.Join(p.ProjectDir, siteConfigFile)
	if e, ok := snap.files[file]; ok && snap.commit != nil {
		if data, err := snap.blob(e.hash); err == nil {
			if c, have, err := parseSiteConfig(data); err == nil && sameSiteConfig(title, nodes, c.Site.Title, have) {
				return snap.commit.Hash.String(), nil
			}
		}
	}
	data, err := renderSiteConfig(title, plain(nodes))
	if err != nil {
		return "", err
	}
	w := &writer{st: snap.st, made: map[plumbing.Hash]bool{}}
	h, err := w.blob(data)
	if err != nil {
		return "", err
	}
	files := map[string]entry{}
	for k, v := range snap.files {
		files[k] = v
	}
	files[file] = entry{mode: filemode.Regular, hash: h}
	tree, err := w.tree(files)
	if err != nil {
		return "", fmt.Errorf("write the tree: %w", err)
	}
	sig := commitAuthor
	sig.When = s.d.Clock()
	c := &object.Commit{Author: sig, Committer: sig, Message: p.CommitMessage, TreeHash: tree}
	old := plumbing.ZeroHash
	if snap.commit != nil {
		c.ParentHashes, old = []plumbing.Hash{snap.commit.Hash}, snap.commit.Hash
	}
	hash, err := w.commit(c)
	if err != nil {
		return "", fmt.Errorf("write the commit: %w", err)
	}
	if err := r.push(ctx, w, p.Ref, old, hash); err != nil {
		return "", fmt.Errorf("push %s: %w", p.Ref, gitError(err))
	}
	return hash.String(), nil
}

// nodesOfSite describes the site's structure as docs.yaml nodes: the
// state's nodes (their keys and what Galley does not map, such as
// languages and drafts) updated from the site, and new keys and
// directories (./<section path>/<space path>) for what the site gained
// since; a section group comes before its sections.
func (s *Service) nodesOfSite(ctx context.Context, orgID, siteID string, st model.SiteGitSync) ([]model.SiteGitNode, error) {
	l, err := s.structure.Get(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	site := l.Site
	byGroup, bySection, bySiteSpace := map[string]model.SiteGitNode{}, map[string]model.SiteGitNode{}, map[string]model.SiteGitNode{}
	used := map[string]bool{}
	for _, n := range st.Nodes {
		used[n.Key] = true
		switch n.Type {
		case "section-group":
			byGroup[n.ID] = n
		case "section":
			bySection[n.ID] = n
		default:
			bySiteSpace[n.ID] = n
		}
	}
	newKey := func(prefix, p string) string {
		k := prefix + p
		for i := 2; used[k]; i++ {
			k = fmt.Sprintf("%s%s-%d", prefix, p, i)
		}
		used[k] = true
		return k
	}
	var out []model.SiteGitNode
	level := func(sectionID, sectionKey, sectionPath string) error {
		for _, ss := range byOrder(site.SiteSpaces, siteSpaceKey) {
			if ss.Section != sectionID {
				continue
			}
			n, ok := bySiteSpace[ss.ID]
			if !ok {
				d := "./" + strings.Trim(path.Join(sectionPath, ss.Path), "/")
				n = model.SiteGitNode{Type: "space", Key: newKey("space-", ss.Path), Directory: &d}
			}
			sp, _, err := s.spaces.Get(ctx, ss.SpaceID)
			if err != nil {
				return err
			}
			n.Parent, n.ID, n.SpaceID, n.Title, n.Path, n.Default, n.Condition, n.Hidden = sectionKey, ss.ID, ss.SpaceID, sp.Title, ss.Path, ss.Default, ss.Condition, ss.Hidden
			out = append(out, n)
		}
		return nil
	}
	if len(site.Sections) == 0 {
		return out, level("", "", "")
	}
	section := func(sec model.SiteSection, groupKey string) error {
		n, ok := bySection[sec.ID]
		if !ok {
			n = model.SiteGitNode{Type: "section", Key: newKey("section-", sec.Path)}
		}
		n.Parent, n.ID, n.Title, n.Path, n.Default, n.Description, n.Icon, n.Condition = groupKey, sec.ID, sec.Title, sec.Path, sec.Default, sec.Description, sec.Icon, sec.Condition
		out = append(out, n)
		return level(sec.ID, n.Key, sec.Path)
	}
	for _, t := range topItems(site) {
		if !t.group {
			sec, _ := findSection(site, t.id)
			if err := section(sec, ""); err != nil {
				return nil, err
			}
			continue
		}
		g, _ := findGroup(site, t.id)
		n, ok := byGroup[g.ID]
		if !ok {
			n = model.SiteGitNode{Type: "section-group", Key: newKey("section-group-", "1")}
		}
		n.Parent, n.ID, n.Title, n.Icon = "", g.ID, g.Title, g.Icon
		out = append(out, n)
		for _, sec := range byOrder(site.Sections, sectionKey) {
			if sec.Group != g.ID {
				continue
			}
			if err := section(sec, n.Key); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}
