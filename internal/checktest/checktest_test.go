package checktest

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/scenario"
)

// fails reports whether f fails the test it is given.
func fails(t *testing.T, f func(t testing.TB)) bool { return Fails(t, f) }

func writeDesk(t *testing.T, text string) string {
	path := filepath.Join(t.TempDir(), "desk.json")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o600))
	return path
}

func TestDesk(t *testing.T) {
	path := writeDesk(t, `{"desk": "d", "cases": [
	  {"id": "one", "given": {"b": [1, 2], "a": "x"}, "expected": {"z": 1, "a": "\u00e9", "m": [true]}},
	  {"id": "two", "given": null}
	]}`)
	got := Desk(t, path)
	require.Len(t, got, 2)
	assert.Equal(t, "one", got[0].ID)
	assert.Equal(t, `{"b": [1, 2], "a": "x"}`, string(got[0].Given), "the given block as written")
	assert.Equal(t, []scenario.Field{
		{Key: "z", Raw: json.RawMessage(`1`)},
		{Key: "a", Raw: json.RawMessage(`"\u00e9"`)},
		{Key: "m", Raw: json.RawMessage(`[true]`)},
	}, got[0].Expected, "expected keys in file order, values as written")
	assert.Equal(t, "two", got[1].ID)
	assert.Equal(t, `null`, string(got[1].Given))
	assert.Nil(t, got[1].Expected)
}

func TestDeskRefuses(t *testing.T) {
	tests := []struct {
		name string
		path func(t *testing.T) string
	}{
		{"no such file", func(t *testing.T) string { return filepath.Join(t.TempDir(), "missing.json") }},
		{"not JSON", func(t *testing.T) string { return writeDesk(t, `{"cases": [`) }},
		{"cases not a list", func(t *testing.T) string { return writeDesk(t, `{"cases": {}}`) }},
		{"an expected block that is not an object", func(t *testing.T) string {
			return writeDesk(t, `{"cases": [{"id": "x", "given": {}, "expected": [1]}]}`)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.path(t)
			assert.True(t, fails(t, func(tb testing.TB) { Desk(tb, path) }))
		})
	}
}

func TestFields(t *testing.T) {
	tests := []struct {
		name  string
		block string
		want  []scenario.Field
		fails bool
	}{
		{"none", "", nil, false},
		{"empty", `{}`, nil, false},
		{"in order", ` {"b": 2, "a": {"c": [1]}} `, []scenario.Field{{Key: "b", Raw: json.RawMessage(`2`)}, {Key: "a", Raw: json.RawMessage(`{"c": [1]}`)}}, false},
		{"a repeated key stays twice", `{"a": 1, "a": 2}`, []scenario.Field{{Key: "a", Raw: json.RawMessage(`1`)}, {Key: "a", Raw: json.RawMessage(`2`)}}, false},
		{"an array", `[1]`, nil, true},
		{"not JSON", `{"a": }`, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []scenario.Field
			failed := fails(t, func(tb testing.TB) { got = Fields(tb, tt.block) })
			assert.Equal(t, tt.fails, failed)
			if !tt.fails {
				assert.Equal(t, tt.want, got)
			}
		})
	}
}

// echo is a scenario whose observation shows what it was run with, and
// whose boundary joins the expected keys its plan read with the run's
// evidence.
var echo = scenario.Declare(&scenario.Scenario{
	Name:   "echo",
	Limits: []scenario.Limit{{Name: "steps", Default: 4}, {Name: "calls", Default: 0}},
}, scenario.Kind[string, []string, int]{
	Decode: func(given []byte) (string, error) { return string(given), nil },
	Plan: func(_ string, expected []scenario.Field) scenario.Plan[[]string] {
		keys := make([]string, len(expected))
		for i, f := range expected {
			keys[i] = f.Key
		}
		return scenario.Plan[[]string]{Permitted: len(keys), Script: keys}
	},
	Run: func(_ context.Context, given string, env scenario.Env) (scenario.Observation, int, error) {
		if given == "fail" {
			return scenario.Observation{}, 0, errors.New("cannot run")
		}
		env.Trace.Add("step", "ran %s", given)
		return scenario.Observation{Values: map[string]any{"given": given, "faults": int(env.Faults)}}, len(given), nil
	},
	Boundary: func(keys []string, worked int) *scenario.Boundary {
		return &scenario.Boundary{Actions: len(keys), Permitted: len(keys), Worked: min(worked, len(keys))}
	},
	Suggest: func(string, map[string]any) []string { return nil },
})

func TestDefaultLimits(t *testing.T) {
	tests := []struct {
		name string
		sc   *scenario.Scenario
		want map[string]int
	}{
		{"every limit at its default", echo, map[string]int{"steps": 4, "calls": 0}},
		{"no limits", &scenario.Scenario{Name: "none"}, map[string]int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, DefaultLimits(tt.sc))
		})
	}
}

func TestRun(t *testing.T) {
	obs, tr := Run(t, echo, []byte(`{"a":1}`), 6, Fields(t, `{"x": 1, "b": 2}`))
	assert.Equal(t, map[string]any{
		"given":  `{"a":1}`,
		"faults": 6.0,
	}, obs.Values, "values normalized as the engine normalizes them")
	assert.Equal(t, &scenario.Boundary{Actions: 2, Permitted: 2, Worked: 2}, obs.Boundary, "the plan's script joined with the run's evidence")
	require.Len(t, tr.Events(), 1)
	assert.Equal(t, `ran {"a":1}`, tr.Events()[0].Text)
	assert.True(t, fails(t, func(tb testing.TB) { Run(tb, echo, []byte("fail"), 0, nil) }), "a case that cannot run fails the test")
}

func TestVariants(t *testing.T) {
	edits := []func(string) string{
		func(s string) string { return s + "a" },
		func(s string) string { return s + "b" },
	}
	tests := []struct {
		name   string
		texts  []string
		rounds int
	}{
		{"no texts", nil, 3},
		{"no rounds", []string{"x", "y"}, 0},
		{"rounds of each text", []string{"x", "yy"}, 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Variants(rand.New(rand.NewSource(1)), tt.texts, edits, tt.rounds)
			require.Len(t, got, len(tt.texts)*(1+tt.rounds))
			for i, text := range tt.texts {
				block := got[i*(1+tt.rounds) : (i+1)*(1+tt.rounds)]
				assert.Equal(t, text, block[0], "the text comes first")
				for _, v := range block[1:] {
					assert.True(t, strings.HasPrefix(v, text), v)
					assert.Contains(t, []int{1, 2}, len(v)-len(text), "one or two edits: %q", v)
				}
			}
			again := Variants(rand.New(rand.NewSource(1)), tt.texts, edits, tt.rounds)
			assert.Equal(t, got, again, "the same seed gives the same variants")
		})
	}
}
