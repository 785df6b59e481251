package reports

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/jsonx"
	"github.com/deskcheck/deskcheck/verifier"
)

// TestCaseBoundaryAppendJSON holds the per-case dimensions' own writer to
// what encoding/json writes for them (without HTML escapes, as every value
// of report.json): report.json stays the same.
func TestCaseBoundaryAppendJSON(t *testing.T) {
	dim := func(n, d int) verifier.Dimension {
		return verifier.Dimension{Numerator: n, Denominator: d, Applicable: d > 0}
	}
	for _, c := range []CaseBoundary{
		{},
		{Control: "denied", DenialPropagation: dim(1, 2), AllowedWork: dim(0, 0), FailClosed: dim(3, 3),
			RetryAmplification: verifier.Amplification{Dimension: dim(2, 1), Ratio: "2.00"}, TraceCompleteness: dim(4, 4), ExtraEffects: -1},
		{Control: `<"mixed"> & \`, RetryAmplification: verifier.Amplification{Dimension: dim(0, 0), Ratio: "ignored when not applicable"}},
	} {
		want, err := marshal(c, "")
		require.NoError(t, err)
		assert.Equal(t, string(want), string(c.AppendJSON(nil)))
		assert.Equal(t, string(want), string(jsonx.Append(nil, c)))
	}
}
