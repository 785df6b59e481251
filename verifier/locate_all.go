package verifier

import "sort"

// LocateAll returns the line and column (1-based) of the value each JSON
// pointer names in the desk's file, as Locate would, with one walk of the
// file for all of them: locating every failed case of a large file costs
// no more than locating one.
func (d *Desk) LocateAll(ptrs []string) (lines, cols []int) {
	offs := d.offsets(ptrs, make([]bool, len(ptrs)))
	lines, cols = make([]int, len(ptrs)), make([]int, len(ptrs))
	// Positions are counted forward from the last one asked for, so they
	// are asked for in file order.
	order := make([]int, len(offs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return offs[order[a]] < offs[order[b]] })
	pos := d.position()
	for _, i := range order {
		lines[i], cols[i] = pos.at(offs[i])
	}
	return lines, cols
}
