package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
)

func TestTry(t *testing.T) {
	file := filepath.Join(t.TempDir(), "given.json")
	require.NoError(t, os.WriteFile(file, []byte(`{"mode": "always-ask",
  "choices": ["Deny"]}`), 0o600))
	tests := []struct {
		reason string
		stdin  string
		args   []string
		code   int
		stdout []string // parts of stdout, in order
		stderr string
	}{
		{"a given block as an argument", "", []string{"try", "wrapper", `{"mode":"always-ask","choices":["Deny"]}`}, 0,
			[]string{"scenario: wrapper", "what happened:", `select "Allow tool: seed_note" [Approve, Deny] → "Deny"`, "decided by:", "(decision row 9)", "observed:\n\"expected\": {\n  \"outcome\": \"throw\",\n  \"effects\": 0"}, ""},
		{"@FILE reads it from a file", "", []string{"try", "wrapper", "@" + file}, 0, []string{`"outcome": "throw"`}, ""},
		{"- reads standard input", `{"mode":"yolo"}`, []string{"try", "wrapper", "-"}, 0, []string{`"outcome": "return"`, `"effects": 1`}, ""},
		{"so does nothing", `{"mode":"yolo"}`, []string{"try", "wrapper"}, 0, []string{`"outcome": "return"`}, ""},
		{"a gateway check decides", "", []string{"try", "gateway", `{"principal":"synthetic-analyst","steps":[{"request":{"action":"read","resource":"ops/payroll","arguments":{}}}]}`}, 0,
			[]string{"decided by:\n  [step 1] check 3 deny resource_not_allowed"}, ""},
		{"a warning about the given block is shown", "", []string{"try", "wrapper", `{"mode":"Write"}`}, 0, []string{"observed:"}, "[unknown-mode]"},
		{"an unknown key is invalid input", "", []string{"try", "wrapper", `{"mdoe":"yolo"}`}, 2, nil, `given key "mdoe" is not read by scenario wrapper; did you mean "mode"? (/given/mdoe)`},
		{"malformed JSON is located in the block", "", []string{"try", "wrapper", `{"mode": yolo}`}, 2, nil, "<argument>:1:10: error: malformed JSON"},
		{"not an object", "", []string{"try", "wrapper", `[]`}, 2, nil, "error:"},
		{"an unknown scenario", "", []string{"try", "wraper", `{}`}, 2, nil, `did you mean "wrapper"?`},
		{"a block the scenario cannot run", "", []string{"try", "runner", `{"script":[{"nope":1}]}`}, 2, nil, "error:"},
		{"over a scenario limit", "", []string{"try", "wrapper", `{"repeat": 5000}`}, 2, nil, "over the limit of 1000"},
		{"no scenario", "", []string{"try"}, 2, nil, "usage"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			code, out, errOut := withStdin(t, tt.stdin, tt.args...)
			assert.Equal(t, tt.code, code, errOut)
			at := 0
			for _, part := range tt.stdout {
				i := indexFrom(out, part, at)
				if assert.GreaterOrEqual(t, i, 0, "stdout holds %q after offset %d:\n%s", part, at, out) {
					at = i
				}
			}
			assert.Contains(t, errOut, tt.stderr)
			if tt.code != 0 {
				assert.Empty(t, out)
			}
		})
	}
}

// indexFrom is the index of part in s at or after from, -1 if none.
func indexFrom(s, part string, from int) int {
	if i := strings.Index(s[from:], part); i >= 0 {
		return from + i
	}
	return -1
}

// TestTryDeskVerifies: for every scenario, the desk try -desk prints for
// its template validates and verifies as printed.
func TestTryDeskVerifies(t *testing.T) {
	reg := all.Registry()
	for _, name := range reg.Names() {
		sc, _, _ := reg.Lookup(name)
		t.Run(name, func(t *testing.T) {
			code, desk, errOut := runCLI(t, "try", "-desk", name, sc.Template)
			require.Equal(t, 0, code, errOut)
			code, out, errOut := withStdin(t, desk, "verify", "-out", filepath.Join(t.TempDir(), "out"), "-")
			assert.Equal(t, 0, code, "%s%s", out, errOut)
			assert.Contains(t, out, "1 passed, 0 failed")
		})
	}
}

// TestExplainAndObserveFitTheWidth: off a terminal no line of explain, and
// no line of observe outside the block's values, is longer than 160.
func TestExplainAndObserveFitTheWidth(t *testing.T) {
	for _, cmd := range []string{"explain", "observe"} {
		code, out, errOut := runCLI(t, cmd)
		require.Equal(t, 0, code, errOut)
		inBlock := false
		for _, l := range strings.Split(out, "\n") {
			switch {
			case strings.HasPrefix(l, `"expected": {`):
				inBlock = true
			case inBlock && l == "}":
				inBlock = false
			case inBlock:
			default:
				assert.LessOrEqual(t, utf8.RuneCountInString(l), 160, "%s: %q", cmd, l)
			}
		}
	}
}

// TestTryHost: try names the release that answered, the newest unless
// -host names another; the desk -desk prints names that release and
// verifies as printed; a release without the scenario is refused.
func TestTryHost(t *testing.T) {
	unknownMode := `{"approval":"exec","mode":"Always-Ask","ui":false}`
	code, out, errOut := runCLI(t, "try", "wrapper", unknownMode)
	require.Equal(t, 0, code, errOut)
	assert.True(t, strings.HasPrefix(out, "release:  omp 18.3.4 (the newest modelled release; -host omp@VERSION runs another)\nscenario: wrapper\n"), out)
	assert.Contains(t, out, `"outcome": "return"`, "18.3.4 reads an unknown mode as yolo")

	code, out, errOut = runCLI(t, "try", "-host", "omp@17.3.5", "wrapper", unknownMode)
	require.Equal(t, 0, code, errOut)
	assert.True(t, strings.HasPrefix(out, "release:  omp 17.3.5 (-host)\n"), out)
	assert.Contains(t, out, `"outcome": "throw"`, "17.3.5 keeps it and approves no tier")

	code, desk, errOut := runCLI(t, "try", "-desk", "-host", "omp@17.3.5", "wrapper", unknownMode)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, desk, `"hosts": {"omp": "17.3.5"},`)
	code, out, errOut = withStdin(t, desk, "verify", "-out", "none", "-")
	assert.Equal(t, 0, code, "%s%s", out, errOut)
	assert.Contains(t, out, "[omp 17.3.5]")

	code, out, _ = runCLI(t, "try", "gateway", `{"principal":"synthetic-analyst","steps":[{"request":{"action":"read","resource":"ops/payroll","arguments":{}}}]}`)
	require.Equal(t, 0, code)
	assert.NotContains(t, out, "release:", "a host without releases names none")

	code, _, errOut = runCLI(t, "try", "-host", "omp@14.9.9", "fallback", `{"message":"x"}`)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "scenario fallback does not run on omp 14.9.9")
	code, _, errOut = runCLI(t, "try", "-host", "omp@1.2.3", "wrapper", `{}`)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "not a modelled release")
}
