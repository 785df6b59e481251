package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/all"
)

// TestTry runs try on the template of every scenario: the given block as
// an argument, from a file, from standard input; and its bad input.
func TestTry(t *testing.T) {
	reg := all.Registry()
	limited := 0
	for _, name := range reg.Names() {
		sc, _, _ := reg.Lookup(name)
		given := sc.Template
		file := filepath.Join(t.TempDir(), "given.json")
		require.NoError(t, os.WriteFile(file, []byte(given), 0o600))
		typo := name[:len(name)/2] + name[len(name)/2+1:]
		tests := []struct {
			reason string
			stdin  string
			args   []string
			code   int
			stdout []string // parts of stdout, in order
			stderr string
		}{
			{"a given block as an argument", "", []string{"try", name, given}, 0,
				[]string{"scenario: " + name, "what happened:", "decided by:", "observed:\n\"expected\": {\n"}, ""},
			{"@FILE reads it from a file", "", []string{"try", name, "@" + file}, 0, []string{"observed:\n\"expected\": {\n"}, ""},
			{"- reads standard input", given, []string{"try", name, "-"}, 0, []string{"observed:\n\"expected\": {\n"}, ""},
			{"so does nothing", given, []string{"try", name}, 0, []string{"observed:\n\"expected\": {\n"}, ""},
			{"an unknown key is invalid input", "", []string{"try", name, strings.Replace(given, "{", `{"zzz": 1, `, 1)}, 2, nil, `given key "zzz" is not read by scenario ` + name},
			{"malformed JSON is located in the block", "", []string{"try", name, `{"zzz": yolo}`}, 2, nil, "<argument>:1:9: error: malformed JSON"},
			{"not an object", "", []string{"try", name, `[]`}, 2, nil, "error:"},
			{"a misspelt scenario", "", []string{"try", typo, `{}`}, 2, nil, `did you mean "` + name + `"?`},
		}
		// A limit the template reaches: set one below it, and the block is
		// over the limit.
		for _, l := range sc.Limits {
			v := gjson.Get(given, strings.ReplaceAll(strings.TrimPrefix(l.Pointer, "/given/"), "/", "."))
			n := v.Int()
			if l.Count {
				n = int64(len(v.Array()))
			}
			if n < 2 || !v.Exists() {
				continue
			}
			limited++
			limit := name + "." + l.Name + "=" + strconv.FormatInt(n-1, 10)
			tests = append(tests, struct {
				reason string
				stdin  string
				args   []string
				code   int
				stdout []string
				stderr string
			}{"over the limit " + l.Name, "", []string{"try", "-limit", limit, name, given}, 2, nil, "over the limit of " + strconv.FormatInt(n-1, 10)})
		}
		for _, tt := range tests {
			t.Run(name+"/"+tt.reason, func(t *testing.T) {
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
	assert.Positive(t, limited, "some template reaches a limit")
	code, _, errOut := runCLI(t, "try")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "usage")
}

// TestTryShowsWarnings: the warnings lint gives a case's given block, try
// gives the same block on standard error, with their names.
func TestTryShowsWarnings(t *testing.T) {
	const desk = "../../verifier/testdata/authoring/unknown-mode-and-tier.json"
	data, err := os.ReadFile(desk)
	require.NoError(t, err)
	_, _, errOut := runCLI(t, "validate", desk)
	name := regexp.MustCompile(`warning: .*\(/cases/0/given/[^)]*\) (\[[a-z-]+\])`).FindStringSubmatch(errOut)
	require.NotNil(t, name, "validate warns about the first case's given block:\n%s", errOut)
	c := gjson.GetBytes(data, "cases.0")
	code, out, errOut := runCLI(t, "try", c.Get("scenario").String(), c.Get("given").Raw)
	assert.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "observed:")
	assert.Contains(t, errOut, name[1])
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
