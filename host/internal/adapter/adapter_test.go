package adapter

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/deskcheck/deskcheck/internal/fault"
	"github.com/deskcheck/deskcheck/scenario"
)

type testFault uint64

func TestFaults(t *testing.T) {
	tests := []struct {
		name string
		list []fault.Info[testFault]
		want []scenario.Fault
	}{
		{"no faults", nil, []scenario.Fault{}},
		{"one fault", []fault.Info[testFault]{{Fault: 1, Name: "a", Bug: "a bug", Hint: "a hint"}},
			[]scenario.Fault{{Name: "a", Bug: "a bug", Hint: "a hint", ID: 1}}},
		{"the hint's scenarios are the fault's", []fault.Info[testFault]{
			{Fault: 1, Name: "a", Bug: "b", Hint: "scenario wrapper: a case"},
			{Fault: 2, Name: "b", Bug: "b", Hint: "scenario wrapper, fallback: a case"},
			{Fault: 4, Name: "c", Bug: "b", Hint: "scenario of any kind: a case"},
		}, []scenario.Fault{
			{Name: "a", Bug: "b", Hint: "scenario wrapper: a case", ID: 1, Scenarios: []string{"wrapper"}},
			{Name: "b", Bug: "b", Hint: "scenario wrapper, fallback: a case", ID: 2, Scenarios: []string{"wrapper", "fallback"}},
			{Name: "c", Bug: "b", Hint: "scenario of any kind: a case", ID: 4},
		}},
		{"the list's order and bits are kept", []fault.Info[testFault]{
			{Fault: 1 << 1, Name: "b", Bug: "b bug", Hint: "b hint"},
			{Fault: 1 << 0, Name: "a", Bug: "a bug", Hint: "a hint"},
			{Fault: 1 << 63, Name: "z", Bug: "z bug", Hint: "z hint"},
		}, []scenario.Fault{
			{Name: "b", Bug: "b bug", Hint: "b hint", ID: 2},
			{Name: "a", Bug: "a bug", Hint: "a hint", ID: 1},
			{Name: "z", Bug: "z bug", Hint: "z hint", ID: 1 << 63},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Faults(tt.list))
		})
	}
}
