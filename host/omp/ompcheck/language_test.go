package ompcheck

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/deskcheck/deskcheck/scenario"
)

// TestHostReadsItsLanguagesValues: the OMP coding agent is a JavaScript program, so the engine reads a case's
// expected values as JavaScript reads them.
func TestHostReadsItsLanguagesValues(t *testing.T) {
	assert.Equal(t, scenario.JavaScript, Family.Host.Values)
}
