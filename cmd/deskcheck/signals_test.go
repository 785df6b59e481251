package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/reports/folder"
)

// signalChild is the environment variable that makes TestSignalChild the
// child of TestSignalsRemoveTemporaryFiles: what it is to write, and where.
const signalChild = "DESKCHECK_SIGNAL_CHILD"

// TestSignalChild, in a child process, catches signals as deskcheck does
// and starts a write that never ends: a report folder whose file is being
// rendered, or a desk observe -w has its new text ready for. It says
// "inside" on standard output once the temporary file or folder exists.
func TestSignalChild(t *testing.T) {
	mode, dir, ok := strings.Cut(os.Getenv(signalChild), ":")
	if !ok {
		t.Skip("run as a child of TestSignalsRemoveTemporaryFiles")
	}
	catchSignals()
	inside := func() {
		fmt.Println("inside")
		select {}
	}
	switch mode {
	case "report":
		folder.Writer{}.Write(filepath.Join(dir, "rep"), []folder.File{{Name: "report.json", Render: func(w io.Writer) error {
			w.Write([]byte("{"))
			inside()
			return nil
		}}})
	case "observe":
		t.Setenv("CI", "")
		beforeCommit = func(string) { inside() }
		run([]string{"observe", "-w", "-run", "boundary-approval-does-not-persist$", filepath.Join(dir, "desk.json")}, os.Stdout, os.Stderr)
	}
	t.Fatal("the write ended")
}

// TestSignalsRemoveTemporaryFiles: each signal that ends a run, sent while
// a report folder or a rewritten desk is being written, ends the process
// as the signal does and leaves no temporary file or folder behind.
func TestSignalsRemoveTemporaryFiles(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM or SIGHUP to send")
	}
	broken, _, _ := twoBroken(t)
	for _, mode := range []string{"report", "observe"} {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
			t.Run(mode+" "+sig.String(), func(t *testing.T) {
				dir := t.TempDir()
				require.NoError(t, os.WriteFile(filepath.Join(dir, "desk.json"), broken, 0o600))
				cmd := exec.Command(os.Args[0], "-test.run=^TestSignalChild$", "-test.count=1")
				cmd.Env = append(os.Environ(), signalChild+"="+mode+":"+dir)
				var errOut bytes.Buffer
				cmd.Stderr = &errOut
				out, err := cmd.StdoutPipe()
				require.NoError(t, err)
				require.NoError(t, cmd.Start())
				lines := bufio.NewScanner(out)
				reached := false
				for lines.Scan() {
					if lines.Text() == "inside" {
						reached = true
						break
					}
				}
				if !reached {
					cmd.Process.Kill()
					cmd.Wait()
					t.Fatalf("the child never reached the write:\n%s", errOut.String())
				}
				temps, err := filepath.Glob(filepath.Join(dir, ".*"))
				require.NoError(t, err)
				require.Len(t, temps, 1, "the write's temporary file or folder exists")
				require.NoError(t, cmd.Process.Signal(sig))
				err = cmd.Wait()
				var exit *exec.ExitError
				require.True(t, errors.As(err, &exit), "the signal ends the child: %v", err)
				status := exit.Sys().(syscall.WaitStatus)
				assert.True(t, status.Signaled() && status.Signal() == sig || status.ExitStatus() == 128+int(sig), "ended by %v: %v", sig, status)
				temps, err = filepath.Glob(filepath.Join(dir, ".*"))
				require.NoError(t, err)
				assert.Empty(t, temps, "no temporary file or folder is left")
				got, err := os.ReadFile(filepath.Join(dir, "desk.json"))
				require.NoError(t, err)
				assert.Equal(t, string(broken), string(got), "the desk is as it was")
			})
		}
	}
}

// TestReportBytesBound: the report files are bounded by
// -max-report-bytes (1 GiB by default); past it no folder is written and
// no temporary one is left.
func TestReportBytesBound(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI(t, "verify", "-out", filepath.Join(dir, "rep"), "-max-report-bytes", "1000")
	assert.Equal(t, 2, code)
	assert.Contains(t, out, "passed, 0 failed", "the results stand")
	assert.Contains(t, errOut, "the report files would exceed 1000 bytes, the limit; select fewer cases with -run or raise the limit with -max-report-bytes")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries)
	for _, bad := range []string{"0", "-5", "1e9", "lots"} {
		code, _, errOut := runCLI(t, "verify", "-out", filepath.Join(dir, "rep"), "-max-report-bytes", bad)
		assert.Equal(t, 2, code, bad)
		assert.Contains(t, errOut, "a whole number of bytes, at least 1", bad)
	}
	assert.Equal(t, int64(1<<30), int64(defaultReportBytes))
}
