package realhost

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/verifier"
)

// sampleRun is a run of the bundled desk's first four cases with one
// verdict of each kind, on a substituted release of a made-up host (the
// writers look no name up). The values are those of the first key the
// cases' scenario observes, so that the repro desk suggests it.
func sampleRun(t *testing.T) *Run {
	cs := bundledCases(t)[:4]
	key := observedKey(t, cs[2])
	real := map[string]any{key: "throw", "effects": 1.0}
	run := &Run{
		Host: "sample",
		Hello: Hello{Package: "@example/agent", Release: "18.3.4", Bun: "1.4.2", Source: "sample@18.3.4",
			Substituted: map[string]string{"@example/utils": "18.2.9"}, Isolation: "sandbox (bubblewrap): no network at all"},
		Model: "deskcheck's model of sample@18.3.4 (group G3)",
		Results: []CaseResult{
			{Case: cs[0], Verdict: Holds, Authored: cs[0].ExpectedRaw, Model: real, Real: real},
			{Case: cs[1], Verdict: DoesNotHold, Authored: cs[1].ExpectedRaw, Model: real, Real: real},
			{Case: cs[2], Verdict: Disagree, Authored: cs[2].ExpectedRaw, Model: map[string]any{key: "return"}, Real: real, Differ: []string{key},
				Repro: reproDesk(cs[2], real, []string{key}, "sample", Hello{Source: "sample@18.3.4", Release: "18.3.4"})},
			{Case: cs[3], Verdict: NotApplicable, Reason: "sample@17.3.5: no such module <here>"},
		},
		Summary: Summary{Cases: 4, Holds: 1, DoesNotHold: 1, Disagree: 1, NotApplicable: 1},
	}
	return run
}

// bundledCases loads the bundled boundary desk.
func bundledCases(t *testing.T) []*verifier.Case {
	t.Helper()
	for _, f := range all.Desks() {
		if filepath.Base(f.Path) == "boundary-desk.json" {
			desk, ds := verifier.Load(all.Registry(), f.Path, f.Data, verifier.Limits{})
			require.NotNil(t, desk, "%v", ds)
			return desk.Cases
		}
	}
	t.Fatal("no bundled boundary desk")
	return nil
}

// observedKey is the first key c's scenario observes, as the registry
// declares it.
func observedKey(t *testing.T, c *verifier.Case) string {
	t.Helper()
	sc, _, ok := all.Registry().Lookup(c.Scenario)
	require.True(t, ok, c.Scenario)
	keys := sc.Expected.Keys()
	require.NotEmpty(t, keys, c.Scenario)
	return keys[0]
}

func TestReportFormats(t *testing.T) {
	run := sampleRun(t)
	for _, f := range Formats {
		t.Run(f, func(t *testing.T) {
			var b bytes.Buffer
			require.NoError(t, Write(&b, f, []*Run{run}, true))
			out := b.String()
			switch f {
			case "json":
				require.True(t, json.Valid(b.Bytes()))
			case "junit":
				require.NoError(t, xml.Unmarshal(b.Bytes(), new(struct{})))
				assert.Contains(t, out, `failures="2"`)
				assert.Contains(t, out, `skipped="1"`)
			case "html":
				assert.Contains(t, out, "no such module &lt;here&gt;", "text is escaped")
			}
			for _, want := range []string{"holds on the real code", "does not hold on the real code", "model and real code disagree", "SUBSTITUTED", "sample@18.3.4"} {
				assert.Contains(t, out, want, f)
			}
			if f != "junit" && f != "html" { // they escape the apostrophe
				assert.Contains(t, out, Inertness, f)
			}
		})
	}
	assert.Error(t, Write(new(bytes.Buffer), "xml", nil, false))
}

func TestReproDeskLoads(t *testing.T) {
	run := sampleRun(t)
	repro := run.Results[2].Repro
	require.True(t, json.Valid(repro), "%s", repro)
	assert.Contains(t, string(repro), fmt.Sprintf(`%q: "throw"`, observedKey(t, run.Results[2].Case)))
}

// TestReportsEscapeWhatCameFromInside: a lone surrogate the real code
// observed is written as its escape in every format (report.json reads
// back to the same value), and the terminal controls a checkout's
// package name or an error it threw may hold (ESC, a C1 CSI, U+202E)
// never reach the output raw.
func TestReportsEscapeWhatCameFromInside(t *testing.T) {
	run := sampleRun(t)
	lone := "tool \xed\xa0\x80 end" // U+D800 alone, as deskcheck holds a host's string
	run.Hello.Package = "evil\x1b[2J\u202epkg\u009b31m"
	run.Results[1].Real = map[string]any{observedKey(t, run.Results[1].Case): "return", "input": lone}
	run.Results[3].Reason = "thrown: \x1b]0;title\x07 and \u202e"
	for _, f := range Formats {
		t.Run(f, func(t *testing.T) {
			var b bytes.Buffer
			require.NoError(t, Write(&b, f, []*Run{run}, true))
			out := b.String()
			assert.Contains(t, out, `\ud800`, "the lone surrogate is written as its escape")
			assert.NotContains(t, out, "\ufffd")
			for _, raw := range []string{"\x1b", "\u202e", "\u009b", "\x07", "\xed\xa0\x80"} {
				assert.NotContains(t, out, raw, "%q reached the %s output raw", raw, f)
			}
			if f == "json" {
				var doc struct {
					RealHost []struct {
						Cases []struct {
							Real json.RawMessage `json:"real"`
						} `json:"cases"`
					} `json:"realHost"`
				}
				require.NoError(t, json.Unmarshal(b.Bytes(), &doc))
				v, ok := jsontext.DecodeJS(doc.RealHost[0].Cases[1].Real)
				require.True(t, ok)
				assert.Equal(t, lone, v.(map[string]any)["input"], "report.json reads back to the observed value")
			}
		})
	}
}

// TestSectionOfARun: a run becomes the report's section with its host
// named (the sample's hello names none), its summary and its cases.
func TestSectionOfARun(t *testing.T) {
	run := sampleRun(t)
	require.Empty(t, run.Hello.Name)
	rc := Section([]*Run{run})
	require.Len(t, rc, 1)
	assert.Equal(t, "sample", rc[0].Host.Name)
	assert.Equal(t, sampleRun(t).Summary, rc[0].Summary)
	assert.Equal(t, []string{observedKey(t, run.Results[2].Case)}, rc[0].Cases[2].Differ)
}
