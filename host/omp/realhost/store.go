package realhost

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
)

// PNPMVersion is the pnpm that installs releases: run as
// npm exec --package=pnpm@PNPMVersion, so that every machine installs with
// the same one.
const PNPMVersion = "12.4.2"

// storeName is the folder of the cache that holds pnpm's content-addressed
// store: every file of every installed release once, which the releases'
// node_modules hard-link.
const storeName = "store"

// StoreDir is the pnpm store of cache.
func StoreDir(cache string) string { return filepath.Join(cache, storeName) }

// workspaceFile is pnpm's settings file, written into each install.
const workspaceFile = "pnpm-workspace.yaml"

// workspaceYAML is the pnpm-workspace.yaml of a release: a flat
// node_modules as npm makes (node-linker hoisted, rather than pnpm's
// folders of links, which resolve modules otherwise), each file a hard
// link into the store, and the release's package.json overrides, which
// pnpm reads only from here (npm's file:./absent stub is installed as a
// package folder of its own, the same failing index.js).
func workspaceYAML(packageJSON []byte) ([]byte, error) {
	var pkg struct {
		Overrides map[string]string `json:"overrides"`
	}
	if err := json.Unmarshal(packageJSON, &pkg); err != nil {
		return nil, fmt.Errorf("the release's package.json: %w", err)
	}
	var b strings.Builder
	b.WriteString("# deskcheck-host install: npm's flat node_modules, hard links into the store.\n")
	b.WriteString("nodeLinker: hoisted\npackageImportMethod: hardlink\nupdateNotifier: false\n")
	names := make([]string, 0, len(pkg.Overrides))
	for n := range pkg.Overrides {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) > 0 {
		b.WriteString("overrides:\n")
	}
	for _, n := range names {
		v := pkg.Overrides[n]
		if strings.ContainsAny(n+v, "'\n") {
			return nil, fmt.Errorf("the release's package.json: override %q: %q cannot be written to %s", n, v, workspaceFile)
		}
		fmt.Fprintf(&b, "  '%s': '%s'\n", n, v)
	}
	return []byte(b.String()), nil
}

// pnpmCommand is pnpm with args in dir: opts.PNPM when set, else the
// pinned version through npm exec.
func pnpmCommand(ctx context.Context, opts InstallOptions, dir string, args ...string) (*exec.Cmd, error) {
	var cmd *exec.Cmd
	if opts.PNPM != "" {
		cmd = exec.CommandContext(ctx, opts.PNPM, args...)
	} else {
		npm, err := exec.LookPath("npm")
		if err != nil {
			return nil, fmt.Errorf("installing a release needs npm, which runs pnpm %s (Debian: apt-get install npm): %w", PNPMVersion, err)
		}
		cmd = exec.CommandContext(ctx, npm, append([]string{"exec", "--yes", "--package=pnpm@" + PNPMVersion, "--", "pnpm"}, args...)...)
	}
	cmd.Dir = dir
	return cmd, nil
}

// Usage is what the installed releases of a cache take on disk, counted
// as du counts (allocated blocks; a file with several hard links once).
type Usage struct {
	// Own is, by release, the bytes of the files that no other installed
	// release links: what removing it (and pruning the store) frees.
	Own map[string]int64
	// Shared is the bytes of the files that two or more installed
	// releases link, each counted once.
	Shared int64
	// Store is the bytes of the store; Unlinked the part of it that no
	// installed release links: pnpm's index, and the files of releases
	// removed since.
	Store, Unlinked int64
	// Total is the bytes of the whole cache folder, as du -s counts it.
	Total int64
}

// inode names a file across its hard links.
type inode struct{ dev, ino uint64 }

// blocks is the key and the allocated bytes of the file info describes.
func blocks(info fs.FileInfo) (inode, int64, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return inode{}, info.Size(), false
	}
	return inode{uint64(st.Dev), uint64(st.Ino)}, st.Blocks * 512, true
}

// DiskUsage measures the installed releases of cache.
func DiskUsage(cache string, installed []*Installed) (Usage, error) {
	u := Usage{Own: map[string]int64{}}
	owners := map[inode]map[string]bool{}
	size := map[inode]int64{}
	for _, in := range installed {
		err := filepath.WalkDir(in.Dir, func(_ string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			key, n, ok := blocks(info)
			if !ok {
				u.Own[in.Version] += n
				return nil
			}
			if owners[key] == nil {
				owners[key] = map[string]bool{}
			}
			owners[key][in.Version] = true
			size[key] = n
			return nil
		})
		if err != nil {
			return u, fmt.Errorf("measuring omp@%s: %w", in.Version, err)
		}
	}
	for key, by := range owners {
		if len(by) > 1 {
			u.Shared += size[key]
			continue
		}
		for v := range by {
			u.Own[v] += size[key]
		}
	}
	seen, inStore := map[inode]bool{}, map[inode]bool{}
	store := StoreDir(cache)
	err := filepath.WalkDir(cache, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		key, n, ok := blocks(info)
		if !ok || !seen[key] {
			seen[key] = true
			u.Total += n
		}
		if p != store && !strings.HasPrefix(p, store+string(filepath.Separator)) {
			return nil
		}
		if !ok || !inStore[key] {
			inStore[key] = true
			u.Store += n
			if d.Type().IsRegular() && owners[key] == nil {
				u.Unlinked += n
			}
		}
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		return u, fmt.Errorf("measuring %s: %w", cache, err)
	}
	return u, nil
}

// runPNPM runs pnpm with args in dir; each line it prints goes to line
// (when not nil), and its error lines into the error of a failed run.
func runPNPM(ctx context.Context, opts InstallOptions, dir string, line func(string), args ...string) error {
	cmd, err := pnpmCommand(ctx, opts, dir, args...)
	if err != nil {
		return err
	}
	r, w := io.Pipe()
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan []string)
	go func() {
		var tail []string
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			l := sc.Text()
			if line != nil {
				line(l)
			}
			if strings.Contains(l, "ERR") || strings.Contains(l, "rror") {
				tail = append(tail, l)
			}
		}
		_, _ = io.Copy(io.Discard, r)
		done <- tail
	}()
	err = cmd.Wait()
	w.Close()
	tail := <-done
	if err != nil {
		return fmt.Errorf("%v\n%s", err, strings.Join(tail, "\n"))
	}
	return nil
}

// newBytes is the size of the files of the install in dir that no other
// install links: the files it added to the store, and its own.
func newBytes(dir string) (int64, error) {
	type file struct {
		links, seen uint64
		bytes       int64
	}
	files := map[inode]*file{}
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		key, _, ok := blocks(info)
		b := info.Size()
		st, _ := info.Sys().(*syscall.Stat_t)
		if !ok || st == nil {
			n += b
			return nil
		}
		f := files[key]
		if f == nil {
			f = &file{links: uint64(st.Nlink), bytes: b}
			files[key] = f
		}
		f.seen++
		return nil
	})
	// A file is new when its links are this install's and at most one
	// more, the store's.
	for _, f := range files {
		if f.links <= f.seen+1 {
			n += f.bytes
		}
	}
	return n, err
}
