package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/realhost"
)

// TestReportsArePrivate: -out writes its folder 0700 and its files 0600,
// as deskcheck writes its report folder, and a file already there is
// made private too.
func TestReportsArePrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	require.NoError(t, os.MkdirAll(dir, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "report.txt"), []byte("old"), 0o644))
	_, err := writeReports(context.Background(), dir, nil, reportRun{runs: []*realhost.Run{{}}})
	require.NoError(t, err)
	info, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), info.Mode().Perm())
	for _, name := range []string{"report.txt", "report.json", "report.md", "report.junit.xml", "report.html"} {
		info, err := os.Stat(filepath.Join(dir, name))
		require.NoError(t, err, name)
		assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), name)
	}
	fresh := filepath.Join(t.TempDir(), "a", "b")
	_, err = writeReports(context.Background(), fresh, nil, reportRun{runs: []*realhost.Run{{}}})
	require.NoError(t, err)
	info, err = os.Stat(fresh)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), info.Mode().Perm())
}
