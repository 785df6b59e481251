package gateway

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/internal/jsontext/libref"
	"github.com/deskcheck/deskcheck/internal/jsonx"
)

// The readers and writers of jsontext.go stand in for encoding/json on the
// model's hot path. These tests hold each to encoding/json (or to the
// function it replaced) wherever it answers: on the canonical seeds, on
// requests and records of every shape, and on random documents and
// strings.

var textSeeds = append([]string{
	`{"action":"read","resource":"ops/orders","arguments":{}}`,
	` {"action" : "read", "resource":"ops/orders" , "arguments":{"a":[1,{"b":null}]}} `,
	`{"action":"read","action":"create_draft","Action":1,"\u0061ction":"x"}`,
	`[{"id":"o-1","n":1.50,"m":-0,"e":1E2,"note":"<b>&</b>"},{"x":"\u2028\u0000\t\"\\\/"},[],{}]`,
	`[{"note":"a","note":"b"},"\ud83d\ude00","\ud800","\udc00x",1e400,-1e400]`,
	"\"\xff\xfe\"", "{\"k\xff\":\"v\xc3\"}", `{"a":}`, `{"a"}`, `[1,]`, `01`, `"\x"`, `"\u12"`, `[1] 2`, ``, ` `, `nul`, `tru`,
	`"` + strings.Repeat("é", 300) + `"`, `{"text":"` + strings.Repeat("x", 2001) + `"}`,
}, canonSeeds...)

func TestJSONReadersMatchEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	docs := append([]string{}, textSeeds...)
	for range 5000 {
		docs = append(docs, randomJSON(rng, 0))
	}
	for _, doc := range docs {
		checkReaders(t, []byte(doc))
	}
}

func FuzzJSONReaders(f *testing.F) {
	for _, s := range textSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) { checkReaders(t, doc) })
}

func checkReaders(t *testing.T, doc []byte) {
	t.Helper()
	valid := json.Valid(doc)
	if jsontext.WholeValue(doc) {
		require.True(t, valid, "wholeValue accepts what json.Valid refuses: %q", doc)
	}
	if !valid {
		return
	}

	// A request's members.
	if m, ok := jsontext.ReadMembers(doc, nil); ok {
		var want map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(doc, &want), "%q", doc)
		got := map[string]string{}
		collide := false
		for _, x := range m {
			k := libref.String(string(x.Key))
			_, collide = got[k]
			if collide {
				break // keys the library reads as one: no reference
			}
			got[k] = string(x.Raw)
		}
		if collide {
			return
		}
		wantText := map[string]string{}
		for k, v := range want {
			wantText[k] = string(v)
		}
		require.Equal(t, wantText, got, "members of %q", doc)
		for _, x := range m {
			k := string(x.Key)
			s, ok := stringMember(m, k)
			var ws string
			lk := libref.String(k)
			wok := kindOf(want[lk]) == "string" && json.Unmarshal(want[lk], &ws) == nil
			require.Equal(t, wok, ok, "%q %q", doc, k)
			require.Equal(t, ws, libref.String(s), "%q %q", doc, k)
		}
	}

	// Records, decoded with number literals kept, and their snapshot.
	if v, err := jsontext.DecodeUseNumber(doc); err == nil {
		got, ok := appendValue(nil, v)
		require.True(t, ok, "%q", doc)
		wantSnap, err := marshal(v)
		require.NoError(t, err)
		require.Equal(t, string(wantSnap), libref.Written(string(got)), "%q", doc)
	}

	// The narration's compact form.
	var compact bytes.Buffer
	require.NoError(t, json.Compact(&compact, doc))
	require.Equal(t, compact.String(), string(jsonx.Compact(nil, doc)), "%q", doc)
}

func TestAuditJSONMatchesMarshal(t *testing.T) {
	str := func(s string) *string { return &s }
	events := []AuditEvent{
		{Sequence: 1, Principal: "synthetic-operator", Decision: DecisionDeny, Reason: ReasonEnvelopeNotObject},
		{Sequence: 12, Principal: "<p>&\"\\", Action: str("read"), Resource: str("ops/orders"), ApprovalID: str("ap-\u2028"),
			ApprovalStateBefore: str("approved"), ApprovalStateAfter: str("consumed"), Decision: DecisionAllow, Reason: ReasonAllowed,
			ArgumentDigest: str("sha256:" + strings.Repeat("a", 64)), EffectCount: 3},
		{Sequence: -1, Principal: "\xff", Action: str(""), EffectCount: -2},
	}
	for _, ev := range events {
		want, err := json.Marshal(ev)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(ev.appendJSON(nil)))
	}
}

func TestAppendClippedMatchesClip(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	pieces := []string{"a", "é", "😀", "\xff", "\xe2\x82", " ", "…"}
	for range 5000 {
		var b strings.Builder
		for range rng.Intn(40) {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		n := rng.Intn(30)
		s := b.String()
		require.Equal(t, "x"+clip(s, n), string(appendClipped([]byte("x"), []byte(s), n)), "%q %d", s, n)
	}
}
