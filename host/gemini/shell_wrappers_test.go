package gemini

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each release's stripShellWrapper, as read in its utils/shell-utils.js:
// 0.40.0 and 0.45.0 only remove the outer quotes, 0.44.1 also peels the
// trap ” HUP; guard, 0.50.0 on unescape a double-quoted -c script.
func TestStripShellWrapperByRelease(t *testing.T) {
	old := []string{"0.40.0", "0.45.0"}
	all := []string{"0.40.0", "0.44.1", "0.45.0", "0.50.0", "0.52.0", "0.55.0", "0.58.0", "0.59.0", "0.60.0", "0.61.0"}
	newer := all[3:]
	tests := []struct {
		name     string
		command  string
		releases []string
		want     string
	}{
		{"escapes kept before 0.50.0", `bash -c "git \"push\""`, []string{"0.40.0", "0.44.1", "0.45.0"}, `git \"push\"`},
		{"escapes undone from 0.50.0", `bash -c "git \"push\""`, newer, `git "push"`},
		{"-C is no POSIX -c to the unescaping", `bash -C "git \"push\""`, all, `git \"push\"`},
		{"guard peeled by 0.44.1", `bash -c "trap '' HUP; git push"`, []string{"0.44.1"}, "git push"},
		{"guard kept elsewhere", `bash -c "trap '' HUP; git push"`, append(append([]string{}, old...), newer...), "trap '' HUP; git push"},
		{"guard peeled from a command with no wrapper", "  trap '' HUP; ls", []string{"0.44.1"}, "ls"},
		{"no guard without its space", "trap '' HUP;ls", []string{"0.44.1"}, "trap '' HUP;ls"},
		{"the guard alone is nothing", `bash -c "trap '' HUP;"`, []string{"0.44.1"}, ""},
		{"a lone quote stays", `bash -c "`, all, `"`},
		{"single quotes removed", "bash -c 'ls -la'", all, "ls -la"},
		{"ASCII letters fold", "BASH -c 'ls'", all, "ls"},
		{"a long s is no s", "ba\u017fh -c 'git push'", all, "ba\u017fh -c 'git push'"},
		{"-NoProfile folds in ASCII", "powershell -noprofile -command 'ls'", all, "ls"},
		{"no wrapper: trimmed", "  git push  ", all, "git push"},
	}
	for _, tt := range tests {
		for _, v := range tt.releases {
			t.Run(tt.name+"/"+v, func(t *testing.T) {
				r, err := Lookup(v)
				require.NoError(t, err)
				assert.Equal(t, tt.want, StripShellWrapperOf(r, tt.command))
			})
		}
	}
}

// The newest release's answer is StripShellWrapper's.
func TestStripShellWrapperIsNewest(t *testing.T) {
	for _, command := range []string{`bash -c "git \"push\""`, `bash -c "trap '' HUP; ls"`, "sh -c 'x'"} {
		assert.Equal(t, StripShellWrapperOf(Newest(), command), StripShellWrapper(command), command)
	}
}

// A wrapped script is checked as its release unwraps it.
func TestWrapperCheckedByRelease(t *testing.T) {
	tests := []struct {
		name, command, rule string
		want                map[string]string // release → decision
	}{
		{
			"escaped quotes", `bash -c "git \"push\""`, `commandPrefix = 'git "push"'`,
			map[string]string{"0.40.0": AskUser, "0.44.1": AskUser, "0.45.0": AskUser, "0.50.0": Deny, "0.61.0": Deny},
		},
		{
			"HUP guard", `bash -c "trap '' HUP; git push"`, `commandPrefix = "trap"`,
			map[string]string{"0.40.0": Deny, "0.44.1": AskUser, "0.45.0": Deny, "0.61.0": Deny},
		},
		{
			"long s", "ba\u017fh -c 'git push'", `commandPrefix = "git push"`,
			map[string]string{"0.40.0": AskUser, "0.61.0": AskUser},
		},
	}
	for _, tt := range tests {
		for v, want := range tt.want {
			t.Run(tt.name+"/"+v, func(t *testing.T) {
				r, err := Lookup(v)
				require.NoError(t, err)
				e, err := NewEngine(Config{Release: r, Mode: ModeDefault, Interactive: true, Trusted: true, Policies: []PolicyInput{{
					Tier: TierUser, Name: "user.toml",
					Text: "[[rule]]\ntoolName = \"run_shell_command\"\n" + tt.rule + "\ndecision = \"deny\"\npriority = 100\n",
				}}})
				require.NoError(t, err)
				res, err := e.Check(Call{Name: "run_shell_command", Args: map[string]any{"command": tt.command}, HasArgs: true})
				require.NoError(t, err)
				assert.Equal(t, want, res.Decision)
			})
		}
	}
}
