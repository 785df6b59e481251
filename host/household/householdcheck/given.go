package householdcheck

import (
	"bytes"
	"encoding/json"
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

// givenText is a given block as encoding/json reads it; a pointer is nil
// for a key the block does not set.
type givenText struct {
	Decisions       []json.RawMessage `json:"decisions"`
	Latencies       *[]float64        `json:"latencies"`
	Households      *[]hostString     `json:"households"`
	Tools           *[]hostString     `json:"tools"`
	Timeouts        *[]hostString     `json:"timeouts"`
	ToolSeconds     *float64          `json:"toolSeconds"`
	MaxDecisions    *json.Number      `json:"maxDecisions"`
	DeadlineSeconds *float64          `json:"deadlineSeconds"`
}

// hostString is a string as the runtime's json.loads reads it: an
// unpaired surrogate escape kept (in WTF-8 form), never U+FFFD.
type hostString string

func (s *hostString) UnmarshalJSON(b []byte) error {
	if v, ok := jsontext.HostString(b); ok {
		*s = hostString(v)
		return nil
	}
	return json.Unmarshal(b, (*string)(s))
}

// decodeGivenPlain is the reference decoder of a given block, through
// encoding/json. A decision that is a string is raw response text; any
// other decision stays its text as written (48000000.0 is not 48000000
// to the snapshot check).
func decodeGivenPlain(givenJSON []byte) (*given, error) {
	var t givenText
	if err := json.Unmarshal(givenJSON, &t); err != nil {
		return nil, err
	}
	var decisions []household.Decision
	for _, d := range t.Decisions {
		if len(d) > 0 && d[0] == '"' {
			var s hostString
			if err := s.UnmarshalJSON(d); err != nil {
				return nil, err
			}
			decisions = append(decisions, household.Decision{Text: string(s)})
		} else {
			decisions = append(decisions, household.Decision{Object: d})
		}
	}
	g := &given{cfg: household.NewConfig(decisions...)}
	strs := func(l []hostString) []string {
		out := make([]string, len(l))
		for i, s := range l {
			out[i] = string(s)
		}
		return out
	}
	if t.Latencies != nil {
		g.cfg.Latencies = *t.Latencies
		g.keys |= keyLatencies
	}
	if t.Households != nil {
		g.cfg.Households = strs(*t.Households)
		g.keys |= keyHouseholds
	}
	if t.Tools != nil {
		g.cfg.Tools = strs(*t.Tools)
		g.keys |= keyTools
	}
	if t.Timeouts != nil {
		g.cfg.Timeouts = strs(*t.Timeouts)
		g.keys |= keyTimeouts
	}
	if t.ToolSeconds != nil {
		g.cfg.ToolSeconds = *t.ToolSeconds
		g.keys |= keyToolSeconds
	}
	if t.MaxDecisions != nil {
		// An integer literal is its value; any other number (the schema
		// refuses them) its integer part.
		n, err := strconv.Atoi(string(*t.MaxDecisions))
		if err != nil {
			f, _ := strconv.ParseFloat(string(*t.MaxDecisions), 64)
			n = int(f)
		}
		g.cfg.MaxDecisions = n
		g.keys |= keyMaxDecisions
	}
	if t.DeadlineSeconds != nil {
		g.cfg.DeadlineSeconds = *t.DeadlineSeconds
		g.keys |= keyDeadlineSeconds
	}
	return g, nil
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
	// str is a valid string token as hostString reads it.
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
		// Any other key (encoding/json matches keys without regard to
		// case) is left to the plain decoder.
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
