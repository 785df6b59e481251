package scenario

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// Registry holds the families deskcheck knows and everything derived from
// them: scenarios by name, qualified faults and the case schema composed
// from every scenario's fragment. It is built once and then only read.
type Registry struct {
	families []Family
	byName   map[string]entry
	names    []string
	faults   []QualifiedFault
	schema   []byte
}

type entry struct {
	sc     *Scenario
	fam    *Family
	given  []string
	nested map[string][]string
}

// QualifiedFault is a fault with the host it belongs to.
type QualifiedFault struct {
	Host string
	Fault
}

// FullName is <host>/<fault>, e.g. omp/approval-remembered.
func (q QualifiedFault) FullName() string { return q.Host + "/" + q.Name }

// NewRegistry checks the families and composes the case schema. Scenario
// and host names must be unique, every fragment's expected keys must be
// the scenario's Expected keys, limits must have positive defaults, and
// fault names must be unique within a host.
func NewRegistry(fams ...Family) (*Registry, error) {
	r := &Registry{families: fams, byName: map[string]entry{}}
	hosts := map[string]bool{}
	var fragments []fragment
	for i := range fams {
		f := &r.families[i]
		if f.Host.Name == "" || strings.Contains(f.Host.Name, "/") || hosts[f.Host.Name] {
			return nil, fmt.Errorf("host name %q is empty, has a slash or is taken", f.Host.Name)
		}
		hosts[f.Host.Name] = true
		if !f.Host.Values.chosen() {
			return nil, fmt.Errorf("host %s: Values names no language (scenario.JavaScript or scenario.Python): the engine decodes and compares the case's values as that language does", f.Host.Name)
		}
		seen := map[string]bool{}
		own := map[string]bool{}
		for _, sc := range f.Scenarios {
			own[sc.Name] = true
		}
		for _, ft := range f.Faults {
			if ft.Name == "" || seen[ft.Name] {
				return nil, fmt.Errorf("host %s: fault name %q is empty or taken", f.Host.Name, ft.Name)
			}
			for _, s := range ft.Scenarios {
				if !own[s] {
					return nil, fmt.Errorf("host %s: fault %s names scenario %q, which is not the host's", f.Host.Name, ft.Name, s)
				}
			}
			seen[ft.Name] = true
			r.faults = append(r.faults, QualifiedFault{Host: f.Host.Name, Fault: ft})
		}
		for _, sc := range f.Scenarios {
			if _, dup := r.byName[sc.Name]; dup || sc.Name == "" {
				return nil, fmt.Errorf("scenario name %q is empty or taken", sc.Name)
			}
			if sc.kind == nil || sc.Unit == "" {
				return nil, fmt.Errorf("scenario %s: a Kind (scenario.Declare) and a Unit are required", sc.Name)
			}
			frag, err := parseFragment(sc)
			if err != nil {
				return nil, err
			}
			for _, l := range sc.Limits {
				if l.Name == "" || l.Default <= 0 || !strings.HasPrefix(l.Pointer, "/given/") && !(l.Measured && l.Pointer == "/given") {
					return nil, fmt.Errorf("scenario %s: limit %q needs a name, a positive default and a pointer into given (a measured limit may point at given itself)", sc.Name, l.Name)
				}
			}
			fragments = append(fragments, frag)
			r.byName[sc.Name] = entry{sc: sc, fam: f, given: frag.givenKeys, nested: frag.nested}
			r.names = append(r.names, sc.Name)
		}
	}
	sort.Strings(r.names)
	composed, err := compose(r.names, fragments)
	if err != nil {
		return nil, err
	}
	r.schema = composed
	return r, nil
}

// Lookup returns the scenario registered under name and its family.
func (r *Registry) Lookup(name string) (*Scenario, *Family, bool) {
	e, ok := r.byName[name]
	return e.sc, e.fam, ok
}

// Names returns the scenario names, sorted.
func (r *Registry) Names() []string { return r.names }

// Families returns the families in the order they were registered.
func (r *Registry) Families() []Family { return r.families }

// GivenKeys returns the given keys of a scenario, as its fragment lists
// them.
func (r *Registry) GivenKeys(name string) []string { return r.byName[name].given }

// KeysAt returns the keys an object of a scenario's given block may hold,
// for the object at a pointer inside given whose array indexes are
// written as "*" (e.g. /steps/*); nil when the fragment does not say.
func (r *Registry) KeysAt(name, pattern string) []string {
	return r.byName[name].nested[pattern]
}

// Faults returns every fault of every family, in registration order.
func (r *Registry) Faults() []QualifiedFault { return r.faults }

// LookupFault finds a fault by its full name (omp/deny-all), or by its bare
// name when exactly one host has a fault of that name.
func (r *Registry) LookupFault(name string) (QualifiedFault, error) {
	var found []QualifiedFault
	for _, q := range r.faults {
		if q.FullName() == name {
			return q, nil
		}
		if q.Name == name {
			found = append(found, q)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return QualifiedFault{}, fmt.Errorf("unknown fault %q (known: %s)", name, strings.Join(r.FaultNames(), ", "))
	}
	names := make([]string, len(found))
	for i, q := range found {
		names[i] = q.FullName()
	}
	return QualifiedFault{}, fmt.Errorf("fault %q is ambiguous: say %s", name, strings.Join(names, " or "))
}

// LookupFaults finds the faults a name selects: the one of that full name
// (omp/deny-all), or every host's fault of that bare name (deny-all).
func (r *Registry) LookupFaults(name string) ([]QualifiedFault, error) {
	var found []QualifiedFault
	for _, q := range r.faults {
		if q.FullName() == name {
			return []QualifiedFault{q}, nil
		}
		if q.Name == name {
			found = append(found, q)
		}
	}
	if len(found) == 0 {
		return nil, fmt.Errorf("unknown fault %q (known: %s)%s", name, strings.Join(r.FaultNames(), ", "), closestFault(name, r.FaultNames()))
	}
	return found, nil
}

// closestFault suggests a fault name for a likely slip.
func closestFault(name string, known []string) string {
	short := make([]string, 0, len(known))
	for _, k := range known {
		short = append(short, k, k[strings.IndexByte(k, '/')+1:])
	}
	if best := Closest(name, short); best != "" {
		return fmt.Sprintf("; did you mean %q?", best)
	}
	return ""
}

// FaultNames returns every fault's full name, sorted.
func (r *Registry) FaultNames() []string {
	names := make([]string, len(r.faults))
	for i, q := range r.faults {
		names[i] = q.FullName()
	}
	sort.Strings(names)
	return names
}

// CaseSchema returns the case schema: the base schema with the scenario
// names as the enum of a case's scenario and, for each scenario, an if/then
// that holds its given and expected blocks to its fragment.
func (r *Registry) CaseSchema() []byte { return r.schema }

// fragment is a scenario's schema fragment, decoded.
type fragment struct {
	name        string
	given       any
	expected    any
	definitions map[string]any
	givenKeys   []string
	nested      map[string][]string
}

func parseFragment(sc *Scenario) (fragment, error) {
	var raw struct {
		Given       map[string]any `json:"given"`
		Expected    map[string]any `json:"expected"`
		Definitions map[string]any `json:"definitions"`
	}
	dec := json.NewDecoder(bytes.NewReader(sc.Schema))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil || raw.Given == nil || raw.Expected == nil {
		return fragment{}, fmt.Errorf("scenario %s: the schema fragment must be {\"given\": {...}, \"expected\": {...}} with optional definitions (%v)", sc.Name, err)
	}
	f := fragment{name: sc.Name, given: raw.Given, expected: raw.Expected, definitions: raw.Definitions, nested: map[string][]string{}}
	f.givenKeys = propertyKeys(raw.Given)
	expected := propertyKeys(raw.Expected)
	if !reflect.DeepEqual(expected, sortedCopy(sc.Expected.Keys())) {
		return fragment{}, fmt.Errorf("scenario %s: the fragment's expected keys %v are not the observed keys %v", sc.Name, expected, sortedCopy(sc.Expected.Keys()))
	}
	collectNested(raw.Given, "", raw.Definitions, f.nested, 0)
	return f, nil
}

// collectNested records the property names of every object schema below
// given, by pointer pattern, following local references.
func collectNested(s any, at string, defs map[string]any, out map[string][]string, depth int) {
	m, ok := s.(map[string]any)
	if !ok || depth > 16 {
		return
	}
	if ref, ok := m["$ref"].(string); ok {
		if name, found := strings.CutPrefix(ref, "#/definitions/"); found {
			collectNested(defs[name], at, defs, out, depth+1)
		}
		return
	}
	if props, ok := m["properties"].(map[string]any); ok {
		if at != "" {
			out[at] = propertyKeys(m)
		}
		for k, v := range props {
			collectNested(v, at+"/"+k, defs, out, depth+1)
		}
	}
	if items, ok := m["items"]; ok {
		collectNested(items, at+"/*", defs, out, depth+1)
	}
	if add, ok := m["additionalProperties"].(map[string]any); ok {
		collectNested(add, at+"/*", defs, out, depth+1)
	}
}

func propertyKeys(s map[string]any) []string {
	props, _ := s["properties"].(map[string]any)
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func sortedCopy(s []string) []string {
	out := append([]string{}, s...)
	sort.Strings(out)
	return out
}

// compose builds the case schema from the base and the fragments.
func compose(names []string, frags []fragment) ([]byte, error) {
	var base map[string]any
	if err := json.Unmarshal(BaseSchema, &base); err != nil {
		return nil, fmt.Errorf("the base case schema: %w", err)
	}
	defs, _ := base["definitions"].(map[string]any)
	kase, _ := defs["case"].(map[string]any)
	props, _ := kase["properties"].(map[string]any)
	scen, _ := props["scenario"].(map[string]any)
	if scen == nil {
		return nil, fmt.Errorf("the base case schema has no definitions.case.properties.scenario")
	}
	enum := make([]any, len(names))
	for i, n := range names {
		enum[i] = n
	}
	scen["enum"] = enum
	delete(scen, "type")
	sort.Slice(frags, func(i, j int) bool { return frags[i].name < frags[j].name })
	var all []any
	for _, f := range frags {
		for k, v := range f.definitions {
			if old, taken := defs[k]; taken && !reflect.DeepEqual(old, v) {
				return nil, fmt.Errorf("scenario %s: definition %q is already defined differently", f.name, k)
			}
			defs[k] = v
		}
		all = append(all, map[string]any{
			"if": map[string]any{"required": []any{"scenario"}, "properties": map[string]any{
				"scenario": map[string]any{"const": f.name}}},
			"then": map[string]any{"properties": map[string]any{"given": f.given, "expected": f.expected}},
		})
	}
	kase["allOf"] = all
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(base); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// BaseSchema is the case schema without the scenarios: the desk, its
// cases and claims. CaseSchema adds each scenario's fragment to it.
//
//go:embed base.schema.json
var BaseSchema []byte
