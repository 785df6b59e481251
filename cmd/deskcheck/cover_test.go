package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/omp/ompcheck"
)

const boundaryDesk = "../../cases/boundary-desk.json"

// unreached returns the unreached points of the desk called desk in a
// cover -format json output, each with the given of the case made for it.
func unreached(t *testing.T, out, desk string) map[string]string {
	t.Helper()
	got := map[string]string{}
	found := false
	for _, d := range gjson.Get(out, "desks").Array() {
		if d.Get("desk").String() != desk {
			continue
		}
		found = true
		for _, p := range d.Get("list").Array() {
			if len(p.Get("cases").Array()) == 0 {
				got[p.Get("point").String()] = p.Get("made.given").Raw
			}
		}
	}
	require.True(t, found, "no coverage of desk %s in %s", desk, out)
	return got
}

// The boundary desk leaves decision rows 3, 5, 6, 7 and 8 and write mode
// unreached; cover names each with a case that reaches it, and the desk
// -suggest prints makes every one of them reached.
func TestCoverBoundaryDesk(t *testing.T) {
	code, out, errOut := runCLI(t, "cover", "-format", "json", boundaryDesk)
	require.Equal(t, 0, code, errOut)
	gaps := unreached(t, out, "boundary-desk")
	for _, p := range []string{"wrapper/row-3", "wrapper/row-5", "wrapper/row-6", "wrapper/row-7", "wrapper/row-8", "wrapper/mode-write"} {
		if assert.Contains(t, gaps, p) {
			assert.NotEmpty(t, gaps[p], "%s has no reaching case", p)
		}
	}
	for _, p := range []string{"wrapper/row-1", "wrapper/row-2", "wrapper/row-4", "wrapper/row-9", "wrapper/mode-always-ask"} {
		assert.NotContains(t, gaps, p, "the desk reaches %s", p)
	}

	code, text, errOut := runCLI(t, "cover", boundaryDesk)
	require.Equal(t, 0, code, errOut)
	assert.Regexp(t, `(?m)^  UNREACHED  wrapper/mode-write +a call resolves in mode write$`, text)
	assert.Regexp(t, `(?m)^omp on boundary-desk: \d+ of \d+ points reached \(\d+%\)$`, text)

	code, desk, errOut := runCLI(t, "cover", "-suggest", boundaryDesk)
	require.Equal(t, 0, code, errOut)
	assert.True(t, gjson.Valid(desk))
	assert.Equal(t, len(gaps), int(gjson.Get(desk, "cases.#").Int()), "one suggested case per unreached point")
	path := filepath.Join(t.TempDir(), "suggested.json")
	require.NoError(t, os.WriteFile(path, []byte(desk), 0o644))
	code, _, errOut = runCLI(t, "verify", "-out", filepath.Join(t.TempDir(), "r"), path)
	require.Equal(t, 0, code, "the suggested desk verifies as printed: %s", errOut)

	code, out, errOut = runCLI(t, "cover", "-format", "json", boundaryDesk, path)
	require.Equal(t, 0, code, errOut)
	for _, f := range gjson.Get(out, "families").Array() {
		if f.Get("host").String() == "omp" {
			assert.Equal(t, f.Get("points").Int(), f.Get("reached").Int(), "with the suggested cases every OMP point is reached")
		}
	}
}

func TestCoverMin(t *testing.T) {
	code, out, errOut := runCLI(t, "cover", "-min", "90", boundaryDesk)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "UNREACHED")
	assert.Contains(t, errOut, "below -min 90; missing: ")
	assert.Contains(t, errOut, "wrapper/row-3")
	code, _, errOut = runCLI(t, "cover", "-min", "90", "../../cases/runner-desk.json")
	assert.Equal(t, 0, code, errOut)
	code, _, errOut = runCLI(t, "cover", "-min", "101", boundaryDesk)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "-min must be a percentage")
}

// The mode-cap mutants survive the boundary desk; the killing cases that
// mutants -suggest prints verify as printed and kill every survivor.
func TestMutantsBoundaryDesk(t *testing.T) {
	code, out, errOut := runCLI(t, "mutants", boundaryDesk)
	require.Equal(t, 1, code, errOut)
	assert.Contains(t, out, "  SURVIVED  omp/cap/write/raise: mode write auto-approves tiers up to exec, one above its cap write\n")
	assert.Contains(t, out, "  SURVIVED  omp/cap/always-ask/raise: mode always-ask auto-approves tiers up to write, one above its cap read\n")
	assert.Contains(t, out, "(left out, equivalent: omp/cap/yolo/lower")
	assert.Regexp(t, `(?m)^omp on boundary-desk: \d+ of \d+ mutants killed \(\d+%\)$`, out)

	code, js, errOut := runCLI(t, "mutants", "-format", "json", boundaryDesk)
	require.Equal(t, 1, code, errOut)
	survivors := gjson.Get(js, `scores.#(desk=="boundary-desk").survivors`).Array()
	var names []string
	for _, s := range survivors {
		names = append(names, s.String())
	}
	assert.Contains(t, names, "omp/cap/write/raise")
	assert.Contains(t, names, "omp/cap/always-ask/raise")

	code, desk, errOut := runCLI(t, "mutants", "-suggest", boundaryDesk)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, len(names), int(gjson.Get(desk, "cases.#").Int()), "one killing case per survivor")
	assert.Contains(t, desk, `"id": "kill-omp-cap-write-raise"`)
	path := filepath.Join(t.TempDir(), "killers.json")
	require.NoError(t, os.WriteFile(path, []byte(desk), 0o644))
	code, out, errOut = runCLI(t, "mutants", boundaryDesk, path)
	require.Equal(t, 0, code, "with the suggested cases no mutant survives: %s%s", out, errOut)
	assert.True(t, strings.HasSuffix(out, " mutants killed\n"))
}

func TestMutantsSelect(t *testing.T) {
	code, out, errOut := runCLI(t, "mutants", "-mutant", `^omp/cap/`, boundaryDesk)
	require.Equal(t, 1, code, errOut)
	assert.Contains(t, out, "0 of 4 mutants killed")
	code, _, errOut = runCLI(t, "mutants", "-mutant", `^nothing$`, boundaryDesk)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "no mutant selected")
	code, _, errOut = runCLI(t, "mutants", "-mutant", `(`, boundaryDesk)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "-mutant")
}

// What docs/strength.md says of the boundary desk's coverage is what
// cover reports (the figures of the whole bundled suite are generated by
// go test ./host/all -update).
func TestReadmeCoverageFigures(t *testing.T) {
	data, err := os.ReadFile("../../docs/strength.md")
	require.NoError(t, err)
	readme := string(data)
	_, cov, errOut := runCLI(t, "cover", "-format", "json", boundaryDesk)
	require.NotEmpty(t, cov, errOut)
	var reached []string
	for _, p := range gjson.Get(cov, `desks.#(desk=="boundary-desk").list`).Array() {
		if name := p.Get("point").String(); strings.HasPrefix(name, "wrapper/row-") && p.Get("reached").Int() > 0 {
			reached = append(reached, strings.TrimPrefix(name, "wrapper/row-"))
		}
	}
	b := gjson.Get(cov, `desks.#(desk=="boundary-desk")`)
	assert.Contains(t, readme, "running a case for each of its "+strconv.Itoa(int(b.Get("points").Int()-b.Get("reached").Int()))+" unreached points")
	assert.Contains(t, readme, "The OMP family's "+strconv.Itoa(len(ompcheck.Generate()))+" generated inputs")
	require.Len(t, reached, 4)
	assert.Contains(t, readme, "decision rows "+reached[0]+", "+reached[1]+", "+reached[2]+" and "+reached[3]+" only")
}

// verify -v ends with the unreached points; without -v it does not.
func TestVerifyVerbosePrintsCoverage(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r")
	code, text, errOut := runCLI(t, "verify", "-v", "-out", out, boundaryDesk)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, text, "\nBoundary coverage: the points of each host's decision logic the cases reach\nomp on boundary-desk: ")
	assert.Regexp(t, `(?m)^  UNREACHED  wrapper/row-3 +decision row 3`, text)
	code, text, errOut = runCLI(t, "verify", "-out", out, boundaryDesk)
	require.Equal(t, 0, code, errOut)
	assert.NotContains(t, text, "Boundary coverage")
	data, err := os.ReadFile(filepath.Join(out, "report.md"))
	require.NoError(t, err)
	assert.Contains(t, string(data), "## Boundary coverage")
	data, err = os.ReadFile(filepath.Join(out, "report.json"))
	require.NoError(t, err)
	_, cov, _ := runCLI(t, "cover", "-format", "json", boundaryDesk)
	assert.Equal(t, gjson.Get(cov, "desks.0.reached").Int(), gjson.GetBytes(data, "coverage.desks.0.reached").Int(), "the report counts what cover counts")
	assert.Positive(t, gjson.GetBytes(data, "coverage.desks.0.reached").Int())
}
