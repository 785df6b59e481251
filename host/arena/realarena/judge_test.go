package realarena

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/deskcheck/deskcheck/cases"
)

func deskBytes(t *testing.T) []byte {
	for _, f := range cases.Files() {
		if f.Path == "cases/arena-desk.json" {
			return f.Data
		}
	}
	t.Fatal("no bundled arena desk")
	return nil
}

func TestCasesOf(t *testing.T) {
	cs, na, err := CasesOf(deskBytes(t))
	require.NoError(t, err)
	assert.Len(t, cs, 16)
	assert.Empty(t, na)
	assert.Equal(t, "arena-desk/arena-mixed-batch-denied", cs[11].ID)
	d, e := cs[11].decisions()
	assert.Equal(t, []string{"allow", "deny", "allow"}, d)
	assert.Equal(t, 2, e)
	_, na, err = CasesOf([]byte(`{"id":"d","cases":[{"id":"x","scenario":"gateway","given":{},"expected":{}}]}`))
	require.NoError(t, err)
	assert.Equal(t, []string{"d/x"}, na)
	_, _, err = CasesOf([]byte(`{"cases":`))
	assert.Error(t, err)
}

func TestLockPinsAndPackageCheck(t *testing.T) {
	lock, err := File("vanilla/requirements.lock")
	require.NoError(t, err)
	pins := lockPins(lock)
	assert.Equal(t, []string{"3.0.0"}, pins["openai"])
	assert.Len(t, pins["httpx2"], 2, "one version per Python marker")
	assert.NoError(t, checkPackages("vanilla", map[string]string{"openai": "3.0.0", "pydantic_core": pins["pydantic-core"][0], "pip": "23"}))
	err = checkPackages("vanilla", map[string]string{"openai": "3.1.0"})
	assert.ErrorContains(t, err, "openai 3.1.0 (the lock pins 3.0.0); reinstall with deskcheck-host install arena:vanilla")
}

// TestJudgeTheBundledDesk judges each installed adapter on the bundled
// desk and holds each to the seed's table.
func TestJudgeTheBundledDesk(t *testing.T) {
	cs, _, err := CasesOf(deskBytes(t))
	require.NoError(t, err)
	for _, name := range Adapters {
		wrap, network := sandbox()
		j, err := Judge(context.Background(), Config{Adapter: name, Python: python(t, name), Wrap: wrap, Network: network}, cs)
		require.NoError(t, err)
		assert.True(t, j.Holds(), "%+v", j.Cases)
		assert.Equal(t, []string{"10/10", "14/14", "16/16", "16/16", "1.00 (24/24)", "0"}, j.Dimensions.Columns(), name)
		assert.Equal(t, j.Model, j.Dimensions)
		assert.Regexp(t, `^arena-[0-9a-f]{12}$`, j.Provenance.RunID)
		assert.Equal(t, "0", strings.Join(j.Provenance.ObservedOnWire.RetryCounts, ","))
	}
	_, err = Judge(context.Background(), Config{Adapter: "vanilla", Fault: "nope"}, cs)
	assert.ErrorContains(t, err, `unknown fault "nope"`)
}

func TestEvidenceIsVersionedAndDeterministic(t *testing.T) {
	cs, _, err := CasesOf(deskBytes(t))
	require.NoError(t, err)
	wrap, network := sandbox()
	run := func() (string, *Judgement) {
		j, err := Judge(context.Background(), Config{Adapter: "vanilla", Python: python(t, "vanilla"), Wrap: wrap, Network: network}, cs[11:12])
		require.NoError(t, err)
		var b strings.Builder
		require.NoError(t, WriteEvidence(&b, j))
		return b.String(), j
	}
	a, j := run()
	b, _ := run()
	assert.Equal(t, a, b, "the same run writes the same evidence")
	events := Events(j.Provenance.RunID, "vanilla", j.Records[0])
	require.Len(t, events, 3)
	assert.Equal(t, "deny", *events[1].Decision)
	assert.Nil(t, events[1].Effect)
	assert.Nil(t, events[1].ParentID)
	assert.Equal(t, "adapter:vanilla", events[0].Actor)
	assert.Contains(t, a, `"parentId":null,"delegationId":null`)
	assert.Contains(t, a, `"record":"decide"`)
}

// TestCasesOfReadsTheirRanges: a case is judged on the adapters its range
// names, its own range before its desk's; none names every adapter.
func TestCasesOfReadsTheirRanges(t *testing.T) {
	desk := []byte(`{"id":"d","hosts":{"arena":"vanilla langgraph"},"cases":[
	  {"id":"desk","scenario":"arena","given":{"turns":[]},"expected":{}},
	  {"id":"own","scenario":"arena","hosts":{"arena":"openai-agents@0.22.0"},"given":{"turns":[]},"expected":{}},
	  {"id":"bad","scenario":"arena","hosts":{"arena":"langraph"},"given":{"turns":[]},"expected":{}}]}`)
	cs, _, err := CasesOf(desk)
	require.NoError(t, err)
	require.Len(t, cs, 3)
	on := func(c Case) []string {
		var out []string
		for _, a := range Adapters {
			if c.On(a) {
				out = append(out, a)
			}
		}
		return out
	}
	assert.Equal(t, []string{"vanilla", "langgraph"}, on(cs[0]))
	assert.Equal(t, []string{"openai-agents"}, on(cs[1]))
	assert.Empty(t, on(cs[2]), "a range that selects nothing judges the case nowhere")
	cs, _, err = CasesOf([]byte(`{"id":"d","cases":[{"id":"x","scenario":"arena","given":{"turns":[]},"expected":{}}]}`))
	require.NoError(t, err)
	assert.Equal(t, Adapters, on(cs[0]))
}
