//go:build linux

package folder

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchange swaps a and b with renameat2(RENAME_EXCHANGE): both exist
// before and after, and no reader sees a moment when either is missing.
func exchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if noExchange(err) {
		return ErrNoExchange
	}
	return err
}

// noExchange reports whether err says the system cannot exchange: an old
// kernel (ENOSYS), or a file system that does not support the flag
// (EINVAL, EOPNOTSUPP).
func noExchange(err error) bool {
	return errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.EOPNOTSUPP)
}
