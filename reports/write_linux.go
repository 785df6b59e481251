//go:build linux && (amd64 || arm64)

package reports

import (
	"runtime"
	"syscall"
	"unsafe"
)

// sysRenameat2 is renameat2's system call number, which package syscall
// does not name on every architecture.
var sysRenameat2 = map[string]uintptr{"amd64": 316, "arm64": 276}[runtime.GOARCH]

// renameExchange is renameat2's flag that swaps the two paths.
const renameExchange = 2

// exchange swaps a and b with renameat2(RENAME_EXCHANGE): both exist
// before and after, and no reader sees a moment when either is missing.
func exchange(a, b string) error {
	pa, err := syscall.BytePtrFromString(a)
	if err != nil {
		return err
	}
	pb, err := syscall.BytePtrFromString(b)
	if err != nil {
		return err
	}
	atFDCWD := -100 // the working folder: a and b are absolute anyway
	_, _, errno := syscall.Syscall6(sysRenameat2, uintptr(atFDCWD), uintptr(unsafe.Pointer(pa)), uintptr(atFDCWD), uintptr(unsafe.Pointer(pb)), renameExchange, 0)
	switch errno {
	case 0:
		return nil
	case syscall.ENOSYS, syscall.EINVAL, syscall.EOPNOTSUPP:
		// An old kernel, or a file system that cannot exchange.
		return ErrNoExchange
	}
	return errno
}
