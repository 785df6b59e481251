package checktest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A family may read its given block with a fast decoder of its own
// beside the plain one (encoding/json). SameDecoding holds the two to
// each other on every case of the family's desks and on mutations of
// them that a schema would refuse but a decoder must still take: keys in
// other case, repeated, unknown or dropped; values of other types;
// strings with escapes; odd spacing.

// node is a JSON value that keeps member order, so that mutations can
// repeat keys and rewrite values in place.
type node struct {
	kind    byte // '{', '[', 's' (string), 'r' (raw literal or number)
	keys    []string
	kids    []*node
	str     string
	literal string
}

func parseNode(t testing.TB, data []byte) *node {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var read func() *node
	read = func() *node {
		tok, err := dec.Token()
		require.NoError(t, err)
		switch v := tok.(type) {
		case json.Delim:
			n := &node{kind: byte(v)}
			for dec.More() {
				if v == '{' {
					k, err := dec.Token()
					require.NoError(t, err)
					n.keys = append(n.keys, k.(string))
				}
				n.kids = append(n.kids, read())
			}
			_, err := dec.Token()
			require.NoError(t, err)
			return n
		case string:
			return &node{kind: 's', str: v}
		case json.Number:
			return &node{kind: 'r', literal: v.String()}
		case bool:
			return &node{kind: 'r', literal: fmt.Sprint(v)}
		}
		return &node{kind: 'r', literal: "null"}
	}
	return read()
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
			enc, _ := json.Marshal(s)
			b.Write(enc)
			return
		}
		b.WriteByte('"')
		for _, r := range s {
			switch {
			case rng.Intn(4) == 0 && r < 0x10000:
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
	switch k := rng.Intn(8); {
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
	}
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
