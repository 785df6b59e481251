package reports

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/verifier"
)

func TestCompareFaults(t *testing.T) {
	base := withStrength(t)
	head := withStrength(t)
	var caught, missed string
	for i := range head.Strength.Results {
		f := &head.Strength.Results[i]
		switch {
		case f.Caught && caught == "":
			caught = f.Fault
			f.Caught, f.CaughtBy = false, nil
		case !f.Caught && missed == "":
			missed = f.Fault
			f.Caught, f.CaughtBy = true, []string{"boundary-desk/x"}
		}
	}
	d := Compare(base, head, "base.json", "head.json")
	assert.Equal(t, []FaultChange{
		{Fault: caught, Change: FaultNewlyMissed, Bug: d.Faults[0].Bug, Hint: d.Faults[0].Hint},
		{Fault: missed, Change: FaultNewlyCaught, Bug: d.Faults[1].Bug},
	}, d.Faults)
	assert.True(t, d.Regressed, "a fault newly missed is a regression")
	assert.Equal(t, 15, d.Counts[CaseUnchanged])

	var buf bytes.Buffer
	require.NoError(t, DiffGitHub(&buf, d, GitHub{}))
	assert.Contains(t, buf.String(), "::error title=fault "+caught+" newly missed::no case fails any more when ")

	d = Compare(base, base, "a", "b")
	assert.False(t, d.Regressed)
	assert.Empty(t, d.Faults)
	assert.Empty(t, d.Cases)
}

func TestCompareCases(t *testing.T) {
	base := stableReport(t, "../cases/boundary-desk.json")
	head := stableReport(t, mutatedDesk(t))
	// One case fails in the base and passes in the head; one gains a key
	// and keeps passing; one is new; the base's last is removed.
	base.Cases[0].Status = verifier.Fail
	head.Cases[1].Expected = []byte(strings.TrimSuffix(string(head.Cases[1].Expected), "}") + `,"extra":true}`)
	head.Cases = append(head.Cases, Case{Desk: "boundary-desk", ID: "brand-new", Status: verifier.Pass, Expected: []byte(`{}`)})
	removed := base.Cases[len(base.Cases)-1]
	head.Cases = append(head.Cases[:len(head.Cases)-2], head.Cases[len(head.Cases)-1])

	d := Compare(base, head, "base.json", "head.json")
	var got []string
	for _, c := range d.Cases {
		got = append(got, c.Change+" "+c.ID)
	}
	assert.Equal(t, []string{
		"pass→fail boundary-desk/boundary-deny-one-call",
		"fail→pass boundary-desk/" + base.Cases[0].ID,
		"expectation changed boundary-desk/" + base.Cases[1].ID,
		"new boundary-desk/brand-new",
		"removed boundary-desk/" + removed.ID,
	}, got)
	assert.Equal(t, []KeyChange{{Key: "prompts", Before: []byte("1"), After: []byte("2")}}, d.Cases[0].Expected)
	assert.Equal(t, []KeyChange{{Key: "extra", After: []byte("true")}}, d.Cases[2].Expected)
	assert.Equal(t, len(base.Cases)-4, d.Counts[CaseUnchanged])
	assert.True(t, d.Regressed)

	for name, render := range map[string]func(*bytes.Buffer) error{
		"text":     func(b *bytes.Buffer) error { return DiffText(b, d) },
		"markdown": func(b *bytes.Buffer) error { return DiffMarkdown(b, d) },
		"json":     func(b *bytes.Buffer) error { return DiffJSON(b, d) },
		"github":   func(b *bytes.Buffer) error { return DiffGitHub(b, d, GitHub{}) },
	} {
		var buf bytes.Buffer
		require.NoError(t, render(&buf), name)
		assert.Contains(t, buf.String(), "boundary-desk/brand-new", name)
	}
}

func TestComparable(t *testing.T) {
	base := stableReport(t, "../cases/boundary-desk.json")
	head := stableReport(t, "../cases/boundary-desk.json")
	require.NoError(t, Comparable(base, head))
	head.Provenance.CaseSchemaSHA256 = strings.Repeat("ab", 32)
	head.Provenance.Hosts[0].Reference = "a release of its own"
	err := Comparable(base, head)
	var inc *Incomparable
	require.ErrorAs(t, err, &inc)
	assert.Len(t, inc.Reasons, 2)
	assert.Contains(t, err.Error(), "their case schemas differ")
	assert.Contains(t, err.Error(), "host "+head.Provenance.Hosts[0].Name+" models ")
	assert.Contains(t, err.Error(), "(-force compares them anyway)")
}

func TestExpectedChangesIgnoreKeyOrder(t *testing.T) {
	assert.Empty(t, expectedChanges([]byte(`{"a":{"x":1,"y":[1,2]},"b":2}`), []byte(`{"b":2,"a":{"y":[1,2],"x":1}}`)))
	assert.Equal(t, []KeyChange{{Key: "a", Before: []byte(`{"x":1}`), After: []byte(`{"x":1.0}`)}}, expectedChanges([]byte(`{"a":{"x":1}}`), []byte(`{"a":{"x":1.0}}`)), "numbers as written")
}

// TestDiffBounded: a case with thousands of changed keys of long values
// is named in a bounded line.
func TestDiffBounded(t *testing.T) {
	var before, after strings.Builder
	before.WriteString("{")
	after.WriteString("{")
	for i := 0; i < 2000; i++ {
		if i > 0 {
			before.WriteString(",")
			after.WriteString(",")
		}
		fmt.Fprintf(&before, `"k%d":"%s"`, i, strings.Repeat("a", 5000))
		fmt.Fprintf(&after, `"k%d":"%s"`, i, strings.Repeat("b", 5000))
	}
	before.WriteString("}")
	after.WriteString("}")
	base := stableReport(t, "../cases/boundary-desk.json")
	head := stableReport(t, "../cases/boundary-desk.json")
	base.Cases[0].Expected = []byte(before.String())
	head.Cases[0].Expected = []byte(after.String())
	d := Compare(base, head, "a", "b")
	require.Len(t, d.Cases, 1)
	assert.Len(t, d.Cases[0].Expected, 2000)
	for name, render := range map[string]func(*bytes.Buffer) error{
		"text":     func(b *bytes.Buffer) error { return DiffText(b, d) },
		"markdown": func(b *bytes.Buffer) error { return DiffMarkdown(b, d) },
		"github":   func(b *bytes.Buffer) error { return DiffGitHub(b, d, GitHub{}) },
	} {
		var buf bytes.Buffer
		require.NoError(t, render(&buf), name)
		assert.Less(t, buf.Len(), 16<<10, name)
		assert.Contains(t, buf.String(), "1,990 more keys (the JSON format names them)", name)
	}
}

// TestCompareStimulus: a case whose given block or release range changed
// is "stimulus changed", naming each key, whatever its expectation.
func TestCompareStimulus(t *testing.T) {
	base := stableReport(t, "../cases/boundary-desk.json")
	head := stableReport(t, "../cases/boundary-desk.json")
	head.Cases[0].Given = []byte(`{"approval":"exec","mode":"yolo","autoApprove":true}`)
	base.Cases[0].Given = []byte(`{"approval":"read","mode":"write"}`)
	head.Cases[1].Range = ">=17.2.15"
	d := Compare(base, head, "a", "b")
	require.Len(t, d.Cases, 2)
	assert.Equal(t, CaseStimulusChanged, d.Cases[0].Change)
	assert.Equal(t, []KeyChange{
		{Key: "given.approval", Before: []byte(`"read"`), After: []byte(`"exec"`)},
		{Key: "given.mode", Before: []byte(`"write"`), After: []byte(`"yolo"`)},
		{Key: "given.autoApprove", After: []byte(`true`)},
	}, d.Cases[0].Stimulus)
	assert.Equal(t, []KeyChange{{Key: "hosts", After: []byte(`">=17.2.15"`)}}, d.Cases[1].Stimulus)
	assert.Equal(t, 2, d.Counts[CaseStimulusChanged])
	assert.False(t, d.Regressed)
	var text bytes.Buffer
	require.NoError(t, DiffText(&text, d))
	assert.Contains(t, text.String(), `stimulus changed     boundary-desk/`+base.Cases[0].ID+`  (stimulus given.approval: "read" → "exec"; given.mode: "write" → "yolo"; given.autoApprove: added true)`)
	assert.Contains(t, text.String(), `(stimulus hosts: added ">=17.2.15")`)
	assert.NotContains(t, text.String(), "&#34;", "plain text, not HTML")
	assert.NotContains(t, text.String(), "&amp;")
	var md bytes.Buffer
	require.NoError(t, DiffMarkdown(&md, d))
	assert.Contains(t, md.String(), `<td>stimulus given.approval: &#34;read&#34; → &#34;exec&#34;`)
	var gh bytes.Buffer
	require.NoError(t, DiffGitHub(&gh, d, GitHub{}))
	assert.Contains(t, gh.String(), `stimulus given.mode: "write" → "yolo"`)
}

// TestDiffNewFailing: new cases that fail are a regression the headline
// names.
func TestDiffNewFailing(t *testing.T) {
	base := stableReport(t, "../cases/boundary-desk.json")
	head := stableReport(t, "../cases/boundary-desk.json")
	for i := range 60 {
		head.Cases = append(head.Cases, Case{Desk: "boundary-desk", ID: fmt.Sprintf("new-%d", i), Status: verifier.Fail, Expected: []byte(`{}`)})
	}
	d := Compare(base, head, "a", "b")
	assert.True(t, d.Regressed)
	assert.Equal(t, 60, d.NewFailing)
	assert.Contains(t, d.Headline(), "diff REGRESSION — 60 new cases fail · ")
	assert.NotContains(t, d.Headline(), "no regression")
}

// TestDiffMarkdownWithinStepSummary: however many cases changed and
// however long their keys, the Markdown stays under GitHub's 1 MiB and
// says what it left out.
func TestDiffMarkdownWithinStepSummary(t *testing.T) {
	base := stableReport(t, "../cases/boundary-desk.json")
	head := stableReport(t, "../cases/boundary-desk.json")
	long := func(c byte) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range 12 {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"k%d":"%s"`, i, strings.Repeat(string(c), 400))
		}
		b.WriteString("}")
		return b.String()
	}
	for i := range 1200 {
		id := fmt.Sprintf("c-%d", i)
		status := []verifier.Status{verifier.Pass, verifier.Fail}[i%2]
		base.Cases = append(base.Cases, Case{Desk: "big", ID: id, Status: status, Expected: []byte(long('a')), Given: []byte(long('<'))})
		head.Cases = append(head.Cases, Case{Desk: "big", ID: id, Status: []verifier.Status{verifier.Fail, verifier.Pass, verifier.Pass}[i%3], Expected: []byte(long('b')), Given: []byte(long('>'))})
	}
	d := Compare(base, head, "a", "b")
	var md bytes.Buffer
	require.NoError(t, DiffMarkdown(&md, d))
	assert.Less(t, md.Len(), 1<<20, "within GitHub's step summary")
	assert.Contains(t, md.String(), "to keep this summary within GitHub's 1 MiB; `deskcheck diff -format json` lists them all.")
}
