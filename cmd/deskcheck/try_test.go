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
	"github.com/deskcheck/deskcheck/scenario"
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

// releasedFamily is a family whose releases are versions of one program,
// at least two of them.
func releasedFamily(t *testing.T) scenario.Family {
	t.Helper()
	for _, f := range all.Registry().Families() {
		if len(f.Host.Releases) >= 2 && !f.Host.Named() {
			return f
		}
	}
	t.Fatal("no family has two versioned releases")
	return scenario.Family{}
}

// answeredApart finds a bundled case of the family that try answers
// differently on the newest release and on an older one that has its
// scenario: the scenario, the given block and the older release.
func answeredApart(t *testing.T, f scenario.Family) (name, given, older string) {
	t.Helper()
	newest, _ := f.Host.Newest()
	reg := all.Registry()
	for _, d := range bundledDesks(t) {
		for _, c := range gjson.GetBytes(deskData(t, d), "cases").Array() {
			name, given = c.Get("scenario").String(), c.Get("given").Raw
			if _, fam, ok := reg.Lookup(name); !ok || fam.Host.Name != f.Host.Name {
				continue
			}
			_, want, _ := runCLI(t, "try", name, given)
			_, want, _ = strings.Cut(want, "\n")
			for _, r := range f.Host.Releases {
				if r.Version == newest.Version || f.Host.NotApplicable(r, name) != "" {
					continue
				}
				code, out, _ := runCLI(t, "try", "-host", f.Host.Name+"@"+r.Version, name, given)
				if _, rest, _ := strings.Cut(out, "\n"); code == 0 && rest != want {
					return name, given, r.Version
				}
			}
		}
	}
	t.Fatalf("no bundled case of %s is answered differently by two of its releases", f.Host.Name)
	return "", "", ""
}

// TestTryHost: try names the release that answered, the newest unless
// -host names another, and -host runs that release; the desk -desk prints
// names that release and verifies as printed; a release without the
// scenario is refused.
func TestTryHost(t *testing.T) {
	f := releasedFamily(t)
	host := f.Host.Name
	newest, _ := f.Host.Newest()
	name, given, older := answeredApart(t, f)
	code, out, errOut := runCLI(t, "try", name, given)
	require.Equal(t, 0, code, errOut)
	assert.True(t, strings.HasPrefix(out, "release:  "+host+" "+newest.Version+" (the newest modelled release; -host "+host+"@VERSION runs another)\nscenario: "+name+"\n"), out)
	_, onNewest, _ := strings.Cut(out, "\n")

	code, out, errOut = runCLI(t, "try", "-host", host+"@"+older, name, given)
	require.Equal(t, 0, code, errOut)
	assert.True(t, strings.HasPrefix(out, "release:  "+host+" "+older+" (-host)\n"), out)
	_, onOlder, _ := strings.Cut(out, "\n")
	assert.NotEqual(t, onNewest, onOlder, "%s %s answers as %s %s does not", host, older, host, newest.Version)

	code, desk, errOut := runCLI(t, "try", "-desk", "-host", host+"@"+older, name, given)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, desk, `"hosts": {"`+host+`": "`+older+`"},`)
	code, out, errOut = withStdin(t, desk, "verify", "-out", "none", "-")
	assert.Equal(t, 0, code, "%s%s", out, errOut)
	assert.Contains(t, out, "["+host+" "+older+"]")

	reg := all.Registry()
	unreleased := 0
	for _, fam := range reg.Families() {
		if len(fam.Host.Releases) > 0 {
			continue
		}
		unreleased++
		sc := fam.Scenarios[0]
		code, out, errOut = runCLI(t, "try", sc.Name, sc.Template)
		require.Equal(t, 0, code, errOut)
		assert.NotContains(t, out, "release:", "a host without releases names none")
	}
	assert.Positive(t, unreleased, "a family has no release axis")

	lacking := 0
	for _, r := range f.Host.Releases {
		for _, sc := range f.Scenarios {
			if r.Lacks[sc.Name] == "" {
				continue
			}
			lacking++
			code, _, errOut = runCLI(t, "try", "-host", host+"@"+r.Version, sc.Name, sc.Template)
			assert.Equal(t, 2, code)
			assert.Contains(t, errOut, "scenario "+sc.Name+" does not run on "+host+" "+r.Version)
		}
	}
	assert.Positive(t, lacking, "a release of %s lacks a scenario", host)
	_, known := f.Host.Release("1.2.3")
	require.False(t, known)
	code, _, errOut = runCLI(t, "try", "-host", host+"@1.2.3", f.Scenarios[0].Name, `{}`)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "not a modelled release")
}
