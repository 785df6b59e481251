package scenario

import (
	"math"
	"strconv"
	"strings"
)

// A scenario's picture is the chart the HTML report draws of one case's
// run. The scenario says what to draw as data, in one of the few shapes
// the page can draw; the report lays it out, colours it and writes it as
// inline SVG. Every mark has a shape or a letter as well as a colour, so
// that a picture reads without colour, and Text says the same in words.

// Seen is what a picture is drawn from: one case's run as the report
// holds it.
type Seen struct {
	// Observed is the observed block, as JSON decodes it (numbers are
	// float64).
	Observed map[string]any
	// Expected is the expected block of a failed case, decoded the same
	// way; nil when the case did not fail.
	Expected map[string]any
	Trace    []Event
	// Unit is what Event.Seq counts.
	Unit string
}

// Drawing is a case's picture: a title, the same in words and numbers
// (Text, printed beside it), and at most one shape. A drawing with no
// shape is its text alone.
type Drawing struct {
	Title string
	Text  string

	Lanes    *Lanes
	Series   *Series
	Sequence *Sequence
	Strip    *Strip
}

// PictureUnits is the most calls, steps or requests a picture draws; its
// text says how many more there are.
const PictureUnits = 24

// LaneSteps is the most steps drawn in one lane.
const LaneSteps = 8

// Lanes draws one lane per unit of the run (a call, say): its steps as
// lettered boxes joined by lines, ending in a return or a throw. Lanes
// beyond PictureUnits and steps beyond LaneSteps are not drawn.
type Lanes []Lane

// Lane is one unit's row of Lanes.
type Lane struct {
	Label string
	Steps []Step
	End   End
}

// Step is one box of a lane: its letter, and whether the step acted (ran
// the tool, wrote the file), which fills it.
type Step struct {
	Letter string
	Acted  bool
}

// End is how a lane ends.
type End int

// The ends of a lane.
const (
	NoEnd    End = iota
	EndsWell     // a return, drawn ✓
	EndsBad      // a throw, drawn ✕
)

// Series draws lines of values by step, each point a mark, on a shared
// scale from 0, with a legend; only the first PictureUnits steps are
// drawn. XLabel names the axis of steps.
type Series struct {
	XLabel string
	Lines  []Line
}

// Line is one series: its name in the legend, its tone and mark, whether
// it is drawn dashed, and its values by step.
type Line struct {
	Name   string
	Tone   Tone
	Mark   Mark
	Dashed bool
	Values []int
}

// Sequence draws rows of marks, one mark per unit in order (the first
// PictureUnits of them), with the units numbered along the bottom; Bars,
// when any is above zero, draws a bar per unit above the rows, labelled
// BarLabel.
type Sequence struct {
	Rows     []Row
	Bars     []int
	BarLabel string
}

// Strip draws rows of marks placed at numbered positions 1..Cells (at
// most PictureUnits) along a line, with Rules across them; marks at the
// same position sit side by side, the first of them lettered.
type Strip struct {
	Cells int
	Rows  []Row
	Rules []Rule
}

// Row is one labelled row of marks.
type Row struct {
	Label string
	Marks []Placed
}

// Placed is one mark of a row: its shape, tone and letter, and, in a
// Strip, the position it is drawn at (1-based; out of range: not drawn).
type Placed struct {
	At     int
	Mark   Mark
	Tone   Tone
	Letter string
}

// Rule is a line across a Strip at the start of position At (or at its
// end when AtEnd), labelled on the side of the positions it bounds.
type Rule struct {
	At    int
	AtEnd bool
	Label string
	// Tone is Neutral for a bound (drawn dashed) and Bad for a moment
	// that passed (drawn solid).
	Tone Tone
}

// Mark is the shape of a point.
type Mark int

// The marks a picture can draw.
const (
	Circle Mark = iota
	Ring        // a hollow circle
	Square
	Cross
	Triangle
	Diamond
)

// Tone is what a mark's colour says; the page picks the colour.
type Tone int

// The tones of a picture.
const (
	Neutral  Tone = iota
	Good          // allowed, succeeded
	Bad           // denied, blocked
	Expected      // what the case expected, drawn beside what was observed
	Invalid       // refused as malformed
	Late          // timed out
	Other         // any other status
	Measured      // a measured series
)

// PictureList lists words, the first PictureUnits of them, and says how
// many there are in all when there are more.
func PictureList(words []string) string {
	return strings.Join(words[:min(len(words), PictureUnits)], ", ") + pictureMore(len(words))
}

// PictureInts lists whole numbers as PictureList lists words.
func PictureInts(xs []int) string {
	words := make([]string, 0, min(len(xs), PictureUnits))
	for _, x := range xs[:min(len(xs), PictureUnits)] {
		words = append(words, strconv.Itoa(x))
	}
	return strings.Join(words, ", ") + pictureMore(len(xs))
}

func pictureMore(n int) string {
	if n <= PictureUnits {
		return ""
	}
	return " … (" + strconv.Itoa(n) + " in all)"
}

// PictureCut says, for a picture of n units (named units, or unnamed when
// ""), which of them are drawn; "" when all are.
func PictureCut(n int, units string) string {
	if n <= PictureUnits {
		return ""
	}
	if units != "" {
		units = " " + units
	}
	return " The first " + strconv.Itoa(PictureUnits) + " of " + strconv.Itoa(n) + units + " are drawn."
}

// IntsOf reads an observed or expected array of whole numbers; false when
// the value is not one.
func IntsOf(v any) ([]int, bool) {
	arr, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]int, 0, len(arr))
	for _, x := range arr {
		f, ok := x.(float64)
		if !ok || f != math.Trunc(f) || math.Abs(f) > 1e9 {
			return nil, false
		}
		out = append(out, int(f))
	}
	return out, true
}

// StringsOf reads an observed or expected array of strings; false when
// the value is not one.
func StringsOf(v any) ([]string, bool) {
	arr, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(arr))
	for _, x := range arr {
		s, ok := x.(string)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}
