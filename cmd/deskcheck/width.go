package main

import (
	"io"
	"os"
	"strconv"

	"github.com/deskcheck/deskcheck/reports"
)

// lineWidth is the longest line explain and observe write on w: the
// terminal's width when w is one (COLUMNS when the terminal does not say),
// else reports.DefaultWidth.
func lineWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok {
		return reports.DefaultWidth
	}
	info, err := f.Stat()
	if err != nil || info.Mode()&os.ModeCharDevice == 0 {
		return reports.DefaultWidth
	}
	if n := terminalColumns(f.Fd()); n > 0 {
		return n
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	return reports.DefaultWidth
}
