package gitsync

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"

	"github.com/galleydocs/galley/shared/spaces"
)

// SpaceHook is what an organization's webhook delivery did to one space.
type SpaceHook struct {
	SpaceID string
	HookResult
}

// OrgWebhook receives a webhook on an organization's endpoint (one for all
// its synced spaces, docs/workers.md "Push webhooks"): the delivery goes
// to each live space of the organization whose sync settings name the
// repository the payload names and whose webhook secret verifies it, as
// Webhook does for one space (each acts only on its own branch: a push to
// another is ignored, with the reason). No such space answers the one
// unauthorized error of a delivery that does not verify, so that the
// endpoint tells nothing about the organization's spaces.
func (s *Service) OrgWebhook(ctx context.Context, orgID string, h Hook) ([]SpaceHook, error) {
	x, ok := hostOf(h)
	if !ok {
		return nil, errSignature
	}
	repos := repositoryKeys(formPayload(h.Body))
	if len(repos) == 0 {
		return nil, errSignature
	}
	sps, err := spaces.AllLive(ctx, s.d.Store, orgID)
	if err != nil {
		return nil, err
	}
	var out []SpaceHook
	for _, sp := range sps {
		st, _, err := s.state(ctx, sp.ID)
		if err != nil {
			return nil, err
		}
		if st.SyncURL == "" || st.WebhookSecret == "" || !repos[repositoryKey(st.SyncURL)] {
			continue
		}
		secret, _, err := s.unseal(ctx, st.WebhookSecret)
		if err != nil {
			return nil, err
		}
		if !x.verify(h, []byte(secret)) {
			continue
		}
		res, err := s.Webhook(ctx, sp.ID, h)
		if err != nil {
			return nil, err
		}
		out = append(out, SpaceHook{SpaceID: sp.ID, HookResult: res})
	}
	if len(out) == 0 {
		return nil, errSignature
	}
	return out, nil
}

// repositoryKeys are the keys (repositoryKey) of the repository URLs a
// delivery names: GitHub's, Gitea's and Forgejo's repository (clone_url,
// html_url, ssh_url, url), GitLab's project and repository (git_http_url,
// git_ssh_url, web_url, homepage), Bitbucket Cloud's repository.links.html
// and Server's repository.links.clone.
func repositoryKeys(body []byte) map[string]bool {
	type urls struct {
		CloneURL   string `json:"clone_url"`
		HTMLURL    string `json:"html_url"`
		SSHURL     string `json:"ssh_url"`
		URL        string `json:"url"`
		GitHTTPURL string `json:"git_http_url"`
		GitSSHURL  string `json:"git_ssh_url"`
		WebURL     string `json:"web_url"`
		Homepage   string `json:"homepage"`
		Links      struct {
			HTML  struct{ Href string }   `json:"html"`
			Clone []struct{ Href string } `json:"clone"`
		} `json:"links"`
	}
	var p struct {
		Repository urls `json:"repository"`
		Project    urls `json:"project"`
	}
	if json.Unmarshal(body, &p) != nil {
		return nil
	}
	out := map[string]bool{}
	for _, u := range []urls{p.Repository, p.Project} {
		list := []string{u.CloneURL, u.HTMLURL, u.SSHURL, u.URL, u.GitHTTPURL, u.GitSSHURL, u.WebURL, u.Homepage, u.Links.HTML.Href}
		for _, c := range u.Links.Clone {
			list = append(list, c.Href)
		}
		for _, v := range list {
			if k := repositoryKey(v); k != "" {
				out[k] = true
			}
		}
	}
	return out
}

// repositoryKey is what identifies a repository URL whatever its form:
// its host (with a port) and path, in lower case, without credentials, a
// trailing ".git" or "/" ("" when it names none). An SSH address
// (git@host:owner/name.git, ssh://git@host/owner/name.git) has the
// same key as the HTTPS one, save for a port that differs.
func repositoryKey(raw string) string {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return ""
	}
	if !strings.Contains(raw, "://") {
		// scp-like: [user@]host:path
		at := strings.LastIndex(raw, "@")
		host, path, ok := strings.Cut(raw[at+1:], ":")
		if !ok {
			return ""
		}
		raw = "ssh://" + host + "/" + strings.TrimPrefix(path, "/")
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	host := u.Host
	if u.Scheme == "ssh" {
		host = u.Hostname()
	}
	p := strings.TrimSuffix(strings.Trim(u.Path, "/"), ".git")
	if p == "" {
		return ""
	}
	return strings.ToLower(host + "/" + p)
}
