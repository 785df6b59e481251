package reports

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The report folder holds one file for each format that has a file name,
// each what that format's reporter writes.
func TestFolderFiles(t *testing.T) {
	r := stableReport(t, "../cases/boundary-desk.json")
	var names []string
	for _, f := range FolderFiles(r) {
		names = append(names, f.Name)
		format, err := Lookup(map[string]string{"report.json": "json", "report.html": "html", "report.md": "markdown", "report.junit.xml": "junit"}[f.Name], Text{})
		require.NoError(t, err, f.Name)
		var got, want bytes.Buffer
		require.NoError(t, f.Render(&got))
		require.NoError(t, format.Reporter.Write(&want, r))
		assert.Equal(t, want.String(), got.String(), f.Name)
	}
	assert.ElementsMatch(t, []string{"report.html", "report.json", "report.junit.xml", "report.md"}, names)
}
