package verifier

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMutatedDesksNeverPanic changes one value of a given block of the
// repository's desks at a time, mostly for another of the same JSON type
// (a name for another name, a list for an empty one) and sometimes for
// one of another type, and loads and runs each desk so changed: nothing
// may panic, even where the panic is caught and made the case's error. A desk's cases pass the schema however their values are
// changed within it, and so reach each family's own reading of them,
// where a toolName given as an empty list crashed the Gemini loader. The changes come from a fixed seed, so a failure repeats.
func TestMutatedDesksNeverPanic(t *testing.T) {
	var paths []string
	for _, pattern := range []string{"../cases/*.json", "../host/*/*check/testdata/*.json"} {
		p, err := filepath.Glob(pattern)
		require.NoError(t, err)
		paths = append(paths, p...)
	}
	require.NotEmpty(t, paths)
	// Twelve rounds found the crash above; the race detector, which
	// multiplies the cost of each run, gets those.
	rounds := 40
	if testing.Short() || raceEnabled {
		rounds = 12
	}
	rng := rand.New(rand.NewSource(46))
	ran := 0
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		var desk map[string]any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if dec.Decode(&desk) != nil {
			continue
		}
		cases, _ := desk["cases"].([]any)
		for round := 0; round < rounds && len(cases) > 0; round++ {
			doc := mutateOneGiven(desk, rng)
			d, ds := Load(testReg, p, doc, Limits{})
			if d == nil || ds.HasErrors() {
				continue
			}
			for _, r := range runAll(context.Background(), d.Cases, nil, nil) {
				// A panic is caught and made the case's error: still a
				// crash of the family's code.
				require.NotContains(t, r.Err, "panic while", "%s after a change:\n%s", p, doc)
			}
			ran++
		}
	}
	require.Greater(t, ran, 100, "too few changed desks could be run")
}

// mutateOneGiven is desk with one value of one case's given block
// changed, as JSON.
func mutateOneGiven(desk map[string]any, rng *rand.Rand) []byte {
	copyOf := func(v any) any {
		b, _ := json.Marshal(v)
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		var out any
		_ = dec.Decode(&out)
		return out
	}
	d := copyOf(desk).(map[string]any)
	cases := d["cases"].([]any)
	c, ok := cases[rng.Intn(len(cases))].(map[string]any)
	if !ok || c["given"] == nil {
		b, _ := json.Marshal(d)
		return b
	}
	// Every place within the given block, with a way to set it.
	var places []func(any) any
	var walk func(v any, set func(any))
	walk = func(v any, set func(any)) {
		places = append(places, func(nv any) any { old := v; set(nv); return old })
		switch x := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				walk(x[k], func(nv any) { x[k] = nv })
			}
		case []any:
			for i := range x {
				walk(x[i], func(nv any) { x[i] = nv })
			}
		}
	}
	walk(c["given"], func(nv any) { c["given"] = nv })
	place := places[rng.Intn(len(places))]
	old := place(nil)
	place(mutated(old, rng))
	b, _ := json.Marshal(d)
	return b
}

// mutated is a value for v: mostly one of its own JSON type, at the edges
// of what a family reads.
func mutated(v any, rng *rand.Rand) any {
	others := []any{[]any{}, map[string]any{}, "", nil, json.Number("0"), true, []any{""}, []any{[]any{}}}
	if rng.Intn(5) == 0 {
		return others[rng.Intn(len(others))]
	}
	pick := func(xs ...any) any { return xs[rng.Intn(len(xs))] }
	switch x := v.(type) {
	case bool:
		return !x
	case string:
		return pick("", "*", " ", "é", "\u2028", "\U0001F600", "git *", "run_shell_command", `a\b`, "..", "/", "~", "(a+)+$", "^$", "mcp__a__b", "a.b", "\n", ":", string(bytes.Repeat([]byte("x"), 5000)))
	case json.Number:
		return pick(json.Number("0"), json.Number("-1"), json.Number("1e308"), json.Number("0.5"), json.Number("9007199254740993"), json.Number("1"), json.Number("-0"), json.Number("1e-9"))
	case []any:
		switch rng.Intn(4) {
		case 0:
			return []any{}
		case 1:
			return x[:min(1, len(x))]
		case 2:
			return append(append([]any{}, x...), x...)
		}
		out := make([]any, len(x))
		for i := range x {
			out[len(x)-1-i] = x[i]
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = e
		}
		if len(out) > 0 {
			delete(out, slices.Sorted(maps.Keys(out))[rng.Intn(len(out))])
		}
		return out
	}
	return others[rng.Intn(len(others))]
}
