package gatewaycheck

import (
	"encoding/json"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/internal/checktest"
	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// handWritten are values a desk can hold where a reader could part from
// encoding/json: letter case and escapes in keys, repeated keys, strings
// with escapes, bytes that are not UTF-8 and unpaired surrogates, null,
// other types, white space around a value and nesting past jsontext's
// depth.
var handWritten = []string{
	`{"action":"read","resource":"ops/orders"}`,
	`{"ACTION":"read","resource":"ops/orders"}`,
	`{"Action":"create_draft","action":"read"}`,
	`{"action":"read","Action":"create_draft"}`,
	`{"action":"read","action":"publish_summary","resource":"a","resource":"b"}`,
	`{"\u0061ction":"read","resource":"ops/orders"}`,
	`{"action":"re\u0061d","resource":"ops\/orders"}`,
	`{"action":"\ud800","resource":"\udc00x"}`,
	`{"\ud800":1,"\udbff":2,"\ud83d\ude00":3}`,
	"{\"action\":\"\xff\",\"resource\":\"ops/\xfe\"}",
	"{\"\xffaction\":\"read\",\"action\":\"read\"}",
	`{"action":null,"resource":"ops/orders"}`,
	`{"action":1,"resource":"ops/orders"}`,
	`{"action":"read","resource":null}`,
	`{"action":["read"],"resource":{"x":1}}`,
	`{"action":"read"}`,
	`{"resource":"ops/orders"}`,
	`{}`, `[]`, `null`, `"read"`, `1`, `true`, `[1,"a",null,{"b":2}]`,
	` {"action":"read","resource":"ops/orders"} `,
	` "read" `, ` null `, "null ", "null\n\t", "nul", "\t[\"allow\",\n\"deny\"]\r",
	`{"action":"read","arguments":` + strings.Repeat(`[`, 150) + strings.Repeat(`]`, 150) + `}`,
	strings.Repeat(`[`, 150) + strings.Repeat(`]`, 150),
	`["allow","deny",null,3,"\u0061llow","x"]`,
	`["approval_expired","\u0061pproval_expired","nope",null,{"r":1}]`,
	`[{"sequence":1,"reason":"approval_expired","effectCount":1.0},{"Reason":"x","reason":"y","reason":null},null]`,
	`[{"sequence":1},2]`,
	`[{"sequence":1e0,"effectCount":-1,"\u0072eason":"nope","\ud800":1}]`,
	"[{\"\xff\":1,\"ok\":\"\xfe\"}]",
}

// rawValues returns the requests of the bundled givens and of mutations of
// them, the expected values of the bundled cases and rewritings of them,
// and handWritten.
func rawValues(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, g := range givens(t, 20) {
		b, err := decodeGivenPlain([]byte(g))
		if err != nil {
			continue
		}
		for _, st := range b.Steps {
			if st.Request != nil {
				out = append(out, string(st.Request))
			}
		}
	}
	var expected []string
	for _, c := range checktest.Desk(t, "../../../cases/gateway-desk.json") {
		for _, f := range c.Expected {
			expected = append(expected, string(f.Raw))
		}
	}
	edits := []func(string) string{
		func(s string) string { return strings.Replace(s, `"allow"`, `null`, 1) },
		func(s string) string { return strings.Replace(s, `"deny"`, `7`, 1) },
		func(s string) string { return strings.Replace(s, `"reason"`, `"Reason"`, 1) },
		func(s string) string { return strings.Replace(s, `"a`, `"\u0061`, 1) },
		func(s string) string { return strings.Replace(s, `{`, `{"sequence":2,`, 1) },
		func(s string) string { return strings.Replace(s, `[`, `[null,`, 1) },
		func(s string) string { return strings.Replace(s, `}`, `,"reason":"\xff"}`, 1) },
		func(s string) string { return strings.Replace(s, `[`, `{"x":[`, 1) + "}" },
		func(s string) string { return " " + s + "\n" },
	}
	out = append(out, checktest.Variants(rand.New(rand.NewSource(3)), expected, edits, 6)...)
	return append(out, handWritten...)
}

// byKey makes a member list comparable with the reference's, whose order
// is a map's.
func byKey(ms jsontext.Members) map[string]string {
	if ms == nil {
		return nil
	}
	out := map[string]string{}
	for _, m := range ms {
		out[string(m.Key)] = string(m.Raw)
	}
	return out
}

func texts(list [][]byte) []string {
	if list == nil {
		return nil
	}
	out := []string{}
	for _, x := range list {
		out = append(out, string(x))
	}
	return out
}

func TestRawReadersMatchEncodingJSON(t *testing.T) {
	values := rawValues(t)
	require.Greater(t, len(values), 500)
	for _, v := range values {
		raw := []byte(v)

		s, ok := stringOf(raw)
		ws, wok := stringOfJSON(raw)
		assert.Equal(t, []any{ws, wok}, []any{s, ok}, "stringOf %s", v)

		list, ok := listOf(raw)
		wlist, wok := listOfJSON(raw)
		assert.Equal(t, []any{texts(wlist), wok}, []any{texts(list), ok}, "listOf %s", v)

		ms, ok := membersOf(raw)
		wms, wok := membersOfJSON(raw)
		assert.Equal(t, []any{byKey(wms), wok}, []any{byKey(ms), ok}, "membersOf %s", v)

		assert.Equal(t, requestActionJSON(raw), requestAction(raw), "requestAction %s", v)

		a, r, ok := readTarget(raw)
		wa, wr, wok := readTargetJSON(raw)
		if !wok { // the strings mean nothing then
			wa, wr = "", ""
		}
		assert.Equal(t, []any{wa, wr, wok}, []any{a, r, ok}, "readTarget %s", v)

		d, ok := decisionsOf(raw)
		wd, wok := decisionsJSON(raw)
		assert.Equal(t, []any{wd, wok}, []any{d, ok}, "decisionsOf %s", v)

		events, ok := auditEvents(raw)
		var want []map[string]json.RawMessage
		wok = json.Unmarshal(raw, &want) == nil
		got := []map[string]string{}
		for _, ev := range events {
			got = append(got, byKey(ev))
		}
		wantText := []map[string]string{}
		for _, ev := range want {
			if !wok {
				break
			}
			var m map[string]string
			if ev != nil {
				m = map[string]string{}
				for k, x := range ev {
					m[k] = string(x)
				}
			}
			wantText = append(wantText, m)
		}
		if !wok {
			wantText = []map[string]string{}
		}
		assert.Equal(t, []any{wantText, wok}, []any{got, ok}, "auditEvents %s", v)
	}
}

func TestRequestActionFoldsTheKeyAsUnmarshalDoes(t *testing.T) {
	tests := []struct{ request, want string }{
		{`{"action":"read"}`, "read"},
		{`{"ACTION":"read"}`, "read"},
		{`{"action":"read","AcTiOn":"publish_summary"}`, "publish_summary"},
		{`{"action":"read","AcTiOn":7}`, ""},
		{`{"actions":"read"}`, ""},
		{`{"\u0061ction":"read"}`, "read"},
		{`[{"action":"read"}]`, ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, requestAction([]byte(tt.request)), tt.request)
		assert.Equal(t, tt.want, requestActionJSON([]byte(tt.request)), "the reference: %s", tt.request)
	}
}

func TestMembersKeepTheTextsOrder(t *testing.T) {
	ms, ok := membersOf([]byte(`{"b":1,"a":2,"b":3}`))
	require.True(t, ok)
	assert.Equal(t, []string{"b", "a"}, []string{string(ms[0].Key), string(ms[1].Key)})
	a, ok := ms.Get("a")
	assert.True(t, ok)
	assert.Equal(t, "2", string(a))
	b, _ := ms.Get("b")
	assert.Equal(t, "3", string(b), "a repeated key keeps its last value")
}

// TestPlainValuesStayOffEncodingJSON: a request or an expected value
// written plainly is read without encoding/json, which allocates for its
// decoder state on every call.
func TestPlainValuesStayOffEncodingJSON(t *testing.T) {
	request := []byte(`{"action":"publish_summary","resource":"mock/review-board","arguments":{"text":"` + strings.Repeat("x", 500) + `"}}`)
	decisions := []byte(`["allow","deny","allow"]`)
	for _, tt := range []struct {
		name        string
		fast, plain func()
		max         float64
	}{
		{"requestAction", func() { requestAction(request) }, func() { requestActionJSON(request) }, 1},
		{"readTarget", func() { readTarget(request) }, func() { readTargetJSON(request) }, 2},
		{"decisionsOf", func() { decisionsOf(decisions) }, func() { decisionsJSON(decisions) }, 7},
	} {
		fast, plain := testing.AllocsPerRun(50, tt.fast), testing.AllocsPerRun(50, tt.plain)
		t.Logf("%s: %v allocations, through encoding/json %v", tt.name, fast, plain)
		assert.LessOrEqual(t, fast, tt.max, tt.name)
		assert.Less(t, fast, plain, tt.name)
	}
}
