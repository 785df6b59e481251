package folder

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// live holds the temporary paths of this process's writes in progress,
// so that a process that is ending can remove them (Abandon).
var live struct {
	sync.Mutex
	paths     map[string]bool
	abandoned bool
}

// ErrAbandoned says that the process is ending and writes no more.
var ErrAbandoned = errors.New("the process is ending: nothing more is written")

// Track records path as a temporary file or folder of a write in
// progress, removed by Abandon, until the returned function is called.
// It fails once Abandon was called.
func Track(path string) (done func(), err error) {
	live.Lock()
	defer live.Unlock()
	if live.abandoned {
		return nil, ErrAbandoned
	}
	if live.paths == nil {
		live.paths = map[string]bool{}
	}
	live.paths[path] = true
	return func() {
		live.Lock()
		delete(live.paths, path)
		live.Unlock()
	}, nil
}

// whileLive runs f, which puts a write's result in place, unless Abandon
// was called; Abandon waits for it, so that it never removes a temporary
// path halfway through a swap.
func whileLive(f func() error) error {
	live.Lock()
	defer live.Unlock()
	if live.abandoned {
		return ErrAbandoned
	}
	return f()
}

// Abandon removes every tracked temporary path and makes later writes
// fail: a process that a signal ends calls it before it exits. A write
// whose result is being put in place finishes first.
func Abandon() {
	live.Lock()
	defer live.Unlock()
	live.abandoned = true
	for p := range live.paths {
		// A file created into the folder while it is being removed
		// makes one pass fail; a few passes remove what is left.
		for tries := 0; tries < 3 && os.RemoveAll(p) != nil; tries++ {
		}
	}
	live.paths = nil
}

// tempPrefix is how the temporary folder of a report folder named base
// begins: a dot, base, and a tag naming this machine and process, so that
// a later run can tell a folder left by a process that has ended.
func tempPrefix(base string) string {
	return "." + base + ".deskcheck-" + hostTag() + "-" + strconv.Itoa(os.Getpid()) + "-"
}

// hostTag is a short digest of this machine's name: a folder shared
// between machines holds their temporary folders apart.
func hostTag() string {
	name, err := os.Hostname()
	if err != nil {
		name = "unknown"
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return fmt.Sprintf("%08x", h.Sum32())
}

// removeStale removes, from folder parent, the temporary folders of
// report folder base that a process of this machine left when it ended
// without removing them: those whose name carries this machine's tag
// and the id of a process that no longer runs, and that are folders of
// this user. It removes nothing else, and what it cannot remove it
// leaves.
func removeStale(fsys FS, parent, base string) {
	entries, err := fsys.ReadDir(parent)
	if err != nil {
		return
	}
	mine := "." + base + ".deskcheck-" + hostTag() + "-"
	for _, e := range entries {
		name := e.Name()
		rest, ok := strings.CutPrefix(name, mine)
		if !ok || !e.IsDir() {
			continue
		}
		pidText, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || pid == os.Getpid() || !processGone(pid) {
			continue
		}
		path := filepath.Join(parent, name)
		info, err := fsys.Lstat(path)
		if err != nil || !info.IsDir() || info.Mode()&fs.ModeSymlink != 0 || !ownedByMe(info) {
			continue
		}
		fsys.RemoveAll(path)
	}
}
