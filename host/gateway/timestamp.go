package gateway

import (
	"fmt"
	"regexp"
	"time"
)

// DefaultNowText is the trusted now used when a fixture gives none.
const DefaultNowText = "2026-06-01T12:00:00Z"

// timestampPattern is the only accepted timestamp shape: date, an upper-case
// T, time, one to nine fraction digits optionally, and either an upper-case
// Z or a ±HH:MM offset.
var timestampPattern = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?(Z|[+-]([0-9]{2}):([0-9]{2}))$`)

// ParseTime parses a trusted timestamp (now, expiresAt). The text must have
// the shape YYYY-MM-DDTHH:MM:SS[.1–9 digits](Z|±HH:MM) and be a valid
// RFC 3339 instant; anything else is an error. Offsets are kept, and
// instants compare at nanosecond precision, so 2026-06-01T14:00:00+02:00
// equals 2026-06-01T12:00:00Z.
func ParseTime(s string) (time.Time, error) {
	m := timestampPattern.FindStringSubmatch(s)
	if m == nil {
		return time.Time{}, fmt.Errorf("timestamp %q: want YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)", s)
	}
	// The time package accepts offsets such as +24:00 or +00:60, which
	// RFC 3339 does not.
	if m[3] != "" && (m[3] > "23" || m[4] > "59") {
		return time.Time{}, fmt.Errorf("timestamp %q: offset out of range", s)
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("timestamp %q: %w", s, err)
	}
	return t, nil
}

// DefaultNow returns the default trusted now, 2026-06-01T12:00:00Z.
func DefaultNow() time.Time {
	return time.Date(2026, time.June, 1, 12, 0, 0, 0, time.UTC)
}

// formatTime renders an instant for narration, keeping its offset.
func formatTime(t time.Time) string { return t.Format(time.RFC3339Nano) }
