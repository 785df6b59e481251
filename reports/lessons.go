package reports

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/internal/jsonx"
	"github.com/deskcheck/deskcheck/verifier"
)

// Lesson is one lesson a desk asks of several hosts: the cases of the desk
// that share a lesson key, shown side by side so that a reader sees each
// host's answer to the same request. The section "Lessons across hosts"
// of every format lists them; it is absent when no case names a lesson.
type Lesson struct {
	Desk  string       `json:"desk"`
	Name  string       `json:"lesson"`
	Cases []LessonCase `json:"cases"`
}

// LessonCase is one case of a lesson: the host it ran on and its answer
// there.
type LessonCase struct {
	ID string `json:"id"`
	// Host is the host family of the case's scenario.
	Host string `json:"host"`
	// On names the releases the case was judged on ("omp 17.2.15 …
	// 18.3.4 (10 releases)"); "" for a host without releases.
	On string `json:"on,omitempty"`
	// Release is the release whose run Observed comes from.
	Release string `json:"release,omitempty"`
	// Key is the first key the case's expected block asserts: the author
	// writes the key that answers the lesson first.
	Key string `json:"key,omitempty"`
	// Observed is Key's observed value, cut to the keys the expected
	// block writes when both are objects; nil when nothing was observed.
	Observed json.RawMessage `json:"observed,omitempty"`
	Status   verifier.Status `json:"status"`
}

// lessonCase is the lesson row of a case that names a lesson (nil for
// one that names none), made while its evidence is whole: a streamed
// report keeps only this of a passing case's observations.
func lessonCase(res *verifier.Result, c *Case) *LessonCase {
	if c.Lesson == "" {
		return nil
	}
	l := &LessonCase{ID: c.ID, On: JudgedOn(c), Release: c.Release, Status: c.Status}
	if _, fam := res.Case.Spec(); fam != nil {
		l.Host = fam.Host.Name
	}
	gjson.ParseBytes(c.Expected).ForEach(func(k, v gjson.Result) bool {
		l.Key = k.String()
		if obs, ok := c.Observed[l.Key]; ok {
			l.Observed = jsonx.Append(nil, cutTo(obs, v))
		}
		return false
	})
	return l
}

// cutTo keeps of an observed object the keys the expected object writes;
// any other value is kept whole.
func cutTo(observed any, expected gjson.Result) any {
	m, ok := observed.(map[string]any)
	if !ok || !expected.IsObject() {
		return observed
	}
	out := map[string]any{}
	expected.ForEach(func(k, _ gjson.Result) bool {
		if x, ok := m[k.String()]; ok {
			out[k.String()] = x
		}
		return true
	})
	return out
}

// lessonsOf groups the lesson rows of cases by desk and lesson, in the
// order of each lesson's first case.
func lessonsOf(cases []Case) []Lesson {
	var out []Lesson
	index := map[[2]string]int{}
	for i := range cases {
		c := &cases[i]
		if c.lesson == nil {
			continue
		}
		k := [2]string{c.Desk, c.Lesson}
		j, ok := index[k]
		if !ok {
			j = len(out)
			index[k] = j
			out = append(out, Lesson{Desk: c.Desk, Name: c.Lesson})
		}
		out[j].Cases = append(out[j].Cases, *c.lesson)
	}
	return out
}

// Bounds of the lessons section. Every format clips an answer to
// lessonAnswerChars (report.json and the case's own evidence hold it
// whole); the pages list at most lessonCasesShown cases of a lesson and
// start no lesson once they hold their rows (mdLessonRows, htmlLessonRows).
const (
	lessonAnswerChars = 120
	lessonCasesShown  = 10
	mdLessonRows      = 100
	htmlLessonRows    = 300
)

// lessonRow is one case of a lesson as it is shown.
type lessonRow struct {
	Host, ID, Answer, Status string
	Pass                     bool
}

func newLessonRow(c LessonCase) lessonRow {
	return lessonRow{Host: lessonHost(c), ID: c.ID, Answer: lessonAnswer(c), Status: lessonStatus(c.Status), Pass: c.Status == verifier.Pass}
}

// lessonHost is where a lesson case ran: its releases, else its host.
func lessonHost(c LessonCase) string {
	if c.On != "" {
		return c.On
	}
	return c.Host
}

// lessonAnswer is "key: value" as observed, clipped to lessonAnswerChars,
// or a word when nothing was observed.
func lessonAnswer(c LessonCase) string {
	switch {
	case c.Key == "":
		return "(no expected key)"
	case len(c.Observed) == 0:
		return c.Key + ": not observed"
	}
	answer, _ := shorten(oneLine(c.Key+": "+string(compact(string(c.Observed)))), lessonAnswerChars)
	return answer
}

// lessonStatus is the status word of a lesson's row.
func lessonStatus(s verifier.Status) string {
	switch s {
	case verifier.Pass:
		return "PASS"
	case verifier.Fail:
		return "FAIL"
	case verifier.Errored:
		return "ERROR"
	case verifier.NotApplicable:
		return "N/A"
	}
	return oneLine(strings.ToUpper(string(s)))
}

// lessonLine names a case's lesson and the cases of the report beside it,
// each with its host and answer: what explain says of the lesson.
func lessonLine(lessons []Lesson, c *Case) string {
	line := oneLine(c.Lesson)
	for _, l := range lessons {
		if l.Desk != c.Desk || l.Name != c.Lesson {
			continue
		}
		var beside []string
		for _, x := range l.Cases {
			if x.ID != c.ID {
				row := newLessonRow(x)
				beside = append(beside, oneLine(x.ID)+" on "+oneLine(x.Host)+" ("+row.Answer+", "+row.Status+")")
			}
		}
		if len(beside) > 0 {
			line += "; beside it: " + strings.Join(beside, "; ")
		}
	}
	return line
}

// writeLessonsText prints each lesson with a line per case: where it ran,
// its id, the answer observed and its status, the columns aligned across
// the section.
func writeLessonsText(p *printer, lessons []Lesson) {
	if len(lessons) == 0 {
		return
	}
	var hostW, idW, answerW int
	for _, l := range lessons {
		for _, c := range l.Cases {
			r := newLessonRow(c)
			hostW = max(hostW, utf8.RuneCountInString(oneLine(r.Host)))
			idW = max(idW, utf8.RuneCountInString(oneLine(r.ID)))
			answerW = max(answerW, utf8.RuneCountInString(r.Answer))
		}
	}
	p.printf("\nLessons across hosts: the same request on each host\n")
	for _, l := range lessons {
		p.printf("  %s/%s\n", oneLine(l.Desk), oneLine(l.Name))
		for _, c := range l.Cases {
			r := newLessonRow(c)
			p.printf("    %s  %s  %s  %s\n", pad(oneLine(r.Host), hostW), pad(oneLine(r.ID), idW), pad(r.Answer, answerW), r.Status)
		}
	}
}

// shownLesson is one lesson a page lists.
type shownLesson struct {
	Desk, Name string
	Rows       []lessonRow
	// More counts the cases left out; Span is the rows the lesson's name
	// spans (its cases, and the line counting the rest).
	More, Span int
}

// shownLessons are the lessons a page lists: whole lessons while fewer
// than rows rows are listed, at most lessonCasesShown cases each; and how
// many lessons are left out.
func shownLessons(lessons []Lesson, rows int) ([]shownLesson, int) {
	var out []shownLesson
	listed := 0
	for i, l := range lessons {
		if listed >= rows {
			return out, len(lessons) - i
		}
		x := shownLesson{Desk: l.Desk, Name: l.Name}
		for j, c := range l.Cases {
			if j == lessonCasesShown {
				x.More = len(l.Cases) - j
				break
			}
			x.Rows = append(x.Rows, newLessonRow(c))
		}
		x.Span = len(x.Rows)
		if x.More > 0 {
			x.Span++
		}
		listed += x.Span
		out = append(out, x)
	}
	return out, 0
}

// writeLessonsMarkdown prints the lessons in one table, at most
// mdLessonRows rows of them.
func writeLessonsMarkdown(p *printer, lessons []Lesson) {
	if len(lessons) == 0 {
		return
	}
	shown, more := shownLessons(lessons, mdLessonRows)
	p.printf("### Lessons across hosts\n\n<table>\n<tr><th>lesson</th><th>host</th><th>case</th><th>observed</th><th>result</th></tr>\n")
	for _, l := range shown {
		for j, r := range l.Rows {
			name := ""
			if j == 0 {
				name = mdCell(l.Desk + "/" + l.Name)
			}
			p.printf("<tr><td>%s</td><td>%s</td><td><code>%s</code></td><td><code>%s</code></td><td>%s</td></tr>\n", name, mdCell(r.Host), mdCell(r.ID), mdCell(r.Answer), mdCell(r.Status))
		}
		if l.More > 0 {
			p.printf("<tr><td></td><td colspan=\"4\">%s more in report.json</td></tr>\n", plural(l.More, "case", "cases"))
		}
	}
	if more > 0 {
		p.printf("<tr><td colspan=\"5\">%s more in report.json</td></tr>\n", plural(more, "lesson", "lessons"))
	}
	p.printf("</table>\n\n")
}
