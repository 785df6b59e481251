package reports

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/verifier"
)

// TestShownIsBuild: explain and observe printed case by case as the run
// goes say, byte for byte, what they say of the report built from the
// whole suite, lesson lines included (the bundled desks have lessons),
// with a hold on disk and in memory.
func TestShownIsBuild(t *testing.T) {
	for name, inputs := range streamInputs(t) {
		suite, ds, err := verifier.Verify(context.Background(), inputs, verifier.Options{Registry: testReg})
		require.NoError(t, err)
		require.False(t, ds.HasErrors())
		whole := Build(suite, fixedOrigin)
		for _, tc := range []struct {
			format string
			r      Reporter
			each   func(*bytes.Buffer) *Shown
		}{
			{"explain", Explain{Width: 100}, func(b *bytes.Buffer) *Shown { return ExplainEach(b, Explain{Width: 100}) }},
			{"observe", Observe{Width: 100}, func(b *bytes.Buffer) *Shown { return ObserveEach(b, Observe{Width: 100}) }},
		} {
			var want bytes.Buffer
			require.NoError(t, tc.r.Write(&want, whole))
			for _, where := range []string{"file", "memory"} {
				t.Run(name+"/"+tc.format+"/"+where, func(t *testing.T) {
					if where == "memory" {
						t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
					}
					var got bytes.Buffer
					out := tc.each(&got)
					_, _, err := verifier.VerifyStream[*Case](context.Background(), inputs, verifier.Options{Registry: testReg}, out)
					require.NoError(t, err)
					require.NoError(t, out.Close())
					if !assert.True(t, want.String() == got.String(), "printed case by case, %s differs", tc.format) {
						diffAt(t, want.String(), got.String())
					}
				})
			}
		}
	}
}

// TestShownKeepsNothingWithoutLessons: of a desk no case of which names
// a lesson, each case is printed as it is taken and nothing of it is
// kept; of a desk with lessons, the cases wait for the desk with their
// evidence set aside.
func TestShownKeepsNothingWithoutLessons(t *testing.T) {
	inputs := streamInputs(t)["bundled"]
	var out bytes.Buffer
	s := ExplainEach(&out, Explain{})
	defer s.Close()
	waited, printed := 0, 0
	_, _, err := verifier.VerifyStream[*Case](context.Background(), inputs, verifier.Options{Registry: testReg}, shownProbe{s, func(d *verifier.Desk) {
		if namesLesson(d) {
			waited++
			for _, c := range s.held {
				assert.Nil(t, c.Trace, "%s/%s: the evidence of a waiting case is set aside", c.Desk, c.ID)
				assert.Nil(t, c.Observed, "%s/%s", c.Desk, c.ID)
			}
			return
		}
		printed++
		assert.Empty(t, s.held, "%s: a case of a desk without lessons is not kept", d.ID)
		assert.Nil(t, s.hold, "%s", d.ID)
	}})
	require.NoError(t, err)
	assert.Positive(t, waited, "a bundled desk names lessons")
	assert.Positive(t, printed, "a bundled desk names none")
}

// shownProbe is a Shown that calls took after each case is taken.
type shownProbe struct {
	*Shown
	took func(d *verifier.Desk)
}

func (p shownProbe) Take(d *verifier.Desk, c *Case) error {
	err := p.Shown.Take(d, c)
	p.took(d)
	return err
}

// TestShownStopsOnWriteError: an output that cannot be written stops the
// run with its error.
func TestShownStopsOnWriteError(t *testing.T) {
	inputs := streamInputs(t)["bundled"]
	s := ObserveEach(failingWriter{}, Observe{})
	_, _, err := verifier.VerifyStream[*Case](context.Background(), inputs, verifier.Options{Registry: testReg}, s)
	require.ErrorIs(t, err, errClosedOutput)
	assert.ErrorIs(t, s.Close(), errClosedOutput)
}

var errClosedOutput = errors.New("closed")

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errClosedOutput }
