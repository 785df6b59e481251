package reports

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestREADMELimits: the limits docs/reports.md states for annotations, the
// step summary, SARIF and located cases are the ones in force.
func TestREADMELimits(t *testing.T) {
	data, err := os.ReadFile("../docs/reports.md")
	require.NoError(t, err)
	readme := string(data)
	for _, tt := range []struct {
		text string
		ok   bool
	}{
		{"prints at most 10 of each", GitHubLimit == 10},
		{"spreads its 50 failure blocks", MarkdownFailures == 50},
		{"at most 5,000 results are\nwritten", SARIFResults == 5000},
		{"no more once they take\n8 MiB", SARIFBudget == 8<<20},
		{"The first 5,000 failed or errored cases are located", LocatedCases == 5000},
		{"for the first 5,000 failed\n  or errored cases", LocatedCases == 5000},
		{"files walked hold more than 400,000 cases", locateBudget == 400_000},
	} {
		assert.Contains(t, readme, tt.text)
		assert.True(t, tt.ok, "the README says %q: the constant differs", tt.text)
	}
}
