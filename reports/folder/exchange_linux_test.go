//go:build linux

package folder

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

func TestExchangeSwapsTwoFolders(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	for _, d := range []string{a, b} {
		require.NoError(t, os.Mkdir(d, 0o700))
		require.NoError(t, os.WriteFile(filepath.Join(d, "which"), []byte(filepath.Base(d)), 0o600))
	}
	err := exchange(a, b)
	if err == ErrNoExchange {
		// The only outcome besides a swap that Write accepts: it then
		// moves the folders one after the other (tested with faultyFS).
		t.Logf("the file system of %s cannot exchange; the other way is tested through faultyFS", root)
		return
	}
	require.NoError(t, err)
	for d, want := range map[string]string{a: "b", b: "a"} {
		got, err := os.ReadFile(filepath.Join(d, "which"))
		require.NoError(t, err)
		assert.Equal(t, want, string(got), "after the exchange %s holds the other folder", d)
	}
	err = exchange(a, filepath.Join(root, "missing"))
	assert.ErrorIs(t, err, unix.ENOENT, "a missing path is an error of its own, not a system that cannot exchange")
	assert.NotErrorIs(t, err, ErrNoExchange)
}

func TestNoExchange(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want bool
	}{
		{unix.ENOSYS, true},
		{unix.EINVAL, true},
		{unix.EOPNOTSUPP, true},
		{fmt.Errorf("renameat2: %w", unix.EINVAL), true},
		{unix.EXDEV, false},
		{unix.ENOENT, false},
		{unix.EACCES, false},
		{nil, false},
	} {
		assert.Equal(t, tt.want, noExchange(tt.err), "%v", tt.err)
	}
}
