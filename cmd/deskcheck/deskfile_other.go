//go:build !unix || aix

package main

import (
	"io"
	"os"
)

// lockDesk opens the desk file at path; this system has no advisory lock
// deskcheck takes, so only the check of its content guards it.
func lockDesk(path string, waiting io.Writer) (*os.File, error) {
	return os.Open(path)
}

// fileState is what a desk file's metadata says of it: its size, when
// it was last written and its permissions (this system does not say
// which file it is or how many names it has).
type fileState struct {
	dev, ino, links uint64
	size            int64
	mtime           int64
	perm            uint32
}

// stateOf describes the file at path, following links.
func stateOf(path string) (fileState, error) {
	info, err := os.Stat(path)
	if err != nil {
		return fileState{}, err
	}
	return fileState{links: 1, size: info.Size(), mtime: info.ModTime().UnixNano(), perm: uint32(info.Mode().Perm())}, nil
}

// readOnly tells whether the file's mode grants no write permission.
func readOnly(path string, s fileState) bool {
	return s.perm&0o222 == 0
}

// holds tells whether the open file f is the file s describes; this
// system does not say, and the check of the content stands alone.
func holds(f *os.File, s fileState) bool { return true }
