package main

import (
	"os"
	"path/filepath"
	"regexp"
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

// TestReadmeCounts holds the runs the README shows to what the commands
// print. The figures of the bundled suite are generated (go test ./host/all
// -update); the tally quoted is also held to verify's own last lines.
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
		want := "`" + tally + "` and `" + last + "`"
		assert.True(t, strings.Contains(flat, want), "the README says verify ends with %s", want)
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

// shownCommand reads the arguments of a run a document shows: "$ deskcheck
// ARGS" or "$ go run ./cmd/deskcheck ARGS", words split on spaces, a
// single-quoted word taken whole.
func shownCommand(line string) ([]string, bool) {
	rest, ok := strings.CutPrefix(line, "$ deskcheck ")
	if !ok {
		if rest, ok = strings.CutPrefix(line, "$ go run ./cmd/deskcheck "); !ok {
			return nil, false
		}
	}
	var args []string
	for rest = strings.TrimSpace(rest); rest != ""; rest = strings.TrimSpace(rest) {
		if quoted, ok := strings.CutPrefix(rest, "'"); ok {
			word, after, _ := strings.Cut(quoted, "'")
			args, rest = append(args, word), after
			continue
		}
		word, after, _ := strings.Cut(rest, " ")
		args, rest = append(args, word), after
	}
	return args, len(args) > 0
}

// TestShownRunsAreReal: every run the README, a page of docs/ or a family's
// manual shows in a code block (the command, then what it prints) prints
// each line shown, in that order; a line holding … or ... stands for what
// the document leaves out.
func TestShownRunsAreReal(t *testing.T) {
	block := regexp.MustCompile("(?s)```\n(.*?)```")
	runs := 0
	for _, p := range documentationPaths(t) {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		for _, m := range block.FindAllStringSubmatch(string(data), -1) {
			lines := strings.Split(strings.TrimSuffix(m[1], "\n"), "\n")
			for i := 0; i < len(lines); i++ {
				args, ok := shownCommand(lines[i])
				if !ok {
					continue
				}
				end := i + 1
				for end < len(lines) && !strings.HasPrefix(lines[end], "$ ") {
					end++
				}
				shown := lines[i+1 : end]
				i = end - 1
				for k, a := range args {
					if strings.HasPrefix(a, "cases/") {
						args[k] = "../../" + a
					}
				}
				if args[0] == "verify" || args[0] == "faults" {
					args = append([]string{args[0], "-out", t.TempDir()}, args[1:]...)
				}
				_, out, errOut := runCLI(t, args...)
				got := strings.Split(out, "\n")
				at := 0
				for _, line := range shown {
					if strings.Contains(line, "…") || strings.Contains(line, "...") {
						continue
					}
					for at < len(got) && got[at] != line {
						at++
					}
					if !assert.Less(t, at, len(got), "%s: deskcheck %s prints %q, in order:\n%s%s", p, strings.Join(args, " "), line, out, errOut) {
						break
					}
				}
				runs++
			}
		}
	}
	assert.Positive(t, runs, "the documents show runs")
}
