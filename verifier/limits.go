package verifier

import "fmt"

// Limits bound what a case file may hold and what a case may ask for, so
// that no input can exhaust memory or time. Zero fields take the default.
type Limits struct {
	// FileSize bounds one case file, in bytes.
	FileSize int64
	// Depth bounds the nesting of objects and arrays.
	Depth int
	// Cases bounds the cases (and source-only claims) of one file.
	Cases int
	// Repeat bounds given.repeat.
	Repeat int
	// Choices bounds the scripted choices of one case.
	Choices int
	// String bounds the length of any string or key, in bytes.
	String int
}

// DefaultLimits are the limits unless the caller sets others.
var DefaultLimits = Limits{FileSize: 16 << 20, Depth: 64, Cases: 100_000, Repeat: 1000, Choices: 1000, String: 64 << 10}

// WithDefaults fills zero fields from DefaultLimits.
func (l Limits) WithDefaults() Limits {
	d := DefaultLimits
	if l.FileSize > 0 {
		d.FileSize = l.FileSize
	}
	if l.Depth > 0 {
		d.Depth = l.Depth
	}
	if l.Cases > 0 {
		d.Cases = l.Cases
	}
	if l.Repeat > 0 {
		d.Repeat = l.Repeat
	}
	if l.Choices > 0 {
		d.Choices = l.Choices
	}
	if l.String > 0 {
		d.String = l.String
	}
	return d
}

// Check reports a limit that is not positive.
func (l Limits) Check() error {
	for name, v := range map[string]int64{"file size": l.FileSize, "depth": int64(l.Depth), "cases": int64(l.Cases),
		"repeat": int64(l.Repeat), "choices": int64(l.Choices), "string": int64(l.String)} {
		if v <= 0 {
			return fmt.Errorf("the %s limit must be positive, not %d", name, v)
		}
	}
	return nil
}

func overLimit(what string, got, limit int64) string {
	return fmt.Sprintf("%s is %d, over the limit of %d", what, got, limit)
}
