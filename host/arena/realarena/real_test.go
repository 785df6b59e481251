package realarena

import (
	"context"
	"os"
	"testing"

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
