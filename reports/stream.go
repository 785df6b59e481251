package reports

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/deskcheck/deskcheck/internal/jsonx"
	"github.com/deskcheck/deskcheck/internal/parallel"
	"github.com/deskcheck/deskcheck/verifier"
)

// Stream builds the report of a run case by case, as verifier.VerifyStream
// hands the results on (or desk by desk, Desk), so that the memory a
// report takes does not grow with the evidence of its cases:
//
//   - each case's line of report.json is written, as it is made, to a
//     spill file (an unlinked temporary file, or memory when no temporary
//     file can be made), which the JSON writer copies out in file order;
//   - Cases holds lean copies: everything the pages and tables read of
//     every case (ids, title, status, releases, dimensions, location),
//     plus the mismatches, trace and error of failed and errored cases;
//   - the cases a page shows in full (the first FailureCards failed and
//     the first PassingCards passing ones, as the HTML cards) are kept
//     whole;
//   - what grows with a kept case's run (its trace, observed values,
//     mismatches and suggestions) is set aside in a hold (hold.go) and
//     read back a case at a time by the format that shows it.
//
// The report is the one Build makes of the same results, byte for byte in
// every format.
type Stream struct {
	o Origin
	// traces keeps the trace of every case, not only of the failed ones
	// (the text output with -v prints them all).
	traces bool
	spill  *spill
	// hold keeps the evidence of the cases kept whole or failed.
	hold *hold
	// cases are the lean copies in chunks of caseChunk, so that growing
	// the list copies at most the first chunk; Finish lays them out in
	// one.
	cases  [][]Case
	n      int
	claims []Claim
	// cardedFailed and cardedPassing count the cases kept whole.
	cardedFailed, cardedPassing int
	// What the report's sections need of the desks: the dimensions of
	// each and of the suite, the points reached, the files read, the
	// host families used and the failures to choose the located from.
	dims     []DeskDimensions
	suiteDim verifier.DimensionTally
	// releaseDim sums the dimensions per release that has a column.
	releaseDim releaseTally
	cover      verifier.CoverageTally
	files      []File
	used       map[string]bool
	failed     []failure
	desks      int
	lines      [][]byte
	// The desk being taken: its cases so far, their dimensions, and its
	// failed cases to locate.
	deskCases int
	deskDim   verifier.DimensionTally
	locate    []located
	// names holds one copy of each desk id, scenario, family, lesson and
	// range the lean copies name (at most mostNames of them), shared by
	// every case that names it.
	names map[string]string
	// verdictLists are the last lists of release verdicts the lean copies
	// hold, each shared by the cases whose verdicts are the same.
	verdictLists [][]verifier.ReleaseVerdict
	nextList     int
}

// keptVerdictLists is how many lists of verdicts Stream.verdicts compares
// a case's with.
const keptVerdictLists = 16

// verdicts returns a case's verdicts as its lean copy keeps them: without
// the boundary of each release's run (Take has tallied it), and the same
// list as an earlier case's when they are the same. Most cases of a host
// with releases pass on all of them: a suite of such cases held a list of
// a dozen verdicts for every case, and each run's boundary with it.
func (st *Stream) verdicts(vs []verifier.ReleaseVerdict) []verifier.ReleaseVerdict {
	if len(vs) == 0 {
		return vs
	}
	for _, kept := range st.verdictLists {
		if slices.EqualFunc(kept, vs, sameVerdict) {
			return kept
		}
	}
	out := make([]verifier.ReleaseVerdict, len(vs))
	for i, v := range vs {
		v.Boundary = nil
		out[i] = v
	}
	if len(st.verdictLists) < keptVerdictLists {
		st.verdictLists = append(st.verdictLists, out)
	} else {
		st.verdictLists[st.nextList] = out
		st.nextList = (st.nextList + 1) % keptVerdictLists
	}
	return out
}

// sameVerdict compares what a lean copy keeps of two verdicts.
func sameVerdict(a, b verifier.ReleaseVerdict) bool {
	return a.Host == b.Host && a.Release == b.Release && a.Group == b.Group && a.Status == b.Status && a.Reason == b.Reason
}

// mostNames bounds Stream.names; a name past it is a copy of its own.
const mostNames = 4096

// name returns a copy of s that shares no memory with the desk's file,
// the same copy for every case that names s.
func (st *Stream) name(s string) string {
	if s == "" {
		return ""
	}
	if c, ok := st.names[s]; ok {
		return c
	}
	c := strings.Clone(s)
	if st.names == nil {
		st.names = map[string]string{}
	}
	if len(st.names) < mostNames {
		st.names[c] = c
	}
	return c
}

// ownNames returns copies of a case's id, title and why, made in one
// allocation: a suite's lean copies are most of what every collection
// marks in a large run, and one object a case is cheaper to mark than
// three.
func ownNames(id, title, why string) (string, string, string) {
	var b strings.Builder
	b.Grow(len(id) + len(title) + len(why))
	b.WriteString(id)
	b.WriteString(title)
	b.WriteString(why)
	s := b.String()
	return s[:len(id)], s[len(id) : len(id)+len(title)], s[len(id)+len(title):]
}

// NewStream starts a report made by the run o describes. traces keeps
// every case's trace in Cases. Close lets the spill go.
func NewStream(o Origin, traces bool) *Stream { return newStream(o, traces, newSpill()) }

func newStream(o Origin, traces bool, sp *spill) *Stream {
	return &Stream{o: o, traces: traces, spill: sp, hold: newHold(), claims: []Claim{}, dims: []DeskDimensions{}, used: map[string]bool{}}
}

// NewStreamWithoutJSON is NewStream for a report that will not be written
// as report.json (verify -out none, printing text, say): no case's line is
// made or kept, and writing the report as JSON fails; every other format
// is the same.
func NewStreamWithoutJSON(o Origin, traces bool) *Stream {
	return newStream(o, traces, &spill{omitted: true})
}

// Close lets the spill file go; the report of Finish cannot be written
// after it.
func (st *Stream) Close() error { return errors.Join(st.spill.close(), st.hold.close()) }

// Desk adds the results and claims of one desk, in file order. d must be
// the desk as loaded (not yet lean): its text locates the failed cases.
// It is Prepare, Take and Done of every result, with the lines made a
// batch at a time across the processors.
func (st *Stream) Desk(d *verifier.Desk, results []verifier.Result, claims []*verifier.Claim) error {
	full := make([]Case, len(results))
	parallel.For(len(results), func(i int) { full[i] = newCase(&results[i], false) })
	if st.spill.omitted { // no report.json: no line is made
		for i := range full {
			if err := st.Take(d, &Streamed{c: full[i], r: slim(&results[i])}); err != nil {
				return err
			}
		}
		return st.Done(d, claims)
	}
	// The lines are made a batch at a time, across the processors, and
	// copied out to the spill before the next batch: a desk of large
	// cases never holds all its lines at once. Their buffers serve batch
	// after batch and desk after desk.
	for len(st.lines) < min(len(full), lineBatch) {
		st.lines = append(st.lines, make([]byte, 0, lineBytes))
	}
	idAt := make([]int, min(len(full), lineBatch))
	for start, end := 0, 0; start < len(full); start = end {
		end = batchEnd(full, start)
		batch := full[start:end]
		lines := st.lines[:len(batch)]
		parallel.For(len(batch), func(i int) {
			lines[i], idAt[i] = lineOf(&batch[i], lines[i][:0])
		})
		for i := range batch {
			if err := st.Take(d, &Streamed{c: batch[i], r: slim(&results[start+i]), line: lines[i], idAt: idAt[i]}); err != nil {
				return err
			}
			if cap(lines[i]) > 4*lineBytes {
				lines[i] = make([]byte, 0, lineBytes) // let a large line's buffer go
			}
		}
	}
	return st.Done(d, claims)
}

// Streamed is what Prepare makes of one result for Take: the case's
// evidence, its line of report.json, and the little of the result the
// report's tallies read.
type Streamed struct {
	c    Case
	r    verifier.Result
	line []byte
	idAt int
	// pooled: line's buffer goes back to linePool once spilled.
	pooled *[]byte
	// blocks holds the case's compacted given and expected blocks; it
	// goes back to blockPool once the case is taken.
	blocks *[]byte
}

// blockPool holds the buffers Prepare compacts a case's given and
// expected blocks into: the line copies them, and a lean copy that keeps
// them keeps a copy of its own.
var blockPool = sync.Pool{New: func() any { b := make([]byte, 0, lineBytes); return &b }}

// linePool holds the buffers Prepare makes lines in.
var linePool = sync.Pool{New: func() any { b := make([]byte, 0, lineBytes); return &b }}

// Prepare makes the evidence of one result and, unless no report.json
// is made, its line (verifier.Sink): it runs on the goroutine that ran the
// case, and keeps of the result only what the tallies read.
func (st *Stream) Prepare(r *verifier.Result) *Streamed {
	blocks := blockPool.Get().(*[]byte)
	out := &Streamed{r: slim(r), blocks: blocks}
	out.c, *blocks = newCaseIn(r, false, (*blocks)[:0])
	if !st.spill.omitted {
		buf := linePool.Get().(*[]byte)
		out.line, out.idAt = lineOf(&out.c, (*buf)[:0])
		out.pooled = buf
	}
	return out
}

// lineOf appends c's line of report.json to b, without its location
// (spliced in when written, once Finish has chosen), and returns it and
// where the location goes.
func lineOf(c *Case, b []byte) ([]byte, int) {
	line, col := c.Line, c.Column
	c.Line, c.Column = 0, 0
	b = c.appendJSON(b)
	c.Line, c.Column = line, col
	return b, len(jsonx.AppendString(append(jsonx.AppendString([]byte(`{"desk":`), c.Desk), `,"id":`...), c.ID))
}

// slim is the copy of r the tallies read: its status, case, boundary,
// points and releases, without its observed values, mismatches and trace.
func slim(r *verifier.Result) verifier.Result {
	x := *r
	x.Observed, x.Mismatches, x.Trace = nil, nil, nil
	return x
}

// Take adds one case of desk d, in file order (verifier.Sink): its line
// goes to the spill, its lean copy to Cases, and its result to the
// tallies.
func (st *Stream) Take(d *verifier.Desk, s *Streamed) error {
	if st.deskCases == 0 {
		st.deskDim = verifier.DimensionTally{}
		st.locate = st.locate[:0]
	}
	st.deskCases++
	if !st.spill.omitted {
		if err := st.spill.add(s.line, s.idAt); err != nil {
			return err
		}
		if s.pooled != nil {
			if cap(s.line) <= 4*lineBytes {
				*s.pooled = s.line[:0]
				linePool.Put(s.pooled)
			}
			s.line, s.pooled = nil, nil
		}
	}
	one := []verifier.Result{s.r}
	st.deskDim.Add(one)
	st.suiteDim.Add(one)
	st.releaseDim.Add(one)
	st.cover.Add(one)
	if failed(&s.c) {
		st.failed = append(st.failed, failure{i: st.n, desk: st.desks, size: len(d.Cases)})
		if len(d.Cases) <= locateBudget && len(st.locate) < locatedCases {
			st.locate = append(st.locate, located{i: st.n, ptr: s.r.Case.Pointer})
		}
	}
	err := st.addLean(&s.c)
	if s.blocks != nil {
		s.c.Given, s.c.Expected = nil, nil
		if cap(*s.blocks) <= 4*lineBytes {
			*s.blocks = (*s.blocks)[:0]
			blockPool.Put(s.blocks)
		}
		s.blocks = nil
	}
	return err
}

// located is a failed case to locate in its desk: its index in Cases and
// its pointer.
type located struct {
	i   int
	ptr string
}

// Done ends desk d (verifier.Sink): the failed cases Build could locate
// in it are located while its text is at hand (its first LocatedCases,
// unless the desk alone is over the walking budget; Finish keeps those
// Build would have chosen), and its dimensions, file, hosts and claims
// are kept.
func (st *Stream) Done(d *verifier.Desk, claims []*verifier.Claim) error {
	if st.deskCases > 0 {
		st.dims = append(st.dims, DeskDimensions{Desk: strings.Clone(d.ID), Dimensions: st.deskDim.Dimensions()})
	}
	if len(st.locate) > 0 {
		ptrs := make([]string, len(st.locate))
		for k, l := range st.locate {
			ptrs[k] = l.ptr
		}
		lines, cols := d.LocateAll(ptrs)
		for k, l := range st.locate {
			c := &st.cases[l.i/caseChunk][l.i%caseChunk]
			c.Line, c.Column = lines[k], cols[k]
		}
	}
	st.deskCases, st.locate = 0, st.locate[:0]
	f := st.o.file(d)
	f.Path, f.Desk, f.SHA256 = strings.Clone(f.Path), strings.Clone(f.Desk), strings.Clone(f.SHA256)
	st.files = append(st.files, f)
	usedHosts(d, st.used)
	st.desks++
	st.addClaims(claims)
	return nil
}

// addClaims keeps copies of a desk's source-only claims.
func (st *Stream) addClaims(claims []*verifier.Claim) {
	for _, cl := range claims {
		c := newClaim(cl)
		st.claims = append(st.claims, Claim{Desk: strings.Clone(c.Desk), ID: strings.Clone(c.ID), Claim: strings.Clone(c.Claim),
			NotExecuted: strings.Clone(c.NotExecuted), SourceRefs: cloneRefs(c.SourceRefs)})
	}
}

// addLean keeps the lean copy of c, its evidence set aside in the hold.
func (st *Stream) addLean(c *Case) error {
	switch {
	case len(st.cases) == 0:
		// A small run's list stays small: the first chunk grows to
		// caseChunk as cases come.
		st.cases = append(st.cases, make([]Case, 0, firstChunk))
	case len(st.cases[len(st.cases)-1]) == caseChunk:
		st.cases = append(st.cases, make([]Case, 0, caseChunk))
	}
	l := st.lean(c)
	if l.Trace != nil || l.Observed != nil || l.Mismatches != nil || l.Suggested != nil {
		if err := st.hold.put(&l); err != nil {
			return err
		}
	}
	last := &st.cases[len(st.cases)-1]
	*last = append(*last, l)
	st.n++
	return nil
}

// lean is the copy of c that Cases keeps: its plain fields; the
// mismatches and trace too when it failed or errored (or every trace is
// kept); and all of it when a page shows it whole. What it holds shares
// no memory with the desk's file, so that the file does not stay alive.
func (st *Stream) lean(c *Case) Case {
	bad := failed(c)
	carded := false
	switch {
	case bad && st.cardedFailed < FailureCards:
		st.cardedFailed++
		carded = true
	case !bad && st.cardedPassing < PassingCards:
		st.cardedPassing++
		carded = true
	}
	// The names read from the file are copied; what the run made (its
	// status, error, unit, releases and dimensions) is the run's own.
	l := Case{
		Desk: st.name(c.Desk), Line: c.Line, Column: c.Column,
		Scenario: st.name(c.Scenario), Arena: st.name(c.Arena), Lesson: st.name(c.Lesson), Status: c.Status,
		Unit: c.Unit, Dimensions: c.Dimensions, Error: c.Error, Range: st.name(c.Range), Releases: st.verdicts(c.Releases),
		Release: c.Release, Reason: c.Reason,
	}
	l.ID, l.Title, l.Why = ownNames(c.ID, c.Title, c.Why)
	if c.lesson != nil {
		x := *c.lesson
		x.ID, x.Key = strings.Clone(x.ID), strings.Clone(x.Key)
		l.lesson = &x
	}
	// So are the values it observed and its trace (the family decoders
	// copy what they read); the expected block's keys are the file's.
	if carded || bad || st.traces {
		l.Trace = c.Trace
		l.Mismatches = make([]verifier.Mismatch, len(c.Mismatches))
		for i, m := range c.Mismatches {
			m.Field = strings.Clone(m.Field)
			l.Mismatches[i] = m
		}
	}
	if carded {
		l.Given, l.Expected, l.Observed = bytes.Clone(c.Given), bytes.Clone(c.Expected), c.Observed
		l.Comparisons = make(map[string]string, len(c.Comparisons))
		for k, v := range c.Comparisons {
			l.Comparisons[strings.Clone(k)] = v
		}
		l.Suggested = make([]verifier.Suggestion, len(c.Suggested))
		for i, x := range c.Suggested {
			x.Key = strings.Clone(x.Key)
			l.Suggested[i] = x
		}
		l.SourceRefs = cloneRefs(c.SourceRefs)
	}
	return l
}

func cloneRefs(refs []SourceRef) []SourceRef {
	out := make([]SourceRef, len(refs))
	for i, r := range refs {
		out[i] = SourceRef{Key: strings.Clone(r.Key), Source: strings.Clone(r.Source)}
	}
	return out
}

// Finish makes the report of the suite the desks made up: s is what
// verifier.VerifyEach returned (its registry, pins and summary).
func (st *Stream) Finish(s *verifier.SuiteResult) (*Report, error) {
	if s.Summary.Cases != st.n {
		return nil, fmt.Errorf("the suite has %d cases but %d were streamed", s.Summary.Cases, st.n)
	}
	if err := st.spill.flush(); err != nil {
		return nil, err
	}
	if err := st.hold.flush(); err != nil {
		return nil, err
	}
	o := st.o
	r := &Report{
		FormatVersion: FormatVersion,
		GeneratedAt:   o.Time.UTC().Format(time.RFC3339),
		Verdict:       "fail",
		Provenance:    o.provenanceOf(s.Registry, st.used, st.files, s.Hosts),
		Summary:       s.Summary,
		Dimensions:    &Boundary{Suite: st.suiteDim.Dimensions(), Desks: st.dims, Releases: st.releaseDim.columns(s.Registry)},
		Cases:         make([]Case, 0, st.n),
		SourceOnly:    st.claims,
		origin:        o,
		registry:      s.Registry,
		spill:         st.spill,
		hold:          st.hold,
	}
	if c := st.cover.Coverage(context.Background(), false); len(c.Desks) > 0 {
		r.Coverage = CoverageOf(c, false)
	}
	for i, chunk := range st.cases {
		r.Cases = append(r.Cases, chunk...)
		st.cases[i] = nil
	}
	st.cases = nil
	r.Lessons = lessonsOf(r.Cases)
	if s.Passed() {
		r.Verdict = "pass"
	}
	_, todo := locatePlan(st.failed, locatedCases, locateBudget)
	chosen := make(map[int]bool)
	for _, idx := range todo {
		for _, i := range idx {
			chosen[i] = true
		}
	}
	for i := range r.Cases {
		if !chosen[i] {
			r.Cases[i].Line, r.Cases[i].Column = 0, 0
		}
	}
	return r, nil
}

// lineBatch is how many cases' lines Desk makes before it copies them out.
const lineBatch = 256

// lineBatchBytes is about the most the lines of one batch hold.
const lineBatchBytes = 16 << 20

// batchEnd is where the batch of lines that starts at start ends: at
// lineBatch cases, or once its lines would hold about lineBatchBytes, so
// that a desk of large cases holds a few of its lines at a time, not
// hundreds.
func batchEnd(full []Case, start int) int {
	end := start
	for size := 0; end < len(full) && end-start < lineBatch && (end == start || size < lineBatchBytes); end++ {
		size += lineEstimate(&full[end])
	}
	return end
}

// lineEstimate is about how long c's line of report.json is: what grows
// with the case (its blocks, mismatches and trace) and a little more.
func lineEstimate(c *Case) int {
	n := 1024 + len(c.Given) + len(c.Expected) + 128*len(c.Mismatches) + 64*len(c.Observed)
	for i := range c.Trace {
		n += 40 + len(c.Trace[i].Text)
	}
	return n
}

// caseChunk is how many lean cases a chunk of Stream's list holds;
// the first is made with room for firstChunk and grows to it.
const (
	caseChunk  = 4096
	firstChunk = 64
)

// spill holds the cases' lines of report.json in order.
type spill struct {
	f     *os.File // nil: held in mem
	w     *bufio.Writer
	mem   []byte
	size  int64
	lines []spillLine
	// release makes the next writeCases the last: it gives the file's
	// space back behind its reading (see Report.ReleaseAsWritten).
	release bool
	// omitted: the stream made no line (NewStreamWithoutJSON).
	omitted bool
}

// spillReader reads the spill file from its start and, when release is
// set, punches out every releaseStep bytes it has read. The pages so
// freed are at once the kernel's to reuse for the report file being
// written, where fresh memory is slow to come by on some machines.
type spillReader struct {
	f                *os.File
	off, size, freed int64
	release          bool
}

// releaseStep is how much of the spill is read before it is given back.
const releaseStep = 8 << 20

func (r *spillReader) Read(p []byte) (int, error) {
	if r.off >= r.size {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), r.size-r.off)]
	n, err := r.f.ReadAt(p, r.off)
	r.off += int64(n)
	if err == io.EOF && n > 0 {
		err = nil
	}
	if r.release && r.off-r.freed >= releaseStep {
		n := (r.off - r.freed) &^ (4<<10 - 1)
		releaseRange(r.f, r.freed, n)
		r.freed += n
	}
	return n, err
}

// spillLine is one case's line: where it starts, how long it is, and
// where its location goes (after its desk and id).
type spillLine struct {
	off     int64
	n, idAt int
}

func newSpill() *spill {
	f, err := os.CreateTemp("", "deskcheck-cases-*")
	if err != nil {
		return &spill{}
	}
	// Unlinked at once: the space goes back when the file is closed or
	// the process ends, however it ends.
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return &spill{}
	}
	return &spill{f: f, w: bufio.NewWriterSize(f, 256<<10)}
}

func (s *spill) add(line []byte, idAt int) error {
	s.lines = append(s.lines, spillLine{off: s.size, n: len(line), idAt: idAt})
	s.size += int64(len(line))
	if s.f == nil {
		s.mem = append(s.mem, line...)
		return nil
	}
	if _, err := s.w.Write(line); err != nil {
		return fmt.Errorf("writing the cases' evidence to a temporary file: %w", err)
	}
	return nil
}

func (s *spill) flush() error {
	if s.w == nil {
		return nil
	}
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("writing the cases' evidence to a temporary file: %w", err)
	}
	return nil
}

func (s *spill) close() error {
	if s.f == nil {
		return nil
	}
	f := s.f
	s.f, s.w, s.lines = nil, nil, nil
	return f.Close()
}

// writeCases writes the "cases" array of report.json as writeLines does,
// each line as it was spilled with the case's location spliced in.
func (s *spill) writeCases(w *bufio.Writer, cases []Case) error {
	if s.omitted {
		return errors.New("the report was made without report.json's evidence of the cases")
	}
	if len(s.lines) != len(cases) {
		return errors.New("the cases' evidence is no longer at hand")
	}
	var src io.Reader
	if s.f != nil {
		src = bufio.NewReaderSize(&spillReader{f: s.f, size: s.size, release: s.release}, 256<<10)
	}
	if s.release {
		// Read once: whatever happens next, the lines are gone.
		defer func() { s.lines, s.mem = nil, nil }()
	}
	copyN := func(off int64, n int) error {
		if s.f == nil {
			_, err := w.Write(s.mem[off : off+int64(n)])
			return err
		}
		if _, err := io.CopyN(w, src, int64(n)); err != nil {
			return fmt.Errorf("reading the cases' evidence back: %w", err)
		}
		return nil
	}
	w.WriteString(`  "cases": [`)
	var num []byte
	for i, l := range s.lines {
		if i > 0 {
			w.WriteByte(',')
		}
		w.WriteString("\n    ")
		if err := copyN(l.off, l.idAt); err != nil {
			return err
		}
		c := &cases[i]
		if c.Line != 0 {
			num = strconv.AppendInt(append(num[:0], `,"line":`...), int64(c.Line), 10)
			w.Write(num)
		}
		if c.Column != 0 {
			num = strconv.AppendInt(append(num[:0], `,"column":`...), int64(c.Column), 10)
			w.Write(num)
		}
		if err := copyN(l.off+int64(l.idAt), l.n-l.idAt); err != nil {
			return err
		}
	}
	if len(s.lines) > 0 {
		w.WriteString("\n  ")
	}
	_, err := w.WriteString("]")
	return err
}
