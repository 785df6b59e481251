//go:build unix

package realcode

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func inode(t *testing.T, p string) uint64 {
	t.Helper()
	fi, err := os.Stat(p)
	require.NoError(t, err)
	return fi.Sys().(*syscall.Stat_t).Ino
}

// TestCopyTree: with link, files are the same inodes and symbolic links
// are made again; without, files are copies with the mode asked for and
// anything but folders and regular files is left out.
func TestCopyTree(t *testing.T) {
	from := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(from, "a", "b"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(from, "a", "b", "f.js"), []byte("x"), 0o644))
	require.NoError(t, os.Symlink("b/f.js", filepath.Join(from, "a", "l.js")))

	linked := filepath.Join(t.TempDir(), "linked")
	require.NoError(t, CopyTree(from, linked, 0o755, 0o644, true))
	assert.Equal(t, inode(t, filepath.Join(from, "a", "b", "f.js")), inode(t, filepath.Join(linked, "a", "b", "f.js")))
	target, err := os.Readlink(filepath.Join(linked, "a", "l.js"))
	require.NoError(t, err)
	assert.Equal(t, "b/f.js", target)

	copied := filepath.Join(t.TempDir(), "copied")
	require.NoError(t, CopyTree(from, copied, 0o700, 0o600, false))
	assert.NotEqual(t, inode(t, filepath.Join(from, "a", "b", "f.js")), inode(t, filepath.Join(copied, "a", "b", "f.js")))
	fi, err := os.Stat(filepath.Join(copied, "a", "b", "f.js"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	fi, err = os.Stat(filepath.Join(copied, "a"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm())
	_, err = os.Lstat(filepath.Join(copied, "a", "l.js"))
	assert.ErrorIs(t, err, os.ErrNotExist)

	assert.Error(t, CopyTree(filepath.Join(from, "missing"), copied, 0o700, 0o600, false), "a missing tree is an error")
}
