package ompcheck

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The two mode-cap mutants the boundary desk lets through, and the swap of
// decision row 3, are among the generated mutants.
func TestModeCapMutantsAreGenerated(t *testing.T) {
	var names []string
	for _, m := range Family.Mutants {
		names = append(names, m.Name)
	}
	assert.Contains(t, names, "cap/write/raise")
	assert.Contains(t, names, "cap/always-ask/raise")
	assert.Contains(t, names, "row/3/swap")
}
