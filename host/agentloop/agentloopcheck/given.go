package agentloopcheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/deskcheck/deskcheck/host/agentloop"
	"github.com/deskcheck/deskcheck/internal/jsontext"
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
	g, ok := readGivenFast(raw)
	if !ok {
		var err error
		if g, err = decodeGiven(raw); err != nil {
			return given{}, err
		}
	}
	return checkEntries(g)
}

// checkEntries refuses a script entry that is neither a tool request nor
// a final answer.
func checkEntries(g given) (given, error) {
	for i, e := range g.Script {
		if (e.Tool == nil) == (e.Final == nil) || (e.Final != nil && e.Args != nil) {
			return given{}, fmt.Errorf("the given block of a runner case: script entry %d is neither {tool[, args]} nor {final}", i)
		}
	}
	return g, nil
}

// decodeGiven decodes any given block, the reference: as the runner's
// json.loads reads it (keys compared exactly, a repeated key keeping its
// last value, strings with their escapes decoded and an unpaired
// surrogate kept), with the Go field types deciding what each value may
// be. It reads the first value of raw and ignores what follows, reads null
// as a field's zero value, and refuses an unknown key and a value of the
// wrong type.
func decodeGiven(raw []byte) (given, error) {
	var g given
	start := jsontext.SkipSpace(raw, 0)
	end := jsontext.ScanHostValue(raw, start, 0)
	if end < 0 {
		return given{}, givenError("not one valid JSON value")
	}
	top, err := membersAt(raw[start:end], "the block")
	for _, m := range top {
		switch string(m.Key) {
		case "script":
			if isNull(m.Raw) {
				break
			}
			if list, ok := jsontext.HostElements(m.Raw); ok {
				g.Script = make([]entry, len(list))
				for i, x := range list {
					if err = g.Script[i].decode(x, i); err != nil {
						break
					}
				}
			} else {
				err = typeError(m.Raw, "script", "an array")
			}
		case "maxSteps":
			g.MaxSteps, err = intAt(m.Raw, "maxSteps")
		case "maxCalls":
			g.MaxCalls, err = intAt(m.Raw, "maxCalls")
		case "writeGranted":
			switch string(m.Raw) {
			case "true", "false":
				g.WriteGranted = string(m.Raw) == "true"
			case "null":
			default:
				err = typeError(m.Raw, "writeGranted", "true or false")
			}
		default:
			err = givenError("unknown key " + jsontext.Quote(string(m.Key)))
		}
		if err != nil {
			return given{}, err
		}
	}
	return g, err
}

// decode reads script entry i.
func (e *entry) decode(raw []byte, i int) error {
	at := "script entry " + strconv.Itoa(i)
	ms, err := membersAt(raw, at)
	for _, m := range ms {
		switch string(m.Key) {
		case "tool":
			e.Tool, err = stringAt(m.Raw, at+" tool")
		case "args":
			e.Args = m.Raw
		case "final":
			e.Final, err = stringAt(m.Raw, at+" final")
		default:
			err = givenError(at + ": unknown key " + jsontext.Quote(string(m.Key)))
		}
		if err != nil {
			return err
		}
	}
	return err
}

// givenError is an error of the given block.
func givenError(msg string) error {
	return errors.New("the given block of a runner case: " + msg)
}

// isNull reports whether raw (no surrounding space) is null.
func isNull(raw []byte) bool { return string(raw) == "null" }

// membersAt reads raw as an object's members; null is none.
func membersAt(raw []byte, at string) (jsontext.Members, error) {
	if isNull(raw) {
		return nil, nil
	}
	if ms, ok := jsontext.ReadHostMembers(raw, nil); ok {
		return ms, nil
	}
	return nil, typeError(raw, at, "an object")
}

// stringAt reads raw as a string as json.loads does; null is nil.
func stringAt(raw []byte, at string) (*string, error) {
	if isNull(raw) {
		return nil, nil
	}
	s, ok := jsontext.HostString(raw)
	if !ok {
		return nil, typeError(raw, at, "a string")
	}
	return &s, nil
}

// intAt reads raw as a whole number that fits an int; null is nil.
func intAt(raw []byte, at string) (*int, error) {
	if isNull(raw) {
		return nil, nil
	}
	n, ok := jsontext.Int(raw)
	if !ok {
		return nil, typeError(raw, at, "a whole number")
	}
	return &n, nil
}

// typeError says that the value raw of at is not what it must be.
func typeError(raw []byte, at, want string) error {
	kind := "number"
	switch raw[0] {
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
	return givenError(fmt.Sprintf("%s is a JSON %s, want %s", at, kind, want))
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

// readGivenFast decodes a given block as decodeGiven does (it reads the
// first value and ignores what follows) when the block is what the case
// schema describes: every key written plainly and present once, whole
// numbers that fit an int, no null but an args value; its strings are read
// as the host reads them (an unpaired surrogate kept). Args stay slices of
// raw, as written. ok is false for any other block, which readGiven then
// leaves to decodeGiven.
func readGivenFast(raw []byte) (g given, ok bool) {
	// Bits of the keys seen in one object.
	const (
		seenScript = 1 << iota
		seenMaxSteps
		seenMaxCalls
		seenWriteGranted
		seenTool
		seenArgs
		seenFinal
	)
	once := func(seen *uint32, k uint32) bool {
		if *seen&k != 0 {
			return false
		}
		*seen |= k
		return true
	}
	// value reads the value at raw[start] with read, which reports whether
	// it was what it wanted; the walkers want its end.
	value := func(start, depth int, read func([]byte) bool) int {
		end := jsontext.ScanValue(raw, start, depth)
		if end < 0 || !read(raw[start:end:end]) {
			return -1
		}
		return end
	}
	// A string is read as the runner's json.loads reads it: escapes
	// decoded, an unpaired surrogate kept (in WTF-8 form).
	strPtr := func(v []byte, dst **string) bool {
		s, ok := jsontext.HostString(v)
		*dst = &s
		return ok
	}
	intPtr := func(v []byte, dst **int) bool {
		n, ok := jsontext.Int(v)
		*dst = &n
		return ok
	}
	var seen uint32
	end := jsontext.EachMember(raw, jsontext.SkipSpace(raw, 0), func(key []byte, _ bool, start int) int {
		switch string(key) {
		case `"script"`:
			if !once(&seen, seenScript) {
				return -1
			}
			g.Script = make([]entry, 0, 8)
			return jsontext.EachElement(raw, start, func(start int) int {
				var e entry
				var seen uint32
				end := jsontext.EachMember(raw, start, func(key []byte, _ bool, start int) int {
					switch string(key) {
					case `"tool"`:
						return value(start, 3, func(v []byte) bool { return once(&seen, seenTool) && strPtr(v, &e.Tool) })
					case `"args"`:
						return value(start, 3, func(v []byte) bool { e.Args = v; return once(&seen, seenArgs) })
					case `"final"`:
						return value(start, 3, func(v []byte) bool { return once(&seen, seenFinal) && strPtr(v, &e.Final) })
					}
					return -1
				})
				g.Script = append(g.Script, e)
				return end
			})
		case `"maxSteps"`:
			return value(start, 1, func(v []byte) bool { return once(&seen, seenMaxSteps) && intPtr(v, &g.MaxSteps) })
		case `"maxCalls"`:
			return value(start, 1, func(v []byte) bool { return once(&seen, seenMaxCalls) && intPtr(v, &g.MaxCalls) })
		case `"writeGranted"`:
			return value(start, 1, func(v []byte) bool {
				g.WriteGranted = string(v) == "true"
				return once(&seen, seenWriteGranted) && (g.WriteGranted || string(v) == "false")
			})
		}
		return -1
	})
	return g, end >= 0
}
