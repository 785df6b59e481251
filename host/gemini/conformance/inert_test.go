package conformance

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/gemini/geminicheck"
	"github.com/deskcheck/deskcheck/host/gemini/realhost"
)

// TestInertUnderStrace runs the bundled desk and the releases desk on
// 0.61.0 under strace -f: the run starts no program but node, opens no
// socket, and every call that changes a file lies inside the run's folder.
func TestInertUnderStrace(t *testing.T) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("strace is missing")
		}
		t.Skip("strace is missing")
	}
	core, node := installed(t, "0.61.0")
	root := t.TempDir()
	cmd, err := realhost.Prepare(filepath.Join(root, "run"), core, node)
	require.NoError(t, err)
	trace := filepath.Join(root, "strace.txt")
	traced := cmd
	traced.Program = strace
	traced.Args = append([]string{"-f", "-qq", "-o", trace, "-e", "trace=connect,socket,execve,openat,unlink,unlinkat,rename,renameat2,mkdir,mkdirat,creat,truncate,symlink,link,chmod,fchmodat", node}, cmd.Args...)
	p, err := startTraced(context.Background(), traced)
	require.NoError(t, err)
	n := 0
	for _, c := range deskCases(t) {
		hg, err := geminicheck.HarnessGiven(c.given)
		require.NoError(t, err)
		_, err = p.Check(c.id, hg)
		require.NoError(t, err, c.id)
		n++
	}
	require.NoError(t, p.Close())
	data, err := os.ReadFile(trace)
	require.NoError(t, err)
	changing := regexp.MustCompile(`^\d+\s+(unlink|unlinkat|rename|renameat2|mkdir|mkdirat|creat|truncate|symlink|link|chmod|fchmodat|openat)\((.*)$`)
	quoted := regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`)
	changes := 0
	for _, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, "socket(") || strings.Contains(line, "connect(") {
			t.Errorf("a socket call: %s", line)
		}
		if strings.Contains(line, "execve(") && !strings.Contains(line, "execve(\""+node+"\"") {
			t.Errorf("a program other than node: %s", line)
		}
		m := changing.FindStringSubmatch(line)
		if m == nil || strings.Contains(line, "= -1 ") {
			continue
		}
		if m[1] == "openat" && !regexp.MustCompile(`O_WRONLY|O_RDWR|O_CREAT|O_TRUNC`).MatchString(m[2]) {
			continue
		}
		changes++
		for _, q := range quoted.FindAllStringSubmatch(m[2], -1) {
			p := q[1]
			if !strings.HasPrefix(p, "/") {
				p = filepath.Join(cmd.Dir, p)
			}
			assert.True(t, strings.HasPrefix(p, cmd.Root+"/") || p == cmd.Root, "a change outside the run's folder: %s", line)
		}
	}
	assert.Positive(t, n)
	assert.Positive(t, changes)
	t.Logf("%d cases, %d file-changing calls, all inside %s", n, changes, cmd.Root)
}

// process is a harness started by startTraced.
type process struct {
	*realhost.Session
	cmd   *exec.Cmd
	stdin io.WriteCloser
}

// startTraced runs the command c (strace running node) directly, in a
// process group of its own that ctx's end kills whole, and reads the
// harness's hello.
func startTraced(ctx context.Context, c realhost.Command) (*process, error) {
	cmd := exec.CommandContext(ctx, c.Program, c.Args...)
	cmd.Env, cmd.Dir = c.Env, c.Dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s, err := realhost.NewSession(stdin, stdout)
	if err != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
		return nil, err
	}
	return &process{Session: s, cmd: cmd, stdin: stdin}, nil
}

// Close ends the harness: its stdin closes and it exits.
func (p *process) Close() error {
	_ = p.stdin.Close()
	return p.cmd.Wait()
}
