package omp

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// The bash tool's approval declaration: bash.patterns rules, the critical
// patterns, compound && chains, and the prompt's Command: detail line. The
// command is classified as text and never run.

// ToolEra says which version of the real tools' approval declarations a
// release carries (see ToolEraFor).
type ToolEra struct {
	// Bash is BashNone (13.x, 14.x: the tool declares nothing), Bash17 or
	// Bash18.
	Bash int
	// Write is WriteNone, Write17, Write18 (18.1.16 to 18.2.9) or Write1834.
	Write int
}

// The bash declaration eras.
const (
	BashNone = iota
	Bash17   // 17.x: narrow rm pattern, no --no-preserve-root, no compound path
	Bash18   // 18.1.16 and later
)

// The write declaration eras.
const (
	WriteNone = iota
	Write17   // 17.x: internal URL scheme read from the trimmed path
	Write18   // 18.1.16 to 18.2.9
	Write1834 // 18.3.4: the internal URL router decides
)

// ToolEraFor returns the tools' era of a published release "MAJOR.MINOR.PATCH"
// (anything unparsable is the newest era).
func ToolEraFor(version string) ToolEra {
	var v Version
	if _, err := fmt.Sscanf(version, "%d.%d.%d", &v.Major, &v.Minor, &v.Patch); err != nil {
		return ToolEra{Bash: Bash18, Write: Write1834}
	}
	return ToolEraOf(v)
}

// ToolEraOf is ToolEraFor of a parsed version (ToolEraFor(v.String())).
func ToolEraOf(v Version) ToolEra {
	switch {
	case v.Major < 17:
		return ToolEra{Bash: BashNone, Write: WriteNone}
	case v.Major == 17:
		return ToolEra{Bash: Bash17, Write: Write17}
	case v.Major == 18 && (v.Minor < 3):
		return ToolEra{Bash: Bash18, Write: Write18}
	}
	return ToolEra{Bash: Bash18, Write: Write1834}
}

// CriticalFamily is one of the bash tool's critical patterns.
type CriticalFamily struct {
	// Name is the model's short name for the family.
	Name string
	// Shape is what it catches, for explanations.
	Shape string
	p     *pattern
}

// pattern is a family's regular expression, compiled on first use (most
// commands never evaluate a bash declaration), with its prefilter.
type pattern struct {
	source string
	once   sync.Once
	re     *regexp.Regexp
	pre    prefilter // a necessary condition of re, checked first
}

func (p *pattern) compiled() *pattern {
	p.once.Do(func() {
		p.re = regexp.MustCompile(p.source)
		p.pre = newPrefilter(p.source)
	})
	return p
}

// ci spells word so that it matches ASCII letters in either case, as a
// JavaScript pattern with the i flag (and no u flag) does: no other
// character folds to an ASCII letter there, unlike Go's (?i).
func ci(word string) string {
	var b strings.Builder
	for _, r := range word {
		switch {
		case 'a' <= r && r <= 'z':
			fmt.Fprintf(&b, "[%c%c]", r, r-'a'+'A')
		case 'A' <= r && r <= 'Z':
			fmt.Fprintf(&b, "[%c%c]", r-'A'+'a', r)
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	return b.String()
}

// ws and nws are JavaScript's \s and \S.
const (
	ws  = `[` + jsSpaceClass + `]`
	nws = `[^` + jsSpaceClass + `]`
)

func family(name, shape string, parts ...string) CriticalFamily {
	return CriticalFamily{Name: name, Shape: shape, p: &pattern{source: strings.Join(parts, "")}}
}

// Critical families of every release from 17.2.15 on, in the host's order;
// the rm families are the era's own.
var (
	criticalRm18 = []CriticalFamily{
		family("rm-recursive-absolute", "rm with a recursive or force flag (options on either side) and an absolute target",
			`\b`, ci("rm"), ws, `+(?:-`, nws, `+`, ws, `+)*(?:-[a-zA-Z]*[rRfF][a-zA-Z]*|--`, ci("recursive"), `|--`, ci("force"), `)`, ws, `+(?:-`, nws, `+`, ws, `+)*/`),
		family("rm-no-preserve-root", "rm with --no-preserve-root",
			`\b`, ci("rm"), ws, `+(?:-`, nws, `+`, ws, `+)*--`, ci("no-preserve-root"), `\b`),
	}
	criticalRm17 = []CriticalFamily{
		family("rm-recursive-absolute", "rm whose first word is a flag holding r, R, f or F, then an absolute target",
			`\b`, ci("rm"), ws, `+-[a-zA-Z]*[rRfF][a-zA-Z]*`, ws, `+/`),
	}
	criticalRest = []CriticalFamily{
		family("sudo-rm", "sudo rm", `\b`, ci("sudo"), ws, `+`, ci("rm"), `\b`),
		family("chmod-recursive-octal", "chmod -R with an octal mode on an absolute target",
			`\b`, ci("chmod"), ws, `+-[rR]`, ws, `+[0-7]+`, ws, `+/`),
		family("chmod-recursive-symbolic", "chmod -R with a symbolic mode on an absolute target (case-sensitive)",
			`\bchmod`, ws, `+-R`, ws, `+[ugoa+\-=rwxXst,]+`, ws, `+/`),
		family("chown-recursive", "chown -R on an absolute target", `\b`, ci("chown"), ws, `+-[rR]`, ws, `+`, nws, `+`, ws, `+/`),
		family("fork-bomb", "the fork bomb :(){ :|:", `:\(\)`, ws, `*\{`, ws, `*:`, ws, `*\|`, ws, `*:`),
		family("disk-device-write", "a redirect into /dev/sdX", `>`, ws, `*/`, ci("dev"), `/`, ci("sd"), `[a-zA-Z]`),
		family("mkfs", "mkfs", `\b`, ci("mkfs"), `(?:\.|\b)`),
		family("dd-to-device", "dd if=… of=/dev/…", `\b`, ci("dd"), ws, `+`, ci("if"), `=`, jsDot, `+`, ci("of"), `=/`, ci("dev"), `/`),
		family("shred-device", "shred /dev/…", `\b`, ci("shred"), ws, `+/`, ci("dev"), `/`),
		family("cryptsetup", "cryptsetup", `\b`, ci("cryptsetup"), `\b`),
		family("system-config-redirect", "a redirect into /etc/passwd, shadow or sudoers",
			`>`, ws, `*/`, ci("etc"), `/(?:`, ci("passwd"), `|`, ci("shadow"), `|`, ci("sudoers"), `)\b`),
		family("system-config-tee", "tee [-a] /etc/passwd, shadow or sudoers",
			`\b`, ci("tee"), ws, `+(?:-[aA]`, ws, `+)?/`, ci("etc"), `/(?:`, ci("passwd"), `|`, ci("shadow"), `|`, ci("sudoers"), `)\b`),
		family("fetch-pipe-shell", "curl, wget or fetch piped to bash, sh, zsh or fish",
			`\b(?:`, ci("curl"), `|`, ci("wget"), `|`, ci("fetch"), `)\b[^|]*\|`, ws, `*(?:`, ci("bash"), `|`, ci("sh"), `|`, ci("zsh"), `|`, ci("fish"), `)\b`),
		family("fetch-process-substitution", "bash, sh, zsh, source or . reading <(curl …)",
			`(?:^|[`, jsSpaceClass, `;&|(])(?:`, ci("bash"), `|`, ci("sh"), `|`, ci("zsh"), `|`, ci("source"), `|\.)`, ws, `+<\(`, ws, `*(?:`, ci("curl"), `|`, ci("wget"), `|`, ci("fetch"), `)\b`),
		family("eval-fetch", "eval of $(curl …) or `curl …`",
			`\b`, ci("eval"), ws, "+[\"'`]?\\$\\(", ws, `*(?:`, ci("curl"), `|`, ci("wget"), `|`, ci("fetch"), `)\b|\b`, ci("eval"), ws, "+`", ws, `*(?:`, ci("curl"), `|`, ci("wget"), `|`, ci("fetch"), `)\b`),
		family("kill-init", "kill -9 1 (case-sensitive)", `\bkill`, ws, `+-9`, ws, `+1\b`),
		family("host-power", "shutdown, poweroff, reboot or halt at command position",
			`(?:^|[`, jsSpaceClass, `;&|(])(?:`, ci("shutdown"), `|`, ci("poweroff"), `|`, ci("reboot"), `|`, ci("halt"), `)(?:`, ws, `|$|[;|&])`),
		family("init-0", "init 0 at command position", `(?:^|[`, jsSpaceClass, `;&|(])`, ci("init"), ws, `+0\b`),
		family("netcat-exec", "nc with -e or -c", `\b`, ci("nc"), `\b[^|;]*`, ws, `-[a-zA-Z]*[ecEC][a-zA-Z]*`, ws),
	}
)

// The families of each era, in the host's order, shared by every
// evaluation (which only reads them).
var (
	critical17 = append(append([]CriticalFamily{}, criticalRm17...), criticalRest...)
	critical18 = append(append([]CriticalFamily{}, criticalRm18...), criticalRest...)
)

// CriticalFamilies returns the critical pattern families of a bash era, in
// the host's order (nil for BashNone).
func CriticalFamilies(era int) []CriticalFamily {
	return append([]CriticalFamily(nil), eraFamilies(era)...)
}

// eraFamilies is CriticalFamilies without the copy.
func eraFamilies(era int) []CriticalFamily {
	switch era {
	case Bash17:
		return critical17
	case Bash18:
		return critical18
	}
	return nil
}

// Matches reports whether the family's pattern occurs in command.
func (f CriticalFamily) Matches(command string) bool {
	return f.matches(command, asciiLower(command))
}

// matches is Matches given the command's ASCII-lowercased text too: the
// pattern runs only when the prefilter lets the command through.
func (f CriticalFamily) matches(command, lower string) bool {
	p := f.p.compiled()
	return p.pre.pass(lower) && p.re.MatchString(command)
}

// BashRule is one valid bash.patterns entry.
type BashRule struct {
	// Index is the entry's position in the setting's array, invalid entries
	// counted.
	Index int
	// Match is the entry's match, normalised.
	Match    string
	Approval Policy
	parts    []string // Match split at each *
}

// BashRules reads the bash.patterns setting as the host does: anything but
// an array is no rule; an entry that is not an object, whose match is not a
// string or normalises to nothing, or whose approval is not allow, deny or
// prompt (trimmed, case-insensitive) is skipped.
func BashRules(v any) []BashRule {
	list, ok := v.([]any)
	if !ok {
		return nil
	}
	var rules []BashRule
	for i, item := range list {
		rec, ok := item.(map[string]any)
		if !ok {
			continue
		}
		m, ok := rec["match"].(string)
		if !ok {
			continue
		}
		match := normalizeBashPattern(m)
		approval := NormalizePolicy(rec["approval"])
		if match == "" || approval == "" {
			continue
		}
		rules = append(rules, BashRule{Index: i, Match: match, Approval: approval, parts: strings.Split(match, "*")})
	}
	return rules
}

// matchesWhole: the rule's glob matches the whole normalised command.
func (r BashRule) matchesWhole(command string) bool {
	n := normalizeBashPattern(command)
	return n != "" && globMatch(r.parts, n)
}

// matchesSegment: the rule's glob matches the whole normalised command or
// one of its segments; it returns the segment that matched ("" for the
// whole command).
func (r BashRule) matchesSegment(command string) (bool, string) {
	n := normalizeBashPattern(command)
	if n == "" {
		return false, ""
	}
	if globMatch(r.parts, n) {
		return true, ""
	}
	for _, s := range BashSegments(command) {
		if globMatch(r.parts, s) {
			return true, s
		}
	}
	return false, ""
}

// BashSettings are the settings the bash declaration reads.
type BashSettings struct {
	// Patterns is the raw bash.patterns value.
	Patterns any
	// AllowCompound is bash.allowCompoundCommands. The host also needs a
	// POSIX shell; the model assumes bash, as on any Linux host.
	AllowCompound bool
}

// ToolDeclaration is what a real tool's approval declaration returned for
// one input, with the rule that decided it.
type ToolDeclaration struct {
	// Raw is the declaration as the tool returns it: a Tier, or an object
	// with tier and some of policy, override, reason, policyKey.
	Raw any
	// Why names the rule that decided, for explanations.
	Why string
}

// Observed returns the declaration as the declared key observes it: an
// object (a bare tier is {"tier": …}).
func (d ToolDeclaration) Observed() map[string]any {
	switch v := d.Raw.(type) {
	case string:
		return map[string]any{"tier": v}
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = x
		}
		return out
	}
	return nil
}

const criticalReason = "Critical pattern detected"

func (e *bashEval) criticalDecl(why string) ToolDeclaration {
	raw := map[string]any{"tier": string(TierExec), "override": true, "reason": criticalReason}
	if e.faults.Has(FaultYoloPromptsCritical) {
		raw["policy"] = string(PolicyPrompt)
	}
	return ToolDeclaration{Raw: raw, Why: why + ": override with no policy, so it asks in always-ask and write modes even under a user allow, and yolo lets it run"}
}

func ruleDecl(r BashRule, seg string) ToolDeclaration {
	where := "the whole command"
	if seg != "" {
		where = fmt.Sprintf("segment %q", seg)
	}
	why := fmt.Sprintf("bash.patterns[%d] {match %q, %s} matched %s", r.Index, r.Match, r.Approval, where)
	switch r.Approval {
	case PolicyDeny:
		return ToolDeclaration{Raw: map[string]any{"tier": string(TierExec), "override": true, "policy": string(PolicyDeny), "reason": "Blocked by bash pattern: " + r.Match}, Why: why}
	case PolicyPrompt:
		return ToolDeclaration{Raw: map[string]any{"tier": string(TierExec), "override": true, "policy": string(PolicyPrompt), "reason": "Prompt required by bash pattern: " + r.Match}, Why: why}
	}
	return ToolDeclaration{Raw: map[string]any{"tier": string(TierWrite), "policy": string(PolicyAllow)}, Why: why}
}

// bashEval carries one evaluation's inputs and the faults in force.
type bashEval struct {
	era      int
	faults   Faults
	rules    []BashRule
	families []CriticalFamily
}

func newBashEval(era int, s BashSettings, faults Faults) *bashEval {
	e := &bashEval{era: era, faults: faults, rules: BashRules(s.Patterns), families: eraFamilies(era)}
	if faults.Has(FaultCriticalFamilyMissing) {
		kept := e.families[:0:0]
		for _, f := range e.families {
			if f.Name != "fetch-pipe-shell" {
				kept = append(kept, f)
			}
		}
		e.families = kept
	}
	return e
}

// critical returns the first family matching command.
func (e *bashEval) critical(command string) (CriticalFamily, bool) {
	if command == "" {
		return CriticalFamily{}, false
	}
	lower := asciiLower(command)
	for _, f := range e.families {
		if f.matches(command, lower) {
			return f, true
		}
	}
	return CriticalFamily{}, false
}

// applies reports whether rule r applies to command: an allow rule needs
// the whole command and no shell control; deny and prompt rules match the
// whole command or any segment.
func (e *bashEval) applies(command string, r BashRule) (bool, string) {
	if r.Approval == PolicyAllow {
		if !e.faults.Has(FaultAllowDespiteShellControl) && HasBashShellControl(command) {
			return false, ""
		}
		return r.matchesWhole(command), ""
	}
	if e.faults.Has(FaultSegmentMatchingOff) {
		return r.matchesWhole(command), ""
	}
	return r.matchesSegment(command)
}

// find returns the rule that decides command: the first applicable one in
// list order.
func (e *bashEval) find(command string) (BashRule, string, bool) {
	if e.faults.Has(FaultFirstMatchNotFirst) {
		for i := len(e.rules) - 1; i >= 0; i-- {
			if ok, seg := e.applies(command, e.rules[i]); ok {
				return e.rules[i], seg, true
			}
		}
		return BashRule{}, "", false
	}
	for _, r := range e.rules {
		if ok, seg := e.applies(command, r); ok {
			return r, seg, true
		}
	}
	return BashRule{}, "", false
}

// BashDeclaration is the bash tool's approval declaration for args (the
// call's parameters) in a bash era. BashNone declares nothing (Raw nil).
func BashDeclaration(era int, s BashSettings, args any) ToolDeclaration {
	return bashDeclaration(era, s, args, Faults{})
}

func bashDeclaration(era int, s BashSettings, args any, faults Faults) ToolDeclaration {
	if era == BashNone {
		return ToolDeclaration{Why: "this release's bash tool declares nothing"}
	}
	command, _ := argField(args, "command").(string)
	e := newBashEval(era, s, faults)
	var chain []ChainSegment
	if era >= Bash18 && s.AllowCompound {
		chain = LiteralAndChain(command)
	}
	var rule BashRule
	var seg string
	var found bool
	if chain != nil {
		// Rules that match only the whole chain, not any of its segments:
		// the first prompt is kept, but a later deny wins.
		for _, r := range e.rules {
			if r.Approval == PolicyAllow || !r.matchesWhole(command) {
				continue
			}
			inSegment := false
			for _, c := range chain {
				if ok, _ := r.matchesSegment(c.Text); ok {
					inSegment = true
					break
				}
			}
			if inSegment {
				continue
			}
			if r.Approval == PolicyDeny {
				rule, seg, found = r, "", true
				break
			}
			if !found {
				rule, seg, found = r, "", true
			}
		}
	} else {
		rule, seg, found = e.find(command)
	}
	if found && rule.Approval == PolicyDeny {
		return ruleDecl(rule, seg)
	}
	fam, critical := e.critical(command)
	if chain == nil && critical {
		return e.criticalDecl(fmt.Sprintf("critical pattern %s (%s)", fam.Name, fam.Shape))
	}
	if chain != nil {
		promptRule, promptSeg, havePrompt := rule, "", found
		unmatched := false
		for _, c := range chain {
			r, _, ok := e.find(c.Text)
			if ok && r.Approval == PolicyDeny {
				return ruleDecl(r, c.Text)
			}
			if ok && r.Approval == PolicyPrompt && !havePrompt {
				promptRule, promptSeg, havePrompt = r, c.Text, true
			}
			if !ok {
				unmatched = true
			}
		}
		if havePrompt {
			d := ruleDecl(promptRule, promptSeg)
			d.Why += " (in the && chain, before the critical check)"
			return d
		}
		for _, c := range chain {
			if critical {
				return e.criticalDecl(fmt.Sprintf("critical pattern %s (%s), on the whole && chain", fam.Name, fam.Shape))
			}
			if f, ok := e.critical(strings.Join(c.Argv, " ")); ok {
				return e.criticalDecl(fmt.Sprintf("critical pattern %s (%s), on the && chain's segment %q", f.Name, f.Shape, c.Text))
			}
		}
		if unmatched {
			return ToolDeclaration{Raw: string(TierExec), Why: "an && chain with a segment no rule matches: exec"}
		}
		return ToolDeclaration{Raw: map[string]any{"tier": string(TierWrite), "policy": string(PolicyAllow)}, Why: "every segment of the && chain is allowed by a rule"}
	}
	if found {
		return ruleDecl(rule, seg)
	}
	for _, r := range e.rules {
		if r.Approval == PolicyAllow && r.matchesWhole(command) {
			return ToolDeclaration{Raw: string(TierExec), Why: fmt.Sprintf(
				"bash.patterns[%d] {match %q, allow} matches the text, but the command has shell control, so no allow rule applies: exec", r.Index, r.Match)}
		}
	}
	return ToolDeclaration{Raw: string(TierExec), Why: "no bash.patterns rule and no critical pattern: exec"}
}

// BashApprovalDetails is the bash tool's prompt detail line.
func BashApprovalDetails(args any) []string {
	command, ok := argField(args, "command").(string)
	if !ok {
		command = "(missing)"
	}
	return []string{"Command: " + TruncateForPrompt(command, PromptTruncateChars)}
}

// argField reads a property of the call's parameters.
func argField(args any, key string) any {
	if m, ok := args.(map[string]any); ok {
		return m[key]
	}
	return nil
}
