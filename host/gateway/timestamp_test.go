package gateway

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseTimeAccepts(t *testing.T) {
	noon := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		in   string
		want time.Time
	}{
		{"UTC with Z", "2026-06-01T12:00:00Z", noon},
		{"a positive offset is the same instant", "2026-06-01T14:00:00+02:00", noon},
		{"a negative offset with minutes", "2026-06-01T06:30:00-05:30", noon},
		{"minus zero offset", "2026-06-01T12:00:00-00:00", noon},
		{"one fraction digit", "2026-06-01T12:00:00.5Z", noon.Add(500 * time.Millisecond)},
		{"nine fraction digits", "2026-06-01T12:00:00.000000001Z", noon.Add(time.Nanosecond)},
		{"largest offset", "2026-06-01T12:00:00+23:59", noon.Add(-23*time.Hour - 59*time.Minute)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseTime(tt.in)
			require.NoError(t, err)
			assert.True(t, got.Equal(tt.want), "got %s", got)
		})
	}
}

func TestParseTimeRejects(t *testing.T) {
	tests := []struct {
		name string
		in   string
	}{
		{"lower-case t", "2026-06-01t12:00:00Z"},
		{"lower-case z", "2026-06-01T12:00:00z"},
		{"no offset", "2026-06-01T12:00:00"},
		{"space for T", "2026-06-01 12:00:00Z"},
		{"ten fraction digits", "2026-06-01T12:00:00.0000000001Z"},
		{"a dot without digits", "2026-06-01T12:00:00.Z"},
		{"offset without colon", "2026-06-01T12:00:00+0200"},
		{"offset hours only", "2026-06-01T12:00:00+02"},
		{"offset hour 24", "2026-06-01T12:00:00+24:00"},
		{"offset minute 60", "2026-06-01T12:00:00+00:60"},
		{"no seconds", "2026-06-01T12:00Z"},
		{"date only", "2026-06-01"},
		{"month 13", "2026-13-01T12:00:00Z"},
		{"February 30", "2026-02-30T12:00:00Z"},
		{"hour 24", "2026-06-01T24:00:00Z"},
		{"leap second", "2026-06-30T23:59:60Z"},
		{"leading space", " 2026-06-01T12:00:00Z"},
		{"trailing newline", "2026-06-01T12:00:00Z\n"},
		{"five-digit year", "12026-06-01T12:00:00Z"},
		{"empty", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseTime(tt.in)
			assert.Error(t, err)
		})
	}
}

func TestDefaultNow(t *testing.T) {
	parsed, err := ParseTime(DefaultNowText)
	require.NoError(t, err)
	assert.True(t, DefaultNow().Equal(parsed), "DefaultNow and DefaultNowText agree")
}
