package scenario

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// toyScenario is the least a scenario declares: a name, a unit, a schema
// fragment whose expected keys are its observed keys, and a Kind.
func toyScenario(name string) *Scenario {
	sc := &Scenario{
		Name:     name,
		Unit:     "step",
		Schema:   []byte(`{"given": {"type": "object"}, "expected": {"type": "object", "properties": {"toyKey": {"type": "string"}}}}`),
		Expected: Observables{{Key: "toyKey", Comparer: Exact}},
	}
	return Declare(sc, Kind[struct{}, struct{}, struct{}]{
		Decode: func([]byte) (struct{}, error) { return struct{}{}, nil },
		Run: func(context.Context, struct{}, Env) (Observation, struct{}, error) {
			return Observation{}, struct{}{}, nil
		},
		Suggest: func(struct{}, map[string]any) []string { return nil },
	})
}

func toyFamily(host string, values Values, scenarios ...*Scenario) Family {
	return Family{Host: Host{Name: host, Values: values}, Scenarios: scenarios}
}

// TestNewRegistryRefusesWhatAFamilyLeftOut: a family that leaves out
// what the engine relies on is refused when the registry is built, with
// what it left out, rather than run on a default.
func TestNewRegistryRefusesWhatAFamilyLeftOut(t *testing.T) {
	noUnit := toyScenario("no-unit")
	noUnit.Unit = ""
	for _, tt := range []struct {
		name string
		fams []Family
		err  string
	}{
		{"a family's language", []Family{toyFamily("toy", 0, toyScenario("toy-check"))},
			"host toy: Values names no language (scenario.JavaScript or scenario.Python)"},
		{"a host name", []Family{toyFamily("", Python, toyScenario("toy-check"))}, `host name "" is empty`},
		{"a host name without a slash", []Family{toyFamily("to/y", Python, toyScenario("toy-check"))}, `host name "to/y" is empty, has a slash or is taken`},
		{"a host name of its own", []Family{toyFamily("toy", Python, toyScenario("a")), toyFamily("toy", Python, toyScenario("b"))}, `host name "toy" is empty, has a slash or is taken`},
		{"a scenario name of its own", []Family{toyFamily("toy", Python, toyScenario("a")), toyFamily("other", Python, toyScenario("a"))}, `scenario name "a" is empty or taken`},
		{"a unit", []Family{toyFamily("toy", Python, noUnit)}, "scenario no-unit: a Kind (scenario.Declare) and a Unit are required"},
		{"a kind", []Family{toyFamily("toy", Python, &Scenario{Name: "undeclared", Unit: "step"})}, "scenario undeclared: a Kind (scenario.Declare) and a Unit are required"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewRegistry(tt.fams...)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.err)
		})
	}

	for _, v := range []Values{JavaScript, Python} {
		reg, err := NewRegistry(toyFamily("toy", v, toyScenario("toy-check")))
		require.NoError(t, err, v.String())
		_, fam, ok := reg.Lookup("toy-check")
		require.True(t, ok)
		assert.Equal(t, v, fam.Host.Values)
	}
	assert.Equal(t, "unchosen", Values(0).String())
}
