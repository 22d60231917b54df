package gitsync

import (
	"path"
	"strings"

	"gopkg.in/yaml.v3"
)

// configFile is GitBook's configuration of a repository's project
// (docs: "Content configuration"): in the project directory, it may move
// the docs' root and rename the first page and the table of contents.
// Its redirects are left in the file (an export never rewrites it).
const configFile = ".gitbook.yaml"

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
		return out
	}
	return out
}
