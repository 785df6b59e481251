package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/scenario"
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

// deskScenarios is the scenarios a bundled desk has cases of.
func deskScenarios(t *testing.T, d bundledDesk) map[string]bool {
	t.Helper()
	got := map[string]bool{}
	for _, sc := range gjson.GetBytes(deskData(t, d), "cases.#.scenario").Array() {
		got[sc.String()] = true
	}
	return got
}

// partlyAddressed is a bundled desk with cases of some, not all, of a
// family's scenarios: the family, and the scenarios it has no case of in
// the order the family's points name them.
type partlyAddressed struct {
	desk    bundledDesk
	family  scenario.Family
	missing []string
}

// partlyAddressedDesks returns every bundled desk that addresses a family
// only in part, one entry per such family.
func partlyAddressedDesks(t *testing.T) []partlyAddressed {
	t.Helper()
	reg := all.Registry()
	var out []partlyAddressed
	for _, d := range bundledDesks(t) {
		has := deskScenarios(t, d)
		for _, f := range reg.Families() {
			var missing []string
			some := false
			for _, p := range f.Points {
				switch {
				case has[p.Scenario]:
					some = true
				case !slices.Contains(missing, p.Scenario):
					missing = append(missing, p.Scenario)
				}
			}
			if some && len(missing) > 0 {
				out = append(out, partlyAddressed{desk: d, family: f, missing: missing})
			}
		}
	}
	require.NotEmpty(t, out, "a bundled desk has cases of only some of a family's scenarios")
	return out
}

// pointsOf counts a family's points of one scenario.
func pointsOf(f scenario.Family, name string) int {
	n := 0
	for _, p := range f.Points {
		if p.Scenario == name {
			n++
		}
	}
	return n
}

// oneScenarioDesk writes a desk of a bundled desk's cases of one scenario
// alone, with the id only-SCENARIO, and returns its path and id: the first
// scenario, in the bundled suite's order, of a family of several scenarios
// whose cases leave one of its points unreached (so that there is a case to
// suggest).
func oneScenarioDesk(t *testing.T, bundled string) (path, id, name string, fam scenario.Family) {
	t.Helper()
	reg := all.Registry()
	for _, d := range bundledDesks(t) {
		desk := gjson.Get(bundled, `desks.#(desk=="`+d.ID+`")#`).Array()
		for _, sc := range gjson.GetBytes(deskData(t, d), "cases.#.scenario").Array() {
			_, f, ok := reg.Lookup(sc.String())
			require.True(t, ok, sc.String())
			if len(f.Scenarios) < 2 {
				continue
			}
			gap := false
			for _, c := range desk {
				for _, p := range c.Get("list").Array() {
					gap = gap || (p.Get("scenario").String() == sc.String() && p.Get("reached").Int() == 0)
				}
			}
			if !gap {
				continue
			}
			var d2 map[string]any
			require.NoError(t, json.Unmarshal(deskData(t, d), &d2))
			var kept []any
			for _, c := range d2["cases"].([]any) {
				if c.(map[string]any)["scenario"] == sc.String() {
					kept = append(kept, c)
				}
			}
			id = "only-" + sc.String()
			d2["cases"], d2["id"] = kept, id
			data, err := json.Marshal(d2)
			require.NoError(t, err)
			path = filepath.Join(t.TempDir(), id+".json")
			require.NoError(t, os.WriteFile(path, data, 0o600))
			return path, id, sc.String(), *f
		}
	}
	t.Fatal("no bundled case is of a family of several scenarios and leaves a point of its scenario unreached")
	return "", "", "", scenario.Family{}
}

// TestCoverJudgesWhatADeskAddresses: a desk is measured on the points of
// the scenarios it has cases of, the rest said not addressed; -min judges
// every desk together (or, -per-desk, each desk) and says which; the
// bundled desks pass -min 50.
func TestCoverJudgesWhatADeskAddresses(t *testing.T) {
	reg := all.Registry()
	code, bundled, errOut := runCLI(t, "cover", "-format", "json")
	require.Equal(t, 0, code, errOut)
	pct := func(c gjson.Result) float64 {
		reached := 0
		for _, p := range c.Get("list").Array() {
			if p.Get("reached").Int() > 0 {
				reached++
			}
		}
		require.Len(t, c.Get("list").Array(), int(c.Get("points").Int()), "the points are the addressed ones listed")
		return 100 * float64(reached) / float64(len(c.Get("list").Array()))
	}
	var figures []string
	for _, f := range gjson.Get(bundled, "families").Array() {
		figures = append(figures, fmt.Sprintf("%s %.1f%%", f.Get("host").String(), pct(f)))
	}
	require.Len(t, figures, len(reg.Families()), "every family is judged")
	code, _, errOut = runCLI(t, "cover", "-min", "50")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, "deskcheck: -min 50 judged each family over every desk read, on the points of the scenarios its cases address ("+strings.Join(figures, "; ")+")\n")

	code, _, errOut = runCLI(t, "cover", "-min", "50", "-per-desk")
	require.Equal(t, 1, code, errOut)
	assert.Contains(t, errOut, "judged each desk on its own")
	low := 0
	for _, d := range gjson.Get(bundled, "desks").Array() {
		p := pct(d)
		if p >= 50 {
			assert.NotContains(t, errOut, d.Get("host").String()+" on "+d.Get("desk").String()+" reaches")
			continue
		}
		low++
		var missing []string
		for _, x := range d.Get("list").Array() {
			if x.Get("reached").Int() == 0 {
				missing = append(missing, x.Get("point").String())
			}
		}
		line := fmt.Sprintf("deskcheck: %s on %s reaches %.1f%% of the %d points of the scenarios its cases address, below -min 50; missing: %s\n",
			d.Get("host").String(), d.Get("desk").String(), p, d.Get("points").Int(), strings.Join(missing, ", "))
		assert.Contains(t, errOut, line)
		for _, sc := range d.Get("notAddressed").Array() {
			assert.NotContains(t, line, " "+sc.String()+"/", "no point of a scenario the desk has no case of is missing")
		}
	}
	assert.Positive(t, low, "a bundled desk reaches less than half the points it addresses")

	for _, pa := range partlyAddressedDesks(t) {
		host := pa.family.Host.Name
		code, js, errOut := runCLI(t, "cover", "-format", "json", "../../"+pa.desk.Path)
		require.Equal(t, 0, code, errOut)
		d := gjson.Get(js, `desks.#(host=="`+host+`")`)
		require.True(t, d.Exists(), "%s is covered on %s", host, pa.desk.Path)
		var notAddressed []string
		for _, sc := range d.Get("notAddressed").Array() {
			notAddressed = append(notAddressed, sc.String())
		}
		assert.Equal(t, pa.missing, notAddressed, "%s on %s: the family's scenarios the desk has no case of", host, pa.desk.ID)
		unaddressed := 0
		for _, sc := range pa.missing {
			unaddressed += pointsOf(pa.family, sc)
		}
		assert.Equal(t, int64(unaddressed), d.Get("unaddressedPoints").Int())
		assert.Equal(t, len(pa.family.Points), int(d.Get("points").Int())+unaddressed, "every point of %s is addressed or left out", host)
		code, out, errOut := runCLI(t, "cover", "../../"+pa.desk.Path)
		require.Equal(t, 0, code, errOut)
		note := fmt.Sprintf(": %d of %d points reached \\(\\d+%%\\); %d points? of %s not addressed \\(no case of (it|them)\\)$",
			d.Get("reached").Int(), d.Get("points").Int(), unaddressed, regexp.QuoteMeta(strings.Join(pa.missing, ", ")))
		assert.Regexp(t, `(?m)^`+regexp.QuoteMeta(host+" on "+pa.desk.ID)+note, out)
		assert.Regexp(t, `(?m)^`+regexp.QuoteMeta(host+", every desk")+note, out)
	}

	alone, id, name, fam := oneScenarioDesk(t, bundled)
	code, js, errOut := runCLI(t, "cover", "-format", "json", alone)
	require.Equal(t, 0, code, errOut)
	d := gjson.Get(js, `desks.#(desk=="`+id+`")`)
	assert.Equal(t, int64(pointsOf(fam, name)), d.Get("points").Int(), "the points of %s only", name)
	var others []string
	for _, p := range fam.Points {
		if p.Scenario != name && !slices.Contains(others, p.Scenario) {
			others = append(others, p.Scenario)
		}
	}
	assert.Equal(t, others, toStrings(d.Get("notAddressed").Array()))
	for _, p := range d.Get("list").Array() {
		assert.Equal(t, name, p.Get("scenario").String(), p.Get("point").String())
	}
	code, desk, errOut := runCLI(t, "cover", "-suggest", alone)
	require.Equal(t, 0, code, errOut)
	require.NotZero(t, gjson.Get(desk, "cases.#").Int())
	for _, sc := range gjson.Get(desk, "cases.#.scenario").Array() {
		assert.Equal(t, name, sc.String(), "only the points of %s are suggested", name)
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

// toStrings is the strings of a JSON array.
func toStrings(list []gjson.Result) []string {
	var out []string
	for _, x := range list {
		out = append(out, x.String())
	}
	return out
}

// TestMutantsJudgeWhatADeskAddresses: a survivor only another scenario's
// inputs kill is not addressed by a desk of cases of some of its family's
// scenarios.
func TestMutantsJudgeWhatADeskAddresses(t *testing.T) {
	seen := 0
	for _, pa := range partlyAddressedDesks(t) {
		host := pa.family.Host.Name
		code, js, errOut := runCLI(t, "mutants", "-format", "json", "../../"+pa.desk.Path)
		require.Contains(t, []int{0, 1}, code, errOut)
		score := gjson.Get(js, `scores.#(host=="`+host+`")`)
		require.True(t, score.Exists(), "%s is scored on %s", host, pa.desk.Path)
		notAddressed := toStrings(score.Get("notAddressed").Array())
		if len(notAddressed) == 0 {
			continue
		}
		seen++
		for _, n := range notAddressed {
			assert.True(t, slices.ContainsFunc(pa.family.Mutants, func(m scenario.Mutant) bool { return host+"/"+m.Name == n }), "%s is a mutant of %s", n, host)
		}
		assert.Equal(t, score.Get("mutants").Int(), score.Get("killed").Int()+int64(len(score.Get("survivors").Array())), "the mutants addressed are killed or survive")
		code, out, errOut := runCLI(t, "mutants", "../../"+pa.desk.Path)
		require.Equal(t, 1, code, errOut)
		assert.Regexp(t, `(?m)^`+regexp.QuoteMeta(host+" on "+pa.desk.ID)+fmt.Sprintf(`: %d of %d mutants killed \(\d+%%\); %d mutants? not addressed \(only a case of a scenario with no case here kills (it|them)\): `, score.Get("killed").Int(), score.Get("mutants").Int(), len(notAddressed))+regexp.QuoteMeta(notAddressed[0]), out)
		for _, n := range notAddressed {
			assert.NotContains(t, out, "SURVIVED  "+n+":")
		}
	}
	assert.Positive(t, seen, "a bundled desk leaves a mutant of its family unaddressed")
}
