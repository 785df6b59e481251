package realhost

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/deskcheck/deskcheck/host/gemini"
	"github.com/deskcheck/deskcheck/internal/realcode"
)

//go:embed releases/tarballs.json releases/deps/package.json releases/deps/package-lock.json
var releaseFiles embed.FS

// Host is the family's host name in hosts ranges and -host gemini@V.
const Host = "gemini"

// tarball is a release's published tarball and the registry's sha512.
type tarball struct {
	Version   string `json:"version"`
	Tarball   string `json:"tarball"`
	Integrity string `json:"integrity"`
}

// Tarballs are the recorded tarballs of the modelled releases, oldest
// first.
func Tarballs() ([]tarball, error) {
	data, err := releaseFiles.ReadFile("releases/tarballs.json")
	if err != nil {
		return nil, err
	}
	var t struct {
		Package  string    `json:"package"`
		Releases []tarball `json:"releases"`
	}
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("releases/tarballs.json: %w", err)
	}
	if t.Package != gemini.Package {
		return nil, fmt.Errorf("releases/tarballs.json records %q, not %s", t.Package, gemini.Package)
	}
	return t.Releases, nil
}

// installDir is where release version is installed: its package folder is
// package/ inside it.
func installDir(cache, version string) string { return filepath.Join(cache, Host, version) }

// CoreDir is the package folder of an installed release.
func CoreDir(cache, version string) string {
	return filepath.Join(installDir(cache, version), "package")
}

// depsDir holds the six packages the policy modules run on, shared by
// every release.
func depsDir(cache string) string { return filepath.Join(cache, Host, "deps") }

// maxTarball bounds a release's tarball, and maxUnpacked what it unpacks
// to: the policy engine's package is about 5 MB packed.
const (
	maxTarball  = 64 << 20
	maxUnpacked = 512 << 20
)

// Install installs release version into cache: its tarball, fetched by
// exact version with npm pack and checked against the recorded sha512,
// unpacked into CACHE/gemini/V/package beside the shared dependencies
// (npm ci --ignore-scripts from the pinned lock, once for every release).
// Nothing of the release runs. Installs of the same cache may run
// concurrently: each takes the cache's gemini lock.
func Install(ctx context.Context, cache, version string, progress io.Writer) error {
	ts, err := Tarballs()
	if err != nil {
		return err
	}
	var want *tarball
	for i := range ts {
		if ts[i].Version == version {
			want = &ts[i]
		}
	}
	if want == nil {
		return fmt.Errorf("gemini@%s is not a modelled release; the releases are %s", version, strings.Join(versions(ts), ", "))
	}
	if err := os.MkdirAll(filepath.Join(cache, Host), 0o755); err != nil {
		return err
	}
	unlock, err := realcode.Lock(filepath.Join(cache, Host, ".lock"), nil)
	if err != nil {
		return err
	}
	defer unlock()
	if err := installDeps(ctx, cache, progress); err != nil {
		return err
	}
	dir := installDir(cache, version)
	if _, err := os.Stat(filepath.Join(dir, "package", "package.json")); err == nil {
		fmt.Fprintf(progress, "gemini@%s: already installed in %s\n", version, dir)
		return nil
	}
	fmt.Fprintf(progress, "gemini@%s: fetching %s@%s with npm pack\n", version, gemini.Package, version)
	tmp, err := os.MkdirTemp(filepath.Join(cache, Host), ".partial-"+version+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := npm(ctx, tmp, "pack", "--silent", gemini.Package+"@"+version); err != nil {
		return fmt.Errorf("gemini@%s: npm pack: %w", version, err)
	}
	tgz, err := filepath.Glob(filepath.Join(tmp, "*.tgz"))
	if err != nil || len(tgz) != 1 {
		return fmt.Errorf("gemini@%s: npm pack wrote %d tarballs", version, len(tgz))
	}
	data, err := readBounded(tgz[0], maxTarball)
	if err != nil {
		return fmt.Errorf("gemini@%s: %w", version, err)
	}
	sum := sha512.Sum512(data)
	if got := "sha512-" + base64.StdEncoding.EncodeToString(sum[:]); got != want.Integrity {
		return fmt.Errorf("gemini@%s: the tarball's sha512 is %s; the registry recorded %s: nothing was installed", version, got, want.Integrity)
	}
	unpacked := filepath.Join(tmp, "unpacked")
	if err := unpack(data, unpacked); err != nil {
		return fmt.Errorf("gemini@%s: %w", version, err)
	}
	if err := os.Symlink(filepath.Join(depsDir(cache), "node_modules"), filepath.Join(unpacked, "package", "node_modules")); err != nil {
		return err
	}
	stamp, _ := json.Marshal(map[string]string{"version": version, "integrity": want.Integrity, "installedAt": time.Now().UTC().Format(time.RFC3339)})
	if err := os.WriteFile(filepath.Join(unpacked, marker), append(stamp, '\n'), 0o644); err != nil {
		return err
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.Rename(unpacked, dir); err != nil {
		return err
	}
	fmt.Fprintf(progress, "gemini@%s: installed in %s (sha512 checked)\n", version, dir)
	return nil
}

// marker records an install's version and integrity.
const marker = "deskcheck-install.json"

func versions(ts []tarball) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Version)
	}
	return out
}

// installDeps installs the shared dependencies once, from the pinned lock.
func installDeps(ctx context.Context, cache string, progress io.Writer) error {
	deps := depsDir(cache)
	if _, err := os.Stat(filepath.Join(deps, "node_modules", ".package-lock.json")); err == nil {
		return nil
	}
	fmt.Fprintf(progress, "gemini: installing the policy modules' dependencies into %s (npm ci --ignore-scripts)\n", deps)
	if err := os.MkdirAll(deps, 0o755); err != nil {
		return err
	}
	for _, f := range []string{"package.json", "package-lock.json"} {
		data, err := releaseFiles.ReadFile("releases/deps/" + f)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(deps, f), data, 0o644); err != nil {
			return err
		}
	}
	if err := npm(ctx, deps, "ci", "--ignore-scripts", "--no-audit", "--no-fund"); err != nil {
		_ = os.RemoveAll(filepath.Join(deps, "node_modules"))
		return fmt.Errorf("gemini: npm ci of the dependencies: %w", err)
	}
	return nil
}

// npm runs npm in dir, its output kept for the error.
func npm(ctx context.Context, dir string, args ...string) error {
	bin, err := exec.LookPath("npm")
	if err != nil {
		return errors.New("npm is not on PATH; it installs the release")
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(out.String())
		if len(msg) > 2000 {
			msg = msg[len(msg)-2000:]
		}
		return fmt.Errorf("%w: %s", err, msg)
	}
	return nil
}

func readBounded(p string, limit int64) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("the tarball is over %d bytes", limit)
	}
	return data, nil
}

// unpack writes the tarball's folders and regular files into dir; an
// entry outside package/, a link or anything else is refused, and so is
// more than maxUnpacked bytes.
func unpack(tgz []byte, dir string) error {
	gz, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		return err
	}
	tr := tar.NewReader(gz)
	var total int64
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name := path.Clean(h.Name)
		if name != "package" && !strings.HasPrefix(name, "package/") {
			return fmt.Errorf("the tarball holds %q, outside package/", h.Name)
		}
		target := filepath.Join(dir, filepath.FromSlash(name))
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			total += h.Size
			if total > maxUnpacked {
				return fmt.Errorf("the tarball unpacks to over %d bytes", maxUnpacked)
			}
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return err
			}
			f, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			if err != nil {
				return err
			}
			_, err = io.Copy(f, io.LimitReader(tr, h.Size))
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		default:
			return fmt.Errorf("the tarball holds %q of type %q, neither a folder nor a file", h.Name, string(h.Typeflag))
		}
	}
}

// List returns the installed releases, oldest first.
func List(cache string) ([]realcode.Installed, error) {
	ts, err := Tarballs()
	if err != nil {
		return nil, err
	}
	var out []realcode.Installed
	for _, t := range ts {
		dir := installDir(cache, t.Version)
		if _, err := os.Stat(filepath.Join(dir, "package", "package.json")); err != nil {
			continue
		}
		// The install's marker, else (an install of an older layout)
		// the folder itself: the tarball's files carry npm's fixed date.
		info, err := os.Stat(filepath.Join(dir, marker))
		if err != nil {
			if info, err = os.Stat(dir); err != nil {
				continue
			}
		}
		out = append(out, realcode.Installed{Version: t.Version, Dir: dir, Bytes: realcode.DirSize(dir), InstalledAt: info.ModTime()})
	}
	return out, nil
}

// Remove removes an installed release (the shared dependencies stay).
func Remove(cache, version string) error {
	dir := installDir(cache, version)
	if _, err := os.Stat(dir); err != nil {
		return fmt.Errorf("gemini@%s is not installed in %s", version, cache)
	}
	return os.RemoveAll(dir)
}
