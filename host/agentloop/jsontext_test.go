package agentloop

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/checktest"
	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/internal/jsonx"
)

// referenceArgument and referenceShortString are the checks written on
// the value json.loads gives the arguments (jsontext.DecodePy), the
// oracle for the readers the runner uses.
func referenceArgument(d Entry, t tool, faults Faults) (json.RawMessage, Refusal, string) {
	raw := trimSpace(d.Args)
	if d.Args == nil {
		raw = json.RawMessage("{}")
	}
	want := "{" + t.arg + "}"
	v, ok := jsontext.DecodePy(raw)
	if !ok && jsontext.WholeHostValue(raw) {
		// A number beyond a double, which no desk holds (the loader
		// refuses it): json.loads reads it as inf, which no check reads.
		v, ok = jsontext.DecodePy(beyondDouble.ReplaceAll(raw, []byte("0")))
	}
	args, isObject := v.(map[string]any)
	if len(raw) == 0 || raw[0] != '{' || !ok || !isObject {
		return nil, RefusedArgumentNames, fmt.Sprintf("argument names: the arguments are %s, not an object with %s", kind(raw), want)
	}
	value, has := args[t.arg]
	exact := has && len(args) == 1
	if faults.Has(FaultArgsSubset) {
		exact = has
	}
	if !exact {
		names := make([]string, 0, len(args))
		for k := range args {
			names = append(names, k)
		}
		sort.Strings(names)
		return nil, RefusedArgumentNames, fmt.Sprintf("argument names {%s} ≠ %s", strings.Join(names, ", "), want)
	}
	return jsonx.Append(nil, value), NotRefused, ""
}

// beyondDouble matches a number literal with an exponent of three digits.
var beyondDouble = regexp.MustCompile(`-?[0-9]+(\.[0-9]+)?[eE][+-]?[0-9]{3,}`)

func referenceShortString(name string, raw json.RawMessage, faults Faults) (string, Refusal, string) {
	v, _ := jsontext.DecodePy(raw)
	s, ok := v.(string)
	if len(raw) == 0 || raw[0] != '"' || !ok {
		return "", RefusedShortStrings, fmt.Sprintf("short strings: %s is %s, not a string", name, kind(raw))
	}
	if n := jsontext.CodePoints(s); n > MaxArgChars && !faults.Has(FaultStringLengthUnchecked) {
		return "", RefusedShortStrings, fmt.Sprintf("short strings: %s has %d characters > %d", name, n, MaxArgChars)
	}
	return s, NotRefused, ""
}

// valueText is raw as json.loads reads it, written back: the same for any
// spelling of the same value.
func valueText(raw []byte) string {
	if v, ok := jsontext.DecodePy(raw); ok {
		return string(jsonx.Append(nil, v))
	}
	return string(raw)
}

// argumentChecks applies the exact-names and short-string checks, with
// check and short, to every request of a given block, as each tool would
// read it under the faults that change them: one line per check.
func argumentChecks(given []byte, check func(*run, Entry, tool) (json.RawMessage, Refusal, string), short func(*run, string, json.RawMessage) (string, Refusal, string)) ([]string, error) {
	var g struct {
		Script []struct {
			Args json.RawMessage `json:"args"`
		} `json:"script"`
	}
	if err := json.Unmarshal(given, &g); err != nil {
		return nil, err
	}
	var out []string
	for _, e := range g.Script {
		for _, name := range []string{"calc", "lookup_user", "save_draft"} {
			tl, _ := known(name)
			for _, f := range []Fault{0, FaultArgsSubset, FaultStringLengthUnchecked} {
				r := &run{cfg: Config{Faults: Faults{}.With(f)}}
				v, ref, why := check(r, Entry{Tool: name, Args: e.Args}, tl)
				line := fmt.Sprintf("%s %d: %q %d %s", name, f, valueText(v), ref, why)
				if ref == NotRefused {
					s, ref, why := short(r, tl.arg, v)
					line += fmt.Sprintf(" / %q %d %s", s, ref, why)
				}
				out = append(out, line)
			}
		}
	}
	return out, nil
}

// TestArgumentChecksMatchReference: the runner reads the arguments of
// every request of the bundled desk's cases, of mutations of them and of
// generated ones as the checks written on json.loads's value do.
func TestArgumentChecksMatchReference(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	values := []string{`"1+2"`, `"u-100"`, `"caf\u00e9 \ud83d\ude00"`, `"\ud800"`, "\"\xff\"", `"` + strings.Repeat("é", 201) + `"`,
		`"` + strings.Repeat("a", 200) + `"`, `5`, `null`, `[1]`, `{"a":1}`, `"a\"b\\c\n"`, `true`, `"`, `"\x"`}
	names := []string{"expression", "user_id", "text", "Expression", "expr\\u0065ssion", "extra", ""}
	// Arguments that are not one object, or not JSON, go in as text the
	// given block cannot hold: a script of its own each.
	var extra []string
	for _, a := range []string{`[]`, `"x"`, `{}`, `{"expression":"1"}`, " \n{\"expression\" : \"1\"}\t", `{"a":{"b":[1,{"c":[]}]}}`} {
		extra = append(extra, `{"script": [{"args": `+a+`}, {}]}`)
	}
	for range 3000 {
		var b strings.Builder
		b.WriteString([]string{"{", " { ", "{\n"}[rng.Intn(3)])
		for i := range rng.Intn(4) {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "%q:%s", names[rng.Intn(len(names))], values[rng.Intn(len(values))])
		}
		b.WriteString([]string{"}", " } ", "}"}[rng.Intn(3)])
		extra = append(extra, `{"script": [{"args": `+strings.ReplaceAll(b.String(), `\\u`, `\u`)+`}]}`)
	}
	givens := checktest.Mutations(t, []string{"../../cases/runner-desk.json"}, 30, extra...)
	fast := func(given []byte) ([]string, error) {
		return argumentChecks(given, (*run).argument, (*run).shortString)
	}
	plain := func(given []byte) ([]string, error) {
		check := func(r *run, d Entry, t tool) (json.RawMessage, Refusal, string) {
			return referenceArgument(d, t, r.cfg.Faults)
		}
		short := func(r *run, name string, raw json.RawMessage) (string, Refusal, string) {
			return referenceShortString(name, raw, r.cfg.Faults)
		}
		return argumentChecks(given, check, short)
	}
	// Of 3,471 blocks, those that are not JSON are refused alike before
	// any check (a given block holds JSON arguments only).
	require.Greater(t, checktest.SameDecoding(t, givens, fast, plain, nil), 2800)
}
