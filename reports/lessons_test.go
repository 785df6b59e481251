package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/deskcheck/deskcheck/verifier"
)

// lessonsDesk holds two lessons, each asked of two hosts, one case of
// which fails, and a case that names no lesson.
const lessonsDesk = "testdata/lessons-desk.json"

// TestLessonsGoldens: every format shows the lessons of a desk side by
// side: a row per case with where it ran, its id, its first asserted key
// as observed and its status.
func TestLessonsGoldens(t *testing.T) {
	r := stableReport(t, lessonsDesk)
	for _, f := range []struct {
		name string
		rep  Reporter
	}{{"txt", Text{}}, {"md", Markdown{}}, {"json", JSON{}}, {"html", HTML{}}} {
		t.Run(f.name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, f.rep.Write(&buf, r))
			golden(t, "lessons."+f.name, buf.Bytes())
		})
	}
}

// lessonsOfDesk reads the lessons desk as its author wrote it: its
// lessons in the order of each one's first case, each case with its host
// (the family of its scenario), the releases its hosts range selects,
// its first expected key and that key's expected value.
func lessonsOfDesk(t *testing.T) []Lesson {
	t.Helper()
	data, err := os.ReadFile(lessonsDesk)
	require.NoError(t, err)
	doc := gjson.ParseBytes(data)
	var out []Lesson
	at := map[string]int{}
	for _, c := range doc.Get("cases").Array() {
		name := c.Get("lesson").String()
		if name == "" {
			continue
		}
		_, fam, ok := testReg.Lookup(c.Get("scenario").String())
		require.True(t, ok)
		host := fam.Host
		expr := c.Get("hosts." + host.Name).String()
		if expr == "" {
			expr = doc.Get("hosts." + host.Name).String()
		}
		rels, err := host.SelectReleases(expr)
		require.NoError(t, err)
		require.Greater(t, len(rels), 2, "the desk's ranges select several releases")
		var key string
		var value json.RawMessage
		c.Get("expected").ForEach(func(k, v gjson.Result) bool {
			key, value = k.String(), json.RawMessage(v.Raw)
			return false
		})
		if _, seen := at[name]; !seen {
			at[name] = len(out)
			out = append(out, Lesson{Desk: doc.Get("id").String(), Name: name})
		}
		out[at[name]].Cases = append(out[at[name]].Cases, LessonCase{
			ID: c.Get("id").String(), Host: host.Name,
			On:      fmt.Sprintf("%s %s … %s (%d releases)", host.Name, rels[0].Version, rels[len(rels)-1].Version, len(rels)),
			Release: rels[len(rels)-1].Version, Key: key, Observed: value,
		})
	}
	require.Len(t, out, 2, "the desk holds two lessons")
	return out
}

// TestLessonsGrouped: the cases that share a lesson are grouped per desk,
// in the order of each lesson's first case; a case without the key is
// in none, and each row holds the first key asserted, observed, cut to
// the keys the expected block writes: what a passing case expects, and
// something else for the one that fails.
func TestLessonsGrouped(t *testing.T) {
	r := stableReport(t, lessonsDesk)
	want := lessonsOfDesk(t)
	require.Len(t, r.Lessons, len(want))
	failed := 0
	for i, l := range r.Lessons {
		require.Len(t, l.Cases, len(want[i].Cases), l.Name)
		for k, c := range l.Cases {
			w := want[i].Cases[k]
			switch c.Status {
			case verifier.Pass:
				assert.JSONEq(t, string(w.Observed), string(c.Observed), "%s: a passing case observed what it expects", c.ID)
			case verifier.Fail:
				failed++
				assert.NotEqual(t, compactOf(t, w.Observed), compactOf(t, c.Observed), "%s: a failing case observed something else", c.ID)
			}
			want[i].Cases[k].Observed, want[i].Cases[k].Status = c.Observed, c.Status
		}
	}
	assert.Equal(t, want, r.Lessons)
	assert.Equal(t, 1, failed, "one case of the desk fails")
}

// compactOf is raw JSON without its spaces.
func compactOf(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, json.Compact(&b, raw))
	return b.String()
}

// TestNoLessonsNoSection: a report none of whose cases names a lesson has
// no lessons section in any format (its goldens stay as they were).
func TestNoLessonsNoSection(t *testing.T) {
	r := stableReport(t, "../cases/boundary-desk.json")
	assert.Nil(t, r.Lessons)
	for name, out := range everyFormat(t, r, Text{}) {
		assert.NotContains(t, out, "Lessons across hosts", name)
		assert.NotContains(t, out, `"lessons"`, name)
		assert.NotContains(t, out, `"lesson"`, name)
	}
}

// TestLessonsReadBack: saved evidence reads back with its lessons, and
// every format renders from it what it rendered from the run.
func TestLessonsReadBack(t *testing.T) {
	r := stableReport(t, lessonsDesk)
	var buf bytes.Buffer
	require.NoError(t, JSON{}.Write(&buf, r))
	require.NoError(t, CheckJSON(buf.Bytes()))
	assert.Equal(t, int64(2), gjson.GetBytes(buf.Bytes(), "lessons.#").Int())
	data, err := os.ReadFile(lessonsDesk)
	require.NoError(t, err)
	without := 0
	for _, c := range gjson.GetBytes(data, "cases").Array() {
		got := gjson.GetBytes(buf.Bytes(), `cases.#(id=="`+c.Get("id").String()+`").lesson`)
		assert.Equal(t, c.Get("lesson").Exists(), got.Exists(), c.Get("id").String())
		assert.Equal(t, c.Get("lesson").String(), got.String(), c.Get("id").String())
		if !got.Exists() {
			without++
		}
	}
	assert.Positive(t, without, "a case without a lesson has no lesson key")
	back, err := ReadJSON(buf.Bytes())
	require.NoError(t, err)
	// The file is indented; its values are the run's.
	for _, l := range back.Lessons {
		for i, c := range l.Cases {
			var b bytes.Buffer
			require.NoError(t, json.Compact(&b, c.Observed))
			l.Cases[i].Observed = b.Bytes()
		}
	}
	assert.Equal(t, r.Lessons, back.Lessons)
	for _, rep := range []Reporter{Text{}, Markdown{}, HTML{Registry: testReg}, JSON{}} {
		var a, b bytes.Buffer
		require.NoError(t, rep.Write(&a, r))
		require.NoError(t, rep.Write(&b, back))
		assert.Equal(t, a.String(), b.String(), "%T", rep)
	}
}

// TestLessonCaseJSONMatchesEncodingJSON: a case's lesson key is written
// where encoding/json writes it.
func TestLessonCaseJSONMatchesEncodingJSON(t *testing.T) {
	r := stableReport(t, lessonsDesk)
	for _, c := range r.Cases {
		want, err := marshal(c, "")
		require.NoError(t, err)
		assert.Equal(t, string(want), string(c.appendJSON(nil)), c.ID)
	}
}

// TestLessonsStreamedAsBuilt: a streamed report keeps of a passing case
// not shown in full only its lesson row, and its lessons are the built
// report's, in every format.
func TestLessonsStreamedAsBuilt(t *testing.T) {
	data, err := os.ReadFile(lessonsDesk)
	require.NoError(t, err)
	var d map[string]any
	require.NoError(t, json.Unmarshal(data, &d))
	base := d["cases"].([]any)
	var all []any
	for i := 0; len(all) < PassingCards+len(base); i++ {
		for _, c := range base {
			x := map[string]any{}
			for k, v := range c.(map[string]any) {
				x[k] = v
			}
			x["id"] = fmt.Sprintf("%s-%d", x["id"], i)
			if l, ok := x["lesson"]; ok {
				x["lesson"] = fmt.Sprintf("%s-%d", l, i)
			}
			all = append(all, x)
		}
	}
	d["cases"] = all
	big, err := json.Marshal(d)
	require.NoError(t, err)
	in := []verifier.Input{{Path: "lessons-many.json", Data: big}}
	suite, ds, err := verifier.Verify(t.Context(), in, verifier.Options{Registry: testReg})
	require.NoError(t, err)
	require.False(t, ds.HasErrors())
	built := Build(suite, fixedOrigin)
	st := streamed(t, in, false)
	require.Len(t, built.Lessons, 2*len(all)/len(base))
	assert.Equal(t, built.Lessons, st.Lessons)
	b, s := everyFormat(t, built, Text{}), everyFormat(t, st, Text{})
	for name := range b {
		assert.Equal(t, b[name], s[name], name)
	}
	assert.Contains(t, b["text"], "lessons-desk/order-versus-priority-")
}

// TestLessonsCapped: the pages list at most lessonCasesShown cases of a
// lesson and start no lesson once they hold their rows, and count the
// rest; every format clips a long answer.
func TestLessonsCapped(t *testing.T) {
	var lessons []Lesson
	for i := 0; i < 40; i++ {
		l := Lesson{Desk: "d", Name: fmt.Sprintf("l%d", i)}
		for j := 0; j < lessonCasesShown+2; j++ {
			l.Cases = append(l.Cases, LessonCase{ID: fmt.Sprintf("c%d", j), Host: "h", Key: "k", Observed: json.RawMessage(`1`), Status: verifier.Pass})
		}
		lessons = append(lessons, l)
	}
	var md bytes.Buffer
	writeLessonsMarkdown(&printer{w: &md}, lessons)
	perLesson := lessonCasesShown + 1
	listed := (mdLessonRows + perLesson - 1) / perLesson
	assert.Contains(t, md.String(), fmt.Sprintf(">%d lessons more in report.json<", 40-listed))
	assert.Equal(t, listed, strings.Count(md.String(), ">2 cases more in report.json<"))
	shown, more := shownLessons(lessons, htmlLessonRows)
	assert.Len(t, shown, 28)
	assert.Equal(t, 12, more)
	assert.Len(t, shown[0].Rows, lessonCasesShown)
	assert.Equal(t, 2, shown[0].More)
	assert.Equal(t, lessonCasesShown+1, shown[0].Span)

	long := LessonCase{Key: "rule", Observed: json.RawMessage(`"` + strings.Repeat("x", 500) + `"`)}
	a := lessonAnswer(long)
	assert.Equal(t, lessonAnswerChars, len([]rune(a)))
	assert.True(t, strings.HasPrefix(a, `rule: "xxx`) && strings.HasSuffix(a, "…"), a)
}

// TestLessonAnswer: the answer is the first asserted key as observed; an
// object is cut to the keys the expected block writes, any other value is
// whole, and a key not observed says so.
func TestLessonAnswer(t *testing.T) {
	tests := []struct {
		observed any
		expected string
		want     string
	}{
		{map[string]any{"policy": "deny", "tier": "exec", "override": true}, `{"policy":"deny"}`, `{"policy":"deny"}`},
		{map[string]any{"tier": "exec"}, `{"tier":"exec","policy":"allow"}`, `{"tier":"exec"}`},
		{map[string]any{"a": 1.0}, `"x"`, `{"a":1}`},
		{"allow", `"deny"`, `"allow"`},
		{nil, `null`, `null`},
		{[]any{"a", "b"}, `["a"]`, `["a","b"]`},
	}
	for _, tt := range tests {
		got := cutTo(tt.observed, gjson.Parse(tt.expected))
		var buf bytes.Buffer
		require.NoError(t, json.NewEncoder(&buf).Encode(got))
		assert.JSONEq(t, tt.want, buf.String(), tt.expected)
	}
	assert.Equal(t, "answer: not observed", lessonAnswer(LessonCase{Key: "answer"}))
	assert.Equal(t, "(no expected key)", lessonAnswer(LessonCase{}))
	assert.Equal(t, `answer: "allow"`, lessonAnswer(LessonCase{Key: "answer", Observed: json.RawMessage(`"allow"`)}))
}

// TestLessonsHostile: any text in a lesson's names, ids, hosts and values
// leaves every format well formed.
func TestLessonsHostile(t *testing.T) {
	base := stableReport(t, lessonsDesk)
	for _, text := range []string{hostileText, "</details>\n\n# h", "]]>", "<!--", "\xff", "::error::x", "|"} {
		r := withText(base, text)
		value, err := json.Marshal(map[string]string{text: text})
		require.NoError(t, err)
		r.Lessons = nil
		for _, l := range base.Lessons {
			l.Desk, l.Name = text, text
			l.Cases = append([]LessonCase{}, l.Cases...)
			for i := range l.Cases {
				c := &l.Cases[i]
				c.ID, c.Host, c.On, c.Release, c.Key, c.Observed = text, text, text, text, text, value
			}
			r.Lessons = append(r.Lessons, l)
		}
		checkWellFormed(t, r, false)
	}
}

// TestExplainNamesTheLesson: explain names a case's lesson and the cases
// beside it, each with its host, answer and status; a case without a
// lesson gets no such line.
func TestExplainNamesTheLesson(t *testing.T) {
	r := stableReport(t, lessonsDesk)
	var buf bytes.Buffer
	require.NoError(t, Explain{}.Write(&buf, r))
	out := buf.String()
	lines := 0
	for _, l := range r.Lessons {
		for _, c := range l.Cases {
			var beside []string
			for _, x := range l.Cases {
				if x.ID != c.ID {
					answer, err := json.Marshal(json.RawMessage(x.Observed))
					require.NoError(t, err)
					beside = append(beside, fmt.Sprintf("%s on %s (%s: %s, %s)", x.ID, x.Host, x.Key, answer, strings.ToUpper(string(x.Status))))
				}
			}
			assert.Contains(t, out, "\nlesson:   "+l.Name+"; beside it: "+strings.Join(beside, "; ")+"\n")
			lines++
		}
	}
	assert.Equal(t, 4, lines, "the desk's four cases with a lesson")
	assert.Equal(t, lines, strings.Count(out, "\nlesson:   "), "one line per case with a lesson")
}
