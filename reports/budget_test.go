package reports

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/verifier"
)

var annotationFile = regexp.MustCompile(`^::(error|warning|notice) (?:file=([^,:]*))?`)

// annotated counts the workflow commands of out by kind and the files
// each kind names, in order.
func annotated(t *testing.T, out string) (kinds map[string]int, files map[string][]string, lines []string) {
	t.Helper()
	kinds, files = map[string]int{}, map[string][]string{}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		m := annotationFile.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		kinds[m[1]]++
		files[m[1]] = append(files[m[1]], m[2])
		lines = append(lines, line)
	}
	return kinds, files, lines
}

func distinct(list []string) int {
	seen := map[string]bool{}
	for _, s := range list {
		seen[s] = true
	}
	return len(seen)
}

// TestGitHubBudget: 100 files of 50 failures each, with lint warnings in
// every file, give at most 10 errors and 10 warnings, each from 10
// different files, errors first, then one notice saying how many more and
// where they are.
func TestGitHubBudget(t *testing.T) {
	r := scaleReport(t, 100, 60, 50)
	var ds verifier.Diagnostics
	for d := 0; d < 100; d++ {
		for i := 0; i < 3; i++ {
			ds = append(ds, verifier.Diagnostic{Severity: verifier.Warning, File: fmt.Sprintf("desks/generated-%04d.json", d), Line: 2 + i, Col: 3, Summary: "family f has no allowed control"})
		}
	}
	for _, tt := range []struct {
		name         string
		errs, warns  int
		wantE, wantW int
	}{
		{"GitHub's limits", 0, 0, 10, 10},
		{"fewer asked for", 3, 5, 3, 5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := GitHub{Errors: tt.errs, Warnings: tt.warns, Diagnostics: ds}
			require.NoError(t, g.Check())
			var buf bytes.Buffer
			require.NoError(t, g.Write(&buf, r))
			out := buf.String()
			kinds, files, lines := annotated(t, out)
			assert.Equal(t, map[string]int{"error": tt.wantE, "warning": tt.wantW, "notice": 1}, kinds)
			assert.Equal(t, tt.wantE, distinct(files["error"]), "each error from a different file")
			assert.Equal(t, tt.wantW, distinct(files["warning"]), "each warning from a different file")
			for i, line := range lines {
				want := "::error "
				switch {
				case i >= tt.wantE+tt.wantW:
					want = "::notice "
				case i >= tt.wantE:
					want = "::warning "
				}
				assert.True(t, strings.HasPrefix(line, want), "line %d: errors, then warnings, then the notice: %s", i, line[:min(len(line), 40)])
			}
			moreE, moreW := 5000-tt.wantE, 300-tt.wantW
			assert.Contains(t, out, fmt.Sprintf("::notice title=deskcheck%%3A more than GitHub shows::%s more errors and %d more warnings in 100 files not annotated (GitHub shows 10 of each kind per step); every one is in the step summary and report.json in the report folder\n",
				verifier.Thousands(moreE), moreW))
			assert.True(t, strings.HasSuffix(out, "\n"+Headline(r)+"\n"), "the headline closes")
			assert.Less(t, len(out), 64<<10, "a bounded output whatever the suite")
		})
	}
	assert.Error(t, GitHub{Errors: 11}.Check(), "not past GitHub's limit")
	assert.Error(t, GitHub{Warnings: -1}.Check())
}

// TestMarkdownEveryFile: the step summary of 100 files of 50 failures
// names a failure of every file: a block for the first failure of 50
// files, a row for each of the other 50.
func TestMarkdownEveryFile(t *testing.T) {
	r := scaleReport(t, 100, 60, 50)
	md := renderAs(t, "markdown", r)
	assert.Less(t, len(md), 1<<20)
	blocks := regexp.MustCompile(`<summary><b>FAIL</b> (generated-[0-9]{4})/`).FindAllStringSubmatch(md, -1)
	var blockDesks []string
	for _, m := range blocks {
		blockDesks = append(blockDesks, m[1])
	}
	assert.Len(t, blockDesks, MarkdownFailures)
	assert.Equal(t, MarkdownFailures, distinct(blockDesks), "each block from a different file")
	for d := 0; d < 100; d++ {
		desk := fmt.Sprintf("generated-%04d", d)
		if d < MarkdownFailures {
			assert.Contains(t, blockDesks, desk)
			continue
		}
		assert.Regexp(t, fmt.Sprintf(`<tr><td><code>desks/%s\.json(:[0-9]+)?</code></td><td align="right">50</td><td>%s/case-[0-9]{7}</td></tr>`, desk, desk), md, "file %d named by a row", d)
	}
	assert.NotContains(t, md, "could not fit")
	checkMarkdown(t, md, MarkdownFailures, false)
}

// TestMarkdownFilesCapped: with more files than the page can name, the
// page says how many it could not fit and stays under GitHub's limit.
func TestMarkdownFilesCapped(t *testing.T) {
	r := scaleReport(t, 6000, 1, 1)
	md := renderAs(t, "markdown", r)
	assert.Less(t, len(md), 1<<20)
	m := regexp.MustCompile("([0-9,]+) more files with failures could not fit here; `report.json` names them.").FindStringSubmatch(md)
	require.NotNil(t, m, "says how many files did not fit")
	rows := strings.Count(md, "<tr><td><code>desks/")
	assert.Equal(t, "6,000", verifier.Thousands(MarkdownFailures+rows+atoi(t, m[1])), "every file in a block, a row or the count")
}

func atoi(t *testing.T, s string) int {
	var n int
	_, err := fmt.Sscanf(strings.ReplaceAll(s, ",", ""), "%d", &n)
	require.NoError(t, err)
	return n
}
