package omp

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestToolEraOfIsToolEraFor: the parsed form gives the era the text gives,
// for every modelled release and for versions around each boundary.
func TestToolEraOfIsToolEraFor(t *testing.T) {
	versions := append([]Version{}, Releases()...)
	for _, maj := range []int{0, 16, 17, 18, 19} {
		for _, min := range []int{0, 2, 3, 4} {
			versions = append(versions, Version{Major: maj, Minor: min, Patch: 1})
		}
	}
	for _, v := range versions {
		assert.Equal(t, ToolEraFor(v.String()), ToolEraOf(v), v.String())
	}
}

// TestCriticalFamiliesIsACopy: a caller changing the returned slice does
// not change the families every evaluation shares.
func TestCriticalFamiliesIsACopy(t *testing.T) {
	got := CriticalFamilies(Bash18)
	got[0] = CriticalFamily{Name: "changed"}
	assert.Equal(t, "rm-recursive-absolute", CriticalFamilies(Bash18)[0].Name)
	assert.Nil(t, CriticalFamilies(BashNone))
}
