package all

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/scenario"
)

// manual reads a family's manual from its adapter folder.
func manual(t *testing.T, f scenario.Family) (path, text string) {
	t.Helper()
	path = filepath.Join("..", "..", filepath.FromSlash(Manual(f)))
	data, err := os.ReadFile(path)
	require.NoError(t, err, "family %s keeps its manual beside its adapter", f.Host.Name)
	return path, string(data)
}

// section returns the part of a manual under "## Scenario `name`", up to
// the next section of the same level.
func section(manual, name string) (string, bool) {
	heading := "\n## Scenario `" + name + "`"
	start := strings.Index(manual, heading)
	if start < 0 {
		return "", false
	}
	s := manual[start+len(heading):]
	if end := strings.Index(s, "\n## "); end >= 0 {
		s = s[:end]
	}
	return s, true
}

// TestManualListsEveryKey: the manual of every family, in its adapter's
// folder, has a section per scenario naming each given and expected key
// of its fragment and each of its limits.
func TestManualListsEveryKey(t *testing.T) {
	reg := Registry()
	for _, f := range reg.Families() {
		path, text := manual(t, f)
		for _, sc := range f.Scenarios {
			sec, ok := section(text, sc.Name)
			if !assert.True(t, ok, "%s has a section \"## Scenario `%s`\"", path, sc.Name) {
				continue
			}
			for _, k := range append(reg.GivenKeys(sc.Name), sc.Expected.Keys()...) {
				assert.Contains(t, sec, "`"+k+"`", "%s: the section of %s names %s", path, sc.Name, k)
			}
			for _, l := range sc.Limits {
				assert.Contains(t, sec, sc.Name+"."+l.Name, "%s: the section of %s names its limit %s", path, sc.Name, l.Name)
			}
		}
	}
}

const (
	faultsBegin = "<!-- faults -->\n"
	faultsEnd   = "<!-- end faults -->\n"
)

// faultList is the generated list of a family's faults in its manual.
func faultList(f scenario.Family) string {
	var b strings.Builder
	b.WriteString("| fault | what the faulty host does | scenarios |\n|---|---|---|\n")
	for _, ft := range f.Faults {
		scen := "every scenario"
		if len(ft.Scenarios) > 0 {
			scen = "`" + strings.Join(ft.Scenarios, "`, `") + "`"
		}
		b.WriteString("| `" + f.Host.Name + "/" + ft.Name + "` | " + strings.ReplaceAll(ft.Bug, "|", `\|`) + " | " + scen + " |\n")
	}
	return b.String()
}

// TestManualListsEveryFault keeps the list of faults in each manual, which
// go test ./host/all -update writes between its markers, equal to the
// family's faults.
func TestManualListsEveryFault(t *testing.T) {
	for _, f := range Registry().Families() {
		path, text := manual(t, f)
		begin, end := strings.Index(text, faultsBegin), strings.Index(text, faultsEnd)
		if !assert.True(t, begin >= 0 && end > begin, "%s has the markers %q and %q", path, faultsBegin, faultsEnd) {
			continue
		}
		want := text[:begin+len(faultsBegin)] + faultList(f) + text[end:]
		if *update {
			require.NoError(t, os.WriteFile(path, []byte(want), 0o644))
			text = want
		}
		assert.Equal(t, want, text, "%s lists other faults than the family's: run go test ./host/all -update", path)
	}
}

// TestManualLinksItsDesks: every bundled desk is linked from the manual of
// the family its cases run on (the desks stay in cases/, verified there).
func TestManualLinksItsDesks(t *testing.T) {
	reg := Registry()
	for _, f := range Desks() {
		hosts := map[string]bool{}
		for _, sc := range gjson.GetBytes(f.Data, "cases.#.scenario").Array() {
			_, fam, ok := reg.Lookup(sc.String())
			require.True(t, ok, "%s: scenario %s", f.Path, sc.String())
			hosts[fam.Host.Name] = true
		}
		require.NotEmpty(t, hosts, f.Path)
		for _, fam := range reg.Families() {
			if hosts[fam.Host.Name] {
				path, text := manual(t, fam)
				assert.Contains(t, text, "](../../../"+f.Path+")", "%s links to %s", path, f.Path)
			}
		}
	}
}

// TestManualCountsItsFaults: a count of faults a manual states ("The
// gateway has 14 faults") is its family's.
func TestManualCountsItsFaults(t *testing.T) {
	stated := regexp.MustCompile(`has (\d+) faults`)
	for _, f := range Registry().Families() {
		path, text := manual(t, f)
		for _, m := range stated.FindAllStringSubmatch(strings.Join(strings.Fields(text), " "), -1) {
			assert.Equal(t, strconv.Itoa(len(f.Faults)), m[1], "%s: %q", path, m[0])
		}
	}
}
