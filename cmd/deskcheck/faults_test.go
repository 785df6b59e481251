package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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

func TestFaultsNotAddressed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	code, out, errOut := runCLI(t, "faults", "-out", dir, "-run", "^boundary-desk/boundary-(approve|deny)-one-call$")
	assert.Equal(t, 1, code, errOut)
	assert.Regexp(t, `(?m)^omp/fallback-retries +n/a     not addressed \(no case of scenario fallback\)$`, out)
	assert.Regexp(t, `(?m)^omp/classifier-message-first +n/a     not addressed \(no case of scenario classify-error\)$`, out)
	assert.Regexp(t, `(?m)^omp/approval-remembered +MISSED`, out, "a wrapper fault the two cases address and miss")
	assert.Regexp(t, `\n\d+ of \d+ addressed faults caught, 4 not addressed\n$`, out)
	s := readStrength(t, dir)
	assert.Equal(t, 4, s.Strength.NotAddressed)
	assert.Equal(t, "fail", s.StrengthVerdict)

	// A desk of one scenario, catching every fault it addresses, passes.
	dir = filepath.Join(t.TempDir(), "out")
	code, out, errOut = runCLI(t, "faults", "-out", dir, "-run", "^boundary-desk/boundary-fallback-no-handler$")
	assert.Equal(t, 0, code, "%s%s", out, errOut)
	assert.Contains(t, out, "2 of 2 addressed faults caught, ")
	headline := regexp.MustCompile(`strength PASS — 2 of 2 addressed faults caught, \d+ not addressed · cases PASS`)
	_, text, _ := runCLI(t, "report", "render", filepath.Join(dir, "report.json"))
	assert.Regexp(t, headline, text, "the headline says how many are not addressed")
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
