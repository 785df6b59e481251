// Package cases holds the bundled teaching desks. They are inert data: no
// command string in them is ever executed. Every *.json file here is
// embedded and makes up the default suite.
package cases

import (
	"embed"
	"io/fs"
	"path"
	"sort"
)

//go:embed *.json
var files embed.FS

// File is one bundled desk.
type File struct {
	// Path is the desk's path in the repository, e.g. cases/boundary-desk.json.
	Path string
	Data []byte
}

// Files returns the bundled desks sorted by name.
func Files() []File {
	names, _ := fs.Glob(files, "*.json")
	sort.Strings(names)
	out := make([]File, 0, len(names))
	for _, n := range names {
		data, _ := files.ReadFile(n)
		out = append(out, File{Path: path.Join("cases", n), Data: data})
	}
	return out
}
