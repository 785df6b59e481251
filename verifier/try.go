package verifier

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/deskcheck/deskcheck/scenario"
)

// ProbeDesks makes the two desks `deskcheck try` runs for a given block
// of a scenario: first a desk whose expected block is the template's
// (every key present with a value of the right type, so that only the
// given block can be invalid), then, from the first desk's results, the
// desk whose expected block is what the model observes — the desk the
// author saves. given must be a JSON object that Scan passes.
type ProbeDesks struct {
	Scenario *scenario.Scenario
	// Family is the scenario's host family.
	Family *scenario.Family
	// Given is the given block, compact.
	Given string
}

// NewProbe checks the scenario's name and compacts the given block.
func NewProbe(reg *scenario.Registry, name string, given []byte) (*ProbeDesks, error) {
	sc, fam, ok := reg.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("unknown scenario %q (known: %s)%s", name, strings.Join(reg.Names(), ", "), suggest(name, reg.Names()))
	}
	var b bytes.Buffer
	if err := json.Compact(&b, given); err != nil {
		return nil, err
	}
	return &ProbeDesks{Scenario: sc, Family: fam, Given: b.String()}, nil
}

// First is the desk with the template's expected block.
func (p *ProbeDesks) First(ctx context.Context) ([]byte, error) {
	expected, err := everyKey(ctx, p.Scenario, p.Family, []byte(p.Scenario.Template))
	if err != nil {
		return nil, err
	}
	return placeholderDesk(p.Scenario, p.Family, p.Given, expected), nil
}

// Saved is the desk whose expected block is r's suggestion: what the
// model observed, the keys worth asserting.
func (p *ProbeDesks) Saved(r Result) []byte {
	return placeholderDesk(p.Scenario, p.Family, p.Given, r.Suggestions())
}

// Text is the desk's file as it was read.
func (d *Desk) Text() string { return d.text }

// SHA256Of is the hex SHA-256 of data, as Desk.SHA256 records a file's.
func SHA256Of(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
