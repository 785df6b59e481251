package verifier

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLintLessons: a lesson with one case, and a lesson asking one host
// twice, are warnings located at the lesson key of the case they are
// about; a case may acknowledge them, and cases without the key are not
// looked at.
func TestLintLessons(t *testing.T) {
	in := readInput(t, "testdata/lessons/bad-lessons.json")
	desks, ds := LoadAll(testReg, []Input{in}, DefaultLimits)
	require.Len(t, desks, 1)
	assert.Equal(t, []string{
		`testdata/lessons/bad-lessons.json:6:31: warning: lesson "alone" has only this case: give the same request to another host under the same lesson, or drop the key (/cases/2/lesson) [lesson-one-case]`,
		named(`testdata/lessons/bad-lessons.json:8:33: warning: lesson "twice" asks host {host} twice: case "twice-a" asks it already (/cases/3); a lesson holds one case per host (/cases/4/lesson) [lesson-host-twice]`),
		`testdata/lessons/bad-lessons.json:10:37: acknowledged lesson-one-case: its other host has no model yet (/cases/6/lesson)`,
	}, diagStrings(ds))
	byID := map[string]string{}
	for _, c := range desks[0].Cases {
		byID[c.ID] = c.Lesson
	}
	assert.Equal(t, map[string]string{"pair-one": "pair", "pair-other": "pair", "alone": "alone", "twice-a": "twice", "twice-b": "twice",
		"twice-c": "twice", "meant-alone": "meant", "no-lesson": ""}, byID)
}

// TestLessonKeySchema: the lesson key takes an id, as case ids are
// written; anything else is invalid input located at the key's value.
func TestLessonKeySchema(t *testing.T) {
	in := readInput(t, "testdata/lessons/bad-lessons.json")
	tests := []struct {
		lesson string
		want   string // "" when the desk loads without error
	}{
		{`"deny-beats-allow"`, ""},
		{`"v1.2_x"`, ""},
		{`""`, "/cases/7/lesson"},
		{`"two words"`, "/cases/7/lesson"},
		{`"-leading-dash"`, "/cases/7/lesson"},
		{`5`, "/cases/7/lesson"},
		{`null`, "/cases/7/lesson"},
		{`["a"]`, "/cases/7/lesson"},
	}
	for _, tt := range tests {
		data := strings.Replace(string(in.Data), `{"id": "no-lesson",`, `{"id": "no-lesson", "lesson": `+tt.lesson+`,`, 1)
		require.NotEqual(t, string(in.Data), data)
		_, ds := Load(testReg, in.Path, []byte(data), DefaultLimits)
		var errs []string
		for _, d := range ds {
			if d.Severity == Error {
				errs = append(errs, d.String())
			}
		}
		if tt.want == "" {
			assert.Empty(t, errs, tt.lesson)
			continue
		}
		if assert.Len(t, errs, 1, tt.lesson) {
			assert.Contains(t, errs[0], "("+tt.want+")", tt.lesson)
		}
	}
}
