package jsonx

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/gen"
)

// decodeReference is what gojsonschema itself does with a document.
// It must be one JSON value (json.Valid); the decoder alone would stop
// after the first value.
func decodeReference(data []byte) (any, error) {
	if !json.Valid(data) {
		return nil, assert.AnError
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

var decodeSeeds = []string{
	`null`, `true`, `false`, `0`, `-0`, `1.5e+10`, `-2E-3`, `123456789012345678901234567890`,
	`""`, `"plain"`, `"esc \" \\ \/ \b \f \n \r \t"`, `"\u00e9\u0041"`, `"😀 é"`,
	`"\ud83d\ude00"`, `"\ud83d"`, `"\ude00"`, `"\ud83d\ud83d\ude00"`, `"\ud83dx"`, `"\ud83d\u0041"`,
	"\"bad \xff utf8\"", "\"bad \xff and \\n escape\"", `"\u0000"`,
	`[]`, `{}`, `[1,"a",null,[{}]]`, `{"a":1,"b":{"c":[true,false]},"a":2}`,
	" \t\r\n{ \"k\" : [ 1 , 2 ] } \n",
	// malformed
	``, `{`, `[1,]`, `{"a"}`, `{"a":}`, `01`, `1.`, `1e`, `-`, `tru`, `"abc`, `"\x"`, `"\u12"`,
	"\"a\x01b\"", `[1] 2`, `{"a":1,}`, `NaN`, `{1:2}`, `"\`,
}

func TestDecodeMatchesEncodingJSON(t *testing.T) {
	for _, s := range decodeSeeds {
		want, wantErr := decodeReference([]byte(s))
		got, err := Decode([]byte(s))
		if wantErr != nil {
			assert.Error(t, err, "%q", s)
			continue
		}
		require.NoError(t, err, "%q", s)
		assert.Equal(t, want, got, "%q", s)
	}
}

func TestDecodeCaseFiles(t *testing.T) {
	paths, err := filepath.Glob("../../cases/*.json")
	require.NoError(t, err)
	more, _ := filepath.Glob("../../verifier/testdata/*.json")
	paths = append(paths, more...)
	require.NotEmpty(t, paths)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		want, err := decodeReference(data)
		require.NoError(t, err, p)
		got, err := Decode(data)
		require.NoError(t, err, p)
		assert.Equal(t, want, got, p)
	}
}

func TestDecodeDepth(t *testing.T) {
	_, err := Decode([]byte(strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1)))
	assert.Error(t, err)
	v, err := Decode([]byte(strings.Repeat("[", 100) + strings.Repeat("]", 100)))
	assert.NoError(t, err)
	assert.NotNil(t, v)
}

func FuzzDecode(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, wantErr := decodeReference(data)
		got, err := Decode(data)
		if wantErr != nil {
			if err == nil {
				t.Fatalf("%q: accepted what encoding/json rejects (%v)", data, wantErr)
			}
			return
		}
		if err != nil {
			t.Fatalf("%q: rejected what encoding/json accepts: %v", data, err)
		}
		if !assert.ObjectsAreEqual(want, got) {
			t.Fatalf("%q: got %#v, want %#v", data, got, want)
		}
	})
}

// BenchmarkDecode: one generated 1,000-case file.
func BenchmarkDecode(b *testing.B) {
	data := gen.Desk(0, 0, 1000)
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.UseNumber()
			var v any
			if err := dec.Decode(&v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("jsonx", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := Decode(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}
