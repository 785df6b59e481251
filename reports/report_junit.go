package reports

import (
	"encoding/xml"
	"io"
	"strings"

	"github.com/deskcheck/deskcheck/verifier"
)

// JUnit renders JUnit XML: one testsuite per desk, one testcase per case
// (classname the desk file, name the case id), failures carrying the field
// diff, and source-only claims as skipped with their reason.
type JUnit struct{}

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string           `xml:"name,attr"`
	Properties *junitProperties `xml:"properties,omitempty"`
	Tests      int              `xml:"tests,attr"`
	Failures   int              `xml:"failures,attr"`
	Errors     int              `xml:"errors,attr"`
	Skipped    int              `xml:"skipped,attr"`
	Timestamp  string           `xml:"timestamp,attr"`
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
	Failure   *junitMessage `xml:"failure,omitempty"`
	Error     *junitMessage `xml:"error,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Body    string `xml:",cdata"`
}

// Write renders r as JUnit XML.
func (JUnit) Write(w io.Writer, r *Report) error {
	files := map[string]string{}
	for _, f := range r.Provenance.Files {
		files[f.Desk] = f.Path
	}
	doc := junitSuites{Name: "deskcheck", Tests: r.Summary.Cases + r.Summary.SourceOnly, Failures: r.Summary.Failed, Errors: r.Summary.Errored, Skipped: r.Summary.SourceOnly}
	index := map[string]int{}
	suite := func(desk string) *junitSuite {
		i, ok := index[desk]
		if !ok {
			i = len(doc.Suites)
			index[desk] = i
			doc.Suites = append(doc.Suites, junitSuite{Name: desk, Timestamp: r.GeneratedAt})
		}
		return &doc.Suites[i]
	}
	for _, c := range r.Cases {
		s := suite(c.Desk)
		tc := junitCase{Classname: files[c.Desk], Name: c.ID}
		s.Tests++
		switch c.Status {
		case verifier.Fail:
			s.Failures++
			var fields, body []string
			for _, m := range c.Mismatches {
				fields = append(fields, m.Field)
				body = append(body, mismatchText(m, "  "))
			}
			body = append(body, "", "trace:")
			for _, e := range c.Trace {
				body = append(body, "  "+seqLabel(c.Unit, e)+e.Text)
			}
			tc.Failure = &junitMessage{Message: "mismatched: " + strings.Join(fields, ", "), Body: strings.Join(body, "\n")}
		case verifier.Errored:
			s.Errors++
			tc.Error = &junitMessage{Message: "could not run: " + firstLine(c.Error), Body: c.Error}
		}
		s.Cases = append(s.Cases, tc)
	}
	for _, cl := range r.SourceOnly {
		s := suite(cl.Desk)
		s.Tests++
		s.Skipped++
		s.Cases = append(s.Cases, junitCase{Classname: files[cl.Desk], Name: cl.ID, Skipped: &junitMessage{Message: "source-only claim; not executed: " + cl.NotExecuted, Body: cl.Claim}})
	}
	if r.Dimensions != nil {
		for _, d := range r.Dimensions.Desks {
			if i, ok := index[d.Desk]; ok {
				doc.Suites[i].Properties = &junitProperties{List: dimensionProperties(d.Dimensions)}
			}
		}
	}
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
