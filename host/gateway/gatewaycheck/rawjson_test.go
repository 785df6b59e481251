package gatewaycheck

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/checktest"
	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// handWritten are values a desk can hold where a reader could part from
// the host's json.loads: letter case and escapes in keys, repeated keys, strings
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

// decoded decodes each raw text as json.loads does, for comparison.
func decoded(list [][]byte) []any {
	out := make([]any, len(list))
	for i, x := range list {
		out[i], _ = jsontext.DecodePy(x)
	}
	return out
}

// membersValue decodes each member's value, for comparison with a map.
func membersValue(ms jsontext.Members) map[string]any {
	out := map[string]any{}
	for _, m := range ms {
		out[string(m.Key)], _ = jsontext.DecodePy(m.Raw)
	}
	return out
}

// TestRawReadersReadAsTheHost holds each reader to the value json.loads
// gives the same text (jsontext.DecodePy): the same string, the same
// elements and members, the same refusals.
func TestRawReadersReadAsTheHost(t *testing.T) {
	values := rawValues(t)
	require.Greater(t, len(values), 500)
	for _, v := range values {
		raw := []byte(v)
		ref, valid := jsontext.DecodePy(raw)
		if !valid && jsontext.WholeHostValue(raw) {
			continue // a number beyond a double, which no desk holds
		}
		str, isString := ref.(string)
		list, isList := ref.([]any)
		obj, isObject := ref.(map[string]any)
		isNullValue := valid && ref == nil

		s, ok := stringOf(raw)
		assert.Equal(t, []any{str, valid && (isString || isNullValue)}, []any{s, ok}, "stringOf %s", v)

		elems, ok := listOf(raw)
		assert.Equal(t, valid && (isList || isNullValue), ok, "listOf %s", v)
		if ok && isList {
			assert.Equal(t, list, decoded(elems), "listOf %s", v)
		}

		ms, ok := membersOf(raw)
		assert.Equal(t, valid && (isObject || isNullValue), ok, "membersOf %s", v)
		if ok && isObject {
			assert.Equal(t, obj, membersValue(ms), "membersOf %s", v)
		}

		action, _ := obj["action"].(string)
		assert.Equal(t, action, requestAction(raw), "requestAction %s", v)

		a, r, ok := readTarget(raw)
		resource, isR := obj["resource"].(string)
		_, isA := obj["action"].(string)
		if !isA || !isR {
			action, resource = "", ""
		}
		assert.Equal(t, []any{action, resource, isA && isR}, []any{a, r, ok}, "readTarget %s", v)

		d, ok := decisionsOf(raw)
		var want []string
		if isList {
			want = make([]string, len(list))
			for i, x := range list {
				want[i], _ = x.(string)
			}
		} else if isNullValue {
			want = []string{}
		}
		assert.Equal(t, []any{want, valid && (isList || isNullValue)}, []any{d, ok}, "decisionsOf %s", v)

		events, ok := auditEvents(raw)
		wantOK := valid && (isList || isNullValue)
		for _, x := range list {
			if _, isMap := x.(map[string]any); !isMap && x != nil {
				wantOK = false
			}
		}
		assert.Equal(t, wantOK, ok, "auditEvents %s", v)
		if ok && isList {
			for i, ev := range events {
				if list[i] == nil {
					assert.Nil(t, ev, "auditEvents %s", v)
					continue
				}
				assert.Equal(t, list[i], membersValue(ev), "auditEvents %s", v)
			}
		}
	}
}

func TestRequestActionReadsTheKeyAsTheHost(t *testing.T) {
	tests := []struct{ request, want string }{
		{`{"action":"read"}`, "read"},
		{`{"ACTION":"read"}`, ""},
		{`{"action":"read","AcTiOn":"publish_summary"}`, "read"},
		{`{"action":"read","action":7}`, ""},
		{`{"action":7,"action":"read"}`, "read"},
		{`{"actions":"read"}`, ""},
		{`{"\u0061ction":"re\u0061d"}`, "read"},
		{`{"action":"r\ud800"}`, "r\xed\xa0\x80"},
		{`[{"action":"read"}]`, ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, requestAction([]byte(tt.request)), tt.request)
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

// TestPlainValuesReadCheaply: a request or an expected value written
// plainly is read with a handful of allocations at most.
func TestPlainValuesReadCheaply(t *testing.T) {
	request := []byte(`{"action":"publish_summary","resource":"mock/review-board","arguments":{"text":"` + strings.Repeat("x", 500) + `"}}`)
	decisions := []byte(`["allow","deny","allow"]`)
	for _, tt := range []struct {
		name string
		read func()
		max  float64
	}{
		{"requestAction", func() { requestAction(request) }, 2},
		{"readTarget", func() { readTarget(request) }, 3},
		{"decisionsOf", func() { decisionsOf(decisions) }, 7},
	} {
		n := testing.AllocsPerRun(50, tt.read)
		t.Logf("%s: %v allocations", tt.name, n)
		assert.LessOrEqual(t, n, tt.max, tt.name)
	}
}
