package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A release that takes an unknown mode only from a settings file cannot be
// given a "<<" policy key or a lone surrogate: not applicable there, not a
// disagreement, though the model runs both.
func TestInexpressibleIsNotApplicable(t *testing.T) {
	requireFamily(t, hostDefault, "18.3.4")
	code, out, errOut := runCmd(t, nil, "verify", "-host", hostDefault+"@18.3.4", "-out", "none", filepath.Join("testdata", hostDefault+"-inexpressible.json"))
	// Nothing holds, so nothing is shown: exit 1, as for any run without
	// a case that holds.
	require.Equal(t, exitFail, code, "%s\n%s", out, errOut)
	assert.Contains(t, out, "N/A   "+hostDefault+"-inexpressible/merge-key\n      not applicable\n      "+hostDefault+"@18.3.4: this release takes an unknown mode only from a settings file, whose YAML reader takes a \"<<\" key as a merge key")
	assert.Contains(t, out, "N/A   "+hostDefault+"-inexpressible/lone-surrogate-mode\n      not applicable\n      "+hostDefault+"@18.3.4: this release takes an unknown mode only from a settings file, and a settings file cannot hold the lone surrogate")
	assert.Contains(t, out, "(the model runs it; the release cannot be given it)")
	assert.Contains(t, out, hostDefault+"@18.3.4: 2 cases: 0 hold on the real code, 0 do not hold, 0 model and real code disagree, 2 not applicable, 0 could not run")
}

// A case outside the model whose own range leaves the release out is not
// applicable there, as any case would be.
func TestOutsideTheModelOutsideItsRange(t *testing.T) {
	requireFamily(t, hostNewest, "0.61.0")
	code, out, errOut := runCmd(t, nil, "verify", "-host", hostNewest+"@0.61.0", "-out", "none", filepath.Join("testdata", hostNewest+"-outside-range.json"))
	require.Equal(t, exitFail, code, "%s\n%s", out, errOut)
	assert.Contains(t, out, "N/A   "+hostNewest+"-outside-range/shell-if-before-0.61\n      not applicable\n")
	assert.Contains(t, out, hostNewest+"@0.61.0: 1 cases: 0 hold on the real code, 0 do not hold, 0 model and real code disagree, 1 not applicable, 0 could not run")
}
