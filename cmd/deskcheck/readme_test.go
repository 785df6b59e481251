package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/reports"
)

// documentation returns the top README, the reference pages under docs/
// and every family's manual (the README.md of its adapter folder) one
// after the other, with every run of white space made one space in flat,
// documentationPaths lists the README, the pages under docs/ and every
// family's manual.
func documentationPaths(t *testing.T) []string {
	t.Helper()
	paths := []string{"../../README.md"}
	pages, err := filepath.Glob("../../docs/*.md")
	require.NoError(t, err)
	paths = append(paths, pages...)
	for _, f := range all.Registry().Families() {
		paths = append(paths, filepath.Join("../..", filepath.FromSlash(all.Manual(f))))
	}
	return paths
}

// so that a sentence is found however the paragraph is wrapped.
func documentation(t *testing.T) (raw, flat string) {
	t.Helper()
	paths := documentationPaths(t)
	var b strings.Builder
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		b.Write(data)
		b.WriteString("\n")
	}
	return b.String(), strings.Join(strings.Fields(b.String()), " ")
}

// manualOf reads the manual of the family of a scenario.
func manualOf(t *testing.T, scenarioName string) string {
	t.Helper()
	_, fam, ok := all.Registry().Lookup(scenarioName)
	require.True(t, ok, scenarioName)
	data, err := os.ReadFile(filepath.Join("../..", filepath.FromSlash(all.Manual(*fam))))
	require.NoError(t, err)
	return string(data)
}

// TestReadmeIsAnOverview: the top README stays an overview of at most
// 30 KB, with the two set-up commands on its first screen, and points at
// every reference page and at deskcheck help SCENARIO.
func TestReadmeIsAnOverview(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	assert.LessOrEqual(t, len(data), 30*1024, "README.md is an overview of at most 30 KB; move reference text to docs/ or a family's manual")
	readme := string(data)
	first := strings.Join(strings.SplitN(readme, "\n", 41)[:40], "\n")
	assert.Contains(t, first, "go run ./cmd/deskcheck verify ", "the first screen says how to verify")
	assert.Contains(t, first, "go test ./... ", "the first screen says how to test")
	assert.Contains(t, readme, "deskcheck help SCENARIO")
	pages, err := filepath.Glob("../../docs/*.md")
	require.NoError(t, err)
	require.NotEmpty(t, pages)
	for _, p := range pages {
		assert.Contains(t, readme, "](docs/"+filepath.Base(p), "the README links to %s", p)
	}
}

// TestReadmeCounts holds every count the README states about the bundled
// desks and the hosts to what the desks and the registry hold.
func TestReadmeCounts(t *testing.T) {
	raw, flat := documentation(t)

	t.Run("the last lines of verify", func(t *testing.T) {
		code, out, errOut := runCLI(t, "verify", "-out", filepath.Join(t.TempDir(), "out"))
		require.Equal(t, 0, code, errOut)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		require.GreaterOrEqual(t, len(lines), 2)
		tally, last := lines[len(lines)-2], lines[len(lines)-1]
		assert.Regexp(t, `^\d+ passed, 0 failed$`, tally)
		assert.Regexp(t, `^\(\d+ source-only claims not executed\)$`, last)
		want := "ends with `" + tally + "` and `" + last + "`"
		assert.True(t, strings.Contains(flat, want), "the README says verify %s", want)
	})

	t.Run("cases per bundled desk", func(t *testing.T) {
		start := strings.Index(flat, "The bundled desks: ")
		require.GreaterOrEqual(t, start, 0)
		para := flat[start:]
		para = para[:strings.Index(para, ". ")+1]
		for _, d := range bundledDesks(t) {
			re := regexp.MustCompile("`" + regexp.QuoteMeta(d.Name) + "\\.json` \\([^()]*?(\\d+)( cases)?\\)")
			m := re.FindStringSubmatch(para)
			if assert.NotNil(t, m, "the README's list of bundled desks names %s with its number of cases", d.Name) {
				assert.Equal(t, strconv.Itoa(len(d.Cases)), m[1], "cases of %s", d.Name)
			}
		}
		assert.Equal(t, len(bundledDesks(t)), strings.Count(para, ".json`"), "the list names every bundled desk and no other")
	})

	t.Run("faults per host", func(t *testing.T) {
		perHost := map[string]int{}
		for _, f := range all.Registry().Faults() {
			perHost[f.Host]++
		}
		names := map[string]string{"OMP host": "omp", "gateway": "gateway", "runner": "runner", "household runtime": "household", "arena": "arena"}
		seen := map[string]bool{}
		stated := regexp.MustCompile(`The (OMP host|gateway|runner|household runtime|arena) has (\d+) faults`)
		for _, m := range stated.FindAllStringSubmatch(flat, -1) {
			host := names[m[1]]
			seen[host] = true
			assert.Equal(t, strconv.Itoa(perHost[host]), m[2], "%q", m[0])
		}
		for host := range perHost {
			assert.True(t, seen[host], "the README says how many faults host %s has", host)
		}
		// Every other "N faults" is the tally of a shown run, "N of M
		// faults", checked below.
		spans := stated.FindAllStringIndex(flat, -1)
		for _, at := range regexp.MustCompile(`\b\d+ faults`).FindAllStringIndex(flat, -1) {
			ok := strings.HasSuffix(flat[:at[0]], " of ")
			for _, sp := range spans {
				ok = ok || sp[0] <= at[0] && at[1] <= sp[1]
			}
			assert.True(t, ok, "the README states a count of faults no test checks: %q", flat[max(0, at[0]-30):at[1]])
		}
		list := regexp.MustCompile("The runner has \\d+ faults \\(`runner/…`\\): ([^;]*);").FindStringSubmatch(flat)
		require.NotNil(t, list, "the runner's section lists its faults")
		var listed, want []string
		for _, m := range regexp.MustCompile("`([a-z-]+)`").FindAllStringSubmatch(list[1], -1) {
			listed = append(listed, m[1])
		}
		for _, f := range all.Registry().Faults() {
			if f.Host == "runner" {
				want = append(want, f.Name)
			}
		}
		assert.ElementsMatch(t, want, listed, "the runner's faults, as listed")
	})

	t.Run("the faults example is a real run", func(t *testing.T) {
		block := regexp.MustCompile("(?s)```\n\\$ go run ./cmd/deskcheck faults ([^\n]*)\n(.*?)```").FindStringSubmatch(raw)
		require.NotNil(t, block, "the README shows a run of deskcheck faults")
		dir := filepath.Join(t.TempDir(), "out")
		args := append([]string{"faults", "-out", dir}, strings.Fields(block[1])...)
		for i, a := range args {
			if strings.HasPrefix(a, "cases/") {
				args[i] = "../../" + a
			}
		}
		_, out, errOut := runCLI(t, args...)
		got := strings.Split(strings.TrimRight(out, "\n"), "\n")
		shown := strings.Split(strings.TrimRight(block[2], "\n"), "\n")
		at := 0
		for _, line := range shown {
			if line == "..." {
				continue
			}
			for at < len(got) && got[at] != line {
				at++
			}
			if !assert.Less(t, at, len(got), "the README's line %q is in the output, in order:\n%s%s", line, out, errOut) {
				return
			}
		}
		assert.Equal(t, got[len(got)-1], shown[len(shown)-1], "the tally is the output's last line")
		data, err := os.ReadFile(filepath.Join(dir, "report.json"))
		require.NoError(t, err)
		rep, err := reports.ReadJSON(data)
		require.NoError(t, err)
		assert.True(t, strings.Contains(flat, "`"+reports.Headline(rep)+"`"), "the headline the README quotes is the run's: %s", reports.Headline(rep))
	})

	t.Run("the tally of a focused desk", func(t *testing.T) {
		m := regexp.MustCompile("`(\\d+ of \\d+ addressed faults caught, \\d+ not addressed)` for `(cases/[^`]+)` alone").FindStringSubmatch(flat)
		require.NotNil(t, m, "the README shows the tally of a desk that does not address every fault")
		_, out, _ := runCLI(t, "faults", "-out", filepath.Join(t.TempDir(), "out"), "../../"+m[2])
		lines := strings.Split(strings.TrimSpace(out), "\n")
		assert.Equal(t, m[1], lines[len(lines)-1])
	})

	t.Run("the boundary-response figures", func(t *testing.T) {
		code, out, errOut := runCLI(t, "verify", "-dimensions", "-out", filepath.Join(t.TempDir(), "out"))
		require.Equal(t, 0, code, errOut)
		table := dimensionsText(t, out)
		head := regexp.MustCompile(`\| dimension \| boundary \|([^\n]*)\|\n\|[-|]*\|\n((?:\|[^\n]*\|\n)+)`).FindStringSubmatch(raw)
		require.NotNil(t, head, "the README has the table of the bundled desks' dimensions")
		cols := []string{"boundary"}
		for _, c := range strings.Split(head[1], "|") {
			cols = append(cols, strings.TrimSpace(c))
		}
		rows := 0
		for _, line := range strings.Split(strings.TrimSpace(head[2]), "\n") {
			cells := strings.Split(strings.Trim(line, "|"), "|")
			name := strings.TrimSpace(cells[0])
			for i, c := range cells[1:] {
				desk := cols[i] + "-desk"
				assert.Equal(t, table[desk][name], strings.TrimSpace(c), "README table: %s of %s", name, desk)
			}
			rows++
		}
		assert.Equal(t, 6, rows, "six dimensions")
		for i := range cols {
			_, ok := table[cols[i]+"-desk"]
			assert.True(t, ok, "column %s is a bundled desk", cols[i])
		}
		// The manuals of the families quote their desk's figures.
		for _, s := range []struct{ scenario, desk string }{
			{"gateway", "gateway-desk"},
			{"runner", "runner-desk"},
			{"household", "household-desk"},
		} {
			heading := "\n## Scenario `" + s.scenario + "`"
			man := manualOf(t, s.scenario)
			start := strings.Index(man, heading)
			require.GreaterOrEqual(t, start, 0, heading)
			section := man[start+len(heading):]
			if end := strings.Index(section, "\n## "); end >= 0 {
				section = section[:end]
			}
			section = strings.Join(strings.Fields(section), " ")
			at := regexp.MustCompile(`On the bundled desk:|The bundled desk gives`).FindStringIndex(section)
			require.NotNil(t, at, "%s quotes its desk's figures", s.scenario)
			quote := section[at[1]:]
			for _, f := range []struct{ name, re string }{
				{"denial propagation", `denial propagation (\d+/\d+)`},
				{"allowed work", `allowed work (\d+/\d+)`},
				{"fail closed", `fail closed (\d+/\d+)`},
				{"retry amplification", `amplification (\d\.\d\d \(\d+/\d+\))`},
				{"trace completeness", `completeness (\d+/\d+)`},
				{"extra effects", `extra effects (\d+)`},
			} {
				m := regexp.MustCompile(f.re).FindStringSubmatch(quote)
				if assert.NotNil(t, m, "%s quotes %s", s.scenario, f.name) {
					assert.Equal(t, table[s.desk][f.name], m[1], "%s: %s", s.scenario, f.name)
				}
			}
		}
	})
}

// dimensionsText reads the boundary-response table of verify -dimensions:
// desk → dimension → cell.
func dimensionsText(t *testing.T, out string) map[string]map[string]string {
	t.Helper()
	start := strings.Index(out, "Boundary response\n")
	require.GreaterOrEqual(t, start, 0)
	lines := strings.Split(out[start:], "\n")[1:]
	cols := strings.Fields(lines[0])[1:]
	table := map[string]map[string]string{}
	for _, c := range cols {
		table[c] = map[string]string{}
	}
	cell := regexp.MustCompile(`1\.00 \(\d+/\d+\)|\d+\.\d\d \(\d+/\d+\)|n/a|\d+/\d+|\d+`)
	for _, line := range lines[1:7] {
		cells := cell.FindAllString(line, -1)
		at := cell.FindStringIndex(line)
		require.NotNil(t, at, line)
		name := strings.TrimSpace(line[:at[0]])
		require.Len(t, cells, len(cols), line)
		for i, c := range cols {
			table[c][name] = cells[i]
		}
	}
	return table
}

// TestDocumentationLinksResolve: every relative link of the README, the
// pages under docs/ and the families' manuals names a file that exists,
// and an anchor names a heading of that file.
func TestDocumentationLinksResolve(t *testing.T) {
	paths := documentationPaths(t)
	link := regexp.MustCompile(`\]\(([^)\s]*)\)`)
	fence := regexp.MustCompile("(?s)```.*?```")
	code := regexp.MustCompile("`[^`\n]*`")
	anchors := func(file string) map[string]bool {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		set := map[string]bool{}
		for _, line := range strings.Split(fence.ReplaceAllString(string(data), ""), "\n") {
			if !strings.HasPrefix(line, "#") {
				continue
			}
			var b strings.Builder
			for _, r := range strings.ToLower(strings.TrimSpace(strings.TrimLeft(line, "#"))) {
				switch {
				case r == ' ':
					b.WriteRune('-')
				case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
					b.WriteRune(r)
				}
			}
			set[b.String()] = true
		}
		return set
	}
	checked := 0
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		text := code.ReplaceAllString(fence.ReplaceAllString(string(data), ""), "")
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			dest := p
			if file != "" {
				dest = filepath.Join(filepath.Dir(p), filepath.FromSlash(file))
			}
			_, err := os.Stat(dest)
			if !assert.NoError(t, err, "%s links to %s", p, target) {
				continue
			}
			if anchor != "" {
				assert.True(t, anchors(dest)[anchor], "%s links to %s: no such heading", p, target)
			}
			checked++
		}
	}
	assert.Greater(t, checked, 30, "the documentation's links were found")
}
