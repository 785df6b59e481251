//go:build !linux

package folder

// exchange has no atomic implementation here; Write then moves the old
// folder aside before moving the new one in.
func exchange(a, b string) error { return ErrNoExchange }
