package main

import (
	"encoding/json"
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

// The table (docs/strength.md) of the bundled desks' coverage and mutation scores,
// and its totals, are what cover and mutants report.
func TestReadmeCoverageFigures(t *testing.T) {
	data, err := os.ReadFile("../../docs/strength.md")
	require.NoError(t, err)
	readme := string(data)
	_, cov, errOut := runCLI(t, "cover", "-format", "json")
	require.NotEmpty(t, cov, errOut)
	_, mut, errOut := runCLI(t, "mutants", "-format", "json")
	require.NotEmpty(t, mut, errOut)
	for _, d := range gjson.Get(cov, "desks").Array() {
		desk, host := d.Get("desk").String(), d.Get("host").String()
		s := gjson.Get(mut, `scores.#(desk=="`+desk+`")`)
		row := "| " + desk + " | " + host + " | " + d.Get("reached").String() + " of " + d.Get("points").String() +
			" | " + s.Get("killed").String() + " of " + s.Get("mutants").String() + " |"
		assert.Contains(t, readme, row)
	}
	f := gjson.Get(cov, `families.#(host=="omp")`)
	fm := gjson.Get(mut, `families.#(host=="omp")`)
	assert.Contains(t, readme, "The three OMP desks together reach "+f.Get("reached").String()+" of the "+f.Get("points").String()+" OMP points and kill "+
		fm.Get("killed").String()+" of\nits "+fm.Get("mutants").String()+" mutants.")
	assert.Contains(t, readme, "In all, "+gjson.Get(mut, "killed").String()+" of "+gjson.Get(mut, "mutants").String()+" mutants are killed, and "+
		gjson.Get(mut, "equivalent.#").String()+" OMP mutants are left out as\nequivalent")
	var reached []string
	for _, p := range gjson.Get(cov, `desks.#(desk=="boundary-desk").list`).Array() {
		if name := p.Get("point").String(); strings.HasPrefix(name, "wrapper/row-") && p.Get("reached").Int() > 0 {
			reached = append(reached, strings.TrimPrefix(name, "wrapper/row-"))
		}
	}
	b := gjson.Get(cov, `desks.#(desk=="boundary-desk")`)
	assert.Contains(t, readme, "running a case for each of its "+strconv.Itoa(int(b.Get("points").Int()-b.Get("reached").Int()))+" unreached points")
	killed, all := gjson.Get(mut, "killed").Int(), gjson.Get(mut, "mutants").Int()
	assert.Contains(t, readme, "bundled desks ("+strconv.Itoa(int(all))+"\nmutants against their families' cases")
	assert.Contains(t, readme, "checked for each of the "+strconv.Itoa(int(all-killed))+" survivors)")
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

// fallbackOnlyDesk writes a desk of the boundary desk's fallback case
// alone.
func fallbackOnlyDesk(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(boundaryDesk)
	require.NoError(t, err)
	var d map[string]any
	require.NoError(t, json.Unmarshal(data, &d))
	var kept []any
	for _, c := range d["cases"].([]any) {
		if c.(map[string]any)["scenario"] == "fallback" {
			kept = append(kept, c)
		}
	}
	require.Len(t, kept, 1)
	d["cases"], d["id"] = kept, "fallback-only"
	desk, err := json.Marshal(d)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "fallback-only.json")
	require.NoError(t, os.WriteFile(path, desk, 0o600))
	return path
}

// TestCoverJudgesWhatADeskAddresses: a desk is measured on the points of
// the scenarios it has cases of, the rest said not addressed; -min judges
// every desk together (or, -per-desk, each desk) and says which; the
// bundled desks pass -min 50.
func TestCoverJudgesWhatADeskAddresses(t *testing.T) {
	code, _, errOut := runCLI(t, "cover", "-min", "50")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, "deskcheck: -min 50 judged each family over every desk read, on the points of the scenarios its cases address (omp 67.6%;")

	code, _, errOut = runCLI(t, "cover", "-min", "50", "-per-desk")
	require.Equal(t, 1, code, errOut)
	assert.Contains(t, errOut, "deskcheck: omp on omp-edges-desk reaches 33.3% of the 24 points of the scenarios its cases address, below -min 50; missing: wrapper/row-1,")
	assert.Contains(t, errOut, "judged each desk on its own")
	assert.NotContains(t, errOut, "fallback/", "no point of a scenario the desk has no case of is missing")

	code, out, errOut := runCLI(t, "cover", "../../cases/omp-edges-desk.json")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "omp on omp-edges-desk: 8 of 24 points reached (33%); 13 points of fallback, classify-error not addressed (no case of them)\n")
	assert.Contains(t, out, "omp, every desk: 8 of 24 points reached (33%); 13 points of fallback, classify-error not addressed (no case of them)\n")

	fallback := fallbackOnlyDesk(t)
	code, js, errOut := runCLI(t, "cover", "-format", "json", fallback)
	require.Equal(t, 0, code, errOut)
	d := gjson.Get(js, `desks.#(desk=="fallback-only")`)
	assert.Equal(t, int64(8), d.Get("points").Int(), "the fallback points only")
	assert.Equal(t, []any{"wrapper", "classify-error"}, d.Get("notAddressed").Value())
	for _, p := range d.Get("list").Array() {
		assert.Equal(t, "fallback", p.Get("scenario").String(), p.Get("point").String())
	}
	code, desk, errOut := runCLI(t, "cover", "-suggest", fallback)
	require.Equal(t, 0, code, errOut)
	require.NotZero(t, gjson.Get(desk, "cases.#").Int())
	for _, sc := range gjson.Get(desk, "cases.#.scenario").Array() {
		assert.Equal(t, "fallback", sc.String(), "only the fallback points are suggested")
	}

	mark := func(t *testing.T, desk string) {
		t.Helper()
		path := filepath.Join(t.TempDir(), "suggested.json")
		require.NoError(t, os.WriteFile(path, []byte(desk), 0o600))
		code, _, errOut := runCLI(t, "validate", "-fail-on-warn", path)
		assert.Equal(t, 0, code, "the suggested desk passes -fail-on-warn: %s", errOut)
	}
	code, desk, errOut = runCLI(t, "cover", "-suggest")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, desk, `"acknowledge": {"choices-vs-prompts": `)
	mark(t, desk)
	code, desk, errOut = runCLI(t, "mutants", "-suggest")
	require.Equal(t, 0, code, errOut)
	mark(t, desk)
}

// TestMutantsJudgeWhatADeskAddresses: a survivor only another scenario's
// inputs kill is not addressed by a desk of wrapper cases.
func TestMutantsJudgeWhatADeskAddresses(t *testing.T) {
	code, out, errOut := runCLI(t, "mutants", "../../cases/omp-edges-desk.json")
	require.Equal(t, 1, code, errOut)
	assert.Regexp(t, `(?m)^omp on omp-edges-desk: 7 of 28 mutants killed \(25%\); 9 mutants not addressed \(only a case of a scenario with no case here kills them\): omp/classify/`, out)
	assert.NotContains(t, out, "SURVIVED  omp/fallback/")
	code, js, errOut := runCLI(t, "mutants", "-format", "json", "../../cases/omp-edges-desk.json")
	require.Equal(t, 1, code, errOut)
	assert.Equal(t, int64(28), gjson.Get(js, "mutants").Int())
	assert.Contains(t, gjson.Get(js, `scores.0.notAddressed`).String(), "omp/fallback/retries/raise")
}
