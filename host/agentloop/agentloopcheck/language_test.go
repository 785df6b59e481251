package agentloopcheck

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/deskcheck/deskcheck/scenario"
)

// TestHostReadsItsLanguagesValues: the runner is a Python program, so the engine reads a case's
// expected values as Python reads them.
func TestHostReadsItsLanguagesValues(t *testing.T) {
	assert.Equal(t, scenario.Python, Family.Host.Values)
}
