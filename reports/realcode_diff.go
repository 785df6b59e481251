package reports

import (
	"fmt"
	"strings"
)

// Real-code changes between two reports, by what happened to a case's
// verdict on a real host.
const (
	RealRegressed = "regressed" // held on the real code, now fails there
	RealFixed     = "fixed"     // failed on the real code, now holds there
	RealChanged   = "changed"   // any other change of verdict
	RealNew       = "new"       // judged on the host in the head only
	RealRemoved   = "removed"   // judged on the host in the base only
	RealHostOnly  = "host in one report only"
)

// RealCodeChange is a case whose verdict on a real host changed, or a
// real host that one report has and the other has not (ID empty). Cases
// are matched by host name (by source, for a host a report runs on
// several releases) and <desk>/<case>.
type RealCodeChange struct {
	Host   string      `json:"host"`
	ID     string      `json:"id,omitempty"`
	Change string      `json:"change"`
	Before RealVerdict `json:"before,omitempty"`
	After  RealVerdict `json:"after,omitempty"`
	// BeforeOn and AfterOn name the code each verdict was found on
	// (omp@18.3.4, checkout DIR).
	BeforeOn string `json:"beforeOn,omitempty"`
	AfterOn  string `json:"afterOn,omitempty"`
}

// compareRealCode lists the real-code verdicts that changed from base to
// head, host by host in the head's order, regressions first within each.
func compareRealCode(base, head RealCode) []RealCodeChange {
	var out []RealCodeChange
	key := realRunKey(base, head)
	before := map[string]*RealCodeRun{}
	for i := range base {
		before[key(base[i].Host)] = &base[i]
	}
	seen := map[string]bool{}
	for i := range head {
		h := &head[i]
		name := key(h.Host)
		seen[name] = true
		b, ok := before[name]
		if !ok {
			out = append(out, RealCodeChange{Host: name, Change: RealHostOnly, AfterOn: h.Host.Source})
			continue
		}
		was := map[string]RealVerdict{}
		for _, c := range b.Cases {
			was[c.Desk+"/"+c.ID] = c.Verdict
		}
		var regressed, rest []RealCodeChange
		now := map[string]bool{}
		for _, c := range h.Cases {
			id := c.Desk + "/" + c.ID
			now[id] = true
			ch := RealCodeChange{Host: name, ID: id, Before: was[id], After: c.Verdict, BeforeOn: b.Host.Source, AfterOn: h.Host.Source}
			v, ok := was[id]
			switch {
			case !ok:
				ch.Change, ch.BeforeOn = RealNew, ""
			case v == c.Verdict:
				continue
			case !v.failing() && c.Verdict.failing():
				ch.Change = RealRegressed
			case v.failing() && c.Verdict == RealHolds:
				ch.Change = RealFixed
			default:
				ch.Change = RealChanged
			}
			if ch.Change == RealRegressed {
				regressed = append(regressed, ch)
			} else {
				rest = append(rest, ch)
			}
		}
		for _, c := range b.Cases {
			if id := c.Desk + "/" + c.ID; !now[id] {
				rest = append(rest, RealCodeChange{Host: name, ID: id, Change: RealRemoved, Before: c.Verdict, BeforeOn: b.Host.Source})
			}
		}
		out = append(append(out, regressed...), rest...)
	}
	for i := range base {
		if name := key(base[i].Host); !seen[name] {
			out = append(out, RealCodeChange{Host: name, Change: RealHostOnly, BeforeOn: base[i].Host.Source})
		}
	}
	return out
}

// realRunKey is what pairs a run of the base with one of the head: its
// host's name, or, for a host that one report runs on several releases
// (-host omp@*, the arena's adapters), its source, so that each release
// is compared with the same release.
func realRunKey(reports ...RealCode) func(RealCodeHost) string {
	multi := map[string]bool{}
	for _, rc := range reports {
		runs := map[string]int{}
		for _, run := range rc {
			name := hostName(run.Host)
			runs[name]++
			multi[name] = multi[name] || runs[name] > 1
		}
	}
	return func(h RealCodeHost) string {
		if multi[hostName(h)] {
			return h.Source
		}
		return hostName(h)
	}
}

// realRegressions counts the real-code verdicts that regressed.
func (d *Diff) realRegressions() int {
	n := 0
	for _, c := range d.RealCode {
		if c.Change == RealRegressed {
			n++
		}
	}
	return n
}

// realChangeText says a real-code change in one line of plain text.
func realChangeText(c RealCodeChange) string {
	if c.ID == "" {
		on := c.AfterOn + " in the head only"
		if c.AfterOn == "" {
			on = c.BeforeOn + " in the base only"
		}
		return fmt.Sprintf("%-10s %s: %s", "host", oneLine(c.Host), oneLine(on))
	}
	return fmt.Sprintf("%-10s %s on %s: %s → %s", c.Change, oneLine(c.ID), oneLine(c.Host), orDash(oneLine(string(c.Before))), orDash(oneLine(string(c.After))))
}

// writeRealCodeDiffText lists the real-code changes in DiffText.
func writeRealCodeDiffText(p *printer, d *Diff) {
	if len(d.RealCode) == 0 {
		return
	}
	p.printf("model against real code: %s\n", plural(len(d.RealCode), "change", "changes"))
	for i, c := range d.RealCode {
		if i == diffListed {
			p.printf("  … and %d more (the JSON format lists them all)\n", len(d.RealCode)-i)
			break
		}
		p.printf("  %s\n", realChangeText(c))
	}
}

// writeRealCodeDiffMarkdown lists the real-code changes in DiffMarkdown.
func writeRealCodeDiffMarkdown(p *printer, d *Diff) {
	if len(d.RealCode) == 0 {
		return
	}
	p.printf("<table>\n<tr><th>real host</th><th>case</th><th>change</th><th>before</th><th>after</th></tr>\n")
	for i, c := range d.RealCode {
		if i == diffListed {
			p.printf("</table>\n\n%d more real-code changes are not listed; `deskcheck diff -format json` lists them all.\n\n", len(d.RealCode)-i)
			return
		}
		before, after := string(c.Before), string(c.After)
		if c.ID == "" {
			before, after = c.BeforeOn, c.AfterOn
		}
		p.printf("<tr><td>%s</td><td><code>%s</code></td><td>%s</td><td>%s</td><td>%s</td></tr>\n", mdCell(c.Host), mdCell(c.ID), c.Change, mdCell(before), mdCell(after))
	}
	p.printf("</table>\n\n")
}

// realCodeDiffAnnotations are the GitHub errors of the real-code
// regressions.
func realCodeDiffAnnotations(d *Diff) []annotation {
	var out []annotation
	for _, c := range d.RealCode {
		if c.Change == RealRegressed {
			out = append(out, annotation{level: "error", title: "real code " + c.Host + ": " + c.ID + " regressed",
				message: strings.Join([]string{c.ID + " on " + c.AfterOn + ": " + string(c.After), "before, on " + c.BeforeOn + ": " + string(c.Before)}, "\n")})
		}
	}
	return out
}
