package reports

import (
	"bufio"
	"errors"
	"io"

	"github.com/deskcheck/deskcheck/verifier"
)

// Shown prints the cases of a run one at a time, with Explain or
// Observe, as verifier.VerifyStream hands the results on (it is a
// verifier.Sink): each case is printed as soon as it and the cases before
// it have run, and let go, so that what a run holds is the cases in
// flight, not every result. The text is what the writer prints of Build's
// report of the same results, byte for byte.
//
// Explain's lesson line names the other cases of the desk that share the
// lesson, which may run after it: the cases of a desk where any case
// names a lesson wait for the desk's last, their evidence set aside in a
// hold as a streamed report's is, and are printed when the desk is done.
type Shown struct {
	w     *bufio.Writer
	write func(w io.Writer, after bool, lessons []Lesson, c *Case) error
	n     int
	// desk is the desk being taken, and waits says its cases wait for it
	// to be done.
	desk  *verifier.Desk
	waits bool
	hold  *hold
	held  []Case
}

// ExplainEach prints on w, case by case, what Explain prints of a run.
func ExplainEach(w io.Writer, e Explain) *Shown {
	return &Shown{w: bufio.NewWriterSize(w, 64<<10), write: e.writeCase}
}

// ObserveEach prints on w, case by case, what Observe prints of a run.
func ObserveEach(w io.Writer, o Observe) *Shown {
	return &Shown{w: bufio.NewWriterSize(w, 64<<10), write: func(w io.Writer, after bool, _ []Lesson, c *Case) error {
		return o.writeCase(w, after, c)
	}}
}

// CaseOf is the evidence of one result, as Build makes it.
func CaseOf(r *verifier.Result) Case { return newCase(r, false) }

// Prepare makes the evidence of one result, as Build does
// (verifier.Sink).
func (s *Shown) Prepare(r *verifier.Result) *Case {
	c := newCase(r, false)
	return &c
}

// Take prints c, a case of desk d, or keeps it until d is done when a
// case of d names a lesson (verifier.Sink).
func (s *Shown) Take(d *verifier.Desk, c *Case) error {
	if d != s.desk {
		s.desk, s.waits = d, namesLesson(d)
	}
	if !s.waits {
		return s.print(nil, c)
	}
	if s.hold == nil {
		s.hold = newHold()
	}
	if err := s.hold.put(c); err != nil {
		return err
	}
	s.held = append(s.held, *c)
	return nil
}

// Done prints the cases of d that waited for it (verifier.Sink).
func (s *Shown) Done(d *verifier.Desk, _ []*verifier.Claim) error {
	s.desk = nil
	if s.hold == nil {
		return nil
	}
	held, h := s.held, s.hold
	s.held, s.hold = nil, nil
	defer h.close()
	if err := h.flush(); err != nil {
		return err
	}
	lessons := lessonsOf(held)
	for i := range held {
		if err := s.print(lessons, held[i].whole()); err != nil {
			return err
		}
		held[i] = Case{}
	}
	return nil
}

// print writes one case and sends it on its way.
func (s *Shown) print(lessons []Lesson, c *Case) error {
	if err := s.write(s.w, s.n > 0, lessons, c); err != nil {
		return err
	}
	s.n++
	return s.w.Flush()
}

// Close lets go the hold of a desk whose cases were kept when the run
// stopped before it was done, and writes out what is buffered.
func (s *Shown) Close() error {
	var err error
	if s.hold != nil {
		err = s.hold.close()
		s.hold, s.held = nil, nil
	}
	return errors.Join(err, s.w.Flush())
}

// namesLesson reports whether a case of d names a lesson.
func namesLesson(d *verifier.Desk) bool {
	for _, c := range d.Cases {
		if c.Lesson != "" {
			return true
		}
	}
	return false
}
