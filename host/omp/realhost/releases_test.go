package realhost

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReleases(t *testing.T) {
	_, err := LookupRelease("9.9.9")
	assert.ErrorContains(t, err, "13.19.0, 14.9.9")
	rs := Releases()
	require.Len(t, rs, 12)
	assert.Equal(t, "13.19.0", rs[0].Version)
	assert.Equal(t, "18.3.4", rs[11].Version)
	for _, r := range rs {
		sub := r.Version == "18.2.9" || r.Version == "18.3.4"
		assert.Equal(t, sub, r.Substitute != "", r.Version)
		assert.Equal(t, sub, len(r.Substituted) > 0, r.Version)
	}
}
