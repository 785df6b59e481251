package reports

import (
	"fmt"
	"strings"

	"github.com/deskcheck/deskcheck/verifier"
)

// releaseList writes releases as "18.1.16, 18.1.17" or, past three,
// "17.2.15 … 18.3.4 (10 releases)"; runs are sets of consecutive releases
// (of one case), so a list with a gap reads "13.19.0, 14.9.9, 18.1.16 …
// 18.3.4 (10 releases)". Named releases are listed one by one.
func releaseList(runs [][]string) string {
	var parts []string
	total := 0
	for _, run := range runs {
		total += len(run)
		if len(run) <= 2 || strings.Contains(run[0], "@") {
			// Named releases (NAME@VERSION) are programs, not a span of
			// versions: each is named.
			parts = append(parts, strings.Join(run, ", "))
		} else {
			parts = append(parts, run[0]+" … "+run[len(run)-1])
		}
	}
	s := strings.Join(parts, ", ")
	if total > 3 {
		s += fmt.Sprintf(" (%d releases)", total)
	}
	return s
}

// releasesWith lists the releases of c whose verdict keep accepts, as
// runs of consecutive ones.
func releasesWith(c *Case, keep func(verifier.ReleaseVerdict) bool) (host string, runs [][]string) {
	last := -2
	for i, v := range c.Releases {
		if !keep(v) {
			continue
		}
		host = v.Host
		if i == last+1 {
			runs[len(runs)-1] = append(runs[len(runs)-1], v.Release)
		} else {
			runs = append(runs, []string{v.Release})
		}
		last = i
	}
	return host, runs
}

// JudgedOn says which host releases the case was judged on ("omp 18.3.4"),
// "" for a host without releases or a case judged on none.
func JudgedOn(c *Case) string {
	host, rs := releasesWith(c, func(v verifier.ReleaseVerdict) bool { return v.Status != verifier.NotApplicable })
	if len(rs) == 0 {
		return ""
	}
	return host + " " + releaseList(rs)
}

// FailedOn names the releases a failed or errored case did not hold on,
// and those it held on: "fails on omp 17.2.15, 17.3.5; holds on 18.1.16 …
// 18.3.4 (8 releases)". "" when the case has no releases.
func FailedOn(c *Case) string {
	host, bad := releasesWith(c, func(v verifier.ReleaseVerdict) bool {
		return v.Status == verifier.Fail || v.Status == verifier.Errored
	})
	if len(bad) == 0 {
		return ""
	}
	s := "fails on " + host + " " + releaseList(bad)
	if _, good := releasesWith(c, func(v verifier.ReleaseVerdict) bool { return v.Status == verifier.Pass }); len(good) > 0 {
		s += "; holds on " + releaseList(good)
	}
	if c.Release != "" && len(c.Releases) > 1 {
		s += "; shown: the run on " + c.Release
	}
	return s
}

// NotApplicableOn lists the releases the case is not applicable to, with
// the reasons: "not applicable: omp 17.3.5 has no file-write fallback".
func NotApplicableOn(c *Case) string {
	var reasons []string
	for _, v := range c.Releases {
		if v.Status == verifier.NotApplicable {
			reasons = appendOnce(reasons, v.Reason)
		}
	}
	if len(reasons) == 0 && c.Reason != "" {
		reasons = []string{c.Reason}
	}
	if len(reasons) == 0 {
		return ""
	}
	return "not applicable: " + strings.Join(reasons, "; ")
}

// releaseHost is the host family of the case's releases.
func releaseHost(c *Case) string {
	for _, v := range c.Releases {
		return v.Host
	}
	return ""
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// mdReleaseRows bounds the rows of the Markdown releases table and the
// not-applicable list.
const mdReleaseRows = 50

// releaseRow is one set of releases and how many cases were judged on it.
type releaseRow struct {
	On    string
	Cases int
}

// judgedRows counts the cases by the releases they were judged on, in
// order of first appearance.
func judgedRows(cases []Case) []releaseRow {
	return judgedRowsOf(len(cases), func(i int) *Case { return &cases[i] })
}

// judgedRowsOf is judgedRows of the n cases at gives, which a report's
// cases need not be copied into a slice for.
func judgedRowsOf(n int, at func(int) *Case) []releaseRow {
	var rows []releaseRow
	index := map[string]int{}
	for i := range n {
		on := JudgedOn(at(i))
		if on == "" {
			continue
		}
		j, ok := index[on]
		if !ok {
			j = len(rows)
			index[on] = j
			rows = append(rows, releaseRow{On: on})
		}
		rows[j].Cases++
	}
	return rows
}

// writeReleasesMarkdown lists the releases cases were judged on and the
// cases not applicable, with their reasons.
func writeReleasesMarkdown(p *printer, r *Report) {
	rows := judgedRows(r.Cases)
	var na []*Case
	for i := range r.Cases {
		if r.Cases[i].Status == verifier.NotApplicable {
			na = append(na, &r.Cases[i])
		}
	}
	if len(rows) == 0 && len(na) == 0 {
		return
	}
	p.printf("### Host releases\n\n")
	if len(rows) > 0 {
		p.printf("<table>\n<tr><th>judged on</th><th>cases</th></tr>\n")
		for i, x := range rows {
			if i == mdReleaseRows {
				p.printf("<tr><td colspan=\"2\">%s more in report.json</td></tr>\n", verifier.Thousands(len(rows)-i))
				break
			}
			p.printf("<tr><td>%s</td><td align=\"right\">%d</td></tr>\n", mdCell(x.On), x.Cases)
		}
		p.printf("</table>\n\n")
	}
	if len(na) == 0 {
		return
	}
	p.printf("<table>\n<tr><th>not applicable</th><th>why</th></tr>\n")
	for i, c := range na {
		if i == mdReleaseRows {
			p.printf("<tr><td colspan=\"2\">%s more in report.json</td></tr>\n", verifier.Thousands(len(na)-i))
			break
		}
		p.printf("<tr><td>%s/%s</td><td>%s</td></tr>\n", mdCell(c.Desk), mdCell(c.ID), mdCell(NotApplicableOn(c)))
	}
	p.printf("</table>\n\n")
}
