package reports

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/deskcheck/deskcheck/verifier"
)

// JUnit renders JUnit XML: one testsuite per desk, one testcase per case,
// failures carrying the field diff and the trace, and source-only claims
// as skipped with their reason.
//
// A testcase's classname is the desk id with dots written as underscores
// (Jenkins reads the part after the last dot as the class and the rest as
// a package); file is the desk file as given and line the case's line in
// it, when the report located the case. time is 0: a case runs against an
// in-process model in microseconds, and a report is the same byte for byte
// from run to run.
//
// Every string is passed through visible first, so no character XML
// forbids (most C0 controls, U+FFFE, U+FFFF) reaches the document, in an
// attribute or in CDATA, and none that acts on a CI log either.
type JUnit struct{}

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
	Real     []rcSuite    `xml:",any"` // the real-code section's suites
	// r and files are the report and its desks' files the testcases
	// are made from.
	r     *Report
	files map[string]string
}

type junitSuite struct {
	Name       string           `xml:"name,attr"`
	Properties *junitProperties `xml:"properties,omitempty"`
	Tests      int              `xml:"tests,attr"`
	Failures   int              `xml:"failures,attr"`
	Errors     int              `xml:"errors,attr"`
	Skipped    int              `xml:"skipped,attr"`
	Time       string           `xml:"time,attr"`
	Timestamp  string           `xml:"timestamp,attr"`
	File       string           `xml:"file,attr,omitempty"`
	Cases      []junitCase      `xml:"testcase"`
	// refs are the testcases still to make, written after Cases: i ≥ 0
	// is the report's case i, -1-j its source-only claim j.
	refs []int
}

type junitProperties struct {
	List []junitProperty `xml:"property"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Classname string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Time      string        `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Error     *junitMessage `xml:"error,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Body    string `xml:",cdata"`
}

// junitTime is the time of every testcase and suite: see JUnit.
const junitTime = "0"

// junitClass is the classname of a desk's cases.
func junitClass(desk string) string {
	return strings.ReplaceAll(oneLine(desk), ".", "_")
}

// Write renders r as JUnit XML.
func (JUnit) Write(w io.Writer, r *Report) error {
	doc := junitDoc(r)
	return doc.write(w)
}

// junitDoc is the JUnit document of r, its testcases still to be made:
// each is made as it is written (write), so that the document of a run
// of many failures, each with its trace, is never held whole.
func junitDoc(r *Report) *junitSuites {
	files := deskFiles(r)
	doc := junitSuites{Name: "deskcheck", Tests: r.Summary.Cases + r.Summary.SourceOnly, Failures: r.Summary.Failed, Errors: r.Summary.Errored, Skipped: r.Summary.SourceOnly + r.Summary.NotApplicable, Time: junitTime,
		r: r, files: files}
	index := map[string]int{}
	suite := func(desk string) *junitSuite {
		i, ok := index[desk]
		if !ok {
			i = len(doc.Suites)
			index[desk] = i
			doc.Suites = append(doc.Suites, junitSuite{Name: oneLine(desk), Time: junitTime, Timestamp: oneLine(r.GeneratedAt), File: oneLine(files[desk])})
		}
		return &doc.Suites[i]
	}
	for i := range r.Cases {
		c := &r.Cases[i]
		s := suite(c.Desk)
		s.Tests++
		switch c.Status {
		case verifier.Pass:
		case verifier.NotApplicable:
			s.Skipped++
		case verifier.Fail:
			s.Failures++
		default:
			s.Errors++
		}
		s.refs = append(s.refs, i)
	}
	for j := range r.SourceOnly {
		s := suite(r.SourceOnly[j].Desk)
		s.Tests++
		s.Skipped++
		s.refs = append(s.refs, -1-j)
	}
	if r.Dimensions != nil {
		for _, d := range r.Dimensions.Desks {
			if i, ok := index[d.Desk]; ok {
				doc.Suites[i].Properties = &junitProperties{List: dimensionProperties(d.Dimensions)}
			}
		}
	}
	// Each suite names the host releases its cases were judged on.
	judged := map[string][]int{}
	for i := range r.Cases {
		judged[r.Cases[i].Desk] = append(judged[r.Cases[i].Desk], i)
	}
	for desk, at := range judged {
		i := index[desk]
		var props []junitProperty
		for _, x := range judgedRowsOf(len(at), func(j int) *Case { return &r.Cases[at[j]] }) {
			props = append(props, junitProperty{Name: "judged on " + oneLine(x.On), Value: fmt.Sprintf("%d cases", x.Cases)})
		}
		if len(props) == 0 {
			continue
		}
		if doc.Suites[i].Properties == nil {
			doc.Suites[i].Properties = &junitProperties{}
		}
		doc.Suites[i].Properties.List = append(doc.Suites[i].Properties.List, props...)
	}
	doc.Real = realCodeSuites(r.RealCode)
	return &doc
}

// testcase makes the testcase ref names (see junitSuite.refs).
func (doc *junitSuites) testcase(ref int) junitCase {
	r, files := doc.r, doc.files
	if ref < 0 {
		cl := &r.SourceOnly[-1-ref]
		return junitCase{Classname: junitClass(cl.Desk), Name: oneLine(cl.ID), File: oneLine(files[cl.Desk]), Time: junitTime,
			Skipped: &junitMessage{Message: "source-only claim; not executed: " + oneLine(cl.NotExecuted), Body: visible(cl.Claim, true)}}
	}
	c := &r.Cases[ref]
	tc := junitCase{Classname: junitClass(c.Desk), Name: oneLine(c.ID), File: oneLine(files[c.Desk]), Line: c.Line, Time: junitTime}
	switch c.Status {
	case verifier.Pass:
	case verifier.NotApplicable:
		tc.Skipped = &junitMessage{Message: oneLine(NotApplicableOn(c)), Body: oneLine(NotApplicableOn(c))}
	case verifier.Fail:
		w := c.whole()
		var fields, body []string
		for _, m := range w.Mismatches {
			fields = append(fields, oneLine(m.Field))
			body = append(body, mismatchText(m, "  "))
		}
		body = append(body, "", "trace:")
		for _, e := range w.Trace {
			body = append(body, "  "+seqLabel(c.Unit, e)+strings.ReplaceAll(visible(e.Text, true), "\n", "\n    "))
		}
		if f := FailedOn(c); f != "" && len(c.Releases) > 1 {
			body = append([]string{oneLine(f), ""}, body...)
		}
		tc.Failure = &junitMessage{Message: "mismatched: " + strings.Join(fields, ", "), Body: strings.Join(body, "\n")}
	default:
		tc.Error = &junitMessage{Message: "could not run: " + oneLine(firstLine(c.Error)), Body: visible(c.Error, true)}
	}
	return tc
}

// write writes the document as encoding/xml's encoder, indenting by two
// spaces, writes it (TestJUnitIsTheEncoders holds it to the encoder): a
// suite of 100,000 cases is that many testcase elements, which the
// encoder reached by reflection field by field. The real-code section's
// suites, a few, still go through the encoder.
func (doc *junitSuites) write(w io.Writer) error {
	b := make([]byte, 0, 40<<10)
	b = append(b, xml.Header...)
	b = append(b, "<testsuites"...)
	b = appendTally(b, doc.Name, doc.Tests, doc.Failures, doc.Errors, doc.Skipped, doc.Time)
	b = append(b, '>')
	// What is made goes out every 32 KiB or so, each testcase made as it
	// is written: a run can hold thousands of failures, each with its
	// trace.
	flush := func() error {
		if len(b) < 32<<10 {
			return nil
		}
		_, err := w.Write(b)
		b = b[:0]
		return err
	}
	for i := range doc.Suites {
		s := &doc.Suites[i]
		b = s.appendStart(b)
		for j := range s.Cases {
			b = s.Cases[j].append(b)
			if err := flush(); err != nil {
				return err
			}
		}
		for _, ref := range s.refs {
			tc := doc.testcase(ref)
			b = tc.append(b)
			if err := flush(); err != nil {
				return err
			}
		}
		b = s.appendEnd(b)
	}
	for _, rs := range doc.Real {
		b = append(b, '\n')
		if _, err := w.Write(b); err != nil {
			return err
		}
		b = b[:0]
		enc := xml.NewEncoder(w)
		enc.Indent("  ", "  ")
		if err := enc.Encode(rs); err != nil {
			return err
		}
	}
	if len(doc.Suites)+len(doc.Real) > 0 {
		b = append(b, '\n')
	}
	b = append(b, "</testsuites>\n"...)
	_, err := w.Write(b)
	return err
}

// appendStart appends the suite's start tag, at depth one, and its
// properties.
func (s *junitSuite) appendStart(b []byte) []byte {
	b = append(b, "\n  <testsuite"...)
	b = appendTally(b, s.Name, s.Tests, s.Failures, s.Errors, s.Skipped, s.Time)
	b = xmlAttr(b, "timestamp", s.Timestamp)
	if s.File != "" {
		b = xmlAttr(b, "file", s.File)
	}
	b = append(b, '>')
	if p := s.Properties; p != nil {
		b = append(b, "\n    <properties>"...)
		for _, x := range p.List {
			b = append(b, "\n      <property"...)
			b = xmlAttr(b, "name", x.Name)
			b = xmlAttr(b, "value", x.Value)
			b = append(b, "></property>"...)
		}
		if len(p.List) > 0 {
			b = append(b, "\n    "...)
		}
		b = append(b, "</properties>"...)
	}
	return b
}

// appendEnd appends the suite's end tag: on a line of its own after its
// children, as the encoder indents it.
func (s *junitSuite) appendEnd(b []byte) []byte {
	if s.Properties == nil && len(s.Cases)+len(s.refs) == 0 {
		return append(b, "</testsuite>"...)
	}
	return append(b, "\n  </testsuite>"...)
}

// append appends the testcase at depth two.
func (c *junitCase) append(b []byte) []byte {
	b = append(b, "\n    <testcase"...)
	b = xmlAttr(b, "classname", c.Classname)
	b = xmlAttr(b, "name", c.Name)
	if c.File != "" {
		b = xmlAttr(b, "file", c.File)
	}
	if c.Line != 0 {
		b = xmlIntAttr(b, "line", c.Line)
	}
	b = xmlAttr(b, "time", c.Time)
	b = append(b, '>')
	children := false
	for _, m := range [...]struct {
		name string
		m    *junitMessage
	}{{"failure", c.Failure}, {"error", c.Error}, {"skipped", c.Skipped}} {
		if m.m == nil {
			continue
		}
		children = true
		b = append(b, "\n      <"...)
		b = append(b, m.name...)
		b = xmlAttr(b, "message", m.m.Message)
		b = append(b, '>')
		b = appendCDATA(b, m.m.Body)
		b = append(append(append(b, "</"...), m.name...), '>')
	}
	if children {
		b = append(b, "\n    "...)
	}
	return append(b, "</testcase>"...)
}

// appendTally appends the attributes a testsuites and a testsuite element
// share, in the order the encoder writes them.
func appendTally(b []byte, name string, tests, failures, errors, skipped int, time string) []byte {
	b = xmlAttr(b, "name", name)
	b = xmlIntAttr(b, "tests", tests)
	b = xmlIntAttr(b, "failures", failures)
	b = xmlIntAttr(b, "errors", errors)
	b = xmlIntAttr(b, "skipped", skipped)
	return xmlAttr(b, "time", time)
}

// xmlAttr appends ` name="value"`, the value escaped as encoding/xml
// escapes an attribute's.
func xmlAttr(b []byte, name, value string) []byte {
	b = append(append(append(b, ' '), name...), `="`...)
	b = appendXMLText(b, value)
	return append(b, '"')
}

func xmlIntAttr(b []byte, name string, n int) []byte {
	b = append(append(append(b, ' '), name...), `="`...)
	b = strconv.AppendInt(b, int64(n), 10)
	return append(b, '"')
}

// appendXMLText appends s escaped as xml.EscapeText escapes it: the five
// markup characters, tab, line feed and carriage return as references,
// and a character XML does not allow (or a byte that is not UTF-8) as
// U+FFFD.
func appendXMLText(b []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, width := utf8.DecodeRuneInString(s[i:])
			if (r == utf8.RuneError && width == 1) || !xmlChar(r) {
				b = append(b, s[last:i]...)
				b = append(b, "\uFFFD"...)
				i += width
				last = i
				continue
			}
			i += width
			continue
		}
		var esc string
		switch c {
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '\t':
			esc = "&#x9;"
		case '\n':
			esc = "&#xA;"
		case '\r':
			esc = "&#xD;"
		default:
			if c < 0x20 {
				esc = "\uFFFD"
			}
		}
		if esc != "" {
			b = append(b, s[last:i]...)
			b = append(b, esc...)
			last = i + 1
		}
		i++
	}
	return append(b, s[last:]...)
}

// xmlChar reports whether XML allows the character r (at or past U+0080).
func xmlChar(r rune) bool {
	return r <= 0xD7FF || (r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF)
}

// appendCDATA appends s as encoding/xml writes a cdata field: nothing
// when empty, else one section, split where s holds its end marker.
func appendCDATA(b []byte, s string) []byte {
	if s == "" {
		return b
	}
	b = append(b, "<![CDATA["...)
	for {
		before, after, found := strings.Cut(s, "]]>")
		if !found {
			break
		}
		b = append(b, before...)
		b = append(b, "]]]]><![CDATA[>"...)
		s = after
	}
	b = append(b, s...)
	return append(b, "]]>"...)
}
