package gatewaycheck

import (
	"fmt"
	"strconv"

	"github.com/deskcheck/deskcheck/internal/jsontext"
	"github.com/deskcheck/deskcheck/scenario"
)

// The gateway binds an approval to the RFC 8785 canonical JSON of its
// arguments, and RFC 8785 is defined on well-formed text only: arguments
// holding an unpaired surrogate (which the host's json.loads keeps) have
// no canonical form and so no digest. Such a case is refused as invalid
// input, at the string, rather than validated and then unable to run.

// surrogateProblems reports each request's and approval's arguments that
// hold an unpaired surrogate, at the first such string or key.
func surrogateProblems(g givenBlock) []scenario.Problem {
	var ps []scenario.Problem
	report := func(at string, raw []byte) {
		if len(raw) == 0 {
			return
		}
		if ptr, key, u, ok := firstSurrogate(raw, jsontext.SkipSpace(raw, 0), at, 0); ok {
			what := "a string"
			if key {
				what = "a key"
			}
			ps = append(ps, scenario.Problem{Pointer: ptr, Key: key, Message: fmt.Sprintf(
				"%s of the arguments holds an unpaired surrogate (\\u%04x): arguments are bound by the digest of their RFC 8785 canonical JSON, which only well-formed text has; write the character whole (a pair) or leave it out", what, u)})
		}
	}
	for i, a := range g.Approvals {
		report("/given/approvals/"+strconv.Itoa(i)+"/arguments", a.Arguments)
	}
	for i, s := range g.Steps {
		if m, ok := jsontext.ReadMembers(s.Request, nil); ok {
			if args, ok := m.Get("arguments"); ok {
				report("/given/steps/"+strconv.Itoa(i)+"/request/arguments", args)
			}
		}
	}
	return ps
}

// firstSurrogate finds, in text order, the first string or key of the
// value at b[i] that holds an unpaired surrogate once decoded, and returns
// its pointer (below ptr), whether it is a key, and the surrogate.
func firstSurrogate(b []byte, i int, ptr string, depth int) (at string, key bool, u rune, found bool) {
	if i >= len(b) || depth > jsontext.HostDepth {
		return "", false, 0, false
	}
	surrogate := func(tok []byte, plain bool) (rune, bool) {
		if plain {
			return 0, false
		}
		s := jsontext.StringValue(tok, false)
		for k := 0; k+2 < len(s); k++ {
			if r, ok := jsontext.SurrogateAt(s, k); ok {
				return r, true
			}
		}
		return 0, false
	}
	switch b[i] {
	case '"':
		end, plain := jsontext.ScanString(b, i)
		if end < 0 {
			return "", false, 0, false
		}
		if r, ok := surrogate(b[i:end], plain); ok {
			return ptr, false, r, true
		}
	case '{':
		jsontext.EachMember(b, i, func(keyTok []byte, plain bool, start int) int {
			name := jsontext.StringValue(keyTok, plain)
			below := ptr + "/" + jsontext.PointerToken(name)
			if r, ok := surrogate(keyTok, plain); ok {
				at, key, u, found = below, true, r, true
				return -1
			}
			if at, key, u, found = firstSurrogate(b, start, below, depth+1); found {
				return -1
			}
			return jsontext.ScanValue(b, start, 1)
		})
	case '[':
		n := 0
		jsontext.EachElement(b, i, func(start int) int {
			if at, key, u, found = firstSurrogate(b, start, ptr+"/"+strconv.Itoa(n), depth+1); found {
				return -1
			}
			n++
			return jsontext.ScanValue(b, start, 1)
		})
	}
	return at, key, u, found
}
