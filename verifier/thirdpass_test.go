package verifier

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A report folder deskcheck wrote inside a walked folder is skipped with a
// note, never read as case files; a case file called report.json is read.
func TestReadPathsSkipsReportFolders(t *testing.T) {
	root := t.TempDir()
	good, err := os.ReadFile("../cases/boundary-desk.json")
	require.NoError(t, err)
	desks := filepath.Join(root, "desks")
	for _, dir := range []string{"reports/private", "mine"} {
		require.NoError(t, os.MkdirAll(filepath.Join(desks, dir), 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(desks, "a.json"), good, 0o644))
	report := "{\n  \"formatVersion\": 2,\n  \"generatedAt\": \"2026-12-01T00:00:00Z\",\n  \"cases\": []\n}\n"
	require.NoError(t, os.WriteFile(filepath.Join(desks, "reports/private/report.json"), []byte(report), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(desks, "reports/private/other.json"), good, 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(desks, "mine/report.json"), good, 0o644))

	inputs, ds, err := ReadPaths([]string{desks}, Limits{})
	require.NoError(t, err)
	var got []string
	for _, in := range inputs {
		got = append(got, in.Path)
	}
	assert.Equal(t, []string{filepath.Join(desks, "a.json"), filepath.Join(desks, "mine/report.json")}, got)
	assert.Equal(t, []string{filepath.Join(desks, "reports/private") + ": warning: skipped: a deskcheck report folder (its report.json has formatVersion 2), not case files"}, diagStrings(ds))
}

func TestReportFolder(t *testing.T) {
	for _, tt := range []struct {
		reason, text string
		version      string
	}{
		{"a report as written", "{\n  \"formatVersion\": 2,\n", "2"},
		{"compact", `{"formatVersion":12,"verdict":"pass"}`, "12"},
		{"a desk", `{"schemaVersion": 1, "formatVersion": 2}`, ""},
		{"a version that is not a number", `{"formatVersion": "2"}`, ""},
		{"a version cut short at the read", `{"formatVersion": 2`, ""},
		{"not an object", `["formatVersion", 2]`, ""},
	} {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, "report.json"), []byte(tt.text), 0o600))
		v, ok := reportFolder(dir)
		assert.Equal(t, tt.version, v, tt.reason)
		assert.Equal(t, tt.version != "", ok, tt.reason)
	}
	dir := t.TempDir()
	require.NoError(t, os.Symlink("/dev/zero", filepath.Join(dir, "report.json")))
	_, ok := reportFolder(dir)
	assert.False(t, ok, "a link is never opened")
}
