package gatewaycheck

import (
	"fmt"
	"reflect"
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
		if !reflect.DeepEqual(w[k], g[k]) {
			return false
		}
	}
	return true
}

func (s sequence) Parts(want, got any) []scenario.Part {
	w, ok1 := want.([]any)
	g, ok2 := got.([]any)
	if !ok1 || !ok2 || len(w) != len(g) {
		return []scenario.Part{{Name: "", Expected: want, Observed: got}}
	}
	var parts []scenario.Part
	for k := range w {
		if !reflect.DeepEqual(w[k], g[k]) {
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
	for k := range w {
		we, wok := w[k].(map[string]any)
		ge, gok := g[k].(map[string]any)
		if !wok || !gok {
			if !reflect.DeepEqual(w[k], g[k]) {
				parts = append(parts, scenario.Part{Name: fmt.Sprintf("[%d]", k), Expected: w[k], Observed: g[k]})
			}
			continue
		}
		for _, key := range auditOrder(we) {
			gv, present := ge[key]
			if !present || !reflect.DeepEqual(we[key], gv) {
				parts = append(parts, scenario.Part{Name: fmt.Sprintf("[%d].%s", k, key), Expected: we[key], Observed: gv})
			}
		}
	}
	return parts
}

// auditOrder returns the keys of an expected event in the order the
// gateway writes them, any unknown key last in sorted order.
func auditOrder(event map[string]any) []string {
	keys := make([]string, 0, len(event))
	for _, k := range gateway.AuditKeys() {
		if _, ok := event[k]; ok {
			keys = append(keys, k)
		}
	}
	var unknown []string
	for k := range event {
		if !slices.Contains(gateway.AuditKeys(), k) {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	return append(keys, unknown...)
}
