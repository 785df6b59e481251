package reports

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// DefaultDir is where reports go unless told otherwise. It is git-ignored.
const DefaultDir = "reports/private"

// EvidenceFile is the name of the JSON evidence file.
const EvidenceFile = "report.json"

// WriteDir writes the evidence into dir: the folder is created with mode
// 0700, and each file is written with mode 0600 to a temporary file that
// is renamed into place, so a failure leaves no partial file and earlier
// reports stay intact. caseDirs are the folders holding the case files that
// were read: dir may not be one of them or lie inside one.
func WriteDir(dir string, r *Report, caseDirs []string) (string, error) {
	if err := checkOutside(dir, caseDirs); err != nil {
		return "", err
	}
	b, err := r.MarshalIndent()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("creating report folder: %w", err)
	}
	path := filepath.Join(dir, EvidenceFile)
	return path, writeAtomic(path, b)
}

func checkOutside(dir string, caseDirs []string) error {
	out, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	for _, cd := range caseDirs {
		abs, err := filepath.Abs(cd)
		if err != nil {
			continue
		}
		if rel, err := filepath.Rel(abs, out); err == nil && (rel == "." || !strings.HasPrefix(rel, "..")) {
			return fmt.Errorf("report folder %s is inside %s, which holds case files; choose another with -out", dir, cd)
		}
	}
	return nil
}

// writeAtomic writes data to path through a temporary file in the same
// folder and a rename.
func writeAtomic(path string, data []byte) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = tmp.Chmod(0o600); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
