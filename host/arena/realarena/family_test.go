package realarena

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/realcode"
)

func TestResolveAnAdapter(t *testing.T) {
	for _, tc := range []struct {
		in, version string
		notOurs     bool
		err         string
	}{
		{in: "arena", version: ""},
		{in: "arena@langgraph", version: "langgraph@1.2.11"},
		{in: "arena@langgraph@1.2.11", version: "langgraph@1.2.11"},
		{in: "arena:vanilla", version: "vanilla@0.1.0"},
		{in: "openai-agents", version: "openai-agents@0.22.0"},
		{in: "openai-agents@0.22.0", version: "openai-agents@0.22.0"},
		{in: "langgraph@1.3.0", err: "langgraph@1.3.0: the langgraph adapter pins LangGraph 1.2.11"},
		{in: "arena@crewai", err: `arena@crewai: unknown adapter "crewai"; the adapters are vanilla, langgraph, openai-agents`},
		{in: "arena@", err: `arena@: unknown adapter ""; the adapters are vanilla, langgraph, openai-agents`},
		{in: "crewai", notOurs: true},
		{in: "gemini@0.61.0", notOurs: true},
	} {
		v, ok, err := resolve(tc.in)
		if tc.err != "" {
			assert.EqualError(t, err, tc.err, tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		assert.Equal(t, !tc.notOurs, ok, tc.in)
		assert.Equal(t, tc.version, v, tc.in)
	}
	assert.Equal(t, []string{"vanilla@0.1.0", "langgraph@1.2.11", "openai-agents@0.22.0"}, Family.Releases())
}

// TestFamilyRefusesWhatIsNotInstalled: opening or removing an adapter
// that is not installed says how to install it, and starts nothing; list
// shows none.
func TestFamilyRefusesWhatIsNotInstalled(t *testing.T) {
	cache := t.TempDir()
	started := false
	start := func(context.Context, realcode.Program) (*realcode.Proc, error) { started = true; return nil, nil }
	_, err := Family.Open(context.Background(), realcode.OpenOptions{Cache: cache, Version: "langgraph@1.2.11", Temp: t.TempDir()}, start)
	assert.ErrorContains(t, err, "the langgraph adapter is not installed at "+filepath.Join(cache, "arena", "langgraph", "venv")+": deskcheck-host install arena:langgraph")
	_, err = Family.Open(context.Background(), realcode.OpenOptions{Cache: cache, Version: "crewai@1.0.0", Temp: t.TempDir()}, start)
	assert.EqualError(t, err, `"crewai@1.0.0" is not an arena adapter; the adapters are vanilla@0.1.0, langgraph@1.2.11, openai-agents@0.22.0`)
	_, err = Family.Open(context.Background(), realcode.OpenOptions{Cache: cache, Source: t.TempDir(), Temp: t.TempDir()}, start)
	assert.ErrorIs(t, err, realcode.ErrSource, "the arena runs no source folder")
	assert.False(t, started)
	assert.ErrorContains(t, Family.Remove(cache, "vanilla@0.1.0"), "the vanilla adapter is not installed in")
	in, err := Family.List(cache)
	require.NoError(t, err)
	assert.Empty(t, in)
}

// TestFamilyAnswersFromTheRecorders: the installed vanilla adapter,
// started through the Start it is handed, answers an arena case with the
// recorders' observation and its boundary counts, a case of another
// scenario as not applicable, and the run's provenance.
func TestFamilyAnswersFromTheRecorders(t *testing.T) {
	py := python(t, "vanilla")
	cache := filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(py)))))
	if os.Getenv("DESKCHECK_ARENA_VENVS") != "" {
		t.Skip("the family runs the venvs of the cache folder")
	}
	var got realcode.Program
	start := func(ctx context.Context, p realcode.Program) (*realcode.Proc, error) {
		got = p
		cmd := exec.Command(p.Runtime, p.Args...)
		cmd.Dir, cmd.Env, cmd.Stderr = p.Dir, p.Env, p.Stderr
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		in, _ := cmd.StdinPipe()
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		return &realcode.Proc{Stdin: in, Stdout: out, Isolation: "test", Kill: func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }, Wait: cmd.Wait}, nil
	}
	temp := t.TempDir()
	h, err := Family.Open(context.Background(), realcode.OpenOptions{Cache: cache, Version: "vanilla@0.1.0", Temp: temp}, start)
	require.NoError(t, err)
	defer h.Close()
	assert.Equal(t, py, got.Runtime)
	assert.Equal(t, temp, got.Temp)
	assert.True(t, strings.HasPrefix(got.Dir, temp+string(filepath.Separator)), "the run folder is inside the driver's temporary folder")
	hello := h.Hello()
	assert.Equal(t, "arena", hello.Name)
	assert.Equal(t, "vanilla@0.1.0", hello.Release)
	assert.Regexp(t, `^CPython 3\.\d+\.\d+$`, hello.Runtime)
	as, err := h.Run(context.Background(), []realcode.Case{
		{ID: "d/denied", Scenario: "arena", Given: []byte(`{"turns":[[{"action":"file.read.protected"}]]}`), Expected: []byte(`{"decisions":["deny"],"reasons":["protected_path"],"effects":0}`)},
		{ID: "d/other", Scenario: "wrapper", Given: []byte(`{}`)},
	})
	require.NoError(t, err)
	require.Len(t, as, 2)
	assert.Equal(t, []any{"deny"}, as[0].Observed["decisions"])
	assert.Equal(t, true, as[0].Observed["traceComplete"])
	require.NotNil(t, as[0].Boundary)
	assert.Equal(t, 1, as[0].Boundary.Denied)
	assert.Equal(t, 1, as[0].Boundary.DeniedVisible)
	assert.Equal(t, "the adapters run arena cases only", as[1].NotApplicable)
	var prov Provenance
	require.NoError(t, json.Unmarshal(h.(realcode.Provenanced).Provenance(), &prov))
	assert.Equal(t, "test", prov.Network)
	assert.Equal(t, 1, len(prov.ObservedOnWire.UserAgents))
}
