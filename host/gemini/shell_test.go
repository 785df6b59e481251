package gemini

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The parts observed on the real parser (tree-sitter-bash), identical on
// every modelled release.
func TestParseShellParts(t *testing.T) {
	tests := []struct {
		command string
		parts   []string
		redir   bool
		err     bool
	}{
		{"git status && git push", []string{"git status", "git push"}, false, false},
		{"git status; git push", []string{"git status", "git push"}, false, false},
		{"git pull || git push", []string{"git pull", "git push"}, false, false},
		{"git status\ngit push", []string{"git status", "git push"}, false, false},
		{"git log | grep fix", []string{"git log", "grep fix"}, false, false},
		{"git push &", []string{"git push"}, false, false},
		{"git push # comment", []string{"git push"}, false, false},
		{"{ git push; }", []string{"git push"}, false, false},
		{"(git push)", []string{"(git push)", "git push"}, false, false},
		{"echo $(git push)", []string{"echo $(git push)", "$(git push)", "git push"}, false, false},
		{"echo `git push`", []string{"echo `git push`", "`git push`", "git push"}, false, false},
		{"x=$(git push)", []string{"$(git push)", "git push"}, false, false},
		{"git log > out.txt", []string{"git log", "> out.txt"}, true, false},
		{"git log 2>&1", []string{"git log", "2>&1"}, true, false},
		{"echo hi >> notes.txt", []string{"echo hi", ">> notes.txt"}, true, false},
		{"cat < in.txt", []string{"cat", "< in.txt"}, true, false},
		{"echo 'a > b'", []string{"echo 'a > b'"}, false, false},
		{"GIT_TRACE=1 git push", []string{"GIT_TRACE=1 git push"}, false, false},
		{"git  push", []string{"git  push"}, false, false},
		{"echo 'unterminated", []string{"echo"}, false, true},
		{"'unterminated", nil, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			assertParts(t, tt.command, tt.parts, tt.redir, tt.err || len(tt.parts) == 0)
		})
	}
}

// assertParts parses command and holds its parts' texts, whether it
// redirects and whether the parse has an error.
func assertParts(t *testing.T, command string, parts []string, redir, hasError bool) {
	t.Helper()
	p, err := ParseShell(command)
	require.NoError(t, err)
	var texts []string
	for _, part := range p.Parts {
		texts = append(texts, part.Text)
	}
	assert.Equal(t, parts, texts)
	assert.Equal(t, redir, HasRedirection(command, p), "HasRedirection")
	assert.Equal(t, hasError, p.HasError, "HasError")
}

// TestParseShellOutsideModel: the model refuses what it does not parse
// (shell-outside-model) rather than guess: the bash it leaves out, and the
// places where tree-sitter-bash reads a command in a way it does not
// follow.
func TestParseShellOutsideModel(t *testing.T) {
	for _, c := range []string{
		"cat <<EOF\nx\nEOF", "diff <(ls) <(ls)", "if true; then ls; fi", "echo $((1+2))", "[[ -f x ]]", "f() { ls; }", "&& ls", "ls &&",
		"--x=1",            // an assignment to tree-sitter, not to bash
		"-1=2",             // an error to tree-sitter
		"\u00e9=1",         // a non-ASCII name
		"1a=1ls",           // a name starting with a digit
		"echo `ls` `rm x`", // `\s*` joins the two into one substitution
		"echo `a``b`",
		"echo ``",
		"> out a=1", // assignments and redirections mixed with no command
		">x >y a=1",
		"a=1 >x; ls",
		"ls | a=1 >x",
		"ls <>x",             // <> before a word
		"ls >&- x",           // a word after >&-
		"\\  2>&1 x",         // a number after a backslash blank
		"echo `ls # x`\nls",  // a comment over a backtick, with lines after
		"echo \"`ls #x`\" y", // the same inside a quote
		"echo `echo '`'`",    // a backtick inside a quote inside backticks
	} {
		t.Run(c, func(t *testing.T) {
			_, err := ParseShell(c)
			var outside *ErrShellOutsideModel
			assert.ErrorAs(t, err, &outside)
		})
	}
}

func TestStripShellWrapper(t *testing.T) {
	assert.Equal(t, "git push", StripShellWrapper("bash -c 'git push'"))
	assert.Equal(t, "git push", StripShellWrapper(`/bin/sh -c "git push"`))
	assert.Equal(t, "bash -lc 'ls'", StripShellWrapper("bash -lc 'ls'"))
	assert.Equal(t, "ls", StripShellWrapper("  ls  "))
}

func TestHeuristicArgs(t *testing.T) {
	args, err := heuristicArgs(`echo $(git push) "a b" $HOME *.go # note`)
	require.NoError(t, err)
	assert.Equal(t, []string{"echo", "$", "(", "git", "push", ")", "a b", "", "*.go", ""}, args)
	_, err = heuristicArgs("echo ${}")
	assert.ErrorIs(t, err, errBadSubstitution)
}

func TestSafetyByGroup(t *testing.T) {
	args := func(s string) []string {
		a, err := heuristicArgs(s)
		require.NoError(t, err)
		return a
	}
	assert.True(t, G6.knownSafe(args("ls -la"), Workspace))
	assert.True(t, G1.knownSafe(args("rg foo"), Workspace))
	assert.False(t, G2.knownSafe(args("rg foo"), Workspace))
	assert.True(t, G4.knownSafe(args("head /etc/hosts"), Workspace))
	assert.False(t, G5.knownSafe(args("head /etc/hosts"), Workspace))
	assert.False(t, G5.knownSafe(args("cat ../x"), Workspace))
	assert.True(t, G6.knownSafe(args("bash -lc 'ls && pwd'"), Workspace))
	assert.True(t, G6.dangerous(args("rm -rf x")))
	assert.False(t, G6.dangerous(args("rm -r x")))
	assert.False(t, G6.dangerous(args("rm x -rf")))
	assert.True(t, G6.dangerous(args("find . -delete")))
	assert.True(t, G6.dangerous(args("git -c core.pager=x log")))
	assert.False(t, G4.dangerous(args("ln -s a b")))
	assert.True(t, G5.dangerous(args("ln -s a b")))
	assert.True(t, containsGit(args("FOO=1 git status")))
	assert.False(t, containsGit(args("echo git")))
}
