package realhost

import (
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stub names the failing stub package in a resolution.
const stub = "STUB"

// lockEntry is one package of a package-lock.json.
type lockEntry struct {
	Version              string            `json:"version"`
	Link                 bool              `json:"link"`
	Optional             bool              `json:"optional"`
	Dependencies         map[string]string `json:"dependencies"`
	OptionalDependencies map[string]string `json:"optionalDependencies"`
	PeerDependencies     map[string]string `json:"peerDependencies"`
}

func (e lockEntry) deps() []string {
	var out []string
	for _, m := range []map[string]string{e.Dependencies, e.OptionalDependencies, e.PeerDependencies} {
		for n := range m {
			out = append(out, n)
		}
	}
	return out
}

// nameAt is the package name of the node_modules path p.
func nameAt(p string) string {
	i := strings.LastIndex(p, "node_modules/")
	return p[i+len("node_modules/"):]
}

// parentOf is the folder whose node_modules holds the package at p ("" for
// the root).
func parentOf(p string) string {
	return strings.TrimSuffix(p[:strings.LastIndex(p, "node_modules/")], "/")
}

// resolveIn finds dep from the package at p the way node and bun do,
// looking in each node_modules from p up to the root; has says which
// node_modules paths exist.
func resolveIn(p, dep string, has func(string) bool) (string, bool) {
	for {
		c := path.Join(p, "node_modules", dep)
		if has(c) {
			return c, true
		}
		if p == "" {
			return "", false
		}
		p = parentOf(p)
	}
}

// edges maps "name@version -> dep" to what the dep resolves to, over all
// the copies of the package, and "installed -> name@version" to "yes" for
// each package installed.
type edges map[string]map[string]bool

func (e edges) add(from, dep, to string) {
	k := from + " -> " + dep
	if e[k] == nil {
		e[k] = map[string]bool{}
	}
	e[k][to] = true
}

// lockEdges resolves every dependency of every package npm ci installs
// from the lock (optional packages are omitted, as --omit=optional does).
func lockEdges(t *testing.T, v string) (edges, map[string]bool) {
	data, err := releaseFiles.ReadFile("releases/" + v + "/package-lock.json")
	require.NoError(t, err)
	var lock struct {
		Packages map[string]lockEntry `json:"packages"`
	}
	require.NoError(t, json.Unmarshal(data, &lock))
	has := func(p string) bool { e, ok := lock.Packages[p]; return ok && !e.Optional }
	ident := func(p string) string {
		if lock.Packages[p].Link {
			return stub
		}
		return nameAt(p) + "@" + lock.Packages[p].Version
	}
	out := edges{}
	optional := map[string]bool{}
	for p, e := range lock.Packages {
		if e.Optional || e.Link || !strings.HasPrefix(p, "node_modules/") && p != "" {
			continue
		}
		if p != "" && e.Version == "" {
			continue // the folder a link of npm's names, not a package
		}
		from := "ROOT"
		if p != "" {
			from = ident(p)
			out.add("installed", from, "yes")
		}
		for n := range e.OptionalDependencies {
			optional[from+" -> "+n] = true
		}
		for _, dep := range e.deps() {
			to := "none"
			if c, ok := resolveIn(p, dep, has); ok {
				to = ident(c)
			}
			out.add(from, dep, to)
		}
	}
	return out, optional
}

// diskEdges resolves every dependency of every package installed in dir.
func diskEdges(t *testing.T, dir string) edges {
	pkgs := map[string]lockEntry{}
	names := map[string]string{}
	require.NoError(t, filepath.WalkDir(filepath.Join(dir, "node_modules"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if !strings.Contains(rel, "node_modules/") || strings.HasPrefix(nameAt(rel), ".") {
			return nil
		}
		n := nameAt(rel)
		if strings.Count(n, "/") > 1 || strings.Count(n, "/") == 1 && !strings.HasPrefix(n, "@") || !strings.HasPrefix(n, "@") && strings.Contains(n, "/") {
			return nil
		}
		if strings.HasPrefix(n, "@") && !strings.Contains(n, "/") {
			return nil // a scope folder
		}
		// A link is read through: npm's links to the stub, the
		// substituted pi-natives moved beside its addon.
		data, err := os.ReadFile(filepath.Join(p, "package.json"))
		if err != nil {
			return nil
		}
		var e lockEntry
		var named struct{ Name string }
		require.NoError(t, json.Unmarshal(data, &e), rel)
		require.NoError(t, json.Unmarshal(data, &named), rel)
		pkgs[rel] = e
		names[rel] = named.Name
		return nil
	}))
	var root lockEntry
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &root))
	pkgs[""] = root
	has := func(p string) bool { _, ok := pkgs[p]; return ok }
	ident := func(p string) string {
		e := pkgs[p]
		if e.Link || names[p] == "deskcheck-absent-package" {
			return stub
		}
		return nameAt(p) + "@" + e.Version
	}
	out := edges{}
	for p, e := range pkgs {
		if e.Link || names[p] == "deskcheck-absent-package" {
			continue
		}
		from := "ROOT"
		if p != "" {
			from = ident(p)
			out.add("installed", from, "yes")
		}
		for _, dep := range e.deps() {
			to := "none"
			if c, ok := resolveIn(p, dep, has); ok {
				to = ident(c)
			}
			out.add(from, dep, to)
		}
	}
	return out
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestInstallResolvesAsNPM: in every installed release, each dependency
// of each package resolves to the version it resolves to in the layout
// npm ci makes from the release's lock (pnpm's hoisting may put a package
// elsewhere, never make it find another). The one difference allowed: an
// optional dependency npm leaves out and pnpm installs as the failing
// stub (the native addons of other platforms, loaded on none here).
func TestInstallResolvesAsNPM(t *testing.T) {
	one := installedForTest(t, "18.1.16")
	cache := filepath.Dir(one.Dir)
	all, err := installed(cache)
	require.NoError(t, err)
	for _, in := range all {
		if in.PNPM == "" {
			continue // installed by npm ci: the lock's own layout
		}
		t.Run(in.Version, func(t *testing.T) {
			want, optional := lockEdges(t, in.Version)
			got := diskEdges(t, in.Dir)
			require.NotEmpty(t, want)
			for k, w := range want {
				g := got[k]
				if optional[k] && len(w) == 1 && w["none"] && len(g) == 1 && g[stub] {
					continue
				}
				assert.Equal(t, keys(w), keys(g), "%s", k)
			}
			for k, g := range got {
				if _, ok := want[k]; !ok {
					assert.Fail(t, "a package npm does not install", "%s: %v", k, keys(g))
				}
			}
		})
	}
}
