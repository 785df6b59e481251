package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/all"
)

// strengthOf reads the strength section of a faults run's report.json.
type strengthOf struct {
	StrengthVerdict string
	Strength        struct {
		Caught, Faults, NotAddressed int
		Results                      []struct {
			Fault        string
			Caught       bool
			NotAddressed string
			Exposed      []string
		}
	}
}

func readStrength(t *testing.T, dir string) strengthOf {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "report.json"))
	require.NoError(t, err)
	var s strengthOf
	require.NoError(t, json.Unmarshal(data, &s))
	return s
}

// TestBundledDesksCatchEveryFault: whatever faults the registry holds, the
// bundled desks catch each of them.
func TestBundledDesksCatchEveryFault(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	code, out, errOut := runCLI(t, "faults", "-out", dir)
	require.Equal(t, 0, code, "%s%s", out, errOut)
	s := readStrength(t, dir)
	assert.Equal(t, "pass", s.StrengthVerdict)
	got := map[string]bool{}
	for _, r := range s.Strength.Results {
		got[r.Fault] = r.Caught
	}
	for _, f := range all.Registry().Faults() {
		assert.True(t, got[f.FullName()], "the bundled desks catch %s", f.FullName())
	}
	assert.Len(t, s.Strength.Results, len(all.Registry().Faults()))
	assert.Zero(t, s.Strength.NotAddressed)
}

// TestFaultsNotAddressed: the bundled cases of one scenario of a family
// with several address only the faults of that scenario and those of
// every scenario; each other fault is not addressed, said so with the
// scenario it needs, and counted apart in the tally and the headline.
func TestFaultsNotAddressed(t *testing.T) {
	reg := all.Registry()
	byScenario := map[string][]string{} // scenario → its bundled cases, as -run patterns
	for _, d := range bundledDesks(t) {
		for _, c := range gjson.GetBytes(deskData(t, d), "cases").Array() {
			sc := c.Get("scenario").String()
			byScenario[sc] = append(byScenario[sc], regexp.QuoteMeta(d.ID+"/"+c.Get("id").String()))
		}
	}
	runs, passed := 0, 0
	for _, fam := range reg.Families() {
		if len(fam.Scenarios) < 2 {
			continue
		}
		for _, sc := range fam.Scenarios {
			cases := byScenario[sc.Name]
			if len(cases) == 0 {
				continue
			}
			var addressed, notAddressed []string
			for _, f := range fam.Faults {
				if len(f.Scenarios) == 0 || slices.Contains(f.Scenarios, sc.Name) {
					addressed = append(addressed, f.Name)
				} else {
					notAddressed = append(notAddressed, f.Name)
				}
			}
			if len(notAddressed) == 0 {
				continue
			}
			runs++
			dir := filepath.Join(t.TempDir(), "out")
			code, out, errOut := runCLI(t, "faults", "-out", dir, "-run", "^("+strings.Join(cases, "|")+")$")
			require.Contains(t, []int{0, 1}, code, errOut)
			for _, name := range notAddressed {
				assert.Regexp(t, `(?m)^`+regexp.QuoteMeta(fam.Host.Name+"/"+name)+` +n/a +not addressed \(no case of scenario`, out)
			}
			m := regexp.MustCompile(`\n(\d+) of (\d+) addressed faults caught, (\d+) not addressed\n$`).FindStringSubmatch(out)
			if !assert.NotNil(t, m, out) {
				continue
			}
			assert.Equal(t, strconv.Itoa(len(addressed)), m[2])
			assert.Equal(t, strconv.Itoa(len(notAddressed)), m[3])
			s := readStrength(t, dir)
			assert.Equal(t, len(notAddressed), s.Strength.NotAddressed)
			_, text, _ := runCLI(t, "report", "render", filepath.Join(dir, "report.json"))
			verdict := map[int]string{0: "PASS", 1: "FAIL"}[code]
			assert.Contains(t, text, "strength "+verdict+" — "+m[1]+" of "+m[2]+" addressed faults caught, "+m[3]+" not addressed · cases PASS", "the headline says how many are not addressed")
			if code == 0 {
				passed++
			}
		}
	}
	assert.Positive(t, runs, "some family's faults are each of one scenario")
	assert.Positive(t, passed, "the cases of some scenario catch every fault they address")
}

func TestFaultDenyAllRunsEveryFamilysFault(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	code, out, errOut := runCLI(t, "faults", "-fault", "deny-all", "-out", dir)
	require.Equal(t, 0, code, "%s%s", out, errOut)
	s := readStrength(t, dir)
	var names []string
	for _, r := range s.Strength.Results {
		names = append(names, r.Fault)
		assert.True(t, r.Caught, r.Fault)
		assert.NotEmpty(t, r.Exposed, "%s moves a dimension", r.Fault)
	}
	var want []string
	for _, f := range all.Registry().Faults() {
		if f.Name == "deny-all" {
			want = append(want, f.FullName())
		}
	}
	assert.Equal(t, want, names)
	assert.GreaterOrEqual(t, len(want), 4, "every family has a deny-all")
	lines := strings.Split(out, "\n")
	for _, name := range want {
		for i, line := range lines {
			if strings.HasPrefix(line, name+" ") {
				assert.Contains(t, line, "caught")
				rest := strings.Join(lines[i+1:], "\n")
				if next := regexp.MustCompile(`(?m)^\S`).FindStringIndex(rest); next != nil {
					rest = rest[:next[0]]
				}
				m := regexp.MustCompile(`dimensions: .*allowed work (\d+)/\d+ → (\d+)/\d+`).FindStringSubmatch(rest)
				if assert.NotNil(t, m, "the blanket refusal of %s shows in allowed work", name) {
					before, _ := strconv.Atoi(m[1])
					after, _ := strconv.Atoi(m[2])
					assert.Less(t, after, before, "the blanket refusal of %s lowers allowed work", name)
				}
			}
		}
	}
	code, _, errOut = runCLI(t, "faults", "-fault", "deny-al", "-out", dir)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `did you mean "deny-all"?`)
}
