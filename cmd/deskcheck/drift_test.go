package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// releasedFamilies are the families whose hosts model releases, with the
// paths of the bundled desks that hold their cases.
func releasedFamilies(t *testing.T) map[string][]string {
	t.Helper()
	reg := all.Registry()
	out := map[string][]string{}
	for _, d := range bundledDesks(t) {
		seen := map[string]bool{}
		for _, sc := range gjson.GetBytes(deskData(t, d), "cases.#.scenario").Array() {
			_, fam, ok := reg.Lookup(sc.String())
			require.True(t, ok, sc.String())
			if len(fam.Host.Releases) > 0 && !seen[fam.Host.Name] {
				seen[fam.Host.Name] = true
				out[fam.Host.Name] = append(out[fam.Host.Name], "../../"+d.Path)
			}
		}
	}
	require.NotEmpty(t, out, "a family with releases has bundled desks")
	return out
}

// hostOf is the family called name.
func hostOf(t *testing.T, name string) scenario.Host {
	t.Helper()
	for _, f := range all.Registry().Families() {
		if f.Host.Name == name {
			return f.Host
		}
	}
	t.Fatalf("no family %s", name)
	return scenario.Host{}
}

// drift on the bundled suite compares every case of a host with releases
// on each behaviour group with the newest release, and its JSON says the
// same case by case.
func TestDriftCommand(t *testing.T) {
	code, out, errOut := runCLI(t, "drift")
	require.Equal(t, 0, code, errOut)
	for name := range releasedFamilies(t) {
		newest, ok := hostOf(t, name).Newest()
		require.True(t, ok)
		assert.Contains(t, out, "Every case on every behaviour group of "+name+" its hosts range selects, each observed key compared with the newest release it runs on ("+name+" "+newest.Version+" for a case that names no range):\n")
	}
	assert.Regexp(t, `\n\d+ of \d+ cases behave the same on every release`, out)

	code, js, errOut := runCLI(t, "drift", "-format", "json")
	require.Equal(t, 0, code, errOut)
	statuses := map[string]int{}
	for _, c := range gjson.Get(js, "cases").Array() {
		var want, got []string
		for _, r := range hostOf(t, c.Get("host").String()).Releases {
			want = append(want, r.Version)
		}
		for _, g := range c.Get("groups").Array() {
			statuses[g.Get("status").String()]++
			for _, r := range g.Get("releases").Array() {
				got = append(got, r.String())
			}
		}
		assert.ElementsMatch(t, want, got, "the groups of %s hold every release once", c.Get("id").String())
	}
	assert.Positive(t, statuses["differs"], "some case differs on some group: %v", statuses)
	if gjson.Get(js, "unexercised.#").Int() > 0 {
		assert.Contains(t, out, "Release changes no case exercises:\n")
	}
}

func TestDriftInvalidInput(t *testing.T) {
	// A family whose releases are versions: a named family's range lists
	// programs, not bounds.
	var name string
	for n := range releasedFamilies(t) {
		if !hostOf(t, n).Named() {
			name = n
		}
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"schemaVersion": 1, "id": "d", "title": "t", "hosts": {"`+name+`": ">=99.0.0"}, "cases": []}`), 0o644))
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"drift", bad}, "error: release range \">=99.0.0\" selects no modelled release"},
		{[]string{"drift", "-format", "sarif"}, "-format must be text or json"},
		{[]string{"drift", "-run", "nothing-matches"}, "no cases"},
		{[]string{"verify", "-host", name + "@99.0.0"}, name + " 99.0.0 is not a modelled release (modelled " + name + " releases: " + hostOf(t, name).Releases[0].Version},
		{[]string{"explain", "-host", name}, "write HOST@VERSION"},
	}
	for _, tt := range tests {
		code, _, errOut := runCLI(t, tt.args...)
		assert.Equal(t, 2, code, "%v", tt.args)
		assert.Contains(t, errOut, tt.want, "%v", tt.args)
	}
}

// TestHostFlag: -host HOST@VERSION judges a host's cases on that release
// alone: on the newest every bundled case passes, and on an older one a
// case fails or is not applicable, naming the release.
func TestHostFlag(t *testing.T) {
	dir := t.TempDir()
	_, help, _ := runCLI(t, "help", "verify")
	for _, f := range all.Registry().Families() {
		if r, ok := f.Host.Newest(); ok {
			assert.Contains(t, help, "(e.g. "+f.Host.Name+"@"+r.Version+")", "-host's example is a release of the first family with releases")
			break
		}
	}
	var failing []string
	for name, desks := range releasedFamilies(t) {
		host := hostOf(t, name)
		newest, _ := host.Newest()
		code, out, errOut := runCLI(t, append([]string{"verify", "-host", name + "@" + newest.Version, "-out", dir}, desks...)...)
		require.Equal(t, 0, code, errOut)
		assert.Regexp(t, `\n\d+ passed, 0 failed[,\n]`, out)
		differs := false
		for _, r := range host.Releases {
			code, out, _ := runCLI(t, append([]string{"verify", "-host", name + "@" + r.Version, "-out", dir}, desks...)...)
			if code == 0 {
				continue
			}
			differs = true
			assert.Equal(t, 1, code)
			assert.Regexp(t, `(?m)^(FAIL .*  \[`+regexp.QuoteMeta(name+" "+r.Version)+`\]|    not applicable: `+regexp.QuoteMeta(name+" "+r.Version)+` .*)$`, out)
			assert.Regexp(t, `\n\d+ passed, \d+ failed`, out)
			break
		}
		if differs {
			failing = append(failing, name)
		}
		// The desk beside the adapter that pins a lesson to each release
		// boundary: on the oldest release every case runs on it, and a
		// case of a later range is not applicable.
		pinned, err := filepath.Glob(filepath.Join("..", "..", filepath.FromSlash(host.Model), "*", "testdata", "releases-desk.json"))
		require.NoError(t, err)
		for _, boundary := range pinned {
			oldest := host.Releases[0]
			code, out, errOut := runCLI(t, "verify", "-host", name+"@"+oldest.Version, "-out", dir, boundary)
			require.Equal(t, 0, code, errOut)
			assert.Regexp(t, `(?m)^PASS .*  \[`+regexp.QuoteMeta(name+" "+oldest.Version)+`\]$`, out)
			assert.Regexp(t, `(?m)^    not applicable: `+regexp.QuoteMeta(name+" "+oldest.Version)+` is outside the case's releases`, out)
		}
	}
	// A bundled desk may hold on every release of its family by design
	// (each case's range covering them all), but -host must be seen to
	// change a verdict.
	assert.NotEmpty(t, failing, "an older release of some family fails a bundled case")
}

// TestDriftAppliesHosts: a case is run on the groups its hosts range
// selects, as deskcheck-host drift and verify -host judge it; with
// -all-releases on every group.
func TestDriftAppliesHosts(t *testing.T) {
	reg := all.Registry()
	seen := 0
	for name, desks := range releasedFamilies(t) {
		host := hostOf(t, name)
		if host.Named() {
			continue
		}
		newest, _ := host.Newest()
		for _, p := range desks {
			data, err := os.ReadFile(p)
			require.NoError(t, err)
			doc := gjson.ParseBytes(data)
			for _, c := range doc.Get("cases").Array() {
				if _, fam, _ := reg.Lookup(c.Get("scenario").String()); fam.Host.Name != name {
					continue
				}
				expr := c.Get("hosts." + gjsonEscape(name)).String()
				if expr == "" {
					expr = doc.Get("hosts." + gjsonEscape(name)).String()
				}
				selected, err := host.SelectReleases(expr)
				if expr == "" || err != nil || selected[0].Version == host.Releases[0].Version {
					continue
				}
				run := "^" + regexp.QuoteMeta(doc.Get("id").String()+"/"+c.Get("id").String()) + "$"
				code, every, errOut := runCLI(t, "drift", "-all-releases", "-run", run, p)
				require.Equal(t, 0, code, errOut)
				if !regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(name) + ` \S+ \([^)]*\) differs from ` + regexp.QuoteMeta(newest.Version) + `:$`).MatchString(every) {
					continue
				}
				seen++
				assert.NotContains(t, every, "outside the case's hosts range")
				code, out, errOut := runCLI(t, "drift", "-run", run, p)
				require.Equal(t, 0, code, errOut)
				assert.Regexp(t, `(?m)^  `+regexp.QuoteMeta(name)+` \S+ \(([^)]*)\): not applicable: `+regexp.QuoteMeta(name)+` [^:]+: outside the case's hosts range `+regexp.QuoteMeta(expr)+`$`, out)
				assert.Contains(t, out, "its hosts range selects")
				code, js, errOut := runCLI(t, "drift", "-format", "json", "-run", run, p)
				require.Equal(t, 0, code, errOut)
				assert.Contains(t, js, `"inRange": true`)
				break
			}
		}
	}
	assert.Positive(t, seen, "a bundled case's hosts range leaves out a release that answers it differently")
}
