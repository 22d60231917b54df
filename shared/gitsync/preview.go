package gitsync

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/galleydocs/galley/shared/apperr"
	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/queue"
	"github.com/galleydocs/galley/shared/store"
)

// Pull-request previews (docs/workers.md, "Pull-request previews"): a pull
// request into the synced branch, opened or updated, imports its head into
// a revision of the space that is not its head, recorded as the state's
// preview of the request's number; closing or merging it removes the
// preview. The reader serves a preview to the organization's members only.

// HookRemoved: the delivery removed a pull request's preview.
const HookRemoved = "removed"

// pullRequest is a pull-request event as the hosts send it: the request's
// number, whether it closed (merged or not), the ref its head is fetched
// from and that head's commit, and the branch it targets
// (refs/heads/<branch>). other names an action that changes no content
// (edited, labeled...): ignored.
type pullRequest struct {
	number       int
	closed       bool
	head, commit string
	base, other  string
	// fork: the head is in another repository (a fork) and the host keeps
	// no ref of it in the synced one.
	fork bool
}

// branchRef is refs/heads/<name>.
func branchRef(name string) string {
	if name == "" || strings.HasPrefix(name, "refs/") {
		return name
	}
	return "refs/heads/" + name
}

// forkRef matches the refs hosts keep of a pull request's head in the
// repository it targets: GitHub's, Gitea's and Forgejo's refs/pull/<n>/head,
// GitLab's refs/merge-requests/<n>/head, Bitbucket Server's
// refs/pull-requests/<n>/from.
var forkRef = regexp.MustCompile(`^refs/(pull/[0-9]+/head|merge-requests/[0-9]+/head|pull-requests/[0-9]+/from)$`)

// githubPull reads the pull_request event of GitHub, Gitea and Forgejo:
// {action, number, pull_request: {head: {ref, sha}, base: {ref}}}.
// GitHub's update is "synchronize", Gitea's and Forgejo's "synchronized".
func githubPull(body []byte) (pullRequest, error) {
	type side struct {
		Ref, Sha string
		Repo     *struct {
			FullName string `json:"full_name"`
		}
	}
	var p struct {
		Action      string
		Number      int
		PullRequest struct {
			Number     int
			Head, Base side
		} `json:"pull_request"`
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return pullRequest{}, err
	}
	q := p.PullRequest
	pr := pullRequest{number: p.Number, head: branchRef(q.Head.Ref), commit: q.Head.Sha, base: branchRef(q.Base.Ref)}
	if pr.number == 0 {
		pr.number = q.Number
	}
	if q.Head.Repo == nil || q.Base.Repo == nil || !strings.EqualFold(q.Head.Repo.FullName, q.Base.Repo.FullName) {
		// From a fork (or one deleted since): the host's ref of the head.
		pr.head = fmt.Sprintf("refs/pull/%d/head", pr.number)
	}
	switch p.Action {
	case "opened", "synchronize", "synchronized", "reopened":
	case "closed":
		pr.closed = true
	default:
		pr.other = p.Action
	}
	return pr, nil
}

// gitlabPull reads GitLab's Merge Request Hook: object_attributes {iid,
// action, source_branch, target_branch, last_commit.id}.
func gitlabPull(body []byte) (pullRequest, error) {
	var p struct {
		ObjectAttributes struct {
			IID             int                 `json:"iid"`
			Action          string              `json:"action"`
			SourceBranch    string              `json:"source_branch"`
			TargetBranch    string              `json:"target_branch"`
			SourceProjectID int64               `json:"source_project_id"`
			TargetProjectID int64               `json:"target_project_id"`
			LastCommit      struct{ ID string } `json:"last_commit"`
		} `json:"object_attributes"`
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return pullRequest{}, err
	}
	a := p.ObjectAttributes
	pr := pullRequest{number: a.IID, head: branchRef(a.SourceBranch), commit: a.LastCommit.ID, base: branchRef(a.TargetBranch)}
	if a.SourceProjectID != a.TargetProjectID {
		pr.head = fmt.Sprintf("refs/merge-requests/%d/head", pr.number)
	}
	switch a.Action {
	case "open", "reopen", "update":
	case "close", "merge":
		pr.closed = true
	default:
		pr.other = a.Action
	}
	return pr, nil
}

// bitbucketCloudPull reads pullrequest:created/updated/fulfilled/rejected:
// pullrequest {id, source {branch.name, commit.hash}, destination.branch.name}.
func bitbucketCloudPull(event string, body []byte) (pullRequest, error) {
	type side struct {
		Branch     struct{ Name string }
		Commit     struct{ Hash string }
		Repository struct {
			FullName string `json:"full_name"`
		}
	}
	var p struct {
		PullRequest struct {
			ID          int
			Source      side
			Destination side
		} `json:"pullrequest"`
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return pullRequest{}, err
	}
	q := p.PullRequest
	pr := pullRequest{number: q.ID, head: branchRef(q.Source.Branch.Name), commit: q.Source.Commit.Hash, base: branchRef(q.Destination.Branch.Name),
		fork: !strings.EqualFold(q.Source.Repository.FullName, q.Destination.Repository.FullName)}
	switch event {
	case "pullrequest:created", "pullrequest:updated":
	case "pullrequest:fulfilled", "pullrequest:rejected":
		pr.closed = true
	default:
		pr.other = event
	}
	return pr, nil
}

// bitbucketServerPull reads pr:opened/from_ref_updated/merged/declined/
// deleted: pullRequest {id, fromRef {id, latestCommit}, toRef.id}.
func bitbucketServerPull(event string, body []byte) (pullRequest, error) {
	var p struct {
		PullRequest struct {
			ID             int
			FromRef, ToRef struct {
				ID, LatestCommit string
				Repository       struct{ ID int64 }
			}
		}
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return pullRequest{}, err
	}
	q := p.PullRequest
	pr := pullRequest{number: q.ID, head: q.FromRef.ID, commit: q.FromRef.LatestCommit, base: q.ToRef.ID}
	if q.FromRef.Repository.ID != q.ToRef.Repository.ID {
		pr.head = fmt.Sprintf("refs/pull-requests/%d/from", pr.number)
	}
	switch event {
	case "pr:opened", "pr:from_ref_updated":
	case "pr:merged", "pr:declined", "pr:deleted":
		pr.closed = true
	default:
		pr.other = event
	}
	return pr, nil
}

// pullDecision is what a verified, new pull-request delivery does to a
// state: a closed request's preview is removed; an opened or updated
// one's head is announced (Pending) and its import queued (the job).
func (s *Service) pullDecision(ctx context.Context, st *model.GitSync, pr pullRequest) (HookResult, *queue.Job, error) {
	ignore := func(reason string) (HookResult, *queue.Job, error) {
		return HookResult{Outcome: HookIgnored, Reason: reason}, nil, nil
	}
	key := strconv.Itoa(pr.number)
	switch {
	case st.SyncURL == "":
		return ignore("the space has no synced branch")
	case pr.number <= 0:
		return ignore("the pull request has no number")
	case pr.base != st.SyncRef:
		return ignore("a pull request into another branch than " + st.SyncRef)
	case pr.closed:
		if _, ok := st.Previews[key]; !ok {
			return ignore("the pull request has no preview")
		}
		delete(st.Previews, key)
		return HookResult{Outcome: HookRemoved, Reason: fmt.Sprintf("pull request #%d closed: its preview is removed", pr.number)}, nil, nil
	case pr.other != "":
		return ignore("a pull request's " + pr.other + ": the content did not change")
	case st.Paused:
		return ignore("the space's sync is paused")
	case pr.fork:
		return ignore("a pull request from a fork: the host keeps no ref of its head in the synced repository")
	case !validRef(pr.head) && !forkRef.MatchString(pr.head):
		return ignore("the pull request's branch is not a branch of the repository")
	}
	cur, ok := st.Previews[key]
	// Bitbucket Cloud names commits by a prefix of their hash.
	if ok && len(pr.commit) >= 7 && strings.HasPrefix(cur.Commit, pr.commit) && cur.Pending == "" && cur.Error == "" {
		return ignore("the preview is at this commit already")
	}
	now := s.d.Clock()
	p := payload{SpaceID: st.SpaceID, URL: st.SyncURL, Auth: st.AuthFor(st.SyncURL), Ref: pr.head, ProjectDir: st.SyncDir, Timestamp: &now,
		Trigger: "webhook", Preview: pr.number, Commit: pr.commit}
	job, _, err := s.newJob(ctx, ImportKind, st.SpaceID, false, "", "", &p.Auth, &p)
	if err != nil {
		return HookResult{}, nil, err
	}
	cur.Number, cur.Branch, cur.Pending, cur.Error = pr.number, pr.head, job.ID, ""
	if st.Previews == nil {
		st.Previews = map[string]model.GitPreview{}
	}
	st.Previews[key] = cur
	return HookResult{Outcome: HookQueued, Reason: fmt.Sprintf("pull request #%d: its preview is built", pr.number), JobID: job.ID}, &job, nil
}

// runPreview imports a pull request's branch into a revision of the space
// that is not its head and records it as the request's preview, if the
// request still waits for this job (a newer update or a close since
// leaves it: its result would be stale). A Git failure is recorded on the
// preview (the previous revision, if any, stays); the next update retries.
func (s *Service) runPreview(ctx context.Context, j queue.Job, p payload) error {
	key := strconv.Itoa(p.Preview)
	waiting := func(st model.GitSync) bool {
		cur, ok := st.Previews[key]
		return ok && cur.Pending == j.ID
	}
	st, _, err := s.state(ctx, p.SpaceID)
	if err != nil || !waiting(st) {
		return err
	}
	r, err := s.openRemote(ctx, p.URL, p.Auth)
	if err != nil {
		return s.previewFailed(ctx, p, j, err)
	}
	snap, err := r.fetch(ctx, p.Ref)
	if err == nil && snap.commit == nil {
		err = errNoRef
	}
	if err != nil {
		return s.previewFailed(ctx, p, j, fmt.Errorf("fetch %s: %w", p.Ref, gitError(err)))
	}
	commit := snap.commit.Hash.String()
	files, err := s.readProject(snap, layoutOf(snap, p.ProjectDir))
	if err != nil {
		return s.previewFailed(ctx, p, j, err)
	}
	sp, err := s.readSpace(ctx, p.SpaceID)
	if apperr.Is(err, apperr.NotFound) {
		return nil
	} else if err != nil {
		return err
	}
	// Built on the space's head: its pages keep their ids where the
	// branch keeps their paths, and the revision's parent is the head.
	_, head, err := s.content.Repo.Load(ctx, p.SpaceID, sp.Revision)
	if err != nil {
		return err
	}
	b, err := s.build(ctx, p.SpaceID, files, head, nil)
	if apperr.Is(err, apperr.Invalid) {
		return s.previewFailed(ctx, p, j, err)
	} else if err != nil {
		return err
	}
	rev, err := s.content.Repo.NewRevision(ctx, p.SpaceID, content.RevisionEdits, []string{sp.Revision}, b.ix)
	if err != nil {
		return err
	}
	rev.Git = &model.GitCommit{OID: commit, Message: strings.TrimRight(snap.commit.Message, "\n"), Ref: p.Ref}
	err = store.Retry(ctx, func() error {
		st, v, err := s.state(ctx, p.SpaceID)
		if err != nil || !waiting(st) {
			return err
		}
		st.Previews[key] = model.GitPreview{Number: p.Preview, Revision: rev.ID, Commit: commit, Branch: p.Ref, UpdatedAt: s.d.Clock()}
		// The revision is written with the state, never as the head.
		return s.d.Store.Write(ctx, content.Put(rev), stateOp(st, v))
	})
	if err != nil {
		return err
	}
	s.d.Logger.InfoContext(ctx, "Git pull-request preview", "space", p.SpaceID, "job", j.ID, "number", p.Preview,
		"ref", p.Ref, "commit", commit, "revision", rev.ID)
	return nil
}

// previewFailed records a preview's failure (its previous revision, if
// any, stays served) and stops waiting for the job.
func (s *Service) previewFailed(ctx context.Context, p payload, j queue.Job, cause error) error {
	s.d.Logger.WarnContext(ctx, "Git pull-request preview failed", "space", p.SpaceID, "job", j.ID, "number", p.Preview,
		"err", cause.Error())
	key := strconv.Itoa(p.Preview)
	_, err := s.updateState(ctx, p.SpaceID, func(st *model.GitSync) error {
		if cur, ok := st.Previews[key]; ok && cur.Pending == j.ID {
			cur.Pending, cur.Error, cur.Code = "", cause.Error(), failureCode(cause)
			st.Previews[key] = cur
		}
		return nil
	})
	return err
}
