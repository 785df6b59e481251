package verifier

import (
	"fmt"

	"github.com/deskcheck/deskcheck/scenario"
)

// Suggest names the closest known key when one is a likely misspelling.
func suggest(key string, known []string) string {
	best := scenario.Closest(key, known)
	if best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", best)
}
