package verifier

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
