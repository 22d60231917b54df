package gitsync

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/sites"
	"github.com/galleydocs/galley/shared/spaces"
)

// siteConfigFile is a site's configuration in its repository (GitBook's
// GitSyncSiteConfig): in the site's project directory, it names the site
// and maps the repository's directories onto its sections and spaces.
const siteConfigFile = "docs.yaml"

// siteSchemaURL is the $schema an export writes.
const siteSchemaURL = "https://api.gitbook.com/openapi.yaml#/components/schemas/GitSyncSiteConfig"

// maxSiteNodes bounds the nodes of one docs.yaml.
const maxSiteNodes = 500

// siteConfig is docs.yaml.
type siteConfig struct {
	Schema  string `yaml:"$schema,omitempty"`
	Version int    `yaml:"version,omitempty"`
	Site    struct {
		Title     string     `yaml:"title,omitempty"`
		Structure []siteNode `yaml:"structure"`
	} `yaml:"site"`
}

// siteNode is one node of docs.yaml's structure: a section group, a
// section, a space or an external link.
type siteNode struct {
	Type                 string            `yaml:"type"`
	Key                  string            `yaml:"key"`
	Title                string            `yaml:"title"`
	LocalizedTitle       map[string]string `yaml:"localizedTitle,omitempty"`
	Description          string            `yaml:"description,omitempty"`
	LocalizedDescription map[string]string `yaml:"localizedDescription,omitempty"`
	Icon                 string            `yaml:"icon,omitempty"`
	URL                  string            `yaml:"url,omitempty"`
	Path                 string            `yaml:"path,omitempty"`
	Default              bool              `yaml:"default,omitempty"`
	Hidden               bool              `yaml:"hidden,omitempty"`
	Draft                bool              `yaml:"draft,omitempty"`
	Condition            string            `yaml:"condition,omitempty"`
	Content              *siteContent      `yaml:"content,omitempty"`
	Children             []siteNode        `yaml:"children,omitempty"`
}

// siteContent is a space's content: Directory nil (null) when the space is
// not synced with the repository.
type siteContent struct {
	Directory *string `yaml:"directory"`
	Language  string  `yaml:"language,omitempty"`
}

// parseSiteConfig reads and checks docs.yaml; its nodes come out flat, in
// the file's order (a group before its sections, a section before its
// spaces).
func parseSiteConfig(data []byte) (siteConfig, []model.SiteGitNode, error) {
	var c siteConfig
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		return c, nil, fmt.Errorf("%s: %s", siteConfigFile, yamlError(err))
	}
	nodes, err := checkSiteConfig(c)
	if err != nil {
		return c, nil, fmt.Errorf("%s: %w", siteConfigFile, err)
	}
	return c, nodes, nil
}

// goType is how yaml.v3 names the Go type a field was not found in.
var goType = regexp.MustCompile(` in type [\w.]+`)

// yamlError is a YAML decoding failure as a writer of docs.yaml reads it:
// its line and field, without Go's type names ("line 7: field colour not
// found").
func yamlError(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.ReplaceAll(msg, "unmarshal errors:\n  ", "")
	msg = strings.ReplaceAll(msg, "\n  ", "; ")
	return goType.ReplaceAllString(msg, "")
}

// checkSiteConfig applies the reference's rules (GitSyncSiteStructure):
// keys unique across the file; a site uses sections or lists spaces at the
// top, never both; exactly one default section, and exactly one default
// space per section (or among the top-level spaces); sections hold spaces
// only; a directory stays inside the repository and is read for one
// language. Section groups sit at the top and hold sections and external
// links; Galley's groups do not nest, so a nested group fails the sync,
// naming it. External links sit at the top or in a group, in a site with
// sections, with an absolute http(s) URL and a condition that parses (the
// sites family's rules).
func checkSiteConfig(c siteConfig) ([]model.SiteGitNode, error) {
	if c.Version != 0 && c.Version != 1 {
		return nil, fmt.Errorf("version %d is not supported (1 is)", c.Version)
	}
	if len(c.Site.Structure) == 0 {
		return nil, fmt.Errorf("site.structure lists nothing")
	}
	var out []model.SiteGitNode
	keys := map[string]bool{}
	langs := map[string]string{}
	addSpace := func(n siteNode, parent, loc string) error {
		at := nodeAt(loc, n)
		if n.Content == nil {
			return fmt.Errorf("%s: content is required", at)
		}
		if len(n.Children) > 0 {
			return fmt.Errorf("%s: a space has no children", at)
		}
		if err := spaces.ValidateLanguage("content.language", n.Content.Language); err != nil {
			return fmt.Errorf("%s: content.language %q is not a language GitBook knows (%s)", at, n.Content.Language, strings.Join(spaces.Languages(), ", "))
		}
		if d := n.Content.Directory; d != nil {
			if _, ok := resolveSiteDir("", *d); !ok {
				return fmt.Errorf("%s: content.directory %q must be a folder inside the repository", at, *d)
			}
			norm := normDir(*d)
			if l, ok := langs[norm]; ok && l != n.Content.Language {
				return fmt.Errorf("%s: content.directory %q is read for another language already", at, *d)
			}
			langs[norm] = n.Content.Language
		}
		out = append(out, nodeOf(n, parent))
		return nil
	}
	sections, spaces, groups, defaults, links := 0, 0, 0, 0, 0
	topSpace := ""  // the first space at the top level, named by errors
	firstLink := "" // the first external link, named by errors
	addLink := func(n siteNode, parent, loc string) error {
		at := nodeAt(loc, n)
		if firstLink == "" {
			firstLink = at
		}
		if n.Path != "" || n.Default || n.Hidden || n.Content != nil || len(n.Children) > 0 {
			return fmt.Errorf("%s: an external link has a title, a url, a description, an icon, a condition and draft only", at)
		}
		if err := sites.ValidateExternalURL("url", n.URL); err != nil {
			return fmt.Errorf("%s: url %q must be an absolute http or https URL", at, n.URL)
		}
		if n.Condition != "" {
			if err := sites.ValidateCondition("condition", n.Condition); err != nil {
				return fmt.Errorf("%s: %w", at, err)
			}
		}
		out = append(out, nodeOf(n, parent))
		return nil
	}
	addSection := func(n siteNode, parent, loc string) error {
		sections++
		if n.Default {
			defaults++
		}
		at := nodeAt(loc, n)
		if len(n.Children) == 0 {
			return fmt.Errorf("%s: children lists no space; a section holds at least one", at)
		}
		out = append(out, nodeOf(n, parent))
		inner := 0
		for i, ch := range n.Children {
			cloc := fmt.Sprintf("%s.children[%d]", loc, i)
			if err := checkNode(ch, keys, cloc); err != nil {
				return err
			}
			if ch.Type != "space" {
				return fmt.Errorf("%s: a %s inside section %q; a section holds spaces only", nodeAt(cloc, ch), ch.Type, n.Key)
			}
			if ch.Default {
				inner++
			}
			if err := addSpace(ch, n.Key, cloc); err != nil {
				return err
			}
		}
		if inner != 1 {
			return fmt.Errorf("%s: %d of its spaces are marked default; exactly one must be", at, inner)
		}
		return nil
	}
	for i, n := range c.Site.Structure {
		loc := fmt.Sprintf("site.structure[%d]", i)
		if err := checkNode(n, keys, loc); err != nil {
			return nil, err
		}
		switch n.Type {
		case "section":
			if err := addSection(n, "", loc); err != nil {
				return nil, err
			}
		case "section-group":
			groups++
			if n.Path != "" || n.Default || n.Description != "" || n.Condition != "" || n.URL != "" || n.Hidden || n.Content != nil {
				return nil, fmt.Errorf("%s: a section group has a title, an icon and children only", nodeAt(loc, n))
			}
			out = append(out, nodeOf(n, ""))
			for j, ch := range n.Children {
				cloc := fmt.Sprintf("%s.children[%d]", loc, j)
				if err := checkNode(ch, keys, cloc); err != nil {
					return nil, err
				}
				switch ch.Type {
				case "section":
					if err := addSection(ch, n.Key, cloc); err != nil {
						return nil, err
					}
				case "section-group":
					return nil, fmt.Errorf("%s: %q is a section group inside section group %q; Galley's section groups hold sections only, not nested groups", nodeAt(cloc, ch), ch.Key, n.Key)
				case "external-link":
					if err := addLink(ch, n.Key, cloc); err != nil {
						return nil, err
					}
				default:
					return nil, fmt.Errorf("%s: a %s inside section group %q; a section group holds sections and external links", nodeAt(cloc, ch), ch.Type, n.Key)
				}
			}
		case "space":
			spaces++
			if topSpace == "" {
				topSpace = nodeAt(loc, n)
			}
			if n.Default {
				defaults++
			}
			if err := addSpace(n, "", loc); err != nil {
				return nil, err
			}
		default:
			links++
			if err := addLink(n, "", loc); err != nil {
				return nil, err
			}
		}
	}
	if links > 0 && sections == 0 {
		return nil, fmt.Errorf("%s: external links need a site structured in sections", firstLink)
	}
	if groups > 0 && spaces > 0 {
		return nil, fmt.Errorf("%s: a site with section groups lists no space at the top level", topSpace)
	}
	switch {
	case sections > 0 && spaces > 0:
		return nil, fmt.Errorf("%s: a site with sections lists no space at the top level; put it in a section", topSpace)
	case sections > 0 && defaults != 1:
		return nil, fmt.Errorf("%d sections are marked default; exactly one must be", defaults)
	case sections == 0 && defaults != 1:
		return nil, fmt.Errorf("%d top-level spaces are marked default; exactly one must be", defaults)
	}
	if len(out) > maxSiteNodes {
		return nil, fmt.Errorf("more than %d section groups, sections, spaces and external links", maxSiteNodes)
	}
	return out, nil
}

// nodeAt names a node for an error: where it is in the file, its type
// and key (`site.structure[1].children[0] (space "guide-fr")`).
func nodeAt(loc string, n siteNode) string {
	what := strings.ReplaceAll(n.Type, "-", " ")
	if what == "" {
		what = "node"
	}
	if n.Key == "" {
		return fmt.Sprintf("%s (%s)", loc, what)
	}
	return fmt.Sprintf("%s (%s %q)", loc, what, n.Key)
}

// checkNode checks what every node needs: a known type, a unique key, a
// title and a path; loc is where the node is in the file.
func checkNode(n siteNode, keys map[string]bool, loc string) error {
	at := nodeAt(loc, n)
	switch n.Type {
	case "section", "space", "section-group", "external-link":
	case "":
		return fmt.Errorf("%s: type is required (section-group, section, space or external-link)", at)
	default:
		return fmt.Errorf("%s: type %q is unknown (section-group, section, space or external-link)", at, n.Type)
	}
	if n.Key == "" {
		return fmt.Errorf("%s: key is required", at)
	}
	if keys[n.Key] {
		return fmt.Errorf("%s: key %q is used by another node already; keys are unique across the file", at, n.Key)
	}
	keys[n.Key] = true
	if strings.TrimSpace(n.Title) == "" {
		return fmt.Errorf("%s: title is required", at)
	}
	if (n.Type == "section" || n.Type == "space") && (n.Path == "" || len(n.Path) > 100 || strings.Contains(n.Path, "/")) {
		return fmt.Errorf("%s: path must be 1 to 100 characters without /", at)
	}
	return nil
}

func nodeOf(n siteNode, parent string) model.SiteGitNode {
	out := model.SiteGitNode{Type: n.Type, Key: n.Key, Parent: parent, Title: n.Title, Path: n.Path, Default: n.Default,
		Hidden: n.Hidden, Draft: n.Draft, Condition: n.Condition, Description: n.Description, Icon: n.Icon,
		LocalizedTitle: n.LocalizedTitle, LocalizedDescription: n.LocalizedDescription, URL: n.URL}
	if n.Content != nil {
		out.Directory, out.Language = n.Content.Directory, n.Content.Language
	}
	return out
}

// renderSiteConfig writes docs.yaml for nodes (flat, in order, as
// parseSiteConfig reads them; each under its parent).
func renderSiteConfig(title string, nodes []model.SiteGitNode) ([]byte, error) {
	var c siteConfig
	c.Schema, c.Site.Title = siteSchemaURL, title
	toNode := func(n model.SiteGitNode) siteNode {
		out := siteNode{Type: n.Type, Key: n.Key, Title: n.Title, Path: n.Path, Default: n.Default, Hidden: n.Hidden,
			Draft: n.Draft, Condition: n.Condition, Description: n.Description, Icon: n.Icon,
			LocalizedTitle: n.LocalizedTitle, LocalizedDescription: n.LocalizedDescription, URL: n.URL}
		if n.Type == "space" {
			out.Content = &siteContent{Directory: n.Directory, Language: n.Language}
		}
		return out
	}
	children := map[string][]model.SiteGitNode{} // parent key -> nodes in order
	for _, n := range nodes {
		children[n.Parent] = append(children[n.Parent], n)
	}
	placed := 0
	var build func(parent string) []siteNode
	build = func(parent string) []siteNode {
		var out []siteNode
		for _, n := range children[parent] {
			placed++
			x := toNode(n)
			if n.Type == "section" || n.Type == "section-group" {
				x.Children = build(n.Key)
			}
			out = append(out, x)
		}
		return out
	}
	c.Site.Structure = build("")
	if placed != len(nodes) {
		return nil, fmt.Errorf("%d nodes name a parent that is not in the structure", len(nodes)-placed)
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(c); err != nil {
		return nil, err
	}
	return buf.Bytes(), enc.Close()
}

// sameSiteConfig tells whether two docs.yaml say the same (their titles
// and nodes; $schema, layout and comments aside).
func sameSiteConfig(title string, nodes []model.SiteGitNode, otherTitle string, other []model.SiteGitNode) bool {
	if title != otherTitle || len(nodes) != len(other) {
		return false
	}
	a, errA := renderSiteConfig(title, plain(nodes))
	b, errB := renderSiteConfig(otherTitle, plain(other))
	return errA == nil && errB == nil && bytes.Equal(a, b)
}

// plain drops the ids of nodes (kept in the state, never in the file).
func plain(nodes []model.SiteGitNode) []model.SiteGitNode {
	out := make([]model.SiteGitNode, len(nodes))
	for i, n := range nodes {
		n.ID, n.SpaceID = "", ""
		out[i] = n
	}
	return out
}

// normDir is a content.directory without its leading ./ (a leading /
// kept: it escapes to the repository's top).
func normDir(d string) string {
	if strings.HasPrefix(d, "/") {
		return "/" + strings.Trim(path.Clean(d), "/")
	}
	return strings.Trim(path.Clean(strings.TrimPrefix(d, "./")), "/")
}

// resolveSiteDir is a content.directory's folder in the repository ("" the
// top): from the site's project directory siteDir, or from the top with a
// leading /. It refuses .. segments.
func resolveSiteDir(siteDir, d string) (string, bool) {
	for _, seg := range strings.Split(d, "/") {
		if seg == ".." {
			return "", false
		}
	}
	var p string
	if strings.HasPrefix(d, "/") {
		p = path.Clean(d)
	} else {
		p = path.Clean("/" + path.Join(siteDir, d))
	}
	p = strings.Trim(p, "/")
	if p == "." {
		p = ""
	}
	return p, true
}
