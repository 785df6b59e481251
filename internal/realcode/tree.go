package realcode

import (
	"io/fs"
	"os"
	"path/filepath"
)

// CopyTree copies the folders and regular files of from into to, folders
// made with dirPerm and files written with filePerm. With link, a file is
// a hard link to its original where the file system allows one (a copy
// where it does not) and a symbolic link is made again as it is; without,
// only folders and regular files are copied.
func CopyTree(from, to string, dirPerm, filePerm fs.FileMode, link bool) error {
	return filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(dst, dirPerm)
		case link && d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, dst)
		case !d.Type().IsRegular():
			return nil
		}
		if link && os.Link(p, dst) == nil {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, filePerm)
	})
}
