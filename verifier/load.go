package verifier

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/schema"
)

// Arenas are the boundary-response arenas a case may name (with its
// "family" key): the kinds of boundary whose allowed and denied controls
// the report pairs.
var Arenas = []string{"protected-file", "network-destination", "credential", "approval-rejection",
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
	// Hosts is the desk's hosts key: host family → release range.
	Hosts   map[string]string
	Sources map[string]string
	Cases   []*Case
	Claims  []*Claim
	// Acknowledge maps the names of warnings the desk acknowledges to
	// the reason it gives.
	Acknowledge map[string]string
	// caseAcks: at least one case acknowledges a warning.
	caseAcks bool
	// partial: some of the file's cases were left out of Cases, for
	// their schema errors, so lint skips what reads the cases together.
	partial bool

	reg     *scenario.Registry
	limits  Limits
	text    string
	root    gjson.Result
	posOnce sync.Once
	pos     *position
}

// Text is the desk's file as it was read.
func (d *Desk) Text() string { return d.text }

// Root is the desk's document, as gjson read it.
func (d *Desk) Root() gjson.Result { return d.root }

// position returns the line index of the file, built on first use: only
// diagnostics need it.
func (d *Desk) position() *position {
	d.posOnce.Do(func() { d.pos = newPosition(d.text) })
	return d.pos
}

// Case is one executable case, as Load read it. Its fields are read, not
// written: its scenario's compiled case (the given block decoded and the
// case planned, once, at load) and the work of its limited values are
// made once at
type Case struct {
	Desk     *Desk
	ID       string
	Title    string
	Scenario string
	// Arena is the case's boundary-response arena (its "family" key), ""
	// when it names none.
	Arena      string
	Why        string
	SourceRefs []string
	// Acknowledge maps the names of warnings the case acknowledges to the
	// reason it gives.
	Acknowledge map[string]string
	Given       gjson.Result
	Expected    []Field
	// ExpectedRaw is the expected block as written.
	ExpectedRaw string
	// expectedAt is the offset of ExpectedRaw in the desk's text.
	expectedAt int
	// Pointer is the case's JSON pointer in its file, e.g. /cases/3.
	Pointer string
	// Hosts is the case's own hosts key: host family → release range.
	Hosts map[string]string
	// Range is the release range that applies to the case (its own or
	// the desk's); "" when neither names its host.
	Range string
	// Lesson is the case's lesson key: the cases of one desk that share
	// it are one lesson asked of different hosts; "" when it names none.
	Lesson string

	releases []scenario.Release // what Range selects, or the newest, resolved at load
	sc       *scenario.Scenario
	fam      *scenario.Family
	units    []int // workUnits, read once at load
	copies   []int // per limit, the bytes a measured limit counts (nil: none)
	compiled *scenario.Compiled
}

// scriptOf is an expected block as the scenario contract's Plan reads it.
// The values' texts are copied into one buffer, each capped at its end.
func scriptOf(expected []Field) []scenario.Field {
	n := 0
	for _, f := range expected {
		n += len(f.Value.Raw)
	}
	buf := make([]byte, 0, n)
	out := make([]scenario.Field, len(expected))
	for i, f := range expected {
		at := len(buf)
		buf = append(buf, f.Value.Raw...)
		out[i] = scenario.Field{Key: f.Key, Raw: buf[at:len(buf):len(buf)]}
	}
	return out
}

// Spec returns the scenario the case runs and its family.
func (c *Case) Spec() (*scenario.Scenario, *scenario.Family) { return c.sc, c.fam }

// Group names the behaviour group of release r for this case: two
// releases of one group observe the case alike.
func (c *Case) Group(r scenario.Release) string { return c.compiled.Group(r) }

// ExpectedAt is the offset of the case's expected block (ExpectedRaw) in
// its desk's text; 0 when the case was not read from a desk's text.
func (c *Case) ExpectedAt() int { return c.expectedAt }

// FullID is <desk-id>/<case-id>.
func (c *Case) FullID() string { return c.Desk.ID + "/" + c.ID }

// OutsideModel is why the model does not run the case, valid for its host
// ("": it runs it).
func (c *Case) OutsideModel() string {
	if c.compiled == nil {
		return ""
	}
	for _, p := range c.compiled.Problems() {
		if p.OutsideModel && !p.Warning {
			return p.Message
		}
	}
	return ""
}

// Field is one key of an expected block, in file order.
type Field struct {
	Key   string
	Value gjson.Result
	// Want is the value as the case's host decodes the same text (its
	// family's scenario.Values): what the observation is compared with.
	Want any
}

// hostValue decodes an expected value the way the host of sc decodes the
// same text. A value its reader cannot take (none the desk reader
// accepts) falls back to gjson's.
func hostValue(fam *scenario.Family, raw []byte, v gjson.Result) any {
	if w, ok := fam.Host.Values.Decode(raw); ok {
		return w
	}
	return v.Value()
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
	offs := d.offsets([]string{ptr}, []bool{key})
	return d.position().at(offs[0])
}

// locNode is one token of the pointers being located.
type locNode struct {
	children map[string]*locNode
	// value and key list the requests that end here, by the kind of
	// offset they want.
	value, key []int
}

// offsets returns the byte offset of each pointer's value (or key, when
// key[i] is set), walking the document once for all of them: each object
// or array on the way to some pointer is read once, however many pointers
// pass through it.
func (d *Desk) offsets(ptrs []string, key []bool) []int {
	out := make([]int, len(ptrs))
	root := &locNode{}
	for i, p := range ptrs {
		n := root
		if p != "" {
			for _, tok := range strings.Split(p[1:], "/") {
				tok = jsontext.UnescapePointerToken(tok)
				if n.children == nil {
					n.children = map[string]*locNode{}
				}
				next := n.children[tok]
				if next == nil {
					next = &locNode{}
					n.children[tok] = next
				}
				n = next
			}
		}
		if key[i] {
			n.key = append(n.key, i)
		} else {
			n.value = append(n.value, i)
		}
	}
	d.locate(root, d.root, firstNonSpace(d.text), 0, out)
	return out
}

// locate answers the requests of n, whose value is v at offset off (its
// key at keyOff, 0 for none), and of n's children; a child that v does not
// hold is answered with off.
func (d *Desk) locate(n *locNode, v gjson.Result, off, keyOff int, out []int) {
	for _, i := range n.value {
		out[i] = off
	}
	for _, i := range n.key {
		out[i] = off
		if keyOff > 0 {
			out[i] = keyOff
		}
	}
	if len(n.children) == 0 {
		return
	}
	switch {
	case v.IsObject():
		v.ForEach(func(k, val gjson.Result) bool {
			if c := n.children[k.Str]; c != nil {
				d.locate(c, val, val.Index, k.Index, out)
				delete(n.children, k.Str) // a repeated key is answered by its first
			}
			return len(n.children) > 0
		})
	case v.IsArray():
		i := 0
		v.ForEach(func(_, val gjson.Result) bool {
			tok := strconv.Itoa(i)
			if c := n.children[tok]; c != nil {
				d.locate(c, val, val.Index, 0, out)
				delete(n.children, tok)
			}
			i++
			return len(n.children) > 0
		})
	}
	for _, c := range n.children {
		fallback(c, off, out)
	}
}

// fallback answers every request below n with off.
func fallback(n *locNode, off int, out []int) {
	for _, i := range n.value {
		out[i] = off
	}
	for _, i := range n.key {
		out[i] = off
	}
	for _, c := range n.children {
		fallback(c, off, out)
	}
}

// diag makes a diagnostic at ptr (at its key when key is true); its
// position is found by resolve, together with the others of its file.
func (d *Desk) diag(sev Severity, ptr string, key bool, format string, args ...any) Diagnostic {
	return Diagnostic{Severity: sev, File: d.Path, Pointer: ptr, Summary: fmt.Sprintf(format, args...), at: d, atKey: key}
}

// resolve finds the positions of the diagnostics made by diag, with one
// walk of each file for all of its diagnostics.
func (ds Diagnostics) resolve() {
	byDesk := map[*Desk][]int{}
	var order []*Desk
	for i := range ds {
		if d := ds[i].at; d != nil {
			if byDesk[d] == nil {
				order = append(order, d)
			}
			byDesk[d] = append(byDesk[d], i)
		}
	}
	for _, d := range order {
		idx := byDesk[d]
		ptrs, keys := make([]string, len(idx)), make([]bool, len(idx))
		for k, i := range idx {
			ptrs[k], keys[k] = ds[i].Pointer, ds[i].atKey
		}
		offs := d.offsets(ptrs, keys)
		// Positions are cheapest asked in file order.
		byOff := make([]int, len(idx))
		for k := range byOff {
			byOff[k] = k
		}
		sort.Slice(byOff, func(a, b int) bool { return offs[byOff[a]] < offs[byOff[b]] })
		for _, k := range byOff {
			i := idx[k]
			ds[i].Line, ds[i].Col = d.position().at(offs[k])
			ds[i].at = nil
		}
	}
}

// Load parses, checks and validates one case file within limits, with the
// scenarios of reg. The returned desk is nil when any error was found.
//
// The bytes are read first by check, which does not recurse; only a file
// it passes, whose nesting is therefore within the depth limit, is read by
// gjson and the schema validator. Every stage is linear in the size of the
// file, and at most limits.Diagnostics problems are listed.
//
// One call lists every problem of the file that its earlier problems leave
// meaningful to look for (see loadStages): a key given twice does not stop
// the later checks, which read its first value; a case whose own schema
// errors leave it unreadable is left out of the later checks, the other
// cases are not. When the file has errors, what of it could be read is
// linted here too (the cross-desk checks of Lint aside); a desk without
// errors is linted by Lint, with the others. Where later checks were
// skipped, one warning named checks-skipped says which and why.
func Load(reg *scenario.Registry, path string, data []byte, limits Limits) (*Desk, Diagnostics) {
	limits = limits.WithDefaults()
	d := &Desk{Path: path, text: string(data), reg: reg, limits: limits}
	sum := sha256.Sum256(data)
	d.SHA256 = hex.EncodeToString(sum[:])

	if ds := d.precheck(limits); len(ds) > 0 {
		return nil, unread(ds, path)
	}
	ds, fatal, text, doc, walk := d.read(limits)
	defer walk.index.release()
	if fatal {
		return nil, unread(ds, path)
	}
	if doc == nil {
		doc = data // no key repeats: the file itself
	}
	root := gjson.Parse(text)
	d.root = root
	for i, key := range entryKeys {
		n := walk.entries[i]
		if n < 0 { // not an array the walk counted
			n = 0
			root.Get(key).ForEach(func(_, _ gjson.Result) bool { n++; return true })
		}
		if n > limits.Cases {
			ds = append(ds, d.diag(Error, "/"+key, false, "%s", overLimit("the number of entries in "+key, int64(n), int64(limits.Cases))))
			return nil, d.finish(append(ds, skipWhole(path, skipUnread)))
		}
	}

	if v := walk.index.topValue(text, "schemaVersion"); v.Type == gjson.Number && v.Raw != strconv.Itoa(SchemaVersion) {
		ds = append(ds, d.diag(Error, "/schemaVersion", false, "unsupported schemaVersion %s; this deskcheck reads %d", v.Raw, SchemaVersion))
		return nil, d.finish(append(ds, skipWhole(path, fmt.Sprintf(skipVersion, SchemaVersion))))
	}
	problems, err := validateCases(reg, doc, text) // text holds doc's bytes
	if err != nil {
		return nil, Diagnostics{{Severity: Error, File: path, Line: 1, Col: 1, Summary: err.Error()}}
	}
	var broken brokenParts
	if len(problems) > 0 {
		ds = slices.Grow(ds, len(problems))
		ex := explainer{reg: reg, root: root}
		for _, p := range problems {
			msg := ex.explain(p)
			if p.Key != "" {
				ds = append(ds, d.diag(Error, p.Pointer+"/"+jsontext.PointerToken(p.Key), true, "%s", msg))
			} else {
				ds = append(ds, d.diag(Error, p.Pointer, false, "%s", msg))
			}
			broken.add(p.Pointer, p.Key)
		}
	}
	ds = append(ds, d.build(text, &walk.index, &broken)...)
	ds = append(ds, d.checkHosts(broken.desk)...)
	if len(ds) == 0 {
		return d, nil
	}
	if !broken.desk {
		ds = append(ds, lintDesk(d, limits)...)
	}
	if skip, ok := broken.skipped(d); ok {
		ds = append(ds, skip)
	}
	return nil, d.finish(ds)
}

// unread adds the checks-skipped line to the problems of a file the first
// reader could not hand on. They come located, in file order and capped,
// and are not capped again: a syntax error is listed even past the cap,
// as the problem that explains why the rest of the file was not read.
func unread(ds Diagnostics, path string) Diagnostics {
	ds = append(ds, skipWhole(path, skipUnread))
	ds.Sort()
	return ds
}

// Scan applies the reading rules of case files to any JSON file: within
// the size limit, not empty, UTF-8 without a byte-order mark, JSON whose
// top level is an object, nesting within the depth limit, no duplicate
// key, no number beyond float64, no string or key over the string limit.
// It reads the bytes once, without recursion, and lists at most
// limits.Diagnostics problems. A file it passes can be handed to any JSON
// reader.
func Scan(path string, data []byte, limits Limits) Diagnostics {
	// The text is read where it lies, not copied: a report of hundreds
	// of megabytes is checked without a second copy of it. Nothing keeps
	// the text once Scan returns: what the diagnostics say is copied
	// out of it.
	text := ""
	if len(data) > 0 {
		text = unsafe.String(&data[0], len(data))
	}
	d := &Desk{Path: path, text: text}
	ds := d.scan(limits.WithDefaults())
	for i := range ds {
		x := &ds[i]
		x.File, x.Pointer, x.Summary, x.Detail = strings.Clone(x.File), strings.Clone(x.Pointer), strings.Clone(x.Summary), strings.Clone(x.Detail)
		x.Name, x.Acknowledged, x.at = strings.Clone(x.Name), strings.Clone(x.Acknowledged), nil
	}
	return ds
}

// scan is Scan for the desk's own text.
func (d *Desk) scan(limits Limits) Diagnostics {
	if ds := d.precheck(limits); len(ds) > 0 {
		return ds
	}
	return d.check(limits)
}

// precheck is what scan checks before reading the JSON: the size, that
// there is something, no byte-order mark, UTF-8.
func (d *Desk) precheck(limits Limits) Diagnostics {
	data := d.text
	fail := func(off int, format string, args ...any) Diagnostics {
		line, col := d.position().at(off)
		return Diagnostics{{Severity: Error, File: d.Path, Line: line, Col: col, Summary: fmt.Sprintf(format, args...)}}
	}
	switch {
	case int64(len(data)) > limits.FileSize:
		return fail(0, "%s", overLimit("the file size in bytes", int64(len(data)), limits.FileSize))
	case len(strings.TrimSpace(data)) == 0:
		return fail(0, "empty file: a case file is a JSON object")
	case hasBOM([]byte(data[:min(len(data), 3)])):
		return fail(0, "file starts with a byte-order mark; save it as UTF-8 without one")
	case !utf8.ValidString(data):
		return fail(firstInvalidUTF8([]byte(data)), "invalid UTF-8")
	}
	return nil
}

// finish locates, sorts and caps one file's diagnostics.
func (d *Desk) finish(ds Diagnostics) Diagnostics {
	ds.resolve()
	ds.Sort()
	return ds.capPerFile(d.limits.Diagnostics)
}

// build reads a schema-valid document into the desk in one pass over each
// case. It also rejects counts written as 1.0, 2e0 or beyond 15 digits: the
// schema accepts them as integers, but they are not what an author means by
// a count and not every reader reads them the same.
//
// The parts broken names (the cases whose own schema errors leave them
// unread, and with an error outside the cases, the claims) are not read;
// the rest is. A case whose scenario is unknown is added to broken.
func (d *Desk) build(text string, x *textIndex, broken *brokenParts) Diagnostics {
	var ds Diagnostics
	// whole checks a count; its pointer is built only for a diagnostic.
	whole := func(base, section, key string, v gjson.Result) {
		if v.Type == gjson.Number && !isWholeNumber(v.Raw) {
			ds = append(ds, d.diag(Error, base+section+jsontext.PointerToken(key), false, "a whole number is expected (digits only, at most 15), found %s", v.Raw))
		}
	}
	d.Sources = map[string]string{}
	for _, m := range x.top {
		v := resultAt(text, m.start, m.end)
		switch m.key {
		case "id":
			d.ID = hostText(v)
		case "title":
			d.Title = hostText(v)
		case "label":
			d.Label = hostText(v)
		case "hosts":
			d.Hosts = readHosts(v)
		case "acknowledge":
			d.Acknowledge = acknowledgements(v)
		case "schemaVersion":
			whole("", "/", "schemaVersion", v)
			d.SchemaVersion = int(v.Int())
		case "sources":
			if broken.desk {
				break // only lint reads them, and lint is skipped
			}
			v.ForEach(func(k, v gjson.Result) bool {
				d.Sources[hostText(k)] = hostText(v)
				return true
			})
		case "cases":
			if !v.IsArray() {
				break
			}
			var fields []Field // each case's expected block, read here and then copied at its length
			for i, c := range x.cases {
				if !broken.cases[i] {
					if cs := d.readCase(text, x.members[c.from:c.to], i, whole, &fields); cs != nil {
						d.Cases = append(d.Cases, cs)
					} else {
						broken.addCase(i)
					}
				}
			}
			d.partial = len(broken.cases) > 0
		case "sourceOnly":
			if !v.IsArray() || broken.desk {
				break
			}
			i := 0
			v.ForEach(func(_, c gjson.Result) bool {
				cl := &Claim{Desk: d, Pointer: "/sourceOnly/" + strconv.Itoa(i)}
				c.ForEach(func(k, v gjson.Result) bool {
					switch k.Str {
					case "id":
						cl.ID = hostText(v)
					case "claim":
						cl.Claim = hostText(v)
					case "notExecuted":
						cl.NotExecuted = hostText(v)
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
	}
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

// readCase reads case number i of a document, which the schema found
// valid; nil when its scenario is none of the registry's.
func (d *Desk) readCase(text string, members []spanned, i int, whole func(base, section, key string, v gjson.Result), fields *[]Field) *Case {
	cs := &Case{Desk: d, Pointer: "/cases/" + strconv.Itoa(i)}
	var expected gjson.Result
	for _, m := range members {
		v := resultAt(text, m.start, m.end)
		switch m.key {
		case "id":
			cs.ID = hostText(v)
		case "title":
			cs.Title = hostText(v)
		case "scenario":
			cs.Scenario = hostText(v)
		case "family":
			cs.Arena = hostText(v)
		case "lesson":
			cs.Lesson = hostText(v)
		case "acknowledge":
			cs.Acknowledge = acknowledgements(v)
			d.caseAcks = true
		case "why":
			cs.Why = hostText(v)
		case "sourceRefs":
			cs.SourceRefs = stringList(v)
		case "hosts":
			cs.Hosts = readHosts(v)
		case "given":
			cs.Given = v
		case "expected":
			expected = v
		}
	}
	sc, fam, ok := d.reg.Lookup(cs.Scenario)
	if !ok {
		return nil
	}
	cs.sc, cs.fam = sc, fam
	cs.units = make([]int, len(sc.Limits))
	for j, l := range sc.Limits {
		if l.Measured {
			continue
		}
		v := cs.Given.Get(gjsonPath(l.Pointer[len("/given/"):]))
		if !l.Count {
			whole(cs.Pointer, "/given/", l.Pointer[len("/given/"):], v)
		}
		cs.units[j] = limitUnits(l, v)
	}
	cs.ExpectedRaw, cs.expectedAt = expected.Raw, expected.Index
	read := (*fields)[:0]
	expected.ForEach(func(k, v gjson.Result) bool {
		read = append(read, Field{Key: k.Str, Value: v})
		// Only a count must be written as one: another key compared
		// exactly (a policy code) takes any number its host reads.
		if v.Type == gjson.Number && sc.Expected.IsCount(k.Str) {
			whole(cs.Pointer, "/expected/", k.Str, v)
		}
		return true
	})
	// A desk holds its cases until they have run: each expected block is
	// kept at its length, not at the capacity it grew to.
	cs.Expected = append(make([]Field, 0, len(read)), read...)
	clear(read)
	*fields = read[:0]
	script := scriptOf(cs.Expected)
	for j := range cs.Expected {
		cs.Expected[j].Want = hostValue(fam, script[j].Raw, cs.Expected[j].Value)
	}
	cs.compiled = sc.Compile([]byte(cs.Given.Raw), script)
	for j, l := range sc.Limits {
		if l.Measured {
			if cs.copies == nil {
				cs.copies = make([]int, len(sc.Limits))
			}
			cs.copies[j] = cs.compiled.Measure(l.Name)
		}
	}
	return cs
}

// hostText is a string of the desk as the hosts read it (see
// internal/jsontext): an unpaired surrogate escape kept, never U+FFFD, so
// that a report shows it as its escape.
func hostText(v gjson.Result) string {
	if s, ok := jsontext.HostString([]byte(v.Raw)); ok {
		return s
	}
	return v.Str
}

func stringList(v gjson.Result) []string {
	var out []string
	v.ForEach(func(_, s gjson.Result) bool {
		out = append(out, hostText(s))
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

var (
	caseField  = regexp.MustCompile(`^/cases/(\d+)/(given|expected|scenario|family)$`)
	givenInner = regexp.MustCompile(`^/cases/(\d+)/given(/.+)$`)
	indexStep  = regexp.MustCompile(`/\d+(/|$)`)
)

// Known keys of the desk, of a case and of a source-only claim, from the
// base schema: an unknown one gets a suggestion.
var (
	deskKeys  = schemaKeys("properties")
	caseKeys  = schemaKeys("definitions.case.properties")
	claimKeys = schemaKeys("definitions.claim.properties")
	caseEntry = regexp.MustCompile(`^/cases/\d+$`)
	claimItem = regexp.MustCompile(`^/sourceOnly/\d+$`)
)

func schemaKeys(path string) []string {
	var keys []string
	gjson.GetBytes(scenario.BaseSchema, path).ForEach(func(k, _ gjson.Result) bool {
		keys = append(keys, k.Str)
		return true
	})
	return keys
}

// explainer rewords schema problems. It reads each case's scenario once,
// on first need, so that explaining many problems stays linear.
type explainer struct {
	reg       *scenario.Registry
	root      gjson.Result
	scenarios []gjson.Result
	arenas    []gjson.Result
}

// caseValue returns the scenario (or arena: the "family" key) value of
// case i.
func (ex *explainer) caseValue(i int, arena bool) gjson.Result {
	if ex.scenarios == nil {
		ex.root.Get("cases").ForEach(func(_, c gjson.Result) bool {
			ex.scenarios = append(ex.scenarios, c.Get("scenario"))
			ex.arenas = append(ex.arenas, c.Get("family"))
			return true
		})
	}
	if i >= len(ex.scenarios) {
		return gjson.Result{}
	}
	if arena {
		return ex.arenas[i]
	}
	return ex.scenarios[i]
}

// explain rewords a schema problem about a case's scenario, given and
// expected blocks in the scenario's own terms, and an unknown key of the
// desk, a case or a claim, with a suggestion for a likely misspelling.
func (ex *explainer) explain(p schema.Problem) string {
	reg := ex.reg
	if p.Key != "" {
		switch {
		case p.Pointer == "":
			return p.Message + suggest(p.Key, deskKeys)
		case caseEntry.MatchString(p.Pointer):
			return p.Message + suggest(p.Key, caseKeys)
		case claimItem.MatchString(p.Pointer):
			return p.Message + suggest(p.Key, claimKeys)
		}
	}
	if g := givenInner.FindStringSubmatch(p.Pointer); g != nil && p.Key != "" {
		// A key inside the given block (a gateway step, an approval):
		// the fragment says which keys that object may hold.
		i, _ := strconv.Atoi(g[1])
		pattern := g[2]
		for indexStep.MatchString(pattern) {
			pattern = indexStep.ReplaceAllString(pattern, "/*$1")
		}
		if known := reg.KeysAt(ex.caseValue(i, false).String(), pattern); known != nil {
			return p.Message + suggest(p.Key, known)
		}
		return p.Message
	}
	m := caseField.FindStringSubmatch(p.Pointer)
	if m == nil {
		return p.Message
	}
	i, _ := strconv.Atoi(m[1])
	name := ex.caseValue(i, false).String()
	if m[2] == "family" {
		fam := ex.caseValue(i, true)
		if fam.Type != gjson.String {
			return p.Message
		}
		return fmt.Sprintf("unknown family %q (known: %s)%s", fam.Str, strings.Join(Arenas, ", "), suggest(fam.Str, Arenas))
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
// gjson path. The pointers are the few that scenarios declare limits at,
// so each is translated once.
func gjsonPath(ptr string) string {
	if p, ok := gjsonPaths.Load(ptr); ok {
		return p.(string)
	}
	parts := strings.Split(ptr, "/")
	for i, p := range parts {
		parts[i] = gjsonEscape(jsontext.UnescapePointerToken(p))
	}
	p := strings.Join(parts, ".")
	gjsonPaths.Store(ptr, p)
	return p
}

var gjsonPaths sync.Map

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
