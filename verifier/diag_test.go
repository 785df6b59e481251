package verifier

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The errors of cases outside the model become notes; every other
// diagnostic stays as it was, in order.
func TestDiagnosticsOutsideModel(t *testing.T) {
	ds := Diagnostics{
		{Severity: Error, File: "a.json", Summary: "outside", outsideModel: true},
		{Severity: Error, File: "a.json", Summary: "bad"},
		{Severity: Warning, File: "a.json", Summary: "odd", Name: "w"},
	}
	rest, notes := ds.OutsideModel()
	require.Len(t, notes, 1)
	assert.Equal(t, Note, notes[0].Severity)
	assert.Equal(t, "a.json: note: outside", notes[0].String())
	assert.Equal(t, Diagnostics{ds[1], ds[2]}, rest)
	assert.True(t, rest.HasErrors())
	assert.False(t, notes.HasErrors())
	assert.Equal(t, Error, ds[0].Severity, "the list split is not changed")
}
