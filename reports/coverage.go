package reports

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/deskcheck/deskcheck/verifier"
)

// Coverage is the boundary-coverage section: per desk and family, which of
// the family's points the cases reach.
type Coverage struct {
	Desks    []PointCoverage `json:"desks"`
	Families []PointCoverage `json:"families"`
}

// PointCoverage is one family's points as the cases of one desk (or, with
// no desk, of every desk) reach them.
type PointCoverage struct {
	Desk    string        `json:"desk,omitempty"`
	Host    string        `json:"host"`
	Reached int           `json:"reached"`
	Points  int           `json:"points"`
	List    []PointResult `json:"list"`
	// NotAddressed names the scenarios of the family the desk (or every
	// desk) has no case of, whose points are left out of Points and List
	// (cover only); Unaddressed counts those points.
	NotAddressed []string `json:"notAddressed,omitempty"`
	Unaddressed  int      `json:"unaddressedPoints,omitempty"`
}

// Addressed keeps, of each desk's and family's points, those of the
// scenarios addressed(desk, host, scenario) accepts (desk "" is every
// desk), and says which scenarios and how many points it left out: a desk
// is judged on what it has cases of, as faults does.
func (c *Coverage) Addressed(addressed func(desk, host, scenario string) bool) {
	narrow := func(list []PointCoverage) {
		for i := range list {
			d := &list[i]
			kept := d.List[:0:0]
			seen := map[string]bool{}
			for _, x := range d.List {
				if addressed(d.Desk, d.Host, x.Scenario) {
					kept = append(kept, x)
					continue
				}
				d.Unaddressed++
				if !seen[x.Scenario] {
					seen[x.Scenario] = true
					d.NotAddressed = append(d.NotAddressed, x.Scenario)
				}
			}
			d.List, d.Points, d.Reached = kept, len(kept), 0
			for _, x := range kept {
				if x.Reached > 0 {
					d.Reached++
				}
			}
		}
	}
	narrow(c.Desks)
	narrow(c.Families)
}

// notAddressedNote says which points a coverage line leaves out; "" when
// none.
func (d PointCoverage) notAddressedNote() string {
	if d.Unaddressed == 0 {
		return ""
	}
	return fmt.Sprintf("; %s of %s not addressed (no case of %s)", plural(d.Unaddressed, "point", "points"), oneLine(strings.Join(d.NotAddressed, ", ")), pronoun(len(d.NotAddressed)))
}

// pronoun is "it" or "them", for n things.
func pronoun(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// PointResult is one point and the cases that reach it.
type PointResult struct {
	Point    string `json:"point"`
	Scenario string `json:"scenario"`
	Text     string `json:"text"`
	// Reached is how many cases reach the point; Cases lists the first
	// CoverageCases of them.
	Reached int      `json:"reached"`
	Cases   []string `json:"cases"`
	// Made is a case made to reach an unreached point (cover only).
	Made *MadeCase `json:"made,omitempty"`
}

// MadeCase is a case deskcheck made from a generated input, checked on the
// model before it is shown.
type MadeCase struct {
	ID       string          `json:"id"`
	Title    string          `json:"title"`
	Scenario string          `json:"scenario"`
	Given    json.RawMessage `json:"given"`
	Expected json.RawMessage `json:"expected"`
}

// CoverageCases bounds the cases listed for one point; Reached counts
// them all.
const CoverageCases = 10

// buildCoverage is the coverage section of a verify run: the points each
// desk's cases reach (nothing more is run), or nil when no family of the
// suite declares points.
func buildCoverage(s *verifier.SuiteResult) *Coverage {
	c := verifier.MeasureCoverage(context.Background(), s.Results, false)
	if len(c.Desks) == 0 {
		return nil
	}
	return CoverageOf(c, false)
}

// CoverageOf turns a coverage measurement into its report section; made
// cases are kept when withMade is set.
func CoverageOf(c verifier.Coverage, withMade bool) *Coverage {
	conv := func(list []verifier.PointCoverage) []PointCoverage {
		out := []PointCoverage{}
		for _, d := range list {
			pc := PointCoverage{Desk: d.Desk, Host: d.Host, Reached: d.Reached(), Points: len(d.Points), List: []PointResult{}}
			for _, p := range d.Points {
				shown := p.Cases[:min(len(p.Cases), CoverageCases)]
				pr := PointResult{Point: p.Point.Name, Scenario: p.Point.Scenario, Text: p.Point.Text, Reached: len(p.Cases), Cases: append([]string{}, shown...)}
				if withMade && p.Made != nil {
					pr.Made = madeCase(p.Made)
				}
				pc.List = append(pc.List, pr)
			}
			out = append(out, pc)
		}
		return out
	}
	return &Coverage{Desks: conv(c.Desks), Families: conv(c.Families)}
}

func madeCase(m *verifier.Made) *MadeCase {
	return &MadeCase{ID: m.ID, Title: m.Title, Scenario: m.Scenario, Given: json.RawMessage(m.Given),
		Expected: json.RawMessage(verifier.FormatExpected(m.Expected, ""))}
}

func percent(k, n int) string {
	if n == 0 {
		return "n/a"
	}
	return strconv.FormatFloat(100*float64(k)/float64(n), 'f', 0, 64) + "%"
}

// WriteCoverageText prints the coverage section: a line per desk and
// family, then its points, unreached first, each unreached one with the
// case made for it when there is one. With all set every point is listed;
// otherwise only the unreached.
func WriteCoverageText(w io.Writer, c *Coverage, all bool) error {
	p := &printer{w: w}
	writeCoverageText(p, c, all)
	return p.err
}

func writeCoverageText(p *printer, c *Coverage, all bool) {
	p.printf("Boundary coverage: the points of each host's decision logic the cases reach\n")
	for _, d := range c.Desks {
		p.printf("%s on %s: %d of %d points reached (%s)%s\n", oneLine(d.Host), oneLine(d.Desk), d.Reached, d.Points, percent(d.Reached, d.Points), d.notAddressedNote())
		width := 0
		for _, x := range d.List {
			width = max(width, len(oneLine(x.Point)))
		}
		for _, x := range d.List {
			if len(x.Cases) > 0 {
				continue
			}
			p.printf("  %-9s  %-*s  %s\n", "UNREACHED", width, oneLine(x.Point), oneLine(x.Text))
			if x.Made != nil {
				p.printf("  %-9s  %-*s  reached by: scenario %s, given %s\n", "", width, "", oneLine(x.Made.Scenario), oneLine(string(x.Made.Given)))
			}
		}
		if !all {
			continue
		}
		for _, x := range d.List {
			if len(x.Cases) > 0 {
				more := ""
				if x.Reached > len(x.Cases) {
					more = " and " + strconv.Itoa(x.Reached-len(x.Cases)) + " more"
				}
				p.printf("  %-9s  %-*s  %s%s\n", "reached", width, oneLine(x.Point), oneLine(strings.Join(shortIDs(x.Cases, d.Desk), ", ")), more)
			}
		}
	}
	for _, f := range c.Families {
		p.printf("%s, every desk: %d of %d points reached (%s)%s\n", oneLine(f.Host), f.Reached, f.Points, percent(f.Reached, f.Points), f.notAddressedNote())
	}
}

// shortIDs drops the desk prefix of case ids of that desk.
func shortIDs(ids []string, desk string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = strings.TrimPrefix(id, desk+"/")
	}
	return out
}

// MutantReport is the outcome of a mutant run, as `deskcheck mutants
// -format json` prints it.
type MutantReport struct {
	Killed     int              `json:"killed"`
	Mutants    int              `json:"mutants"`
	Excluded   []string         `json:"excluded"`
	Scores     []MutantScore    `json:"scores"`
	Families   []MutantScore    `json:"families"`
	Results    []MutantResult   `json:"results"`
	Equivalent []EquivalentInfo `json:"equivalent"`
}

// MutantScore is a mutation score of one family against one desk (or,
// with no desk, every desk).
type MutantScore struct {
	Desk      string   `json:"desk,omitempty"`
	Host      string   `json:"host"`
	Killed    int      `json:"killed"`
	Mutants   int      `json:"mutants"`
	Survivors []string `json:"survivors"`
	// NotAddressed are the surviving mutants only a case of a scenario
	// the desk (or every desk) has none of can kill: left out of Mutants
	// and Survivors.
	NotAddressed []string `json:"notAddressed,omitempty"`
}

// Addressed leaves out of each score the survivors addressed(desk, host,
// mutant) does not accept (desk "" is every desk), and names them: a desk
// is judged on what it has cases of, as faults does. The tally (Killed of
// Mutants) then counts the mutants every desk together addresses.
func (r *MutantReport) Addressed(addressed func(desk, host, mutant string) bool) {
	narrow := func(list []MutantScore) {
		for i := range list {
			s := &list[i]
			kept := s.Survivors[:0:0]
			for _, name := range s.Survivors {
				if addressed(s.Desk, s.Host, name) {
					kept = append(kept, name)
				} else {
					s.NotAddressed = append(s.NotAddressed, name)
				}
			}
			s.Survivors, s.Mutants = kept, s.Mutants-len(s.NotAddressed)
		}
	}
	narrow(r.Scores)
	narrow(r.Families)
	for _, f := range r.Families {
		r.Mutants -= len(f.NotAddressed)
	}
}

// notAddressedNote says which mutants a score leaves out; "" when none.
func (s MutantScore) notAddressedNote() string {
	if len(s.NotAddressed) == 0 {
		return ""
	}
	return fmt.Sprintf("; %s not addressed (only a case of a scenario with no case here kills %s): %s",
		plural(len(s.NotAddressed), "mutant", "mutants"), pronoun(len(s.NotAddressed)), oneLine(strings.Join(s.NotAddressed, ", ")))
}

// MutantResult is one generated mutant and the cases that killed it.
type MutantResult struct {
	Mutant   string    `json:"mutant"`
	Text     string    `json:"text"`
	Killed   bool      `json:"killed"`
	KilledBy []string  `json:"killedBy"`
	Made     *MadeCase `json:"made,omitempty"`
}

// EquivalentInfo is a mutant left out for behaving like the correct host.
type EquivalentInfo struct {
	Mutant string `json:"mutant"`
	Text   string `json:"text"`
	Why    string `json:"why"`
}

// MutantsOf turns a mutant run into its report.
func MutantsOf(m verifier.Mutants) *MutantReport {
	r := &MutantReport{Mutants: len(m.Results), Excluded: append([]string{}, m.Excluded...), Scores: []MutantScore{}, Families: []MutantScore{}, Results: []MutantResult{}, Equivalent: []EquivalentInfo{}}
	for _, x := range m.Results {
		mr := MutantResult{Mutant: x.FullName(), Text: x.Mutant.Text, Killed: x.Killed(), KilledBy: append([]string{}, x.KilledBy...)}
		if x.Made != nil {
			mr.Made = madeCase(x.Made)
		}
		if mr.Killed {
			r.Killed++
		}
		r.Results = append(r.Results, mr)
	}
	conv := func(list []verifier.MutantScore) []MutantScore {
		out := []MutantScore{}
		for _, s := range list {
			out = append(out, MutantScore{Desk: s.Desk, Host: s.Host, Killed: s.Killed, Mutants: s.Total, Survivors: append([]string{}, s.Survivors...)})
		}
		return out
	}
	r.Scores, r.Families = conv(m.Desks), conv(m.Families)
	for _, e := range m.Equivalent {
		r.Equivalent = append(r.Equivalent, EquivalentInfo{Mutant: e.FullName(), Text: e.Mutant.Text, Why: e.Mutant.Equivalent})
	}
	return r
}

// WriteMutantsText prints a mutant run: the survivors of each desk with
// what they do and a case that kills them, the mutation scores, the
// mutants left out as equivalent, and the tally.
func WriteMutantsText(w io.Writer, r *MutantReport) error {
	p := &printer{w: w}
	byName := map[string]MutantResult{}
	for _, x := range r.Results {
		byName[x.Mutant] = x
	}
	p.printf("Generated mutants: each changes one rule of a host's decision logic\n")
	for _, s := range r.Scores {
		p.printf("%s on %s: %d of %d mutants killed (%s)%s\n", oneLine(s.Host), oneLine(s.Desk), s.Killed, s.Mutants, percent(s.Killed, s.Mutants), s.notAddressedNote())
		for _, name := range s.Survivors {
			x := byName[name]
			p.printf("  SURVIVED  %s: %s\n", oneLine(name), oneLine(x.Text))
			if x.Made != nil {
				p.printf("            killed by: scenario %s, given %s\n", oneLine(x.Made.Scenario), oneLine(string(x.Made.Given)))
			} else {
				p.printf("            no generated input tells it from the correct host\n")
			}
		}
	}
	for _, s := range r.Families {
		p.printf("%s, every desk: %d of %d mutants killed (%s)%s\n", oneLine(s.Host), s.Killed, s.Mutants, percent(s.Killed, s.Mutants), s.notAddressedNote())
	}
	for _, e := range r.Equivalent {
		p.printf("(left out, equivalent: %s — %s: %s)\n", oneLine(e.Mutant), oneLine(e.Text), oneLine(e.Why))
	}
	for _, id := range r.Excluded {
		p.printf("(left out: %s fails on the correct model)\n", oneLine(id))
	}
	p.printf("%d of %d mutants killed\n", r.Killed, r.Mutants)
	return p.err
}

// writeCoverageMarkdown prints the coverage table as HTML (desk ids are
// case data): per desk and family, the points reached and the unreached
// ones, the first mdDeskRows desks.
func writeCoverageMarkdown(p *printer, c *Coverage) {
	if len(c.Desks) == 0 {
		return
	}
	p.printf("## Boundary coverage\n\n<table>\n<tr><th>desk</th><th>host</th><th>points reached</th><th>unreached</th></tr>\n")
	for i, d := range c.Desks {
		if i == mdDeskRows {
			break
		}
		var gaps []string
		for _, x := range d.List {
			if len(x.Cases) == 0 {
				gaps = append(gaps, "<code>"+mdCell(x.Point)+"</code>")
			}
		}
		p.printf("<tr><td>%s</td><td>%s</td><td align=\"right\">%d/%d</td><td>%s</td></tr>\n", mdCell(d.Desk), mdCell(d.Host), d.Reached, d.Points, strings.Join(gaps, " "))
	}
	p.printf("</table>\n")
	if n := len(c.Desks) - mdDeskRows; n > 0 {
		p.printf("<p>%s more desks in report.json.</p>\n", verifier.Thousands(n))
	}
	p.printf("\n")
}
