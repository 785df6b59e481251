package realcode

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDirSize counts the regular files under a folder, not what a link
// points to; a missing folder is empty.
func TestDirSize(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a", "one"), make([]byte, 100), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a", "b", "two"), make([]byte, 23), 0o644))
	outside := filepath.Join(t.TempDir(), "big")
	require.NoError(t, os.WriteFile(outside, make([]byte, 1000), 0o644))
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "link")))
	assert.Equal(t, int64(123), DirSize(dir))
	assert.Zero(t, DirSize(filepath.Join(dir, "missing")))
}

// TestWriteAtomic replaces a file whole and leaves no temporary file; a
// folder that does not exist is an error.
func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "record.json")
	require.NoError(t, os.WriteFile(p, []byte("old"), 0o600))
	require.NoError(t, WriteAtomic(p, []byte("new")))
	data, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "new", string(data))
	info, err := os.Stat(p)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), info.Mode().Perm())
	left, _ := filepath.Glob(filepath.Join(dir, ".record-*"))
	assert.Empty(t, left)
	assert.Error(t, WriteAtomic(filepath.Join(dir, "no", "such"), []byte("x")))
}

// TestLockTakesTurns: a second taker waits, says so once, and gets the
// lock when the first lets it go.
func TestLockTakesTurns(t *testing.T) {
	p := filepath.Join(t.TempDir(), ".lock")
	unlock, err := Lock(p, func() { t.Error("the first taker does not wait") })
	require.NoError(t, err)
	waited := make(chan struct{})
	got := make(chan func())
	go func() {
		u, err := Lock(p, func() { close(waited) })
		if err != nil {
			t.Error(err)
		}
		got <- u
	}()
	<-waited
	unlock()
	(<-got)()
	_, err = Lock(filepath.Join(t.TempDir(), "no", "such"), nil)
	assert.Error(t, err)
}

// TestHeadKeepsTheFirstBytes: writes past the bound are taken and not
// kept.
func TestHeadKeepsTheFirstBytes(t *testing.T) {
	h := &Head{N: 5}
	n, err := h.Write([]byte("abc"))
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	n, err = h.Write([]byte("defgh"))
	require.NoError(t, err)
	assert.Equal(t, 5, n)
	assert.Equal(t, "abcde", h.String())
}

func TestSummarize(t *testing.T) {
	assert.Equal(t, "a, b", Summarize([]string{"a", "b"}))
	var many []string
	for i := range 8 {
		many = append(many, fmt.Sprint(i))
	}
	assert.Equal(t, "0, 1, 2, 3, 4 and 3 more", Summarize(many))
	assert.Empty(t, Summarize(nil))
}

// TestBadSource keeps the message and is matched as ErrSource.
func TestBadSource(t *testing.T) {
	err := fmt.Errorf("open: %w", BadSource(errors.New("not a checkout")))
	assert.ErrorIs(t, err, ErrSource)
	assert.Equal(t, "open: not a checkout", err.Error())
	assert.False(t, strings.Contains(err.Error(), ErrSource.Error()))
	assert.NotErrorIs(t, errors.New("x"), ErrSource)
}
