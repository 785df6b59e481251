package householdcheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/deskcheck/deskcheck/host/household"
	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// given is a household case's given block, decoded once: the runtime's
// input (the defaults of household.NewConfig, then only the keys the case
// sets) and which of the optional keys it sets. Runs share it: a run
// copies cfg before it sets the faults and the mutant, and only reads
// its slices.
type given struct {
	cfg  household.Config
	keys givenKeys
}

// givenKeys records which of the optional keys a given block sets, which
// the narration marks "(default)" when absent.
type givenKeys uint8

const (
	keyLatencies givenKeys = 1 << iota
	keyHouseholds
	keyTools
	keyTimeouts
	keyToolSeconds
	keyMaxDecisions
	keyDeadlineSeconds
)

// decodeGiven is the scenario's Decode: decodeGivenFast where it can read
// the block, else decodeGivenPlain, which it always agrees with.
func decodeGiven(givenJSON []byte) (*given, error) {
	if g, ok := decodeGivenFast(givenJSON); ok {
		return g, nil
	}
	return decodeGivenPlain(givenJSON)
}

// decodeGivenPlain is the reference decoder of a given block: the block as
// the runtime's json.loads reads it (keys compared exactly, a repeated key
// keeping its last value, strings with their escapes decoded and an
// unpaired surrogate kept), with the Go types of household.Config
// deciding what each value may be. A decision that is a string is raw
// response text; any other decision stays its text as written (48000000.0
// is not 48000000 to the snapshot check). Unknown keys are ignored; null
// leaves a key unset (and is "" in a list of strings, 0 in a list of
// numbers); a value of another type is an error.
func decodeGivenPlain(givenJSON []byte) (*given, error) {
	top, err := membersAt(givenJSON, "the given block")
	if err != nil {
		return nil, err
	}
	var decisions []household.Decision
	if raw, ok := top.Get("decisions"); ok && !isNull(raw) {
		list, err := elementsAt(raw, "decisions")
		if err != nil {
			return nil, err
		}
		decisions = make([]household.Decision, len(list))
		for i, d := range list {
			if d[0] == '"' {
				s, _ := jsontext.HostString(d)
				decisions[i] = household.Decision{Text: s}
			} else {
				decisions[i] = household.Decision{Object: json.RawMessage(d)}
			}
		}
	}
	g := &given{cfg: household.NewConfig(decisions...)}
	for _, m := range top {
		if isNull(m.Raw) {
			continue
		}
		at := string(m.Key)
		switch at {
		case "latencies":
			list, err := elementsAt(m.Raw, at)
			if err != nil {
				return nil, err
			}
			g.cfg.Latencies = make([]float64, len(list))
			for i, x := range list {
				if g.cfg.Latencies[i], err = numberAt(x, at); err != nil {
					return nil, err
				}
			}
			g.keys |= keyLatencies
		case "households", "tools", "timeouts":
			list, err := elementsAt(m.Raw, at)
			if err != nil {
				return nil, err
			}
			out := make([]string, len(list))
			for i, x := range list {
				if isNull(x) {
					continue
				}
				s, ok := jsontext.HostString(x)
				if !ok {
					return nil, typeError(x, at, "a string")
				}
				out[i] = s
			}
			switch at {
			case "households":
				g.cfg.Households = out
				g.keys |= keyHouseholds
			case "tools":
				g.cfg.Tools = out
				g.keys |= keyTools
			default:
				g.cfg.Timeouts = out
				g.keys |= keyTimeouts
			}
		case "toolSeconds":
			if g.cfg.ToolSeconds, err = numberAt(m.Raw, at); err != nil {
				return nil, err
			}
			g.keys |= keyToolSeconds
		case "maxDecisions":
			if m.Raw[0] != '-' && !jsontext.IsDigit(m.Raw[0]) {
				return nil, typeError(m.Raw, at, "a number")
			}
			// An integer literal is its value; any other number (the
			// schema refuses them) its integer part.
			n, ok := jsontext.Int(m.Raw)
			if !ok {
				f, _ := strconv.ParseFloat(string(m.Raw), 64)
				n = int(f)
			}
			g.cfg.MaxDecisions = n
			g.keys |= keyMaxDecisions
		case "deadlineSeconds":
			if g.cfg.DeadlineSeconds, err = numberAt(m.Raw, at); err != nil {
				return nil, err
			}
			g.keys |= keyDeadlineSeconds
		}
	}
	return g, nil
}

// isNull reports whether raw (no surrounding space) is null.
func isNull(raw []byte) bool { return string(raw) == "null" }

// membersAt reads raw as one object's members, as the runtime reads them.
func membersAt(raw []byte, at string) (jsontext.Members, error) {
	if ms, ok := jsontext.ReadHostMembers(raw, nil); ok {
		return ms, nil
	}
	return nil, typeError(raw, at, "an object")
}

// elementsAt reads raw as one array's elements.
func elementsAt(raw []byte, at string) ([][]byte, error) {
	if list, ok := jsontext.HostElements(raw); ok {
		return list, nil
	}
	return nil, typeError(raw, at, "an array")
}

// numberAt reads raw as a number that fits a float64; null is 0.
func numberAt(raw []byte, at string) (float64, error) {
	if isNull(raw) {
		return 0, nil
	}
	if raw[0] == '-' || jsontext.IsDigit(raw[0]) {
		if f, err := strconv.ParseFloat(string(raw), 64); err == nil {
			return f, nil
		}
		return 0, fmt.Errorf("%s: the number %s does not fit a double", at, raw)
	}
	return 0, typeError(raw, at, "a number")
}

// typeError says that the value raw of at is not what it must be, or not
// JSON at all.
func typeError(raw []byte, at, want string) error {
	i := jsontext.SkipSpace(raw, 0)
	if !jsontext.WholeHostValue(raw) || i >= len(raw) {
		return errors.New(at + ": not one valid JSON value")
	}
	kind := "number"
	switch raw[i] {
	case '{':
		kind = "object"
	case '[':
		kind = "array"
	case '"':
		kind = "string"
	case 't', 'f':
		kind = "boolean"
	case 'n':
		kind = "null"
	}
	return fmt.Errorf("%s: a JSON %s where %s is expected", at, kind, want)
}

// decodeGivenFast reads a given block as decodeGivenPlain does, in one
// walk and without reflection, when its reading is plain to see: the
// block is one valid object whose keys are the schema's, each once and
// written without escapes; the lists are arrays of strings or of numbers,
// the numbers fit a float64 and maxDecisions is an integer literal. ok is
// false for any other block, which decodeGivenPlain then reads. A
// decision object stays a slice of the block, as written.
func decodeGivenFast(givenJSON []byte) (g *given, ok bool) {
	var (
		decisions                    []household.Decision
		sawDecisions                 bool
		latencies                    []float64
		households, tools, timeouts  []string
		toolSeconds, deadlineSeconds float64
		maxDecisions                 int
		keys                         givenKeys
	)
	// str is a valid string token as json.loads reads it.
	str := func(tok []byte) (string, bool) {
		if len(tok) == 0 || tok[0] != '"' {
			return "", false
		}
		content := tok[1 : len(tok)-1]
		if bytes.IndexByte(content, '\\') < 0 {
			return string(content), true
		}
		return jsontext.Unescape(content, false)
	}
	num := func(tok []byte) (float64, bool) {
		if len(tok) == 0 || (tok[0] != '-' && !jsontext.IsDigit(tok[0])) {
			return 0, false
		}
		f, err := strconv.ParseFloat(string(tok), 64)
		return f, err == nil
	}
	strList := func(raw []byte) ([]string, bool) {
		out := []string{}
		ok := elements(raw, func(start, end int) bool {
			s, ok := str(raw[start:end])
			out = append(out, s)
			return ok
		})
		return out, ok
	}
	// once marks key as read, false when it was already.
	once := func(key givenKeys) bool {
		if keys&key != 0 {
			return false
		}
		keys |= key
		return true
	}
	ok = eachTopMember(givenJSON, func(key, v []byte) bool {
		var ok bool
		switch string(key) {
		case "decisions":
			if sawDecisions {
				return false
			}
			sawDecisions = true
			ok = elements(v, func(start, end int) bool {
				d := v[start:end:end]
				if d[0] == '"' {
					s, ok := str(d)
					decisions = append(decisions, household.Decision{Text: s})
					return ok
				}
				decisions = append(decisions, household.Decision{Object: json.RawMessage(d)})
				return true
			})
		case "latencies":
			latencies = []float64{}
			ok = once(keyLatencies) && elements(v, func(start, end int) bool {
				f, ok := num(v[start:end])
				latencies = append(latencies, f)
				return ok
			})
		case "households":
			ok = once(keyHouseholds)
			if ok {
				households, ok = strList(v)
			}
		case "tools":
			ok = once(keyTools)
			if ok {
				tools, ok = strList(v)
			}
		case "timeouts":
			ok = once(keyTimeouts)
			if ok {
				timeouts, ok = strList(v)
			}
		case "toolSeconds":
			ok = once(keyToolSeconds)
			if ok {
				toolSeconds, ok = num(v)
			}
		case "maxDecisions":
			ok = once(keyMaxDecisions)
			if ok {
				maxDecisions, ok = jsontext.Int(v)
			}
		case "deadlineSeconds":
			ok = once(keyDeadlineSeconds)
			if ok {
				deadlineSeconds, ok = num(v)
			}
		}
		// Any other key is left to the plain decoder.
		return ok
	})
	if !ok {
		return nil, false
	}
	g = &given{cfg: household.NewConfig(decisions...), keys: keys}
	if keys&keyLatencies != 0 {
		g.cfg.Latencies = latencies
	}
	if keys&keyHouseholds != 0 {
		g.cfg.Households = households
	}
	if keys&keyTools != 0 {
		g.cfg.Tools = tools
	}
	if keys&keyTimeouts != 0 {
		g.cfg.Timeouts = timeouts
	}
	if keys&keyToolSeconds != 0 {
		g.cfg.ToolSeconds = toolSeconds
	}
	if keys&keyMaxDecisions != 0 {
		g.cfg.MaxDecisions = maxDecisions
	}
	if keys&keyDeadlineSeconds != 0 {
		g.cfg.DeadlineSeconds = deadlineSeconds
	}
	return g, true
}
