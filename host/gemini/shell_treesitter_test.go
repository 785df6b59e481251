package gemini

import (
	"testing"
)

// The parts tree-sitter-bash (the releases' parser, the same in all ten)
// was observed to give for the corners of bash the model now follows:
// redirection targets of several words, backslash blanks, ANSI-C strings,
// a newline before a backslash, nameless redirected assignments, <>, and a
// comment that hides a closing backtick.
func TestParseShellTreeSitterCorners(t *testing.T) {
	tests := []struct {
		command string
		parts   []string
		err     bool
		redir   bool
	}{
		// Every word after a redirection's operator is its target.
		{"git push 2>&1 origin", []string{"git push", "2>&1 origin"}, false, true},
		{"ls > out.txt -la", []string{"ls", "> out.txt -la"}, false, true},
		{"ls > a b 2> c d", []string{"ls", "> a b", "2> c d"}, false, true},
		{"ls > a b | grep x", []string{"ls", "> a b", "grep x"}, false, true},
		{"(ls) > x y", []string{"(ls)", "ls", "> x y"}, false, true},
		{"{ ls; } > x y", []string{"ls", "> x y"}, false, true},
		{"cat <x y z", []string{"cat", "<x y z"}, false, true},
		{"ls 2>&- ; x", []string{"ls", "2>&-", "x"}, false, true},
		// Before the name, a redirection takes one word.
		{"2>/dev/null ls -la", []string{"2>/dev/null ls -la", "2>/dev/null"}, false, true},
		{"a=1 >x ls", []string{"a=1 >x ls", ">x"}, false, true},
		// An ANSI-C string may hold \'.
		{`echo $'a\'b' && git push`, []string{`echo $'a\'b'`, "git push"}, false, false},
		{`echo $'a\\' b' && ls`, []string{`echo $'a\\' b'`, "ls"}, false, false},
		// Newlines right before a backslash go on with the command.
		{"git status \n\\rm -rf x", []string{"git status \n\\rm -rf x"}, false, false},
		{"a\n\n\\b", []string{"a\n\n\\b"}, false, false},
		{"a;\n\\b", []string{"a", `\b`}, false, false},
		{"a \n \\b", []string{"a", `\b`}, false, false},
		// A backslash before white space is white space; at the end it
		// is an error.
		{`\ ls -la`, []string{"ls -la"}, false, false},
		{"a\\\nb", []string{"a\\\nb"}, false, false},
		{`echo a\ b`, []string{`echo a\ b`}, false, false},
		{"\\\tls", []string{"ls"}, false, false},
		{`echo done \`, []string{"echo done"}, true, false},
		{`echo done\`, []string{"echo done"}, true, false},
		{`\`, nil, true, false},
		{`ls \ `, []string{"ls"}, true, false},
		{`ls \ # c`, []string{"ls"}, false, false},
		{"a\\\rb", []string{"a"}, true, false},
		// One assignment redirected with no command: the name is missing.
		{"a=1 > out", []string{"> out"}, true, true},
		{"a=1 >x >y", []string{">x", ">y"}, true, true},
		{"(a=1 >x)", []string{"(a=1 >x)", ">x"}, true, true},
		{"a=1 b=2 > out", []string{"> out"}, false, true},
		{">x", []string{">x"}, false, true},
		// A comment runs over the closing backtick on its line.
		{"echo `ls # x`", []string{"echo `ls # x`", "`ls # x`", "ls"}, true, false},
		{"echo `ls #x` && rm y", []string{"echo `ls #x` && rm y", "`ls #x` && rm y", "ls"}, true, false},
		{"echo `ls #x\nrm y`", []string{"echo `ls #x\nrm y`", "`ls #x\nrm y`", "ls", "rm y"}, false, false},
		// <> is < and an error node.
		{"ls <> x", []string{"ls", "<> x"}, true, true},
		{"ls <> x && rm y", []string{"ls", "<> x", "rm y"}, true, true},
		// A substitution that never closes keeps nothing.
		{`echo $(ls "x`, []string{"echo"}, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			assertParts(t, tt.command, tt.parts, tt.redir, tt.err)
		})
	}
}
