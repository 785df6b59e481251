package verifier

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A report folder deskcheck wrote inside a walked folder is skipped with a
// note, never read as case files; a case file called report.json is read.
func TestReadPathsSkipsReportFolders(t *testing.T) {
	root := t.TempDir()
	good, err := os.ReadFile("../cases/boundary-desk.json")
	require.NoError(t, err)
	desks := filepath.Join(root, "desks")
	for _, dir := range []string{"reports/private", "mine"} {
		require.NoError(t, os.MkdirAll(filepath.Join(desks, dir), 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(desks, "a.json"), good, 0o644))
	report := "{\n  \"formatVersion\": 2,\n  \"generatedAt\": \"2026-12-01T00:00:00Z\",\n  \"cases\": []\n}\n"
	require.NoError(t, os.WriteFile(filepath.Join(desks, "reports/private/report.json"), []byte(report), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(desks, "reports/private/other.json"), good, 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(desks, "mine/report.json"), good, 0o644))

	inputs, ds, err := ReadPaths([]string{desks}, Limits{})
	require.NoError(t, err)
	var got []string
	for _, in := range inputs {
		got = append(got, in.Path)
	}
	assert.Equal(t, []string{filepath.Join(desks, "a.json"), filepath.Join(desks, "mine/report.json")}, got)
	assert.Equal(t, []string{filepath.Join(desks, "reports/private") + ": warning: skipped: a deskcheck report folder (its report.json has formatVersion 2), not case files [skipped]"}, diagStrings(ds))
}

// readsDesk is a desk of n gateway cases, each reading records of
// about recordBytes bytes reads times.
func readsDesk(id string, n, records, reads int) Input {
	recs := make([]string, records)
	for i := range recs {
		recs[i] = fmt.Sprintf(`{"id":"r%05d"}`, i)
	}
	step := `{"request":{"action":"read","resource":"ops/orders","arguments":{}}}`
	var cases []string
	for i := 0; i < n; i++ {
		cases = append(cases, fmt.Sprintf(named(`{"id":"g%d","title":"t","scenario":"{requests}","given":{"principal":"synthetic-analyst","records":{"ops/orders":[%s]},"steps":[%s]},"expected":{"decisions":[],"reasons":[],"draftEffects":0,"publicationEffects":0}}`),
			i, strings.Join(recs, ","), strings.TrimSuffix(strings.Repeat(step+",", reads), ",")))
	}
	return Input{Path: id + ".json", Data: []byte(`{"schemaVersion":1,"id":"` + id + `","title":"t","label":"DO NOT EXECUTE","cases":[` + strings.Join(cases, ",") + `]}`)}
}

// argsDesk is a desk of n wrapper cases whose args hold a string of
// argBytes bytes, called repeat times.
func argsDesk(id string, n, argBytes, repeat int) Input {
	var cases []string
	for i := 0; i < n; i++ {
		cases = append(cases, fmt.Sprintf(named(`{"id":"w%d","title":"t","scenario":"{prompt}","given":{"approval":"exec","mode":"yolo","args":{"a":"%s"},"repeat":%d},"expected":{"outcome":"return","effects":%d}}`),
			i, strings.Repeat("x", argBytes), repeat, repeat))
	}
	return Input{Path: id + ".json", Data: []byte(`{"schemaVersion":1,"id":"` + id + `","title":"t","label":"DO NOT EXECUTE","cases":[` + strings.Join(cases, ",") + `]}`)}
}

// TestCopiesAreBoundedBeforeRunning: what a case copies into its results,
// trace and reports — records times reads, args times calls — is counted
// from the given block per case, per file and per run, before anything
// runs, against limits that name the flag that raises them.
func TestCopiesAreBoundedBeforeRunning(t *testing.T) {
	// 1,000 records of 15 bytes and their commas, plus the brackets.
	const records = 1000*16 - 1 + 2
	tests := []struct {
		reason string
		inputs []Input
		limits Limits
		diag   string // an error diagnostic, or
		err    string // an error of the run
	}{
		{"records times reads, per case", []Input{readsDesk("g", 1, 1000, 300)}, Limits{},
			fmt.Sprintf(named("g.json:1:%d: error: the case copies 4,806,000 bytes of case data (per step, the records a read returns, the deciding principal and the named approval, as written), over the limit of 4,194,304 (raise it with -limit {requests}.copyBytes=N) (/cases/0/given/steps)"), 16195), ""},
		{"args times repeat, per case", []Input{argsDesk("w", 1, 5000, 1000)}, Limits{},
			named("w.json:1:127: error: the case copies 5,063,000 bytes of case data (the given block but its choices, times repeat, and the choices once), over the limit of 4,194,304 (raise it with -limit {prompt}.copyBytes=N) (/cases/0/given)"), ""},
		{"per file", []Input{readsDesk("f", 9, 1000, 250)}, Limits{},
			named("f.json:1:74: error: the cases of this file copy 36,045,000 bytes of case data into their results, trace and reports ({requests}.copyBytes 36,045,000), over the limit of 33,554,432 per run; split the file or raise the limit with -max-copy-bytes N (/cases)"), ""},
		{"per run, over files and families", []Input{readsDesk("a", 5, 1000, 250), argsDesk("b", 4, 4000, 1000)}, Limits{},
			"", named("the selected cases copy 36,277,000 bytes of case data into their results, trace and reports ({requests}.copyBytes 20,025,000, {prompt}.copyBytes 16,252,000), over the limit of 33,554,432 per run; select fewer with -run or raise the limit with -max-copy-bytes N")},
		{"a raised per-case limit still meets the file's", []Input{readsDesk("r", 1, 1000, 300)}, Limits{Scenario: map[string]int{named("{requests}.copyBytes"): 8 << 20}, CopyBytes: 4 << 20},
			named("r.json:1:74: error: the cases of this file copy 4,806,000 bytes of case data into their results, trace and reports ({requests}.copyBytes 4,806,000), over the limit of 4,194,304 per run; split the file or raise the limit with -max-copy-bytes N (/cases)"), ""},
	}
	for _, tt := range tests {
		suite, ds, err := Verify(context.Background(), tt.inputs, Options{Registry: testReg, Limits: tt.limits})
		assert.Nil(t, suite, tt.reason)
		if tt.diag != "" {
			assert.Contains(t, diagStrings(ds), tt.diag, tt.reason)
			continue
		}
		assert.False(t, ds.HasErrors(), "%s: %v", tt.reason, diagStrings(ds))
		assert.EqualError(t, err, tt.err, tt.reason)
	}
	suite, ds, err := Verify(context.Background(), []Input{readsDesk("ok", 1, 1000, 200)}, Options{Registry: testReg})
	require.NoError(t, err, "%v", diagStrings(ds))
	assert.Len(t, suite.Results, 1, "3 MB of reads is within the defaults")
	c := mustLoad(t, readsDesk("one", 1, 1000, 3)).Cases[0]
	principal := len(`"synthetic-analyst"`)
	assert.Equal(t, 3*(records+principal), c.Copies(), "each read copies the records as written, and each step its principal")
	assert.Equal(t, 1, c.Work()-3+1, "copies are not scripted work: the work is the steps")
}
