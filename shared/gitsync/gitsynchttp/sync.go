package gitsynchttp

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/fetch"
	"github.com/galleydocs/galley/shared/gitsync"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/model"
)

// GitSettingsBody is the body of PUT /v1/spaces/{spaceId}/git/settings
// (Galley's operation; the field names are those of GitBook's Git Sync
// installation setup where it has them).
type GitSettingsBody struct {
	URL                   string  `json:"url" minLength:"1" maxLength:"2048" doc:"URL of the repository (smart HTTP); it may embed basic-auth credentials, kept sealed and never answered. Without them, the credentials kept for the same URL stay"`
	Branch                string  `json:"branch" minLength:"1" maxLength:"255" doc:"The synced branch: refs/heads/<branch>"`
	ProjectDirectory      string  `json:"projectDirectory,omitempty" maxLength:"512" doc:"Folder of the repository holding the content (absent: the top)"`
	Direction             string  `json:"direction,omitempty" enum:"both,git-to-galley,galley-to-git" doc:"Which way the space syncs on its own; absent: no automatic sync"`
	CommitMessageTemplate string  `json:"commitMessageTemplate,omitempty" maxLength:"1000" doc:"Message of the commits automatic exports make"`
	Priority              string  `json:"priority,omitempty" enum:"git,gitbook" doc:"The side the first sync takes: git imports the branch (the default), gitbook exports the space on top of it"`
	Enabled               bool    `json:"enabled" doc:"false pauses the automatic sync (webhooks are answered and ignored)"`
	WebhookSecret         *string `json:"webhookSecret,omitempty" maxLength:"256" doc:"Secret of the push webhooks (at least 16 characters; never answered); absent keeps the secret, empty removes it"`
	PollInterval          int     `json:"pollInterval,omitempty" minimum:"0" maximum:"86400" doc:"Seconds between two looks at the branch for hosts that send no webhooks (60 to 86400); 0 or absent: off"`
}

// GitSettings are a space's sync settings as answered.
type GitSettings struct {
	URL                   string `json:"url,omitempty" doc:"The repository, without credentials"`
	Branch                string `json:"branch,omitempty"`
	ProjectDirectory      string `json:"projectDirectory,omitempty"`
	Direction             string `json:"direction,omitempty" enum:"both,git-to-galley,galley-to-git"`
	CommitMessageTemplate string `json:"commitMessageTemplate,omitempty"`
	Priority              string `json:"priority,omitempty" enum:"git,gitbook"`
	Enabled               bool   `json:"enabled"`
	Credentials           bool   `json:"credentials" doc:"Whether credentials are kept for the repository"`
	WebhookSecretSet      bool   `json:"webhookSecretSet" doc:"Whether a webhook secret is set"`
	WebhookPath           string `json:"webhookPath" doc:"Path of the space's push webhook endpoint, under the API's base URL"`
	PollInterval          int    `json:"pollInterval"`
}

// GitSyncRun is the last sync of one direction.
type GitSyncRun struct {
	At      time.Time `json:"at"`
	State   string    `json:"state" enum:"running,failure,success"`
	Commit  string    `json:"commit,omitempty"`
	Trigger string    `json:"trigger,omitempty" enum:"api,webhook,poll,settings,merge"`
	Problem string    `json:"problem,omitempty" enum:"authentication-failed,branch-missing,conflict,unreachable,interrupted,error" doc:"The kind of failure"`
	Message string    `json:"message,omitempty" doc:"The failure in plain words"`
	Error   string    `json:"error,omitempty" doc:"The failure as the exchange with the repository reported it"`
}

// GitPendingJob is a sync job queued and not concluded (one that failed
// its retries stays listed: parked in the dead-letter queue, or failed
// locally).
type GitPendingJob struct {
	JobID      string    `json:"jobId"`
	Direction  string    `json:"direction" enum:"export,import"`
	Trigger    string    `json:"trigger,omitempty" enum:"api,webhook,poll,settings,merge"`
	EnqueuedAt time.Time `json:"enqueuedAt"`
	Attempts   int       `json:"attempts" doc:"Runs that found the repository unreachable so far (the queue retries them with backoff)"`
	HandedOut  int       `json:"handedOut" doc:"Times the job was queued again because its worker stopped without concluding it"`
}

// GitSyncStatus is Galley's sync status in git/info.
type GitSyncStatus struct {
	Settings   GitSettings     `json:"settings"`
	LastImport *GitSyncRun     `json:"lastImport,omitempty"`
	LastExport *GitSyncRun     `json:"lastExport,omitempty"`
	Pending    []GitPendingJob `json:"pending"`
	LastPoll   *time.Time      `json:"lastPoll,omitempty"`
	Previews   []GitPreview    `json:"previews,omitempty" doc:"The pull requests' previews, by number"`
}

// GitPreview is a pull request's preview, served to the organization's
// members under the published site's ~preview/<number>/.
type GitPreview struct {
	Number    int       `json:"number"`
	Branch    string    `json:"branch"`
	Commit    string    `json:"commit,omitempty" doc:"The commit previewed (empty until the first import concludes)"`
	Revision  string    `json:"revision,omitempty" doc:"The space's revision holding it (never the space's head)"`
	Updating  bool      `json:"updating,omitempty" doc:"A newer head is being imported"`
	UpdatedAt time.Time `json:"updatedAt"`
	Problem   string    `json:"problem,omitempty" enum:"auth,branch,conflict,unreachable,other" doc:"The last import's failure, until one succeeds"`
	Message   string    `json:"message,omitempty" doc:"The failure in plain words"`
	Error     string    `json:"error,omitempty" doc:"The failure as the repository or Galley told it"`
}

// plainWords say what a failure's kind means.
var plainWords = map[string]string{
	model.GitErrAuth:        "Authentication failed: the repository refused the credentials",
	model.GitErrBranch:      "Branch missing: the repository has no such branch",
	model.GitErrConflict:    "Conflict: the branch has commits the space has not imported",
	model.GitErrUnreachable: "Repository unreachable: it did not answer, or its address is not public",
	model.GitErrInterrupted: "Interrupted: the job stopped without concluding, also after it was queued again",
	model.GitErrOther:       "The sync failed",
}

func trigger(t string) string {
	if t == "" {
		return "api"
	}
	return t
}

func runView(r *model.GitSyncRun) *GitSyncRun {
	if r == nil {
		return nil
	}
	v := &GitSyncRun{At: r.At, State: r.State, Commit: r.Commit, Trigger: trigger(r.Trigger), Error: r.Error}
	if r.State == model.GitFailure {
		v.Problem, v.Message = r.Code, plainWords[r.Code]
		if v.Problem == "" {
			v.Problem, v.Message = model.GitErrOther, plainWords[model.GitErrOther]
		}
	}
	return v
}

// webhookPath is the path of a space's push webhook.
func webhookPath(spaceID string) string { return "/v1/spaces/" + spaceID + "/git/webhook" }

// SettingsView renders a state's settings.
func SettingsView(st model.GitSync) GitSettings {
	return GitSettings{URL: fetch.Redact(st.SyncURL), Branch: st.SyncRef, ProjectDirectory: st.SyncDir, Direction: st.Direction,
		CommitMessageTemplate: st.CommitTemplate, Priority: st.Priority, Enabled: st.SyncURL != "" && !st.Paused,
		Credentials: st.AuthFor(st.SyncURL) != "", WebhookSecretSet: st.WebhookSecret != "", WebhookPath: webhookPath(st.SpaceID),
		PollInterval: st.PollSeconds}
}

// StatusView renders a state's sync status; nil when it has no settings
// and never synced.
func StatusView(st model.GitSync) *GitSyncStatus {
	if st.SyncURL == "" && st.LastImport == nil && st.LastExport == nil && len(st.Pending) == 0 {
		return nil
	}
	v := &GitSyncStatus{Settings: SettingsView(st), LastImport: runView(st.LastImport), LastExport: runView(st.LastExport),
		Pending: []GitPendingJob{}, LastPoll: st.LastPoll}
	for _, p := range st.Pending {
		v.Pending = append(v.Pending, GitPendingJob{JobID: p.JobID, Direction: p.Direction, Trigger: trigger(p.Trigger), EnqueuedAt: p.EnqueuedAt, Attempts: p.Attempts, HandedOut: p.HandedOut})
	}
	for _, p := range st.Previews {
		pv := GitPreview{Number: p.Number, Branch: p.Branch, Commit: p.Commit, Revision: p.Revision,
			Updating: p.Pending != "", UpdatedAt: p.UpdatedAt, Error: p.Error}
		if p.Error != "" {
			pv.Problem, pv.Message = p.Code, plainWords[p.Code]
		}
		v.Previews = append(v.Previews, pv)
	}
	slices.SortFunc(v.Previews, func(a, b GitPreview) int { return a.Number - b.Number })
	return v
}

// WebhookAnswer is the answer to a push or pull-request webhook.
type WebhookAnswer struct {
	Outcome string `json:"outcome" enum:"queued,ignored,duplicate,removed"`
	Reason  string `json:"reason"`
	JobID   string `json:"jobId,omitempty" doc:"The import queued (of the branch, or of a pull request's preview)"`
}

// OrgWebhookAnswer is the answer to a webhook on an organization's
// endpoint: what it did to each space it reached.
type OrgWebhookAnswer struct {
	Outcome string            `json:"outcome" enum:"queued,ignored,duplicate,removed" doc:"queued when a space queued a job, else the first space's outcome"`
	Spaces  []SpaceHookAnswer `json:"spaces"`
}

// SpaceHookAnswer is what an organization's webhook did to one space.
type SpaceHookAnswer struct {
	SpaceID string `json:"spaceId"`
	WebhookAnswer
}

// WebhookHeaders are the headers the webhook reads (each host's event,
// delivery and signature headers).
type WebhookHeaders struct {
	GitHubEvent     string `header:"X-GitHub-Event" maxLength:"100"`
	GitHubDelivery  string `header:"X-GitHub-Delivery" maxLength:"100"`
	HubSignature256 string `header:"X-Hub-Signature-256" maxLength:"200"`
	HubSignature    string `header:"X-Hub-Signature" maxLength:"200"`
	GitLabEvent     string `header:"X-Gitlab-Event" maxLength:"100"`
	GitLabToken     string `header:"X-Gitlab-Token" maxLength:"300"`
	GitLabUUID      string `header:"X-Gitlab-Event-UUID" maxLength:"100"`
	GiteaEvent      string `header:"X-Gitea-Event" maxLength:"100"`
	GiteaDelivery   string `header:"X-Gitea-Delivery" maxLength:"100"`
	GiteaSignature  string `header:"X-Gitea-Signature" maxLength:"200"`
	ForgejoEvent    string `header:"X-Forgejo-Event" maxLength:"100"`
	ForgejoDelivery string `header:"X-Forgejo-Delivery" maxLength:"100"`
	ForgejoSig      string `header:"X-Forgejo-Signature" maxLength:"200"`
	EventKey        string `header:"X-Event-Key" maxLength:"100"`
	RequestUUID     string `header:"X-Request-UUID" maxLength:"100"`
	HookUUID        string `header:"X-Hook-UUID" maxLength:"100"`
	RequestID       string `header:"X-Request-Id" maxLength:"100"`
}

func (h WebhookHeaders) hook(body []byte) gitsync.Hook {
	m := map[string]string{}
	for name, v := range map[string]string{
		"X-GitHub-Event": h.GitHubEvent, "X-GitHub-Delivery": h.GitHubDelivery, "X-Hub-Signature-256": h.HubSignature256,
		"X-Hub-Signature": h.HubSignature, "X-Gitlab-Event": h.GitLabEvent, "X-Gitlab-Token": h.GitLabToken,
		"X-Gitlab-Event-UUID": h.GitLabUUID, "X-Gitea-Event": h.GiteaEvent, "X-Gitea-Delivery": h.GiteaDelivery,
		"X-Gitea-Signature": h.GiteaSignature, "X-Forgejo-Event": h.ForgejoEvent, "X-Forgejo-Delivery": h.ForgejoDelivery,
		"X-Forgejo-Signature": h.ForgejoSig, "X-Event-Key": h.EventKey, "X-Request-UUID": h.RequestUUID,
		"X-Hook-UUID": h.HookUUID, "X-Request-Id": h.RequestID,
	} {
		if v != "" {
			m[strings.ToLower(name)] = v
		}
	}
	return gitsync.Hook{Headers: m, Body: body}
}

// webhookOut is a webhook's answer: 202 when it queued a job, else 200.
type webhookOut[T any] struct {
	Status int
	Body   T
}

func statusOf(queued bool) int {
	if queued {
		return http.StatusAccepted
	}
	return http.StatusOK
}

func answerOf(r gitsync.HookResult) WebhookAnswer {
	return WebhookAnswer{Outcome: r.Outcome, Reason: r.Reason, JobID: r.JobID}
}

// webhookMaxBytes bounds a webhook's body (hosts cap theirs near 25 MB;
// API Gateway takes 10 MB).
const webhookMaxBytes = 10 << 20

func registerSync(api *httpapi.API, s *gitsync.Service) {
	const tag = "Git"
	type settingsOut struct{ Body GitSettings }
	httpapi.Register(api, httpapi.Op{ID: "getSpaceGitSettings", Needs: access.Role(access.AdminContent), Method: http.MethodGet, Path: "/v1/spaces/{spaceId}/git/settings", Tag: tag,
		Summary: "Get a space's Git Sync settings"},
		func(ctx context.Context, in *spacePath) (*settingsOut, error) {
			st, err := s.SyncSettings(ctx, in.SpaceID)
			if err != nil {
				return nil, err
			}
			return &settingsOut{SettingsView(st)}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "updateSpaceGitSettings", Needs: access.Role(access.AdminContent), Method: http.MethodPut, Path: "/v1/spaces/{spaceId}/git/settings", Tag: tag,
		Summary: "Set a space's Git Sync settings (the first sync is queued when they enable one)"},
		func(ctx context.Context, in *struct {
			SpaceID string `path:"spaceId" maxLength:"64"`
			Body    GitSettingsBody
		}) (*settingsOut, error) {
			b := in.Body
			st, err := s.SetSettings(ctx, in.SpaceID, gitsync.Settings{URL: b.URL, Branch: b.Branch, ProjectDirectory: b.ProjectDirectory,
				Direction: b.Direction, CommitTemplate: b.CommitMessageTemplate, Priority: b.Priority, Enabled: b.Enabled,
				WebhookSecret: b.WebhookSecret, PollSeconds: b.PollInterval})
			if err != nil {
				return nil, err
			}
			return &settingsOut{SettingsView(st)}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "receiveSpaceGitWebhook", Needs: access.Anyone, Method: http.MethodPost, Path: "/v1/spaces/{spaceId}/git/webhook", Tag: tag,
		Status: http.StatusAccepted, Also: map[int]string{http.StatusOK: "Received and ignored (the reason says why), received already, or a closed pull request's preview removed"},
		MaxBodyBytes: webhookMaxBytes,
		Summary:      "Receive a Git host's push or pull-request webhook (GitHub, GitLab, Gitea, Forgejo, Bitbucket Cloud and Server); its signature with the space's webhook secret is the authorization"},
		func(ctx context.Context, in *struct {
			SpaceID string `path:"spaceId" maxLength:"64"`
			WebhookHeaders
			RawBody []byte
		}) (*webhookOut[WebhookAnswer], error) {
			res, err := s.Webhook(ctx, in.SpaceID, in.WebhookHeaders.hook(in.RawBody))
			if err != nil {
				return nil, err
			}
			return &webhookOut[WebhookAnswer]{statusOf(res.Outcome == gitsync.HookQueued), answerOf(res)}, nil
		})
	httpapi.Register(api, httpapi.Op{ID: "receiveOrgGitWebhook", Needs: access.Anyone, Method: http.MethodPost, Path: "/v1/orgs/{organizationId}/git/webhook", Tag: tag,
		Status: http.StatusAccepted, Also: map[int]string{http.StatusOK: "Received, and no space queued a job (each space's reason says why)"},
		MaxBodyBytes: webhookMaxBytes,
		Summary:      "Receive a Git host's webhook for every space of the organization synced with the repository it names; its signature with each such space's webhook secret is the authorization"},
		func(ctx context.Context, in *struct {
			OrganizationID string `path:"organizationId" maxLength:"64"`
			WebhookHeaders
			RawBody []byte
		}) (*webhookOut[OrgWebhookAnswer], error) {
			list, err := s.OrgWebhook(ctx, in.OrganizationID, in.WebhookHeaders.hook(in.RawBody))
			if err != nil {
				return nil, err
			}
			out := OrgWebhookAnswer{Outcome: list[0].Outcome, Spaces: make([]SpaceHookAnswer, 0, len(list))}
			for _, r := range list {
				if r.Outcome == gitsync.HookQueued {
					out.Outcome = gitsync.HookQueued
				}
				out.Spaces = append(out.Spaces, SpaceHookAnswer{SpaceID: r.SpaceID, WebhookAnswer: answerOf(r.HookResult)})
			}
			return &webhookOut[OrgWebhookAnswer]{statusOf(out.Outcome == gitsync.HookQueued), out}, nil
		})
}
