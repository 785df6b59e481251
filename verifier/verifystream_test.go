package verifier

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/all"
)

// recordSink records what VerifyStream hands on, and how many results
// were prepared but not yet taken at most.
type recordSink struct {
	inFlight, most atomic.Int64
	taken          []string
	done           []string
	failOn         string
}

func (s *recordSink) Prepare(r *Result) string {
	if n := s.inFlight.Add(1); n > s.most.Load() {
		s.most.Store(n)
	}
	return r.Case.FullID() + " " + string(r.Status)
}

func (s *recordSink) Take(d *Desk, v string) error {
	s.inFlight.Add(-1)
	s.taken = append(s.taken, v)
	return nil
}

func (s *recordSink) Done(d *Desk, _ []*Claim) error {
	s.done = append(s.done, d.ID)
	if d.ID == s.failOn {
		return errors.New("disk full")
	}
	return nil
}

func bundledInputs() []Input {
	var inputs []Input
	for _, f := range all.Desks() {
		inputs = append(inputs, Input{Path: f.Path, Data: f.Data})
	}
	return inputs
}

// TestVerifyStreamIsVerify: the results handed on case by case are
// Verify's, in file order, each desk done after its cases, with the
// summary Verify counts, and no more than ResultWindow results per
// processor held at once.
func TestVerifyStreamIsVerify(t *testing.T) {
	inputs := bundledInputs()
	want, _, err := Verify(context.Background(), inputs, Options{Registry: testReg})
	require.NoError(t, err)
	var wantTaken []string
	for _, r := range want.Results {
		wantTaken = append(wantTaken, r.Case.FullID()+" "+string(r.Status))
	}
	s := &recordSink{}
	got, _, err := VerifyStream[string](context.Background(), inputs, Options{Registry: testReg}, s)
	require.NoError(t, err)
	assert.Equal(t, wantTaken, s.taken)
	assert.Equal(t, want.Summary, got.Summary)
	assert.Len(t, s.done, len(inputs), "every desk done")
	assert.Nil(t, got.Results, "nothing of the results is kept")
	assert.LessOrEqual(t, s.most.Load(), int64(ResultWindow*runtime.GOMAXPROCS(0)), "results in flight")
}

// TestVerifyStreamStops: an error of the sink stops the run and is
// returned, and a run over its trace limit hands on no desk as done.
func TestVerifyStreamStops(t *testing.T) {
	inputs := bundledInputs()
	require.Greater(t, len(inputs), 2)
	// The first two desks' ids, in the order they are done.
	probe := &recordSink{}
	_, _, err := VerifyStream[string](context.Background(), inputs[:2], Options{Registry: testReg}, probe)
	require.NoError(t, err)
	require.Len(t, probe.done, 2)
	s := &recordSink{failOn: probe.done[1]}
	_, _, err = VerifyStream[string](context.Background(), inputs, Options{Registry: testReg}, s)
	assert.EqualError(t, err, "disk full")
	assert.Equal(t, probe.done, s.done, "no desk after the error")

	over := &recordSink{}
	_, _, err = VerifyStream[string](context.Background(), inputs, Options{Registry: testReg, Limits: Limits{Events: 10}}, over)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "-max-events")
	assert.Empty(t, over.done, "a desk whose cases went over the limit is not done")
}
