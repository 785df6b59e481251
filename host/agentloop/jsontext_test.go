package agentloop

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/jsontext/libref"
)

// referenceArgument and referenceShortString are the checks as they were
// written with encoding/json, kept as the oracle for the readers that now
// stand in for it.
func referenceArgument(d Entry, t tool, faults Faults) (json.RawMessage, Refusal, string) {
	raw := trimSpace(d.Args)
	if d.Args == nil {
		raw = json.RawMessage("{}")
	}
	want := "{" + t.arg + "}"
	var args map[string]json.RawMessage
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &args) != nil {
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
	return trimSpace(value), NotRefused, ""
}

func referenceShortString(name string, raw json.RawMessage, faults Faults) (string, Refusal, string) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", RefusedShortStrings, fmt.Sprintf("short strings: %s is %s, not a string", name, kind(raw))
	}
	if n := utf8.RuneCountInString(s); n > MaxArgChars && !faults.Has(FaultStringLengthUnchecked) {
		return "", RefusedShortStrings, fmt.Sprintf("short strings: %s has %d characters > %d", name, n, MaxArgChars)
	}
	return s, NotRefused, ""
}

func TestArgumentChecksMatchReference(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	values := []string{`"1+2"`, `"u-100"`, `"caf\u00e9 \ud83d\ude00"`, `"\ud800"`, "\"\xff\"", `"` + strings.Repeat("é", 201) + `"`,
		`"` + strings.Repeat("a", 200) + `"`, `5`, `null`, `[1]`, `{"a":1}`, `"a\"b\\c\n"`, `true`, `"`, `"\x"`}
	names := []string{"expression", "user_id", "text", "Expression", "expr\\u0065ssion", "extra", ""}
	var args []json.RawMessage
	args = append(args, nil, json.RawMessage(``), json.RawMessage(`  `), json.RawMessage(`[]`), json.RawMessage(`"x"`),
		json.RawMessage(`{`), json.RawMessage(`{}`), json.RawMessage(`{"expression":"1"} x`), json.RawMessage(" \n{\"expression\" : \"1\"}\t"))
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
		args = append(args, json.RawMessage(strings.ReplaceAll(b.String(), `\\u`, `\u`)))
	}
	for _, a := range args {
		for _, name := range []string{"calc", "lookup_user", "save_draft"} {
			tl, _ := known(name)
			for _, f := range []Faults{0, Faults(FaultArgsSubset), Faults(FaultStringLengthUnchecked)} {
				r := &run{cfg: Config{Faults: f}}
				d := Entry{Tool: name, Args: a}
				wv, wr, ww := referenceArgument(d, tl, f)
				gv, gr, gw := r.argument(d, tl)
				require.Equal(t, [3]any{string(wv), wr, ww}, [3]any{libref.String(string(gv)), gr, gw}, "%q", a)
				if wr == NotRefused {
					ws, wr, ww := referenceShortString(tl.arg, wv, f)
					gs, gr, gw := r.shortString(tl.arg, gv)
					require.Equal(t, [3]any{ws, wr, ww}, [3]any{libref.String(gs), gr, gw}, "%q", a)
				}
			}
		}
	}
}
