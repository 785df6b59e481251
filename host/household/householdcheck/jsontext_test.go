package householdcheck

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/household"
	"github.com/deskcheck/deskcheck/internal/checktest"
	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/scenario"
)

// The readers of jsontext.go stand in for gjson and encoding/json when
// they can, decodeGivenFast for decodeGivenPlain. These tests hold each to the code it
// stands in for.

// deskGivens returns the given blocks of the bundled desk and of more.
func deskGivens(t *testing.T) []string {
	t.Helper()
	var givens []string
	for _, path := range []string{bundled, more} {
		for _, c := range checktest.Desk(t, path) {
			givens = append(givens, string(c.Given))
		}
	}
	return givens
}

func TestGivenReaderMatchesPlain(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	edits := []func(string) string{
		func(s string) string { return strings.Replace(s, `"decisions"`, `"decisions": [], "decisions"`, 1) },
		func(s string) string {
			return strings.Replace(s, `{`, `{"tools": ["future_value"], "tools": ["concentration"], `, 1)
		},
		func(s string) string { return strings.Replace(s, `{`, `{"households": "hh-anand", `, 1) },
		func(s string) string { return strings.Replace(s, `{`, `{"latencies": [1, "2", true], `, 1) },
		func(s string) string {
			return strings.Replace(s, `{`, `{"maxDecisions": 2.7, "toolSeconds": "0.5", `, 1)
		},
		func(s string) string {
			return strings.Replace(s, `{`, `{"deadlineSeconds": 1e400, "maxDecisions": 99999999999999999999, `, 1)
		},
		func(s string) string { return strings.Replace(s, `"hh-anand"`, `"hh-\u0061nand"`, -1) },
		func(s string) string { return strings.Replace(s, `"hh-anand"`, `"hh-\ud83d\ude00"`, 1) },
		func(s string) string {
			return strings.Replace(s, `"decisions": [`, `"decisions": ["raw \"text\" \u00e9", 5, null, `, 1)
		},
		func(s string) string { return strings.Replace(s, `"decisions"`, `"dec\u0069sions"`, 1) },
		func(s string) string { return strings.Replace(s, `{`, `{"unknown": {"a": [1, 2]}, `, 1) },
		func(s string) string { return s + " trailing" },
		func(s string) string { return s[:len(s)/2] },
		func(s string) string { return strings.Replace(s, " ", "\n\t", -1) },
	}
	all := checktest.Mutations(t, []string{bundled, more}, 25, checktest.Variants(rng, deskGivens(t), edits, 5)...)
	decoded := checktest.SameDecoding(t, all, decodeGiven, decodeGivenPlain, nil)
	fast := 0
	for _, g := range all {
		if _, ok := decodeGivenFast([]byte(g)); ok {
			fast++
		}
	}
	t.Logf("%d givens, %d decoded, %d of them by the fast reader", len(all), decoded, fast)
	require.Greater(t, decoded, 400)
	require.Greater(t, fast, 300)
	require.Greater(t, checktest.SameSpelling(t, all, decodeGiven, spellingNorm), 400)
}

// spellingNorm is a decoded block with each decision object read by its
// value, not its spelling.
func spellingNorm(g *given) any {
	cfg := g.cfg
	objects := make([]any, len(cfg.Decisions))
	for i, d := range cfg.Decisions {
		if d.Object != nil {
			v, ok := jsontext.DecodePy(d.Object)
			if !ok { // a number beyond a double
				respelled, _ := checktest.Respell(d.Object)
				v = string(respelled)
			}
			objects[i] = v
		} else {
			objects[i] = d.Text
		}
	}
	cfg.Decisions = nil
	return []any{cfg, g.keys, objects}
}

// referenceReadExpected is readExpected as it was written, with gjson
// finding the values and statuses read as json.loads reads them.
func referenceReadExpected(expected []scenario.Field) expectedScript {
	e := expectedScript{fields: expected, toolCalls: -1, observations: -1}
	length := func(v gjson.Result) int {
		n := 0
		each(v, func(_, _ gjson.Result) bool { n++; return true })
		return n
	}
	for _, f := range expected {
		v := gjson.ParseBytes(f.Raw)
		switch f.Key {
		case "effects":
			e.effects = int(v.Int())
		case "attempts":
			e.attempts = int(v.Int())
		case "denied":
			e.denied = int(v.Int())
		case "invalid":
			e.invalid = int(v.Int())
		case "toolCalls":
			e.toolCalls = length(v)
		case "observations":
			e.observations = length(v)
		case "statuses":
			s := &statusCounts{}
			each(v, func(_, x gjson.Result) bool {
				status, _ := jsontext.StringToken([]byte(x.Raw)) // as json.loads reads it
				s.add(status)
				return true
			})
			e.statuses = s
		}
	}
	return e
}

func TestExpectedReaderMatchesGJSON(t *testing.T) {
	var blocks [][]scenario.Field
	for _, path := range []string{bundled, more} {
		for _, c := range checktest.Desk(t, path) {
			blocks = append(blocks, c.Expected)
		}
	}
	odd := []string{`2.7`, `"3"`, `true`, `null`, `-0`, `99999999999999999999`, `1e2`, `[]`, `[1, [2], {"a": 3}]`, `{"a": 1}`, `"x"`,
		`["ok", "d\u0065nied", 5, null, "timeout"]`, `["ok", "\ud800"]`, `[`, `[1,]`}
	for _, key := range []string{"effects", "attempts", "denied", "invalid", "toolCalls", "observations", "statuses"} {
		for _, raw := range odd {
			blocks = append(blocks, []scenario.Field{{Key: key, Raw: []byte(raw)}, {Key: "effects", Raw: []byte(`1`)}})
		}
	}
	for _, b := range blocks {
		require.Equal(t, referenceReadExpected(b), readExpected(b), "%s", b)
	}
}

func TestPlainOfMatchesUnmarshal(t *testing.T) {
	texts := []string{`null`, `[1,1.50,-0,1e2,"<a&b>",{"z":[true,false,null],"a":"\u2028\u00e9\ud83d\ude00\ud800"}]`,
		`{"a":1,"a":2}`, `[1e400]`, "\"\xff\"", "\"\xff\\n\"", `"\"quoted\" \\ \/ \t"`, `[[[]]]`, `{}`, ` {"x" : [ ] } `, ``, `{`}
	for _, s := range texts {
		require.Equal(t, pyReference(json.RawMessage(s)), plainOf(json.RawMessage(s)), s)
	}
	// Every text the bundled desks' runs produce decodes fast, as Unmarshal
	// decodes it.
	for _, g := range deskGivens(t) {
		d, err := decodeGiven([]byte(g))
		require.NoError(t, err)
		res, err := household.Run(d.cfg)
		require.NoError(t, err)
		texts := []json.RawMessage{res.ToolCalls, res.UserResult, res.PolicyCode}
		for _, a := range res.Attempts {
			texts = append(texts, a.Arguments, a.Output, a.Observation)
		}
		for _, tx := range texts {
			if tx == nil {
				continue
			}
			got, ok := jsontext.DecodePy(tx)
			require.True(t, ok, string(tx))
			require.Equal(t, pyReference(tx), got, string(tx))
		}
	}
}

func TestAdmittedAttemptMatchesSscanf(t *testing.T) {
	texts := []string{"attempt 1 passed admit and the portfolio.read contract", "attempt 12 passed admit", "attempt 03 passed admit",
		"attempt +3 passed admit", "attempt  3 passed admit", "attempt 3 passed", "attempt 99999999999999999999 passed admit",
		`scenario " base " trimmed to "base" on the live arguments`, "attempt x passed admit", ""}
	for _, text := range texts {
		var n int
		_, err := fmt.Sscanf(text, "attempt %d passed admit", &n)
		got, ok := admittedAttempt(text)
		require.Equal(t, err == nil, ok, text)
		if ok {
			require.Equal(t, n, got, text)
		}
	}
}

// pyReference is raw as json.loads reads it, built from encoding/json:
// numbers as literals, an integer kept exact ("-0" is 0), any other number
// a double; strings as the library decodes them, but where it decodes an
// unpaired surrogate escape to U+FFFD the reference keeps it. Text the
// library refuses (a number beyond a double) stays text, as plainOf keeps
// it.
func pyReference(raw json.RawMessage) any {
	v, err := jsontext.DecodeUseNumber(raw)
	if err != nil {
		return string(raw)
	}
	beyond := false
	var conv func(v any) any
	conv = func(v any) any {
		switch x := v.(type) {
		case json.Number:
			if strings.ContainsAny(string(x), ".eE") {
				f, err := x.Float64()
				beyond = beyond || err != nil
				return f
			}
			if x == "-0" {
				return json.Number("0")
			}
			return x
		case []any:
			for i, e := range x {
				x[i] = conv(e)
			}
		case map[string]any:
			for k, e := range x {
				x[k] = conv(e)
			}
		}
		return v
	}
	out := conv(v)
	if beyond {
		return string(raw)
	}
	return out
}
