package realarena

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/recorders"
)

// python returns the adapter's interpreter, or skips the test saying how
// to install it; under CI a missing adapter fails.
func python(t *testing.T, adapter string) string {
	t.Helper()
	py, err := Python(adapter)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	return py
}

func TestAdaptersReconcileOnTheRecorders(t *testing.T) {
	items := []recorders.Item{
		{ID: "mixed", Prompt: "deskcheck arena item 1", Turns: [][]recorders.Action{{{Label: "file.read.workspace"}, {Label: "file.read.protected"}, {Label: "credential.use.scoped"}}}},
		{ID: "repeat", Prompt: "deskcheck arena item 2", Turns: [][]recorders.Action{{{Label: "file.read.protected"}}, {{Label: "file.read.protected"}}, {{Label: "service.status.read", Unavailable: true}}}},
	}
	for _, name := range Adapters {
		t.Run(name, func(t *testing.T) {
			res, err := Run(context.Background(), Config{Adapter: name, Python: python(t, name), Network: "tcp"}, items)
			require.NoError(t, err)
			assert.Equal(t, name, res.Hello.Adapter)
			assert.Empty(t, res.Strays)
			for _, r := range res.Records {
				ob := recorders.Observe(r)
				assert.True(t, ob.Complete, "%s: %v\n%s", r.Item.ID, ob.Gaps, res.Stderr)
			}
		})
	}
}

func TestUnknownAdapter(t *testing.T) {
	_, err := Run(context.Background(), Config{Adapter: "crewai"}, nil)
	assert.ErrorContains(t, err, "the adapters are vanilla, langgraph, openai-agents")
}

// TestAnAdapterThatStopsAnsweringIsErrored: an item the adapter does not
// finish within the item limit, and every later one, are errored; the
// process group is killed.
func TestAnAdapterThatStopsAnsweringIsErrored(t *testing.T) {
	dir := t.TempDir()
	// A stand-in interpreter that says hello and then never answers.
	fake := dir + "/python"
	require.NoError(t, os.WriteFile(fake, []byte("#!/bin/sh\nread line\necho '{\"hello\":{\"adapter\":\"vanilla\",\"adapterVersion\":\"0.1.0\",\"packages\":{}}}'\nexec /bin/sleep 600\n"), 0o755))
	items := []recorders.Item{{ID: "a", Prompt: "p", Turns: [][]recorders.Action{{{Label: "file.read.workspace"}}}}, {ID: "b", Prompt: "q"}}
	res, err := Run(context.Background(), Config{Adapter: "vanilla", Python: fake, Network: "tcp", ItemLimit: 200 * time.Millisecond}, items)
	require.NoError(t, err)
	require.Len(t, res.Records, 2)
	for _, r := range res.Records {
		assert.False(t, r.Done)
		assert.Contains(t, r.AdapterError, "the adapter did not finish item a: no answer within 200ms")
	}
}
