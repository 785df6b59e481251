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
func Manual(f scenario.Family) string { return path.Join(adapter(f), "README.md") }

// EveryWarningDesk is the path, from the repository's root, of the
// family's desk that raises every warning its scenarios can, each
// acknowledged by its name (held by cmd/deskcheck's tests).
func EveryWarningDesk(f scenario.Family) string {
	return path.Join(adapter(f), "testdata", "every-warning", "desk.json")
}

// adapter is the folder of the family's adapter, beside its model.
func adapter(f scenario.Family) string {
	return path.Join(f.Host.Model, path.Base(f.Host.Model)+"check")
}
