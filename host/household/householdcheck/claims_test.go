package householdcheck

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestClaimDiffers(t *testing.T) {
	obs := []any{
		map[string]any{"evidence_id": "ev-1", "output": map[string]any{"value": 10.5, "currency": "INR"}},
		map[string]any{"error": "denied"},
	}
	tests := []struct {
		name   string
		claims []any
		want   string
	}{
		{"a field's value differs", []any{map[string]any{"evidence_id": "ev-1", "value": 10.25, "currency": "INR"}}, "claim 0 field value is 10.25, the output of ev-1 has 10.5"},
		{"a field the output lacks", []any{map[string]any{"evidence_id": "ev-1", "value": 10.5, "currency": "INR", "note": "x"}}, "claim 0 field note is not in the output of ev-1"},
		{"a field of the output left out", []any{map[string]any{"evidence_id": "ev-1", "value": 10.5}}, `claim 0 lacks field currency of the output of ev-1 ("INR")`},
		{"unknown evidence", []any{map[string]any{"evidence_id": "ev-9"}}, `claim 0 names evidence "ev-9", which no recorded ok attempt has`},
		{"no evidence id", []any{map[string]any{"value": 1.0}}, "claim 0 has no evidence_id string"},
		{"not an object", []any{"text"}, "claim 0 is not an object"},
		{"the second claim", []any{map[string]any{"evidence_id": "ev-1", "value": 10.5, "currency": "INR"}, map[string]any{"evidence_id": "ev-1", "value": 10.5, "currency": "USD"}}, `claim 1 field currency is "USD", the output of ev-1 has "INR"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, claimDiffers(tt.claims, obs))
		})
	}
}
