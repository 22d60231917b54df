package gitsync

import (
	"path"
	"strings"

	"gopkg.in/yaml.v3"
)

// configFile is GitBook's configuration of a repository's project
// (docs: "Content configuration"): in the project directory, it may move
// the docs' root and rename the first page and the table of contents.
// An export never rewrites it; its redirects, read on import, are kept in
// the space's Git Sync state resolved to pages (Redirects), for readers.
const configFile = ".gitbook.yaml"

// maxRedirects bounds the redirects of .gitbook.yaml a space keeps.
const maxRedirects = 500

// config is what .gitbook.yaml says.
type config struct {
	Root      string `yaml:"root"`
	Structure struct {
		Readme  string `yaml:"readme"`
		Summary string `yaml:"summary"`
	} `yaml:"structure"`
	Redirects map[string]string `yaml:"redirects"`
}

// layoutOf is where a project's pages are, by the snapshot's .gitbook.yaml
// in dir (absent or unreadable: dir itself, README.md and SUMMARY.md).
type projectLayout struct {
	// dir is the docs' root, relative to the repository ("" the top).
	dir string
	// readme and summary are the first page's and the table of contents'
	// files, relative to dir.
	readme, summary string
	// redirects are .gitbook.yaml's: old paths to the files (relative to
	// dir) of the pages they lead to.
	redirects map[string]string
}

func layoutOf(snap *snapshot, dir string) projectLayout {
	out := projectLayout{dir: dir, readme: "README.md", summary: summaryFile}
	for _, name := range []string{configFile, ".gitbook.yml"} {
		e, ok := snap.files[path.Join(dir, name)]
		if !ok {
			continue
		}
		data, err := snap.blob(e.hash)
		if err != nil {
			return out
		}
		var c config
		if yaml.Unmarshal(data, &c) != nil {
			return out
		}
		if root := strings.Trim(c.Root, "/"); root != "" && root != "." {
			if r := cleanRel(path.Join(dir, root)); r != "" {
				out.dir = r
			}
		}
		if r := cleanRel(c.Structure.Readme); r != "" {
			out.readme = r
		}
		if r := cleanRel(c.Structure.Summary); r != "" {
			out.summary = r
		}
		for from, to := range c.Redirects {
			from = strings.Trim(from, "/")
			if t := cleanRel(to); from != "" && t != "" && len(out.redirects) < maxRedirects {
				if out.redirects == nil {
					out.redirects = map[string]string{}
				}
				out.redirects[from] = t
			}
		}
		return out
	}
	return out
}

// projectDirOf is the project directory whose layout puts the docs' root
// at dir (a state's Dir, which a .gitbook.yaml's root may have moved
// below the project directory the sync was asked for): the outermost of
// the top and dir's folders whose layout leads to dir, so that a
// .gitbook.yaml at the top moving the docs to docs/ keeps its structure
// names; dir itself when none does (the .gitbook.yaml changed since).
func projectDirOf(snap *snapshot, dir string) string {
	if layoutOf(snap, "").dir == dir {
		return ""
	}
	for i := 0; i <= len(dir); i++ {
		if i < len(dir) && dir[i] != '/' {
			continue
		}
		if layoutOf(snap, dir[:i]).dir == dir {
			return dir[:i]
		}
	}
	return dir
}
