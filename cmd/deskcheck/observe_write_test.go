package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// roundTripFiles are the bundled desks and every family's test desks.
func roundTripFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, d := range bundledDesks(t) {
		files = append(files, "../../"+d.Path)
	}
	more, err := filepath.Glob("../../host/*/*check/testdata/*.json")
	require.NoError(t, err)
	return append(files, more...)
}

// TestObserveWriteRoundTrip breaks, in every bundled and family desk, the
// k-th expected key of every case at once, for each k in turn, with a
// value of that key taken from another case of the scenario (so that the
// desk stays valid); then observe -w must make every case pass again and
// leave every byte outside the expected blocks as it was.
func TestObserveWriteRoundTrip(t *testing.T) {
	// observe -w refuses to write under CI; these tests write on purpose.
	t.Setenv("CI", "")
	reg := all.Registry()
	type key struct{ scenario, key string }
	pool := map[key][]string{} // compact values seen of each key
	type file struct {
		path  string
		data  []byte
		desks []*verifier.Desk
	}
	var files []file
	for _, p := range roundTripFiles(t) {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		desks, ds := verifier.LoadAll(reg, []verifier.Input{{Path: p, Data: data}}, verifier.Limits{})
		require.False(t, ds.HasErrors(), "%v", ds)
		files = append(files, file{p, data, desks})
		for _, c := range desks[0].Cases {
			for _, f := range c.Expected {
				k := key{c.Scenario, f.Key}
				pool[k] = append(pool[k], compactJSON(f.Value.Raw))
			}
		}
	}
	// broke counts the keys whose new value fails their case, on that
	// key; restored those of them that observe -w writes back with another
	// value, where the broken value stood, and listed those it leaves out
	// and lists (-) because no observed value can take their place;
	// skipped the keys with no valid other value that fails.
	broke, restored, listed, skipped := 0, 0, 0, 0
	for _, f := range files {
		path := filepath.Join(t.TempDir(), filepath.Base(f.path))
		text := string(f.data)
		sources := gjson.Get(text, "sources").Raw
		for k := 0; ; k++ {
			type change struct {
				at, end int
				alt     string
				id, key string
				ci      int
			}
			var changes []change
			for ci, c := range f.desks[0].Cases {
				if k >= len(c.Expected) {
					continue
				}
				fld := c.Expected[k]
				v := gjson.Get(text, "cases."+strconv.Itoa(ci)+".expected."+gjsonEscape(fld.Key))
				require.True(t, v.Exists() && v.Index > 0, "%s %s", c.FullID(), fld.Key)
				cv := gjson.Get(text, "cases."+strconv.Itoa(ci))
				require.Equal(t, cv.Raw, text[cv.Index:cv.Index+len(cv.Raw)])
				alt, ok := breakValue(cv.Raw, v.Index-cv.Index, v.Raw, sources, pool[key{c.Scenario, fld.Key}])
				if !ok {
					skipped++
					continue
				}
				changes = append(changes, change{v.Index, v.Index + len(v.Raw), alt, c.ID, fld.Key, ci})
			}
			if len(changes) == 0 {
				break
			}
			var b strings.Builder
			at := 0
			for _, ch := range changes {
				b.WriteString(text[at:ch.at])
				b.WriteString(ch.alt)
				at = ch.end
			}
			b.WriteString(text[at:])
			broken := b.String()
			require.NoError(t, os.WriteFile(path, []byte(broken), 0o600))
			before := caseResults(t, path)
			var failing []change
			for _, ch := range changes {
				if r := before[ch.id]; r.Status == verifier.Fail && mismatchOn(r, ch.key) {
					failing = append(failing, ch)
				} else {
					skipped++
				}
			}
			broke += len(failing)
			code, out, errOut := runCLI(t, "observe", "-w", path)
			require.Equal(t, 0, code, "%s, key %d: %s%s", f.path, k, out, errOut)
			n := passingCases(t, path)
			require.Equal(t, len(f.desks[0].Cases), n, "%s, key %d broken: after observe -w every case passes:\n%s", f.path, k, out)
			got, err := os.ReadFile(path)
			require.NoError(t, err)
			dropped := map[string]int{}
			for _, ch := range failing {
				v := gjson.Get(string(got), "cases."+strconv.Itoa(ch.ci)+".expected."+gjsonEscape(ch.key))
				if !v.Exists() {
					dropped[ch.key]++
					continue
				}
				if assert.NotEqual(t, compactJSON(ch.alt), compactJSON(v.Raw), "%s, case %s: observe -w left the broken value of %s", f.path, ch.id, ch.key) {
					restored++
				}
			}
			for k, n := range dropped {
				lines := strings.Count(out, "\n  - "+k+": authored ")
				assert.Equal(t, n, lines, "%s: observe -w left out %d broken %s keys and listed %d:\n%s", f.path, n, k, lines, out)
				listed += min(n, lines)
			}
			require.Equal(t, withoutExpected(t, broken), withoutExpected(t, string(got)), "%s, key %d: nothing outside the expected blocks changes", f.path, k)
		}
	}
	t.Logf("%d broken keys: %d restored, %d left out and listed; %d keys without another valid value that fails", broke, restored, listed, skipped)
	assert.Positive(t, broke)
	assert.Equal(t, broke, restored+listed, "every broken key is written back or listed as left out")
	assert.Greater(t, restored, 4*(skipped+listed), "most keys can be broken and written back")
}

// caseResults verifies the desk at path and returns each case's result by
// id.
func caseResults(t *testing.T, path string) map[string]verifier.Result {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	suite, ds, err := verifier.Verify(context.Background(), []verifier.Input{{Path: path, Data: data}}, verifier.Options{Registry: all.Registry()})
	require.NoError(t, err)
	require.False(t, ds.HasErrors(), "%v", ds)
	out := make(map[string]verifier.Result, len(suite.Results))
	for _, r := range suite.Results {
		out[r.Case.ID] = r
	}
	return out
}

// mismatchOn reports whether r fails on key (or a part of it).
func mismatchOn(r verifier.Result, key string) bool {
	for _, m := range r.Mismatches {
		if m.Field == key || strings.HasPrefix(m.Field, key+"[") || strings.HasPrefix(m.Field, key+".") {
			return true
		}
	}
	return false
}

// withoutExpected is a desk's text with each case's expected block
// replaced by {}.
func withoutExpected(t *testing.T, text string) string {
	t.Helper()
	var b strings.Builder
	at := 0
	n := int(gjson.Get(text, "cases.#").Int())
	for i := 0; i < n; i++ {
		v := gjson.Get(text, "cases."+strconv.Itoa(i)+".expected")
		require.Equal(t, v.Raw, text[v.Index:v.Index+len(v.Raw)])
		b.WriteString(text[at:v.Index])
		b.WriteString("{}")
		at = v.Index + len(v.Raw)
	}
	b.WriteString(text[at:])
	return b.String()
}

// breakValue returns the first of the mutations of v, or else of pool,
// that differs from v and leaves the case (caseRaw, with v at offset off)
// valid in a desk of its own.
func breakValue(caseRaw string, off int, v, sources string, pool []string) (string, bool) {
	own := compactJSON(v)
	tried := map[string]bool{own: true}
	for _, alt := range append(mutations(gjson.Parse(v)), pool...) {
		if tried[alt] {
			continue
		}
		tried[alt] = true
		c := caseRaw[:off] + alt + caseRaw[off+len(v):]
		doc := `{"schemaVersion": 1, "id": "x", "title": "x", "label": "DO NOT EXECUTE", "sources": ` + orEmpty(sources) + `, "cases": [` + c + `]}`
		if _, ds := verifier.LoadAll(all.Registry(), []verifier.Input{{Path: "x.json", Data: []byte(doc)}}, verifier.Limits{}); !ds.HasErrors() {
			return alt, true
		}
	}
	return "", false
}

func orEmpty(raw string) string {
	if raw == "" {
		return "{}"
	}
	return raw
}

// passingCases verifies the desk at path and counts the cases that pass.
func passingCases(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	suite, ds, err := verifier.Verify(context.Background(), []verifier.Input{{Path: path, Data: data}}, verifier.Options{Registry: all.Registry()})
	require.NoError(t, err)
	require.False(t, ds.HasErrors(), "%v", ds)
	return suite.Summary.Passed
}

// mutations are values of v's type that differ from it.
func mutations(v gjson.Result) []string {
	switch v.Type {
	case gjson.Number:
		return []string{strconv.Itoa(int(v.Int()) + 1)}
	case gjson.True:
		return []string{"false"}
	case gjson.False:
		return []string{"true"}
	case gjson.String:
		b, _ := json.Marshal(v.Str + " (not this)")
		return []string{string(b)}
	}
	return nil
}

func compactJSON(raw string) string {
	var b bytes.Buffer
	if json.Compact(&b, []byte(raw)) != nil {
		return raw
	}
	return b.String()
}

func gjsonEscape(k string) string {
	return strings.NewReplacer(".", `\.`, "*", `\*`, "?", `\?`).Replace(k)
}

func TestObserveWrite(t *testing.T) {
	// observe -w refuses to write under CI; these tests write on purpose.
	t.Setenv("CI", "")
	data, err := os.ReadFile("../../cases/boundary-desk.json")
	require.NoError(t, err)
	broken := bytes.Replace(data, []byte(`"prompts": 2,`), []byte(`"prompts": 3,`), 1)
	require.NotEqual(t, data, broken)
	write := func(t *testing.T) string {
		path := filepath.Join(t.TempDir(), "desk.json")
		require.NoError(t, os.WriteFile(path, broken, 0o640))
		return path
	}
	run := "^boundary-desk/boundary-approval-does-not-persist$"

	t.Run("it restores the block byte for byte and keeps the mode", func(t *testing.T) {
		path := write(t)
		code, out, errOut := runCLI(t, "observe", "-w", "-run", run, path)
		require.Equal(t, 0, code, errOut)
		assert.Contains(t, out, "  ~ prompts: authored 3, observed 2 (exact)")
		got, _ := os.ReadFile(path)
		assert.Equal(t, string(data), string(got))
		info, _ := os.Stat(path)
		assert.Equal(t, os.FileMode(0o640), info.Mode().Perm())
		code, out, _ = runCLI(t, "observe", "-w", "-run", run, path)
		assert.Equal(t, 0, code)
		assert.Contains(t, out, "nothing to rewrite")
	})
	t.Run("a link is followed: its file is rewritten and the link stays", func(t *testing.T) {
		t.Setenv("CI", "")
		target := write(t)
		link := filepath.Join(t.TempDir(), "link.json")
		require.NoError(t, os.Symlink(target, link))
		code, _, errOut := runCLI(t, "observe", "-w", "-run", run, link)
		require.Equal(t, 0, code, errOut)
		got, _ := os.ReadFile(target)
		assert.Equal(t, string(data), string(got), "the file the link names is rewritten")
		info, err := os.Lstat(link)
		require.NoError(t, err)
		assert.Equal(t, os.ModeSymlink, info.Mode()&os.ModeSymlink, "the link is still a link")
	})
	t.Run("a file of CR LF lines keeps CR LF in the new block", func(t *testing.T) {
		t.Setenv("CI", "")
		path := filepath.Join(t.TempDir(), "crlf.json")
		require.NoError(t, os.WriteFile(path, bytes.ReplaceAll(broken, []byte("\n"), []byte("\r\n")), 0o600))
		code, _, errOut := runCLI(t, "observe", "-w", "-run", run, path)
		require.Equal(t, 0, code, errOut)
		got, _ := os.ReadFile(path)
		assert.Equal(t, string(bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))), string(got))
	})
	t.Run("CI set: it refuses to write", func(t *testing.T) {
		t.Setenv("CI", "true")
		path := write(t)
		code, _, errOut := runCLI(t, "observe", "-w", path)
		assert.Equal(t, 2, code)
		assert.Contains(t, errOut, "does not write when CI is set")
		got, _ := os.ReadFile(path)
		assert.Equal(t, string(broken), string(got))
	})
	t.Run("-i asks case by case", func(t *testing.T) {
		t.Setenv("CI", "")
		path := write(t)
		code, out, errOut := withStdin(t, "n\n", "observe", "-w", "-i", "-run", run, path)
		assert.Equal(t, 0, code, errOut)
		assert.Contains(t, errOut, "rewrite this block? [y/N/q]")
		assert.Contains(t, out, "(left as it is)")
		got, _ := os.ReadFile(path)
		assert.Equal(t, string(broken), string(got), "n leaves the block")
		assert.Contains(t, out, "nothing rewritten: 1 block declined")
		code, _, errOut = withStdin(t, "y\n", "observe", "-w", "-i", "-run", run, path)
		assert.Equal(t, 0, code, errOut)
		got, _ = os.ReadFile(path)
		assert.Equal(t, string(data), string(got), "y rewrites it")
	})
	t.Run("usage mistakes", func(t *testing.T) {
		t.Setenv("CI", "")
		for _, args := range [][]string{{"observe", "-w"}, {"observe", "-w", "-"}, {"observe", "-i", write(t)}, {"observe", "-w", t.TempDir()}} {
			code, _, errOut := runCLI(t, args...)
			assert.Equal(t, 2, code, "%v: %s", args, errOut)
		}
	})
	t.Run("a list of the right length but a wrong element takes the observed one", func(t *testing.T) {
		t.Setenv("CI", "")
		d, id, key, bad, want, comparer := wrongElement(t)
		path := filepath.Join(t.TempDir(), "desk.json")
		require.NoError(t, os.WriteFile(path, bad, 0o600))
		code, out, errOut := runCLI(t, "observe", "-w", "-run", "^"+regexp.QuoteMeta(d.ID+"/"+id)+"$", path)
		require.Equal(t, 0, code, errOut)
		assert.Contains(t, out, "~ "+key+"[0]: authored "+gjson.Get(string(bad), `cases.#(id=="`+id+`").expected.`+gjsonEscape(key)+".0").Raw+", observed "+gjson.Get(string(want), `cases.#(id=="`+id+`").expected.`+gjsonEscape(key)+".0").Raw+" ("+comparer+")")
		got, _ := os.ReadFile(path)
		assert.Equal(t, string(want), string(got))
	})
}

// wrongElement finds a bundled case with an expected list of strings,
// compared part by part, and puts into its first element another value of
// that key's elements seen in the bundled suite, one that keeps the desk
// valid and fails the case: the desk, the case's id, the key, the broken
// desk, the desk as it was and the key's comparer.
func wrongElement(t *testing.T) (d bundledDesk, id, key string, bad, want []byte, comparer string) {
	t.Helper()
	reg := all.Registry()
	type scKey struct{ scenario, key string }
	seen := map[scKey][]string{}
	for _, d := range bundledDesks(t) {
		for _, c := range gjson.GetBytes(deskData(t, d), "cases").Array() {
			c.Get("expected").ForEach(func(k, v gjson.Result) bool {
				for _, e := range v.Array() {
					if v.IsArray() && e.Type == gjson.String && !slices.Contains(seen[scKey{c.Get("scenario").String(), k.String()}], e.Raw) {
						seen[scKey{c.Get("scenario").String(), k.String()}] = append(seen[scKey{c.Get("scenario").String(), k.String()}], e.Raw)
					}
				}
				return true
			})
		}
	}
	for _, d := range bundledDesks(t) {
		data := deskData(t, d)
		for _, c := range gjson.GetBytes(data, "cases").Array() {
			sc, _, ok := reg.Lookup(c.Get("scenario").String())
			require.True(t, ok)
			for _, o := range sc.Expected {
				if _, parts := o.Comparer.(scenario.Parter); !parts {
					continue
				}
				first := c.Get("expected." + gjsonEscape(o.Key) + ".0")
				if !first.Exists() || first.Type != gjson.String {
					continue
				}
				for _, alt := range seen[scKey{sc.Name, o.Key}] {
					if alt == first.Raw {
						continue
					}
					broken := slices.Concat(data[:first.Index], []byte(alt), data[first.Index+len(first.Raw):])
					path := filepath.Join(t.TempDir(), "desk.json")
					require.NoError(t, os.WriteFile(path, broken, 0o600))
					if _, ds := verifier.LoadAll(reg, []verifier.Input{{Path: path, Data: broken}}, verifier.Limits{}); ds.HasErrors() {
						continue
					}
					if r := caseResults(t, path)[c.Get("id").String()]; r.Status == verifier.Fail && mismatchOn(r, o.Key) {
						return d, c.Get("id").String(), o.Key, broken, data, o.Comparer.Name()
					}
				}
			}
		}
	}
	t.Fatal("no bundled case has an expected list of strings whose first element can be swapped for another and fail")
	return
}

// TestReadmeWalkThrough runs the commands of "Writing a new case" as the
// README writes them, in a folder of their own: go run ./cmd/deskcheck as
// the command itself, sed -i as its substitutions, and each command's exit
// status as its comment says (FAIL or "exit 1": 1; otherwise 0).
func TestReadmeWalkThrough(t *testing.T) {
	// observe -w refuses to write under CI; these tests write on purpose.
	t.Setenv("CI", "")
	data, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	raw := string(data)
	start := strings.Index(raw, "## Writing a new case")
	require.GreaterOrEqual(t, start, 0)
	section := raw[start:]
	section = section[:strings.Index(section, "### Editor support")]
	blocks := regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(section, -1)
	require.GreaterOrEqual(t, len(blocks), 2)
	dir := t.TempDir()
	at := func(p string) string { return filepath.Join(dir, p) }
	ran := map[string]bool{}
	for _, b := range blocks {
		for _, line := range strings.Split(strings.TrimSpace(b[1]), "\n") {
			cmd, comment, _ := strings.Cut(line, "  #")
			cmd = strings.TrimSpace(cmd)
			switch {
			case strings.HasPrefix(cmd, "mkdir -p "):
				require.NoError(t, os.MkdirAll(at(strings.TrimPrefix(cmd, "mkdir -p ")), 0o755))
			case strings.HasPrefix(cmd, "sed -i '"):
				script, file, ok := strings.Cut(strings.TrimPrefix(cmd, "sed -i '"), "' ")
				require.True(t, ok, line)
				data, err := os.ReadFile(at(file))
				require.NoError(t, err)
				for _, s := range strings.Split(script, "; ") {
					parts := strings.Split(strings.TrimPrefix(s, "s/"), "/")
					require.Len(t, parts, 3, "a substitution s/A/B/: %s", s)
					re := regexp.MustCompile(parts[0])
					require.True(t, re.Match(data), "%q matches in %s", parts[0], file)
					// Without g, sed replaces the first match of each line.
					lines := bytes.SplitAfter(data, []byte("\n"))
					for i, l := range lines {
						if loc := re.FindIndex(l); loc != nil {
							lines[i] = append(append(append([]byte{}, l[:loc[0]]...), parts[1]...), l[loc[1]:]...)
						}
					}
					data = bytes.Join(lines, nil)
				}
				require.NoError(t, os.WriteFile(at(file), data, 0o644))
			case strings.HasPrefix(cmd, "go run ./cmd/deskcheck "):
				args := strings.Fields(strings.TrimPrefix(cmd, "go run ./cmd/deskcheck "))
				var into string
				if i := indexOf(args, ">"); i >= 0 {
					into, args = args[i+1], args[:i]
				}
				for i, a := range args {
					if strings.HasPrefix(a, "desks/") {
						args[i] = at(a)
					}
				}
				if args[0] == "verify" || args[0] == "faults" {
					args = append([]string{args[0], "-out", at("reports")}, args[1:]...)
				}
				code, out, errOut := runCLI(t, args...)
				want := 0
				if strings.Contains(comment, "FAIL") || strings.Contains(comment, "exit 1") {
					want = 1
				}
				assert.Equal(t, want, code, "%s\n%s%s", line, out, errOut)
				if strings.Contains(comment, "PASS") {
					// new's desk holds the template's case and the
					// scenario's examples (wrapper: a bash one).
					assert.Regexp(t, `(?m)^\d+ passed, 0 failed$`, out, line)
				}
				if strings.Contains(comment, "no warning left") {
					assert.NotContains(t, errOut, "warning", line)
				}
				if into != "" {
					require.NoError(t, os.WriteFile(at(into), []byte(out), 0o644))
				}
				ran[args[0]] = true
			default:
				t.Fatalf("the walk-through has a command this test does not know: %s", line)
			}
		}
	}
	for _, c := range []string{"new", "validate", "verify", "explain", "observe", "faults"} {
		assert.True(t, ran[c], "the walk-through runs %s", c)
	}
	data, err = os.ReadFile(at("desks/my-desk.json"))
	require.NoError(t, err)
	assert.Contains(t, string(data), `"outcome": "return"`, "observe -w wrote what the model observes")
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// twoBroken is the boundary desk with the prompts of two cases wrong, the
// two -run selectors that pick one each, and the desk as it should be.
func twoBroken(t *testing.T) (broken []byte, runs [2]string, want []byte) {
	t.Helper()
	data, err := os.ReadFile("../../cases/boundary-desk.json")
	require.NoError(t, err)
	lines := strings.SplitAfter(string(data), "\n")
	require.Equal(t, `        "prompts": 2,`+"\n", lines[39])
	require.Equal(t, `        "prompts": 0,`+"\n", lines[69])
	lines[39] = `        "prompts": 3,` + "\n"
	lines[69] = `        "prompts": 4,` + "\n"
	return []byte(strings.Join(lines, "")), [2]string{"^boundary-desk/boundary-approval-does-not-persist$", "^boundary-desk/boundary-auto-approve-mode$"}, data
}

// TestObserveWriteConcurrent runs two observe -w at once on one desk, each
// rewriting another case, held together once each has its new text ready
// so that both read the file before either writes it: every round, both
// blocks are in the file, or a run exits non-zero naming the case it did
// not write and the other's block is there.
func TestObserveWriteConcurrent(t *testing.T) {
	t.Setenv("CI", "")
	broken, runs, want := twoBroken(t)
	path := filepath.Join(t.TempDir(), "desk.json")
	ids := [2]string{"boundary-desk/boundary-approval-does-not-persist", "boundary-desk/boundary-auto-approve-mode"}
	wantPrompts := [2]int64{2, 0}
	var ready sync.WaitGroup
	beforeCommit = func(string) {
		ready.Done()
		ready.Wait()
	}
	t.Cleanup(func() { beforeCommit = nil })
	for round := 0; round < 20; round++ {
		require.NoError(t, os.WriteFile(path, broken, 0o600))
		ready.Add(2)
		var codes [2]int
		var errs [2]string
		var wg sync.WaitGroup
		for i := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var out, errOut bytes.Buffer
				codes[i] = run([]string{"observe", "-w", "-run", runs[i], path}, &out, &errOut)
				errs[i] = errOut.String()
			}()
		}
		wg.Wait()
		got, err := os.ReadFile(path)
		require.NoError(t, err)
		wrote := 0
		for i := range 2 {
			in := gjson.GetBytes(got, "cases."+strconv.Itoa(i)+".expected.prompts").Int() == wantPrompts[i]
			switch {
			case codes[i] == 0:
				assert.True(t, in, "round %d: run %d exited 0, so its block is in the file", round, i)
				wrote++
			default:
				assert.False(t, in, "round %d: run %d did not write", round, i)
				assert.Contains(t, errs[i], "changed after it was read", "round %d", round)
				assert.Contains(t, errs[i], "not written: the expected block of "+ids[i], "round %d", round)
			}
		}
		assert.GreaterOrEqual(t, wrote, 1, "round %d: one of the two runs writes", round)
		if wrote == 2 {
			assert.Equal(t, string(want), string(got), "round %d", round)
		}
	}
	matches, err := filepath.Glob(filepath.Join(filepath.Dir(path), ".*"))
	require.NoError(t, err)
	assert.Empty(t, matches, "no temporary file is left")
}

// TestObserveWriteRefuses holds what observe -w will not write without
// -force, and a file an editor saved while it was being rewritten.
func TestObserveWriteRefuses(t *testing.T) {
	t.Setenv("CI", "")
	broken, runs, _ := twoBroken(t)
	id := "boundary-desk/boundary-approval-does-not-persist"
	t.Run("a read-only file", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "desk.json")
		require.NoError(t, os.WriteFile(path, broken, 0o444))
		code, _, errOut := runCLI(t, "observe", "-w", "-run", runs[0], path)
		assert.Equal(t, 2, code)
		assert.Contains(t, errOut, "read-only (mode 0444); -force writes it anyway")
		got, _ := os.ReadFile(path)
		assert.Equal(t, string(broken), string(got))
		code, _, errOut = runCLI(t, "observe", "-w", "-force", "-run", runs[0], path)
		assert.Equal(t, 0, code, errOut)
		got, _ = os.ReadFile(path)
		assert.NotEqual(t, string(broken), string(got))
		info, _ := os.Stat(path)
		assert.Equal(t, os.FileMode(0o444), info.Mode().Perm(), "the mode is kept")
	})
	t.Run("a file with another hard link", func(t *testing.T) {
		dir := t.TempDir()
		path, other := filepath.Join(dir, "desk.json"), filepath.Join(dir, "same.json")
		require.NoError(t, os.WriteFile(path, broken, 0o600))
		if err := os.Link(path, other); err != nil {
			t.Skipf("no hard links here: %v", err)
		}
		code, _, errOut := runCLI(t, "observe", "-w", "-run", runs[0], path)
		assert.Equal(t, 2, code)
		assert.Contains(t, errOut, "1 other hard link, which would keep the old text")
		got, _ := os.ReadFile(path)
		assert.Equal(t, string(broken), string(got))
		code, _, errOut = runCLI(t, "observe", "-w", "-force", "-run", runs[0], path)
		assert.Equal(t, 0, code, errOut)
		got, _ = os.ReadFile(path)
		assert.NotEqual(t, string(broken), string(got))
		kept, _ := os.ReadFile(other)
		assert.Equal(t, string(broken), string(kept), "the other link keeps the old text, as said")
	})
	t.Run("-force needs -w", func(t *testing.T) {
		code, _, errOut := runCLI(t, "observe", "-force", "-run", runs[0])
		assert.Equal(t, 2, code)
		assert.Contains(t, errOut, "it needs -w")
	})
	t.Run("an editor saves the file before it is renamed into place", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "desk.json")
		require.NoError(t, os.WriteFile(path, broken, 0o600))
		edited := bytes.Replace(broken, []byte(`"title": "Third desk`), []byte(`"title": "Edited third desk`), 1)
		require.NotEqual(t, broken, edited)
		beforeCommit = func(p string) {
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
			require.NoError(t, err)
			_, err = f.Write(edited)
			require.NoError(t, err)
			require.NoError(t, f.Close())
		}
		t.Cleanup(func() { beforeCommit = nil })
		code, _, errOut := runCLI(t, "observe", "-w", "-run", runs[0], path)
		assert.Equal(t, 2, code)
		assert.Contains(t, errOut, "changed after it was read")
		assert.Contains(t, errOut, "not written: the expected block of "+id)
		got, _ := os.ReadFile(path)
		assert.Equal(t, string(edited), string(got), "the editor's text stays")
	})
}

// zeros is an endless run of NUL bytes, counting what is read of it.
type zeros struct{ read int }

func (z *zeros) Read(p []byte) (int, error) {
	if z.read >= 8<<20 {
		return 0, io.EOF
	}
	clear(p)
	z.read += len(p)
	return len(p), nil
}

// TestObserveWriteLongAnswer: -i reads an answer of at most a line's
// bound, and an answer longer than that ends the questions.
func TestObserveWriteLongAnswer(t *testing.T) {
	t.Setenv("CI", "")
	broken, runs, _ := twoBroken(t)
	path := filepath.Join(t.TempDir(), "desk.json")
	require.NoError(t, os.WriteFile(path, broken, 0o600))
	z := &zeros{}
	old := stdin
	stdin = z
	t.Cleanup(func() { stdin = old })
	code, out, errOut := runCLI(t, "observe", "-w", "-i", "-run", runs[0]+"|"+runs[1], path)
	assert.Equal(t, 2, code, out)
	assert.Contains(t, errOut, "an answer longer than 64 bytes; taken as q")
	assert.LessOrEqual(t, z.read, 64<<10, "the answer is not read to its end")
	got, _ := os.ReadFile(path)
	assert.Equal(t, string(broken), string(got))
}

// rangeDesk is a bundled desk of a family of versioned releases with the
// desk's hosts range widened to every release: the desk's text, its id,
// the host, a case whose expected block differs between releases of the
// range and one whose block holds on all of them but for a key the desk
// does not assert (so that observe -w writes it).
type rangeDesk struct {
	text, id, host     string
	differs, holdsOnly string
}

// everyRelease builds the rangeDesk, running observe -w on each case of
// the first bundled desk of the family that names no hosts range until it
// has found both cases.
func everyRelease(t *testing.T) rangeDesk {
	t.Helper()
	f := releasedFamily(t)
	reg := all.Registry()
	for _, d := range bundledDesks(t) {
		data := string(deskData(t, d))
		if gjson.Get(data, "hosts").Exists() {
			continue
		}
		head := "  \"id\": " + strconv.Quote(d.ID) + ",\n"
		rd := rangeDesk{id: d.ID, host: f.Host.Name}
		rd.text = strings.Replace(data, head, head+"  \"hosts\": {\""+rd.host+"\": \"*\"},\n", 1)
		require.NotEqual(t, data, rd.text)
		for _, c := range gjson.Get(data, "cases").Array() {
			if _, fam, _ := reg.Lookup(c.Get("scenario").String()); fam.Host.Name != rd.host {
				continue
			}
			path := filepath.Join(t.TempDir(), "desk.json")
			require.NoError(t, os.WriteFile(path, []byte(rd.text), 0o600))
			code, out, _ := runCLI(t, "observe", "-w", "-run", "^"+regexp.QuoteMeta(d.ID+"/"+c.Get("id").String())+"$", path)
			got, _ := os.ReadFile(path)
			switch {
			case code == 1 && rd.differs == "":
				rd.differs = c.Get("id").String()
			case code == 0 && rd.holdsOnly == "" && strings.Contains(out, "this block holds on each)") && string(got) != rd.text:
				rd.holdsOnly = c.Get("id").String()
			}
			if rd.differs != "" && rd.holdsOnly != "" {
				return rd
			}
		}
	}
	t.Fatalf("no bundled desk of %s has a case that differs between its releases and one that holds on each with a key to add", f.Host.Name)
	return rangeDesk{}
}

// TestObserveWriteReleaseRange: a case judged on releases that behave
// differently gets a block only where one holds on all of them, named by
// its releases; otherwise observe -w says what differs, proposes ranges
// that would each hold one and exits 1; a second run changes nothing.
func TestObserveWriteReleaseRange(t *testing.T) {
	t.Setenv("CI", "")
	rd := everyRelease(t)
	path := filepath.Join(t.TempDir(), "desk.json")
	require.NoError(t, os.WriteFile(path, []byte(rd.text), 0o600))
	h := regexp.QuoteMeta(rd.host)
	code, out, errOut := runCLI(t, "observe", "-w", "-run", "^"+regexp.QuoteMeta(rd.id+"/"+rd.differs)+"$", path)
	assert.Equal(t, 1, code, errOut)
	assert.Contains(t, out, `no one expected block holds on every release of its hosts range "*", so it is left as it is`)
	assert.Regexp(t, `(?m)^    [^ :]+: .+ on `+h+` [^;]+; .+ on `+h+` .+$`, out, "what differs, on which releases")
	assert.Regexp(t, `narrow the case's range to the releases that behave as the newest, "hosts": \{"`+h+`": "[^"]+"\}, or split it into a case for each range: "[^"]+" \([^)]+\), "[^"]+" \([^)]+\)`, out)
	assert.Contains(t, out, "nothing rewritten: 1 case has no one block on the releases of its range")
	got, _ := os.ReadFile(path)
	assert.Equal(t, rd.text, string(got), "no block that fails on part of the range is written")
	code, out, errOut = runCLI(t, "observe", "-w", "-run", "^"+regexp.QuoteMeta(rd.id+"/"+rd.holdsOnly)+"$", path)
	assert.Equal(t, 0, code, errOut)
	assert.Regexp(t, `\(observed on `+h+` [^:]+: this block holds on each\)`, out)
	got, _ = os.ReadFile(path)
	assert.NotEqual(t, rd.text, string(got))
	// The whole desk, twice: the second run leaves the file as the first did.
	code, _, errOut = runCLI(t, "observe", "-w", path)
	assert.Equal(t, 1, code, errOut)
	once, _ := os.ReadFile(path)
	code, out, errOut = runCLI(t, "observe", "-w", path)
	assert.Equal(t, 1, code, errOut)
	assert.Contains(t, out, "nothing rewritten")
	twice, _ := os.ReadFile(path)
	assert.Equal(t, string(once), string(twice))
}

// TestObserveWriteReleaseRangeCRLF: a file of CR LF lines settles as one
// of LF lines does: the second run writes nothing.
func TestObserveWriteReleaseRangeCRLF(t *testing.T) {
	t.Setenv("CI", "")
	rd := everyRelease(t)
	path := filepath.Join(t.TempDir(), "desk.json")
	require.NoError(t, os.WriteFile(path, []byte(strings.ReplaceAll(rd.text, "\n", "\r\n")), 0o600))
	run := "^" + regexp.QuoteMeta(rd.id+"/"+rd.holdsOnly) + "$"
	code, _, errOut := runCLI(t, "observe", "-w", "-run", run, path)
	require.Equal(t, 0, code, errOut)
	once, _ := os.ReadFile(path)
	assert.NotEqual(t, strings.ReplaceAll(rd.text, "\n", "\r\n"), string(once))
	code, out, errOut := runCLI(t, "observe", "-w", "-run", run, path)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "nothing to rewrite")
	twice, _ := os.ReadFile(path)
	assert.Equal(t, string(once), string(twice))
}

// TestObserveWriteShowsNoControls: what observe -w prints of a case (its
// title, the values it rewrites) reaches the terminal escaped, as every
// other text output does: a title could clear the screen or set the
// window's title.
func TestObserveWriteShowsNoControls(t *testing.T) {
	t.Setenv("CI", "")
	hostile := "x\u001b]0;owned\u0007\u001b[2J\u009b31m\u202eFAKE PASS"
	quoted, err := json.Marshal(hostile)
	require.NoError(t, err)
	// The first bundled case with an expected string, in a desk of its
	// own, that string and its title made hostile: the case fails on it.
	var desk, key string
	for _, d := range bundledDesks(t) {
		for _, c := range gjson.GetBytes(deskData(t, d), "cases").Array() {
			c.Get("expected").ForEach(func(k, v gjson.Result) bool {
				if v.Type != gjson.String {
					return true
				}
				var block map[string]any
				require.NoError(t, json.Unmarshal([]byte(c.Get("expected").Raw), &block))
				block[k.String()] = hostile
				expected, err := json.Marshal(block)
				require.NoError(t, err)
				try := `{"schemaVersion":1,"id":"esc","title":"t","label":"DO NOT EXECUTE","domain":"d","executionPolicy":"Inert",` +
					`"sources":{"s":"x"},"cases":[{"id":"c0","title":` + string(quoted) + `,"scenario":` + c.Get("scenario").Raw + `,` +
					`"given":` + c.Get("given").Raw + `,"expected":` + string(expected) + `,"why":"w","sourceRefs":["s"]}],"sourceOnly":[]}`
				if _, ds := verifier.LoadAll(all.Registry(), []verifier.Input{{Path: "esc.json", Data: []byte(try)}}, verifier.Limits{}); !ds.HasErrors() {
					desk, key = try, k.String()
					return false
				}
				return true
			})
			if desk != "" {
				break
			}
		}
		if desk != "" {
			break
		}
	}
	require.NotEmpty(t, desk, "a bundled case has an expected string")
	path := filepath.Join(t.TempDir(), "desk.json")
	require.NoError(t, os.WriteFile(path, []byte(desk), 0o600))
	code, out, errOut := runCLI(t, "observe", "-w", path)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, `esc/c0 — x\u001b]0;owned\u0007\u001b[2J\u009b31m\u202eFAKE PASS`)
	assert.Contains(t, out, "~ "+key+": authored ", "the value it rewrites is shown")
	for _, r := range out + errOut {
		if r == '\n' {
			continue
		}
		assert.False(t, r < 0x20 || (r >= 0x7f && r <= 0x9f) || (r >= 0x202a && r <= 0x202e), "a raw %U reached the terminal:\n%s", r, out)
	}
}
