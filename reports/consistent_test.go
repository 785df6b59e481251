package reports

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadJSONRefusesContradictions: a report that contradicts itself is
// refused, saying where.
func TestReadJSONRefusesContradictions(t *testing.T) {
	data, err := os.ReadFile("testdata/releases.json")
	require.NoError(t, err)
	_, err = ReadJSON(data)
	require.NoError(t, err, "the golden report is consistent")
	edit := func(t *testing.T, f func(cases []any, doc map[string]any)) []byte {
		var doc map[string]any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		require.NoError(t, dec.Decode(&doc))
		f(doc["cases"].([]any), doc)
		out, err := json.Marshal(doc)
		require.NoError(t, err)
		return out
	}
	caseAt := func(cases []any, i int) map[string]any { return cases[i].(map[string]any) }
	// index of the first case of a status, after from.
	find := func(cases []any, status string, from int) int {
		for i := from; i < len(cases); i++ {
			if caseAt(cases, i)["status"] == status {
				return i
			}
		}
		t.Fatalf("no %s case after %d", status, from)
		return -1
	}
	for _, tc := range []struct {
		name string
		edit func(cases []any, doc map[string]any)
		want string
	}{
		{"a case listed twice, with the other verdict counted", func(cases []any, _ map[string]any) {
			i := find(cases, "fail", 0)
			j := find(cases, "fail", i+1)
			cases[j] = cases[i]
		}, "case releases-desk/no-gate-runs-every-call is listed twice (first at /cases/"},
		{"a pass with mismatches", func(cases []any, doc map[string]any) {
			i := find(cases, "pass", 0)
			j := find(cases, "fail", 0)
			caseAt(cases, i)["mismatches"] = caseAt(cases, j)["mismatches"]
		}, "passed, yet lists "},
		{"a failure without mismatches", func(cases []any, _ map[string]any) {
			caseAt(cases, find(cases, "fail", 0))["mismatches"] = []any{}
		}, "failed, yet lists no mismatch"},
		{"a status its releases contradict", func(cases []any, doc map[string]any) {
			i := find(cases, "fail", 0)
			c := caseAt(cases, i)
			for _, v := range c["releases"].([]any) {
				v.(map[string]any)["status"] = "pass"
			}
		}, "but its releases' verdicts make it pass"},
		{"a verdict the counts contradict", func(_ []any, doc map[string]any) {
			doc["verdict"] = "pass"
		}, `the verdict is "pass"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadJSON(edit(t, tc.edit))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Contains(t, err.Error(), "not deskcheck evidence")
		})
	}
}

// TestReadForDiff: the lean read of a report compares as the full one,
// and refuses what ReadJSON refuses.
func TestReadForDiff(t *testing.T) {
	names := []string{boundaryName, "failing", "pinned", "releases", "strength"}
	read := func(name string, f func([]byte) (*Report, error)) *Report {
		data, err := os.ReadFile("testdata/" + name + ".json")
		require.NoError(t, err)
		r, err := f(data)
		require.NoError(t, err, name)
		return r
	}
	for _, a := range names {
		for _, b := range names {
			full := Compare(read(a, ReadJSON), read(b, ReadJSON), a, b)
			lean := Compare(read(a, ReadForDiff), read(b, ReadForDiff), a, b)
			assert.Equal(t, full, lean, "%s → %s", a, b)
		}
	}
	data, err := os.ReadFile("testdata/releases.json")
	require.NoError(t, err)
	var doc map[string]any
	require.NoError(t, json.Unmarshal(data, &doc))
	cases := doc["cases"].([]any)
	for _, c := range cases {
		if c.(map[string]any)["status"] == "fail" {
			c.(map[string]any)["mismatches"] = []any{}
			break
		}
	}
	bad, err := json.Marshal(doc)
	require.NoError(t, err)
	_, err = ReadForDiff(bad)
	assert.ErrorContains(t, err, "failed, yet lists no mismatch")
}
