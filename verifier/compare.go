package verifier

import (
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/scenario"
)

// maxChanges bounds the structural differences listed for one mismatch.
const maxChanges = 20

// Mismatch is one expected key whose observation differs.
type Mismatch struct {
	Field string `json:"field"`
	// Comparison names the comparer, or says why the key was not
	// compared.
	Comparison string `json:"comparison"`
	Expected   any    `json:"expected"`
	Observed   any    `json:"observed"`
	// Changes lists, for arrays and objects, what differs at which index
	// or key.
	Changes []scenario.Change `json:"changes,omitempty"`
}

// Compare checks every expected field against the observed values using
// the scenario's comparer for that key. It is a pure function: an absent
// expected key is not checked; a present one always is, and a key the
// scenario does not observe is a mismatch (lint reports it before any run).
// Observed values must be normalized.
func Compare(expected []Field, observed map[string]any, sc *scenario.Scenario) []Mismatch {
	return CompareIn(scenario.JavaScript, expected, observed, sc)
}

// CompareIn is Compare in the domain of the case's host: values compare as
// its language compares them where the domains differ (a JavaScript
// substring may be half of a surrogate pair, a Python one never).
func CompareIn(values scenario.Values, expected []Field, observed map[string]any, sc *scenario.Scenario) []Mismatch {
	return compareIn(values, expected, observed, sc, true)
}

// compareIn is CompareIn; without details a mismatched key is one
// mismatch with no parts and no list of changes, which is all a verdict
// needs (the runs under a fault or a mutant, which nothing reports key by
// key).
func compareIn(values scenario.Values, expected []Field, observed map[string]any, sc *scenario.Scenario, details bool) []Mismatch {
	var out []Mismatch
	for _, f := range expected {
		want := f.Want
		if want == nil && f.Value.Type != gjson.Null {
			want = f.Value.Value() // a field built without its host's reading
		}
		cmp, known := sc.Expected.Comparer(f.Key)
		got, isObserved := observed[f.Key]
		if !known || !isObserved {
			out = append(out, Mismatch{Field: f.Key, Comparison: "not observed by scenario " + sc.Name, Expected: want, Observed: nil})
			continue
		}
		if values.Match(cmp, want, got) {
			continue
		}
		if !details {
			out = append(out, Mismatch{Field: f.Key, Comparison: cmp.Name(), Expected: want, Observed: got})
			continue
		}
		if p, ok := cmp.(scenario.Parter); ok {
			for _, part := range p.Parts(want, got) {
				out = append(out, Mismatch{Field: f.Key + part.Name, Comparison: cmp.Name(), Expected: part.Expected, Observed: part.Observed})
			}
			continue
		}
		out = append(out, Mismatch{Field: f.Key, Comparison: cmp.Name(), Expected: want, Observed: got, Changes: diffIn(values, want, got)})
	}
	return out
}

// diffIn is scenario.Diff with every scalar compared as the host's
// language compares it (scenario.JSONEqual in the domain): a Python
// integer 1 and the double 1 are the same value, not a change.
func diffIn(values scenario.Values, want, got any) []scenario.Change {
	return scenario.Diff(want, got, maxChanges, func(a, b any) bool { return values.Match(scenario.JSONEqual, a, b) })
}
