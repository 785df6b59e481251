package main

import (
	"syscall"
	"unsafe"
)

// terminalColumns asks the terminal on fd for its width; 0 when fd is not
// a terminal.
func terminalColumns(fd uintptr) int {
	var ws struct{ row, col, x, y uint16 }
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCGWINSZ, uintptr(unsafe.Pointer(&ws))); errno != 0 {
		return 0
	}
	return int(ws.col)
}
