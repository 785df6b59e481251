package reports

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

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
	files := deskFiles(r)
	doc := junitSuites{Name: "deskcheck", Tests: r.Summary.Cases + r.Summary.SourceOnly, Failures: r.Summary.Failed, Errors: r.Summary.Errored, Skipped: r.Summary.SourceOnly + r.Summary.NotApplicable, Time: junitTime}
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
	for _, c := range r.Cases {
		s := suite(c.Desk)
		tc := junitCase{Classname: junitClass(c.Desk), Name: oneLine(c.ID), File: oneLine(files[c.Desk]), Line: c.Line, Time: junitTime}
		s.Tests++
		switch c.Status {
		case verifier.Pass:
		case verifier.NotApplicable:
			s.Skipped++
			tc.Skipped = &junitMessage{Message: oneLine(NotApplicableOn(&c)), Body: oneLine(NotApplicableOn(&c))}
		case verifier.Fail:
			s.Failures++
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
			if f := FailedOn(&c); f != "" && len(c.Releases) > 1 {
				body = append([]string{oneLine(f), ""}, body...)
			}
			tc.Failure = &junitMessage{Message: "mismatched: " + strings.Join(fields, ", "), Body: strings.Join(body, "\n")}
		default:
			s.Errors++
			tc.Error = &junitMessage{Message: "could not run: " + oneLine(firstLine(c.Error)), Body: visible(c.Error, true)}
		}
		s.Cases = append(s.Cases, tc)
	}
	for _, cl := range r.SourceOnly {
		s := suite(cl.Desk)
		s.Tests++
		s.Skipped++
		s.Cases = append(s.Cases, junitCase{Classname: junitClass(cl.Desk), Name: oneLine(cl.ID), File: oneLine(files[cl.Desk]), Time: junitTime,
			Skipped: &junitMessage{Message: "source-only claim; not executed: " + oneLine(cl.NotExecuted), Body: visible(cl.Claim, true)}})
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
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
