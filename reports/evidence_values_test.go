package reports

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLeanCaseAnyValues: a long value the schema takes whatever it is (a
// mismatch's or change's expected and observed, a suggestion's value) is
// handed to the schema as null, and the schema finds in the case what it
// finds with the value in place — nothing, or the same problems at the
// same places.
func TestLeanCaseAnyValues(t *testing.T) {
	caseSchema := wholeCaseSchema(t)
	c := reportCase(t, "testdata/failing.json", 4) // the fifth case failed
	ms, me, ok := memberSpan(c, "mismatches")
	require.True(t, ok)
	ss, se, ok := memberSpan(c, "suggested")
	require.True(t, ok)
	require.Less(t, me, ss)
	long := "[" + strings.Repeat("0,", traceSplit) + "0]"
	with := func(mismatches, suggested string) []byte {
		return []byte(string(c[:ms]) + mismatches + string(c[me:ss]) + suggested + string(c[se:]))
	}
	for _, tc := range []struct{ name, mismatches, suggested string }{
		{"values", `[{"field":"prompts","comparison":"exact","expected":` + long + `,"observed":` + long + `}]`, `[{"key":"k","value":` + long + `}]`},
		{"changes", `[{"field":"prompts","comparison":"exact","expected":1,"observed":2,"changes":[{"path":"[0]","kind":"changed","expected":` + long + `,"observed":` + long + `}]}]`, `[]`},
		{"a change of no kind", `[{"field":"prompts","comparison":"exact","expected":1,"observed":2,"changes":[{"path":"[0]","kind":"odd","observed":` + long + `}]}]`, `[]`},
		{"a mismatch without its field", `[{"comparison":"exact","expected":` + long + `,"observed":2}]`, `[{"value":` + long + `}]`},
		{"a key escaped", `[{"field":"f","comparison":"exact","e\u0078pected":` + long + `,"observed":2}]`, `[]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			whole := with(tc.mismatches, tc.suggested)
			lean := leanCase(whole)
			if tc.name != "a key escaped" {
				assert.Less(t, len(lean), len(whole)/2, "the long values are left out")
			}
			want, err := caseSchema.Validate(whole)
			require.NoError(t, err)
			got, err := caseSchema.Validate(lean)
			require.NoError(t, err)
			assert.Equal(t, want, got)
		})
	}
}
