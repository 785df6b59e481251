package verifier

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestScanKeepsNothingOfItsInput: Scan reads its input where it lies, so
// what it returns must not share memory with it.
func TestScanKeepsNothingOfItsInput(t *testing.T) {
	data := []byte(`{"cases": [{"id": "a", "weird key\u0000": 1, "weird key\u0000": 2}]}`)
	ds := Scan("desk.json", data, Limits{})
	require.NotEmpty(t, ds)
	before := fmt.Sprintf("%#v", ds)
	for i := range data {
		data[i] = 'x'
	}
	assert.Equal(t, before, fmt.Sprintf("%#v", ds), "the diagnostics do not change with the input")
	assert.Contains(t, ds[0].Summary, "duplicate key")
	assert.Empty(t, Scan("empty.json", nil, Limits{})[0].Pointer)
}
