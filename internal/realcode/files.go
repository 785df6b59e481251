package realcode

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
)

// DirSize adds the sizes of the regular files under dir, not following
// links; what cannot be read counts nothing.
func DirSize(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// WriteAtomic replaces the file at path with data (mode 0644) through a
// temporary file beside it, named .record-*: a reader sees the old file or
// the new one, never a part.
func WriteAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".record-*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// Lock takes an exclusive lock on the file at path (made when missing),
// for installs and removals that must take turns. When another holds it,
// waiting (if not nil) is called once before Lock waits for it. The
// function returned releases the lock.
func Lock(path string, waiting func()) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		if waiting != nil {
			waiting()
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
			f.Close()
			return nil, err
		}
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// Head keeps the first N bytes written to it, from any goroutine, and
// takes the rest without keeping it: a bounded copy of what a process
// wrote on standard error.
type Head struct {
	N  int
	mu sync.Mutex
	b  strings.Builder
}

func (h *Head) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if room := h.N - h.b.Len(); room > 0 {
		if len(p) > room {
			h.b.Write(p[:room])
		} else {
			h.b.Write(p)
		}
	}
	return len(p), nil
}

// String is what was kept.
func (h *Head) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.b.String()
}

// Summarize names the first five paths and counts the rest.
func Summarize(paths []string) string {
	const shown = 5
	if len(paths) <= shown {
		return strings.Join(paths, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(paths[:shown], ", "), len(paths)-shown)
}

// HumanBytes writes n bytes for people: GB with one decimal, MB, or kB.
func HumanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%d MB", n>>20)
	default:
		return fmt.Sprintf("%d kB", n>>10)
	}
}
