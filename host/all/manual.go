package all

import (
	"path"

	"github.com/deskcheck/deskcheck/scenario"
)

// Manual returns where a family's manual is, from the repository's root:
// the README.md of its adapter folder, host/<name>/<name>check, beside the
// model at Host.Model. The manual names every given and expected key of
// the family's scenarios, their limits and its faults; a test of this
// package holds it to the registry.
func Manual(f scenario.Family) string {
	return path.Join(f.Host.Model, path.Base(f.Host.Model)+"check", "README.md")
}
