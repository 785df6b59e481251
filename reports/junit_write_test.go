package reports

import (
	"bytes"
	"encoding/xml"
	"io"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// encoderJUnit writes doc as encoding/xml's encoder does: the oracle of
// the hand-written document.
func encoderJUnit(t *testing.T, doc *junitSuites) string {
	t.Helper()
	var buf bytes.Buffer
	buf.WriteString(xml.Header)
	enc := xml.NewEncoder(&buf)
	enc.Indent("", "  ")
	require.NoError(t, enc.Encode(doc))
	buf.WriteString("\n")
	return buf.String()
}

// made is the document with every testcase made: what write writes, as
// the encoder is given it.
func (doc *junitSuites) made() *junitSuites {
	out := *doc
	out.Suites = make([]junitSuite, len(doc.Suites))
	for i, s := range doc.Suites {
		for _, ref := range s.refs {
			s.Cases = append(s.Cases, doc.testcase(ref))
		}
		s.refs = nil
		out.Suites[i] = s
	}
	return &out
}

func handJUnit(t *testing.T, doc *junitSuites) string {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, doc.write(&buf))
	return buf.String()
}

// junitHostile are strings the JUnit document's text and attributes are
// held to: XML's markup characters, the controls XML refuses, bytes that
// are not UTF-8, the characters at the edges of XML's ranges and CDATA's
// end marker, alone and repeated.
var junitHostile = []string{
	"", "plain", `a"b'c&d<e>f`, "\t\n\r", "\x00\x01\x08\x0b\x0c\x1f", "\x7f", "\xff\xfe", "\xed\xa0\x80",
	"\uFFFD", "\uFFFE", "\uFFFF", "\U00010000", "\U0010FFFF", "\uD7FF\uE000", "]]>", "]]]>>", "a]]>b]]>c]]>",
	"]]", "<![CDATA[x]]>", "é 漢 🙂", "line one\nline two", strings.Repeat("&<", 300),
}

// TestJUnitIsTheEncoders: the JUnit document is written byte for byte as
// encoding/xml's encoder writes it, for every bundled desk's report, the
// real-code section, documents without suites or with empty ones, and
// documents of hostile strings in every field.
func TestJUnitIsTheEncoders(t *testing.T) {
	check := func(name string, doc *junitSuites) {
		t.Helper()
		assert.Equal(t, encoderJUnit(t, doc.made()), handJUnit(t, doc), name)
	}
	desks, err := filepath.Glob("../cases/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, desks)
	check("the bundled desks", junitDoc(stableReport(t, desks...)))
	check("a failing desk", junitDoc(stableReport(t, mutatedDesk(t))))
	check("the real-code section", junitDoc(realCodeReport(t)))
	check("nothing", &junitSuites{})
	check("an empty suite", &junitSuites{Suites: []junitSuite{{Name: "s"}}})
	check("empty properties", &junitSuites{Suites: []junitSuite{{Name: "s", Properties: &junitProperties{}}}})
	check("an empty message", &junitSuites{Suites: []junitSuite{{Name: "s", Cases: []junitCase{{Failure: &junitMessage{}}}}}})

	rng := rand.New(rand.NewPCG(3, 5))
	pick := func() string {
		s := junitHostile[rng.IntN(len(junitHostile))]
		if rng.IntN(3) == 0 {
			s += junitHostile[rng.IntN(len(junitHostile))]
		}
		return s
	}
	message := func() *junitMessage {
		if rng.IntN(3) > 0 {
			return nil
		}
		return &junitMessage{Message: pick(), Body: pick()}
	}
	for i := range 300 {
		doc := &junitSuites{Name: pick(), Tests: rng.IntN(5) - 1, Failures: rng.IntN(3), Time: pick()}
		for range rng.IntN(4) {
			s := junitSuite{Name: pick(), Tests: rng.IntN(9), Time: pick(), Timestamp: pick(), File: pick()}
			if rng.IntN(2) == 0 {
				s.Properties = &junitProperties{}
				for range rng.IntN(3) {
					s.Properties.List = append(s.Properties.List, junitProperty{Name: pick(), Value: pick()})
				}
			}
			for range rng.IntN(5) {
				s.Cases = append(s.Cases, junitCase{Classname: pick(), Name: pick(), File: pick(), Line: rng.IntN(3) * 7,
					Time: pick(), Failure: message(), Error: message(), Skipped: message()})
			}
			doc.Suites = append(doc.Suites, s)
		}
		if i%10 == 0 {
			doc.Real = realCodeSuites(realCodeFixture(t))
		}
		check("generated "+strings.Repeat("#", i%3), doc)
	}
}

// A JUnit document is written as the writer takes it: a failing writer's
// error is returned.
func TestJUnitWriteReturnsTheWritersError(t *testing.T) {
	doc := junitDoc(stableReport(t, mutatedDesk(t)))
	for _, n := range []int{0, 10, 1000} {
		err := doc.write(&failAfter{n: n})
		assert.ErrorIs(t, err, errWriteFailed, "failing after %d bytes", n)
	}
}

type failAfter struct{ n int }

var errWriteFailed = io.ErrShortWrite

func (w *failAfter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, errWriteFailed
	}
	w.n -= len(p)
	return len(p), nil
}

// writeSizes records the size of every write.
type writeSizes struct{ sizes []int }

func (w *writeSizes) Write(p []byte) (int, error) {
	w.sizes = append(w.sizes, len(p))
	return len(p), nil
}

// The document goes out as it is made: each write is at most about 32
// KiB and one testcase, and a report's testcases are made one at a time
// as they are written, so that a run of thousands of failures, each with
// its trace, is never held whole.
func TestJUnitWritesAsItGoes(t *testing.T) {
	body := strings.Repeat("trace line ]]> & more\n", 50)
	doc := &junitSuites{Name: "deskcheck", Suites: []junitSuite{{Name: "one desk"}}}
	for i := range 10000 {
		doc.Suites[0].Cases = append(doc.Suites[0].Cases, junitCase{Classname: "d", Name: strings.Repeat("n", i%50), Failure: &junitMessage{Message: "m", Body: body}})
	}
	var w writeSizes
	require.NoError(t, doc.write(&w))
	total := 0
	for _, n := range w.sizes {
		total += n
		assert.LessOrEqual(t, n, 32<<10+2*len(body)+200)
	}
	assert.Greater(t, total, 10000*len(body))
	assert.Greater(t, len(w.sizes), 300, "written in parts")
	assert.Equal(t, encoderJUnit(t, doc), handJUnit(t, doc))

	r := stableReport(t, mutatedDesk(t))
	made := junitDoc(r)
	require.NotEmpty(t, made.Suites)
	for _, s := range made.Suites {
		assert.Empty(t, s.Cases, "no testcase is made before it is written")
		assert.Equal(t, s.Tests, len(s.refs))
	}
}
