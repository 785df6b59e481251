package reports

import (
	"os"

	"golang.org/x/sys/unix"
)

// releaseRange gives back the disk and page cache of n bytes of f from
// off, which are never read again. A file system that cannot punch holes
// keeps them: nothing is lost but the saving.
func releaseRange(f *os.File, off, n int64) {
	_ = unix.Fallocate(int(f.Fd()), unix.FALLOC_FL_PUNCH_HOLE|unix.FALLOC_FL_KEEP_SIZE, off, n)
}
