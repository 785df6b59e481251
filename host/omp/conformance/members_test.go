package conformance

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/deskcheck/deskcheck/host/omp"
	ompreal "github.com/deskcheck/deskcheck/host/omp/realhost"
	driver "github.com/deskcheck/deskcheck/realhost"
)

// drivenModules are the release files the harness drives: what a desk key
// reaches. A release whose files are byte-identical to its group's
// representative's behaves as the representative on every case.
var drivenModules = []string{
	"src/tools/approval.ts",
	"src/extensibility/extensions/wrapper.ts",
	"src/tools/file-write-fallback.ts",
	"src/modes/rpc/rpc-mode.ts",
	"src/modes/rpc/rpc-frame.ts",
	"src/modes/rpc/rpc-input.ts",
	"src/config/settings.ts",
	"src/config/settings-schema.ts",
}

// maxTarball bounds one release tarball read from the registry.
const maxTarball = 64 << 20

// integrities reads the expected sha512 of every release tarball.
func integrities(t *testing.T) map[string]string {
	data, err := os.ReadFile(filepath.Join("testdata", "tarballs.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Integrity map[string]string }
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return f.Integrity
}

// TestTarballIntegritiesMatchLockfiles keeps testdata/tarballs.json and the
// release lockfiles deskcheck-host installs from saying the same.
func TestTarballIntegritiesMatchLockfiles(t *testing.T) {
	want := integrities(t)
	for _, r := range ompreal.Releases() {
		lock, err := os.ReadFile(filepath.Join("..", "realhost", "releases", r.Version, "package-lock.json"))
		if err != nil {
			t.Fatal(err)
		}
		var l struct {
			Packages map[string]struct{ Version, Integrity string }
		}
		if err := json.Unmarshal(lock, &l); err != nil {
			t.Fatal(err)
		}
		p := l.Packages["node_modules/@oh-my-pi/pi-coding-agent"]
		if p.Version != r.Version || p.Integrity != want[r.Version] {
			t.Errorf("%s: the lockfile pins pi-coding-agent %s %s; testdata/tarballs.json says %s", r.Version, p.Version, p.Integrity, want[r.Version])
		}
	}
	if len(want) != len(ompreal.Releases()) {
		t.Errorf("testdata/tarballs.json names %d releases, deskcheck-host %d", len(want), len(ompreal.Releases()))
	}
}

// tarball returns release v's npm tarball, fetched by exact version from
// the registry (kept in the cache folder) and checked against its
// recorded integrity.
func tarball(t *testing.T, v, integrity string) []byte {
	t.Helper()
	cache, err := driver.CacheDir()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(cache, "tarballs", "pi-coding-agent-"+v+".tgz")
	data, err := os.ReadFile(path)
	if err != nil || checkIntegrity(data, integrity) != nil {
		url := fmt.Sprintf("https://registry.npmjs.org/@oh-my-pi/pi-coding-agent/-/pi-coding-agent-%s.tgz", v)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("fetching %s: %v", url, err)
			}
			t.Skipf("skipping: the npm registry cannot be reached (%v)", err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %s", url, resp.Status)
		}
		data, err = io.ReadAll(io.LimitReader(resp.Body, maxTarball+1))
		if err != nil || len(data) > maxTarball {
			t.Fatalf("%s: %v (or over %d bytes)", url, err, maxTarball)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
			_ = os.WriteFile(path, data, 0o644)
		}
	}
	if err := checkIntegrity(data, integrity); err != nil {
		t.Fatalf("pi-coding-agent %s: %v", v, err)
	}
	return data
}

func checkIntegrity(data []byte, integrity string) error {
	want, ok := strings.CutPrefix(integrity, "sha512-")
	if !ok {
		return fmt.Errorf("integrity %q is not sha512", integrity)
	}
	sum := sha512.Sum512(data)
	if got := base64.StdEncoding.EncodeToString(sum[:]); got != want {
		return fmt.Errorf("the tarball's sha512 is %s, not the recorded %s", got, want)
	}
	return nil
}

// moduleHashes reads the sha256 of every driven module in a tarball
// ("absent" for a module the release does not have).
func moduleHashes(t *testing.T, tgz []byte) map[string]string {
	t.Helper()
	zr, err := gzip.NewReader(strings.NewReader(string(tgz)))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	out := map[string]string{}
	for _, m := range drivenModules {
		out[m] = "absent"
	}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(h.Name, "package/")
		if _, ok := out[name]; !ok {
			continue
		}
		sum := sha256.New()
		if _, err := io.Copy(sum, io.LimitReader(tr, maxTarball)); err != nil {
			t.Fatal(err)
		}
		out[name] = hex.EncodeToString(sum.Sum(nil))
	}
	return out
}

// TestGroupMembersIdentical proves, for every release that is not its
// group's representative, which driven modules are byte-identical to the
// representative's, from the releases' own npm tarballs. A member whose
// driven modules are all identical behaves as the representative the
// differential drives; a member where one differs is driven itself, on
// the same cases.
func TestGroupMembersIdentical(t *testing.T) {
	want := integrities(t)
	for _, g := range omp.Groups() {
		rep := representatives[g]
		repHashes := moduleHashes(t, tarball(t, rep, want[rep]))
		for _, v := range g.Releases() {
			member := v.String()
			if member == rep {
				continue
			}
			t.Run(g.String()+"/"+member, func(t *testing.T) {
				hashes := moduleHashes(t, tarball(t, member, want[member]))
				var same, differ []string
				for _, m := range drivenModules {
					if hashes[m] == repHashes[m] {
						same = append(same, m)
					} else {
						differ = append(differ, m)
					}
				}
				sort.Strings(differ)
				t.Logf("omp@%s against omp@%s (%s): identical %s", member, rep, g, strings.Join(same, ", "))
				if len(differ) == 0 {
					t.Logf("omp@%s is proven identical to omp@%s on every driven module", member, rep)
					return
				}
				t.Logf("omp@%s differs from omp@%s in %s: driving it on the same cases", member, rep, strings.Join(differ, ", "))
				checkRelease(t, member)
				closeHost(member) // one bun process at a time for the members
			})
		}
	}
}
