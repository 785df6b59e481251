package gatewaycheck

import (
	"fmt"
	"slices"
	"sort"

	"github.com/deskcheck/deskcheck/host/gateway"
	"github.com/deskcheck/deskcheck/scenario"
)

// The comparers the built-ins lack.
var (
	// Sequence compares two arrays element by element: same length, and
	// element k equal to element k. A mismatch is named by its index
	// ("decisions[3]"); a length difference is one mismatch of the whole
	// sequence.
	Sequence scenario.Comparer = sequence{}
	// AuditSubsets compares audit logs as a sequence of subsets: same
	// length, and every key of expected event k JSON-equal to that key of
	// observed event k; keys an expected event leaves out are not checked.
	// A mismatch is named by event and key ("audit[2].effectCount"); a
	// length difference is one mismatch, "audit.length".
	AuditSubsets scenario.Comparer = auditSubsets{}
)

type sequence struct{}

func (sequence) Name() string { return "exact sequence" }

func (sequence) Match(want, got any) bool {
	w, ok1 := want.([]any)
	g, ok2 := got.([]any)
	if !ok1 || !ok2 || len(w) != len(g) {
		return false
	}
	for k := range w {
		if !equal(w[k], g[k]) {
			return false
		}
	}
	return true
}

// equal is scenario.Equal, the comparison of the host's values (an exact
// integer equals a number of the same value), with the common case of two
// strings (the entries of decisions and reasons, most audit values)
// compared directly.
func equal(a, b any) bool {
	if x, ok := a.(string); ok {
		if y, ok := b.(string); ok {
			return x == y
		}
	}
	return scenario.Equal(a, b)
}

func (s sequence) Parts(want, got any) []scenario.Part {
	w, ok1 := want.([]any)
	g, ok2 := got.([]any)
	if !ok1 || !ok2 || len(w) != len(g) {
		return []scenario.Part{{Name: "", Expected: want, Observed: got}}
	}
	var parts []scenario.Part
	for k := range w {
		if !equal(w[k], g[k]) {
			parts = append(parts, scenario.Part{Name: fmt.Sprintf("[%d]", k), Expected: w[k], Observed: g[k]})
		}
	}
	if len(parts) == 0 && !s.Match(want, got) {
		parts = append(parts, scenario.Part{Name: "", Expected: want, Observed: got})
	}
	return parts
}

type auditSubsets struct{}

func (auditSubsets) Name() string { return "sequence of subsets" }

func (a auditSubsets) Match(want, got any) bool { return len(a.Parts(want, got)) == 0 }

func (auditSubsets) Parts(want, got any) []scenario.Part {
	w, ok1 := want.([]any)
	g, ok2 := got.([]any)
	if !ok1 || !ok2 {
		return []scenario.Part{{Name: "", Expected: want, Observed: got}}
	}
	if len(w) != len(g) {
		return []scenario.Part{{Name: ".length", Expected: len(w), Observed: len(g)}}
	}
	var parts []scenario.Part
	// The key order and the list of one event's keys are made once per
	// comparison, not once per event.
	known := gateway.AuditKeys()
	var keys []string
	for k := range w {
		we, wok := w[k].(map[string]any)
		ge, gok := g[k].(map[string]any)
		if !wok || !gok {
			if !equal(w[k], g[k]) {
				parts = append(parts, scenario.Part{Name: fmt.Sprintf("[%d]", k), Expected: w[k], Observed: g[k]})
			}
			continue
		}
		keys = auditOrder(keys[:0], known, we)
		for _, key := range keys {
			gv, present := ge[key]
			if !present || !equal(we[key], gv) {
				parts = append(parts, scenario.Part{Name: fmt.Sprintf("[%d].%s", k, key), Expected: we[key], Observed: gv})
			}
		}
	}
	return parts
}

// auditOrder appends to dst the keys of an expected event in the order the
// gateway writes them (known, gateway.AuditKeys), any unknown key last in
// sorted order.
func auditOrder(dst, known []string, event map[string]any) []string {
	for _, k := range known {
		if _, ok := event[k]; ok {
			dst = append(dst, k)
		}
	}
	if len(dst) == len(event) {
		return dst // every key is known
	}
	start := len(dst)
	for k := range event {
		if !slices.Contains(known, k) {
			dst = append(dst, k)
		}
	}
	sort.Strings(dst[start:])
	return dst
}
