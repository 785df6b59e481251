package verifier

import (
	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// The warnings about lesson keys (see lintLessons).
const (
	lessonOneCase   = "lesson-one-case"
	lessonHostTwice = "lesson-host-twice"
)

// lintLessons checks the lesson keys of a desk: a lesson is one request
// asked of different hosts, so it needs at least two cases, and no two of
// them may run on the same host family. Each warning is located at the
// lesson key of the case it is about (the lone case, or the later of two
// on one host), so that case may acknowledge it.
func lintLessons(d *Desk) Diagnostics {
	type lesson struct {
		cases []*Case
		hosts map[string]*Case // host family → its first case
	}
	var order []string
	lessons := map[string]*lesson{}
	var ds Diagnostics
	for _, c := range d.Cases {
		if c.Lesson == "" {
			continue
		}
		l := lessons[c.Lesson]
		if l == nil {
			l = &lesson{hosts: map[string]*Case{}}
			lessons[c.Lesson] = l
			order = append(order, c.Lesson)
		}
		l.cases = append(l.cases, c)
		_, fam := c.Spec()
		if fam == nil {
			continue
		}
		if first, twice := l.hosts[fam.Host.Name]; twice {
			ds = append(ds, d.warn(lessonHostTwice, c.Pointer+"/lesson", false, "lesson %s asks host %s twice: case %s asks it already (%s); a lesson holds one case per host",
				jsontext.Quote(c.Lesson), fam.Host.Name, jsontext.Quote(first.ID), first.Pointer))
			continue
		}
		l.hosts[fam.Host.Name] = c
	}
	for _, name := range order {
		if l := lessons[name]; len(l.cases) == 1 {
			ds = append(ds, d.warn(lessonOneCase, l.cases[0].Pointer+"/lesson", false, "lesson %s has only this case: give the same request to another host under the same lesson, or drop the key",
				jsontext.Quote(name)))
		}
	}
	return ds
}
