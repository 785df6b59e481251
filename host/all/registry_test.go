package all

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/scenario"
)

// TestRegistryIsBuiltOnce: every call returns the one registry, and it is
// the registry the families build.
func TestRegistryIsBuiltOnce(t *testing.T) {
	r := Registry()
	assert.Same(t, r, Registry())
	fresh, err := scenario.NewRegistry(Families...)
	require.NoError(t, err)
	assert.Equal(t, fresh.CaseSchema(), r.CaseSchema())
	assert.Equal(t, fresh.Names(), r.Names())
	assert.Equal(t, fresh.FaultNames(), r.FaultNames())
}
