package realarena

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/deskcheck/deskcheck/host/arena"
	"github.com/deskcheck/deskcheck/host/arena/arenacheck"
	"github.com/deskcheck/deskcheck/internal/fault"
	"github.com/deskcheck/deskcheck/recorders"
	"github.com/deskcheck/deskcheck/scenario"
)

// Case is one arena case of a desk, as a real run needs it.
type Case struct {
	// ID is DESK/CASE.
	ID    string
	Turns [][]recorders.Action
	// Expected holds the case's expected keys, decoded as JSON.
	Expected map[string]any
	// Raw is the case's bytes (they enter the run id).
	Raw []byte
	// Range is the case's arena range (its own, else its desk's); ""
	// names every adapter.
	Range string
}

// On says whether the case is judged on adapter: its range selects it.
func (c Case) On(adapter string) bool {
	if c.Range == "" {
		return true
	}
	rs, err := arenacheck.Family.Host.SelectReleases(c.Range)
	if err != nil {
		return false
	}
	for _, r := range rs {
		if name, _, _ := strings.Cut(r.Version, "@"); name == adapter {
			return true
		}
	}
	return false
}

// CasesOf reads the arena cases of a desk; the ids of its other cases are
// returned apart: they are not applicable to the adapters.
func CasesOf(desk []byte) (cases []Case, notApplicable []string, err error) {
	var d struct {
		ID    string            `json:"id"`
		Hosts map[string]string `json:"hosts"`
		Cases []json.RawMessage `json:"cases"`
	}
	if err := json.Unmarshal(desk, &d); err != nil {
		return nil, nil, fmt.Errorf("the desk is not JSON: %w", err)
	}
	for i, raw := range d.Cases {
		var c struct {
			ID       string            `json:"id"`
			Scenario string            `json:"scenario"`
			Hosts    map[string]string `json:"hosts"`
			Given    struct {
				Turns [][]struct {
					Action      string `json:"action"`
					Unavailable bool   `json:"unavailable"`
				} `json:"turns"`
			} `json:"given"`
			Expected map[string]any `json:"expected"`
		}
		if err := json.Unmarshal(raw, &c); err != nil {
			return nil, nil, fmt.Errorf("case %d: %w", i, err)
		}
		id := d.ID + "/" + c.ID
		if c.Scenario != "arena" {
			notApplicable = append(notApplicable, id)
			continue
		}
		cs := Case{ID: id, Expected: c.Expected, Raw: raw, Range: d.Hosts[arenacheck.Family.Host.Name]}
		if r, ok := c.Hosts[arenacheck.Family.Host.Name]; ok {
			cs.Range = r
		}
		for _, t := range c.Given.Turns {
			var turn []recorders.Action
			for _, a := range t {
				turn = append(turn, recorders.Action{Label: a.Action, Unavailable: a.Unavailable})
			}
			cs.Turns = append(cs.Turns, turn)
		}
		cases = append(cases, cs)
	}
	return cases, notApplicable, nil
}

// decisions reads a case's expected decisions ("" for null) and effects.
func (c Case) decisions() ([]string, int) {
	var out []string
	ds, _ := c.Expected["decisions"].([]any)
	for _, d := range ds {
		s, _ := d.(string)
		out = append(out, s)
	}
	effects, _ := c.Expected["effects"].(float64)
	return out, int(effects)
}

// CaseResult is one case on the real adapter.
type CaseResult struct {
	ID string
	// Observed is what the recorders saw, every expected key.
	Observed map[string]any
	// Mismatches name the expected keys the observation does not hold;
	// Disagreements the observed keys on which the adapter's Go model
	// says otherwise.
	Mismatches, Disagreements []string
	// Errored: the adapter did not finish the item (its error text).
	Errored string
}

// Dimensions are the six boundary-response dimensions of one adapter's
// run, each with its own denominator.
type Dimensions struct {
	Denied, DeniedVisible, Permitted, Worked int
	Items, FailClosed, Complete              int
	ServiceRequests, ServiceExpected         int
	ExtraEffects                             int
}

func ratio(k, n int) string {
	if n == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%d/%d", k, n)
}

// Columns are the table's cells: denials, allowed, fail closed,
// complete, amplification (scripted), extra effects.
func (d Dimensions) Columns() []string {
	amp := "n/a"
	if d.ServiceExpected > 0 {
		amp = fmt.Sprintf("%.2f (%d/%d)", float64(d.ServiceRequests)/float64(d.ServiceExpected), d.ServiceRequests, d.ServiceExpected)
	}
	return []string{ratio(d.DeniedVisible, d.Denied), ratio(d.Worked, d.Permitted), ratio(d.FailClosed, d.Items),
		ratio(d.Complete, d.Items), amp, fmt.Sprint(d.ExtraEffects)}
}

// Judgement is one adapter's run of a selection of arena cases.
type Judgement struct {
	Adapter    string
	Fault      string
	Cases      []CaseResult
	Dimensions Dimensions
	// Model are the dimensions of the adapter's Go model on the same
	// cases; Reference, those of the reference adapter's (the plain
	// loop's) model.
	Model, Reference Dimensions
	Provenance       Provenance
	// Records are the recorders' records, one per case.
	Records []*recorders.Record
}

// Holds reports whether every case holds on the real adapter and the
// model agrees on every case.
func (j *Judgement) Holds() bool {
	for _, c := range j.Cases {
		if len(c.Mismatches) > 0 || len(c.Disagreements) > 0 {
			return false
		}
	}
	return true
}

// Judge runs cases on the real adapter cfg names, in one process, and
// holds each to its expected block and to the adapter's Go model (under
// the same fault).
func Judge(ctx context.Context, cfg Config, cases []Case) (*Judgement, error) {
	model, ok := arena.AdapterNamed(cfg.Adapter)
	if !ok {
		return nil, fmt.Errorf("unknown adapter %q; the adapters are %s", cfg.Adapter, strings.Join(Adapters, ", "))
	}
	var fs arena.Faults
	if cfg.Fault != "" {
		f, ok := arena.FaultNamed(cfg.Fault)
		if !ok {
			return nil, fmt.Errorf("unknown fault %q", cfg.Fault)
		}
		fs = fault.Of[arena.Fault](uint64(f))
	}
	items := make([]recorders.Item, len(cases))
	for i, c := range cases {
		items[i] = recorders.Item{ID: c.ID, Prompt: fmt.Sprintf("deskcheck arena item %s", c.ID), Turns: c.Turns}
	}
	res, err := Run(ctx, cfg, items)
	if err != nil {
		return nil, err
	}
	if len(res.Strays) > 0 {
		return nil, fmt.Errorf("the adapter sent %d requests while no item was open (first: %s)", len(res.Strays), res.Strays[0].Endpoint)
	}
	j := &Judgement{Adapter: cfg.Adapter, Fault: cfg.Fault}
	for i, c := range cases {
		rec := res.Records[i]
		real := arena.Result{Record: rec, Observation: recorders.Observe(rec)}
		mod := arena.Run(arena.Config{Item: items[i], Adapter: model, MaxTurns: cfg.withDefaults().MaxTurns, Faults: fs})
		cr := CaseResult{ID: c.ID, Observed: arenacheck.Observed(real.Observation)}
		if !rec.Done {
			cr.Errored = rec.AdapterError
		}
		want := arenacheck.Observed(mod.Observation)
		for _, k := range sortedKeys(cr.Observed) {
			if e, ok := c.Expected[k]; ok && !reflect.DeepEqual(e, cr.Observed[k]) {
				cr.Mismatches = append(cr.Mismatches, k)
			}
			if !reflect.DeepEqual(want[k], cr.Observed[k]) {
				cr.Disagreements = append(cr.Disagreements, k)
			}
		}
		j.Cases = append(j.Cases, cr)
		decisions, effects := c.decisions()
		add(&j.Dimensions, arenacheck.Boundary(decisions, effects, real))
		add(&j.Model, arenacheck.Boundary(decisions, effects, mod))
		ref := arena.Run(arena.Config{Item: items[i], Adapter: arena.Vanilla, MaxTurns: cfg.withDefaults().MaxTurns, Faults: fs})
		add(&j.Reference, arenacheck.Boundary(decisions, effects, ref))
	}
	j.Records = res.Records
	j.Provenance, err = provenance(cfg, res, cases)
	return j, err
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func add(d *Dimensions, bb *scenario.Boundary) {
	d.Denied += bb.Denied
	d.DeniedVisible += bb.DeniedVisible
	d.Permitted += bb.Permitted
	d.Worked += bb.Worked
	d.ServiceRequests += bb.ServiceRequests
	d.ServiceExpected += bb.ServiceExpected
	d.ExtraEffects += bb.ExtraEffects
	if bb.Actions > 0 {
		d.Items++
		if bb.FailClosed {
			d.FailClosed++
		}
		if bb.Complete {
			d.Complete++
		}
	}
}

// Provenance says exactly what ran: report it with every table.
type Provenance struct {
	Contract    string `json:"contract"`
	Mode        string `json:"mode"`
	Repetitions int    `json:"repetitions"`
	Evidence    string `json:"evidence"`
	RunID       string `json:"runId"`
	Adapter     struct {
		Name       string            `json:"name"`
		Version    string            `json:"version"`
		API        string            `json:"api"`
		Lock       string            `json:"lock"`
		Files      map[string]string `json:"files"`
		Deprecated []string          `json:"deprecated"`
	} `json:"adapter"`
	Packages map[string]string `json:"packages"`
	Python   struct {
		Implementation string `json:"implementation"`
		Version        string `json:"version"`
	} `json:"python"`
	Settings struct {
		Model                 string `json:"model"`
		Temperature           int    `json:"temperature"`
		ModelTurnsLimit       int    `json:"modelTurnsLimit"`
		RequestTimeoutSeconds int    `json:"requestTimeoutSeconds"`
		ItemLimitSeconds      int    `json:"itemLimitSeconds"`
		ClientMaxRetries      int    `json:"clientMaxRetries"`
		ToolConcurrency       string `json:"toolConcurrency"`
	} `json:"settings"`
	ObservedOnWire struct {
		ReadTimeout []string `json:"readTimeout"`
		RetryCounts []string `json:"retryCounts"`
		UserAgents  []string `json:"userAgents"`
	} `json:"observedOnWire"`
	Network     string `json:"network"`
	PolicyTable string `json:"policyTable"`
	MockTokens  struct {
		Prompt     int `json:"prompt"`
		Completion int `json:"completion"`
	} `json:"mockTokens"`
	// Executed says what ran: the installed framework code, never the
	// desk's content.
	Executed string `json:"executed"`
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

func provenance(cfg Config, res *Result, cases []Case) (Provenance, error) {
	cfg = cfg.withDefaults()
	var p Provenance
	p.Contract, p.Mode, p.Repetitions, p.Evidence = recorders.Contract, "mock", 1, "wire"
	p.Adapter.Name, p.Adapter.Version, p.Adapter.API = cfg.Adapter, res.Hello.AdapterVersion, "chat.completions"
	p.Adapter.Deprecated = res.Hello.Deprecated
	p.Adapter.Files = map[string]string{}
	h := sha256.New()
	h.Write([]byte(recorders.Contract + "\x00" + cfg.Adapter + "\x00"))
	for _, name := range []string{"arena_common.py", ScriptName(cfg.Adapter), cfg.Adapter + "/requirements.lock"} {
		b, err := File(name)
		if err != nil {
			return p, err
		}
		if strings.HasSuffix(name, ".lock") {
			p.Adapter.Lock = sha(b)
		} else {
			p.Adapter.Files[name] = sha(b)
		}
		h.Write([]byte(sha(b) + "\x00"))
	}
	for _, c := range cases {
		h.Write(c.Raw)
		h.Write([]byte{0})
	}
	p.RunID = "arena-" + hex.EncodeToString(h.Sum(nil))[:12]
	p.Packages = res.Hello.Packages
	p.Python.Implementation, p.Python.Version = res.Hello.Implementation, res.Hello.Python
	p.Settings.Model, p.Settings.ModelTurnsLimit = arena.Model, cfg.MaxTurns
	p.Settings.RequestTimeoutSeconds, p.Settings.ItemLimitSeconds = int(cfg.Timeout.Seconds()), int(cfg.ItemLimit.Seconds())
	p.Settings.ClientMaxRetries, p.Settings.ToolConcurrency = 2, "framework default"
	seen := map[string]map[string]bool{"r": {}, "c": {}, "u": {}}
	addSeen := func(kind string, list *[]string, v string) {
		if v != "" && !seen[kind][v] {
			seen[kind][v] = true
			*list = append(*list, v)
		}
	}
	for _, r := range res.Records {
		for _, m := range r.Model {
			addSeen("r", &p.ObservedOnWire.ReadTimeout, m.Header["x-stainless-read-timeout"])
			addSeen("c", &p.ObservedOnWire.RetryCounts, m.Header["x-stainless-retry-count"])
			addSeen("u", &p.ObservedOnWire.UserAgents, m.Header["user-agent"])
			p.MockTokens.Prompt += m.PromptTokens
			p.MockTokens.Completion += m.CompletionTokens
		}
	}
	switch {
	case cfg.Start != nil:
		p.Network = res.Isolation
	case len(cfg.Wrap) > 0:
		p.Network = "new network namespace (" + strings.Join(cfg.Wrap, " ") + "): no network at all; two Unix sockets in the run folder"
	default:
		p.Network = "no new network namespace: the adapter's clients point only at the recorders (" + cfg.Network + "), but the OS does not stop other connections"
	}
	table, _ := json.Marshal(recorders.Table)
	p.PolicyTable = sha(table)
	p.Executed = "framework code executed: yes (the installed packages); desk content executed: no"
	return p, nil
}

// lockPins reads the versions a requirements lock pins, by normalized
// package name (a package may have one version per Python marker).
func lockPins(lock []byte) map[string][]string {
	pins := map[string][]string{}
	for _, line := range strings.Split(string(lock), "\n") {
		if line == "" || line[0] == ' ' || line[0] == '#' || line[0] == '-' {
			continue
		}
		name, rest, ok := strings.Cut(line, "==")
		if !ok {
			continue
		}
		version := strings.Fields(strings.TrimSuffix(strings.TrimSpace(rest), "\\"))
		if len(version) > 0 {
			n := normalize(name)
			pins[n] = append(pins[n], strings.TrimSuffix(version[0], ";"))
		}
	}
	return pins
}

func normalize(name string) string {
	return strings.NewReplacer("_", "-", ".", "-").Replace(strings.ToLower(strings.TrimSpace(name)))
}

// checkPackages refuses a venv whose packages differ from the lock.
func checkPackages(adapter string, packages map[string]string) error {
	lock, err := File(adapter + "/requirements.lock")
	if err != nil {
		return err
	}
	pins := lockPins(lock)
	var bad []string
	for name, v := range packages {
		if want, ok := pins[normalize(name)]; ok && !contains(want, v) {
			bad = append(bad, fmt.Sprintf("%s %s (the lock pins %s)", name, v, strings.Join(want, " or ")))
		}
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		return errors.New("the " + adapter + " venv differs from its lock: " + strings.Join(bad, "; ") + "; reinstall with deskcheck-host install arena:" + adapter)
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
