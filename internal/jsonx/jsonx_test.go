package jsonx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func reference(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// point writes itself through Appender, as encoding/json writes it.
type point struct{ X, Y int }

func (p point) AppendJSON(b []byte) []byte {
	b = append(b, `{"X":`...)
	b = append(b, json.Number(fmt.Sprint(p.X))...)
	b = append(b, `,"Y":`...)
	b = append(b, json.Number(fmt.Sprint(p.Y))...)
	return append(b, '}')
}

func TestAppendMatchesEncodingJSON(t *testing.T) {
	values := []any{
		nil, true, false, 0.0, 1.0, -2.5, 1e21, 1e20, 1e-7, 123456789.125, 5e-324, -0.000001,
		"", "plain", `quote " and back \ slash`, "tab\tnew\nline\rcr\b\f", "\x00\x01\x1f", "<html> & 'x'",
		"é ünïcødé 😀", "line\u2028sep\u2029", "bad \xff utf8", "\x7f",
		[]string{"a", "b"}, []any{1.0, "x", nil, []any{}}, map[string]any{"b": 1.0, "a": map[string]any{"z": true, "y": []any{"q"}}},
		map[string]any{}, []any{}, 3, struct{ A int }{A: 1}, json.RawMessage(`{"k":[1,2]}`),
		map[string]string{}, map[string]string{"b": "<x>", "a": "\u2028", "": "\xff"}, point{X: 2, Y: -1},
	}
	for _, v := range values {
		assert.Equal(t, reference(v), string(Append(nil, v)), "%#v", v)
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "a\"b", "\xff\xfe", "\u2028", "😀\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(AppendString(nil, s)), reference(s); got != want {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
	})
}

func TestCompact(t *testing.T) {
	for _, src := range []string{
		`{}`, ` { "a" : [ 1 , 2 ] ,
		"b\" c" : "x y\\" , "t" : "\t tab"	}`, `[ ]`, `"  spaced  "`, "\n{\"k\": {\"n\": null}}\n",
	} {
		var want bytes.Buffer
		require.NoError(t, json.Compact(&want, []byte(src)))
		assert.Equal(t, want.String(), string(Compact(nil, []byte(src))), src)
	}
}
