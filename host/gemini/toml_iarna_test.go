package gemini

import (
	"context"
	"encoding/json"
	"io"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/internal/sandbox"
)

// iarnaScript runs @iarna/toml's parse on each text of a JSON array read
// from standard input and writes each result as JSON: the value, each
// piece tagged with its JavaScript type, or the error's message.
const iarnaScript = `
const TOML = require(process.argv[1]);
function enc(v) {
  if (typeof v === 'string') return {s: v};
  if (typeof v === 'boolean') return {b: v};
  if (typeof v === 'bigint') return {big: String(v)};
  if (typeof v === 'number') return {n: Object.is(v, -0) ? '-0' : String(v)};
  if (v instanceof Date) return {date: v.isDate ? 'date' : v.isTime ? 'time' : v.isFloating ? 'local-datetime' : 'datetime'};
  if (Array.isArray(v)) return {a: v.map(enc)};
  const o = {}; for (const k of Object.keys(v)) o[k] = enc(v[k]); return {o};
}
let input = ''; process.stdin.setEncoding('utf8');
process.stdin.on('data', d => input += d);
process.stdin.on('end', () => {
  process.stdout.write(JSON.stringify(JSON.parse(input).map(t => {
    try { return {ok: enc(TOML.parse(t))}; } catch (e) { return {err: e.message}; }
  })));
});
`

// iarnaDir is the installed @iarna/toml the Gemini releases read their
// policy files with ("" when it is not installed).
func iarnaDir() string {
	cache := os.Getenv("DESKCHECK_CACHE")
	if cache == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		cache = filepath.Join(home, ".cache", "deskcheck")
	}
	dir := filepath.Join(cache, "gemini", "deps", "node_modules", "@iarna", "toml")
	if _, err := os.Stat(filepath.Join(dir, "package.json")); err != nil {
		return ""
	}
	return dir
}

// encodeTOMLValue writes a parsed value as iarnaScript does.
func encodeTOMLValue(v any) any {
	switch x := v.(type) {
	case string:
		return map[string]any{"s": x}
	case bool:
		return map[string]any{"b": x}
	case jsBigInt:
		return map[string]any{"big": strconv.FormatInt(int64(x), 10)}
	case float64:
		if x == 0 && math.Signbit(x) {
			return map[string]any{"n": "-0"}
		}
		return map[string]any{"n": JSNumber(x)}
	case tomlDate:
		return map[string]any{"date": x.Kind}
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = encodeTOMLValue(e)
		}
		return map[string]any{"a": out}
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = encodeTOMLValue(e)
		}
		return map[string]any{"o": out}
	}
	return map[string]any{"other": v}
}

// tomlPieces are the fragments tomlCorpus joins at random.
var tomlPieces = []string{
	"a", "b", "a.b", "\"k\"", "'k'", " ", "\t", "\n", "\r", "\r\n", "=", " = ", ".", ",", "[", "]", "[[", "]]", "{", "}", "#c",
	"\"", "'", "\"\"\"", "'''", "\\", "\\n", "\\u0041", "\\uD800", "\\U00110000", "\\x", "\x01", "\x7f", "é", "😀", "\ufeff",
	"0", "1", "12", "1979", "-", "+", "_", "e", "E", "x", "o", "b", "1_000", "0x1F", "0o17", "0b101", "0x_1", "1__2",
	"3.14", "1.", "1e5", "1e+", "-0", "+0", "inf", "-inf", "nan", "true", "false", "tru",
	"1979-05-27", "1979-05-27T07:32:00Z", "07:32:00", "07:32:00.5", "T", "Z", ":", "1979-5-27", "0005-13-01", "24:00:00",
	"9007199254740992", "9223372036854775808", "0xFFFFFFFFFFFFFFFF", "-9007199254740991",
	"1979-05-27 07:32:00", "1979-05-27T07:32:00.999999-07:00", "1979-05-27T24:00:00Z", "0001-31-", "0012-05-275760",
	"07:32", ".5", "+07:00", "a = 1\n", "[a]\n", "[[a]]\n", "[a.b]\n", "a.b = {}\n", "a = {b = 1}\n", "x = [1, 2]\n",
	`"""` + "\n", "'''\n", "\\\n", "\\ \n", `\u00e9`, `\U0001F600`, "''''", `""""`,
}

// tomlLines are the statements tomlCorpus joins at random.
var tomlLines = []string{
	"[a]", "[a.b]", "[[a]]", "[[a.b]]", "[b]", "[b.c]", "[[b.c]]", "[a.b.c]", "[ a . b ]", "[[ a ]]", "['a'.\"b\"]",
	"a = 1", "a.b = 1", "b = {c = 1}", "b = {}", "c = [1]", "a.c = 'x'", "b.c.d = 2", "c = [{d = 1}]", "d = {e.f = 1, e.g = 2}",
	"e = {f = {}, f.g = 1}", "x = 1979-05-27", "y = 07:32:00", "z = [1979-05-27 ]", "c.d = 1", "[c]", "[[c]]", "[c.d]",
}

// tomlCorpus is n texts made of the pieces, the same each run.
func tomlCorpus(n int) []string {
	r := rand.New(rand.NewSource(53))
	out := make([]string, 0, n)
	for range n {
		var b strings.Builder
		if r.Intn(3) == 0 {
			for range 1 + r.Intn(6) {
				b.WriteString(tomlLines[r.Intn(len(tomlLines))] + "\n")
			}
			out = append(out, b.String())
			continue
		}
		switch r.Intn(4) {
		case 0:
			b.WriteString("k = ")
		case 1:
			b.WriteString("[[rule]]\nx = ")
		case 2:
			b.WriteString("v = [")
		}
		for range 1 + r.Intn(8) {
			b.WriteString(tomlPieces[r.Intn(len(tomlPieces))])
		}
		if r.Intn(2) == 0 {
			b.WriteString("\n")
		}
		out = append(out, b.String())
	}
	return out
}

// runIarna parses each text with the installed @iarna/toml.
func runIarna(t *testing.T, dir string, texts []string) []map[string]any {
	var results []map[string]any
	runNode(t, iarnaScript, []string{dir}, texts, &results)
	require.Len(t, results, len(texts))
	return results
}

// runNode runs script with node in deskcheck's sandbox (what args name
// read-only, no network, an environment of its own), writes in to its
// standard input as JSON and reads its standard output as JSON into out.
func runNode(t *testing.T, script string, args []string, in, out any) {
	node, err := exec.LookPath("node")
	require.NoError(t, err)
	data, err := json.Marshal(in)
	require.NoError(t, err)
	temp := t.TempDir()
	p, err := sandbox.Start(context.Background(), sandbox.Spec{
		Runtime: node, Args: append([]string{"-e", script}, args...),
		ReadOnly: args, Temp: temp, Dir: temp,
		Env:   []string{"HOME=" + temp, "TMPDIR=" + temp, "PATH=" + filepath.Dir(node)},
		Limit: 5 * time.Minute,
	})
	require.NoError(t, err)
	go func() {
		_, _ = p.Stdin.Write(data)
		_ = p.Stdin.Close()
	}()
	text, err := io.ReadAll(p.Stdout)
	require.NoError(t, err)
	require.NoError(t, p.Wait())
	require.NoError(t, json.Unmarshal(text, out))
}

// The model reads every text of a corpus as @iarna/toml does: the same
// values or the same error message, position and lines included.
func TestTOMLAgreesWithIarna(t *testing.T) {
	dir := iarnaDir()
	if dir == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("@iarna/toml is not installed, and CI runs this test: go run ./cmd/deskcheck-host install gemini@0.61.0")
		}
		t.Skip("@iarna/toml is not installed: go run ./cmd/deskcheck-host install gemini@0.61.0")
	}
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is missing, and CI runs this test")
		}
		t.Skip("node is missing")
	}
	n := 4000
	if s := os.Getenv("TOML_CORPUS"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	texts := append(tomlCorpus(n), tomlEdgeTexts...)
	results := runIarna(t, dir, texts)
	failures := 0
	for i, text := range texts {
		want := results[i]
		doc, err := parseTOML(text)
		var got map[string]any
		if err != nil {
			got = map[string]any{"err": err.Error()}
		} else {
			got = map[string]any{"ok": encodeTOMLValue(doc)}
		}
		gotJSON, _ := json.Marshal(got)
		wantJSON, _ := json.Marshal(want)
		if !assert.JSONEq(t, string(wantJSON), string(gotJSON), "%q", text) {
			failures++
		}
		if failures > 20 {
			t.Fatal("too many")
		}
	}
}

// tomlEdgeTexts are texts the corpus may not make.
var tomlEdgeTexts = []string{
	"", "a = 0e1\n", "a = +0e1", "a = [1, 2.0]", "a = 9007199254740992", "a = [1e+, 2.0]", "a = [1., 2.0]", "t = 12:34:56\nb = 1",
	"t = 12:34:56x", "a = 1979-13-45", "a = 1979-02-30", "\ufeffa = 1", "a = 24:00:00",
	"a = 0009-13-275760", "a = 0009-14-275760", "a = 0009-13-275761", "a = 0001-01-99", "a = 0050-01-01x",
	"t = 12:34:56😀", "a = '😀'", `a = "\😀"`, "😀 = 1", "a = [\n1,\n2,\n# c\n]\n", "a = {}\na.b = 1",
	"a = {a = 1}\n[a.b]", "[[a]]\n[a]", "[a]\n[[a]]", "[a.b]\n[a]\n[a]", "a.b = 1\n[a]\nc = 1", "[x]\n[x.y]\n[x]",
	"a = [{b = 1}]\n[[a]]", "a = [{b = 1}]\n[a.c]", "a = {b.c = 1, b.d = 2}", "a = {b = {}, b.c = 1}",
}
