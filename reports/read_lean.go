package reports

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/internal/jsonx"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// ReadJSONLean reads saved evidence as ReadJSON does, with the same
// checks and errors, into a report that every format writes as it would
// write ReadJSON's, but which holds its cases as a streamed report does
// (Stream): one case is decoded at a time, its line of report.json goes
// to a spill, and what grows with its run is set aside in a hold, so that
// the memory taken is that of the file and one case, not of every value
// the file decodes into. Without withJSON no line is made, and the report
// cannot be written as JSON. Close lets the spill and the hold go.
func ReadJSONLean(data []byte, withJSON bool) (*Report, error) {
	if err := CheckJSON(data); err != nil {
		return nil, err
	}
	var head struct {
		plainReport
		Cases skipped `json:"cases"`
	}
	(*Report)(&head.plainReport).sizeLists(data)
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, err
	}
	r := Report(head.plainReport)
	sp := &spill{omitted: true}
	if withJSON {
		sp = newSpill()
	}
	st := newStream(Origin{}, false, sp)
	ok := false
	defer func() {
		if !ok {
			st.Close()
		}
	}()
	start, end, found := memberSpan(data, "cases")
	if !found || start >= end || data[start] != '[' {
		return nil, errors.New("not deskcheck evidence: no list of cases")
	}
	seen := consistency{first: map[string]int{}}
	var line []byte
	n := 0
	for i := jsontext.SkipSpace(data, start+1); i < end && data[i] != ']'; n++ {
		e := valueEnd(data, i)
		var c Case
		if err := readLeanCase(data[i:e], &c); err != nil {
			return nil, err
		}
		suggestObserved(&c)
		if err := seen.check(n, &c); err != nil {
			return nil, err
		}
		if withJSON {
			if cap(line) < e-i {
				line = make([]byte, 0, e-i+(e-i)/16) // about as long as it was
			}
			var idAt int
			line, idAt = lineOf(&c, line[:0])
			if err := st.spill.add(line, idAt); err != nil {
				return nil, err
			}
		}
		if err := st.addLean(&c); err != nil {
			return nil, err
		}
		if cap(line) > 4*lineBytes {
			line = nil
		}
		i = jsontext.SkipSpace(data, e)
		if i < end && data[i] == ',' {
			i = jsontext.SkipSpace(data, i+1)
		}
	}
	if err := checkRealCode(r.RealCode); err != nil {
		return nil, err
	}
	if err := st.spill.flush(); err != nil {
		return nil, err
	}
	if err := st.hold.flush(); err != nil {
		return nil, err
	}
	r.Cases = make([]Case, 0, st.n)
	for _, chunk := range st.cases {
		r.Cases = append(r.Cases, chunk...)
	}
	r.spill, r.hold = st.spill, st.hold
	ok = true
	return &r, nil
}

// plainReport is Report without its methods, for reading all of it but
// its cases.
type plainReport Report

// skipped reads past a value and keeps nothing of it.
type skipped struct{}

func (*skipped) UnmarshalJSON([]byte) error { return nil }

// Close lets go the temporary files a streamed or lean report keeps its
// cases' evidence in; the report cannot be written after it.
func (r *Report) Close() error {
	var errs []error
	if r.spill != nil {
		errs = append(errs, r.spill.close())
	}
	if r.hold != nil {
		errs = append(errs, r.hold.close())
	}
	return errors.Join(errs...)
}

// suggestObserved gives a suggestion read without a value the observed
// one it stands for.
func suggestObserved(c *Case) {
	for j := range c.Suggested {
		if s := &c.Suggested[j]; s.Value == nil {
			s.Value = c.Observed[s.Key]
		} else {
			s.Shaped = true
		}
	}
}

// consistency is checkConsistent one case at a time.
type consistency struct {
	first map[string]int
}

func (k consistency) check(i int, c *Case) error {
	where := "/cases/" + strconv.Itoa(i)
	id := c.Desk + "/" + c.ID
	if j, seen := k.first[id]; seen {
		return contradiction(where, "case %s is listed twice (first at /cases/%d)", id, j)
	}
	k.first[id] = i
	return caseConsistent(where, id, c)
}

// A case's observed values may hold a great many empty objects and lists
// (a host's records, each {}), which encoding/json makes one map or slice
// each: a million of them take some 20 times their text. The lean reader
// and the hold read every empty object or list nested in a value as one
// shared value of each kind, which no writer changes; a value then takes
// little more than an interface per element.
var (
	emptyObject any = map[string]any{}
	emptyList   any = []any{}
)

// readLeanCase reads a case as Case.UnmarshalJSON does, into the same
// values, but its observed object and the values of its mismatches and
// suggestions through the lean decoder.
func readLeanCase(data []byte, c *Case) error {
	var lc struct {
		plainCase
		Observed   leanObserved     `json:"observed"`
		Mismatches []leanMismatch   `json:"mismatches"`
		Suggested  []leanSuggestion `json:"suggested"`
	}
	lc.Observed.host = hostText.Match(data)
	if err := json.Unmarshal(data, &lc); err != nil {
		return err
	}
	*c = Case(lc.plainCase)
	c.Observed = lc.Observed.m
	c.Mismatches, c.Suggested = nil, nil
	if lc.Mismatches != nil {
		c.Mismatches = make([]verifier.Mismatch, len(lc.Mismatches))
		for i, m := range lc.Mismatches {
			c.Mismatches[i] = verifier.Mismatch{Field: m.Field, Comparison: m.Comparison, Expected: m.Expected.v, Observed: m.Observed.v}
			if m.Changes != nil {
				c.Mismatches[i].Changes = make([]scenario.Change, len(m.Changes))
				for j, ch := range m.Changes {
					c.Mismatches[i].Changes[j] = scenario.Change{Path: ch.Path, Kind: ch.Kind, Expected: ch.Expected.v, Observed: ch.Observed.v}
				}
			}
		}
	}
	if lc.Suggested != nil {
		c.Suggested = make([]verifier.Suggestion, len(lc.Suggested))
		for i, x := range lc.Suggested {
			c.Suggested[i] = verifier.Suggestion{Key: x.Key, Value: x.Value.v}
		}
	}
	if lc.Observed.host {
		c.readHostValues(data, false)
	}
	return nil
}

// leanMismatch, leanChange and leanSuggestion are verifier.Mismatch,
// scenario.Change and verifier.Suggestion as encoding/json reads them,
// their values read by the lean decoder.
type (
	leanMismatch struct {
		Field      string       `json:"field"`
		Comparison string       `json:"comparison"`
		Expected   leanValue    `json:"expected"`
		Observed   leanValue    `json:"observed"`
		Changes    []leanChange `json:"changes,omitempty"`
	}
	leanChange struct {
		Path     string    `json:"path"`
		Kind     string    `json:"kind"`
		Expected leanValue `json:"expected,omitempty"`
		Observed leanValue `json:"observed,omitempty"`
	}
	leanSuggestion struct {
		Key   string    `json:"key"`
		Value leanValue `json:"value"`
	}
)

// leanValue is a value encoding/json reads into an any, read by the lean
// decoder.
type leanValue struct{ v any }

func (l *leanValue) UnmarshalJSON(data []byte) error {
	d := leanDecoder{b: data, raw: true, rawDepth: 0}
	if v, end := d.value(jsontext.SkipSpace(data, 0), 0); end >= 0 && jsontext.SkipSpace(data, end) == len(data) {
		l.v = v
		return nil
	}
	l.v = nil
	return json.Unmarshal(data, &l.v)
}

// hostValue is reportValue's reading of raw, nested empty objects and
// lists shared, and a long list or object rawDepth levels in kept as its
// text (rawValue).
func hostValue(raw []byte, rawDepth int) (any, bool) {
	d := leanDecoder{b: raw, host: true, raw: true, rawDepth: rawDepth}
	if v, end := d.value(jsontext.SkipSpace(raw, 0), 0); end >= 0 && jsontext.SkipSpace(raw, end) == len(raw) {
		return v, true
	}
	return reportValue(raw)
}

// plainCase is Case without its methods.
type plainCase Case

// leanObserved reads a case's observed object into the values
// encoding/json would make of it, or, for a case that holds what only the
// host decoders read faithfully (host), those readHostValues makes; its
// nested empty objects and lists are the shared ones.
type leanObserved struct {
	m    map[string]any
	host bool
}

func (o *leanObserved) UnmarshalJSON(data []byte) error {
	read := func(raw []byte) (any, bool) {
		d := leanDecoder{b: raw, raw: true, rawDepth: 1}
		v, end := d.value(jsontext.SkipSpace(raw, 0), 0)
		return v, end >= 0 && jsontext.SkipSpace(raw, end) == len(raw)
	}
	if o.host {
		read = func(raw []byte) (any, bool) { return hostValue(raw, 1) }
	}
	if v, ok := read(data); ok {
		if m, isMap := v.(map[string]any); isMap {
			o.m = m
			return nil
		}
	}
	// Anything else, null included, is encoding/json's to read.
	o.m = nil
	return json.Unmarshal(data, &o.m)
}

// leanDecoder decodes a JSON value as encoding/json decodes it into an
// any (or, with host, as reportValue does), nested empty objects and lists
// shared; with raw, a list or object rawDepth levels in whose text is
// longer than rawValueBytes is kept as that text (rawValue).
type leanDecoder struct {
	b        []byte
	host     bool
	raw      bool
	rawDepth int
}

// value decodes the value at b[i], depth levels into the observed object,
// and returns it and the index after it, or -1 where it cannot read it as
// encoding/json (or reportValue) would.
func (d *leanDecoder) value(i, depth int) (any, int) {
	b := d.b
	if i >= len(b) {
		return nil, -1
	}
	switch c := b[i]; {
	case c == '"':
		end, plain := jsontext.ScanString(b, i)
		if end < 0 {
			return nil, -1
		}
		s, ok := d.str(b[i:end], plain)
		if !ok {
			return nil, -1
		}
		return s, end
	case (c == '{' || c == '[') && d.raw && depth == d.rawDepth && len(b)-i > rawValueBytes:
		if end := valueEnd(b, i); end-i > rawValueBytes {
			if r, ok := d.rawOf(b[i:end], depth); ok {
				return r, end
			}
		}
		d.raw = false // read as it always was, this value and what it holds
		defer func() { d.raw = true }()
		return d.value(i, depth)
	case c == '{':
		if d.host && depth >= jsontext.MaxDepth {
			return nil, -1 // past where reportValue's fast reader reads
		}
		if j := jsontext.SkipSpace(b, i+1); depth > 0 && j < len(b) && b[j] == '}' {
			return emptyObject, j + 1
		}
		obj := map[string]any{}
		end := jsontext.EachMember(b, i, func(keyTok []byte, plain bool, start int) int {
			key, ok := d.str(keyTok, plain)
			if !ok {
				return -1
			}
			v, end := d.value(start, depth+1)
			obj[key] = v
			return end
		})
		return obj, end
	case c == '[':
		if d.host && depth >= jsontext.MaxDepth {
			return nil, -1
		}
		if j := jsontext.SkipSpace(b, i+1); j < len(b) && b[j] == ']' {
			return emptyList, j + 1
		}
		list := []any{}
		if depth < countedDepth {
			list = make([]any, 0, d.count(i))
		}
		end := jsontext.EachElement(b, i, func(start int) int {
			v, end := d.value(start, depth+1)
			list = append(list, v)
			return end
		})
		return list, end
	case c == '-' || jsontext.IsDigit(c):
		end := jsontext.ScanNumber(b, i)
		if end < 0 {
			return nil, -1
		}
		if d.host {
			if f, err := strconv.ParseFloat(string(b[i:end]), 64); err == nil && string(jsonx.AppendFloat(nil, f)) == string(b[i:end]) {
				return f, end
			}
			return json.Number(b[i:end]), end
		}
		f, err := strconv.ParseFloat(string(b[i:end]), 64)
		if err != nil {
			return nil, -1
		}
		return f, end
	case c == 't':
		return true, jsontext.ScanLiteral(b, i, "true")
	case c == 'f':
		return false, jsontext.ScanLiteral(b, i, "false")
	case c == 'n':
		return nil, jsontext.ScanLiteral(b, i, "null")
	}
	return nil, -1
}

// str is the value of a string token: as the hosts read it (host), else
// as encoding/json does.
func (d *leanDecoder) str(tok []byte, plain bool) (string, bool) {
	if plain || d.host {
		return jsontext.StringValue(tok, plain), true
	}
	var s string
	if err := json.Unmarshal(tok, &s); err != nil {
		return "", false
	}
	return s, true
}

// countedDepth is how deep the lean reader counts a list's elements before
// it reads them, so that a long list is made once at its length rather
// than grown (a list grown a quarter at a time takes, while it grows,
// nearly twice its size); deeper, where a count would read the text again
// at every level, lists grow.
const countedDepth = 3

// count is how many elements the well-formed list at b[i] holds.
func (d *leanDecoder) count(i int) int { return countAt(d.b, i, math.MaxInt) }

// countAt is how many elements or members the well-formed list or object
// at b[i] holds, counted up to one past n (what is past a limit is not
// read); 0 for any other value.
func countAt(b []byte, i, n int) int {
	count := 0
	step := func(at int) int {
		if count++; count > n {
			return -1
		}
		return valueEnd(b, at)
	}
	switch b[i] {
	case '[':
		jsontext.EachElement(b, i, step)
	case '{':
		jsontext.EachMember(b, i, func(_ []byte, _ bool, at int) int { return step(at) })
	}
	return count
}

// countOf is countAt of the value object (one well-formed object) holds
// under key; 0 when it holds none.
func countOf(object []byte, key string, n int) int {
	start, _, ok := memberSpan(object, key)
	if !ok {
		return 0
	}
	return countAt(object, start, n)
}

// sizeLists makes room for the report's top-level lists (diagnostics,
// lessons, source-only claims, coverage lines) at the length data gives them, so that
// decoding data into r makes each once rather than growing it: a list
// grown a quarter at a time takes, while it grows, nearly twice its size.
func (r *Report) sizeLists(data []byte) {
	if n := countOf(data, "diagnostics", math.MaxInt); n > 0 {
		r.Diagnostics = make(verifier.Diagnostics, 0, n)
	}
	if n := countOf(data, "lessons", math.MaxInt); n > 0 {
		r.Lessons = make([]Lesson, 0, n)
	}
	if n := countOf(data, "sourceOnly", math.MaxInt); n > 0 {
		r.SourceOnly = make([]Claim, 0, n)
	}
	if start, end, ok := memberSpan(data, "coverage"); ok && data[start] == '{' {
		cov := data[start:end]
		r.Coverage = &Coverage{
			Desks:    make([]PointCoverage, 0, countOf(cov, "desks", math.MaxInt)),
			Families: make([]PointCoverage, 0, countOf(cov, "families", math.MaxInt)),
		}
	}
}
