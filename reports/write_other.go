//go:build !(linux && (amd64 || arm64))

package reports

// exchange has no atomic implementation here; WriteDir then moves the old
// folder aside before moving the new one in.
func exchange(a, b string) error { return ErrNoExchange }
