package reports

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPastMembers: each list and object of a case that deskcheck reads as
// such may hold caseMembers members in a report; one more is a problem at
// its place, found without reading the members, and the report is refused
// before it is decoded. Values and given are not counted.
func TestPastMembers(t *testing.T) {
	object := func(n int) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(`"k` + strconv.Itoa(i) + `":0`)
		}
		return b.String() + "}"
	}
	list := func(n int) string { return "[" + strings.Repeat("{},", n-1) + "{}]" }
	for _, key := range caseMembersOf {
		t.Run(key, func(t *testing.T) {
			of := object
			if key == "mismatches" || key == "releases" || key == "sourceRefs" || key == "suggested" {
				of = list
			}
			assert.Nil(t, pastMembers([]byte(`{"id":"c","`+key+`":`+of(caseMembers)+`}`)), "at the limit")
			ps := pastMembers([]byte(`{"id":"c","` + key + `":` + of(caseMembers+1) + `}`))
			require.Len(t, ps, 1, "one past it")
			assert.Equal(t, "/"+key, ps[0].Pointer)
			assert.Equal(t, "holds more than 4,096 members, the most a case's "+key+" holds in a report", ps[0].Message)
		})
	}
	assert.Nil(t, pastMembers([]byte(`{"given":`+object(caseMembers+1)+`,"observed":{"v":`+object(caseMembers+1)+`}}`)), "given and values are not counted")

	// A saved report whose case observes too many keys is refused, where.
	data, err := os.ReadFile("testdata/boundary.json")
	require.NoError(t, err)
	var doc map[string]any
	require.NoError(t, json.Unmarshal(data, &doc))
	obs := doc["cases"].([]any)[1].(map[string]any)["observed"].(map[string]any)
	for i := range caseMembers + 1 {
		obs["x"+strconv.Itoa(i)] = 0
	}
	big, err := json.Marshal(doc)
	require.NoError(t, err)
	_, err = ReadJSONLean(big, false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "/cases/1/observed: holds more than 4,096 members")
	_, err = ReadForDiff(big)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "/cases/1/observed: holds more than 4,096 members")
}

// TestPastPointCases: a coverage line lists at most caseMembers points
// and a point at most CoverageCases cases; a report past either is
// refused where, before its coverage is read, by render and diff alike.
func TestPastPointCases(t *testing.T) {
	data, err := os.ReadFile("testdata/boundary.json")
	require.NoError(t, err)
	with := func(change func(desk map[string]any)) []byte {
		var doc map[string]any
		require.NoError(t, json.Unmarshal(data, &doc))
		change(doc["coverage"].(map[string]any)["desks"].([]any)[0].(map[string]any))
		b, err := json.Marshal(doc)
		require.NoError(t, err)
		return b
	}
	names := func(n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = "d/c" + strconv.Itoa(i)
		}
		return out
	}
	points := func(n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = map[string]any{"point": "p" + strconv.Itoa(i), "scenario": "s", "text": "t", "reached": 0, "cases": []any{}}
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		change func(desk map[string]any)
		want   string // "" for no problem of this kind
	}{
		{"ten cases", func(d map[string]any) { d["list"].([]any)[1].(map[string]any)["cases"] = names(CoverageCases) }, ""},
		{"eleven cases", func(d map[string]any) { d["list"].([]any)[1].(map[string]any)["cases"] = names(CoverageCases + 1) },
			"/coverage/desks/0/list/1/cases: lists more than 10 cases, the most a point lists in a report"},
		{"4,096 points", func(d map[string]any) { d["list"] = points(caseMembers) }, ""},
		{"4,097 points", func(d map[string]any) { d["list"] = points(caseMembers + 1) },
			"/coverage/desks/0/list: lists more than 4,096 points, the most a coverage line lists in a report"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := with(tc.change)
			ps := pastPointCases(b)
			if tc.want == "" {
				assert.Nil(t, ps)
				return
			}
			require.Len(t, ps, 1)
			assert.Equal(t, tc.want, ps[0].Pointer+": "+ps[0].Message)
			_, err := ReadJSONLean(b, false)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			_, err = ReadForDiff(b)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
