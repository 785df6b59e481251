package verifier

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHostileFiles(t *testing.T) {
	tests := []struct {
		reason string
		file   string
		want   string
	}{
		{"a number beyond float64", "number-out-of-range.json", "1:136: error: number 1e400 is out of range (/cases/0/given/repeat)"},
		{"a fraction where a count is expected", "count-fraction.json", "1:180: error: wrong type: expected integer, found number (/cases/0/expected/effects)"},
		{"a count written as a float", "count-written-as-float.json", "1:180: error: a whole number is expected (digits only, at most 15), found 1.0 (/cases/0/expected/effects)"},
		{"a count beyond exact integers", "count-too-many-digits.json", "1:136: error: a whole number is expected (digits only, at most 15), found 123456789012345678 (/cases/0/given/repeat)"},
		{"Infinity is not JSON", "infinity.json", "1:139: error: malformed JSON: Infinity is not JSON: JSON has no such number (write a finite number, or null)"},
		{"-Infinity is not JSON", "minus-infinity.json", "1:139: error: malformed JSON: -Infinity is not JSON: JSON has no such number (write a finite number, or null)"},
		{"NaN is not JSON", "nan.json", "1:139: error: malformed JSON: NaN is not JSON: JSON has no such number (write a finite number, or null)"},
		{"a number too small for a double", "number-underflow.json", "1:139: error: number 1e-400 is out of range: it is not 0 but too small for a double, which reads it as 0 (/cases/0/given/args/x)"},
		{"a duplicate key deep inside args", "duplicate-key-deep.json", `1:138: error: duplicate key "a" (first at 1:126) (/cases/0/given/args/deep/deep/a)`},
		{"a duplicate key at the top", "duplicate-key-top.json", `1:52: error: duplicate key "id" (first at 1:20) (/id)`},
		{"a top level that is a string", "top-level-string.json", "1:1: error: the top level must be a JSON object"},
		{"only white space", "whitespace-only.json", "1:1: error: empty file: a case file is a JSON object"},
		{"a truncated file", "truncated.json", "1:49: error: malformed JSON: unexpected end of JSON input"},
		{"schemaVersion as a string", "schema-version-string.json", "1:18: error: must be 1 (/schemaVersion)"},
		{"a NUL byte after the value", "nul-byte-after.json", `1:52: error: malformed JSON: invalid character '\x00' after top-level value`},
		{"an over-long string", "string-over-limit.json", "1:42: error: the length of a string is 65537, over the limit of 65536 (/title)"},
		{"an over-long key", "key-over-limit.json", "1:72: error: the length of a key is 65537, over the limit of 65536 (/sources)"},
		{"nesting beyond the limit", "too-deep.json", "1:125: error: nesting deeper than 64 levels (/sources" + strings.Repeat("/0", 63) + ")"},
		{"repeat beyond the limit", "repeat-over-limit.json", named("1:136: error: repeat is 1001, over the limit of 1000 (raise it with -limit {prompt}.repeat=N) (/cases/0/given/repeat)")},
		{"choices beyond the limit", "choices-over-limit.json", named("1:137: error: the number of entries in choices is 1001, over the limit of 1000 (raise it with -limit {prompt}.choices=N) (/cases/0/given/choices)")},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			path := filepath.Join("testdata", "hostile", tt.file)
			in := readInput(t, path)
			suite, ds, err := Verify(context.Background(), []Input{in}, Options{Registry: testReg})
			assert.NoError(t, err)
			assert.Nil(t, suite, "nothing runs")
			require.True(t, ds.HasErrors())
			assert.Contains(t, diagStrings(ds), path+":"+tt.want)
		})
	}
}

func TestLimitsAreConfigurable(t *testing.T) {
	in := readInput(t, "../cases/boundary-desk.json")
	tests := []struct {
		reason string
		limits Limits
		want   string
	}{
		{"file size", Limits{FileSize: 1000}, "1:1: error: the file size in bytes is 13712, over the limit of 1000"},
		{"depth", Limits{Depth: 3}, "nesting deeper than 3 levels"},
		{"cases per file", Limits{Cases: 10}, "error: the number of entries in cases is 15, over the limit of 10 (/cases)"},
		{"string length", Limits{String: 100}, "error: the length of a string is 268, over the limit of 100 (/executionPolicy)"},
		{"repeat", Limits{Scenario: map[string]int{named("{prompt}.repeat"): 1}}, named("error: repeat is 2, over the limit of 1 (raise it with -limit {prompt}.repeat=N) (/cases/0/given/repeat)")},
		{"choices", Limits{Scenario: map[string]int{named("{prompt}.choices"): 1}}, named("error: the number of entries in choices is 2, over the limit of 1 (raise it with -limit {prompt}.choices=N) (/cases/0/given/choices)")},
	}
	for _, tt := range tests {
		_, ds := LoadAll(testReg, []Input{in}, tt.limits)
		require.True(t, ds.HasErrors(), tt.reason)
		assert.Contains(t, strings.Join(diagStrings(ds), "\n"), tt.want, tt.reason)
	}
	assert.NoError(t, DefaultLimits.Check())
	assert.EqualError(t, Limits{Scenario: map[string]int{named("{prompt}.repeat"): 0}}.WithDefaults().Check(), named("the {prompt}.repeat limit must be positive, not 0"))
	assert.EqualError(t, Limits{Depth: MaxDepth + 1}.WithDefaults().Check(), "the depth limit may be at most 10000, not 10001", "the readers after the first pass recurse once per level")
	assert.EqualError(t, Limits{Scenario: map[string]int{named("{prompt}.repet"): 3}}.CheckNames(testReg), named(`no scenario declares the limit "{prompt}.repet" (known: `)+strings.Join(LimitNames(testReg), ", ")+")")
	assert.Equal(t, DefaultLimits, Limits{}.WithDefaults())
}

func TestReadPathsNeverHangsOrEscapes(t *testing.T) {
	root := t.TempDir()
	desks := filepath.Join(root, "desks")
	require.NoError(t, os.MkdirAll(filepath.Join(desks, "sub"), 0o755))
	good, err := os.ReadFile("../cases/boundary-desk.json")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(desks, "sub", "b.json"), good, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(desks, "a.json"), good, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(desks, "notes.md"), []byte("#"), 0o644))
	outside := filepath.Join(root, "outside.json")
	require.NoError(t, os.WriteFile(outside, good, 0o644))
	require.NoError(t, os.Symlink(outside, filepath.Join(desks, "escape.json")))
	require.NoError(t, os.Symlink("loop.json", filepath.Join(desks, "loop.json")))
	require.NoError(t, os.Symlink(root, filepath.Join(desks, "up")))
	require.NoError(t, syscall.Mkfifo(filepath.Join(desks, "pipe.json"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(desks, "big.json"), make([]byte, 2000), 0o644))

	done := make(chan struct{})
	var inputs []Input
	var ds Diagnostics
	go func() {
		defer close(done)
		inputs, ds, err = ReadPaths([]string{desks}, Limits{FileSize: 1 << 20})
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("ReadPaths hung")
	}
	require.NoError(t, err)
	var names []string
	for _, in := range inputs {
		names = append(names, strings.TrimPrefix(in.Path, desks+"/"))
	}
	assert.Equal(t, []string{"a.json", "big.json", "sub/b.json"}, names, "sorted, recursive, *.json only, no link followed")
	assert.ElementsMatch(t, []string{
		filepath.Join(desks, "escape.json") + ": warning: skipped: symbolic link not followed [skipped]",
		filepath.Join(desks, "loop.json") + ": warning: skipped: symbolic link not followed [skipped]",
		filepath.Join(desks, "pipe.json") + ": warning: skipped: not a regular file (a FIFO) [skipped]",
	}, diagStrings(ds))

	t.Run("explicit paths", func(t *testing.T) {
		inputs, ds, err := ReadPaths([]string{
			filepath.Join(desks, "pipe.json"), filepath.Join(desks, "loop.json"), "/dev/null", "/proc/self/mem", filepath.Join(desks, "big.json"),
		}, Limits{FileSize: 1000})
		require.NoError(t, err)
		assert.Empty(t, inputs)
		assert.Equal(t, []string{
			filepath.Join(desks, "pipe.json") + ": error: cannot be read: not a regular file (a FIFO)",
			filepath.Join(desks, "loop.json") + ": error: cannot be read: too many levels of symbolic links",
			"/dev/null: error: cannot be read: not a regular file (a device)",
			"/proc/self/mem: error: cannot be read: input/output error",
			filepath.Join(desks, "big.json") + ": error: cannot be read: the file size in bytes is 2000, over the limit of 1000",
		}, diagStrings(ds), "a path named on the command line that cannot be read is an error with the true reason, never a skip")
		assert.True(t, ds.HasErrors())
	})
	t.Run("a missing path is an error", func(t *testing.T) {
		_, _, err := ReadPaths([]string{filepath.Join(root, "nope.json")}, Limits{})
		assert.EqualError(t, err, filepath.Join(root, "nope.json")+": no such file or directory")
	})
}

// TestNothingIsFetched serves 127.0.0.1 and fails if validating or
// verifying a desk whose $schema and other URL-like strings point there
// makes any connection.
func TestNothingIsFetched(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	// The listener accepts in order, so once it has accepted the
	// connection this test makes last, it has accepted every earlier one:
	// no wait on the clock decides whether one came.
	var hits atomic.Int64
	accepted := make(chan string, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			hits.Add(1)
			accepted <- c.RemoteAddr().String()
			c.Close()
		}
	}()
	url := "http://" + ln.Addr().String()
	desk := fmt.Sprintf(named(`{
  "$schema": %[1]q,
  "schemaVersion": 1, "id": "fetch-canary", "title": "t", "label": "DO NOT EXECUTE",
  "sources": {"remote": %[1]q},
  "cases": [
    {"id": "w", "title": "t", "scenario": "{prompt}", "sourceRefs": ["remote"],
     "given": {"tool": "mcp__fetch", "args": {"$ref": %[1]q, "url": %[1]q}, "revise": {"$schema": %[1]q}, "mode": "always-ask", "ui": "rpc", "choices": [%[1]q], "safetyCheck": %[1]q},
     "expected": {"outcome": "throw", "effects": 0, "promptIncludes": "127"}},
    {"id": "f", "title": "t", "scenario": "{retry}", "given": {"code": "EACCES", "message": %[1]q, "handlers": ["decline"]}, "expected": {"outcome": "throw-same-error", "effects": 0}},
    {"id": "c", "title": "t", "scenario": "{classify}", "given": {"message": %[1]q}, "expected": {"permissionDenied": false, "effects": 0}}
  ]
}`), url+"/schema.json")
	in := Input{Path: "fetch-canary.json", Data: []byte(desk)}
	_, ds := LoadAll(testReg, []Input{in}, Limits{})
	require.False(t, ds.HasErrors(), diagStrings(ds))
	suite, _, err := Verify(context.Background(), []Input{in}, Options{Registry: testReg})
	require.NoError(t, err)
	assert.Equal(t, 3, suite.Summary.Passed, "%+v", suite.Results)
	last, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	defer last.Close()
	for addr := range accepted {
		if addr == last.LocalAddr().String() {
			break
		}
	}
	assert.Equal(t, int64(1), hits.Load(), "nothing but this test connected to %s", url)
}

// TestCommandStringsAreData runs a desk whose inputs are shell commands
// that would create files in a temporary folder, through every scenario,
// and checks that no file appears.
func TestCommandStringsAreData(t *testing.T) {
	dir := t.TempDir()
	cmds := []string{
		"touch " + filepath.Join(dir, "plain"),
		"$(touch " + filepath.Join(dir, "subst") + ")",
		"`touch " + filepath.Join(dir, "backtick") + "`",
		"; touch " + filepath.Join(dir, "semi") + " #",
		"| sh -c 'touch " + filepath.Join(dir, "pipe") + "'",
	}
	var cases []string
	for i, c := range cmds {
		q := fmt.Sprintf("%q", c)
		cases = append(cases,
			fmt.Sprintf(named(`{"id": "w%d", "title": "t", "scenario": "{prompt}", "given": {"tool": "bash", "args": {"command": %s}, "revise": {"command": %s}, "mode": "always-ask", "choices": [%s, "Approve"], "repeat": 2, "userPolicies": {%s: "allow"}, "safetyCheck": %s}, "expected": {"outcome": "return", "effects": 1}}`), i, q, q, q, q, q),
			fmt.Sprintf(named(`{"id": "r%d", "title": "t", "scenario": "{prompt}", "given": {"tool": %s, "args": {"command": %s}, "ui": "rpc", "mode": "always-ask", "choices": [%s]}, "expected": {"outcome": "throw", "effects": 0}}`), i, q, q, q),
			fmt.Sprintf(named(`{"id": "f%d", "title": "t", "scenario": "{retry}", "given": {"code": %s, "message": %s, "retryError": {"code": "EACCES", "message": %s}, "handlers": ["fail", "decline"]}, "expected": {"outcome": "throw-same-error", "effects": 0}}`), i, q, q, q),
			fmt.Sprintf(named(`{"id": "c%d", "title": "t", "scenario": "{classify}", "given": {"code": %s, "message": %s}, "expected": {"permissionDenied": false, "effects": 0}}`), i, q, q),
		)
	}
	desk := `{"schemaVersion": 1, "id": "shell-canary", "title": "t", "label": "DO NOT EXECUTE", "cases": [` + strings.Join(cases, ",") + `]}`
	suite, ds, err := Verify(context.Background(), []Input{{Path: "shell-canary.json", Data: []byte(desk)}}, Options{Registry: testReg})
	require.NoError(t, err)
	require.False(t, ds.HasErrors(), diagStrings(ds))
	assert.Equal(t, 4*len(cmds), suite.Summary.Cases)
	assert.Zero(t, suite.Summary.Errored)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "no command string was executed")
}

// TestManyKeysStayFast loads an object of 200,000 keys with one duplicate
// at its end: the duplicate is found within a bound on the processor time
// of the load (about 30 ms here; a check of every key against every
// earlier one would take minutes), which the machine's other work does not
// move as it moves wall time.
func TestManyKeysStayFast(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"schemaVersion":1,"id":"k","title":"t","cases":[],"sources":{`)
	for i := 0; i < 200000; i++ {
		fmt.Fprintf(&b, `"k%d":"v",`, i)
	}
	b.WriteString(`"k17":"again"}}`)
	cpu0 := cpuTime()
	_, ds := Load(testReg, "many-keys.json", []byte(b.String()), Limits{})
	cpu := cpuTime() - cpu0
	t.Logf("200,000 keys: %v of processor time", cpu)
	assert.Less(t, cpu, 5*time.Second)
	var errs Diagnostics
	for _, d := range ds {
		if d.Severity == Error {
			errs = append(errs, d)
		}
	}
	require.Len(t, errs, 1, diagStrings(ds))
	assert.Contains(t, errs[0].Summary, `duplicate key "k17" (first at 1:`)
	assert.Equal(t, "/sources/k17", errs[0].Pointer)
}
