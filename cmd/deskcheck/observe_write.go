package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/reports"
	"github.com/deskcheck/deskcheck/reports/folder"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// wrapWidth is the longest line a rewritten block writes a value on
// before it puts the value's elements on lines of their own, in a file
// that writes nested values on one line.
const wrapWidth = 100

// edit replaces data[start:end] of a file by text.
type edit struct {
	start, end int
	text       string
	id         string // <desk-id>/<case-id>
}

// observeWrite is observe -w: it rewrites, in the files named, the
// expected block of every selected case whose block observe would change,
// and leaves every other byte of the file as it was.
func observeWrite(sel selection, paths []string, interactive, force bool, stdout, stderr io.Writer) int {
	if os.Getenv("CI") != "" {
		fmt.Fprintf(stderr, "deskcheck: observe -w does not write when CI is set: a CI run checks desks, it does not change them (run observe without -w to see the blocks)\n")
		return exitInvalid
	}
	if len(paths) == 0 {
		fmt.Fprintf(stderr, "deskcheck: observe -w needs the desk files to rewrite (the bundled desks are not files)\n")
		return exitInvalid
	}
	for _, p := range paths {
		info, err := os.Stat(p)
		switch {
		case p == "-":
			fmt.Fprintf(stderr, "deskcheck: observe -w cannot rewrite standard input; name the file\n")
			return exitInvalid
		case err == nil && !info.Mode().IsRegular():
			fmt.Fprintf(stderr, "deskcheck: observe -w: %s is not a regular file; name each desk file to rewrite\n", p)
			return exitInvalid
		case err == nil:
			// Said before anything runs; said again, if it became so,
			// when the file is written.
			if err := writable(p, force); err != nil {
				fmt.Fprintf(stderr, "deskcheck: observe -w: %s: %s; nothing written\n", reports.OneLine(p), reports.OneLine(err.Error()))
				return exitInvalid
			}
		}
	}
	// Each case's block is shown (and asked about) as soon as it and the
	// cases before it have run; what is kept is the edits, not the results.
	w := &blockWriter{interactive: interactive, answers: bufio.NewReader(stdin), edits: map[string][]edit{}, stdout: stdout, stderr: stderr}
	sel.shown = true
	_, code := sel.judge(paths, stderr, verifier.ListPaths, func(inputs []verifier.Input, opts verifier.Options) (*verifier.SuiteResult, verifier.Diagnostics, error) {
		return verifier.VerifyStream[*blockCase](context.Background(), inputs, opts, w)
	})
	if code != exitPass {
		return code
	}
	edits, order, declined, tooLong, unsettledCases := w.edits, w.order, w.declined, w.tooLong, w.unsettled
	code = exitPass
	switch {
	case tooLong:
		code = exitInvalid
	case unsettledCases > 0:
		code = exitFail
	}
	if len(order) == 0 {
		switch {
		case declined > 0:
			fmt.Fprintf(stdout, "nothing rewritten: %s declined\n", plural(declined, "block", "blocks"))
		case unsettledCases > 0:
			fmt.Fprintf(stdout, "nothing rewritten: %s no one block on the releases of %s range\n", plural(unsettledCases, "case has", "cases have"), pluralWord(unsettledCases, "its", "their"))
		default:
			fmt.Fprintf(stdout, "nothing to rewrite: every selected block holds and asserts every key suggested\n")
		}
		return code
	}
	reg := all.Registry()
	for _, d := range order {
		es := edits[d.Path]
		if err := writeDesk(reg, sel, d, es, force, stderr); err != nil {
			fmt.Fprintf(stderr, "deskcheck: %s: %s; not written: the expected %s of %s\n", reports.OneLine(d.Path), reports.OneLine(err.Error()),
				pluralWord(len(es), "block", "blocks"), reports.OneLine(editIDs(es)))
			code = exitInvalid
			continue
		}
		fmt.Fprintf(stdout, "%s: rewrote the expected blocks of %s\n", reports.OneLine(d.Path), plural(len(es), "case", "cases"))
	}
	return code
}

// editIDs names the cases of es: the first idsNamed, then how many more.
func editIDs(es []edit) string {
	ids := make([]string, 0, min(len(es), idsNamed))
	for _, e := range es[:min(len(es), idsNamed)] {
		ids = append(ids, e.id)
	}
	s := strings.Join(ids, ", ")
	if len(es) > idsNamed {
		s += " and " + verifier.Thousands(len(es)-idsNamed) + " more"
	}
	return s
}

// idsNamed is how many cases a message of observe -w names.
const idsNamed = 10

// deskFile is what observe -w keeps of a desk it rewrites: its path and
// the SHA-256 of the text it read.
type deskFile struct{ Path, SHA256 string }

// blockCase is what observe -w makes of one case's result while the run
// goes on: the line that names it, and either why it is left as it is or
// the block to write and how it differs.
type blockCase struct {
	c *verifier.Case
	// errored is the first line of the error of a case that could not run.
	errored string
	label   string
	// unsettled says why no one block holds on the case's releases.
	unsettled    string
	keys         []string
	values       []json.RawMessage
	diff         []string
	on           string
	isErr, leave bool
}

// blockWriter is observe -w's verifier.Sink: it shows each case's block
// as it comes, asks about it when interactive, and keeps the edits of
// each desk file.
type blockWriter struct {
	interactive bool
	answers     *bufio.Reader
	edits       map[string][]edit
	order       []deskFile
	declined    int
	quit        bool
	tooLong     bool
	// unsettled counts the cases no one block holds on across their
	// releases.
	unsettled      int
	stdout, stderr io.Writer
	// lines finds the line of each block of the desk being taken.
	lines lineCursor
}

// Prepare works out, on the goroutine that ran the case, the block to
// write and how it differs, running it again on each release group when
// its releases behave differently.
func (w *blockWriter) Prepare(r *verifier.Result) *blockCase {
	b := &blockCase{c: r.Case}
	if r.Status == verifier.Errored {
		b.isErr, b.errored = true, firstLineOf(r.Err)
		return b
	}
	c := reports.CaseOf(r)
	keys, values, diff := reports.ExpectedBlock(c)
	if len(diff) == 0 {
		b.leave = true
		return b
	}
	b.label = reports.OneLine(r.Case.FullID() + " — " + r.Case.Title)
	if c.Release != "" && len(c.Releases) > 0 {
		b.on = "observed on " + c.Releases[0].Host + " " + c.Release
	}
	if spans := spansOf(context.Background(), r); spans != nil {
		// Judged on releases that behave differently: the block
		// written must hold on all of them, or none is written.
		st := settle(r.Case, spans)
		if len(st.conflict) > 0 {
			b.unsettled = unsettled(r.Case, spans, st.conflict)
			return b
		}
		keys, values, diff, b.on = st.keys, st.values, st.diff, st.on
	}
	b.keys, b.values, b.diff = keys, values, diff
	return b
}

// Take shows one case's block, in file order, and keeps its edit.
func (w *blockWriter) Take(d *verifier.Desk, b *blockCase) error {
	if w.quit {
		return nil
	}
	stdout, stderr := w.stdout, w.stderr
	switch {
	case b.isErr:
		fmt.Fprintf(stdout, "%s — could not run, left as it is: %s\n", reports.OneLine(b.c.FullID()), reports.OneLine(b.errored))
		return nil
	case b.leave:
		return nil
	case b.unsettled != "":
		fmt.Fprintf(stdout, "%s\n%s", b.label, reports.Visible(b.unsettled))
		w.unsettled++
		return nil
	}
	e, err := blockEdit(d, b.c, b.keys, b.values, &w.lines)
	if err != nil {
		return fmt.Errorf("%s: %s", reports.OneLine(d.Path), reports.OneLine(err.Error()))
	}
	if sameText(d.Text()[e.start:e.end], e.text) {
		return nil // what is written is the block to write
	}
	e.id = b.c.FullID()
	if b.on != "" {
		fmt.Fprintf(stdout, "%s\n  (%s)\n%s\n", b.label, reports.OneLine(b.on), reports.Visible(strings.Join(b.diff, "\n")))
	} else {
		fmt.Fprintf(stdout, "%s\n%s\n", b.label, reports.Visible(strings.Join(b.diff, "\n")))
	}
	if w.interactive {
		fmt.Fprintf(stderr, "rewrite this block? [y/N/q] ")
		line, err := readAnswer(w.answers)
		if errors.Is(err, errLongAnswer) {
			fmt.Fprintf(stderr, "deskcheck: %v; taken as q: no further block is written\n", err)
			line, w.tooLong = "q", true
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
		case "q", "quit":
			w.quit = true
			w.declined++
			return nil
		default:
			fmt.Fprintf(stdout, "  (left as it is)\n")
			w.declined++
			return nil
		}
	}
	if w.edits[d.Path] == nil {
		w.order = append(w.order, deskFile{Path: strings.Clone(d.Path), SHA256: strings.Clone(d.SHA256)})
	}
	w.edits[d.Path] = append(w.edits[d.Path], e)
	return nil
}

// Done ends a desk; its edits are kept.
func (w *blockWriter) Done(*verifier.Desk, []*verifier.Claim) error {
	w.lines = lineCursor{}
	return nil
}

// errChanged says that a desk file changed after it was read.
var errChanged = errors.New("the file changed after it was read (another run or an editor wrote it): run observe -w again")

// beforeCommit, when set, is called once a desk's new text is ready to
// be renamed into place; the tests hold two runs there together.
var beforeCommit func(path string)

// writeDesk writes the edits into the desk file d was read from, if it
// still holds what was read.
func writeDesk(reg *scenario.Registry, sel selection, d deskFile, es []edit, force bool, stderr io.Writer) error {
	// A link is followed: the file it names is the one rewritten, and the
	// link stays a link.
	path, err := filepath.EvalSymlinks(d.Path)
	if err != nil {
		return err
	}
	if err := writable(path, force); err != nil {
		return err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if verifier.SHA256Of(data) != d.SHA256 {
		return errChanged
	}
	out := applyEdits(data, es)
	if _, ds := verifier.Load(reg, d.Path, out, *sel.limits); ds.HasErrors() {
		printDiagnostics(stderr, ds)
		return errors.New("the rewritten file would not load")
	}
	tmp, err := writeBeside(path, out)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	// A signal that ends the process removes it (folder.Abandon).
	done, err := folder.Track(tmp)
	if err != nil {
		return err
	}
	defer done()
	if beforeCommit != nil {
		beforeCommit(path)
	}
	return commitDesk(path, tmp, d.SHA256, force, stderr)
}

// writable refuses, unless forced, a desk file that is read-only or has
// other hard links: renaming a new file into its place would override the
// one and leave the others with the old text.
func writable(path string, force bool) error {
	if force {
		return nil
	}
	st, err := stateOf(path)
	if err != nil {
		return err
	}
	if readOnly(path, st) {
		return fmt.Errorf("the file is read-only (mode %04o); -force writes it anyway", st.perm)
	}
	if st.links > 1 {
		return fmt.Errorf("the file has %s, which would keep the old text; -force writes a new file in its place anyway", plural(int(st.links-1), "other hard link", "other hard links"))
	}
	return nil
}

// writeBeside writes data to a new file beside path, with path's mode,
// flushed to disk, and returns its name.
func writeBeside(path string, data []byte) (string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return "", err
	}
	fail := func(err error) (string, error) {
		tmp.Close()
		os.Remove(tmp.Name())
		return "", err
	}
	if _, err := tmp.Write(data); err != nil {
		return fail(err)
	}
	if err := tmp.Chmod(info.Mode().Perm()); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return tmp.Name(), nil
}

// commitDesk renames tmp over path if path still holds the text whose
// SHA-256 is sum. It holds the lock every observe -w run takes on the
// file from before it reads the file again until the rename is done, so
// that of two runs the second always sees the first's text; and it checks
// that the file's metadata did not change while it read it, so that an
// editor that saves meanwhile is not overwritten either.
func commitDesk(path, tmp, sum string, force bool, stderr io.Writer) error {
	f, err := lockDesk(path, stderr)
	if err != nil {
		return err
	}
	defer f.Close()
	before, err := stateOf(path)
	if err != nil {
		return err
	}
	if err := writable(path, force); err != nil {
		return err
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return err
	}
	if verifier.SHA256Of(data) != sum {
		return errChanged
	}
	after, err := stateOf(path)
	if err != nil {
		return err
	}
	if after != before || !holds(f, before) {
		return errChanged
	}
	return os.Rename(tmp, path)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// maxAnswer is the longest answer line -i reads.
const maxAnswer = 64

// errLongAnswer says that an answer line was longer than maxAnswer.
var errLongAnswer = fmt.Errorf("an answer longer than %d bytes", maxAnswer)

// readAnswer reads one answer line of at most maxAnswer bytes; at the end
// of the input it returns what it read.
func readAnswer(r *bufio.Reader) (string, error) {
	var b []byte
	for {
		c, err := r.ReadByte()
		if err != nil || c == '\n' {
			return string(b), nil
		}
		if len(b) == maxAnswer {
			return "", errLongAnswer
		}
		b = append(b, c)
	}
}

func firstLineOf(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// blockEdit is the edit that replaces the case's expected block by keys
// and values, written in the style of the block it replaces.
// Each case's block is found where the desk's reader saw it, and its
// line's start from the previous case's: a desk of 65,000 cases on one
// line is not read from its start for each case.
func blockEdit(d *verifier.Desk, c *verifier.Case, keys []string, values []json.RawMessage, lines *lineCursor) (edit, error) {
	text := d.Text()
	at, raw := c.ExpectedAt(), c.ExpectedRaw
	if at <= 0 || at+len(raw) > len(text) || text[at:at+len(raw)] != raw || !strings.HasPrefix(raw, "{") {
		return edit{}, fmt.Errorf("cannot locate the expected block of %s", c.FullID())
	}
	st := styleOf(text, lines.lineStart(d, at), at, raw, c.Given.Raw)
	return edit{start: at, end: at + len(raw), text: st.block(keys, values)}, nil
}

// lineCursor finds the start of the line an offset of a desk's text lies
// on. Asked in rising order, as the cases of a desk are taken, it reads
// each byte of the text once.
type lineCursor struct {
	desk      *verifier.Desk
	at, start int
}

func (l *lineCursor) lineStart(d *verifier.Desk, at int) int {
	if d != l.desk || at < l.at {
		l.desk, l.at, l.start = d, 0, 0
	}
	if i := strings.LastIndexByte(d.Text()[l.at:at], '\n'); i >= 0 {
		l.start = l.at + i + 1
	}
	l.at = at
	return l.start
}

// sameText tells whether a block as the file writes it is text, a block
// written with line feeds (a file of CR LF lines ends its lines so).
func sameText(written, text string) bool {
	return written == text || strings.ReplaceAll(written, "\r\n", "\n") == text
}

// applyEdits applies non-overlapping edits to data.
func applyEdits(data []byte, es []edit) []byte {
	sort.Slice(es, func(i, j int) bool { return es[i].start < es[j].start })
	// A file whose lines end in CR LF gets its new lines ended the same way.
	crlf := bytes.Contains(data, []byte("\r\n"))
	var b bytes.Buffer
	at := 0
	for _, e := range es {
		b.Write(data[at:e.start])
		text := e.text
		if crlf {
			text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\n", "\r\n")
		}
		b.WriteString(text)
		at = e.end
	}
	b.Write(data[at:])
	return b.Bytes()
}

// style is how a file writes an expected block.
type style struct {
	multiline bool
	keyIndent string // before each key, on its own line
	endIndent string // before the closing brace, on its own line
	unit      string // one level of indentation
	pretty    bool   // nested values are written one element per line
	spaced    bool   // ": " and ", " between tokens of a one-line value
	padded    bool   // "{ " and " }" around a one-line object
}

// styleOf reads the style of the block old, which starts at offset at of
// text on the line that starts at lineStart, and of the case's given
// block.
func styleOf(text string, lineStart, at int, old, given string) style {
	base := leading(text[lineStart:at])
	st := style{unit: "  ", keyIndent: base + "  ", endIndent: base}
	st.spaced = strings.Contains(old, "\": ") || strings.Contains(given, "\": ")
	st.padded = strings.HasPrefix(old, "{ ") || strings.Contains(given, "{ \"")
	if i := strings.IndexByte(old, '\n'); i >= 0 {
		st.multiline = true
		st.keyIndent = leading(old[i+1:])
		if j := strings.LastIndexByte(old, '\n'); j >= 0 {
			st.endIndent = leading(old[j+1:])
		}
		if strings.HasPrefix(st.keyIndent, st.endIndent) && len(st.keyIndent) > len(st.endIndent) {
			st.unit = st.keyIndent[len(st.endIndent):]
		}
		st.pretty = opensLine(inside(old)) || opensLine(inside(given))
	}
	return st
}

// inside is the JSON text of an object or array without its brackets.
func inside(s string) string {
	if len(s) < 2 {
		return ""
	}
	return s[1 : len(s)-1]
}

// leading is the run of spaces and tabs s starts with.
func leading(s string) string {
	return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
}

// opensLine tells whether an object or array in JSON text s ends its
// line right after it opens (outside strings).
func opensLine(s string) bool {
	in := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case !in && (c == '{' || c == '['):
			rest := strings.TrimLeft(s[i+1:], " \t\r")
			if strings.HasPrefix(rest, "\n") {
				return true
			}
		}
	}
	return false
}

// block writes keys and values as an expected object in the style.
func (st style) block(keys []string, values []json.RawMessage) string {
	names := make([]string, len(keys))
	for i, k := range keys {
		b, _ := json.Marshal(k)
		names[i] = string(b)
	}
	if !st.multiline {
		parts := make([]string, len(keys))
		for i := range keys {
			parts[i] = names[i] + ": " + st.oneLine(values[i])
		}
		line := "{" + strings.Join(parts, ", ") + "}"
		if st.padded {
			line = "{ " + strings.Join(parts, ", ") + " }"
		}
		if len(line) <= 2*wrapWidth {
			return line
		}
		st.multiline, st.keyIndent = true, st.endIndent+st.unit
	}
	var b strings.Builder
	b.WriteString("{")
	for i := range keys {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n" + st.keyIndent + names[i] + ": " + st.value(values[i], len(st.keyIndent)+len(names[i])+2))
	}
	b.WriteString("\n" + st.endIndent + "}")
	return b.String()
}

// value writes one value at a column of the block's key lines.
func (st style) value(v json.RawMessage, col int) string {
	if st.pretty {
		var b bytes.Buffer
		if json.Indent(&b, v, st.keyIndent, st.unit) == nil {
			return b.String()
		}
		return string(v)
	}
	one := st.oneLine(v)
	if col+len(one) <= wrapWidth || (v[0] != '[' && v[0] != '{') {
		return one
	}
	// One element (or member) per line, each on one line.
	var elems []string
	r := gjson.ParseBytes(v)
	r.ForEach(func(k, e gjson.Result) bool {
		s := st.oneLine(json.RawMessage(e.Raw))
		if r.IsObject() {
			s = k.Raw + ": " + s
		}
		elems = append(elems, s)
		return true
	})
	if len(elems) < 2 {
		return one
	}
	open, end := "[", "]"
	if r.IsObject() {
		open, end = "{", "}"
	}
	inner := st.keyIndent + st.unit
	return open + "\n" + inner + strings.Join(elems, ",\n"+inner) + "\n" + st.keyIndent + end
}

// oneLine writes a compact value on one line with the file's spacing.
func (st style) oneLine(v json.RawMessage) string {
	if !st.spaced && !st.padded {
		return string(v)
	}
	var b strings.Builder
	in := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		b.WriteByte(c)
		switch {
		case in && c == '\\':
			i++
			b.WriteByte(v[i])
		case c == '"':
			in = !in
		case in:
		case st.spaced && (c == ':' || c == ','):
			b.WriteByte(' ')
		case st.padded && c == '{' && i+1 < len(v) && v[i+1] != '}':
			b.WriteByte(' ')
		}
		if !in && st.padded && i+1 < len(v) && v[i+1] == '}' && c != '{' {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// observe prints the observed expected blocks, or with -w writes them.
func observe(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("observe", stderr)
	sel := selectionFlags(fs, all.Registry(), "only cases whose `<desk-id>/<case-id>` matches this regular expression")
	write := fs.Bool("w", false, "rewrite the expected block of each selected case that observe would change, in the desk files named (never when CI is set)")
	interactive := fs.Bool("i", false, "with -w: ask before rewriting each block (y, n or q on standard input)")
	force := fs.Bool("force", false, "with -w: rewrite a desk file that is read-only or has other hard links (they keep the old text)")
	paths, err := parse(fs, args, stdout)
	if err != nil {
		return flagError(err)
	}
	if *interactive && !*write {
		fmt.Fprintf(stderr, "deskcheck: -i asks before each rewrite; it needs -w\n")
		return exitInvalid
	}
	if *force && !*write {
		fmt.Fprintf(stderr, "deskcheck: -force lets -w rewrite a read-only or hard-linked file; it needs -w\n")
		return exitInvalid
	}
	if *write {
		return observeWrite(sel, paths, *interactive, *force, stdout, stderr)
	}
	return sel.showSuite(paths, reports.ObserveEach(stdout, reports.Observe{Width: lineWidth(stdout)}), stderr)
}
