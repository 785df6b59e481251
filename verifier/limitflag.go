package verifier

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// LimitValue reads the value of a limit flag: a positive whole number
// written in digits. One too large for the limit's type is named as such,
// with the largest it may be.
func LimitValue(name, s string, largest int64) (int64, error) {
	digits := s != ""
	for i := 0; i < len(s); i++ {
		digits = digits && '0' <= s[i] && s[i] <= '9'
	}
	n, err := strconv.ParseInt(s, 10, 64)
	switch {
	case digits && (errors.Is(err, strconv.ErrRange) || err == nil && n > largest):
		return 0, fmt.Errorf("%s is too large: %s is over the largest value, %d", name, s, largest)
	case !digits || err != nil || n <= 0:
		return 0, fmt.Errorf("%s must be a positive whole number, not %q", name, s)
	}
	return n, nil
}

// ScenarioLimit is a flag that sets one scenario limit into Into: the
// one Name names, or, with no Name, the one its value names
// (SCENARIO.NAME=N). Limits.CheckNames refuses a name no scenario
// declares.
type ScenarioLimit struct {
	Into map[string]int
	Name string
}

func (f ScenarioLimit) String() string { return "" }

// Set reads one value of the flag.
func (f ScenarioLimit) Set(v string) error {
	name, num := f.Name, v
	if name == "" {
		var ok bool
		name, num, ok = strings.Cut(v, "=")
		if !ok || !strings.Contains(name, ".") {
			return fmt.Errorf("want SCENARIO.NAME=N, not %q", v)
		}
	}
	n, err := LimitValue(name, num, math.MaxInt)
	if err != nil {
		return err
	}
	f.Into[name] = int(n)
	return nil
}
