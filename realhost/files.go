package realhost

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
)

// filesRecord is the file an install writes with the hash of every file
// it installed; each run checks the install against it.
const filesRecord = "deskcheck-files.json"

// ErrChanged is wrapped by Start's error for an installed release whose
// files are not those recorded at install.
var ErrChanged = errors.New("the installed release's files changed since it was installed")

// record is what filesRecord holds: the SHA-256 of every regular file and
// the target of every link, by path inside the install.
type record struct {
	Files map[string]string `json:"files"`
	Links map[string]string `json:"links,omitempty"`
}

// recordFiles hashes every file of the install in dir (but the record
// itself and the marker written after it).
func recordFiles(dir string) (record, error) {
	rec := record{Files: map[string]string{}, Links: map[string]string{}}
	// The install folder itself may be reached through a link.
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return rec, err
	}
	var paths []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case rel == filesRecord || rel == marker:
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			rec.Links[rel] = target
		case d.Type().IsRegular():
			paths = append(paths, rel)
		}
		return nil
	})
	if err != nil {
		return rec, err
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
			return rec, errs[i]
		}
		rec.Files[p] = sums[i]
	}
	return rec, nil
}

func hashFile(path string) (string, error) {
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
	return os.WriteFile(filepath.Join(dir, filesRecord), data, 0o644)
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
	have, err := recordFiles(dir)
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
	return changed, nil
}

// summarize names the first few changed paths and counts the rest.
func summarize(paths []string) string {
	const shown = 5
	if len(paths) <= shown {
		return strings.Join(paths, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(paths[:shown], ", "), len(paths)-shown)
}
