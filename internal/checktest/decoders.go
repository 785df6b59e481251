package checktest

import (
	"bytes"
	"fmt"
	"math/rand"
	"runtime"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/internal/jsonx"
)

// A family may read its given block with a fast decoder of its own
// beside the plain one, and both read strings as the host's language
// does (internal/jsontext). SameDecoding holds the two to each other on
// every case of the family's desks and on mutations of them that a schema
// would refuse but a decoder must still take: keys in other case,
// repeated, unknown or dropped; values of other types; strings with
// escapes and lone surrogates, in values and in keys; numbers at the
// edges; odd spacing. SameSpelling holds a decoder to itself on each
// block and its copy with every key and string written with escapes,
// which no fast reader takes: the fallback must read what the fast path
// reads.

// node is a JSON value that keeps member order, so that mutations can
// repeat keys and rewrite values in place.
type node struct {
	kind    byte // '{', '[', 's' (string), 'r' (raw literal or number)
	keys    []string
	kids    []*node
	str     string
	literal string
}

// parseNode reads data as the hosts read JSON (internal/jsontext): keys
// and strings with their escapes decoded, an unpaired surrogate kept,
// numbers and literals as written.
func parseNode(t testing.TB, data []byte) *node {
	t.Helper()
	var read func(i int) (*node, int)
	read = func(i int) (*node, int) {
		if i >= len(data) {
			return nil, -1
		}
		switch c := data[i]; c {
		case '{':
			n := &node{kind: '{'}
			end := jsontext.EachMember(data, i, func(keyTok []byte, plain bool, start int) int {
				kid, end := read(start)
				if kid != nil {
					n.keys = append(n.keys, jsontext.StringValue(keyTok, plain))
					n.kids = append(n.kids, kid)
				}
				return end
			})
			return n, end
		case '[':
			n := &node{kind: '['}
			end := jsontext.EachElement(data, i, func(start int) int {
				kid, end := read(start)
				if kid != nil {
					n.kids = append(n.kids, kid)
				}
				return end
			})
			return n, end
		case '"':
			end, plain := jsontext.ScanString(data, i)
			if end < 0 {
				return nil, -1
			}
			return &node{kind: 's', str: jsontext.StringValue(data[i:end], plain)}, end
		}
		end := jsontext.ScanHostValue(data, i, 0)
		if end < 0 {
			return nil, -1
		}
		return &node{kind: 'r', literal: string(data[i:end])}, end
	}
	n, end := read(jsontext.SkipSpace(data, 0))
	require.True(t, end >= 0 && jsontext.SkipSpace(data, end) == len(data), "not one JSON value: %s", data)
	return n
}

func (n *node) clone() *node {
	c := *n
	c.keys = append([]string(nil), n.keys...)
	c.kids = make([]*node, len(n.kids))
	for i, k := range n.kids {
		c.kids[i] = k.clone()
	}
	return &c
}

// write serializes n; escape writes some characters of strings as \u
// escapes, space adds whitespace.
func (n *node) write(b *bytes.Buffer, rng *rand.Rand, escape, space bool) {
	ws := func() {
		if space && rng.Intn(3) == 0 {
			b.WriteString([]string{" ", "\n", "\t ", "\r\n"}[rng.Intn(4)])
		}
	}
	str := func(s string) {
		if !escape {
			b.Write(jsonx.AppendString(nil, s))
			return
		}
		b.WriteByte('"')
		for i := 0; i < len(s); {
			if u, ok := jsontext.SurrogateAt(s, i); ok {
				// A lone surrogate has no other spelling.
				fmt.Fprintf(b, `\u%04x`, u)
				i += 3
				continue
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			i += size
			switch {
			case rng.Intn(4) == 0 && r >= 0x10000:
				hi, lo := utf16.EncodeRune(r)
				fmt.Fprintf(b, `\u%04x\u%04x`, hi, lo)
			case rng.Intn(4) == 0:
				fmt.Fprintf(b, `\u%04x`, r)
			case r == '"' || r == '\\':
				b.WriteString(`\` + string(r))
			case r < 0x20:
				fmt.Fprintf(b, `\u%04x`, r)
			default:
				b.WriteRune(r)
			}
		}
		b.WriteByte('"')
	}
	ws()
	switch n.kind {
	case '{', '[':
		b.WriteByte(n.kind)
		for i, k := range n.kids {
			if i > 0 {
				b.WriteByte(',')
			}
			ws()
			if n.kind == '{' {
				str(n.keys[i])
				ws()
				b.WriteByte(':')
			}
			k.write(b, rng, escape, space)
		}
		ws()
		if n.kind == '{' {
			b.WriteByte('}')
		} else {
			b.WriteByte(']')
		}
	case 's':
		str(n.str)
	default:
		b.WriteString(n.literal)
	}
	ws()
}

// all lists n and every node below it.
func (n *node) all() []*node {
	out := []*node{n}
	for _, k := range n.kids {
		out = append(out, k.all()...)
	}
	return out
}

// mutate changes n in one random way.
func mutate(rng *rand.Rand, n *node) {
	nodes := n.all()
	var objects []*node
	for _, x := range nodes {
		if x.kind == '{' && len(x.kids) > 0 {
			objects = append(objects, x)
		}
	}
	values := []*node{{kind: 'r', literal: "null"}, {kind: 'r', literal: "true"}, {kind: 'r', literal: "5"}, {kind: 'r', literal: "2.5"},
		{kind: 'r', literal: "1e400"}, {kind: 's', str: "x"}, {kind: 's', str: "synthetic-operator"}, {kind: '['}, {kind: '{'},
		{kind: 's', str: "caf\u00e9 \U0001F600"}, {kind: 's', str: "ap-1"}}
	switch k := rng.Intn(10); {
	case k == 0 && len(objects) > 0: // a key in other case
		o := objects[rng.Intn(len(objects))]
		i := rng.Intn(len(o.keys))
		o.keys[i] = strings.ToUpper(o.keys[i][:1]) + o.keys[i][1:]
	case k == 1 && len(objects) > 0: // a repeated key
		o := objects[rng.Intn(len(objects))]
		i := rng.Intn(len(o.keys))
		o.keys = append(o.keys, o.keys[i])
		o.kids = append(o.kids, values[rng.Intn(len(values))].clone())
	case k == 2 && len(objects) > 0: // an unknown key
		o := objects[rng.Intn(len(objects))]
		o.keys = append(o.keys, "extra")
		o.kids = append(o.kids, values[rng.Intn(len(values))].clone())
	case k == 3 && len(objects) > 0: // a dropped key
		o := objects[rng.Intn(len(objects))]
		i := rng.Intn(len(o.keys))
		o.keys = append(o.keys[:i], o.keys[i+1:]...)
		o.kids = append(o.kids[:i], o.kids[i+1:]...)
	case k == 4: // a value of another type
		*nodes[rng.Intn(len(nodes))] = *values[rng.Intn(len(values))].clone()
	case k == 5: // a string with what needs escaping
		for _, x := range nodes {
			if x.kind == 's' && rng.Intn(3) == 0 {
				x.str += []string{"\"", "\\", "\n", "\u2028", "\x01", "é"}[rng.Intn(6)]
			}
		}
	case k == 6: // a lone surrogate in a string or a key
		var at []*string
		for _, x := range nodes {
			if x.kind == 's' {
				at = append(at, &x.str)
			}
			for i := range x.keys {
				at = append(at, &x.keys[i])
			}
		}
		if len(at) > 0 {
			s := at[rng.Intn(len(at))]
			cut := rng.Intn(len(*s) + 1)
			for cut > 0 && cut < len(*s) && !utf8.RuneStart((*s)[cut]) {
				cut--
			}
			*s = (*s)[:cut] + loneSurrogates[rng.Intn(len(loneSurrogates))] + (*s)[cut:]
		}
	case k == 7: // a number at the edges
		*nodes[rng.Intn(len(nodes))] = node{kind: 'r', literal: edgeNumbers[rng.Intn(len(edgeNumbers))]}
	}
}

// loneSurrogates are surrogates in the WTF-8 form the hosts' readers give
// an unpaired surrogate escape: the first and last high and low ones.
var loneSurrogates = []string{"\xed\xa0\x80", "\xed\xaf\xbf", "\xed\xb0\x80", "\xed\xbf\xbf"}

// edgeNumbers are number literals where readers part: zero's signs,
// fractions and exponents of whole numbers, integers past 32, 53 and 64
// bits, the ends of a double and a number beyond it.
var edgeNumbers = []string{
	"0", "-0", "1.0", "1E2", "1e-7", "-1", "0.1", "2147483648", "9007199254740993", "-9007199254740993",
	"9223372036854775808", "123456789012345678901234567890", "1e308", "-1.7976931348623157e308", "5e-324", "1e400",
}

// Mutations returns the given block of every case of the desk files at
// paths and, for each, rounds mutations of it (seeded: the same every
// run), as text, followed by extra.
func Mutations(t testing.TB, paths []string, rounds int, extra ...string) []string {
	t.Helper()
	rng := rand.New(rand.NewSource(5))
	var out []string
	for _, path := range paths {
		for _, c := range Desk(t, path) {
			out = append(out, string(c.Given))
			base := parseNode(t, c.Given)
			for range rounds {
				n := base.clone()
				for range 1 + rng.Intn(3) {
					mutate(rng, n)
				}
				var b bytes.Buffer
				n.write(&b, rng, rng.Intn(2) == 0, rng.Intn(2) == 0)
				out = append(out, b.String())
			}
		}
	}
	return append(out, extra...)
}

// SameDecoding checks that fast reads each of givens as plain does: the
// same error text, or values equal once norm has made them comparable
// (nil norm: compared as they are). It returns how many givens fast
// decoded without an error, so that a caller can require the fast path
// to be taken.
func SameDecoding[G any](t testing.TB, givens []string, fast, plain func([]byte) (G, error), norm func(G) any) int {
	t.Helper()
	if norm == nil {
		norm = func(g G) any { return g }
	}
	decoded := 0
	for _, g := range givens {
		want, wantErr := plain([]byte(g))
		got, err := fast([]byte(g))
		if wantErr != nil {
			require.EqualError(t, err, wantErr.Error(), g)
			continue
		}
		require.NoError(t, err, g)
		require.Equal(t, norm(want), norm(got), g)
		decoded++
	}
	return decoded
}

// SameSpelling checks that decode reads each of givens as it reads the
// same block with every key and string written with escapes (Respell),
// which sends it down the decoder's slowest path: the same error text, or
// values equal once norm has made them comparable (norm must read raw
// JSON a value keeps by its value, not its spelling). Givens that are not
// JSON are skipped. It returns how many givens decoded without an error.
func SameSpelling[G any](t testing.TB, givens []string, decode func([]byte) (G, error), norm func(G) any) int {
	t.Helper()
	decoded := 0
	for _, g := range givens {
		respelled, ok := Respell([]byte(g))
		if !ok {
			continue
		}
		want, wantErr := decode([]byte(g))
		got, err := decode(respelled)
		if wantErr != nil {
			require.Error(t, err, "%s\nrespelled: %s", g, respelled)
			require.Equal(t, wantErr.Error(), err.Error(), "%s\nrespelled: %s", g, respelled)
			continue
		}
		require.NoError(t, err, "%s\nrespelled: %s", g, respelled)
		require.Equal(t, norm(want), norm(got), "%s\nrespelled: %s", g, respelled)
		decoded++
	}
	return decoded
}

// Fails reports whether f fails the test it is given, without failing t:
// a test of a check can show that the check would catch a fault.
func Fails(t testing.TB, f func(t testing.TB)) bool {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r.failed
}

// recorder is a testing.TB whose failures are recorded instead of failing
// the test that holds it.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Fail()                 { r.failed = true }
func (r *recorder) Error(...any)          { r.failed = true }
func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) FailNow()              { r.failed = true; runtime.Goexit() }
func (r *recorder) Fatal(...any)          { r.FailNow() }
func (r *recorder) Fatalf(string, ...any) { r.FailNow() }
