package reports

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/internal/gen"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// streamInputs are suites to make reports of both ways: whole (Verify and
// Build) and streamed (VerifyEach and Stream).
func streamInputs(t *testing.T) map[string][]verifier.Input {
	t.Helper()
	var bundled []verifier.Input
	for _, f := range all.Desks() {
		bundled = append(bundled, verifier.Input{Path: f.Path, Data: f.Data})
	}
	read := func(paths ...string) []verifier.Input {
		var out []verifier.Input
		for _, p := range paths {
			data, err := os.ReadFile(p)
			require.NoError(t, err)
			out = append(out, verifier.Input{Path: p, Data: data})
		}
		return out
	}
	// Three generated files in which many cases expect effects, calls or
	// prompts they do not get: hundreds of failures in every file, more
	// than the report cards or annotates (and, with the bounds lowered,
	// locates).
	var failing []verifier.Input
	for _, f := range gen.Suite(3000, 1000) {
		data := f.Data
		for _, swap := range [][2]string{{`"prompts":0`, `"prompts":3`}, {`"prompts":1`, `"prompts":7`}, {`"effects":0`, `"effects":5`}, {`"effects":1`, `"effects":6`}, {`"toolCalls":1`, `"toolCalls":4`}} {
			data = bytes.ReplaceAll(data, []byte(swap[0]), []byte(swap[1]))
		}
		failing = append(failing, verifier.Input{Path: filepath.Join("generated", f.Name), Data: data})
	}
	return map[string][]verifier.Input{
		"bundled":            bundled,
		"failing and values": read(withFamilyDesks(t, mutatedDesk(t), "../cmd/deskcheck/testdata/values/values-desk.json", "../cmd/deskcheck-host/testdata/wrong-expectation.json")...),
		"thousands failing":  failing,
	}
}

// withFamilyDesks adds to paths the desks the families' adapters keep
// for their own tests and the desks deskcheck new prints for each
// scenario, each that loads without error beside those before it (a desk
// id is not read twice).
func withFamilyDesks(t *testing.T, paths ...string) []string {
	t.Helper()
	adapters, err := filepath.Glob("../host/*/*/testdata/*.json")
	require.NoError(t, err)
	news, err := filepath.Glob("../cmd/deskcheck/testdata/new-*.json")
	require.NoError(t, err)
	require.NotEmpty(t, news)
	var inputs []verifier.Input
	load := func(p string) []verifier.Input {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		return append(slices.Clone(inputs), verifier.Input{Path: p, Data: data})
	}
	for _, p := range paths {
		inputs = load(p)
	}
	added := 0
	for _, p := range append(adapters, news...) {
		more := load(p)
		if _, ds := verifier.LoadAll(testReg, more, verifier.Limits{}); !ds.HasErrors() {
			inputs, paths = more, append(paths, p)
			added++
		}
	}
	require.Greater(t, added, len(news)/2, "most family desks are read")
	return paths
}

// streamed makes the report of inputs through a Stream.
func streamed(t *testing.T, inputs []verifier.Input, traces bool) *Report {
	t.Helper()
	r, _ := streamedTexts(t, inputs, traces)
	return r
}

// streamedTexts is streamed, with the text of each desk as it was loaded.
func streamedTexts(t *testing.T, inputs []verifier.Input, traces bool) (*Report, []string) {
	t.Helper()
	st := NewStream(fixedOrigin, traces)
	t.Cleanup(func() { st.Close() })
	var texts []string
	each := func(d *verifier.Desk, results []verifier.Result, claims []*verifier.Claim) error {
		texts = append(texts, d.Root().Raw)
		return st.Desk(d, results, claims)
	}
	suite, ds, err := verifier.VerifyEach(context.Background(), inputs, verifier.Options{Registry: testReg}, each)
	require.NoError(t, err)
	require.False(t, ds.HasErrors(), "%v", ds)
	r, err := st.Finish(suite)
	require.NoError(t, err)
	return r, texts
}

// everyFormat renders r in every format and its annotations.
func everyFormat(t *testing.T, r *Report, text Text) map[string]string {
	t.Helper()
	out := map[string]string{}
	reporters := map[string]Reporter{"github": GitHub{Errors: GitHubLimit, Warnings: GitHubLimit, Registry: testReg}, "sarif": SARIF{Registry: testReg}}
	for _, f := range Formats(text) {
		reporters[f.Name] = f.Reporter
	}
	for name, rep := range reporters {
		var buf bytes.Buffer
		require.NoError(t, rep.Write(&buf, r), name)
		out[name] = buf.String()
	}
	return out
}

// TestStreamIsBuild: a report streamed desk by desk says, byte for byte
// in every format, what the report built from the whole suite says.
func TestStreamIsBuild(t *testing.T) {
	for name, inputs := range streamInputs(t) {
		for _, tt := range []struct {
			verbose         bool
			located, budget int
		}{{false, LocatedCases, locateBudget}, {true, LocatedCases, locateBudget}, {false, 100, 2500}} {
			t.Run(fmt.Sprintf("%s/verbose=%v/located=%d/budget=%d", name, tt.verbose, tt.located, tt.budget), func(t *testing.T) {
				defer func(l, b int) { locatedCases, locateBudget = l, b }(locatedCases, locateBudget)
				locatedCases, locateBudget = tt.located, tt.budget
				suite, ds, err := verifier.Verify(context.Background(), inputs, verifier.Options{Registry: testReg})
				require.NoError(t, err)
				require.False(t, ds.HasErrors())
				text := Text{Verbose: tt.verbose, Dimensions: true}
				whole := Build(suite, fixedOrigin)
				want := everyFormat(t, whole, text)
				got := everyFormat(t, streamed(t, inputs, tt.verbose), text)
				for format := range want {
					if !assert.True(t, want[format] == got[format], "the streamed %s differs", format) {
						diffAt(t, want[format], got[format])
					}
				}
				if name == "thousands failing" && tt.located == 100 {
					located, desks := 0, map[string]bool{}
					for _, c := range whole.Cases {
						if c.Line > 0 {
							located++
							desks[c.Desk] = true
						}
					}
					assert.Equal(t, 100, located, "the most located")
					assert.Len(t, desks, 2, "the walking budget lets two files of 1,000 cases be walked")
				}
			})
		}
	}
}

// diffAt logs where two renderings part.
func diffAt(t *testing.T, want, got string) {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	from := max(0, i-200)
	t.Logf("first difference at byte %d:\nwant …%s\ngot  …%s", i, want[from:min(len(want), i+200)], got[from:min(len(got), i+200)])
}

// TestStreamWithoutTemporaryFiles: where no temporary file can be made,
// the cases' lines are held in memory and the report is the same.
func TestStreamWithoutTemporaryFiles(t *testing.T) {
	inputs := streamInputs(t)["failing and values"]
	want := everyFormat(t, streamed(t, inputs, false), Text{})
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	st := NewStream(fixedOrigin, false)
	defer st.Close()
	assert.Nil(t, st.spill.f, "no temporary folder: the lines are held in memory")
	got := everyFormat(t, streamed(t, inputs, false), Text{})
	assert.Equal(t, want, got)
}

// TestStreamKeepsLittle: of a passing case that no page shows whole, the
// stream keeps neither its blocks nor its observations nor its trace; of
// a failed one past the cards, its mismatches and trace but not its
// blocks; and no kept string shares memory with the desk's file.
func TestStreamKeepsLittle(t *testing.T) {
	inputs := streamInputs(t)["thousands failing"]
	r, texts := streamedTexts(t, inputs, false)
	passing, failing := 0, 0
	for i := range r.Cases {
		c := &r.Cases[i]
		if failed(c) {
			failing++
			if failing > FailureCards {
				assert.Nil(t, c.Given, c.ID)
				assert.Nil(t, c.Observed, c.ID)
				assert.NotEmpty(t, c.whole().Mismatches, c.ID)
			}
			continue
		}
		passing++
		if passing > PassingCards {
			assert.Nil(t, c.Given, c.ID)
			assert.Nil(t, c.Expected, c.ID)
			assert.Nil(t, c.Observed, c.ID)
			assert.Nil(t, c.Trace, c.ID)
			assert.Nil(t, c.Suggested, c.ID)
		}
	}
	require.Greater(t, failing, FailureCards, "the suite must fail more cases than are carded")
	require.Greater(t, passing, PassingCards)
	assertNoFileMemory(t, inputs, texts, r)
}

// TestStreamSharesNoFileMemory: no string a streamed report keeps, in any
// field of any case (the cards' observations and the failures' traces
// included) or claim, lies inside the bytes of a case file or the text its
// desk was read from, so a report that keeps a case keeps none of its file.
func TestStreamSharesNoFileMemory(t *testing.T) {
	for name, inputs := range streamInputs(t) {
		t.Run(name, func(t *testing.T) {
			r, texts := streamedTexts(t, inputs, true)
			require.Len(t, texts, len(inputs))
			assertNoFileMemory(t, inputs, texts, r)
		})
	}
}

func assertNoFileMemory(t *testing.T, inputs []verifier.Input, texts []string, r *Report) {
	t.Helper()
	type span struct{ from, to uintptr }
	var spans []span
	for _, in := range inputs {
		if len(in.Data) > 0 {
			q := uintptr(unsafe.Pointer(unsafe.SliceData(in.Data)))
			spans = append(spans, span{q, q + uintptr(len(in.Data))})
		}
	}
	for _, text := range texts {
		if len(text) > 0 {
			q := uintptr(unsafe.Pointer(unsafe.StringData(text)))
			spans = append(spans, span{q, q + uintptr(len(text))})
		}
	}
	inside := func(s string) bool {
		if s == "" {
			return false
		}
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		for _, sp := range spans {
			if p >= sp.from && p < sp.to {
				return true
			}
		}
		return false
	}
	bad := 0
	check := func(where, s string) {
		if inside(s) {
			bad++
			if bad <= 5 {
				t.Errorf("%s: %q shares the memory of its file", where, s)
			}
		}
	}
	var walk func(where string, v any)
	walk = func(where string, v any) {
		switch x := v.(type) {
		case string:
			check(where, x)
		case []string:
			for _, e := range x {
				check(where, e)
			}
		case []any:
			for _, e := range x {
				walk(where, e)
			}
		case map[string]any:
			for k, e := range x {
				check(where, k)
				walk(where+"/"+k, e)
			}
		case map[string]string:
			for k, e := range x {
				check(where, k)
				check(where, e)
			}
		}
	}
	for _, c := range r.Cases {
		id := c.Desk + "/" + c.ID
		for _, s := range []string{c.Desk, c.ID, c.Title, c.Scenario, c.Arena, string(c.Status), c.Why, c.Unit, c.Error, c.Range, c.Release, c.Reason, c.Dimensions.Control} {
			check(id, s)
		}
		for _, v := range c.Releases {
			for _, s := range []string{v.Host, v.Release, v.Group, string(v.Status), v.Reason} {
				check(id+" releases", s)
			}
		}
		for _, ref := range c.SourceRefs {
			check(id+" sourceRefs", ref.Key)
			check(id+" sourceRefs", ref.Source)
		}
		walk(id+" observed", c.Observed)
		walk(id+" comparisons", c.Comparisons)
		for _, m := range c.Mismatches {
			check(id+" mismatch", m.Field)
			check(id+" mismatch", m.Comparison)
			walk(id+" mismatch expected", m.Expected)
			walk(id+" mismatch observed", m.Observed)
			for _, ch := range m.Changes {
				check(id+" change", ch.Path)
				walk(id+" change", ch.Expected)
				walk(id+" change", ch.Observed)
			}
		}
		for _, e := range c.Trace {
			check(id+" trace", e.Kind)
			check(id+" trace", e.Text)
		}
		for _, x := range c.Suggested {
			check(id+" suggested", x.Key)
			walk(id+" suggested", x.Value)
		}
	}
	for _, cl := range r.SourceOnly {
		for _, s := range []string{cl.Desk, cl.ID, cl.Claim, cl.NotExecuted} {
			check("claim "+cl.ID, s)
		}
		for _, ref := range cl.SourceRefs {
			check("claim "+cl.ID, ref.Source)
		}
	}
	for _, f := range r.Provenance.Files {
		check("provenance", f.Path)
		check("provenance", f.Desk)
	}
}

// TestLocatePlanTakesFirstFailures: whatever the failures, the budget and
// the most located, the cases chosen in each desk are its first failures,
// which is what lets a stream locate a desk's failures while its text is
// at hand, before the suite's are known.
func TestLocatePlanTakesFirstFailures(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 300; round++ {
		desks := 1 + rng.IntN(8)
		sizes := make([]int, desks)
		for d := range sizes {
			sizes[d] = 1 + rng.IntN(50)
		}
		var failed []failure
		perDesk := map[int][]int{}
		for i := 0; i < 200; i++ {
			if rng.IntN(3) == 0 {
				d := rng.IntN(desks)
				failed = append(failed, failure{i: i, desk: d, size: sizes[d]})
				perDesk[d] = append(perDesk[d], i)
			}
		}
		most, budget := rng.IntN(40), rng.IntN(120)
		order, todo := locatePlan(failed, most, budget)
		total, work := 0, 0
		for _, d := range order {
			chosen := todo[d]
			require.Equal(t, perDesk[d][:len(chosen)], chosen, "round %d desk %d: a prefix of its failures", round, d)
			total += len(chosen)
			work += sizes[d]
		}
		assert.LessOrEqual(t, total, most)
		assert.LessOrEqual(t, work, budget)
		assert.Equal(t, len(order), len(todo))
	}
}

// TestStreamWithoutJSON: a stream that makes no line of report.json gives
// every other format as Build does, and refuses to give report.json.
func TestStreamWithoutJSON(t *testing.T) {
	for _, name := range []string{"failing and values", "thousands failing"} {
		inputs := streamInputs(t)[name]
		suite, _, err := verifier.Verify(context.Background(), inputs, verifier.Options{Registry: testReg})
		require.NoError(t, err)
		text := Text{Verbose: true, Dimensions: true}
		want := everyFormat(t, Build(suite, fixedOrigin), text)
		st := NewStreamWithoutJSON(fixedOrigin, true)
		defer st.Close()
		assert.Nil(t, st.spill.f, "no temporary file is made")
		each := func(d *verifier.Desk, results []verifier.Result, claims []*verifier.Claim) error {
			return st.Desk(d, results, claims)
		}
		s, _, err := verifier.VerifyEach(context.Background(), inputs, verifier.Options{Registry: testReg}, each)
		require.NoError(t, err)
		r, err := st.Finish(s)
		require.NoError(t, err)
		for _, f := range Formats(text) {
			if f.Name == "json" {
				require.EqualError(t, f.Reporter.Write(io.Discard, r), "the report was made without report.json's evidence of the cases", name)
				continue
			}
			var buf bytes.Buffer
			require.NoError(t, f.Reporter.Write(&buf, r), f.Name)
			assert.True(t, want[f.Name] == buf.String(), "%s: the %s output is Build's", name, f.Name)
		}
		for format, rep := range map[string]Reporter{"github": GitHub{Errors: GitHubLimit, Warnings: GitHubLimit, Registry: testReg}, "sarif": SARIF{Registry: testReg}} {
			var buf bytes.Buffer
			require.NoError(t, rep.Write(&buf, r))
			assert.True(t, want[format] == buf.String(), "%s: the %s output is Build's", name, format)
		}
	}
}

// TestReleaseAsWrittenWritesOnce: a streamed report released as written
// gives the same report.json once, and refuses to give it twice; the spill
// held in memory too.
func TestReleaseAsWrittenWritesOnce(t *testing.T) {
	inputs := streamInputs(t)["failing and values"]
	var want bytes.Buffer
	require.NoError(t, JSON{}.Write(&want, streamed(t, inputs, false)))
	for _, noTemp := range []bool{false, true} {
		t.Run(fmt.Sprintf("memory=%v", noTemp), func(t *testing.T) {
			if noTemp {
				t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
			}
			r := streamed(t, inputs, false)
			require.Equal(t, noTemp, r.spill.f == nil)
			r.ReleaseAsWritten()
			var got bytes.Buffer
			require.NoError(t, JSON{}.Write(&got, r))
			assert.True(t, want.String() == got.String(), "released as written, report.json is the same")
			require.EqualError(t, JSON{}.Write(io.Discard, r), "the cases' evidence is no longer at hand")
		})
	}
	suite, _, err := verifier.Verify(context.Background(), inputs, verifier.Options{Registry: testReg})
	require.NoError(t, err)
	r := Build(suite, fixedOrigin)
	r.ReleaseAsWritten()
	for range 2 {
		var got bytes.Buffer
		require.NoError(t, JSON{}.Write(&got, r), "a built report holds its cases")
	}
}

// TestLineBatchesBounded: a desk of large cases makes its lines of
// report.json a few at a time, within about lineBatchBytes, and the
// estimate of a line is close to its length.
func TestLineBatchesBounded(t *testing.T) {
	big := Case{Desk: "d", ID: "c", Status: verifier.Pass, Given: []byte(`{}`), Expected: []byte(`{}`)}
	for i := range 8000 {
		big.Trace = append(big.Trace, scenario.Event{Seq: i, Kind: "tick", Text: strings.Repeat("x", 100)})
	}
	line := big.appendJSON(nil)
	est := lineEstimate(&big)
	assert.InDelta(t, len(line), est, float64(len(line))/5, "the estimate is within a fifth of the line")
	full := make([]Case, 300)
	for i := range full {
		full[i] = big
	}
	held := 0
	for start, end := 0, 0; start < len(full); start = end {
		end = batchEnd(full, start)
		require.Greater(t, end, start)
		held = max(held, (end-start)*len(line))
	}
	assert.LessOrEqual(t, held, lineBatchBytes*5/4, "the lines of one batch")
	small := make([]Case, 1000)
	assert.Equal(t, lineBatch, batchEnd(small, 0), "small cases still go lineBatch at a time")
	one := []Case{big}
	one[0].Trace = append(one[0].Trace, make([]scenario.Event, 200000)...)
	assert.Equal(t, 1, batchEnd(one, 0), "a case larger than a batch is a batch of its own")
}

// TestLeanCopiesShareNames: the cases a streamed report keeps share one
// copy of their desk's id and scenario, and each holds its own id, title
// and why in one allocation, so that a large run's lean copies are few
// objects for the collector to mark.
func TestLeanCopiesShareNames(t *testing.T) {
	r, _ := streamedTexts(t, streamInputs(t)["thousands failing"], false)
	require.NotEmpty(t, r.Cases)
	desks, scenarios := map[string]*byte{}, map[string]*byte{}
	for i := range r.Cases {
		c := &r.Cases[i]
		if p, ok := desks[c.Desk]; ok {
			assert.Same(t, p, unsafe.StringData(c.Desk), "one copy of desk %s", c.Desk)
		}
		desks[c.Desk] = unsafe.StringData(c.Desk)
		if p, ok := scenarios[c.Scenario]; ok {
			assert.Same(t, p, unsafe.StringData(c.Scenario), "one copy of scenario %s", c.Scenario)
		}
		scenarios[c.Scenario] = unsafe.StringData(c.Scenario)
		if c.ID != "" && c.Title != "" {
			assert.Equal(t, uintptr(unsafe.Pointer(unsafe.StringData(c.ID)))+uintptr(len(c.ID)), uintptr(unsafe.Pointer(unsafe.StringData(c.Title))), "%s: id and title in one allocation", c.ID)
		}
	}
	assert.Greater(t, len(r.Cases), len(desks))

	// Their verdicts on each release hold no run's boundary, and cases
	// with the same verdicts share one list.
	lists := map[*verifier.ReleaseVerdict]bool{}
	withReleases := 0
	for i := range r.Cases {
		c := &r.Cases[i]
		if len(c.Releases) == 0 {
			continue
		}
		withReleases++
		lists[&c.Releases[0]] = true
		for _, v := range c.Releases {
			assert.Nil(t, v.Boundary, c.ID)
		}
	}
	require.Greater(t, withReleases, 100, "the suite must have cases of hosts with releases")
	assert.Less(t, len(lists)*10, withReleases, "%d lists for %d cases", len(lists), withReleases)
}

// TestStreamNamesBounded: past mostNames distinct names each is a copy
// of its own, the same text.
func TestStreamNamesBounded(t *testing.T) {
	st := NewStreamWithoutJSON(Origin{}, false)
	defer st.Close()
	for i := range mostNames + 100 {
		name := fmt.Sprintf("desk-%d", i)
		require.Equal(t, name, st.name(name))
	}
	assert.Len(t, st.names, mostNames)
	assert.Empty(t, st.name(""))
	a, b := st.name("desk-1"), st.name(strings.Clone("desk-1"))
	assert.Same(t, unsafe.StringData(a), unsafe.StringData(b), "a kept name is shared")
}

// overlaps reports whether a and b share any byte of memory.
func overlaps(a, b []byte) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	a0, b0 := uintptr(unsafe.Pointer(&a[0])), uintptr(unsafe.Pointer(&b[0]))
	return a0 < b0+uintptr(len(b)) && b0 < a0+uintptr(len(a))
}

// TestTakenCaseKeepsNoPooledBlock: Prepare compacts a case's given and
// expected blocks into a pooled buffer that the next case writes over;
// a lean copy that keeps the blocks keeps copies of its own, and the
// taken case lets the buffer go.
func TestTakenCaseKeepsNoPooledBlock(t *testing.T) {
	suite := suiteOf(t, "../cases/boundary-desk.json")
	st := NewStream(fixedOrigin, false)
	t.Cleanup(func() { st.Close() })
	d := suite.Desks[0]
	kept := 0
	for i := range suite.Results {
		s := st.Prepare(&suite.Results[i])
		require.NotNil(t, s.blocks)
		region := (*s.blocks)[:cap(*s.blocks)]
		given, expected := string(s.c.Given), string(s.c.Expected)
		require.True(t, overlaps(s.c.Given, region), "the blocks are compacted into the pooled buffer")
		require.NoError(t, st.Take(d, s))
		assert.Nil(t, s.c.Given)
		assert.Nil(t, s.blocks)
		chunk := st.cases[len(st.cases)-1]
		l := chunk[len(chunk)-1]
		if l.Given == nil {
			continue
		}
		kept++
		assert.False(t, overlaps(l.Given, region), l.ID)
		assert.False(t, overlaps(l.Expected, region), l.ID)
		assert.Equal(t, given, string(l.Given), l.ID)
		assert.Equal(t, expected, string(l.Expected), l.ID)
	}
	assert.Positive(t, kept, "some lean copies keep their blocks")
}
