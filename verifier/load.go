package verifier

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/schema"
)

// Families are the boundary-response families a case may name.
var Families = []string{"protected-file", "network-destination", "credential", "approval-rejection",
	"policy-service-failure", "mixed-batch", "repeated-denial", "permitted-recovery"}

// SchemaVersion is the case-file format version this verifier reads.
const SchemaVersion = 1

// Desk is one loaded case file.
type Desk struct {
	Path          string
	ID            string
	Title         string
	Label         string
	SchemaVersion int
	SHA256        string
	Sources       map[string]string
	Cases         []*Case
	Claims        []*Claim

	reg     *scenario.Registry
	limits  Limits
	text    string
	root    gjson.Result
	posOnce sync.Once
	pos     *position
}

// position returns the line index of the file, built on first use: only
// diagnostics need it.
func (d *Desk) position() *position {
	d.posOnce.Do(func() { d.pos = newPosition(d.text) })
	return d.pos
}

// Case is one executable case.
type Case struct {
	Desk     *Desk
	ID       string
	Title    string
	Scenario string
	// Family is the case's boundary-response family, "" when it names
	// none.
	Family     string
	Why        string
	SourceRefs []string
	Given      gjson.Result
	Expected   []Field
	// ExpectedRaw is the expected block as written.
	ExpectedRaw string
	// Pointer is the case's JSON pointer in its file, e.g. /cases/3.
	Pointer string

	sc  *scenario.Scenario
	fam *scenario.Family
}

// script returns the expected block as the scenario contract hands it to
// Run.
func (c *Case) script() []scenario.Field {
	out := make([]scenario.Field, len(c.Expected))
	for i, f := range c.Expected {
		out[i] = scenario.Field{Key: f.Key, Raw: []byte(f.Value.Raw)}
	}
	return out
}

// Spec returns the scenario the case runs and its family.
func (c *Case) Spec() (*scenario.Scenario, *scenario.Family) { return c.sc, c.fam }

// FullID is <desk-id>/<case-id>.
func (c *Case) FullID() string { return c.Desk.ID + "/" + c.ID }

// Field is one key of an expected block, in file order.
type Field struct {
	Key   string
	Value gjson.Result
}

// Claim is a source-only claim: reported as not executed.
type Claim struct {
	Desk        *Desk
	ID          string
	Claim       string
	NotExecuted string
	SourceRefs  []string
	Pointer     string
}

// FullID is <desk-id>/<claim-id>.
func (c *Claim) FullID() string { return c.Desk.ID + "/" + c.ID }

// Locate returns the line and column of the value at pointer ptr, or of
// the key naming it when key is true. A pointer that leads nowhere falls
// back to the deepest value it reaches.
func (d *Desk) Locate(ptr string, key bool) (line, col int) {
	return d.position().at(d.offset(ptr, key))
}

// offset walks the document along ptr and returns the byte offset of the
// value (or key) it names.
func (d *Desk) offset(ptr string, key bool) int {
	cur, off := d.root, firstNonSpace(d.text)
	if ptr == "" {
		return off
	}
	tokens := strings.Split(ptr[1:], "/")
	for i, tok := range tokens {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		var next gjson.Result
		keyOff, found := 0, false
		switch {
		case cur.IsObject():
			cur.ForEach(func(k, v gjson.Result) bool {
				if k.String() == tok {
					next, keyOff, found = v, k.Index, true
					return false
				}
				return true
			})
		case cur.IsArray():
			n, err := strconv.Atoi(tok)
			j := 0
			cur.ForEach(func(_, v gjson.Result) bool {
				if err == nil && j == n {
					next, found = v, true
					return false
				}
				j++
				return true
			})
		}
		if !found {
			return off
		}
		if key && i == len(tokens)-1 && keyOff > 0 {
			return keyOff
		}
		cur, off = next, next.Index
	}
	return off
}

// diag makes a diagnostic located at ptr (at its key when key is true).
func (d *Desk) diag(sev Severity, ptr string, key bool, format string, args ...any) Diagnostic {
	line, col := d.Locate(ptr, key)
	return Diagnostic{Severity: sev, File: d.Path, Line: line, Col: col, Pointer: ptr, Summary: fmt.Sprintf(format, args...)}
}

// Load parses, checks and validates one case file within limits, with the
// scenarios of reg. The returned desk is nil when any error was found.
func Load(reg *scenario.Registry, path string, data []byte, limits Limits) (*Desk, Diagnostics) {
	limits = limits.WithDefaults()
	d := &Desk{Path: path, text: string(data), reg: reg, limits: limits}
	sum := sha256.Sum256(data)
	d.SHA256 = hex.EncodeToString(sum[:])
	fail := func(off int, format string, args ...any) (*Desk, Diagnostics) {
		line, col := d.position().at(off)
		return nil, Diagnostics{{Severity: Error, File: path, Line: line, Col: col, Summary: fmt.Sprintf(format, args...)}}
	}

	switch {
	case int64(len(data)) > limits.FileSize:
		return fail(0, "%s", overLimit("the file size in bytes", int64(len(data)), limits.FileSize))
	case len(bytes.TrimSpace(data)) == 0:
		return fail(0, "empty file: a case file is a JSON object")
	case hasBOM(data):
		return fail(0, "file starts with a byte-order mark; save it as UTF-8 without one")
	case !utf8.Valid(data):
		return fail(firstInvalidUTF8(data), "invalid UTF-8")
	}
	if !gjson.Valid(d.text) {
		if off, msg := syntaxError(data); msg != "" {
			return fail(off, "malformed JSON: %s", msg)
		}
		return fail(0, "malformed JSON")
	}
	root := gjson.Parse(d.text)
	if !root.IsObject() {
		return fail(firstNonSpace(d.text), "the top level must be a JSON object")
	}
	d.root = root
	if ds := d.scan(limits); len(ds) > 0 {
		return nil, ds
	}
	for _, key := range []string{"cases", "sourceOnly"} {
		n := 0
		root.Get(key).ForEach(func(_, _ gjson.Result) bool { n++; return true })
		if n > limits.Cases {
			return nil, Diagnostics{d.diag(Error, "/"+key, false, "%s", overLimit("the number of entries in "+key, int64(n), int64(limits.Cases)))}
		}
	}

	if v := root.Get("schemaVersion"); v.Type == gjson.Number && v.Raw != strconv.Itoa(SchemaVersion) {
		return nil, Diagnostics{d.diag(Error, "/schemaVersion", false, "unsupported schemaVersion %s; this deskcheck reads %d", v.Raw, SchemaVersion)}
	}
	problems, err := reg.Validate(data)
	if err != nil {
		if off, msg := syntaxError(data); msg != "" {
			return fail(off, "malformed JSON: %s", msg)
		}
		return fail(0, "%v", err)
	}
	if len(problems) > 0 {
		var ds Diagnostics
		for _, p := range problems {
			msg := explain(reg, root, p)
			if p.Key != "" {
				ds = append(ds, d.diag(Error, p.Pointer+"/"+pointerToken(p.Key), true, "%s", msg))
			} else {
				ds = append(ds, d.diag(Error, p.Pointer, false, "%s", msg))
			}
		}
		ds.Sort()
		return nil, ds
	}
	if ds := d.build(root); len(ds) > 0 {
		return nil, ds
	}
	return d, nil
}

// syntaxError asks encoding/json where data stops being JSON; msg is empty
// when it is JSON.
func syntaxError(data []byte) (off int, msg string) {
	var raw json.RawMessage
	err := json.Unmarshal(data, &raw)
	if err == nil {
		return 0, ""
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = int(se.Offset)
		if off > 0 {
			off-- // the offset is just past the offending byte
		}
		return off, se.Error()
	}
	return 0, err.Error()
}

// pointerAt returns the JSON pointer of the innermost value whose text
// holds byte offset off.
func (d *Desk) pointerAt(off int) string {
	var b strings.Builder
	cur := d.root
	for {
		found := false
		switch {
		case cur.IsObject():
			cur.ForEach(func(k, v gjson.Result) bool {
				if v.Index <= off && off < v.Index+len(v.Raw) {
					b.WriteByte('/')
					b.WriteString(pointerToken(k.Str))
					cur, found = v, true
					return false
				}
				return true
			})
		case cur.IsArray():
			i := 0
			cur.ForEach(func(_, v gjson.Result) bool {
				if v.Index <= off && off < v.Index+len(v.Raw) {
					b.WriteByte('/')
					b.WriteString(strconv.Itoa(i))
					cur, found = v, true
					return false
				}
				i++
				return true
			})
		}
		if !found || cur.Index == off {
			return b.String()
		}
	}
}

// build reads a schema-valid document into the desk in one pass over each
// case. It also rejects counts written as 1.0, 2e0 or beyond 15 digits: the
// schema accepts them as integers, but they are not what an author means by
// a count and not every reader reads them the same.
func (d *Desk) build(root gjson.Result) Diagnostics {
	var ds Diagnostics
	// whole checks a count; its pointer is built only for a diagnostic.
	whole := func(base, section, key string, v gjson.Result) {
		if v.Type == gjson.Number && !isWholeNumber(v.Raw) {
			ds = append(ds, d.diag(Error, base+section+pointerToken(key), false, "a whole number is expected (digits only, at most 15), found %s", v.Raw))
		}
	}
	d.Sources = map[string]string{}
	root.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "id":
			d.ID = v.Str
		case "title":
			d.Title = v.Str
		case "label":
			d.Label = v.Str
		case "schemaVersion":
			whole("", "/", "schemaVersion", v)
			d.SchemaVersion = int(v.Int())
		case "sources":
			v.ForEach(func(k, v gjson.Result) bool {
				d.Sources[k.Str] = v.Str
				return true
			})
		case "cases":
			i := 0
			v.ForEach(func(_, c gjson.Result) bool {
				d.Cases = append(d.Cases, d.readCase(c, i, whole))
				i++
				return true
			})
		case "sourceOnly":
			i := 0
			v.ForEach(func(_, c gjson.Result) bool {
				cl := &Claim{Desk: d, Pointer: "/sourceOnly/" + strconv.Itoa(i)}
				c.ForEach(func(k, v gjson.Result) bool {
					switch k.Str {
					case "id":
						cl.ID = v.Str
					case "claim":
						cl.Claim = v.Str
					case "notExecuted":
						cl.NotExecuted = v.Str
					case "sourceRefs":
						cl.SourceRefs = stringList(v)
					}
					return true
				})
				d.Claims = append(d.Claims, cl)
				i++
				return true
			})
		}
		return true
	})
	return ds
}

// isWholeNumber tells whether raw is written as a count must be: no sign,
// fraction or exponent and at most 15 digits, so that it is exact in every
// JSON reader.
func isWholeNumber(raw string) bool {
	if raw == "0" {
		return true
	}
	if len(raw) == 0 || len(raw) > 15 || raw[0] == '0' {
		return false
	}
	for i := 0; i < len(raw); i++ {
		if raw[i] < '0' || raw[i] > '9' {
			return false
		}
	}
	return true
}

// readCase reads case number i of a schema-valid document.
func (d *Desk) readCase(c gjson.Result, i int, whole func(base, section, key string, v gjson.Result)) *Case {
	cs := &Case{Desk: d, Pointer: "/cases/" + strconv.Itoa(i)}
	var expected gjson.Result
	c.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "id":
			cs.ID = v.Str
		case "title":
			cs.Title = v.Str
		case "scenario":
			cs.Scenario = v.Str
		case "family":
			cs.Family = v.Str
		case "why":
			cs.Why = v.Str
		case "sourceRefs":
			cs.SourceRefs = stringList(v)
		case "given":
			cs.Given = v
		case "expected":
			expected = v
		}
		return true
	})
	sc, fam, _ := d.reg.Lookup(cs.Scenario)
	cs.sc, cs.fam = sc, fam
	for _, l := range sc.Limits {
		if !l.Count {
			whole(cs.Pointer, "/given/", l.Pointer[len("/given/"):], cs.Given.Get(gjsonPath(l.Pointer[len("/given/"):])))
		}
	}
	cs.ExpectedRaw = expected.Raw
	cs.Expected = make([]Field, 0, 8)
	expected.ForEach(func(k, v gjson.Result) bool {
		cs.Expected = append(cs.Expected, Field{Key: k.Str, Value: v})
		if v.Type == gjson.Number {
			if cmp, _ := sc.Expected.Comparer(k.Str); cmp == scenario.Exact {
				whole(cs.Pointer, "/expected/", k.Str, v)
			}
		}
		return true
	})
	return cs
}

func stringList(v gjson.Result) []string {
	var out []string
	v.ForEach(func(_, s gjson.Result) bool {
		out = append(out, s.Str)
		return true
	})
	return out
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

func firstNonSpace(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return i
		}
	}
	return 0
}

var caseField = regexp.MustCompile(`^/cases/(\d+)/(given|expected|scenario|family)$`)

// explain rewords schema problems about a case's scenario, given and
// expected blocks in the scenario's own terms, with a suggestion for a
// likely misspelling.
func explain(reg *scenario.Registry, root gjson.Result, p schema.Problem) string {
	m := caseField.FindStringSubmatch(p.Pointer)
	if m == nil {
		return p.Message
	}
	name := root.Get("cases." + m[1] + ".scenario").String()
	if m[2] == "family" {
		fam := root.Get("cases." + m[1] + ".family")
		if fam.Type != gjson.String {
			return p.Message
		}
		return fmt.Sprintf("unknown family %q (known: %s)%s", fam.Str, strings.Join(Families, ", "), suggest(fam.Str, Families))
	}
	if m[2] == "scenario" {
		return fmt.Sprintf("unknown scenario %q (known: %s)%s", name, strings.Join(reg.Names(), ", "), suggest(name, reg.Names()))
	}
	sc, _, ok := reg.Lookup(name)
	if !ok || p.Key == "" {
		return p.Message
	}
	if m[2] == "expected" {
		return fmt.Sprintf("expected key %q is not observed by scenario %s%s", p.Key, name, suggest(p.Key, sc.Expected.Keys()))
	}
	return fmt.Sprintf("given key %q is not read by scenario %s%s", p.Key, name, suggest(p.Key, reg.GivenKeys(name)))
}

// gjsonPath turns a JSON pointer below given ("choices", "a/b") into a
// gjson path.
func gjsonPath(ptr string) string {
	parts := strings.Split(ptr, "/")
	for i, p := range parts {
		p = strings.NewReplacer("~1", "/", "~0", "~").Replace(p)
		parts[i] = gjsonEscape(p)
	}
	return strings.Join(parts, ".")
}

func gjsonEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '.', '*', '?', '|', '#', '@', '\\', '!', '=', '<', '>', '%':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
