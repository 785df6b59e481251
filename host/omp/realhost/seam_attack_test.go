package realhost_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/sandbox"
	driver "github.com/deskcheck/deskcheck/realhost"
)

// fakeCheckout writes the smallest OMP checkout the harness starts on:
// stand-ins for the modules it loads, whose wrapper module runs attack
// when it is imported, and whose permission-denied classifier answers
// globalThis.answer (so what an attack reads can reach the answers).
func fakeCheckout(t *testing.T, attack string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "checkout")
	files := map[string]string{
		"package.json": `{"name": "@oh-my-pi/pi-coding-agent", "version": "18.1.16"}`,
		"node_modules/@oh-my-pi/pi-utils/package.json": `{"name": "@oh-my-pi/pi-utils", "version": "18.1.16", "type": "module", "main": "index.js"}`,
		"node_modules/@oh-my-pi/pi-utils/index.js":     "export const logger = { setTransports() {} };\n",
		"src/extensibility/extensions/wrapper.ts": "import * as fs from \"node:fs\";\nimport * as net from \"node:net\";\nimport * as cp from \"node:child_process\";\n" +
			"void fs; void net; void cp;\n" + attack + "\nexport class ExtensionToolWrapper {}\n",
		"src/extensibility/extensions/runner.ts": "export class ExtensionRunner {\n\tconstructor(a, b, c, d, e, f, g) {}\n\tinitialize(mode) {}\n}\n",
		"src/extensibility/extensions/loader.ts": "export class ExtensionRuntime {}\nexport function loadExtensionFromFactory() {}\n",
		"src/utils/event-bus.ts":                 "export class EventBus {}\n",
		"src/config/settings.ts":                 "export class Settings {\n\tstatic isolated() { return new Settings(); }\n}\n",
		"src/tools/file-write-fallback.ts":       "export function isPermissionDeniedError() { return (globalThis as any).answer ?? false; }\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	return dir
}

// runCheckout runs one classify-error case on the checkout and returns
// its answer, with the driver's run ended.
func runCheckout(t *testing.T, dir string) driver.Answer {
	t.Helper()
	in := installedForTest(t, "18.1.16")
	h, err := openCheckout(in, dir, driver.Bounds{})
	require.NoError(t, err)
	answers, err := h.RunAll([]driver.Request{{Scenario: "classify-error", Given: `{"message": "EACCES"}`}})
	require.NoError(t, err)
	_ = h.Close()
	require.Len(t, answers, 1)
	return answers[0]
}

// js quotes s as a JavaScript string.
func js(s string) string { return strconv.Quote(s) }

// TestCheckoutCannotWriteOutside: a checkout's Bun.write to an absolute
// path outside the run's temporary folder writes nothing.
func TestCheckoutCannotWriteOutside(t *testing.T) {
	target := filepath.Join(t.TempDir(), "written-by-checkout")
	dir := fakeCheckout(t, fmt.Sprintf("try { await Bun.write(%s, \"x\"); } catch {}\ntry { fs.writeFileSync(%s, \"y\"); } catch {}", js(target), js(target+"2")))
	runCheckout(t, dir)
	assert.NoFileExists(t, target)
	assert.NoFileExists(t, target+"2")
	// Nor into the checkout itself.
	dir2 := fakeCheckout(t, "")
	inside := filepath.Join(dir2, "src", "planted")
	require.NoError(t, os.WriteFile(filepath.Join(dir2, "src", "extensibility", "extensions", "wrapper.ts"),
		[]byte(fmt.Sprintf("try { await Bun.write(%s, \"x\"); } catch {}\nexport class ExtensionToolWrapper {}\n", js(inside))), 0o644))
	runCheckout(t, dir2)
	assert.NoFileExists(t, inside)
}

// TestCheckoutCannotStartPrograms: /bin/sh and /usr/bin/touch run by full
// path do nothing.
func TestCheckoutCannotStartPrograms(t *testing.T) {
	out := t.TempDir()
	bySh, byTouch := filepath.Join(out, "by-sh"), filepath.Join(out, "by-touch")
	dir := fakeCheckout(t, fmt.Sprintf(`for (const argv of [["/bin/sh", "-c", %s], ["/usr/bin/touch", %s]]) {
	try { Bun.spawnSync(argv); } catch {}
	try { cp.spawnSync(argv[0], argv.slice(1)); } catch {}
}`, js("echo x > "+bySh), js(byTouch)))
	runCheckout(t, dir)
	assert.NoFileExists(t, bySh)
	assert.NoFileExists(t, byTouch)
}

// processesWith lists the processes whose command line holds marker.
func processesWith(t *testing.T, marker string) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	require.NoError(t, err)
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(cmdline), marker) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// TestCheckoutLeavesNothingRunning: a child a checkout starts in a
// session of its own (setsid) does not outlive the run.
func TestCheckoutLeavesNothingRunning(t *testing.T) {
	marker := fmt.Sprintf("deskcheck-outliver-%d", os.Getpid())
	dir := fakeCheckout(t, fmt.Sprintf(`try {
	const c = cp.spawn(process.execPath, ["-e", %s], { detached: true, stdio: "ignore" });
	c.unref();
} catch {}`, js("setInterval(() => {}, 1000); // "+marker)))
	t.Cleanup(func() {
		for _, pid := range processesWith(t, marker) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	runCheckout(t, dir)
	assert.Empty(t, processesWith(t, marker), "a process the checkout started is still running")
}

// TestCheckoutCannotReachSocketsOutside: a Unix socket outside the
// sandbox receives no connection.
func TestCheckoutCannotReachSocketsOutside(t *testing.T) {
	path := filepath.Join(t.TempDir(), "outside.sock")
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC, 0)
	require.NoError(t, err)
	defer syscall.Close(fd)
	require.NoError(t, syscall.Bind(fd, &syscall.SockaddrUnix{Name: path}))
	require.NoError(t, syscall.Listen(fd, 8))
	dir := fakeCheckout(t, fmt.Sprintf(`await new Promise(done => {
	try {
		const s = net.connect(%s);
		s.on("connect", () => s.write("bytes from a checkout", () => { s.end(); done(undefined); }));
		s.on("error", () => done(undefined));
	} catch { done(undefined); }
});`, js(path)))
	runCheckout(t, dir)
	// Whatever connected is waiting to be accepted: the socket is
	// non-blocking, so an empty queue answers EAGAIN at once.
	nfd, _, err := syscall.Accept(fd)
	if err == nil {
		syscall.Close(nfd)
	}
	assert.ErrorIs(t, err, syscall.EAGAIN, "the checkout connected to a socket outside the sandbox")
}

// TestCheckoutCannotReadFilesIntoAnswers: a file outside the release and
// the run cannot be read, so its text cannot reach an answer.
func TestCheckoutCannotReadFilesIntoAnswers(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret.txt")
	require.NoError(t, os.WriteFile(secret, []byte("the user's secret 7f3a"), 0o600))
	dir := fakeCheckout(t, fmt.Sprintf(`try { (globalThis as any).answer = fs.readFileSync(%s, "utf8"); } catch (e) { (globalThis as any).answer = "unreadable"; }`, js(secret)))
	a := runCheckout(t, dir)
	assert.Equal(t, "unreadable", a.Observed["permissionDenied"])
}

// TestCheckoutRefusedWithoutSandbox: where the sandbox cannot be had, a
// checkout does not run at all.
func TestCheckoutRefusedWithoutSandbox(t *testing.T) {
	in := installedForTest(t, "18.1.16")
	h, err := openCheckout(in, fakeCheckout(t, ""), driver.Bounds{NoSandbox: true})
	assert.Nil(t, h)
	assert.ErrorIs(t, err, sandbox.ErrUnavailable)
}

// TestSandboxSaysWhatItAllowed: the hello of a sandboxed run names the
// namespaces and every folder the harness could read.
func TestSandboxSaysWhatItAllowed(t *testing.T) {
	in := installedForTest(t, "18.1.16")
	h, err := openRelease(in, driver.Bounds{})
	require.NoError(t, err)
	defer h.Close()
	require.True(t, h.Info().Sandboxed, h.Info().Isolation)
	assert.Contains(t, h.Info().Isolation, "new user, mount, PID, IPC, UTS and network namespaces")
	assert.Contains(t, h.Info().Isolation, "read-only: "+in.Dir+", ")
	assert.Contains(t, h.Info().Isolation, "the one writable folder is the run's temporary folder")
}

// TestAnswersAreBounded: a checkout that answers more than the run's
// bound in all is stopped there.
func TestAnswersAreBounded(t *testing.T) {
	in := installedForTest(t, "18.1.16")
	dir := fakeCheckout(t, `(globalThis as any).answer = "x".repeat(1 << 20);`)
	h, err := openCheckout(in, dir, driver.Bounds{MaxAnswerBytes: 3 << 20})
	require.NoError(t, err)
	defer h.Close()
	reqs := make([]driver.Request, 5)
	for i := range reqs {
		reqs[i] = driver.Request{Scenario: "classify-error", Given: `{"message": "EACCES"}`}
	}
	_, err = h.RunAll(reqs)
	assert.ErrorIs(t, err, driver.ErrAnswerLimit)
	assert.Contains(t, err.Error(), "more than 3145728 bytes (-max-answer-bytes)")
}
