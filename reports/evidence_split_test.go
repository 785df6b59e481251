package reports

import (
	"bytes"
	"encoding/json"
	"os"
	"sort"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/schema"
)

// TestSplitValidationIsWhole: the report without its cases, its long
// parts validated a piece at a time, gives the problems the validator
// gives of it whole, valid or not, wherever the long part lies: long
// diagnostics, lessons, source-only claims and coverage (lists of
// points, a point naming many cases), with bad elements first, in the
// middle, last and inside a long element, and a long member no property
// names.
func TestSplitValidationIsWhole(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, JSON{}.Write(&buf, Build(suiteOf(t, bundledDesks...), fixedOrigin)))
	var base map[string]any
	require.NoError(t, json.Unmarshal(buf.Bytes(), &base))
	base["cases"] = []any{}
	if base["diagnostics"] == nil {
		base["diagnostics"] = []any{map[string]any{"severity": "warning", "file": "cases/a.json", "line": 3, "col": 7, "pointer": "/cases/0/given", "summary": "a warning", "name": "a-warning"}}
	}
	require.NotEmpty(t, base["lessons"])
	require.NotEmpty(t, base["sourceOnly"])
	copyOf := func() map[string]any {
		var d map[string]any
		b, err := json.Marshal(base)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, &d))
		return d
	}
	long := func(list any, n int) []any {
		l := list.([]any)
		out := make([]any, n)
		for i := range out {
			out[i] = l[i%len(l)]
		}
		return out
	}
	point := func(d map[string]any) map[string]any {
		return d["coverage"].(map[string]any)["desks"].([]any)[0].(map[string]any)["list"].([]any)[0].(map[string]any)
	}
	for _, tc := range []struct {
		name   string
		change func(d map[string]any)
	}{
		{"as written", func(map[string]any) {}},
		{"long diagnostics", func(d map[string]any) { d["diagnostics"] = long(d["diagnostics"], 3000) }},
		{"long diagnostics, bad ones", func(d map[string]any) {
			l := long(d["diagnostics"], 3000)
			l[0] = map[string]any{"severity": "warning"}
			l[1500] = map[string]any{"severity": 3, "file": "f", "summary": "s", "extra": true}
			l[2999] = "not an object"
			d["diagnostics"] = l
		}},
		{"long lessons, a bad one", func(d map[string]any) {
			l := long(d["lessons"], 2000)
			l[777] = map[string]any{"desk": 1}
			d["lessons"] = l
		}},
		{"long source-only claims, bad ones", func(d map[string]any) {
			l := long(d["sourceOnly"], 2000)
			l[5] = map[string]any{}
			l[1999] = []any{}
			d["sourceOnly"] = l
		}},
		{"a point naming many cases, some not strings", func(d map[string]any) {
			cases := make([]any, 40000)
			for i := range cases {
				cases[i] = "desk/case-" + strconv.Itoa(i)
			}
			cases[0], cases[20000], cases[39999] = 1, nil, map[string]any{}
			point(d)["cases"] = cases
		}},
		{"many points, a bad one inside a long desk", func(d map[string]any) {
			desk := d["coverage"].(map[string]any)["desks"].([]any)[0].(map[string]any)
			l := long(desk["list"], 3000)
			bad := map[string]any{"point": "p", "scenario": 2, "text": "t", "reached": -1, "cases": "x", "other": 0}
			l[2500] = bad
			desk["list"] = l
			desk["reached"] = "many"
		}},
		{"a long member no property names", func(d map[string]any) {
			d["unknown"] = map[string]any{"list": long(d["diagnostics"], 3000)}
		}},
		{"a long list where a count belongs", func(d map[string]any) {
			desk := d["coverage"].(map[string]any)["desks"].([]any)[0].(map[string]any)
			desk["points"] = long(d["diagnostics"], 3000)
			desk["host"] = map[string]any{"list": long(d["diagnostics"], 3000)}
		}},
		{"long lists inside a part of all of", func(d map[string]any) {
			dims := d["dimensions"].(map[string]any)
			desk := dims["desks"].([]any)[0].(map[string]any)
			desk["failClosed"].(map[string]any)["numerator"] = long(d["diagnostics"], 3000)
			desk["desk"] = long(d["diagnostics"], 3000)
			desk["controls"] = map[string]any{"x": long(d["diagnostics"], 3000)}
			prov := long([]any{map[string]any{"name": "n", "value": "v"}}, 3000)
			prov[1234] = map[string]any{"name": 1}
			desk["provenance"] = prov
			dims["desks"] = long(dims["desks"], 3)
		}},
		{"long lists where an object or a string belongs", func(d map[string]any) {
			d["provenance"].(map[string]any)["files"] = []any{long(d["diagnostics"], 3000)}
			d["provenance"].(map[string]any)["limits"] = map[string]any{"x": long(d["diagnostics"], 3000), "y": "z"}
			d["verdict"] = map[string]any{"x": long(d["diagnostics"], 3000)}
			d["formatVersion"] = long(d["diagnostics"], 3000)
			dims := d["dimensions"].(map[string]any)
			dims["desks"] = append(dims["desks"].([]any), long(d["diagnostics"], 3000))
		}},
		{"a long value where a short one belongs", func(d map[string]any) {
			d["summary"] = map[string]any{"list": long(d["diagnostics"], 3000)}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := copyOf()
			tc.change(d)
			doc, err := json.Marshal(d)
			require.NoError(t, err)
			reportSchemaOnce.Do(func() { reportSchema, reportSchemaErr = schema.Compile(ReportSchema) })
			require.NoError(t, reportSchemaErr)
			want, err := reportSchema.Validate(doc)
			require.NoError(t, err)
			require.Less(t, len(want), evidenceProblemsKept, "within what the check keeps")
			split, err := reportSplitter()
			require.NoError(t, err)
			got, err := split.validate("", "", doc, &problemBudget{})
			require.NoError(t, err)
			ordered := func(ps []schema.Problem) []schema.Problem {
				sort.SliceStable(ps, func(i, j int) bool {
					a, b := ps[i], ps[j]
					if a.Pointer != b.Pointer {
						return a.Pointer < b.Pointer
					}
					if a.Key != b.Key {
						return a.Key < b.Key
					}
					return a.Message < b.Message
				})
				return ps
			}
			assert.Equal(t, ordered(want), ordered(got))
			if tc.name != "as written" {
				assert.Greater(t, len(doc), traceSplit, "long enough to be split")
			}
		})
	}
}

// TestEvidenceCheckStops: a report of empty objects where each should
// hold its keys (a case's trace, its mismatches, a list of diagnostics)
// gives the validator a few problems per two bytes; the check stops after
// evidenceProblemsKept of them and says so, its memory a few megabytes
// whatever the report's length.
func TestEvidenceCheckStops(t *testing.T) {
	data, err := os.ReadFile("testdata/boundary.json")
	require.NoError(t, err)
	empties := func(n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = map[string]any{}
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		change func(doc map[string]any)
	}{
		{"a trace of 100,000 empty events", func(doc map[string]any) { doc["cases"].([]any)[0].(map[string]any)["trace"] = empties(100000) }},
		{"4,000 empty mismatches", func(doc map[string]any) { doc["cases"].([]any)[0].(map[string]any)["mismatches"] = empties(4000) }},
		{"100,000 empty diagnostics", func(doc map[string]any) { doc["diagnostics"] = empties(100000) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var doc map[string]any
			require.NoError(t, json.Unmarshal(data, &doc))
			tc.change(doc)
			big, err := json.Marshal(doc)
			require.NoError(t, err)
			ps, more, err := validateEvidence(big)
			require.NoError(t, err)
			assert.True(t, more, "stopped")
			assert.GreaterOrEqual(t, len(ps), evidenceProblemsKept)
			assert.Less(t, len(ps), evidenceProblemsKept+2*splitBytes, "within a piece or two past the budget: a piece gives at most about one problem a byte")
			err = CheckJSON(big)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "more (the check stops after 1000 problems)")
		})
	}
}
