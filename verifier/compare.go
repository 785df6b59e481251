package verifier

import (
	"encoding/json"
	"reflect"
	"strings"
)

// Mismatch is one expected key whose observation differs.
type Mismatch struct {
	Field      string     `json:"field"`
	Comparison Comparison `json:"comparison"`
	Expected   any        `json:"expected"`
	Observed   any        `json:"observed"`
}

// Compare checks every expected field against the observation using the
// scenario's comparison for that key. It is a pure function: an absent
// expected key is not checked; a present one always is, and a key the
// scenario does not observe is a mismatch (lint reports it before any run).
func Compare(expected []Field, obs Observation, sc Scenario) []Mismatch {
	var out []Mismatch
	for _, f := range expected {
		want := f.Value.Value()
		cmp, known := sc.Expected.Comparison(f.Key)
		got, observed := obs.Values[f.Key]
		if !known || !observed {
			out = append(out, Mismatch{Field: f.Key, Comparison: "not observed by scenario " + Comparison(sc.Name), Expected: want, Observed: nil})
			continue
		}
		got = normalize(got)
		if !matches(cmp, want, got) {
			out = append(out, Mismatch{Field: f.Key, Comparison: cmp, Expected: want, Observed: got})
		}
	}
	return out
}

func matches(cmp Comparison, want, got any) bool {
	switch cmp {
	case Substring:
		w, ok1 := want.(string)
		g, ok2 := got.(string)
		return ok1 && ok2 && strings.Contains(g, w)
	case AnySubstring:
		w, ok := want.(string)
		list, _ := got.([]any)
		for _, g := range list {
			if s, isStr := g.(string); ok && isStr && strings.Contains(s, w) {
				return true
			}
		}
		return false
	}
	return reflect.DeepEqual(want, got)
}

// plain decodes raw JSON into plain Go values (maps, slices, float64,
// string, bool, nil).
func plain(raw string) any {
	var v any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		return raw
	}
	return v
}

// normalize turns an observed Go value into the plain JSON form expected
// values take (float64 numbers, []any, map[string]any), so that they
// compare as JSON. Common shapes are converted directly; anything else goes
// through encoding/json.
func normalize(v any) any {
	switch x := v.(type) {
	case nil, bool, string, float64:
		return x
	case int:
		return float64(x)
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return out
	case []any:
		if isPlain(x) {
			return x
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalize(e)
		}
		return out
	case map[string]any:
		if isPlain(x) {
			return x
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = normalize(e)
		}
		return out
	}
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	return plain(string(b))
}

// isPlain tells whether v is already in plain JSON form, so that normalize
// can return it as it is instead of copying it.
func isPlain(v any) bool {
	switch x := v.(type) {
	case nil, bool, string, float64:
		return true
	case []any:
		for _, e := range x {
			if !isPlain(e) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, e := range x {
			if !isPlain(e) {
				return false
			}
		}
		return true
	}
	return false
}
