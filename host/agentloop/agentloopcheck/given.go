package agentloopcheck

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/deskcheck/deskcheck/host/agentloop"
)

// given is the decoded given block of a runner case.
type given struct {
	Script       []entry `json:"script"`
	MaxSteps     *int    `json:"maxSteps"`
	MaxCalls     *int    `json:"maxCalls"`
	WriteGranted bool    `json:"writeGranted"`
}

// entry is one decision of the script: a tool request (Tool set, Args its
// raw arguments, nil when absent) or a final answer (Final set).
type entry struct {
	Tool  *string         `json:"tool"`
	Args  json.RawMessage `json:"args"`
	Final *string         `json:"final"`
}

// isFinal reports whether the entry is a final answer.
func (e entry) isFinal() bool { return e.Final != nil }

// readGiven decodes a given block. The case schema has already checked
// its shape; an error means the block was not checked (or is not a
// runner block at all).
func readGiven(raw []byte) (given, error) {
	var g given
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&g); err != nil {
		return given{}, fmt.Errorf("the given block of a runner case: %w", err)
	}
	for i, e := range g.Script {
		if (e.Tool == nil) == (e.Final == nil) || (e.Final != nil && e.Args != nil) {
			return given{}, fmt.Errorf("the given block of a runner case: script entry %d is neither {tool[, args]} nor {final}", i)
		}
	}
	return g, nil
}

// maxSteps is the step limit the case sets, or the runner's default.
func (g given) maxSteps() int {
	if g.MaxSteps != nil {
		return *g.MaxSteps
	}
	return agentloop.DefaultMaxSteps
}

// maxCalls is the tool budget the case sets, or the runner's default.
func (g given) maxCalls() int {
	if g.MaxCalls != nil {
		return *g.MaxCalls
	}
	return agentloop.DefaultMaxCalls
}

// config is the model's input for the case, with faults switched on.
func (g given) config(faults agentloop.Faults) agentloop.Config {
	script := make([]agentloop.Entry, len(g.Script))
	for i, e := range g.Script {
		if e.isFinal() {
			script[i] = agentloop.FinalAnswer(*e.Final)
		} else {
			script[i] = agentloop.ToolRequest(*e.Tool, e.Args)
		}
	}
	cfg := agentloop.NewConfig(script)
	cfg.MaxSteps, cfg.MaxCalls = g.maxSteps(), g.maxCalls()
	cfg.WriteGranted = g.WriteGranted
	cfg.Faults = faults
	return cfg
}

// requests counts the script's tool requests.
func (g given) requests() int {
	n := 0
	for _, e := range g.Script {
		if !e.isFinal() {
			n++
		}
	}
	return n
}
