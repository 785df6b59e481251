package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/omp"
	ompreal "github.com/deskcheck/deskcheck/host/omp/realhost"
)

// What the harness finds absent from 18.3.4's substituted dependencies;
// TestSubstitutedReleasesAgree holds the harness's hello to it.
const (
	absentModules = 15
	absentExports = 24
)

// thousands writes n as the README does: 3,600.
func thousands(n int) string {
	s := fmt.Sprint(n)
	if len(s) <= 3 {
		return s
	}
	return s[:len(s)-3] + "," + s[len(s)-3:]
}

// TestReadmeFigures holds the figures the READMEs state about the
// differential to the code.
func TestReadmeFigures(t *testing.T) {
	main, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "real-host.md"))
	require.NoError(t, err)
	here, err := os.ReadFile("README.md")
	require.NoError(t, err)
	for name, text := range map[string]string{"docs/real-host.md": string(main), "host/omp/conformance/README.md": string(here)} {
		assert.Contains(t, text, thousands(generatedCases)+" ", name)
		assert.Contains(t, text, thousands(minPerGroup), name)
		assert.Contains(t, text, fmt.Sprintf("%d more at the edges", edgeCases), name)
	}
	assert.Contains(t, string(here), fmt.Sprintf("%d faults", len(omp.FaultList)))
	assert.Contains(t, strings.Join(strings.Fields(string(main)), " "), fmt.Sprintf("(all %d of them) makes the differential fail", len(omp.FaultList)))
	assert.Contains(t, string(main), fmt.Sprintf("the %d modules and %d named exports 18.3.4", absentModules, absentExports))
	assert.Contains(t, string(here), "all twelve releases")
	assert.Len(t, ompreal.Releases(), 12)
	for g, v := range representatives {
		assert.Contains(t, string(main), fmt.Sprintf("%s %s", g, v))
		assert.Contains(t, string(here), fmt.Sprintf("%s %s", g, v))
	}
	assert.True(t, strings.Contains(string(main), "**18.2.9 and\n18.3.4 are run on substituted dependencies**"), "docs/real-host.md says 18.2.9 and 18.3.4 are run substituted")
}
