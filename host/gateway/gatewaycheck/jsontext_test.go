package gatewaycheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/gateway"
	"github.com/deskcheck/deskcheck/host/internal/checktest"
	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/scenario"
)

// The readers of jsontext.go stand in for encoding/json when they can.
// These tests hold each to the encoding/json code it stands in for, on the
// bundled givens and on mutations of them that a schema would refuse but
// Run, Suggest and Script still take: keys in other case or repeated,
// values of other types, strings with escapes, odd spacing.

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

// givens returns the bundled givens and mutations of them, as text.
func givens(t *testing.T, rounds int) []string {
	t.Helper()
	rng := rand.New(rand.NewSource(5))
	var out []string
	for _, c := range checktest.Desk(t, "../../../cases/gateway-desk.json") {
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
	return append(out, `{`, `[]`, `null`, `{"principal":"p","steps":[{"request":{"action":"read"}}]} x`, "{\"principal\":\"\xff\",\"steps\":[]}")
}

func TestGivenReaderMatchesEncodingJSON(t *testing.T) {
	fast := 0
	for _, g := range givens(t, 40) {
		want, wantErr := decodeGivenJSON([]byte(g))
		got, err := decodeGiven([]byte(g))
		if wantErr != nil {
			require.EqualError(t, err, wantErr.Error(), g)
			continue
		}
		require.NoError(t, err, g)
		require.Equal(t, normGiven(want), normGiven(got), g)
		if _, ok := readGivenFast([]byte(g)); ok {
			fast++
		}

		n, ok := topLevelCount([]byte(g), "approvals")
		wn, wok := approvalsJSON([]byte(g))
		if ok {
			require.True(t, wok, g)
			require.Equal(t, wn, n, g)
		}
		if n, ok := topLevelCount([]byte(g), "steps"); ok {
			require.Equal(t, stepsJSON([]byte(g)), n, g)
		}
		for _, s := range want.Steps {
			if action, ok := requestActionFast(s.Request); ok {
				require.Equal(t, requestActionJSON(s.Request), action, string(s.Request))
			}
		}
	}
	require.Greater(t, fast, 100, "the fast reader takes the givens written plainly")
}

// normGiven makes a decoded block comparable: raw values as text, pointers
// as values.
func normGiven(g givenBlock) any {
	type approval struct {
		ID, Principal, Action, Resource, Arguments, State, ExpiresAt string
		ArgumentsDigest                                              *string
		Consumed                                                     bool
	}
	type step struct {
		Request                   string
		ApprovalID, Principal     *string
		PolicyUnavailable, Tamper bool
		HasRequest                bool
	}
	out := struct {
		Principal string
		Now       *string
		Approvals []approval
		Records   map[string]string
		Steps     []step
	}{Principal: g.Principal, Now: g.Now}
	for _, a := range g.Approvals {
		out.Approvals = append(out.Approvals, approval{a.ID, a.Principal, a.Action, a.Resource, string(a.Arguments), a.State, a.ExpiresAt, a.ArgumentsDigest, a.Consumed})
	}
	if g.Records != nil {
		out.Records = map[string]string{}
		for k, v := range g.Records {
			out.Records[k] = string(v)
		}
	}
	for _, s := range g.Steps {
		out.Steps = append(out.Steps, step{string(s.Request), s.ApprovalID, s.Principal, s.PolicyUnavailable, s.Tamper, s.Request != nil})
	}
	return out
}

func TestExpectedReadersMatchEncodingJSON(t *testing.T) {
	raws := []string{`["allow","deny"]`, `[ "allow" , 5 , null , {"a":1} , "d\u0065ny" ]`, `[]`, `null`, `"allow"`, `[1,]`, `{}`,
		`3`, `-0`, `1.0`, `1e2`, `99999999999999999999`, ` 7 `, `"3"`, `true`}
	for _, raw := range raws {
		if got, ok := readDecisions([]byte(raw)); ok {
			want, wok := decisionsJSON([]byte(raw))
			require.True(t, wok, raw)
			require.Equal(t, want, got, raw)
		}
	}
}

// TestSnapshotsDecode: every result the bundled desk snapshots decodes
// without encoding/json, and as Unmarshal decodes it.
func TestSnapshotsDecode(t *testing.T) {
	for _, c := range checktest.Desk(t, "../../../cases/gateway-desk.json") {
		g, err := decodeGiven(c.Given)
		require.NoError(t, err)
		cfg, steps, err := g.config(0)
		require.NoError(t, err)
		res, err := gateway.Run(cfg, steps)
		require.NoError(t, err)
		for _, r := range res.Responses {
			got, ok := jsontext.Decode(r.Result)
			require.True(t, ok, string(r.Result))
			var want any
			require.NoError(t, json.Unmarshal(r.Result, &want))
			require.Equal(t, want, got)
		}
	}
}

func TestSuggestAndScriptMatchReference(t *testing.T) {
	for _, g := range givens(t, 10) {
		n, ok := approvalsJSON([]byte(g))
		want := ok && n > 0
		got := suggest([]byte(g), map[string]any{})
		require.Equal(t, want, got[len(got)-1] == "approvals", g)
		p, d := script([]byte(g), []scenario.Field{field("decisions", `["allow","deny","allow"]`)})
		wp, wd := readScript([]scenario.Field{field("decisions", `["allow","deny","allow"]`)}).split(stepsJSON([]byte(g)))
		require.Equal(t, [2]int{wp, wd}, [2]int{p, d}, g)
	}
}
