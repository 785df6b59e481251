package gemini

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
)

// StableStringify is the host's stableStringify of a tool call's arguments
// (policy/stable-stringify.js): JSON with every object's keys sorted (as
// JavaScript sorts strings, by UTF-16 code units), and each top-level
// "key":value pair framed by NUL characters. args is a plain JSON value
// (nil, bool, float64, string, []any, map[string]any).
//
// framed is off only under the mutant that drops the framing.
func StableStringify(args any, framed bool) string {
	var b strings.Builder
	writeStable(&b, args, framed)
	return b.String()
}

func writeStable(b *strings.Builder, v any, top bool) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case float64:
		b.WriteString(jsonNumber(x))
	case string:
		writeJSONString(b, x)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeStable(b, e, false)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sortJS(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			if top {
				b.WriteByte(0)
			}
			writeJSONString(b, k)
			b.WriteByte(':')
			writeStable(b, x[k], false)
			if top {
				b.WriteByte(0)
			}
		}
		b.WriteByte('}')
	default:
		b.WriteString("null")
	}
}

// sortJS sorts strings as JavaScript's default sort does: by UTF-16 code
// units.
func sortJS(keys []string) {
	sort.SliceStable(keys, func(i, j int) bool { return lessUTF16(keys[i], keys[j]) })
}

func lessUTF16(a, b string) bool {
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := 0; i < len(ua) && i < len(ub); i++ {
		if ua[i] != ub[i] {
			return ua[i] < ub[i]
		}
	}
	return len(ua) < len(ub)
}

// writeJSONString writes s as JavaScript's JSON.stringify does.
func writeJSONString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				b.WriteString(`\u00`)
				b.WriteString(strconv.FormatInt(int64(r)>>4, 16))
				b.WriteString(strconv.FormatInt(int64(r)&15, 16))
				continue
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

// JSONString is s as JSON.stringify writes it.
func JSONString(s string) string {
	var b strings.Builder
	writeJSONString(&b, s)
	return b.String()
}

// jsonNumber writes a number as JSON.stringify does: JavaScript's
// Number.prototype.toString, null for NaN and the infinities.
func jsonNumber(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "null"
	}
	return JSNumber(f)
}

// JSNumber is JavaScript's Number.prototype.toString of f (shortest
// round-trip digits; exponent form from 1e21 and below 1e-6).
func JSNumber(f float64) string {
	if f == 0 {
		return "0"
	}
	if math.IsNaN(f) {
		return "NaN"
	}
	if math.IsInf(f, 1) {
		return "Infinity"
	}
	if math.IsInf(f, -1) {
		return "-Infinity"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	e := strconv.FormatFloat(f, 'e', -1, 64)
	mant, expText, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expText)
	k, n := len(digits), exp+1
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	out := digits[:1]
	if k > 1 {
		out += "." + digits[1:]
	}
	es := "+"
	if n-1 < 0 {
		es = "-"
	}
	return sign + out + "e" + es + strconv.Itoa(absInt(n-1))
}

func absInt(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
