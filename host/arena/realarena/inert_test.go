package realarena

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/recorders"
)

// TestArenaStraceHelper is the process TestArenaInertUnderStrace traces:
// it runs the bundled arena desk once on the adapter it is given.
func TestArenaStraceHelper(t *testing.T) {
	name := os.Getenv("DESKCHECK_ARENA_STRACE_HELPER")
	if name == "" {
		t.Skip("only run under TestArenaInertUnderStrace")
	}
	var items []recorders.Item
	for _, d := range bundledDesk(t) {
		items = append(items, d.item)
	}
	res := runReal(t, name, "", items)
	for _, r := range res.Records {
		assert.True(t, recorders.Observe(r).Complete, r.Item.ID)
	}
}

// TestArenaInertUnderStrace traces a whole run of the bundled arena desk
// on each installed adapter: no program is started but the test binary,
// unshare and the venv's python (a failed execve starts nothing: the
// openai client's platform probe tries uname on PATH=/nonexistent); every
// connect and bind that the OS lets proceed names the run folder's
// gateway.sock or fixture.sock; nothing is created, written, renamed or
// removed outside the test's temporary folder. A socket of another family
// that never connects or binds is listed, not failed: urllib3 (imported
// by langsmith, under LangGraph) makes one at import to learn whether
// IPv6 exists.
func TestArenaInertUnderStrace(t *testing.T) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("strace is missing in CI (Debian: apt-get install strace)")
		}
		t.Skip("skipping: strace is not installed (Debian: apt-get install strace)")
	}
	if wrap, _ := sandbox(); wrap == nil {
		t.Skip("skipping: unshare -rn is refused here, so the adapters would run on loopback TCP")
	}
	self, err := os.Executable()
	require.NoError(t, err)
	unshare, _ := exec.LookPath("unshare")
	for _, name := range Adapters {
		t.Run(name, func(t *testing.T) {
			py := python(t, name)
			tmp := t.TempDir()
			log := filepath.Join(t.TempDir(), "strace.log")
			cmd := exec.Command(strace, "-f", "-Y", "-y", "-qq", "-s", "512", "-o", log,
				"-e", "trace=execve,socket,socketpair,connect,bind,open,openat,creat,rename,renameat,renameat2,unlink,unlinkat,mkdir,mkdirat,truncate,link,symlink",
				self, "-test.run=^TestArenaStraceHelper$", "-test.count=1", "-test.v")
			cmd.Env = append(os.Environ(), "DESKCHECK_ARENA_STRACE_HELPER="+name, "TMPDIR="+tmp)
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", out)
			require.Contains(t, string(out), "--- PASS: TestArenaStraceHelper", "%s", out)
			progs, sockets, writes, probes, connects := inspectTrace(t, log, tmp, self, map[string]bool{self: true, unshare: true, py: true})
			for _, p := range probes {
				t.Logf("a socket that connected and bound nowhere: %s", p)
			}
			assert.Empty(t, progs, "programs other than the test, unshare and python were started")
			assert.Empty(t, sockets, "sockets other than the two recorders' Unix sockets")
			assert.Empty(t, writes, "files outside the temporary folder were written")
			// 37 model requests, 24 decisions and 14 effects on the desk;
			// a client may open more than one connection per request.
			assert.GreaterOrEqual(t, connects, 37+24+14)
			t.Logf("%s: %d connects to the recorders' sockets", name, connects)
		})
	}
}

// inspectTrace reads a strace log and returns what broke the rules, and
// how many connects reached the recorders.
func inspectTrace(t *testing.T, log, tmp, self string, allowedProgs map[string]bool) (progs, sockets, writes, probes []string, connects int) {
	t.Helper()
	f, err := os.Open(log)
	require.NoError(t, err)
	defer f.Close()
	execRe := regexp.MustCompile(`execve\("([^"]+)"`)
	pathRe := regexp.MustCompile(`^\d+\s+(\w+)\((?:AT_FDCWD|-?\d+(?:<[^>]*>)?)?,?\s*"([^"]*)"(.*)$`)
	argPaths := regexp.MustCompile(`(?:(AT_FDCWD|\d+<([^>]*)>), )?"([^"]*)"`)
	sunPath := regexp.MustCompile(`sun_path="([^"]*)"`)
	lead := regexp.MustCompile(`^(\d+)(?:<([^>]*)>)?\s+`)
	descUnlink := regexp.MustCompile(`^\d+\s+unlinkat\(\d+,`)
	driver := filepath.Base(self)
	if len(driver) > 15 {
		driver = driver[:15]
	}
	recorderSocket := func(p string) bool {
		return strings.HasPrefix(p, tmp+"/") && (strings.HasSuffix(p, "/gateway.sock") || strings.HasSuffix(p, "/fixture.sock"))
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
		if comm == driver && descUnlink.MatchString(line) {
			continue // the driver removing its own folder by descriptor
		}
		if strings.Contains(line, "= -1 ") && !strings.Contains(line, "EINPROGRESS") {
			continue // refused by the OS: nothing happened
		}
		if m := execRe.FindStringSubmatch(line); m != nil {
			if !allowedProgs[m[1]] {
				progs = append(progs, m[1])
			}
			continue
		}
		if strings.Contains(line, "socketpair(AF_UNIX,") {
			continue // an unnamed pair (asyncio's self-pipe) reaches nothing
		}
		if strings.Contains(line, " socket(") {
			if !strings.Contains(line, "socket(AF_UNIX,") {
				// A probe: urllib3 (under langsmith) makes an AF_INET6
				// socket at import to learn whether IPv6 exists. It can
				// reach nothing unless a connect or bind of it succeeds,
				// which the next rule fails.
				probes = append(probes, line)
			}
			continue
		}
		if strings.Contains(line, " connect(") || strings.Contains(line, " bind(") {
			m := sunPath.FindStringSubmatch(line)
			if m == nil || !recorderSocket(m[1]) {
				sockets = append(sockets, line)
			} else if strings.Contains(line, " connect(") {
				connects++
			}
			continue
		}
		m := pathRe.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		call, rest := m[1], m[3]
		if call == "open" || call == "openat" {
			if !(strings.Contains(rest, "O_WRONLY") || strings.Contains(rest, "O_RDWR") || strings.Contains(rest, "O_CREAT") || strings.Contains(rest, "O_TRUNC")) {
				continue
			}
		}
		inside := true
		for _, p := range argPaths.FindAllStringSubmatch(line, -1) {
			path := p[3]
			if p[2] != "" {
				path = p[2] + "/" + path
			}
			if path == "/proc/self/uid_map" || path == "/proc/self/gid_map" || path == "/proc/self/setgroups" || path == "/dev/null" {
				continue // unshare -r writes its own id maps
			}
			if !strings.HasPrefix(path, tmp+"/") {
				inside = false
			}
		}
		if !inside {
			writes = append(writes, line)
		}
	}
	require.NoError(t, sc.Err())
	return progs, sockets, writes, probes, connects
}
