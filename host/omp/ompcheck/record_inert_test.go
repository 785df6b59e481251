package ompcheck

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/host/omp"
)

// TestHandlerNarration: the trace says what each fallback handler answers,
// one event per call, so that a reader sees where the fallback stopped.
func TestHandlerNarration(t *testing.T) {
	denied := &omp.Error{Code: "EACCES", Message: "denied"}
	for _, tt := range []struct {
		name       string
		behaviours []string
		want       []string
		why        string
	}{
		{"decline then complete", []string{"decline", "complete"}, []string{
			"fallback handler 1 (decline) asked to write /card; cause: [EACCES] denied → declines: it reports the write not done",
			"fallback handler 2 (complete) asked to write /card; cause: [EACCES] denied → completes: it reports the write done, and no later handler is asked (its write is not an effect: effects count the writer's successful writes)",
		}, "a decline hands on to the next handler, which completes"},
		{"fail then decline", []string{"fail", "decline"}, []string{
			"fallback handler 1 (fail) asked to write /card; cause: [EACCES] denied → fails with an error",
			"the handler failed: scripted handler failure; the next one is asked",
			"fallback handler 2 (decline) asked to write /card; cause: [EACCES] denied → declines: it reports the write not done",
		}, "a failing handler is followed by the next one; nothing completes"},
		{"complete stops", []string{"complete", "complete"}, []string{
			"fallback handler 1 (complete) asked to write /card; cause: [EACCES] denied → completes: it reports the write done, and no later handler is asked (its write is not an effect: effects count the writer's successful writes)",
		}, "the first handler that completes is the last one asked"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr := &Trace{}
			f := omp.Fallbacks{OnHandlerError: func(err error) { tr.Add("handler", "the handler failed: %v; the next one is asked", err) }}
			h := &Handlers{Trace: tr}
			h.Register(&f, tt.behaviours)
			w := &Writer{Errors: []error{denied}, Trace: tr}
			_ = f.WriteFile(context.Background(), "/card", nil, w, PathOps{Trace: tr}, "")
			var got []string
			for _, e := range tr.Events() {
				if e.Kind == "handler" {
					got = append(got, e.Text)
				}
			}
			require.Equal(t, tt.want, got, tt.why)
			assert.Equal(t, len(tt.want)-countPrefix(got, "the handler failed"), h.Calls(), "one event per handler call")
		})
	}
}

func countPrefix(xs []string, prefix string) int {
	n := 0
	for _, x := range xs {
		if len(x) >= len(prefix) && x[:len(prefix)] == prefix {
			n++
		}
	}
	return n
}
