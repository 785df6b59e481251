package realhost

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTimeLimitKillsTheHarness: a harness whose time limit ends before it
// can say hello is killed, with its process group, and Start says so.
func TestTimeLimitKillsTheHarness(t *testing.T) {
	in := installedForTest(t, "18.1.16")
	spec := ForInstalled(in)
	spec.Limit = time.Nanosecond
	h, err := Start(context.Background(), spec)
	require.Error(t, err)
	assert.Nil(t, h)
	assert.Contains(t, err.Error(), "the harness did not start")
}

// TestWithoutSandboxSaysSo: a published release run without the sandbox
// says so in the hello (and so in every report).
func TestWithoutSandboxSaysSo(t *testing.T) {
	in := installedForTest(t, "18.1.16")
	spec := ForInstalled(in)
	spec.NoSandbox = true
	h, err := Start(context.Background(), spec)
	require.NoError(t, err)
	defer h.Close()
	assert.Contains(t, h.Hello.Isolation, "NO SANDBOX (not asked for)")
	assert.Contains(t, h.Hello.Isolation, "no new network namespace (not asked for)")
	assert.Equal(t, "18.1.16", h.Hello.Release)
	assert.Equal(t, "1.4.2", h.Hello.Bun)
	assert.True(t, h.Hello.Modules["tools/approval.ts"])
	assert.Contains(t, h.Hello.Adaptations, "rpc select: the release's requestRpcSelect")
	answers, err := h.RunAll([]Request{{Scenario: "classify-error", Given: `{"message": "EACCES: permission denied"}`}, {Scenario: "nope"}})
	require.NoError(t, err)
	assert.Equal(t, true, answers[0].Observed["permissionDenied"])
	assert.Contains(t, answers[1].Error, "unknown scenario")
}

func TestParseHostAndReleases(t *testing.T) {
	v, err := ParseHost("omp@18.2.3")
	require.NoError(t, err)
	assert.Equal(t, "18.2.3", v)
	_, err = ParseHost("gateway@1.0.0")
	assert.ErrorContains(t, err, "only the omp host")
	_, err = ParseHost("omp@9.9.9")
	assert.ErrorContains(t, err, "13.19.0, 14.9.9")
	rs := Releases()
	require.Len(t, rs, 12)
	assert.Equal(t, "13.19.0", rs[0].Version)
	assert.Equal(t, "18.3.4", rs[11].Version)
	for _, r := range rs {
		sub := r.Version == "18.2.9" || r.Version == "18.3.4"
		assert.Equal(t, sub, r.Substitute != "", r.Version)
		assert.Equal(t, sub, len(r.Substituted) > 0, r.Version)
	}
}
