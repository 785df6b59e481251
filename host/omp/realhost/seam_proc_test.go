package realhost_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	driver "github.com/deskcheck/deskcheck/realhost"
)

// TestTimeLimitKillsTheHarness: a harness whose time limit ends before it
// can say hello is killed, with its process group, and Start says so.
func TestTimeLimitKillsTheHarness(t *testing.T) {
	in := installedForTest(t, "18.1.16")
	h, err := openRelease(in, driver.Bounds{Limit: time.Nanosecond})
	require.Error(t, err)
	assert.Nil(t, h)
	assert.Contains(t, err.Error(), "the harness did not start")
}

// TestWithoutSandboxSaysSo: a published release run without the sandbox
// says so in the hello (and so in every report).
func TestWithoutSandboxSaysSo(t *testing.T) {
	in := installedForTest(t, "18.1.16")
	h, err := openRelease(in, driver.Bounds{NoSandbox: true})
	require.NoError(t, err)
	defer h.Close()
	hello := h.Info()
	assert.Contains(t, hello.Isolation, "NO SANDBOX (not asked for)")
	assert.Contains(t, hello.Isolation, "no new network namespace (not asked for)")
	assert.Equal(t, "18.1.16", hello.Release)
	assert.Equal(t, "1.4.2", hello.Bun)
	assert.True(t, hello.Modules["tools/approval.ts"])
	assert.Contains(t, hello.Adaptations, "rpc select: the release's requestRpcSelect")
	answers, err := h.RunAll([]driver.Request{{Scenario: "classify-error", Given: `{"message": "EACCES: permission denied"}`}, {Scenario: "nope"}})
	require.NoError(t, err)
	assert.Equal(t, true, answers[0].Observed["permissionDenied"])
	assert.Contains(t, answers[1].Error, "unknown scenario")
}
