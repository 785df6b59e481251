package gemini

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ParseShell keeps its parses by command text: a kept parse is the one a
// fresh parse gives, however often it is asked.
func TestParseShellKeptIsFresh(t *testing.T) {
	for _, command := range []string{
		"git status && git push",
		"git log > out.txt",
		"echo 'unterminated",
		"if true; then ls; fi",
		"",
	} {
		t.Run(command, func(t *testing.T) {
			want, wantErr := parseShell(command)
			for range 3 {
				got, err := ParseShell(command)
				assert.Equal(t, wantErr, err)
				assert.Equal(t, want, got)
			}
		})
	}
}

// heuristicArgs keeps its words by command text as ParseShell keeps parses.
func TestHeuristicArgsKeptIsFresh(t *testing.T) {
	for _, command := range []string{"rm -rf x", `echo "a b" $HOME`, "echo ${}", ""} {
		t.Run(command, func(t *testing.T) {
			want, wantErr := heuristicArgsOf(command)
			for range 3 {
				got, err := heuristicArgs(command)
				assert.Equal(t, wantErr, err)
				assert.Equal(t, want, got)
			}
		})
	}
}

// byText keeps at most maxKept results, and none of a text longer than
// maxKeptText; past that it still answers, from the function.
func TestByTextBounded(t *testing.T) {
	var b byText[int]
	calls := 0
	f := func(s string) int { calls++; return len(s) }
	long := string(make([]byte, maxKeptText+1))
	tests := []struct {
		name  string
		text  string
		calls int // calls of f after two gets
	}{
		{"kept", "a", 1},
		{"too long", long, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls = 0
			assert.Equal(t, len(tt.text), b.get(tt.text, f))
			assert.Equal(t, len(tt.text), b.get(tt.text, f))
			assert.Equal(t, tt.calls, calls)
		})
	}
	for i := 0; i < maxKept; i++ {
		b.get(string(rune('b'+i)), f)
	}
	calls = 0
	b.get("full", f)
	b.get("full", f)
	assert.Equal(t, 2, calls, "a full byText keeps nothing more")
}

// A fault still changes the verdict it changes when the command's parse is
// kept from a check without it, and the check after it is the correct one
// again.
func TestParseShellKeptFaultStillChanges(t *testing.T) {
	chain, known, wrapped := "git status && rm -rf /tmp/x", "ls -la", "bash -c 'git push'"
	decide := func(command string, faults Faults) string {
		call := Call{Name: "run_shell_command", Args: map[string]any{"command": command}, HasArgs: true}
		var s Settings
		switch command {
		case chain:
			s.ToolsAllowed = []string{"run_shell_command(git status)"}
		case wrapped:
			s.ToolsAllowed = []string{"run_shell_command(bash)"}
			s.ToolsExclude = []string{"run_shell_command(git push)"}
		}
		e, err := NewEngine(Config{Release: Newest(), Mode: ModeDefault, Interactive: true, Trusted: true, Faults: faults, Settings: s})
		require.NoError(t, err)
		res, err := e.Check(call)
		require.NoError(t, err)
		return res.Decision
	}
	tests := []struct {
		name    string
		command string
		faults  Faults
		want    string
	}{
		{"chain correct", chain, Faults{}, Deny},
		{"chain-not-split", chain, Faults{}.With(FaultChainNotSplit), Allow},
		{"chain correct again", chain, Faults{}, Deny},
		{"known-safe correct", known, Faults{}, Allow},
		{"known-safe-off", known, Faults{}.With(FaultKnownSafeOff), AskUser},
		{"known-safe correct again", known, Faults{}, Allow},
		{"wrapper correct", wrapped, Faults{}, Deny},
		{"wrapper-not-unwrapped", wrapped, Faults{}.With(FaultWrapperNotUnwrapped), Allow},
		{"wrapper correct again", wrapped, Faults{}, Deny},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, decide(tt.command, tt.faults))
		})
	}
}
