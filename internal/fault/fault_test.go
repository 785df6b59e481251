package fault

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type testFault uint64

const (
	faultA testFault = 1 << iota
	faultB
	faultC
)

func TestSet(t *testing.T) {
	tests := []struct {
		name string
		set  Set[testFault]
		has  []testFault
		not  []testFault
	}{
		{"the zero set holds nothing", Set[testFault]{}, nil, []testFault{faultA, faultB, faultC}},
		{"one fault", Set[testFault]{}.With(faultB), []testFault{faultB}, []testFault{faultA, faultC}},
		{"two faults", Set[testFault]{}.With(faultA).With(faultC), []testFault{faultA, faultC}, []testFault{faultB}},
		{"adding a fault twice", Set[testFault]{}.With(faultA).With(faultA), []testFault{faultA}, []testFault{faultB, faultC}},
		{"a set converted from a fault", Of[testFault](uint64(faultC)), []testFault{faultC}, []testFault{faultA, faultB}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, f := range tt.has {
				assert.True(t, tt.set.Has(f), "%d", f)
			}
			for _, f := range tt.not {
				assert.False(t, tt.set.Has(f), "%d", f)
			}
		})
	}
}

func TestWithLeavesTheSetAlone(t *testing.T) {
	s := Set[testFault]{}.With(faultA)
	_ = s.With(faultB)
	assert.False(t, s.Has(faultB))
}

func TestAskingNotesEveryCheck(t *testing.T) {
	var asked uint64
	s := Of[testFault](uint64(faultA)).Asking(&asked)
	assert.True(t, s.Has(faultA))
	assert.False(t, s.Has(faultC))
	assert.Equal(t, uint64(faultA|faultC), asked, "a check notes the fault whether it is on or not")
	assert.Equal(t, uint64(faultA|faultB|faultC), func() uint64 { s.With(faultB).Has(faultB); return asked }(), "With keeps the note")
	assert.True(t, s.Asking(nil).Has(faultA))
	assert.Equal(t, uint64(faultA|faultB|faultC), asked, "a set asking nowhere notes nothing")
}

func TestAskingIsSafeAcrossGoroutines(t *testing.T) {
	var asked uint64
	s := Set[testFault]{}.Asking(&asked)
	var wg sync.WaitGroup
	for _, f := range []testFault{faultA, faultB, faultC} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				s.Has(f)
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, uint64(faultA|faultB|faultC), asked)
}

var testList = []Info[testFault]{
	{faultA, "a", "a goes wrong", "scenario test: a"},
	{faultB, "b", "b goes wrong", "scenario test: b"},
	{faultC, "c", "c goes wrong", "scenario test: c"},
}

func TestFind(t *testing.T) {
	tests := []struct {
		name  string
		fault testFault
		want  string
		found bool
	}{
		{"the first", faultA, "a", true},
		{"the last", faultC, "c", true},
		{"not listed", 1 << 5, "", false},
		{"no fault", 0, "", false},
		{"two bits are not one fault", faultA | faultB, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info, ok := Find(testList, tt.fault)
			assert.Equal(t, tt.found, ok)
			assert.Equal(t, tt.want, info.Name)
		})
	}
}

func TestCheck(t *testing.T) {
	with := func(i int, edit func(*Info[testFault])) []Info[testFault] {
		list := append([]Info[testFault](nil), testList...)
		edit(&list[i])
		return list
	}
	tests := []struct {
		name string
		list []Info[testFault]
		want string // "" for no error
	}{
		{"a good list", testList, ""},
		{"an empty list", nil, ""},
		{"out of declaration order", []Info[testFault]{testList[1], testList[0]}, `fault 0 ("b") is bit 1, want bit 0`},
		{"no bit", with(1, func(f *Info[testFault]) { f.Fault = 0 }), `fault 1 ("b") is no bit, want bit 1`},
		{"two bits", with(2, func(f *Info[testFault]) { f.Fault = faultB | faultC }), `fault 2 ("c") is 2 bits (0x6), want bit 2`},
		{"no name", with(1, func(f *Info[testFault]) { f.Name = "" }), `fault 1 has no name`},
		{"a repeated name", with(2, func(f *Info[testFault]) { f.Name = "a" }), `fault 2: the name "a" is taken`},
		{"no bug", with(0, func(f *Info[testFault]) { f.Bug = "" }), `fault "a" says no bug`},
		{"no hint", with(0, func(f *Info[testFault]) { f.Hint = "" }), `fault "a" has no hint`},
		{"a hint for another scenario", with(2, func(f *Info[testFault]) { f.Hint = "scenario other: c" }),
			`fault "c": the hint "scenario other: c" does not start with "scenario test: "`},
		{"more faults than bits", make([]Info[testFault], 65), "65 faults, more than the 64 bits of a set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Check(tt.list, "scenario test: ")
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.EqualError(t, err, tt.want)
		})
	}
}
