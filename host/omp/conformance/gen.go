// Package conformance checks deskcheck's model of the OMP host
// (host/omp) against the published releases it models. Its tests run the
// same cases through deskcheck and through OMP's harness
// (host/omp/realhost, run by the driver realhost in its sandbox), a bun
// program that drives each release's own code, and require every
// observation to agree.
//
// This file holds what the tests need that is not a test: a seeded,
// reproducible generator of random cases, and the printer that turns a
// disagreement into a one-case desk. Nothing here runs a program or
// touches the network.
package conformance

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// jstr is a JavaScript string: UTF-16 code units, so that a lone surrogate
// can be written (as a \u escape) into the generated JSON.
type jstr []uint16

// js returns the code units of s. A surrogate in s's WTF-8 form (what
// odd puts into a string) is its own unit.
func js(s string) jstr { return jstr(jsontext.UTF16(s)) }

// member is one key of an ordered JSON object.
type member struct {
	key string
	val any
}

// obj is a JSON object whose keys keep their order.
type obj []member

// writeJSON writes v: nil, bool, int, string, jstr, obj or []any.
func writeJSON(b *bytes.Buffer, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int:
		b.WriteString(strconv.Itoa(x))
	case string:
		writeString(b, js(x))
	case jstr:
		writeString(b, x)
	case obj:
		b.WriteByte('{')
		for i, m := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, js(m.key))
			b.WriteByte(':')
			writeJSON(b, m.val)
		}
		b.WriteByte('}')
	case rawJSON:
		b.WriteString(string(x))
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, e)
		}
		b.WriteByte(']')
	default:
		panic(fmt.Sprintf("writeJSON: %T", v))
	}
}

// writeString writes code units as a JSON string: printable ASCII as is,
// everything else as \u escapes (lone surrogates included).
func writeString(b *bytes.Buffer, s jstr) {
	b.WriteByte('"')
	for _, u := range s {
		switch {
		case u == '"' || u == '\\':
			b.WriteByte('\\')
			b.WriteByte(byte(u))
		case u >= 0x20 && u < 0x7f:
			b.WriteByte(byte(u))
		default:
			fmt.Fprintf(b, `\u%04x`, u)
		}
	}
	b.WriteByte('"')
}

type gen struct{ r *rand.Rand }

func (g gen) chance(p float64) bool { return g.r.Float64() < p }
func (g gen) intn(n int) int        { return g.r.IntN(n) }
func (g gen) pick(xs ...any) any    { return xs[g.r.IntN(len(xs))] }

var (
	toolNames = []any{"seed_note", "mcp__shelf__lookup", "edit", "catalogue", "Seed"}
	words     = []any{"publish", "inspect", "shelve", "lend", "sort", "mend"}
	tiers     = []any{"read", "write", "exec", "Exec", "", "admin"}
	modes     = []any{"always-ask", "write", "yolo", "Yolo", "ask", " yolo"}
	// Policy values, with the trimming edge cases: U+FEFF is ECMAScript
	// whitespace and U+0085 is not.
	policies = []any{
		"allow", "deny", "prompt", " DENY ", "Prompt\t", "\ufeffdeny", "allow\ufeff", "\u0085deny", "deny\u0085",
		"\u00a0allow", "prompt\u3000", "\u2028deny\u2029", "\u200bdeny", "yes", "", 1, true, nil,
	}
	answers = []any{
		"Approve", "Approve", "Deny", "approve", "Approve ", "\ufeffApprove", nil, nil,
		"Approve seed_note Commands for Session", "",
	}
	errCodes    = []any{"EACCES", "EPERM", "EROFS", "ENOENT", "EISDIR", "eacces", "", "EACCES "}
	errMessages = []any{
		"EACCES: permission denied, open '/fictional/card'", "ENOENT: no such file, open '/fictional/EACCES/card'",
		"EPERM", "xEACCES", "EROFS read-only shelf", "eacces", "EACCES_X denied", "Operation not permitted", "",
		"\ufeffEPERM\u0085",
	}
	behaviours = []any{"complete", "decline", "fail"}
)

// text is random safety-check text: words, ANSI sequences of every kind
// Bun.stripANSI knows (and unterminated ones), C0/DEL/C1 controls,
// ECMAScript and non-ECMAScript whitespace, markdown characters,
// replacement characters and lone surrogates, sometimes long enough to be
// truncated.
func (g gen) text() jstr {
	pieces := []any{
		"Fictional seed shelf check", "check", "a*b_c", "[x](y)", "#1.", "a|b!", "`tick`", "\\",
		"\x1b[31m", "\x1b[0m", "\x1b[1;2H", "\x1b[38;5;200m", "\x1b[?25l", "\x1b]0;title\x07", "\x1b]8;;http://x\x1b\\",
		"\x1bM", "\x1b(B", "\x1bb", "\x1b", "\x1b[31", "\x1b]0;open", "\u009b31m", "\u009c", "\u0090dcs\u009c", "\x1bPq\x1b\\",
		"\x1b\u00e9", "\x1b(\U0001F600",
		"\x00", "\x07", "\x7f", "\u0085", "\u009f", "\r", "\n", "\t", "\v", "\f", "\r\n\t",
		" ", "\ufeff", "\u00a0", "\u3000", "\u2028", "\u205f", "\u200b",
		"\ufffd", "😀", "é",
	}
	var out jstr
	for n := 1 + g.intn(5); n > 0; n-- {
		switch {
		case g.chance(0.08):
			out = append(out, 0xd800+uint16(g.intn(0x800))) // a lone surrogate
		default:
			out = append(out, js(g.pick(pieces...).(string))...)
		}
	}
	if g.chance(0.05) {
		long := js(g.pick("x", "é", "😀", "ab\x1b[1m").(string))
		for len(out) < 480+g.intn(80) {
			out = append(out, long...)
		}
	}
	return out
}

// odd returns s, or now and then s with an unpaired surrogate put into it
// (in WTF-8 form, which js turns into its code unit) followed by a
// character that is written as another escape: "\udc42\u00e9", the
// pattern a reader that drops the escape after a lone surrogate gets
// wrong. Any other value is returned as it is.
func (g gen) odd(v any) any {
	s, ok := v.(string)
	if !ok || !g.chance(0.12) {
		return v
	}
	var u rune = 0xd800 + rune(g.intn(0x800))
	next := g.pick("\u00e9", "\u0085", "\t", "\U0001F600", "\u2028", "\ufeff", "\x01").(string)
	sur := string(jsontext.AppendSurrogate(nil, u))
	switch g.intn(3) {
	case 0:
		return sur + next + s
	case 1:
		return s + sur + next
	}
	cut := g.intn(len(s) + 1)
	for cut > 0 && cut < len(s) && s[cut]&0xC0 == 0x80 {
		cut-- // between characters
	}
	return s[:cut] + sur + next + s[cut:]
}

func (g gen) policyValue() any { return g.odd(g.pick(policies...)) }

func (g gen) wrapper() obj {
	var given obj
	add := func(k string, v any) { given = append(given, member{k, v}) }
	tool := "seed_note"
	if g.chance(0.3) {
		tool = g.odd(g.pick(toolNames...)).(string)
		add("tool", tool)
	}
	if !g.chance(0.15) {
		if g.chance(0.4) {
			add("approval", g.odd(g.pick(tiers...)))
		} else {
			var a obj
			if g.chance(0.7) {
				a = append(a, member{"tier", g.odd(g.pick(append(tiers, 1, nil)...))})
			}
			if g.chance(0.6) {
				a = append(a, member{"policy", g.policyValue()})
			}
			if g.chance(0.3) {
				a = append(a, member{"reason", g.odd(g.pick("Critical pattern detected", "", "shelf audit", "a*b", 3))})
			}
			if g.chance(0.3) {
				a = append(a, member{"override", g.odd(g.pick(true, true, false, "true", 1))})
			}
			if g.chance(0.25) {
				a = append(a, member{"policyKey", g.odd(g.pick("shelf", "", tool, 7))})
			}
			add("approval", a)
		}
	}
	if g.chance(0.8) {
		args := obj{{g.odd("action").(string), g.odd(g.pick(words...))}}
		if g.chance(0.3) {
			args = append(args, member{"n", g.intn(10)})
		}
		add("args", args)
	}
	if g.chance(0.8) {
		add("mode", g.odd(g.pick(modes...)))
	}
	if g.chance(0.7) {
		add("autoApprove", g.chance(0.5))
	}
	if g.chance(0.55) {
		var u obj
		keys := []any{tool, tool, "shelf", "other", "toString"}
		used := map[string]bool{}
		for n := 1 + g.intn(3); n > 0; n-- {
			k := g.odd(g.pick(keys...)).(string)
			if !used[k] {
				used[k] = true
				u = append(u, member{k, g.policyValue()})
			}
		}
		add("userPolicies", u)
	} else if g.chance(0.1) {
		// tools.approval is read raw: releases differ on a value that is
		// not an object.
		add("userPolicies", g.pick("deny", "seed_note", []any{"deny", "prompt"}, 7, true, nil))
	}
	if g.chance(0.8) {
		add("ui", g.pick(true, false, "rpc", "rpc"))
	}
	if g.chance(0.7) {
		var cs []any
		for n := 1 + g.intn(3); n > 0; n-- {
			cs = append(cs, g.odd(g.pick(answers...)))
		}
		add("choices", cs)
	}
	if g.chance(0.25) {
		add("repeat", 1+g.intn(3))
	}
	if g.chance(0.3) {
		if g.chance(0.8) {
			add("revise", obj{{g.odd("action").(string), g.odd(g.pick(words...))}, {"revised", true}})
		} else {
			add("revise", obj{})
		}
	}
	if g.chance(0.03) {
		// The rule of yolo mode that versions disagree on: an explicit tool
		// prompt against a user allow.
		given = setMember(given, "mode", "yolo")
		given = setMember(given, "approval", obj{{"policy", "prompt"}})
		given = setMember(given, "userPolicies", obj{{tool, "allow"}})
	}
	if g.chance(0.45) {
		switch g.intn(5) {
		case 0:
			add("safetyCheck", true)
		case 1:
			add("safetyCheck", false)
		case 2:
			add("safetyCheck", g.text())
		default:
			var checks []any
			for n := 1 + g.intn(3); n > 0; n-- {
				var c obj
				for _, k := range []string{"id", "code", "message"} {
					switch g.intn(4) {
					case 0: // absent
					case 1:
						c = append(c, member{k, ""})
					default:
						c = append(c, member{k, g.text()})
					}
				}
				checks = append(checks, c)
			}
			add("safetyCheck", checks)
		}
	}
	return given
}

// setMember sets key k of o, replacing it where it is.
func setMember(o obj, k string, v any) obj {
	for i := range o {
		if o[i].key == k {
			o[i].val = v
			return o
		}
	}
	return append(o, member{k, v})
}

func (g gen) errorValue() obj {
	var e obj
	if g.chance(0.7) {
		e = append(e, member{"code", g.odd(g.pick(errCodes...))})
	}
	return append(e, member{"message", g.odd(g.pick(errMessages...))})
}

func (g gen) fallback() obj {
	given := g.errorValue()
	if g.chance(0.3) {
		given = append(given, member{"retryError", g.errorValue()})
	}
	if g.chance(0.3) {
		given = append(given, member{"mkdirError", g.errorValue()})
	}
	if g.chance(0.6) {
		var hs []any
		for n := g.intn(4); n > 0; n-- {
			hs = append(hs, g.pick(behaviours...))
		}
		if hs == nil {
			hs = []any{}
		}
		given = append(given, member{"handlers", hs})
	}
	return given
}

func (g gen) classify() obj {
	given := g.errorValue()
	if g.chance(0.6) {
		given = append(given, member{"kind", g.pick("error", "object", "string")})
	}
	return given
}

// Placeholder expectations: the loader requires these keys, and the
// differential test compares observations, not verdicts.
var placeholder = map[string]obj{
	"wrapper":        {{"outcome", "return"}, {"effects", 0}},
	"fallback":       {{"outcome", "return"}, {"effects", 0}},
	"classify-error": {{"permissionDenied", false}, {"effects", 0}},
}

// memberNames are tool and policy names a JavaScript object reads as
// something else: members every object inherits, and names read as array
// indexes or a length.
var memberNames = []any{
	"constructor", "__proto__", "valueOf", "toString", "hasOwnProperty", "isPrototypeOf",
	"propertyIsEnumerable", "toLocaleString", "__defineGetter__", "0", "1", "length", "-1", "01", "4294967295",
}

// longReason is a reason past 2,000 characters.
var longReason = strings.Repeat("a shelf audit reason, ", 100)

// without returns o without key k.
func without(o obj, k string) obj {
	var out obj
	for _, m := range o {
		if m.key != k {
			out = append(out, m)
		}
	}
	return out
}

// edgeWrapper is a wrapper case at the edges the main set leaves out: a
// tool named like an inherited member or an index, often with no approval
// of its own (so the harness looks its name up among the release's own
// tools); user policies keyed by such names, or given as an array or a
// string, or with an array as a tool's policy; a reason past 2,000
// characters; and more than three calls and answers.
func (g gen) edgeWrapper() obj {
	given := g.wrapper()
	tool := g.odd(g.pick(memberNames...)).(string)
	given = setMember(given, "tool", tool)
	switch g.intn(3) {
	case 0:
		given = without(given, "approval")
	case 1:
		given = setMember(given, "approval", obj{
			{"tier", g.pick(tiers...)}, {"policy", g.policyValue()},
			{"reason", g.odd(g.pick(longReason, longReason+"\x1b[31m", "\u202e"+longReason))},
		})
	}
	switch g.intn(5) {
	case 0:
		policies := obj{{tool, g.policyValue()}}
		if other := g.pick(memberNames...).(string); other != tool {
			policies = append(policies, member{other, g.policyValue()})
		}
		given = setMember(given, "userPolicies", policies)
	case 1:
		given = setMember(given, "userPolicies", g.pick([]any{"deny"}, []any{"allow", "deny"}, []any{g.policyValue()}, []any{}))
	case 2:
		given = setMember(given, "userPolicies", g.pick("deny", "allow", "prompt", tool, ""))
	case 3:
		given = setMember(given, "userPolicies", obj{{tool, g.pick([]any{"deny"}, []any{"allow"}, []any{}, "deny")}})
	}
	given = setMember(given, "repeat", 4+g.intn(4))
	var cs []any
	for n := 4 + g.intn(5); n > 0; n-- {
		cs = append(cs, g.odd(g.pick(answers...)))
	}
	return setMember(given, "choices", cs)
}

// GenerateEdges returns a desk of n wrapper cases at the edges of
// edgeWrapper, apart from Generate's set so that its figures stay as they
// are. The same seed and n give the same bytes.
func GenerateEdges(seed uint64, n int) []byte {
	g := gen{rand.New(rand.NewPCG(seed, 0x65646765))}
	var cases []any
	for i := 0; i < n; i++ {
		cases = append(cases, obj{
			{"id", fmt.Sprintf("edge-%05d", i)},
			{"title", fmt.Sprintf("Generated edge case %d (seed %d)", i, seed)},
			{"scenario", "wrapper"},
			{"given", g.edgeWrapper()},
			{"expected", placeholder["wrapper"]},
		})
	}
	return desk(fmt.Sprintf("omp-conformance-edges-%d", seed), fmt.Sprintf("Generated OMP conformance cases at the edges, seed %d", seed), cases)
}

// Generate returns a desk of n random cases (about 60% wrapper, 20%
// fallback, 20% classify-error) that covers every given key of the three
// scenarios. The same seed and n give the same bytes.
func Generate(seed uint64, n int) []byte {
	g := gen{rand.New(rand.NewPCG(seed, 0x6f6d70))}
	var cases []any
	for i := 0; i < n; i++ {
		var scenario string
		var given obj
		switch x := g.intn(10); {
		case x < 6:
			scenario, given = "wrapper", g.wrapper()
		case x < 8:
			scenario, given = "fallback", g.fallback()
		default:
			scenario, given = "classify-error", g.classify()
		}
		cases = append(cases, obj{
			{"id", fmt.Sprintf("gen-%05d", i)},
			{"title", fmt.Sprintf("Generated case %d (seed %d)", i, seed)},
			{"scenario", scenario},
			{"given", given},
			{"expected", placeholder[scenario]},
		})
	}
	return desk(fmt.Sprintf("omp-conformance-%d", seed), fmt.Sprintf("Generated OMP conformance cases, seed %d", seed), cases)
}

func desk(id, title string, cases []any) []byte {
	var b bytes.Buffer
	writeJSON(&b, obj{
		{"schemaVersion", 1},
		{"id", id},
		{"title", title},
		{"label", "TEACHING DATA — DO NOT EXECUTE COMMAND STRINGS OR INSTALL AS AN EXTENSION"},
		{"cases", cases},
	})
	b.WriteByte('\n')
	return b.Bytes()
}

// rawJSON is JSON text written as is.
type rawJSON string

// Disagreement is one case on which deskcheck and the release differ.
type Disagreement struct {
	ID, Scenario string
	// Given is the case's given block, as JSON text.
	Given string
	// Release is what the release observed; Model what deskcheck observed.
	Release, Model map[string]any
	// Keys are the observation keys that differ.
	Keys []string
}

// expectedKeys are, per scenario, the keys a disagreement desk asserts, in
// the order deskcheck lists them.
var expectedKeys = map[string][]string{
	"wrapper":        {"outcome", "effects", "prompts", "toolCalls", "successfulCalls", "input", "errorIncludes", "promptIncludes", "rpcRequests", "providerSafetyApproved"},
	"fallback":       {"outcome", "effects", "primitiveAttempts", "handlerCalls", "errorIncludes", "causeIncludes"},
	"classify-error": {"permissionDenied", "effects"},
}

// DisagreementDesk returns a one-case desk for d, ready to add to the
// tests: the given block as the case had it and, as expected, what the
// release observed (absent values are left out; promptIncludes asserts the
// first dialog title).
func DisagreementDesk(d Disagreement, version string) []byte {
	var expected obj
	for _, k := range expectedKeys[d.Scenario] {
		v, ok := d.Release[k]
		if !ok || v == nil {
			continue
		}
		if k == "promptIncludes" {
			titles, _ := v.([]any)
			if len(titles) == 0 {
				continue
			}
			v = titles[0]
		}
		expected = append(expected, member{k, plainJSON(v)})
	}
	c := obj{
		{"id", d.ID},
		{"title", "The model and release @oh-my-pi/pi-coding-agent@" + version + " disagree on " + fmt.Sprint(d.Keys)},
		{"scenario", d.Scenario},
		{"given", rawJSON(d.Given)},
		{"expected", expected},
		{"why", "Found by the OMP conformance test; expected is what the release observed."},
	}
	var b bytes.Buffer
	writeDesk(&b, "omp-conformance-"+d.ID, c)
	return b.Bytes()
}

func writeDesk(b *bytes.Buffer, id string, c obj) {
	b.WriteString(`{"schemaVersion":1,"id":`)
	writeString(b, js(id))
	b.WriteString(`,"title":"A disagreement between deskcheck's OMP model and the release","cases":[{`)
	for i, m := range c {
		if i > 0 {
			b.WriteByte(',')
		}
		writeString(b, js(m.key))
		b.WriteByte(':')
		writeJSON(b, m.val)
	}
	b.WriteString("}]}\n")
}

// plainJSON converts a decoded JSON value (map[string]any, float64, ...)
// to the writer's types; object keys are sorted for a stable output.
func plainJSON(v any) any {
	switch x := v.(type) {
	case float64:
		if x == float64(int(x)) {
			return int(x)
		}
		return rawJSON(strconv.FormatFloat(x, 'g', -1, 64))
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		o := make(obj, 0, len(x))
		for _, k := range keys {
			o = append(o, member{k, plainJSON(x[k])})
		}
		return o
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plainJSON(e)
		}
		return out
	}
	return v
}
