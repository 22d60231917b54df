package gitsync

// Site-wide Git Sync (docs/workers.md, "Site-wide Git Sync"): a site's
// structure as code. The repository's docs.yaml (siteconfig.go) lists the
// site's section groups, sections, spaces and external links
// (sitelinks.go) with stable keys; an import makes the site's structure
// say the same (creating the spaces it lacks in the site's
// organization) and then imports each space's directory with the space
// import; an export lays each space out into its directory by the space
// export's rules, adds docs.yaml when the structure it describes changed,
// and makes one commit of it all (siteexport.go). A site job and a space
// job never work on one space at the same time (lease.go).
//
// The structure is changed through the sites and spaces services, acting
// as the user who started the job (their rights are checked again when it
// runs): this family writes only its own record, the site's Git Sync
// state (keys to ids).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"sort"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/fetch"
	"github.com/galleydocs/galley/shared/gitsync/gitstate"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/sites"
	"github.com/galleydocs/galley/shared/spaces"
	"github.com/galleydocs/galley/shared/store"
)

// Job kinds of site-wide Git Sync.
const (
	SiteImportKind = "git-site-import"
	SiteExportKind = "git-site-export"
)

// SiteStructure is what site-wide Git Sync asks of the sites family
// (sites.Service): read a site, and change its section groups, sections,
// site spaces and external links. Every call checks the caller's rights.
type SiteStructure interface {
	Get(ctx context.Context, orgID, siteID string) (sites.Loaded, error)
	Require(ctx context.Context, orgID, siteID string, op access.OrgOp) (model.Site, model.Role, error)
	Update(ctx context.Context, orgID, siteID string, ch sites.SiteChange) (model.Site, model.Role, error)
	AddSection(ctx context.Context, orgID, siteID, spaceID, title, icon string) (model.Site, string, model.Role, error)
	UpdateSection(ctx context.Context, orgID, siteID, sectionID string, ch sites.SectionChange) (model.Site, model.Role, error)
	DeleteSection(ctx context.Context, orgID, siteID, sectionID string) (bool, error)
	MoveSection(ctx context.Context, orgID, siteID, sectionID string, pos sites.Position) (model.Site, model.Role, error)
	AddGroup(ctx context.Context, orgID, siteID, title, icon string, sections []string) (model.Site, string, model.Role, error)
	UpdateGroup(ctx context.Context, orgID, siteID, groupID string, ch sites.GroupChange) (model.Site, model.Role, error)
	DeleteGroup(ctx context.Context, orgID, siteID, groupID string) (bool, error)
	AddToGroup(ctx context.Context, orgID, siteID, groupID, sectionID string) (model.Site, model.Role, error)
	MoveGroup(ctx context.Context, orgID, siteID, groupID string, pos sites.Position) (model.Site, model.Role, error)
	AddSiteSpace(ctx context.Context, orgID, siteID, spaceID, sectionID string) (model.Site, string, model.Role, error)
	UpdateSiteSpace(ctx context.Context, orgID, siteID, siteSpaceID string, ch sites.SiteSpaceChange) (model.Site, model.Role, error)
	DeleteSiteSpace(ctx context.Context, orgID, siteID, siteSpaceID string) (bool, error)
	MoveSiteSpace(ctx context.Context, orgID, siteID, siteSpaceID string, pos sites.Position) (model.Site, model.Role, error)
	AddExternalLink(ctx context.Context, orgID, siteID string, in sites.ExternalLinkInput) (model.Site, string, model.Role, error)
	UpdateExternalLink(ctx context.Context, orgID, siteID, linkID string, in sites.ExternalLinkInput) (model.Site, model.Role, error)
	DeleteExternalLink(ctx context.Context, orgID, siteID, linkID string) (bool, error)
	SortStructure(ctx context.Context, orgID, siteID string, item sites.Pointer, pos sites.Position) (model.Site, model.Role, error)
}

// Spaces is what site-wide Git Sync asks of the spaces family
// (spaces.Service): a space, a new space, a new title.
type Spaces interface {
	Get(ctx context.Context, spaceID string) (model.Space, model.Role, error)
	Create(ctx context.Context, orgID string, in spaces.Create) (model.Space, model.Role, error)
	Update(ctx context.Context, spaceID string, ch spaces.Change) (model.Space, model.Role, error)
}

// siteOp is the right site-wide Git Sync needs: it changes the site's
// title and defaults (admin on the organization's content).
const siteOp = access.AdminContent

// sitePayload is a site job's input; the caller is who the job acts as.
type sitePayload struct {
	SiteID        string `json:"siteId"`
	OrgID         string `json:"orgId"`
	URL           string `json:"url"`
	Auth          string `json:"auth,omitempty"`
	Ref           string `json:"ref"`
	ProjectDir    string `json:"projectDir,omitempty"`
	Force         bool   `json:"force,omitempty"`
	CommitMessage string `json:"commitMessage,omitempty"`
	UserID        string `json:"userId"`
	CallerOrg     string `json:"callerOrg,omitempty"`
	InstanceAdmin bool   `json:"instanceAdmin,omitempty"`
}

// ImportSite starts importing a site's structure and spaces from a
// repository with docs.yaml in r.ProjectDir.
func (s *Service) ImportSite(ctx context.Context, orgID, siteID string, r Request) error {
	return s.startSite(ctx, orgID, siteID, SiteImportKind, r)
}

// ExportSite starts exporting a site's spaces (and docs.yaml when the
// structure changed) to a repository.
func (s *Service) ExportSite(ctx context.Context, orgID, siteID string, r Request) error {
	return s.startSite(ctx, orgID, siteID, SiteExportKind, r)
}

func (s *Service) startSite(ctx context.Context, orgID, siteID, kind string, r Request) error {
	// The caller's level on the site (organization role and site grants).
	if _, _, err := s.structure.Require(ctx, orgID, siteID, siteOp); err != nil {
		return err
	}
	caller, err := access.CallerFrom(ctx)
	if err != nil {
		return err
	}
	clean, user, password, dir, err := r.check(kind == SiteExportKind)
	if err != nil {
		return err
	}
	p := sitePayload{SiteID: siteID, OrgID: orgID, URL: clean, Ref: r.Ref, ProjectDir: dir, Force: r.Force,
		CommitMessage: r.CommitMessage, UserID: caller.UserID, CallerOrg: caller.OrgID, InstanceAdmin: caller.InstanceAdmin}
	job, op, err := s.newJob(ctx, kind, "site:"+siteID, kind == SiteExportKind, user, password, &p.Auth, &p)
	if err != nil {
		return err
	}
	err = s.updateSite(ctx, siteID, func(st *model.SiteGitSync) error {
		st.OrgID, st.URL, st.Ref, st.Dir, st.UpdatedAt = orgID, clean, r.Ref, dir, op.StartedAt
		st.Operation = &model.SiteGitOperation{GitOperation: op}
		st.Pending = append(st.Pending, pendingOf(job, op, ""))
		if len(st.Pending) > pendingKept {
			st.Pending = st.Pending[len(st.Pending)-pendingKept:]
		}
		return nil
	})
	if err != nil {
		return err
	}
	return s.dispatch(ctx, job, s.HandleSite)
}

// SiteInfo returns a site's Git Sync state (NotFound before any request).
func (s *Service) SiteInfo(ctx context.Context, orgID, siteID string) (model.SiteGitSync, error) {
	if _, err := s.structure.Get(ctx, orgID, siteID); err != nil {
		return model.SiteGitSync{}, err
	}
	st, v, err := gitstate.GetSite(ctx, s.d.Store, siteID)
	if err != nil {
		return st, err
	}
	if v == 0 || st.OrgID != orgID {
		return st, apperr.NotFoundf("no Git provider is set up on site %s", siteID)
	}
	return s.reviveSite(ctx, st), nil
}

// updateSite changes a site's state with fn, guarded by its version.
func (s *Service) updateSite(ctx context.Context, siteID string, fn func(*model.SiteGitSync) error) error {
	var fnErr error
	err := store.Retry(ctx, func() error {
		st, v, err := gitstate.GetSite(ctx, s.d.Store, siteID)
		if err != nil {
			return err
		}
		if fnErr = fn(&st); fnErr != nil {
			return nil
		}
		if err := s.d.Store.Write(ctx, gitstate.WriteSiteOp(st, v)); err != nil {
			return fmt.Errorf("write site Git Sync state: %w", err)
		}
		return nil
	})
	switch {
	case fnErr != nil:
		return fnErr
	case errors.Is(err, store.ErrContention):
		return apperr.Conflictf("too many concurrent Git Sync changes; try again")
	}
	return err
}

// HandleSite runs a git-site-import or git-site-export job. As with a
// space's jobs, Git and structure failures conclude the job with the
// failure recorded on the site; storage failures are returned.
func (s *Service) HandleSite(ctx context.Context, j queue.Job) error {
	var p sitePayload
	if err := json.Unmarshal(j.Payload, &p); err != nil {
		return fmt.Errorf("decode %s job: %w", j.Kind, err)
	}
	st, _, err := gitstate.GetSite(ctx, s.d.Store, p.SiteID)
	if err != nil {
		return err
	}
	if slices.Contains(st.Done, j.ID) {
		return nil
	}
	if slices.ContainsFunc(st.Pending, func(q model.GitPending) bool { return q.JobID == j.ID }) {
		if err := s.startLease(ctx, p.SiteID, j.ID); err != nil {
			return err
		}
	}
	ctx = access.WithCaller(ctx, access.Caller{UserID: p.UserID, OrgID: p.CallerOrg, InstanceAdmin: p.InstanceAdmin})
	r, err := s.openRemote(ctx, p.URL, p.Auth)
	if err != nil {
		return s.concludeSite(ctx, p, j, err, nil)
	}
	if j.Kind == SiteExportKind {
		return s.runSiteExport(ctx, j, p, st, r)
	}
	return s.runSiteImport(ctx, j, p, st, r)
}

// startLease renews a site job's lease as its run starts (lease.go).
func (s *Service) startLease(ctx context.Context, siteID, job string) error {
	return s.updateSite(ctx, siteID, func(st *model.SiteGitSync) error {
		if i := slices.IndexFunc(st.Pending, func(q model.GitPending) bool { return q.JobID == job }); i >= 0 {
			st.Pending[i].Until = s.d.Clock().Add(leaseTTL)
		}
		return nil
	})
}

// siteOutcome is what a site job that got through leaves on the state.
type siteOutcome struct {
	title, commit string
	nodes         []model.SiteGitNode
	spaces        map[string]model.GitOperation
}

// concludeSite records a site job's end: a failure (cause) or an outcome.
func (s *Service) concludeSite(ctx context.Context, p sitePayload, j queue.Job, cause error, out *siteOutcome) error {
	if cause != nil {
		s.d.Logger.WarnContext(ctx, "site Git job failed", "site", p.SiteID, "job", j.ID, "kind", j.Kind,
			"url", fetch.Redact(p.URL), "ref", p.Ref, "err", cause.Error())
	}
	err := s.updateSite(ctx, p.SiteID, func(st *model.SiteGitSync) error {
		if slices.Contains(st.Done, j.ID) {
			return errDone
		}
		now := s.d.Clock()
		st.Done = keepLast(append(st.Done, j.ID), doneKept)
		st.Pending = slices.DeleteFunc(st.Pending, func(q model.GitPending) bool { return q.JobID == j.ID })
		if out != nil && cause == nil {
			st.Title, st.LastCommit, st.Nodes, st.Order = out.title, out.commit, map[string]model.SiteGitNode{}, nil
			for _, n := range out.nodes {
				st.Nodes[n.Key] = n
				st.Order = append(st.Order, n.Key)
			}
		}
		if st.Operation != nil && st.Operation.JobID == j.ID {
			op := st.Operation
			op.UpdatedAt, op.Stage = now, "finalize"
			if out != nil {
				op.Spaces = out.spaces
			}
			if cause != nil {
				op.State, op.Error = model.GitFailure, cause.Error()
			} else {
				op.State, op.Error, op.CompletedAt = model.GitSuccess, "", &now
				if out != nil {
					op.Commit = out.commit
				}
			}
		}
		return nil
	})
	if errors.Is(err, errDone) {
		return nil
	}
	return err
}

// nodesOf are a state's nodes in docs.yaml's order.
func nodesOf(st model.SiteGitSync) []model.SiteGitNode {
	var out []model.SiteGitNode
	for _, k := range st.Order {
		if n, ok := st.Nodes[k]; ok {
			out = append(out, n)
		}
	}
	return out
}

func (s *Service) runSiteImport(ctx context.Context, j queue.Job, p sitePayload, st model.SiteGitSync, r *remote) error {
	snap, err := r.fetch(ctx, p.Ref)
	if err != nil {
		return s.concludeSite(ctx, p, j, fmt.Errorf("fetch %s: %w", p.Ref, gitError(err)), nil)
	}
	if snap.commit == nil {
		return s.concludeSite(ctx, p, j, fmt.Errorf("fetch %s: %w", p.Ref, errNoRef), nil)
	}
	file := path.Join(p.ProjectDir, siteConfigFile)
	e, ok := snap.files[file]
	if !ok {
		return s.concludeSite(ctx, p, j, fmt.Errorf("the branch has no %s", file), nil)
	}
	data, err := snap.blob(e.hash)
	if err != nil {
		return fmt.Errorf("read %s: %w", file, err)
	}
	cfg, nodes, err := parseSiteConfig(data)
	if err != nil {
		return s.concludeSite(ctx, p, j, err, nil)
	}
	if nodes, err = s.applyStructure(ctx, p.OrgID, p.SiteID, cfg.Site.Title, nodes, st.Nodes); err != nil {
		return s.siteFailure(ctx, p, j, err)
	}
	ops, err := s.importSpaces(ctx, j, p, nodes, r)
	if err != nil {
		return err
	}
	out := &siteOutcome{title: cfg.Site.Title, commit: snap.commit.Hash.String(), nodes: nodes, spaces: ops}
	var failed error
	for id, op := range ops {
		if op.State != model.GitSuccess {
			failed = fmt.Errorf("space %s: %s", id, op.Error)
		}
	}
	s.d.Logger.InfoContext(ctx, "site Git import", "site", p.SiteID, "job", j.ID, "url", fetch.Redact(p.URL), "ref", p.Ref,
		"commit", out.commit, "nodes", len(nodes))
	return s.concludeSite(ctx, p, j, failed, out)
}

// siteFailure concludes a job with a failure of the structure's change,
// returning storage failures (retried).
func (s *Service) siteFailure(ctx context.Context, p sitePayload, j queue.Job, err error) error {
	if apperr.KindOf(err) == apperr.Internal {
		return err
	}
	return s.concludeSite(ctx, p, j, err, nil)
}

// sitePart is a site job's part for one space with a directory: a job of
// its own on the space's state, its id the site job's and the space's (so
// that a redelivered site job skips the spaces done).
type sitePart struct {
	j queue.Job
	p payload
}

type siteParts []sitePart

func (ps siteParts) spaceIDs() []string {
	out := make([]string, len(ps))
	for i, pt := range ps {
		out[i] = pt.p.SpaceID
	}
	return out
}

// jobID is the id of a space's part.
func (ps siteParts) jobID(spaceID string) string {
	for _, pt := range ps {
		if pt.p.SpaceID == spaceID {
			return pt.j.ID
		}
	}
	return ""
}

// siteParts are the parts of site job sj: one per space node with a
// directory.
func (s *Service) siteParts(sj queue.Job, p sitePayload, nodes []model.SiteGitNode, kind string) siteParts {
	var out siteParts
	for _, n := range nodes {
		if n.Type != "space" || n.Directory == nil || n.SpaceID == "" {
			continue
		}
		dir, _ := resolveSiteDir(p.ProjectDir, *n.Directory)
		out = append(out, sitePart{j: queue.Job{ID: sj.ID + "." + n.SpaceID, Kind: kind, Group: n.SpaceID},
			p: payload{SpaceID: n.SpaceID, URL: p.URL, Auth: p.Auth, Ref: p.Ref, ProjectDir: dir, Force: true, CommitMessage: p.CommitMessage}})
	}
	return out
}

// startPart records a part's operation as running on its space.
func (s *Service) startPart(ctx context.Context, pt sitePart, direction string) error {
	now := s.d.Clock()
	_, err := s.updateState(ctx, pt.p.SpaceID, func(st *model.GitSync) error {
		st.URL, st.Ref, st.UpdatedAt = pt.p.URL, pt.p.Ref, now
		st.Operation = &model.GitOperation{JobID: pt.j.ID, Direction: direction, State: model.GitRunning, Stage: "repo_fetch",
			StartedAt: now, UpdatedAt: now}
		return nil
	})
	return err
}

// partOperation is how a part ended, as its space's state says.
func (s *Service) partOperation(ctx context.Context, pt sitePart) (model.GitOperation, error) {
	st, _, err := s.state(ctx, pt.p.SpaceID)
	if err != nil {
		return model.GitOperation{}, err
	}
	if st.Operation != nil && st.Operation.JobID == pt.j.ID {
		return *st.Operation, nil
	}
	direction := model.GitImport
	if pt.j.Kind == ExportKind {
		direction = model.GitExport
	}
	return model.GitOperation{JobID: pt.j.ID, Direction: direction, State: model.GitFailure, Error: "the space's operation was replaced"}, nil
}

// importSpaces runs the space import of every part of a site import, each
// holding its space's lease (taken for all of them first).
func (s *Service) importSpaces(ctx context.Context, sj queue.Job, p sitePayload, nodes []model.SiteGitNode, r *remote) (map[string]model.GitOperation, error) {
	parts := s.siteParts(sj, p, nodes, ImportKind)
	if err := s.acquireAll(ctx, parts.spaceIDs(), parts.jobID); err != nil {
		return nil, err // a space job works on one of the spaces: retried later
	}
	ops := map[string]model.GitOperation{}
	for _, pt := range parts {
		st, _, err := s.state(ctx, pt.p.SpaceID)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(st.Done, pt.j.ID) {
			if err := s.startPart(ctx, pt, model.GitImport); err != nil {
				return nil, err
			}
			if err := s.runImport(ctx, pt.j, pt.p, r); err != nil {
				return nil, err
			}
		}
		if err := s.release(ctx, pt.p.SpaceID, pt.j.ID); err != nil {
			return nil, err
		}
		if ops[pt.p.SpaceID], err = s.partOperation(ctx, pt); err != nil {
			return nil, err
		}
	}
	return ops, nil
}

// byOrder sorts items by their order key, then id (the sites' display
// order).
func byOrder[T any](items []T, key func(T) (string, string)) []T {
	out := slices.Clone(items)
	sort.SliceStable(out, func(i, j int) bool {
		oi, ii := key(out[i])
		oj, ij := key(out[j])
		if oi != oj {
			return oi < oj
		}
		return ii < ij
	})
	return out
}

func sectionKey(x model.SiteSection) (string, string) { return x.Order, x.ID }
func siteSpaceKey(x model.SiteSpace) (string, string) { return x.Order, x.ID }

// applyStructure makes the site's structure say what nodes say: spaces
// kept by key (created when new or gone), section groups, sections, site
// spaces and external links kept by key, created, updated, moved and
// ordered, the rest of the site's structure removed (docs.yaml is the source of truth of a synced site; the spaces
// themselves stay). It answers nodes with their ids.
func (s *Service) applyStructure(ctx context.Context, orgID, siteID, title string, nodes []model.SiteGitNode, old map[string]model.SiteGitNode) ([]model.SiteGitNode, error) {
	nodes = slices.Clone(nodes)
	load := func() (model.Site, error) { return s.loadSite(ctx, orgID, siteID) }
	site, err := load()
	if err != nil {
		return nil, err
	}
	// Spaces: their titles and languages (content.language, none when
	// docs.yaml gives none).
	for i := range nodes {
		n := &nodes[i]
		if n.Type != "space" {
			continue
		}
		var have model.Space
		if o, ok := old[n.Key]; ok && o.SpaceID != "" {
			sp, _, err := s.spaces.Get(ctx, o.SpaceID)
			switch {
			case err == nil && sp.OrgID == orgID && sp.DeletedAt == nil:
				n.SpaceID, have = sp.ID, sp
			case err != nil && !apperr.Is(err, apperr.NotFound):
				return nil, err
			}
		}
		if n.SpaceID == "" {
			sp, _, err := s.spaces.Create(ctx, orgID, spaces.Create{Title: n.Title})
			if err != nil {
				return nil, fmt.Errorf("space %q: %w", n.Key, err)
			}
			n.SpaceID, have = sp.ID, sp
		}
		var ch spaces.Change
		if have.Title != n.Title {
			t := n.Title
			ch.Title = &t
		}
		if have.Language != n.Language {
			l := n.Language
			ch.Language = &l
		}
		if ch.Title != nil || ch.Language != nil {
			if _, _, err := s.spaces.Update(ctx, n.SpaceID, ch); err != nil {
				return nil, fmt.Errorf("space %q: %w", n.Key, err)
			}
		}
	}
	// External links, groups and sections docs.yaml no longer lists (a
	// deleted group's sections stay, ungrouped). kept are the ids of the
	// items of a type it still lists under the same key.
	kept := func(typ string) map[string]bool {
		ids := map[string]bool{}
		for _, n := range nodes {
			if o, ok := old[n.Key]; ok && n.Type == typ && o.Type == typ {
				ids[o.ID] = true
			}
		}
		return ids
	}
	keepLink, keepGroup, keep := kept("external-link"), kept("section-group"), kept("section")
	for _, l := range site.ExternalLinks {
		if keepLink[l.ID] {
			continue
		}
		if _, err := s.structure.DeleteExternalLink(ctx, orgID, siteID, l.ID); err != nil {
			return nil, err
		}
	}
	for _, g := range site.Groups {
		if keepGroup[g.ID] {
			continue
		}
		if _, err := s.structure.DeleteGroup(ctx, orgID, siteID, g.ID); err != nil {
			return nil, err
		}
	}
	if site, err = load(); err != nil {
		return nil, err
	}
	for _, sec := range site.Sections {
		if !keep[sec.ID] {
			if _, err := s.structure.DeleteSection(ctx, orgID, siteID, sec.ID); err != nil {
				return nil, err
			}
		}
	}
	if site, err = load(); err != nil {
		return nil, err
	}
	// Groups.
	groupID := map[string]string{} // key -> group id
	for i := range nodes {
		n := &nodes[i]
		if n.Type != "section-group" {
			continue
		}
		if o, ok := old[n.Key]; ok && o.Type == "section-group" && slices.ContainsFunc(site.Groups, func(x model.SiteSectionGroup) bool { return x.ID == o.ID }) {
			n.ID = o.ID
		} else if site, n.ID, _, err = s.structure.AddGroup(ctx, orgID, siteID, n.Title, n.Icon, nil); err != nil {
			return nil, fmt.Errorf("section group %q: %w", n.Key, err)
		}
		groupID[n.Key] = n.ID
		g, _ := findGroup(site, n.ID)
		var ch sites.GroupChange
		var c fieldChanges
		c.str(&ch.Title, nil, g.Title, n.Title)
		c.str(&ch.Icon, &ch.ClearIcon, g.Icon, n.Icon)
		if c.changed {
			if site, _, err = s.structure.UpdateGroup(ctx, orgID, siteID, n.ID, ch); err != nil {
				return nil, fmt.Errorf("section group %q: %w", n.Key, err)
			}
		}
	}
	// Sections.
	secID := map[string]string{} // key -> section id
	for i := range nodes {
		n := &nodes[i]
		if n.Type != "section" {
			continue
		}
		if o, ok := old[n.Key]; ok && slices.ContainsFunc(site.Sections, func(x model.SiteSection) bool { return x.ID == o.ID }) {
			n.ID = o.ID
		} else {
			// The section is made holding one of its spaces: one that
			// is not moving in from another section when there is one,
			// so that the moving ones keep their site spaces.
			first := ""
			for _, c := range nodes {
				if c.Parent == n.Key && (first == "" || !movable(site, c, old)) {
					first = c.SpaceID
					if !movable(site, c, old) {
						break
					}
				}
			}
			if site, n.ID, _, err = s.structure.AddSection(ctx, orgID, siteID, first, n.Title, n.Icon); err != nil {
				return nil, fmt.Errorf("section %q: %w", n.Key, err)
			}
		}
		secID[n.Key] = n.ID
		sec, _ := findSection(site, n.ID)
		ch := sites.SectionChange{}
		var c fieldChanges
		c.str(&ch.Title, nil, sec.Title, n.Title)
		c.str(&ch.Path, nil, sec.Path, n.Path)
		c.str(&ch.Description, &ch.ClearDescription, sec.Description, n.Description)
		c.str(&ch.Icon, &ch.ClearIcon, sec.Icon, n.Icon)
		c.str(&ch.Condition, &ch.ClearCondition, sec.Condition, n.Condition)
		if c.changed {
			if site, _, err = s.structure.UpdateSection(ctx, orgID, siteID, n.ID, ch); err != nil {
				return nil, fmt.Errorf("section %q: %w", n.Key, err)
			}
		}
	}
	if site, err = s.placeLinks(ctx, orgID, siteID, site, nodes, groupID, old); err != nil {
		return nil, err
	}
	if site, err = s.placeSiteSpaces(ctx, orgID, siteID, site, nodes, secID, old); err != nil {
		return nil, err
	}
	if site, err = load(); err != nil {
		return nil, err
	}
	for _, n := range nodes {
		if n.Type != "space" {
			continue
		}
		ss, _ := findSiteSpace(site, n.ID)
		ch := sites.SiteSpaceChange{}
		var c fieldChanges
		c.str(&ch.Path, nil, ss.Path, n.Path)
		c.str(&ch.Condition, &ch.ClearCondition, ss.Condition, n.Condition)
		c.flag(&ch.Hidden, ss.Hidden, n.Hidden)
		if c.changed {
			if site, _, err = s.structure.UpdateSiteSpace(ctx, orgID, siteID, n.ID, ch); err != nil {
				return nil, fmt.Errorf("space %q: %w", n.Key, err)
			}
		}
	}
	// Order: what is out of order moves to the end, in docs.yaml's order.
	// Sections first leave a group they no longer belong to, then each
	// group's sections and links are set (out of order: each section taken
	// out and added back at the end, each link sorted to the end), then
	// the top level's items (ungrouped sections and links, and groups).
	var wantTop []string
	kind := map[string]string{}      // item id -> node type
	inGroup := map[string][]string{} // group id -> section and link ids
	levels := map[string][]string{}
	for _, n := range nodes {
		kind[n.ID] = n.Type
		switch {
		case n.Type == "section-group":
			wantTop = append(wantTop, n.ID)
			inGroup[n.ID] = []string{}
		case n.Type == "space":
			levels[secID[n.Parent]] = append(levels[secID[n.Parent]], n.ID)
		case n.Parent == "":
			wantTop = append(wantTop, n.ID)
		default:
			inGroup[groupID[n.Parent]] = append(inGroup[groupID[n.Parent]], n.ID)
		}
	}
	toEnd := func(id string) (model.Site, error) {
		var err error
		switch kind[id] {
		case "section-group":
			site, _, err = s.structure.MoveGroup(ctx, orgID, siteID, id, sites.Position{})
		case "external-link":
			site, _, err = s.structure.SortStructure(ctx, orgID, siteID, sites.Pointer{Type: sites.PointerExternalLink, ID: id}, sites.Position{})
		default:
			site, _, err = s.structure.MoveSection(ctx, orgID, siteID, id, sites.Position{})
		}
		return site, err
	}
	for _, id := range wantTop {
		if sec, ok := findSection(site, id); ok && sec.Group != "" {
			if site, _, err = s.structure.MoveSection(ctx, orgID, siteID, id, sites.Position{}); err != nil {
				return nil, err
			}
		}
	}
	for g, want := range inGroup {
		if slices.Equal(itemIDs(sites.TreeOf(&site).GroupItems(g)), want) {
			continue
		}
		for _, id := range want {
			if kind[id] == "external-link" {
				if site, err = toEnd(id); err != nil {
					return nil, err
				}
				continue
			}
			if sec, _ := findSection(site, id); sec.Group == g {
				if site, _, err = s.structure.MoveSection(ctx, orgID, siteID, id, sites.Position{}); err != nil {
					return nil, err
				}
			}
			if site, _, err = s.structure.AddToGroup(ctx, orgID, siteID, g, id); err != nil {
				return nil, err
			}
		}
	}
	if !slices.Equal(itemIDs(sites.TreeOf(&site).Top()), wantTop) {
		for _, id := range wantTop {
			if site, err = toEnd(id); err != nil {
				return nil, err
			}
		}
	}
	for level, want := range levels {
		var have []string
		for _, ss := range byOrder(site.SiteSpaces, siteSpaceKey) {
			if ss.Section == level {
				have = append(have, ss.ID)
			}
		}
		if !slices.Equal(have, want) {
			for _, id := range want {
				if site, _, err = s.structure.MoveSiteSpace(ctx, orgID, siteID, id, sites.Position{}); err != nil {
					return nil, err
				}
			}
		}
	}
	// Defaults and the title.
	var ch sites.SiteChange
	changed := false
	for _, n := range nodes {
		switch {
		case n.Type == "section" && n.Default:
			if sec, _ := findSection(site, n.ID); !sec.Default {
				id := n.ID
				ch.DefaultSiteSection, changed = &id, true
			}
		case n.Type == "space" && n.Default && n.Parent == "":
			if ss, _ := findSiteSpace(site, n.ID); !ss.Default {
				id := n.ID
				ch.DefaultSiteSpace, changed = &id, true
			}
		}
	}
	if title != "" && title != site.Title {
		t := title
		ch.Title, changed = &t, true
	}
	if changed {
		if site, _, err = s.structure.Update(ctx, orgID, siteID, ch); err != nil {
			return nil, err
		}
	}
	for _, n := range nodes {
		if n.Type == "space" && n.Default && n.Parent != "" {
			if ss, _ := findSiteSpace(site, n.ID); !ss.Default {
				id := n.ID
				if site, _, err = s.structure.UpdateSection(ctx, orgID, siteID, ss.Section, sites.SectionChange{DefaultSiteSpace: &id}); err != nil {
					return nil, err
				}
			}
		}
	}
	return nodes, nil
}

// movable tells whether a space node's site space (the one its key stood
// for at the last sync) is still in the site showing the node's space: it
// is kept, moved when its section changed.
func movable(site model.Site, n model.SiteGitNode, old map[string]model.SiteGitNode) bool {
	o, ok := old[n.Key]
	if !ok || n.Type != "space" {
		return false
	}
	ss, ok := findSiteSpace(site, o.ID)
	return ok && ss.SpaceID == n.SpaceID
}

// placeSiteSpaces gives every space node its site space in its level
// (secID: section keys to ids): the one its key stood for, moved (same id,
// same space, content untouched) when docs.yaml put it in another section;
// else a site space of that space the level holds already; else a new one.
// What the site holds besides is removed. A move the sites' invariants
// refuse (the last site space of a section, a path taken in the
// destination) falls back to a new site space in the destination.
func (s *Service) placeSiteSpaces(ctx context.Context, orgID, siteID string, site model.Site, nodes []model.SiteGitNode, secID map[string]string, old map[string]model.SiteGitNode) (model.Site, error) {
	claimed := map[string]bool{}
	var moving []*model.SiteGitNode
	for i := range nodes {
		n := &nodes[i]
		if n.Type != "space" {
			continue
		}
		n.ID = ""
		if movable(site, *n, old) {
			ss, _ := findSiteSpace(site, old[n.Key].ID)
			if ss.Section != secID[n.Parent] {
				moving = append(moving, n)
				claimed[ss.ID] = true // reserved for the move
				continue
			}
			n.ID = ss.ID
		}
		n.ID = inLevel(site, n.ID, n.SpaceID, secID[n.Parent], claimed)
		if n.ID != "" {
			claimed[n.ID] = true
		}
	}
	var err error
	// What no node takes goes first, so that its path is free for a site
	// space moving in; the last site space of a section stays until its
	// section goes or others joined it.
	for _, ss := range site.SiteSpaces {
		if claimed[ss.ID] {
			continue
		}
		if _, err := s.structure.DeleteSiteSpace(ctx, orgID, siteID, ss.ID); err != nil && apperr.KindOf(err) != apperr.Conflict {
			return site, err
		}
	}
	if site, err = s.loadSite(ctx, orgID, siteID); err != nil {
		return site, err
	}
	// New site spaces first: a section left by a moving site space may
	// need one not to be empty.
	add := func(n *model.SiteGitNode) error {
		if site, n.ID, _, err = s.structure.AddSiteSpace(ctx, orgID, siteID, n.SpaceID, secID[n.Parent]); err != nil {
			return fmt.Errorf("space %q: %w", n.Key, err)
		}
		claimed[n.ID] = true
		return nil
	}
	for i := range nodes {
		if n := &nodes[i]; n.Type == "space" && n.ID == "" && !slices.Contains(moving, n) {
			if err := add(n); err != nil {
				return site, err
			}
		}
	}
	for _, n := range moving {
		level, from := secID[n.Parent], old[n.Key].ID
		delete(claimed, from)
		if n.ID = inLevel(site, "", n.SpaceID, level, claimed); n.ID != "" {
			claimed[n.ID] = true // the level holds that space already: its site space is the node's
			continue
		}
		var last string
		for _, ss := range byOrder(site.SiteSpaces, siteSpaceKey) {
			if ss.Section == level && ss.ID != from {
				last = ss.ID
			}
		}
		if last != "" {
			site, _, err = s.structure.MoveSiteSpace(ctx, orgID, siteID, from, sites.Position{After: &sites.Pointer{Type: "site-space", ID: last}})
			switch {
			case err == nil:
				n.ID, claimed[from] = from, true
				continue
			case apperr.KindOf(err) != apperr.Conflict:
				return site, fmt.Errorf("space %q: %w", n.Key, err)
			}
			if site, err = s.loadSite(ctx, orgID, siteID); err != nil {
				return site, err
			}
		}
		if err := add(n); err != nil {
			return site, err
		}
	}
	for _, ss := range site.SiteSpaces {
		if !claimed[ss.ID] {
			if _, err := s.structure.DeleteSiteSpace(ctx, orgID, siteID, ss.ID); err != nil {
				return site, err
			}
		}
	}
	return s.loadSite(ctx, orgID, siteID)
}

// inLevel answers id when set, else an unclaimed site space of spaceID in
// the level, else "".
func inLevel(site model.Site, id, spaceID, level string, claimed map[string]bool) string {
	if id != "" {
		return id
	}
	for _, ss := range site.SiteSpaces {
		if ss.SpaceID == spaceID && ss.Section == level && !claimed[ss.ID] {
			return ss.ID
		}
	}
	return ""
}

// loadSite reads a site as the caller.
func (s *Service) loadSite(ctx context.Context, orgID, siteID string) (model.Site, error) {
	l, err := s.structure.Get(ctx, orgID, siteID)
	return l.Site, err
}

func findSection(site model.Site, id string) (model.SiteSection, bool) {
	for _, x := range site.Sections {
		if x.ID == id {
			return x, true
		}
	}
	return model.SiteSection{}, false
}

func findGroup(site model.Site, id string) (model.SiteSectionGroup, bool) {
	for _, x := range site.Groups {
		if x.ID == id {
			return x, true
		}
	}
	return model.SiteSectionGroup{}, false
}

// itemIDs are the ids of items of a site's structure, in their order.
func itemIDs(items []sites.TopItem) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		if id := it.ID(); id != "" {
			out = append(out, id)
		}
	}
	return out
}

func findSiteSpace(site model.Site, id string) (model.SiteSpace, bool) {
	for _, x := range site.SiteSpaces {
		if x.ID == id {
			return x, true
		}
	}
	return model.SiteSpace{}, false
}
