package gitsync

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/fetch"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/sites"
)

// runSiteExport writes every synced space of the site into its directory
// (the space export's rules: each space writes only its directory) and
// docs.yaml, only when the structure it describes differs from the
// branch's, all in ONE commit; none when nothing changed. When the branch
// moved since the site last synced with it, the export fails and changes
// nothing, unless forced.
func (s *Service) runSiteExport(ctx context.Context, j queue.Job, p sitePayload, st model.SiteGitSync, r *remote) error {
	head, err := r.fetch(ctx, p.Ref)
	if err != nil {
		return s.concludeSite(ctx, p, j, fmt.Errorf("fetch %s: %w", p.Ref, gitError(err)), nil)
	}
	// The branch moved since the site's last sync: refused below, unless
	// it holds the tree this export makes (an earlier delivery of the job
	// pushed it, and was killed before its outcome was written).
	moved := !p.Force && head.commit != nil && st.LastCommit != "" && st.URL == p.URL && st.LastCommit != head.commit.Hash.String()
	base := head
	if head.commit == nil {
		// A new branch starts from the repository's default branch.
		if base, err = r.fetch(ctx, ""); err != nil {
			return s.concludeSite(ctx, p, j, fmt.Errorf("fetch the default branch: %w", gitError(err)), nil)
		}
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
	parts := s.siteParts(j, p, nodes, ExportKind)
	if err := s.acquireAll(ctx, parts.spaceIDs(), parts.jobID); err != nil {
		return err // a space job works on one of the spaces: retried later
	}
	if head.commit != nil {
		in, err := s.intent(ctx, "site-"+p.SiteID, j.ID, head.commit.Hash.String())
		if err != nil {
			return err
		}
		if in != nil {
			// An earlier delivery pushed this commit and was stopped
			// before its outcome was written (runExport).
			return s.concludeSiteExport(ctx, p, j, parts, in.Commit, nil, in.Spaces, nil, title, nodes)
		}
	}
	// Each space over the files the ones before it left.
	w := &writer{st: base.st, made: map[plumbing.Hash]bool{}}
	files := base.files
	laid := map[string]pushIntent{}
	failed := map[string]error{}
	for _, pt := range parts {
		sst, _, err := s.state(ctx, pt.p.SpaceID)
		if err != nil {
			return err
		}
		if !slices.Contains(sst.Done, pt.j.ID) {
			// (A part done already, by an earlier delivery that pushed,
			// is laid out again: its files are the branch's.)
			if err := s.startPart(ctx, pt, model.GitExport); err != nil {
				return err
			}
		}
		sp, err := s.readSpace(ctx, pt.p.SpaceID)
		if apperr.Is(err, apperr.NotFound) {
			failed[pt.p.SpaceID] = errors.New("the space is gone")
			continue
		}
		if err != nil {
			return err
		}
		lay, err := s.layoutSpace(ctx, sp, sp.Revision, sst, p.URL, pt.p.ProjectDir, &snapshot{st: base.st, commit: base.commit, files: files, branches: base.branches}, w)
		if err != nil {
			return err
		}
		laid[pt.p.SpaceID], files = pushIntent{Revision: lay.rev.ID, Files: lay.owned, Dir: lay.l.dir}, lay.files
	}
	files, err = s.withSiteConfig(p, head, w, files, title, nodes)
	if err != nil {
		return err
	}
	tree, err := w.tree(files)
	if err != nil {
		return fmt.Errorf("write the tree: %w", err)
	}
	commit, cause := "", error(nil)
	switch {
	case head.commit != nil && head.commit.TreeHash == tree:
		commit = head.commit.Hash.String() // nothing changed (or an earlier delivery pushed it)
	case moved:
		cause = fmt.Errorf("%w: %s has commits the site has not imported (it is at %s, the site last synced with %s); import them first, or export with force",
			errNotFastForward, p.Ref, short(head.commit.Hash.String()), short(st.LastCommit))
	case base.commit == nil && base.branches > 0:
		cause = fmt.Errorf("%w: the repository names no default branch to start %s from; export to an existing branch first", errNoRef, p.Ref)
	default:
		hash, err := s.newCommit(w, base, tree, p.CommitMessage, nil)
		if err != nil {
			return err
		}
		old := plumbing.ZeroHash
		if head.commit != nil {
			old = head.commit.Hash
		}
		if err := s.keepIntent(ctx, "site-"+p.SiteID, j.ID, pushIntent{Commit: hash.String(), Spaces: laid}); err != nil {
			return err
		}
		commit = hash.String()
		if perr := r.push(ctx, w, p.Ref, old, hash); perr != nil {
			in, _, lerr := s.landed(ctx, r, p.Ref, "site-"+p.SiteID, j.ID)
			switch {
			case lerr != nil:
				return lerr
			case in != nil:
				commit, laid = in.Commit, in.Spaces // an earlier delivery's push landed
			default:
				cause = fmt.Errorf("push %s: %w", p.Ref, gitError(perr))
			}
		}
	}
	return s.concludeSiteExport(ctx, p, j, parts, commit, cause, laid, failed, title, nodes)
}

// concludeSiteExport concludes each space's part with the site's commit
// (or failure), then the site's job, and drops the job's push intent.
func (s *Service) concludeSiteExport(ctx context.Context, p sitePayload, j queue.Job, parts siteParts, commit string, cause error,
	laid map[string]pushIntent, failed map[string]error, title string, nodes []model.SiteGitNode) error {
	ops := map[string]model.GitOperation{}
	for _, pt := range parts {
		id := pt.p.SpaceID
		lay, ok := laid[id]
		switch {
		case cause != nil || !ok:
			why := cause
			if !ok {
				why = failed[id]
			}
			if err := s.conclude(ctx, pt.p, pt.j, func(op *model.GitOperation) { op.State, op.Error = model.GitFailure, why.Error() }, nil); err != nil {
				return err
			}
		default:
			err := s.conclude(ctx, pt.p, pt.j, func(op *model.GitOperation) {
				op.State, op.Error, op.Commit, op.Revision = model.GitSuccess, "", commit, lay.Revision
			}, &synced{commit: commit, revision: lay.Revision, files: lay.Files, dir: lay.Dir})
			if err != nil {
				return err
			}
		}
		if err := s.release(ctx, id, pt.j.ID); err != nil {
			return err
		}
		op, err := s.partOperation(ctx, pt)
		if err != nil {
			return err
		}
		ops[id] = op
	}
	if cause == nil {
		for id, op := range ops {
			if op.State != model.GitSuccess {
				cause = fmt.Errorf("space %s: %s", id, op.Error)
			}
		}
	}
	if cause != nil {
		return s.concludeSite(ctx, p, j, cause, &siteOutcome{spaces: ops})
	}
	s.d.Logger.InfoContext(ctx, "site Git export", "site", p.SiteID, "job", j.ID, "url", fetch.Redact(p.URL), "ref", p.Ref, "commit", commit)
	if err := s.concludeSite(ctx, p, j, nil, &siteOutcome{title: title, commit: commit, nodes: nodes, spaces: ops}); err != nil {
		return err
	}
	s.dropIntent(ctx, "site-"+p.SiteID, j.ID)
	return nil
}

// withSiteConfig answers files with docs.yaml written for nodes when the
// branch's (head's) says something else (compared after parsing: layout
// and comments aside); else files as they are.
func (s *Service) withSiteConfig(p sitePayload, head *snapshot, w *writer, files map[string]entry, title string, nodes []model.SiteGitNode) (map[string]entry, error) {
	file := path.Join(p.ProjectDir, siteConfigFile)
	if e, ok := head.files[file]; ok && head.commit != nil {
		if data, err := head.blob(e.hash); err == nil {
			if c, have, err := parseSiteConfig(data); err == nil && sameSiteConfig(title, nodes, c.Site.Title, have) {
				return files, nil
			}
		}
	}
	data, err := renderSiteConfig(title, plain(nodes))
	if err != nil {
		return nil, err
	}
	h, err := w.blob(data)
	if err != nil {
		return nil, err
	}
	out := make(map[string]entry, len(files)+1)
	for k, v := range files {
		out[k] = v
	}
	out[file] = entry{mode: filemode.Regular, hash: h}
	return out, nil
}

// nodesOfSite describes the site's structure as docs.yaml nodes: the
// state's nodes (their keys and what Galley does not map, such as
// directories and drafts) updated from the site and its spaces (a space's
// title and language), and new keys and
// directories (./<section path>/<space path>) for what the site gained
// since; a section group comes before its sections and links, in order.
func (s *Service) nodesOfSite(ctx context.Context, orgID, siteID string, st model.SiteGitSync) ([]model.SiteGitNode, error) {
	l, err := s.structure.Get(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	site := l.Site
	byGroup, bySection, bySiteSpace, byLink := map[string]model.SiteGitNode{}, map[string]model.SiteGitNode{}, map[string]model.SiteGitNode{}, map[string]model.SiteGitNode{}
	used := map[string]bool{}
	for _, n := range st.Nodes {
		used[n.Key] = true
		switch n.Type {
		case "section-group":
			byGroup[n.ID] = n
		case "section":
			bySection[n.ID] = n
		case "external-link":
			byLink[n.ID] = n
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
			n.Language = sp.Language
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
	link := func(l *model.SiteExternalLink, groupKey string) {
		kept, ok := byLink[l.ID]
		if !ok {
			kept.Key = newKey("link-", "1")
		}
		out = append(out, linkNode(*l, kept, groupKey))
	}
	tree := sites.TreeOf(&site)
	for _, t := range tree.Top() {
		switch {
		case t.Section != nil:
			if err := section(*t.Section, ""); err != nil {
				return nil, err
			}
		case t.Link != nil:
			link(t.Link, "")
		case t.Group != nil:
			g := *t.Group
			n, ok := byGroup[g.ID]
			if !ok {
				n = model.SiteGitNode{Type: "section-group", Key: newKey("section-group-", "1")}
			}
			n.Parent, n.ID, n.Title, n.Icon = "", g.ID, g.Title, g.Icon
			out = append(out, n)
			for _, it := range tree.GroupItems(g.ID) {
				if it.Link != nil {
					link(it.Link, n.Key)
					continue
				}
				if err := section(*it.Section, n.Key); err != nil {
					return nil, err
				}
			}
		}
	}
	return out, nil
}
