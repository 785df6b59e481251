package sandbox

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLibraries(t *testing.T) {
	script := filepath.Join(t.TempDir(), "script")
	require.NoError(t, os.WriteFile(script, []byte("#!/nonexistent\n"), 0o755))
	libs, err := Libraries([]string{script})
	require.NoError(t, err)
	assert.Empty(t, libs, "a file that is not ELF loads nothing")

	_, err = Libraries([]string{filepath.Join(t.TempDir(), "missing")})
	assert.Error(t, err)

	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh to read")
	}
	libs, err = Libraries([]string{"/bin/sh"})
	require.NoError(t, err)
	assert.True(t, slices.ContainsFunc(libs, func(l string) bool { return strings.HasPrefix(filepath.Base(l), "libc.so") }), "%v", libs)
	assert.True(t, slices.ContainsFunc(libs, func(l string) bool { return strings.HasPrefix(filepath.Base(l), "ld-linux") }), "%v", libs)
}

// TestArgumentsShowOnlyWhatIsDeclared: the sandbox gets every namespace,
// dies with its parent, and sees the runtime, its libraries, the declared
// folders and the one writable folder, nothing else.
func TestArgumentsShowOnlyWhatIsDeclared(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no ELF program to take as the runtime")
	}
	tmp := t.TempDir()
	release := t.TempDir()
	harness := filepath.Join(tmp, "harness")
	args, isolation, err := arguments(Spec{Runtime: "/bin/sh", Args: []string{"x"}, ReadOnly: []string{release, harness}, Temp: tmp, Dir: tmp})
	require.NoError(t, err)
	for _, flag := range []string{"--unshare-user", "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--die-with-parent", "--new-session"} {
		assert.Contains(t, args, flag)
	}
	var writable, readable []string
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "--bind":
			writable = append(writable, args[i+1])
		case "--ro-bind":
			readable = append(readable, args[i+1])
		case "--":
			i = len(args)
		}
	}
	assert.Equal(t, []string{tmp}, writable)
	assert.Contains(t, readable, release)
	assert.Contains(t, readable, harness, "a read-only folder inside the writable one is mounted read-only")
	for _, r := range readable {
		assert.False(t, r == "/" || r == "/usr" || r == "/bin" || r == "/home" || r == "/run" || r == "/tmp", r)
	}
	assert.Contains(t, isolation, "network")
	assert.Equal(t, []string{"/bin/sh", "x"}, args[len(args)-2:])
}

// TestRequireRefusesWithoutSandbox: a run that requires the sandbox is
// refused where it cannot be had; one that does not runs and says so.
func TestRequireRefusesWithoutSandbox(t *testing.T) {
	tmp := t.TempDir()
	_, err := Start(context.Background(), Spec{Runtime: "/bin/true", Temp: tmp, Dir: tmp, Require: true, NoSandbox: true})
	assert.ErrorIs(t, err, ErrUnavailable)

	if _, err := os.Stat("/bin/true"); err != nil {
		t.Skip("no /bin/true")
	}
	p, err := Start(context.Background(), Spec{Runtime: "/bin/true", Temp: tmp, Dir: tmp, NoSandbox: true})
	require.NoError(t, err)
	assert.False(t, p.Sandboxed)
	assert.Contains(t, p.Isolation, "NO SANDBOX (not asked for)")
	require.NoError(t, p.Wait())
}

// TestSandboxHidesTheHost runs a shell as the runtime: inside, the user's
// files, the host's programs and sockets are absent, and only the
// temporary folder can be written.
func TestSandboxHidesTheHost(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	if err := Check(Spec{Runtime: "/bin/sh", Probe: []string{"-c", ":"}}); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the sandbox is missing in CI: %v", err)
		}
		t.Skipf("skipping: %v", err)
	}
	tmp := t.TempDir()
	script := `for p in /etc/passwd /usr/bin/env /bin/ls /root /home /run /var/run/docker.sock /tmp/.X11-unix; do [ -e "$p" ] && echo "visible $p"; done
echo x > /written 2>/dev/null && echo "wrote /"
echo x > "$TMPDIR/ok" && echo "wrote tmp"
echo "pid $$"`
	p, err := Start(context.Background(), Spec{Runtime: "/bin/sh", Args: []string{"-c", script}, Temp: tmp, Dir: tmp, Env: []string{"TMPDIR=" + tmp}, Probe: []string{"-c", ":"}, Require: true})
	require.NoError(t, err)
	require.True(t, p.Sandboxed)
	out, err := io.ReadAll(p.Stdout)
	require.NoError(t, err)
	require.NoError(t, p.Wait())
	assert.Equal(t, "wrote tmp\npid 1\n", string(out), "the runtime is the first process of its own PID namespace")
	assert.FileExists(t, filepath.Join(tmp, "ok"))
}

// TestNothingOutlivesTheSandbox: a process the runtime leaves running in
// the background is gone once Wait returns.
func TestNothingOutlivesTheSandbox(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	if err := Check(Spec{Runtime: "/bin/sh", Probe: []string{"-c", ":"}}); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the sandbox is missing in CI: %v", err)
		}
		t.Skipf("skipping: %v", err)
	}
	tmp := t.TempDir()
	marker := "deskcheck-left-behind-" + filepath.Base(tmp)
	p, err := Start(context.Background(), Spec{Runtime: "/bin/sh", Args: []string{"-c", "(exec >/dev/null 2>&1; while :; do :; done) & echo started # " + marker},
		Temp: tmp, Dir: tmp, Probe: []string{"-c", ":"}, Require: true})
	require.NoError(t, err)
	out, err := io.ReadAll(p.Stdout)
	require.NoError(t, err)
	assert.Equal(t, "started\n", string(out))
	_ = p.Wait()
	entries, err := os.ReadDir("/proc")
	require.NoError(t, err)
	for _, e := range entries {
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(cmdline), marker) {
			t.Errorf("process %s is still running: %q", e.Name(), cmdline)
		}
	}
}

// TestOverlaySeenInPlace: a file mounted over another is what the runtime
// reads at the other's path, read-only, while the file on the host is
// untouched; where bubblewrap cannot be had, a run asking for one is
// refused rather than run with the file it covers.
func TestOverlaySeenInPlace(t *testing.T) {
	tmp := t.TempDir()
	release := t.TempDir()
	placeholder := filepath.Join(release, "addon.node")
	require.NoError(t, os.WriteFile(placeholder, nil, 0o644))
	inflated := filepath.Join(tmp, "addons", "addon.node")
	require.NoError(t, os.MkdirAll(filepath.Dir(inflated), 0o700))
	require.NoError(t, os.WriteFile(inflated, []byte("the addon\n"), 0o600))

	_, err := Start(context.Background(), Spec{Runtime: "/bin/true", Temp: tmp, Dir: tmp, NoSandbox: true,
		Over: []Overlay{{From: inflated, To: placeholder}}})
	assert.ErrorIs(t, err, ErrNoOverlay)

	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	args, _, err := arguments(Spec{Runtime: "/bin/sh", ReadOnly: []string{release}, Temp: tmp, Dir: tmp,
		Over: []Overlay{{From: inflated, To: placeholder}}})
	require.NoError(t, err)
	end := slices.Index(args, "--remount-ro")
	require.Positive(t, end)
	assert.Equal(t, []string{"--ro-bind", inflated, placeholder}, args[end-3:end], "mounted after every folder")
	// A mount the spec does not show is refused: a host file over the
	// release, anything over a file outside it or inside the writable
	// folder, and over a path that is no file; links are followed, as
	// bubblewrap follows them, so a link in the release leading out of
	// it (to a file or through a folder) is refused too.
	secret := filepath.Join(t.TempDir(), "secret")
	require.NoError(t, os.WriteFile(secret, []byte("not shown\n"), 0o600))
	require.NoError(t, os.Symlink(secret, filepath.Join(release, "link.node")))
	require.NoError(t, os.Symlink(filepath.Dir(secret), filepath.Join(release, "dirlink")))
	for _, o := range []Overlay{
		{From: "/etc/hostname", To: placeholder},
		{From: inflated, To: "/etc/hostname"},
		{From: inflated, To: inflated},
		{From: inflated, To: filepath.Join(release, "missing.node")},
		{From: inflated, To: release},
		{From: filepath.Join(release, "link.node"), To: placeholder},
		{From: filepath.Join(release, "dirlink", "secret"), To: placeholder},
		{From: inflated, To: filepath.Join(release, "link.node")},
		{From: inflated, To: filepath.Join(release, "dirlink", "secret")},
	} {
		_, _, err := arguments(Spec{Runtime: "/bin/sh", ReadOnly: []string{release}, Temp: tmp, Dir: tmp, Over: []Overlay{o}})
		assert.Error(t, err, "%+v", o)
	}
	// The file mounted over is named as the read-only folder is: through
	// a link to the release, the release as written is not shown, and the
	// other way round.
	alias := filepath.Join(t.TempDir(), "alias")
	require.NoError(t, os.Symlink(release, alias))
	for _, c := range []struct {
		readOnly, to string
		ok           bool
	}{
		{alias, filepath.Join(alias, "addon.node"), true},
		{alias, placeholder, false},
		{release, filepath.Join(alias, "addon.node"), false},
	} {
		_, _, err := arguments(Spec{Runtime: "/bin/sh", ReadOnly: []string{c.readOnly}, Temp: tmp, Dir: tmp,
			Over: []Overlay{{From: inflated, To: c.to}}})
		if c.ok {
			assert.NoError(t, err, "%+v", c)
		} else {
			assert.Error(t, err, "%+v", c)
		}
	}

	if err := Check(Spec{Runtime: "/bin/sh", Probe: []string{"-c", ":"}}); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the sandbox is missing in CI: %v", err)
		}
		t.Skipf("skipping: %v", err)
	}
	script := `while IFS= read -r l; do echo "$l"; done < "$1"; echo changed > "$1" 2>/dev/null && echo "wrote it"; :`
	p, err := Start(context.Background(), Spec{Runtime: "/bin/sh", Args: []string{"-c", script, "sh", placeholder},
		ReadOnly: []string{release, filepath.Dir(inflated)}, Temp: tmp, Dir: tmp, Probe: []string{"-c", ":"}, Require: true,
		Over: []Overlay{{From: inflated, To: placeholder}}})
	require.NoError(t, err)
	out, err := io.ReadAll(p.Stdout)
	require.NoError(t, err)
	require.NoError(t, p.Wait())
	assert.Equal(t, "the addon\n", string(out))
	data, err := os.ReadFile(placeholder)
	require.NoError(t, err)
	assert.Empty(t, data, "the host's file is untouched")
}

// TestPlaceholdersAreTheNullDevice: a placeholder is there for code that
// checks a path exists, and is nothing a process can run or read a byte
// from; one that would hide or stand in a path the spec shows is refused.
func TestPlaceholdersAreTheNullDevice(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	tmp := t.TempDir()
	release := t.TempDir()
	args, isolation, err := arguments(Spec{Runtime: "/bin/sh", ReadOnly: []string{release}, Temp: tmp, Dir: tmp,
		Placeholders: []string{"/opt/deskcheck-test/shell"}})
	require.NoError(t, err)
	end := slices.Index(args, "--remount-ro")
	require.Positive(t, end)
	assert.Equal(t, []string{"--ro-bind", "/dev/null", "/opt/deskcheck-test/shell"}, args[end-3:end])
	assert.Contains(t, isolation, "the null device, which nothing can run, is seen at /opt/deskcheck-test/shell")
	for _, p := range []string{"bin/bash", "/bin/../bin/bash", "/", tmp, filepath.Join(tmp, "x"), filepath.Dir(tmp),
		release, filepath.Join(release, "x"), "/proc/self/exe", "/dev/null", "/bin/sh"} {
		_, _, err := arguments(Spec{Runtime: "/bin/sh", ReadOnly: []string{release}, Temp: tmp, Dir: tmp, Placeholders: []string{p}})
		assert.Error(t, err, p)
	}

	if err := Check(Spec{Runtime: "/bin/sh", Probe: []string{"-c", ":"}}); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the sandbox is missing in CI: %v", err)
		}
		t.Skipf("skipping: %v", err)
	}
	const shell = "/opt/deskcheck-test/shell"
	script := `[ -e ` + shell + ` ] && echo there; ` + shell + ` -c 'echo ran' 2>/dev/null || echo "cannot run"; ` +
		`n=0; while IFS= read -r l; do n=$((n+1)); done < ` + shell + `; echo "read $n lines"; :`
	p, err := Start(context.Background(), Spec{Runtime: "/bin/sh", Args: []string{"-c", script}, Temp: tmp, Dir: tmp,
		Probe: []string{"-c", ":"}, Require: true, Placeholders: []string{shell}})
	require.NoError(t, err)
	out, err := io.ReadAll(p.Stdout)
	require.NoError(t, err)
	require.NoError(t, p.Wait())
	assert.Equal(t, "there\ncannot run\nread 0 lines\n", string(out))
	_, err = os.Stat(shell)
	assert.True(t, os.IsNotExist(err), "nothing is made on the host")
}

// TestBindsSeenAtFixedPaths: a folder of the run is also seen at a fixed
// path, writable as the run's folder is, and the runtime can start there;
// a bind that would show anything else, or hide what the spec shows, is
// refused; without bubblewrap a run asking for one is refused, never run
// with other paths.
func TestBindsSeenAtFixedPaths(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	tmp := t.TempDir()
	release := t.TempDir()
	ws := filepath.Join(tmp, "ws")
	home := filepath.Join(tmp, "home")
	require.NoError(t, os.MkdirAll(ws, 0o755))
	require.NoError(t, os.MkdirAll(home, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(tmp, "file"), nil, 0o600))
	outside := t.TempDir()
	require.NoError(t, os.Symlink(outside, filepath.Join(tmp, "out")))

	_, err := Start(context.Background(), Spec{Runtime: "/bin/true", Temp: tmp, Dir: "/workspace", NoSandbox: true,
		Binds: []Bind{{From: ws, To: "/workspace"}}})
	assert.ErrorIs(t, err, ErrNoBind)

	spec := Spec{Runtime: "/bin/sh", ReadOnly: []string{release}, Temp: tmp, Dir: "/workspace",
		Binds: []Bind{{From: ws, To: "/workspace"}, {From: home, To: "/home/user"}}}
	args, isolation, err := arguments(spec)
	require.NoError(t, err)
	tempAt := slices.Index(args, "--bind")
	require.GreaterOrEqual(t, tempAt, 0)
	assert.Equal(t, []string{"--bind", tmp, tmp}, args[tempAt:tempAt+3], "the run's folder first")
	rest := args[tempAt+3:]
	i := slices.Index(rest, "/workspace")
	require.Positive(t, i)
	assert.Equal(t, []string{"--bind", ws, "/workspace", "--bind", home, "/home/user"}, rest[i-2:i+4])
	assert.Equal(t, []string{"--chdir", "/workspace"}, args[slices.Index(args, "--chdir"):slices.Index(args, "--chdir")+2])
	assert.Contains(t, isolation, "its folder ws seen at /workspace, its folder home seen at /home/user")
	assert.Equal(t, ws, hostDir(spec), "bubblewrap itself starts in the folder seen at Dir")
	assert.Equal(t, filepath.Join(ws, "a"), hostDir(Spec{Dir: "/workspace/a", Binds: spec.Binds}))
	assert.Equal(t, tmp, hostDir(Spec{Dir: tmp, Binds: spec.Binds}))

	for _, c := range []struct {
		name  string
		binds []Bind
		holds string
	}{
		{"from outside the temporary folder", []Bind{{From: outside, To: "/workspace"}}, "not a folder in the temporary one"},
		{"from a link leading out of it", []Bind{{From: filepath.Join(tmp, "out"), To: "/workspace"}}, "not a folder in the temporary one"},
		{"from a file", []Bind{{From: filepath.Join(tmp, "file"), To: "/workspace"}}, "not a folder"},
		{"from nothing", []Bind{{From: filepath.Join(tmp, "missing"), To: "/workspace"}}, "no such file"},
		{"to a relative path", []Bind{{From: ws, To: "workspace"}}, "not a clean absolute path"},
		{"to an unclean path", []Bind{{From: ws, To: "/x/../workspace"}}, "not a clean absolute path"},
		{"to the root", []Bind{{From: ws, To: "/"}}, "not a clean absolute path"},
		{"to the temporary folder", []Bind{{From: ws, To: tmp}}, "would hide or stand in"},
		{"into the temporary folder", []Bind{{From: ws, To: filepath.Join(tmp, "w")}}, "would hide or stand in"},
		{"over the temporary folder's parent", []Bind{{From: ws, To: filepath.Dir(tmp)}}, "would hide or stand in"},
		{"over the release", []Bind{{From: ws, To: release}}, "would hide or stand in"},
		{"into the release", []Bind{{From: ws, To: filepath.Join(release, "x")}}, "would hide or stand in"},
		{"over the runtime", []Bind{{From: ws, To: "/bin/sh"}}, "would hide or stand in"},
		{"into /proc", []Bind{{From: ws, To: "/proc/self"}}, "would hide or stand in"},
		{"over /dev", []Bind{{From: ws, To: "/dev"}}, "would hide or stand in"},
		{"two overlapping", []Bind{{From: ws, To: "/workspace"}, {From: home, To: "/workspace/home"}}, "overlap"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := arguments(Spec{Runtime: "/bin/sh", ReadOnly: []string{release}, Temp: tmp, Dir: tmp, Binds: c.binds})
			assert.ErrorContains(t, err, c.holds)
		})
	}
	_, _, err = arguments(Spec{Runtime: "/bin/sh", Temp: tmp, Dir: tmp, Binds: []Bind{{From: ws, To: "/workspace"}},
		Placeholders: []string{"/workspace/bash"}})
	assert.ErrorContains(t, err, "would hide or stand in /workspace", "a placeholder does not hide a bound folder")

	if err := Check(Spec{Runtime: "/bin/sh", Probe: []string{"-c", ":"}}); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the sandbox is missing in CI: %v", err)
		}
		t.Skipf("skipping: %v", err)
	}
	script := `pwd; echo x > /workspace/made && echo "wrote it"; [ -e /workspace/made ] && echo "seen"; :`
	p, err := Start(context.Background(), Spec{Runtime: "/bin/sh", Args: []string{"-c", script}, Temp: tmp, Dir: "/workspace",
		Probe: []string{"-c", ":"}, Require: true, Binds: []Bind{{From: ws, To: "/workspace"}}})
	require.NoError(t, err)
	assert.Contains(t, p.Isolation, "its folder ws seen at /workspace")
	out, err := io.ReadAll(p.Stdout)
	require.NoError(t, err)
	require.NoError(t, p.Wait())
	assert.Equal(t, "/workspace\nwrote it\nseen\n", string(out))
	assert.FileExists(t, filepath.Join(ws, "made"), "what is written there lands in the run's folder")
	_, err = os.Stat("/workspace/made")
	assert.True(t, os.IsNotExist(err), "nothing is made on the host at the fixed path")
}
