package gitsynchttp

import (
	"context"
	"net/http"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/gitsync"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
)

// SiteGitBody is the body of POST .../sites/{siteId}/git/import and
// .../git/export (Galley's own operations: GitBook's reference drives
// site-wide Git Sync through its provider installations).
type SiteGitBody struct {
	URL                  string `json:"url" minLength:"1" maxLength:"2048" doc:"URL of the repository; it may embed basic-auth credentials, used for this operation only"`
	Ref                  string `json:"ref" minLength:"1" maxLength:"255" doc:"Branch: refs/heads/<branch>"`
	RepoProjectDirectory string `json:"repoProjectDirectory,omitempty" maxLength:"512" doc:"The site's project directory: the folder holding docs.yaml (the repository's top when empty)"`
	CommitMessage        string `json:"commitMessage,omitempty" maxLength:"10000" doc:"Message of the commits of an export (required to export)"`
	Force                bool   `json:"force,omitempty" doc:"Export even when the branch has commits the site has not imported"`
}

// GitSyncSiteOperation is a site's import or export (the reference's
// GitSyncSiteOperation), with each space's, by space id.
type GitSyncSiteOperation struct {
	State       string                      `json:"state" enum:"running,failure,success"`
	Direction   string                      `json:"direction" enum:"export,import"`
	Stage       string                      `json:"stage" enum:"repo_fetch,config_check,content_process,finalize"`
	StartedAt   time.Time                   `json:"startedAt"`
	UpdatedAt   time.Time                   `json:"updatedAt"`
	CompletedAt *time.Time                  `json:"completedAt,omitempty"`
	Error       string                      `json:"error,omitempty"`
	Spaces      map[string]GitSyncOperation `json:"spaces,omitempty"`
}

// SiteGitKey is one key of docs.yaml and what it stands for in the site.
type SiteGitKey struct {
	Key       string `json:"key"`
	Type      string `json:"type" enum:"section-group,section,space"`
	ID        string `json:"id" doc:"The section group's, site section's or site space's id"`
	SpaceID   string `json:"spaceId,omitempty"`
	Directory string `json:"directory,omitempty" doc:"content.directory as docs.yaml gives it"`
}

// SiteGitInfo is the answer of GET .../sites/{siteId}/git/info.
type SiteGitInfo struct {
	RepoName   string                `json:"repoName,omitempty"`
	URL        string                `json:"url"`
	Ref        string                `json:"ref"`
	Directory  string                `json:"directory,omitempty" doc:"The site's project directory"`
	LastCommit string                `json:"lastCommit,omitempty"`
	UpdatedAt  time.Time             `json:"updatedAt"`
	Keys       []SiteGitKey          `json:"keys"`
	Operation  *GitSyncSiteOperation `json:"operation,omitempty" doc:"The last import or export requested"`
}

// opView renders an import or export: one task, completed once it is no
// longer running.
func opView(op model.GitOperation) GitSyncOperation {
	done := 0
	if op.State != model.GitRunning {
		done = 1
	}
	return GitSyncOperation{State: op.State, Direction: op.Direction, Stage: op.Stage, DispatchedTasks: 1, CompletedTasks: done,
		StartedAt: op.StartedAt, UpdatedAt: op.UpdatedAt, CompletedAt: op.CompletedAt, Error: op.Error}
}

// SiteInfoView renders a site's Git Sync state.
func SiteInfoView(st model.SiteGitSync) SiteGitInfo {
	v := SiteGitInfo{RepoName: repoName(st.URL), URL: st.URL, Ref: st.Ref, Directory: st.Dir, LastCommit: st.LastCommit,
		UpdatedAt: st.UpdatedAt, Keys: []SiteGitKey{}}
	for _, k := range st.Order {
		n := st.Nodes[k]
		key := SiteGitKey{Key: k, Type: n.Type, ID: n.ID, SpaceID: n.SpaceID}
		if n.Directory != nil {
			key.Directory = *n.Directory
		}
		v.Keys = append(v.Keys, key)
	}
	if op := st.Operation; op != nil {
		o := &GitSyncSiteOperation{State: op.State, Direction: op.Direction, Stage: op.Stage, StartedAt: op.StartedAt,
			UpdatedAt: op.UpdatedAt, CompletedAt: op.CompletedAt, Error: op.Error}
		if len(op.Spaces) > 0 {
			o.Spaces = map[string]GitSyncOperation{}
			for id, sop := range op.Spaces {
				o.Spaces[id] = opView(sop)
			}
		}
		v.Operation = o
	}
	return v
}

// SitePath is the path of a site's Git operations.
type SitePath struct {
	OrgID  string `path:"organizationId" maxLength:"64"`
	SiteID string `path:"siteId" maxLength:"64"`
}

// siteGitIn is the input of a site's import and export.
type siteGitIn struct {
	SitePath
	Body SiteGitBody
}

// registerSite adds site-wide Git Sync's operations.
func registerSite(api *httpapi.API, s *gitsync.Service) {
	const tag, base = "Git", "/v1/orgs/{organizationId}/sites/{siteId}/git"
	req := func(b SiteGitBody) gitsync.Request {
		return gitsync.Request{URL: b.URL, Ref: b.Ref, ProjectDir: b.RepoProjectDirectory, CommitMessage: b.CommitMessage, Force: b.Force}
	}
	httpapi.Register(api, httpapi.Op{ID: "importSiteGitRepository", Idempotent: true, Needs: access.Role(access.AdminContent), Expensive: true, Method: http.MethodPost, Path: base + "/import", Tag: tag,
		Status: http.StatusNoContent, Summary: "Import a site's structure (docs.yaml) and spaces from a Git repository (in the background)"},
		func(ctx context.Context, in *siteGitIn) (*struct{}, error) {
			return nil, s.ImportSite(ctx, in.OrgID, in.SiteID, req(in.Body))
		})
	httpapi.Register(api, httpapi.Op{ID: "exportSiteToGitRepository", Idempotent: true, Needs: access.Role(access.AdminContent), Expensive: true, Method: http.MethodPost, Path: base + "/export", Tag: tag,
		Status: http.StatusNoContent, Summary: "Export a site's spaces, and its docs.yaml when its structure changed, to a Git repository (in the background)"},
		func(ctx context.Context, in *siteGitIn) (*struct{}, error) {
			return nil, s.ExportSite(ctx, in.OrgID, in.SiteID, req(in.Body))
		})
	httpapi.Register(api, httpapi.Op{ID: "getSiteGitInfo", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: base + "/info", Tag: tag,
		Summary: "Get a site's Git Sync details, docs.yaml's keys and the last operation"},
		func(ctx context.Context, in *SitePath) (*httpapi.Out[SiteGitInfo], error) {
			return httpapi.Answer(SiteInfoView)(s.SiteInfo(ctx, in.OrgID, in.SiteID))
		})
}
