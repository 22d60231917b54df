// Package gitsynchttp is the Git Sync family's HTTP layer: its operations
// (import and export requests, Git info), request bodies and response
// shapes, on the service of package gitsync (which knows no HTTP).
package gitsynchttp

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/gitsync"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
)

// GitInfoBody is the gitInfo of a request: provider details to keep on the
// space.
type GitInfoBody struct {
	Provider string `json:"provider,omitempty" enum:"github,gitlab" doc:"The Git provider"`
	URL      string `json:"url,omitempty" maxLength:"2048" doc:"The repository's tree URL"`
}

// ImportGitBody is the body of POST /v1/spaces/{spaceId}/git/import.
type ImportGitBody struct {
	URL                  string       `json:"url" minLength:"1" maxLength:"2048" doc:"URL of the repository; it may embed basic-auth credentials, used for this import only"`
	Ref                  string       `json:"ref" minLength:"1" maxLength:"255" doc:"Branch to import: refs/heads/<branch>"`
	RepoCacheID          string       `json:"repoCacheID,omitempty" maxLength:"255" doc:"Accepted; Galley keeps no repository cache"`
	RepoTreeURL          string       `json:"repoTreeURL,omitempty" maxLength:"2048" doc:"Prefix for external file references"`
	RepoCommitURL        string       `json:"repoCommitURL,omitempty" maxLength:"2048" doc:"Prefix of commit URLs"`
	RepoProjectDirectory string       `json:"repoProjectDirectory,omitempty" maxLength:"512" doc:"Folder of the repository holding the content (absent or \"/\": the top)"`
	Timestamp            *time.Time   `json:"timestamp,omitempty" doc:"When the triggering event happened: imports and exports older than the last applied are skipped"`
	Force                bool         `json:"force,omitempty" doc:"Apply even when older than the last import or export"`
	Standalone           bool         `json:"standalone,omitempty" doc:"Make a revision without moving the space's content to it"`
	GitInfo              *GitInfoBody `json:"gitInfo,omitempty"`
}

// ExportGitBody is the body of POST /v1/spaces/{spaceId}/git/export.
type ExportGitBody struct {
	URL                  string       `json:"url" minLength:"1" maxLength:"2048" doc:"URL of the repository; it may embed basic-auth credentials, used for this export only"`
	Ref                  string       `json:"ref" minLength:"1" maxLength:"255" doc:"Branch to push to: refs/heads/<branch>"`
	CommitMessage        string       `json:"commitMessage" minLength:"1" maxLength:"10000"`
	RepoCacheID          string       `json:"repoCacheID,omitempty" maxLength:"255" doc:"Accepted; Galley keeps no repository cache"`
	RepoTreeURL          string       `json:"repoTreeURL,omitempty" maxLength:"2048"`
	RepoCommitURL        string       `json:"repoCommitURL,omitempty" maxLength:"2048"`
	RepoProjectDirectory string       `json:"repoProjectDirectory,omitempty" maxLength:"512" doc:"Folder of the repository to write the content to; absent: the folder of the space's last sync when it was with this repository, else the top; \"/\": the top"`
	Timestamp            *time.Time   `json:"timestamp,omitempty"`
	Force                bool         `json:"force,omitempty" doc:"Export even when the branch has commits the space has not imported"`
	GitInfo              *GitInfoBody `json:"gitInfo,omitempty"`
}

// GitSyncState is the answer of GET .../git/info (the reference's
// GitSyncState), with the last operation.
type GitSyncState struct {
	RepoName             string            `json:"repoName,omitempty"`
	InstallationProvider string            `json:"installationProvider,omitempty" enum:"github,gitlab,github-legacy"`
	Integration          string            `json:"integration,omitempty"`
	URL                  string            `json:"url,omitempty"`
	UpdatedAt            time.Time         `json:"updatedAt"`
	Operation            *GitSyncOperation `json:"operation,omitempty" doc:"The last import or export requested"`
	GalleySync           *GitSyncStatus    `json:"galleySync,omitempty" doc:"Galley's sync status: settings (without secrets), the last sync of each direction, the jobs pending"`
}

// GitSyncOperation is an import or export (the reference's GitSyncOperation).
type GitSyncOperation struct {
	State           string     `json:"state" enum:"running,failure,success"`
	Direction       string     `json:"direction" enum:"export,import"`
	Stage           string     `json:"stage" enum:"repo_fetch,config_check,content_process,finalize"`
	DispatchedTasks int        `json:"dispatchedTasks"`
	CompletedTasks  int        `json:"completedTasks"`
	StartedAt       time.Time  `json:"startedAt"`
	UpdatedAt       time.Time  `json:"updatedAt"`
	CompletedAt     *time.Time `json:"completedAt,omitempty"`
	Error           string     `json:"error,omitempty"`
}

// InfoView renders a space's Git Sync state.
func InfoView(st model.GitSync) GitSyncState {
	v := GitSyncState{RepoName: repoName(st.URL), URL: st.TreeURL, UpdatedAt: st.UpdatedAt}
	if v.URL == "" {
		v.URL = st.URL
	}
	switch st.Provider {
	case "github", "gitlab":
		v.InstallationProvider, v.Integration = st.Provider, st.Provider+"-sync"
	default:
		v.Integration = "git-sync"
	}
	v.GalleySync = StatusView(st)
	if op := st.Operation; op != nil {
		o := opView(*op)
		v.Operation = &o
	}
	return v
}

// repoName is "owner/name" of a repository URL (its last two segments).
func repoName(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	segs := strings.Split(strings.Trim(strings.TrimSuffix(u.Path, ".git"), "/"), "/")
	if len(segs) >= 2 {
		return segs[len(segs)-2] + "/" + segs[len(segs)-1]
	}
	return segs[len(segs)-1]
}

type spacePath struct {
	SpaceID string `path:"spaceId" maxLength:"64"`
}

// Register adds the Git Sync operations.
func Register(api *httpapi.API, s *gitsync.Service) {
	const tag = "Git"
	provider := func(g *GitInfoBody) (string, string) {
		if g == nil {
			return "", ""
		}
		return g.Provider, g.URL
	}
	httpapi.Register(api, httpapi.Op{ID: "importGitRepository", Idempotent: true, Needs: access.Role(access.EditContent), Expensive: true, Method: http.MethodPost, Path: "/v1/spaces/{spaceId}/git/import", Tag: tag,
		Status: http.StatusNoContent, Summary: "Import a Git repository into a space (in the background)"},
		func(ctx context.Context, in *struct {
			SpaceID string `path:"spaceId" maxLength:"64"`
			Body    ImportGitBody
		}) (*struct{}, error) {
			b := in.Body
			prov, provURL := provider(b.GitInfo)
			return nil, s.Import(ctx, in.SpaceID, gitsync.Request{URL: b.URL, Ref: b.Ref, RepoTreeURL: b.RepoTreeURL, RepoCommitURL: b.RepoCommitURL,
				ProjectDir: b.RepoProjectDirectory, Timestamp: b.Timestamp, Force: b.Force, Standalone: b.Standalone,
				Provider: prov, ProviderURL: provURL})
		})
	httpapi.Register(api, httpapi.Op{ID: "exportToGitRepository", Idempotent: true, Needs: access.Role(access.EditContent), Expensive: true, Method: http.MethodPost, Path: "/v1/spaces/{spaceId}/git/export", Tag: tag,
		Status: http.StatusNoContent, Summary: "Export a space to a Git repository (in the background)"},
		func(ctx context.Context, in *struct {
			SpaceID string `path:"spaceId" maxLength:"64"`
			Body    ExportGitBody
		}) (*struct{}, error) {
			b := in.Body
			prov, provURL := provider(b.GitInfo)
			return nil, s.Export(ctx, in.SpaceID, gitsync.Request{URL: b.URL, Ref: b.Ref, RepoTreeURL: b.RepoTreeURL, RepoCommitURL: b.RepoCommitURL,
				ProjectDir: b.RepoProjectDirectory, Timestamp: b.Timestamp, Force: b.Force, CommitMessage: b.CommitMessage,
				Provider: prov, ProviderURL: provURL})
		})
	httpapi.Register(api, httpapi.Op{ID: "getSpaceGitInfo", Needs: access.Role(access.ReadContent), Method: http.MethodGet, Path: "/v1/spaces/{spaceId}/git/info", Tag: tag,
		Summary: "Get a space's Git Sync details and last operation"},
		func(ctx context.Context, in *spacePath) (*httpapi.Out[GitSyncState], error) {
			return httpapi.Answer(InfoView)(s.Info(ctx, in.SpaceID))
		})
	registerSite(api, s)
	registerSync(api, s)
}
