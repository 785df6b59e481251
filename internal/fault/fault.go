// Package fault holds what the host models' deliberate faults have in
// common: a fault is one bit, a set of faults is their OR, and every fault
// has a name, a line saying what goes wrong and a hint for a case that
// catches it. Each host keeps its own fault type, constants and texts.
package fault

import (
	"fmt"
	"math/bits"
	"strings"
	"sync/atomic"
)

// Set is a set of faults of type F, one bit each. The zero value is the
// correct model; checking a fault is one bit test.
//
// A set made by Asking also notes every fault the model checks, switched
// on or not. A run that never checked a fault behaves the same with it
// switched on, since the first point where the two runs could part is a
// check of that fault: that is what lets `deskcheck faults` skip such runs.
// For this to hold the model reads a set only through Has.
type Set[F ~uint64] struct {
	on    uint64
	asked *uint64
}

// Of is the set of the faults whose bits are on.
func Of[F ~uint64](on uint64) Set[F] { return Set[F]{on: on} }

// Asking returns the set that also ORs the bit of every fault Has is asked
// about into *asked (nil: notes nothing). Runs may check faults from more
// than one goroutine; the note is atomic.
func (s Set[F]) Asking(asked *uint64) Set[F] {
	s.asked = asked
	return s
}

// Has reports whether f is in the set, and notes that f was asked about.
func (s Set[F]) Has(f F) bool {
	if s.asked != nil {
		atomic.OrUint64(s.asked, uint64(f))
	}
	return s.on&uint64(f) != 0
}

// With returns the set with f added.
func (s Set[F]) With(f F) Set[F] {
	s.on |= uint64(f)
	return s
}

// Info names and explains a fault.
type Info[F ~uint64] struct {
	Fault F
	Name  string
	// Bug says what the faulty host does wrong.
	Bug string
	// Hint says what a case needs in order to catch the fault.
	Hint string
}

// Find returns the entry of f in list.
func Find[F ~uint64](list []Info[F], f F) (Info[F], bool) {
	for _, info := range list {
		if info.Fault == f {
			return info, true
		}
	}
	return Info[F]{}, false
}

// Check reports the first way in which list is not a well-formed fault
// list: the i-th entry's fault must be bit i (the constants declared with
// 1 << iota, listed in declaration order), every name must be set and
// unique, and every bug and hint set, each hint starting with hintPrefix.
func Check[F ~uint64](list []Info[F], hintPrefix string) error {
	if len(list) > 64 {
		return fmt.Errorf("%d faults, more than the 64 bits of a set", len(list))
	}
	seen := make(map[string]bool, len(list))
	for i, info := range list {
		switch {
		case uint64(info.Fault) != 1<<i:
			return fmt.Errorf("fault %d (%q) is %s, want bit %d", i, info.Name, bitsOf(uint64(info.Fault)), i)
		case info.Name == "":
			return fmt.Errorf("fault %d has no name", i)
		case seen[info.Name]:
			return fmt.Errorf("fault %d: the name %q is taken", i, info.Name)
		case info.Bug == "":
			return fmt.Errorf("fault %q says no bug", info.Name)
		case info.Hint == "":
			return fmt.Errorf("fault %q has no hint", info.Name)
		case !strings.HasPrefix(info.Hint, hintPrefix):
			return fmt.Errorf("fault %q: the hint %q does not start with %q", info.Name, info.Hint, hintPrefix)
		}
		seen[info.Name] = true
	}
	return nil
}

// bitsOf describes a fault value that is not the bit it should be.
func bitsOf(x uint64) string {
	switch n := bits.OnesCount64(x); n {
	case 0:
		return "no bit"
	case 1:
		return fmt.Sprintf("bit %d", bits.TrailingZeros64(x))
	default:
		return fmt.Sprintf("%d bits (%#x)", n, x)
	}
}
