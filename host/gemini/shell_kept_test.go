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

// A fault still changes the verdict it changes when the command's parse is
// kept from a check without it, and the check after it is the correct one
// again.
func TestParseShellKeptFaultStillChanges(t *testing.T) {
	call := Call{Name: "run_shell_command", Args: map[string]any{"command": "git status && rm -rf /tmp/x"}, HasArgs: true}
	decide := func(faults Faults) string {
		e, err := NewEngine(Config{Release: Newest(), Mode: ModeDefault, Interactive: true, Faults: faults,
			Settings: Settings{ToolsAllowed: []string{"run_shell_command(git status)"}, ToolsCore: []string{}}})
		require.NoError(t, err)
		res, err := e.Check(call)
		require.NoError(t, err)
		return res.Decision
	}
	tests := []struct {
		name   string
		faults Faults
		want   string
	}{
		{"correct", Faults{}, Deny},
		{"chain-not-split", Faults{}.With(FaultChainNotSplit), Allow},
		{"correct again", Faults{}, Deny},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, decide(tt.faults))
		})
	}
}
