package agentloopcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/agentloop"
	"github.com/deskcheck/deskcheck/internal/checktest"
	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// readGivenFast, and the narration's writers, stand in for encoding/json.
// These tests hold each to the code it stands in for, and the script's
// refusals to the runner's.

// plainGiven is readGiven with encoding/json alone, the reference for
// readGivenFast.
func plainGiven(raw []byte) (given, error) {
	g, err := decodeGiven(raw)
	if err != nil {
		return given{}, err
	}
	return checkEntries(g)
}

func TestGivenReaderMatchesDecoder(t *testing.T) {
	givens := checktest.Mutations(t, []string{deskPath}, 30,
		`{"script": [{"tool": "calc", "args": {"expression": "1"}}]} trailing`, `{"script": [{"tool": "c\u0061lc"}], "maxSteps": -0}`,
		`{"script": [{"tool": null}]}`, `{"script": [{"final": "x", "args": {}}]}`, `{"writeGranted": null}`, `{"script": [`)
	require.Greater(t, checktest.SameDecoding(t, givens, readGiven, plainGiven, nil), 100)
	fast := 0
	for _, g := range givens {
		if _, ok := readGivenFast([]byte(g)); ok {
			fast++
		}
	}
	require.Greater(t, fast, 100)
	require.Greater(t, checktest.SameSpelling(t, givens, readGiven, spellingNorm), 100)
}

// spellingNorm is a decoded block with each entry's arguments read by
// their value, not their spelling.
func spellingNorm(g given) any {
	args := make([]any, len(g.Script))
	for i, e := range g.Script {
		if e.Args == nil {
			args[i] = "absent"
			continue
		}
		v, ok := jsontext.DecodePy(e.Args)
		if !ok { // a number beyond a double
			respelled, _ := checktest.Respell(e.Args)
			v = string(respelled)
		}
		args[i] = v
		g.Script[i].Args = nil
	}
	return []any{g, args}
}

// referenceShowArgs and referenceQuoted are the narration helpers as they
// were written with encoding/json.
func referenceShowArgs(raw json.RawMessage) string {
	if raw == nil {
		return "(no args)"
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return string(raw)
	}
	s := buf.String()
	if n := utf8.RuneCountInString(s); n > maxShownArgs {
		cut := 0
		for i := range s {
			if cut == maxShownArgs {
				s = s[:i] + fmt.Sprintf("… (%d characters)", n)
				break
			}
			cut++
		}
	}
	return s
}

func referenceQuoted(xs []string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(xs) != nil || len(xs) == 0 {
		return "[]"
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

func TestNarrationWritersMatchReference(t *testing.T) {
	rng := rand.New(rand.NewSource(8))
	pieces := []string{"a", " ", "\"", "\\", "\n", "\x01", "<", "&", "é", "😀", "\u2028", "\xff", "abcdefghij"}
	for range 5000 {
		var b strings.Builder
		for range rng.Intn(10) {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		s := b.String()
		xs := []string{s, s + "x"}[:rng.Intn(3)%2+rng.Intn(2)]
		require.Equal(t, referenceQuoted(xs), quoted(xs), "%q", xs)
		enc, _ := json.Marshal(s)
		arg := json.RawMessage(`{ "text" : ` + string(enc) + ` , "n": [1, 2] }`)
		require.Equal(t, referenceShowArgs(arg), showArgs(arg), "%q", arg)
	}
	for _, raw := range []string{`{ "a" : 1 }`, ``, `not json`, `"` + strings.Repeat("é", 100) + `"`, `[1, "a b", {"c" : "\" }"}]`} {
		var r json.RawMessage
		if raw != "" {
			r = json.RawMessage(raw)
		}
		require.Equal(t, referenceShowArgs(r), showArgs(r), raw)
	}
}

// TestRefusalMatchesModel: the refusal the script predicts for a request
// is the one the runner gives it, for every tool, grant and budget.
func TestRefusalMatchesModel(t *testing.T) {
	values := []string{`"1+2"`, `"caf\u00e9"`, `"\ud800"`, "\"\xff\"", `"` + strings.Repeat("é", 201) + `"`, `"` + strings.Repeat("a", 200) + `"`,
		`"` + strings.Repeat("a", 201) + `"`, `5`, `null`, `[1]`, `{"a":1}`, ` "a\"b" `}
	var args []json.RawMessage
	args = append(args, nil, json.RawMessage(` `), json.RawMessage(`[]`), json.RawMessage(`{`), json.RawMessage(`{}`), json.RawMessage(`{"expression":"1"} x`))
	for _, v := range values {
		for _, k := range []string{"expression", "text", "user_id", "expr\\u0065ssion", "x"} {
			args = append(args, json.RawMessage(` { "`+k+`" : `+v+` } `), json.RawMessage(`{"`+k+`":`+v+`,"`+k+`":`+v+`}`), json.RawMessage(`{"`+k+`":`+v+`,"y":1}`))
		}
	}
	refused := 0
	for _, a := range args {
		for _, tool := range []string{"calc", "lookup_user", "save_draft", "shell"} {
			e := entry{Tool: &tool, Args: a}
			for _, granted := range []bool{false, true} {
				for _, maxCalls := range []int{0, 3} {
					cfg := agentloop.NewConfig([]agentloop.Entry{agentloop.ToolRequest(tool, a)})
					cfg.MaxCalls, cfg.WriteGranted = maxCalls, granted
					res := agentloop.Run(cfg)
					require.Len(t, res.Requests, 1)
					want := res.Requests[0].Refusal
					require.Equal(t, want, refusal(e, granted, 0, maxCalls), "%s %q", tool, a)
					if want != agentloop.NotRefused {
						refused++
					}
				}
			}
		}
	}
	require.Greater(t, refused, 1000)
}
