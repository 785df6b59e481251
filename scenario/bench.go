package scenario

// Shape is a case a generator of large desks repeats with variations: its
// scenario, and its given and expected blocks as JSON text in which %TOOL%,
// %WORD% and %N% stand for a tool name, a word and a whole number, none of
// which changes the outcome. Source is the key and file of the desk's
// sources its cases cite.
type Shape struct {
	Scenario, Given, Expected string
	Source                    [2]string
}

// Worst is one of a family's most expensive desks at the default limits:
// the generator writes its cases, case i as JSON text, while the next fits
// under the file size limit and Case returns one ("" ends the desk early).
type Worst struct {
	Name string
	Case func(i int) string
	// Reaches says which default limits the desk reaches.
	Reaches Reach
}

// Reach names default limits a worst desk is made to reach.
type Reach int

// The limits a worst desk can reach.
const (
	// ReachesFileSize: the desk fills the file size limit.
	ReachesFileSize Reach = 1 << iota
	// ReachesCopies: its cases copy what one run may.
	ReachesCopies
	// ReachesWork: its cases script the work of a file.
	ReachesWork
)
