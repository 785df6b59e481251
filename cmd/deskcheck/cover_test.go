package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
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

// For every bundled desk, cover names each unreached point with a case
// that reaches it, and the desk -suggest prints makes every point of the
// desk's families reached.
func TestCoverSuggestClosesEveryGap(t *testing.T) {
	gapped := 0
	for _, d := range bundledDesks(t) {
		path := "../../" + d.Path
		t.Run(d.Name, func(t *testing.T) {
			code, out, errOut := runCLI(t, "cover", "-format", "json", path)
			require.Equal(t, 0, code, errOut)
			gaps := unreached(t, out, d.ID)
			for p, given := range gaps {
				assert.NotEmpty(t, given, "%s has no reaching case", p)
			}
			code, text, errOut := runCLI(t, "cover", path)
			require.Equal(t, 0, code, errOut)
			for _, c := range gjson.Get(out, "desks").Array() {
				assert.Regexp(t, `(?m)^`+regexp.QuoteMeta(c.Get("host").String()+" on "+d.ID)+`: \d+ of \d+ points reached \(\d+%\)(; \d+ points of .* not addressed \(no case of them\))?$`, text)
			}
			for p := range gaps {
				assert.Regexp(t, `(?m)^  UNREACHED  `+regexp.QuoteMeta(p)+` `, text)
			}
			if len(gaps) == 0 {
				return
			}
			gapped++
			code, desk, errOut := runCLI(t, "cover", "-suggest", path)
			require.Equal(t, 0, code, errOut)
			assert.True(t, gjson.Valid(desk))
			assert.Equal(t, len(gaps), int(gjson.Get(desk, "cases.#").Int()), "one suggested case per unreached point")
			suggested := filepath.Join(t.TempDir(), "suggested.json")
			require.NoError(t, os.WriteFile(suggested, []byte(desk), 0o644))
			code, _, errOut = runCLI(t, "verify", "-out", filepath.Join(t.TempDir(), "r"), suggested)
			require.Equal(t, 0, code, "the suggested desk verifies as printed: %s", errOut)
			code, out, errOut = runCLI(t, "cover", "-format", "json", path, suggested)
			require.Equal(t, 0, code, errOut)
			for _, f := range gjson.Get(out, "families").Array() {
				assert.Equal(t, f.Get("points").Int(), f.Get("reached").Int(), "with the suggested cases every point of %s is reached", f.Get("host").String())
			}
		})
	}
	assert.Positive(t, gapped, "some bundled desk leaves a point unreached")
}

// -min exits 1 for a desk below it, naming what is missing, and 0 for one
// at or above it.
func TestCoverMin(t *testing.T) {
	var below, above string
	var missing []string
	for _, d := range bundledDesks(t) {
		_, out, _ := runCLI(t, "cover", "-format", "json", "../../"+d.Path)
		c := gjson.Get(out, `desks.#(desk=="`+d.ID+`")`)
		switch pct := float64(c.Get("reached").Int()) * 100 / float64(c.Get("points").Int()); {
		case pct < 90 && below == "":
			below = "../../" + d.Path
			for p := range unreached(t, out, d.ID) {
				missing = append(missing, p)
			}
		case pct >= 90 && above == "":
			above = "../../" + d.Path
		}
	}
	require.NotEmpty(t, below, "a bundled desk reaches less than 90%")
	require.NotEmpty(t, above, "a bundled desk reaches 90% or more")
	code, out, errOut := runCLI(t, "cover", "-min", "90", below)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "UNREACHED")
	assert.Contains(t, errOut, "below -min 90; missing: ")
	assert.Contains(t, errOut, missing[0])
	code, _, errOut = runCLI(t, "cover", "-min", "90", above)
	assert.Equal(t, 0, code, errOut)
	code, _, errOut = runCLI(t, "cover", "-min", "101", below)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "-min must be a percentage")
}

// For every bundled desk that lets mutants survive, mutants lists each
// survivor, and the killing cases mutants -suggest prints verify as
// printed and kill every one.
func TestMutantsSuggestKillsEverySurvivor(t *testing.T) {
	survived := 0
	for _, d := range bundledDesks(t) {
		path := "../../" + d.Path
		t.Run(d.Name, func(t *testing.T) {
			code, js, errOut := runCLI(t, "mutants", "-format", "json", path)
			var names []string
			// A desk that teaches several hosts has a score for each.
			for _, score := range gjson.Get(js, `scores.#(desk=="`+d.ID+`")#`).Array() {
				for _, s := range score.Get("survivors").Array() {
					names = append(names, s.String())
				}
			}
			if len(names) == 0 {
				assert.Equal(t, 0, code, errOut)
				return
			}
			survived++
			require.Equal(t, 1, code, errOut)
			code, out, errOut := runCLI(t, "mutants", path)
			require.Equal(t, 1, code, errOut)
			for _, n := range names {
				assert.Regexp(t, `(?m)^  SURVIVED  `+regexp.QuoteMeta(n)+`: `, out)
			}
			for _, s := range gjson.Get(js, "scores").Array() {
				assert.Regexp(t, `(?m)^`+regexp.QuoteMeta(s.Get("host").String()+" on "+d.ID)+`: \d+ of \d+ mutants killed \(\d+%\)(; \d+ mutants not addressed .*)?$`, out)
			}
			for _, e := range gjson.Get(js, "equivalent").Array() {
				assert.Contains(t, out, "(left out, equivalent: "+e.Get("mutant").String())
			}

			code, desk, errOut := runCLI(t, "mutants", "-suggest", path)
			require.Equal(t, 0, code, errOut)
			assert.Equal(t, len(names), int(gjson.Get(desk, "cases.#").Int()), "one killing case per survivor")
			assert.Contains(t, desk, `"id": "kill-`+strings.NewReplacer("/", "-").Replace(names[0])+`"`)
			killers := filepath.Join(t.TempDir(), "killers.json")
			require.NoError(t, os.WriteFile(killers, []byte(desk), 0o644))
			code, out, errOut = runCLI(t, "mutants", path, killers)
			require.Equal(t, 0, code, "with the suggested cases no mutant survives: %s%s", out, errOut)
			assert.True(t, strings.HasSuffix(out, " mutants killed\n"))
		})
	}
	assert.Positive(t, survived, "some bundled desk lets a mutant survive")
}

// -mutant selects mutants by full name.
func TestMutantsSelect(t *testing.T) {
	_, js, _ := runCLI(t, "mutants", "-format", "json", boundaryDesk)
	survivors := gjson.Get(js, "scores.0.survivors").Array()
	require.NotEmpty(t, survivors)
	code, out, errOut := runCLI(t, "mutants", "-mutant", "^"+regexp.QuoteMeta(survivors[0].String())+"$", boundaryDesk)
	require.Equal(t, 1, code, errOut)
	assert.Contains(t, out, "0 of 1 mutants killed")
	code, _, errOut = runCLI(t, "mutants", "-mutant", `^nothing$`, boundaryDesk)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "no mutant selected")
	code, _, errOut = runCLI(t, "mutants", "-mutant", `(`, boundaryDesk)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "-mutant")
}

// verify -v ends with the unreached points; without -v it does not.
func TestVerifyVerbosePrintsCoverage(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r")
	_, cov, _ := runCLI(t, "cover", "-format", "json", boundaryDesk)
	gaps := unreached(t, cov, "boundary-desk")
	require.NotEmpty(t, gaps)
	code, text, errOut := runCLI(t, "verify", "-v", "-out", out, boundaryDesk)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, text, "\nBoundary coverage: the points of each host's decision logic the cases reach\n"+gjson.Get(cov, "desks.0.host").String()+" on boundary-desk: ")
	for p := range gaps {
		assert.Regexp(t, `(?m)^  UNREACHED  `+regexp.QuoteMeta(p)+` `, text)
	}
	code, text, errOut = runCLI(t, "verify", "-out", out, boundaryDesk)
	require.Equal(t, 0, code, errOut)
	assert.NotContains(t, text, "Boundary coverage")
	data, err := os.ReadFile(filepath.Join(out, "report.md"))
	require.NoError(t, err)
	assert.Contains(t, string(data), "## Boundary coverage")
	data, err = os.ReadFile(filepath.Join(out, "report.json"))
	require.NoError(t, err)
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
	assert.Contains(t, errOut, "deskcheck: -min 50 judged each family over every desk read, on the points of the scenarios its cases address (arena 95.8%; omp 67.6%;")

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
