//go:build unix && !aix

package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// lockDesk opens the desk file at path and takes an exclusive lock on it,
// the lock every observe -w run takes before it replaces the file. A run
// that waited while another replaced the file finds, once it holds the
// lock, that the path names a new file: it locks that one instead, and
// its caller then finds the content changed. waiting is told when another
// run holds the lock.
func lockDesk(path string, waiting io.Writer) (*os.File, error) {
	for tries := 0; tries < 8; tries++ {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		fd := int(f.Fd())
		err = unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB)
		if errors.Is(err, unix.EWOULDBLOCK) {
			fmt.Fprintf(waiting, "deskcheck: waiting for another run that is rewriting %s\n", path)
			err = unix.Flock(fd, unix.LOCK_EX)
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("cannot lock %s: %w", path, err)
		}
		held, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, err
		}
		now, err := os.Stat(path)
		if err != nil {
			f.Close()
			return nil, err
		}
		if os.SameFile(held, now) {
			return f, nil // closing it releases the lock
		}
		f.Close()
	}
	return nil, errChanged
}

// fileState is what a desk file's metadata says of it: which file it is,
// how many names it has, and when it was last written.
type fileState struct {
	dev, ino, links uint64
	size            int64
	mtime, ctime    unix.Timespec
	perm            uint32
}

// stateOf describes the file at path, following links.
func stateOf(path string) (fileState, error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return fileState{}, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	return fileState{dev: uint64(st.Dev), ino: uint64(st.Ino), links: uint64(st.Nlink), size: st.Size,
		mtime: st.Mtim, ctime: st.Ctim, perm: uint32(st.Mode) & 0o777}, nil
}

// readOnly tells whether the file at path is read-only: no write
// permission in its mode, or none for this user.
func readOnly(path string, s fileState) bool {
	return s.perm&0o222 == 0 || unix.Access(path, unix.W_OK) != nil
}

// holds tells whether the open file f is the file s describes.
func holds(f *os.File, s fileState) bool {
	var st unix.Stat_t
	return unix.Fstat(int(f.Fd()), &st) == nil && uint64(st.Dev) == s.dev && uint64(st.Ino) == s.ino
}
