package reports

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// ReadJSONLean reads saved evidence as ReadJSON does, with the same
// checks and errors, into a report that every format writes as it would
// write ReadJSON's, but which holds its cases as a streamed report does
// (Stream): one case is decoded at a time, its line of report.json goes
// to a spill, and what grows with its run is set aside in a hold, so that
// the memory taken is that of the file and one case, not of every value
// the file decodes into. Without withJSON no line is made, and the report
// cannot be written as JSON. Close lets the spill and the hold go.
func ReadJSONLean(data []byte, withJSON bool) (*Report, error) {
	if err := CheckJSON(data); err != nil {
		return nil, err
	}
	var head struct {
		plainReport
		Cases skipped `json:"cases"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, err
	}
	r := Report(head.plainReport)
	sp := &spill{omitted: true}
	if withJSON {
		sp = newSpill()
	}
	st := newStream(Origin{}, false, sp)
	ok := false
	defer func() {
		if !ok {
			st.Close()
		}
	}()
	start, end, found := memberSpan(data, "cases")
	if !found || start >= end || data[start] != '[' {
		return nil, errors.New("not deskcheck evidence: no list of cases")
	}
	seen := consistency{first: map[string]int{}}
	var line []byte
	n := 0
	for i := jsontext.SkipSpace(data, start+1); i < end && data[i] != ']'; n++ {
		e := valueEnd(data, i)
		var c Case
		if err := json.Unmarshal(data[i:e], &c); err != nil {
			return nil, err
		}
		suggestObserved(&c)
		if err := seen.check(n, &c); err != nil {
			return nil, err
		}
		if withJSON {
			if cap(line) < e-i {
				line = make([]byte, 0, e-i+(e-i)/16) // about as long as it was
			}
			var idAt int
			line, idAt = lineOf(&c, line[:0])
			if err := st.spill.add(line, idAt); err != nil {
				return nil, err
			}
		}
		if err := st.addLean(&c); err != nil {
			return nil, err
		}
		if cap(line) > 4*lineBytes {
			line = nil
		}
		i = jsontext.SkipSpace(data, e)
		if i < end && data[i] == ',' {
			i = jsontext.SkipSpace(data, i+1)
		}
	}
	if err := checkRealCode(r.RealCode); err != nil {
		return nil, err
	}
	if err := st.spill.flush(); err != nil {
		return nil, err
	}
	if err := st.hold.flush(); err != nil {
		return nil, err
	}
	r.Cases = make([]Case, 0, st.n)
	for _, chunk := range st.cases {
		r.Cases = append(r.Cases, chunk...)
	}
	r.spill, r.hold = st.spill, st.hold
	ok = true
	return &r, nil
}

// plainReport is Report without its methods, for reading all of it but
// its cases.
type plainReport Report

// skipped reads past a value and keeps nothing of it.
type skipped struct{}

func (*skipped) UnmarshalJSON([]byte) error { return nil }

// Close lets go the temporary files a streamed or lean report keeps its
// cases' evidence in; the report cannot be written after it.
func (r *Report) Close() error {
	var errs []error
	if r.spill != nil {
		errs = append(errs, r.spill.close())
	}
	if r.hold != nil {
		errs = append(errs, r.hold.close())
	}
	return errors.Join(errs...)
}

// suggestObserved gives a suggestion read without a value the observed
// one it stands for.
func suggestObserved(c *Case) {
	for j := range c.Suggested {
		if s := &c.Suggested[j]; s.Value == nil {
			s.Value = c.Observed[s.Key]
		} else {
			s.Shaped = true
		}
	}
}

// consistency is checkConsistent one case at a time.
type consistency struct {
	first map[string]int
}

func (k consistency) check(i int, c *Case) error {
	where := "/cases/" + strconv.Itoa(i)
	id := c.Desk + "/" + c.ID
	if j, seen := k.first[id]; seen {
		return contradiction(where, "case %s is listed twice (first at /cases/%d)", id, j)
	}
	k.first[id] = i
	return caseConsistent(where, id, c)
}
