package gatewaycheck

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/checktest"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// TestSpellingDesk: two approval ids that differ only in a lone surrogate
// (ap\ud800, ap\udc00) never match, whether the approval's "state" key is
// written plainly or as "st\u0061te" (which the fast reader leaves to the
// reference decoder). Both steps are denied, approval_missing.
func TestSpellingDesk(t *testing.T) {
	reg, err := scenario.NewRegistry(Family)
	require.NoError(t, err)
	data, err := os.ReadFile("testdata/spelling-desk.json")
	require.NoError(t, err)
	got := checktest.Judge(t, reg, "spelling-desk.json", data)
	require.Len(t, got, 2)
	for _, id := range []string{"lone-halves-plain-key", "lone-halves-escaped-key"} {
		v := got[id]
		assert.Equal(t, verifier.Pass, v.Status, "%s: %v", id, v.Mismatches)
		assert.Equal(t, []any{"deny"}, v.Observed["decisions"], id)
		assert.Equal(t, []any{"approval_missing"}, v.Observed["reasons"], id)
		assert.Equal(t, 0.0, v.Observed["publicationEffects"], id)
	}
	// The escaped key is what sends the block to the reference decoder.
	escaped := `{"id":"ap\ud800","principal":"synthetic-operator","action":"publish_summary","resource":"mock/review-board","arguments":{"text":"Q2 summary"},"st\u0061te":"approved","expiresAt":"2026-06-01T13:00:00Z"}`
	given := `{"principal":"synthetic-operator","approvals":[` + escaped + `],"steps":[{"request":{},"approvalId":"ap\udc00"}]}`
	_, ok := readGivenFast([]byte(given))
	assert.False(t, ok, "the fast reader takes an escaped key")
	g, err := decodeGiven([]byte(given))
	require.NoError(t, err)
	assert.Equal(t, "ap\xed\xa0\x80", g.Approvals[0].ID)
	assert.Equal(t, "approved", g.Approvals[0].State)
	assert.Equal(t, "ap\xed\xb0\x80", *g.Steps[0].ApprovalID)
}
