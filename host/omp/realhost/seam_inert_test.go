package realhost_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
	ompreal "github.com/deskcheck/deskcheck/host/omp/realhost"
	"github.com/deskcheck/deskcheck/internal/realcode"
	driver "github.com/deskcheck/deskcheck/realhost"
	"github.com/deskcheck/deskcheck/verifier"
)

// installedForTest returns installed OMP release v, skipping when it is
// missing (failing in CI).
func installedForTest(t *testing.T, v string) *ompreal.Installed {
	t.Helper()
	cache, err := driver.CacheDir()
	if err == nil {
		var in *ompreal.Installed
		if in, err = ompreal.Lookup(cache, v); err == nil {
			return in
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("omp@%s is missing in CI: %v", v, err)
	}
	t.Skipf("skipping: %v", err)
	return nil
}

// openRelease opens installed OMP release in through the driver.
func openRelease(in *ompreal.Installed, b driver.Bounds) (*driver.FamilyHost, error) {
	return driver.OpenFamily(context.Background(), ompreal.Family, realcode.OpenOptions{Cache: filepath.Dir(in.Dir), Version: in.Version}, b)
}

// openCheckout opens the OMP checkout dir through the driver, on the bun
// of installed release in.
func openCheckout(in *ompreal.Installed, dir string, b driver.Bounds) (*driver.FamilyHost, error) {
	return driver.OpenFamily(context.Background(), ompreal.Family, realcode.OpenOptions{Cache: filepath.Dir(in.Dir), Source: dir, Runtime: ompreal.ForInstalled(in).Bun}, b)
}

// bundledCases loads the seed desk.
func bundledCases(t *testing.T) []*verifier.Case {
	for _, f := range all.Desks() {
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
	h, err := openRelease(in, driver.Bounds{})
	require.NoError(t, err)
	res, err := driver.Judge(context.Background(), h, bundledCases(t), driver.Options{Release: "18.1.16"})
	require.NoError(t, err)
	require.NoError(t, h.Close())
	require.Equal(t, 15, res.Summary.Holds)
}

// TestStraceHostileHelper is the process traced by
// TestHostileCheckoutUnderStrace: one run of a checkout that tries every
// escape the attack tests try one at a time.
func TestStraceHostileHelper(t *testing.T) {
	if os.Getenv("DESKCHECK_STRACE_HELPER") != "hostile" {
		t.Skip("only run under TestHostileCheckoutUnderStrace")
	}
	out := os.Getenv("DESKCHECK_STRACE_OUTSIDE")
	dir := fakeCheckout(t, hostileAttack(out))
	a := runCheckout(t, dir)
	require.Equal(t, "unreadable", a.Observed["permissionDenied"])
}

// hostileAttack tries, from a checkout's module, to write, start
// programs, leave a child running, reach a socket and read a file, all in
// or through the folder out (outside the sandbox).
func hostileAttack(out string) string {
	return fmt.Sprintf(`try { await Bun.write(%[1]s + "/by-bun-write", "x"); } catch {}
try { fs.writeFileSync(%[1]s + "/by-fs", "x"); } catch {}
for (const argv of [["/bin/sh", "-c", "echo x > " + %[1]s + "/by-sh"], ["/usr/bin/touch", %[1]s + "/by-touch"]]) {
	try { Bun.spawnSync(argv); } catch {}
}
try { cp.spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { detached: true, stdio: "ignore" }).unref(); } catch {}
await new Promise(done => {
	try {
		const s = net.connect(%[1]s + "/outside.sock");
		s.on("connect", () => s.write("x", () => { s.end(); done(undefined); }));
		s.on("error", () => done(undefined));
	} catch { done(undefined); }
});
try { (globalThis as any).answer = fs.readFileSync(%[1]s + "/secret.txt", "utf8"); } catch { (globalThis as any).answer = "unreadable"; }`, js(out))
}

// TestInertUnderStrace traces a whole real-host run of the bundled desk:
// no socket is opened but an unnamed AF_UNIX pair bun's event loop makes
// (which reaches nothing) and those bubblewrap makes to set the sandbox
// up; nothing is created, written, renamed or removed outside the run's
// temporary folder (bubblewrap's own mounts are made on the sandbox's
// fresh root); no program but bubblewrap and bun is started.
func TestInertUnderStrace(t *testing.T) {
	in := installedForTest(t, "18.1.16")
	tr := traceHelper(t, "TestStraceHelper", "1", "", ompreal.ForInstalled(in).Bun, true)
	assert.Empty(t, tr.progs, "programs other than bwrap and bun were started")
	assert.Empty(t, tr.sockets, "sockets were opened")
	assert.Empty(t, tr.writes, "files outside the temporary folder were written")
}

// TestHostileCheckoutUnderStrace traces a checkout that tries to escape:
// it starts no program but the runtime, connects to nothing, and writes
// nothing outside the run's temporary folder.
func TestHostileCheckoutUnderStrace(t *testing.T) {
	in := installedForTest(t, "18.1.16")
	out := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(out, "secret.txt"), []byte("secret"), 0o600))
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC, 0)
	require.NoError(t, err)
	defer syscall.Close(fd)
	require.NoError(t, syscall.Bind(fd, &syscall.SockaddrUnix{Name: filepath.Join(out, "outside.sock")}))
	require.NoError(t, syscall.Listen(fd, 8))
	tr := traceHelper(t, "TestStraceHostileHelper", "hostile", out, ompreal.ForInstalled(in).Bun, false)
	assert.Empty(t, tr.progs, "programs other than bwrap and the runtime were started")
	assert.Empty(t, tr.sockets, "a connection was made")
	assert.Empty(t, tr.writes, "files outside the temporary folder were written")
	entries, err := os.ReadDir(out)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "only the secret and the socket are in the folder outside")
}

// bwrapSetup matches bubblewrap's writes while it sets the sandbox up:
// the namespace's id maps, and folders, files and links made on the
// sandbox's fresh root before it becomes the root.
var bwrapSetup = regexp.MustCompile(`^\d+ (openat\(\d+</proc/\d+>, "(uid_map|gid_map|setgroups)"|(mkdir|creat)\("(/newroot/[^"]*|newroot|oldroot)"|symlink\("[^"]*", "/newroot/[^"]*"\))`)

// joinResumed joins a call strace split in two, because another thread's
// call came between ("1 connect(5, ... <unfinished ...>" and "1<bun> <...
// connect resumed>) = 0"), into one line, so that its result is known.
func joinResumed(lines []string) []string {
	pidOf := regexp.MustCompile(`^(\d+)`)
	resumed := regexp.MustCompile(`^(\d+)(?:<[^>]*>)?\s+<\.\.\. \w+ resumed>\s?(.*)$`)
	open := map[string]string{}
	var out []string
	for _, line := range lines {
		if rest, ok := strings.CutSuffix(line, " <unfinished ...>"); ok {
			if m := pidOf.FindStringSubmatch(line); m != nil {
				open[m[1]] = rest
				continue
			}
		}
		if m := resumed.FindStringSubmatch(line); m != nil {
			if first, ok := open[m[1]]; ok {
				delete(open, m[1])
				out = append(out, first+m[2])
				continue
			}
		}
		if line != "" {
			out = append(out, line)
		}
	}
	for _, first := range open {
		out = append(out, first) // never resumed: the process ended in the call
	}
	return out
}

// traced is what a traced run did that it should not have.
type traced struct{ progs, sockets, writes []string }

// traceHelper runs the test helper under strace -f and sorts out what
// its processes did. strict counts every socket the sandboxed processes
// make; otherwise only a connection or a bound address counts (a socket
// made in the sandbox's own network namespace reaches nothing).
func traceHelper(t *testing.T, helper, mode, outside, runtime string, strict bool) traced {
	t.Helper()
	strace, err := exec.LookPath("strace")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("strace is missing in CI (Debian: apt-get install strace)")
		}
		t.Skip("skipping: strace is not installed (Debian: apt-get install strace)")
	}
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		bwrap = "/usr/bin/bwrap"
	}
	tmp := t.TempDir()
	log := filepath.Join(t.TempDir(), "strace.log")
	self, err := os.Executable()
	require.NoError(t, err)
	cache, err := driver.CacheDir()
	require.NoError(t, err)
	cmd := exec.Command(strace, "-f", "-Y", "-y", "-qq", "-s", "512", "-o", log,
		"-e", "trace=execve,socket,socketpair,connect,bind,open,openat,creat,rename,renameat,renameat2,unlink,unlinkat,mkdir,mkdirat,truncate,link,symlink",
		self, "-test.run=^"+helper+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "DESKCHECK_STRACE_HELPER="+mode, "DESKCHECK_STRACE_OUTSIDE="+outside, "TMPDIR="+tmp, "DESKCHECK_CACHE="+cache)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Contains(t, string(out), "--- PASS: "+helper, "%s", out)

	data, err := os.ReadFile(log)
	require.NoError(t, err)
	lines := joinResumed(strings.Split(string(data), "\n"))
	allowedProgs := map[string]bool{self: true, bwrap: true, runtime: true}
	execRe := regexp.MustCompile(`execve\("([^"]+)"`)
	pathRe := regexp.MustCompile(`^\d+\s+(\w+)\((?:AT_FDCWD|-?\d+(?:<[^>]*>)?)?,?\s*"([^"]*)"(.*)$`)
	// A path argument: "AT_FDCWD, "p"", "8</dir>, "name"" or a bare "p".
	argPaths := regexp.MustCompile(`(?:(AT_FDCWD|\d+<([^>]*)>), )?"([^"]*)"`)
	var tr traced
	// -Y names each thread's program: "1234<bun> openat(...)".
	lead := regexp.MustCompile(`^(\d+)(?:<([^>]*)>)?\s+`)
	driver := filepath.Base(self)
	if len(driver) > 15 {
		driver = driver[:15] // the kernel keeps 15 bytes of a program name
	}
	for _, line := range lines {
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
				tr.progs = append(tr.progs, m[1])
			}
			continue
		}
		// bubblewrap setting the sandbox up: the loopback device of the
		// new network namespace (netlink), its id maps, and the mounts of
		// the sandbox's fresh root ("newroot", "oldroot", "/newroot/...").
		if comm == "bwrap" {
			if strings.Contains(line, "socket(AF_NETLINK,") || strings.Contains(line, "socket(AF_UNIX, SOCK_DGRAM") ||
				strings.Contains(line, "{sa_family=AF_NETLINK,") {
				continue
			}
			if bwrapSetup.MatchString(line) {
				continue
			}
		}
		// An unnamed AF_UNIX pair (bun's own event loop) joins two ends
		// inside the process and reaches nothing.
		if strings.Contains(line, "socketpair(AF_UNIX,") {
			continue
		}
		if strings.Contains(line, "connect(") || strings.Contains(line, "bind(") || (strict && (strings.Contains(line, "socket(") || strings.Contains(line, "socketpair("))) {
			tr.sockets = append(tr.sockets, line)
			continue
		}
		m := pathRe.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		call, rest := m[1], m[3]
		if call == "socket" || call == "socketpair" {
			continue
		}
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
			if path == "/dev/null" {
				continue
			}
			if !strings.HasPrefix(path, tmp+"/") {
				inside = false
			}
		}
		if !inside {
			tr.writes = append(tr.writes, line)
		}
	}
	return tr
}
