package realhost

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/deskcheck/deskcheck/internal/realcode"
)

// filesRecord is the file an install writes with the hash of every file
// it installed; each run checks the install against it.
const filesRecord = "deskcheck-files.json"

// ErrChanged is realcode's: Open's error for an installed release whose
// files are not those recorded at install.
var ErrChanged = realcode.ErrChanged

// record is what filesRecord holds: the SHA-256 of every regular file and
// the target of every link, by path inside the install, and what the file
// system says of each file when it was hashed (its size, modification
// time and inode).
type record struct {
	Files map[string]string   `json:"files"`
	Links map[string]string   `json:"links,omitempty"`
	Stats map[string]fileStat `json:"stats,omitempty"`
	// RecordedAt is when the walk that hashed the files began (ns): a
	// file modified within a second of it is read again every time, since
	// a write in the same tick of the file system's clock would leave its
	// time as recorded.
	RecordedAt int64 `json:"recordedAt,omitempty"`
}

// fileStat is a file's size, modification time (ns) and inode: a write
// through any link changes the time, a file put in its place the inode.
type fileStat [3]int64

func statOf(info fs.FileInfo) fileStat {
	st := fileStat{info.Size(), info.ModTime().UnixNano()}
	if sys, ok := info.Sys().(*syscall.Stat_t); ok {
		st[2] = int64(sys.Ino)
	}
	return st
}

// recordFiles hashes every file of the install in dir (but the record
// itself and the marker written after it).
func recordFiles(dir string) (record, error) {
	rec, _, err := walkFiles(dir, nil)
	return rec, err
}

// walkFiles records the install in dir; a file whose size, time and inode
// are those known records, from longer than a second before known's walk,
// keeps known's hash without being read again. It also counts the files
// it read that a record made now could vouch for next time.
func walkFiles(dir string, known *record) (record, int, error) {
	vouchable := 0
	rec := record{Files: map[string]string{}, Links: map[string]string{}, Stats: map[string]fileStat{}, RecordedAt: time.Now().UnixNano()}
	// The install folder itself may be reached through a link.
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return rec, 0, err
	}
	var paths []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case rel == filesRecord || rel == marker || strings.HasPrefix(rel, ".record-"):
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			rec.Links[rel] = target
		case d.Type().IsRegular():
			info, err := d.Info()
			if err != nil {
				return err
			}
			st := statOf(info)
			rec.Stats[rel] = st
			if known != nil && known.Stats[rel] == st && known.Files[rel] != "" && st[1] < known.RecordedAt-int64(time.Second) {
				rec.Files[rel] = known.Files[rel]
				return nil
			}
			if st[1] < rec.RecordedAt-int64(time.Second) {
				vouchable++
			}
			paths = append(paths, rel)
		}
		return nil
	})
	if err != nil {
		return rec, 0, err
	}
	sums := make([]string, len(paths))
	errs := make([]error, len(paths))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.NumCPU(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				sums[i], errs[i] = hashFile(filepath.Join(dir, paths[i]))
			}
		}()
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, p := range paths {
		if errs[i] != nil {
			return rec, 0, errs[i]
		}
		rec.Files[p] = sums[i]
	}
	return rec, vouchable, nil
}

// hashed counts the files hashed, for the tests.
var hashed atomic.Int64

func hashFile(path string) (string, error) {
	hashed.Add(1)
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// writeRecord records the install's files in dir.
func writeRecord(dir string) error {
	rec, err := recordFiles(dir)
	if err != nil {
		return fmt.Errorf("recording the installed files: %w", err)
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	return realcode.WriteAtomic(filepath.Join(dir, filesRecord), data)
}

// changedFiles compares the install in dir with its record: the paths
// changed, added or missing, sorted; an error when there is no record.
func changedFiles(dir string) ([]string, error) {
	data, err := os.ReadFile(filepath.Join(dir, filesRecord))
	if err != nil {
		return nil, fmt.Errorf("%w: no record of its files (%v); install it again", ErrChanged, err)
	}
	var want record
	if err := json.Unmarshal(data, &want); err != nil {
		return nil, fmt.Errorf("%w: its record of files cannot be read (%v); install it again", ErrChanged, err)
	}
	// A file the file system shows as it was when hashed is not read again.
	have, vouchable, err := walkFiles(dir, &want)
	if err != nil {
		return nil, err
	}
	var changed []string
	for p, sum := range want.Files {
		if have.Files[p] != sum {
			changed = append(changed, p)
		}
	}
	for p := range have.Files {
		if _, ok := want.Files[p]; !ok {
			changed = append(changed, p)
		}
	}
	for p, target := range want.Links {
		if have.Links[p] != target {
			changed = append(changed, p)
		}
	}
	for p := range have.Links {
		if _, ok := want.Links[p]; !ok {
			changed = append(changed, p)
		}
	}
	sort.Strings(changed)
	if len(changed) == 0 && vouchable > 0 {
		// Unchanged files that had to be read (a record from before the
		// sizes and times were kept, a file copied back in place) are
		// recorded as they are now, so the next run need not read them;
		// a cache that cannot be written is only read again.
		if data, err := json.Marshal(have); err == nil {
			_ = realcode.WriteAtomic(filepath.Join(dir, filesRecord), data)
		}
	}
	return changed, nil
}
