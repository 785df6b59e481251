package reports

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/deskcheck/deskcheck/verifier"
)

// WriteDriftText prints a drift measurement: per case "same on all" or,
// per behaviour group, the keys whose observed value differs from the
// newest release's, with both values, and the groups the case is not
// applicable to; then the release changes no case exercises.
func WriteDriftText(w io.Writer, d verifier.Drift) error {
	p := &printer{w: w}
	hosts := map[string]string{}
	var order []string
	for _, c := range d.Cases {
		if _, ok := hosts[c.Host]; !ok && len(c.Groups) > 0 {
			// The last group's last release is the host's newest.
			last := c.Groups[len(c.Groups)-1].Releases
			hosts[c.Host] = last[len(last)-1]
			order = append(order, c.Host)
		}
	}
	for _, h := range order {
		if d.InRange {
			p.printf("Every case on every behaviour group of %s its hosts range selects, each observed key compared with the newest release it runs on (%s %s for a case that names no range):\n\n", oneLine(h), oneLine(h), oneLine(hosts[h]))
		} else {
			p.printf("Every case on every behaviour group of %s, each observed key compared with the newest release, %s %s:\n\n", oneLine(h), oneLine(h), oneLine(hosts[h]))
		}
	}
	same := 0
	for _, c := range d.Cases {
		if c.Same {
			same++
			p.printf("%s/%s: same on all %s releases\n", oneLine(c.Desk), oneLine(c.ID), oneLine(c.Host))
			continue
		}
		p.printf("%s/%s: %s\n", oneLine(c.Desk), oneLine(c.ID), oneLine(c.Title))
		var alike []string
		for _, g := range c.Groups {
			on := oneLine(c.Host + " " + g.Group + " (" + releaseList([][]string{g.Releases}) + ")")
			switch g.Status {
			case verifier.DriftSame:
				if g.Release != c.Newest {
					alike = append(alike, g.Group)
				}
			case verifier.DriftNotApplicable:
				p.printf("  %s: not applicable: %s\n", on, oneLine(g.Reason))
			case verifier.DriftErrored:
				p.printf("  %s: could not run: %s\n", on, oneLine(firstLine(g.Reason)))
			default:
				p.printf("  %s differs from %s:\n", on, oneLine(c.Newest))
				for _, x := range g.Differences {
					p.printf("    %s: %s (%s: %s)\n", oneLine(x.Key), show(x.Observed), oneLine(c.Newest), show(x.Newest))
				}
			}
		}
		if len(alike) > 0 {
			p.printf("  %s: same as %s\n", oneLine(strings.Join(alike, ", ")), oneLine(c.Newest))
		}
	}
	p.printf("\n%d of %d cases behave the same on every release", same, len(d.Cases))
	if d.Skipped > 0 {
		p.printf(" (%d cases of hosts without releases not compared)", d.Skipped)
	}
	p.printf(".\n")
	if len(d.Unexercised) == 0 {
		p.printf("Every release change the model knows is exercised by some case.\n")
		return p.err
	}
	p.printf("\nRelease changes no case exercises:\n")
	for _, ch := range d.Unexercised {
		p.printf("  %s %s: %s — %s\n", oneLine(ch.Host), oneLine(ch.Since), oneLine(ch.What), oneLine(ch.Why))
	}
	return p.err
}

// WriteDriftJSON writes a drift measurement as indented JSON.
func WriteDriftJSON(w io.Writer, d verifier.Drift) error {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(d); err != nil {
		return err
	}
	_, err := io.WriteString(w, b.String())
	return err
}
