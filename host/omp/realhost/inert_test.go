package realhost

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/cases"
	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/verifier"
)

// installedForTest returns installed release v, skipping when it is
// missing (failing in CI).
func installedForTest(t *testing.T, v string) *Installed {
	t.Helper()
	cache, err := CacheDir()
	if err == nil {
		var in *Installed
		if in, err = Lookup(cache, v); err == nil {
			return in
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("omp@%s is missing in CI: %v", v, err)
	}
	t.Skipf("skipping: %v", err)
	return nil
}

// bundledCases loads the seed desk.
func bundledCases(t *testing.T) []*verifier.Case {
	for _, f := range cases.Files() {
		if filepath.Base(f.Path) == "boundary-desk.json" {
			desk, ds := verifier.Load(all.Registry(), f.Path, f.Data, verifier.Limits{})
			require.NotNil(t, desk, "%v", ds)
			return desk.Cases
		}
	}
	t.Fatal("no bundled boundary desk")
	return nil
}

// TestStraceHelper is the process traced by TestInertUnderStrace: it runs
// the bundled desk through release 18.1.16 once.
func TestStraceHelper(t *testing.T) {
	if os.Getenv("DESKCHECK_STRACE_HELPER") != "1" {
		t.Skip("only run under TestInertUnderStrace")
	}
	in := installedForTest(t, "18.1.16")
	h, err := Start(context.Background(), ForInstalled(in))
	require.NoError(t, err)
	res, err := Judge(context.Background(), h, bundledCases(t), Options{Release: "18.1.16"})
	require.NoError(t, err)
	require.NoError(t, h.Close())
	require.Equal(t, 15, res.Summary.Holds)
}

// TestInertUnderStrace traces a whole real-host run of the bundled desk:
// no socket is opened (an unnamed AF_UNIX pair bun's event loop makes
// reaches nothing and is allowed), nothing is created, written, renamed or removed
// outside the run's temporary folders, and no program but unshare (making
// the network namespace) and bun is started.
func TestInertUnderStrace(t *testing.T) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("strace is missing in CI (Debian: apt-get install strace)")
		}
		t.Skip("skipping: strace is not installed (Debian: apt-get install strace)")
	}
	in := installedForTest(t, "18.1.16")
	tmp := t.TempDir()
	log := filepath.Join(t.TempDir(), "strace.log")
	self, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(strace, "-f", "-Y", "-y", "-qq", "-s", "512", "-o", log,
		"-e", "trace=execve,socket,socketpair,connect,open,openat,creat,rename,renameat,renameat2,unlink,unlinkat,mkdir,mkdirat,truncate,link,symlink",
		self, "-test.run=^TestStraceHelper$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "DESKCHECK_STRACE_HELPER=1", "TMPDIR="+tmp, "DESKCHECK_CACHE="+filepath.Dir(in.Dir))
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Contains(t, string(out), "--- PASS: TestStraceHelper", "%s", out)

	f, err := os.Open(log)
	require.NoError(t, err)
	defer f.Close()
	unshare, _ := exec.LookPath("unshare")
	allowedProgs := map[string]bool{self: true, unshare: true, bunPath(in.Dir): true}
	execRe := regexp.MustCompile(`execve\("([^"]+)"`)
	pathRe := regexp.MustCompile(`^\d+\s+(\w+)\((?:AT_FDCWD|-?\d+(?:<[^>]*>)?)?,?\s*"([^"]*)"(.*)$`)
	// A path argument: "AT_FDCWD, "p"", "8</dir>, "name"" or a bare "p".
	argPaths := regexp.MustCompile(`(?:(AT_FDCWD|\d+<([^>]*)>), )?"([^"]*)"`)
	var progs, writes, sockets []string
	// -Y names each thread's program: "1234<bun> openat(...)".
	lead := regexp.MustCompile(`^(\d+)(?:<([^>]*)>)?\s+`)
	driver := filepath.Base(self)
	if len(driver) > 15 {
		driver = driver[:15] // the kernel keeps 15 bytes of a program name
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		l := lead.FindStringSubmatch(line)
		if l == nil {
			continue
		}
		comm := l[2]
		line = l[1] + " " + line[len(l[0]):]
		// The driver removing the temporary folders it made (os.RemoveAll
		// walks them by directory descriptor, so no path is shown).
		if comm == driver && regexp.MustCompile(`^\d+\s+unlinkat\(\d+,`).MatchString(line) {
			continue
		}
		if strings.Contains(line, "= -1 ") {
			continue // refused by the OS: nothing happened
		}
		if m := execRe.FindStringSubmatch(line); m != nil {
			if !allowedProgs[m[1]] {
				progs = append(progs, m[1])
			}
			continue
		}
		// An unnamed AF_UNIX pair (bun's own event loop) joins two ends
		// inside the process and reaches nothing; any other socket fails.
		if strings.Contains(line, "socketpair(AF_UNIX,") {
			continue
		}
		if strings.Contains(line, "socket(") || strings.Contains(line, "socketpair(") || strings.Contains(line, "connect(") {
			sockets = append(sockets, line)
			continue
		}
		m := pathRe.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		call, rest := m[1], m[3]
		writing := true
		if call == "open" || call == "openat" {
			writing = strings.Contains(rest, "O_WRONLY") || strings.Contains(rest, "O_RDWR") || strings.Contains(rest, "O_CREAT") || strings.Contains(rest, "O_TRUNC")
		}
		if !writing {
			continue
		}
		// Every path the call names, a name relative to a directory
		// descriptor resolved through the folder -y shows for it.
		inside := true
		for _, p := range argPaths.FindAllStringSubmatch(line, -1) {
			path := p[3]
			if p[2] != "" {
				path = p[2] + "/" + path
			}
			// unshare -r writes its own process's id maps to make the namespace.
			if path == "/proc/self/uid_map" || path == "/proc/self/gid_map" || path == "/proc/self/setgroups" || path == "/dev/null" {
				continue
			}
			if !strings.HasPrefix(path, tmp+"/") && !strings.HasPrefix(path, os.TempDir()+"/deskcheck-") {
				inside = false
			}
		}
		if inside {
			continue
		}
		writes = append(writes, line)
	}
	require.NoError(t, sc.Err())
	assert.Empty(t, progs, "programs other than unshare and bun were started")
	assert.Empty(t, sockets, "sockets were opened")
	assert.Empty(t, writes, "files outside the temporary folders were written")
}
