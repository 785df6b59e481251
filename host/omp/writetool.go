package omp

import (
	"fmt"
	"regexp"
	"strings"
)

// The write tool's approval declaration: hashline path headers, xd://
// devices, ssh:// targets and the built-in internal URL schemes, per era.
// Only the path is classified; nothing is written.

// The xd:// devices that need no mounted device.
const (
	XdReportIssue = "report_issue"
)

var xdResolution = map[string]bool{"resolve": true, "reject": true, "propose": true}

// hashlineTag is a hashline header's trailing tag: # and four hex digits.
var hashlineTag = regexp.MustCompile(`#[0-9A-Fa-f]{4}$`)

// UnwrapHashlinePath strips a hashline header `[path]` or `[path#TAG]` (TAG
// four hex digits) from a write target, after trimming its end; any other
// shape is returned unchanged.
func UnwrapHashlinePath(target string) string {
	trimmed := strings.TrimRightFunc(target, isJSSpace)
	if len(trimmed) < 2 || trimmed[0] != '[' || trimmed[len(trimmed)-1] != ']' {
		return target
	}
	inner := trimmed[1 : len(trimmed)-1]
	part := inner
	if loc := hashlineTag.FindStringIndex(inner); loc != nil {
		part = inner[:loc[0]]
	}
	if part == "" || strings.Contains(part, "#") {
		return target
	}
	return part
}

// ParseXdName reads an xd:// target as the host does: the trimmed path
// must start with xd:// (any case); the name is what follows, "" for the
// root; ok is false when the path is no xd:// URL or the name holds /, ?
// or #.
func ParseXdName(path string) (name string, ok bool) {
	t := JSTrim(path)
	if len(t) < 5 || asciiLower(t[:5]) != "xd://" {
		return "", false
	}
	name = t[5:]
	if strings.ContainsAny(name, "/?#") {
		return "", false
	}
	return name, true
}

// topLevelInternal are the internal URL prefixes the write tool knows up to
// 18.2.9 (case-sensitive).
var topLevelInternal = []string{"agent://", "artifact://", "skill://", "rule://", "security://", "local://", "mcp://", "ssh://", "vault://"}

// atShorthands are the prefixes after a leading @ that the host's path
// expansion unwraps.
var atShorthands = []string{"agent://", "artifact://", "skill://", "rule://", "security://", "local:", "mcp://"}

var (
	deColon     = regexp.MustCompile(`^:(?:[/\\~]|\.\.?[/\\]|[A-Za-z]:)`)
	localSingle = regexp.MustCompile(`^local:/(?:[^/]|$)`)
	driveAbs    = regexp.MustCompile(`^[A-Za-z]:[/\\]`)
)

// normalizeLocal rewrites local:/x to local://x.
func normalizeLocal(p string) string {
	if localSingle.MatchString(p) {
		return "local://" + p[len("local:/"):]
	}
	return p
}

// expandWritePath is the part of the host's path expansion that decides
// whether a path becomes an internal URL: a stray leading colon, a leading
// @ before an absolute path or an internal shorthand. A file:// URL and a
// ~ path become filesystem paths ("" here: never internal). Windows prefix
// stripping and drive aliases do nothing on a Linux host.
func expandWritePath(p string) string {
	if deColon.MatchString(p) {
		p = p[1:]
	}
	if strings.HasPrefix(p, "@") {
		w := p[1:]
		strip := strings.HasPrefix(w, "/") || strings.HasPrefix(w, `\`) || w == "~" || strings.HasPrefix(w, "~/") || driveAbs.MatchString(w)
		for _, s := range atShorthands {
			strip = strip || strings.HasPrefix(w, s)
		}
		if strip {
			p = w
		}
	}
	if len(p) >= 7 && asciiLower(p[:7]) == "file://" {
		return ""
	}
	if strings.HasPrefix(p, "~") {
		return ""
	}
	return p
}

// internalPrefix returns the scheme of the top-level internal prefix p
// starts with.
func internalPrefix(p string) (string, bool) {
	for _, pre := range topLevelInternal {
		if strings.HasPrefix(p, pre) {
			return strings.TrimSuffix(pre, "://"), true
		}
	}
	return "", false
}

// urlScheme is a hierarchical scheme:// at the start of a string.
var urlScheme = regexp.MustCompile(`^([a-zA-Z][a-zA-Z0-9+.-]*)://`)

// writeHandlers17 are the schemes whose handler has a write hook up to
// 18.2.9.
var writeHandlers17 = map[string]bool{"vault": true, "ssh": true, "xd": true}

// Scheme1834 is what 18.3.4's router declares for a write to one of its
// built-in schemes: Tier, or Deny (read-only: denied at the gate).
type Scheme1834 struct {
	Tier Tier
	Deny bool
}

// Schemes1834 are 18.3.4's built-in internal URL schemes and their write
// declarations (xd is the device rule).
var Schemes1834 = map[string]Scheme1834{
	"skill": {Deny: true}, "rule": {Deny: true}, "memory": {Deny: true}, "agent": {Tier: TierRead},
	"history": {Deny: true}, "artifact": {Deny: true}, "local": {Tier: TierRead}, "proc": {Tier: TierExec},
	"cfg": {Tier: TierWrite}, "ssh": {Tier: TierExec}, "security": {Deny: true}, "vault": {Tier: TierWrite},
	"issue": {Deny: true}, "pr": {Deny: true}, "mcp": {Deny: true}, "omp": {Deny: true},
	"xd": {}, "attachment": {Deny: true}, "conflict": {Tier: TierWrite},
}

var singleSlashAlias = regexp.MustCompile(`^([a-zA-Z][a-zA-Z0-9+.-]*):/(?:[^/]|$)`)

// WriteDeclaration is the write tool's approval declaration for args in a
// write era. WriteNone declares nothing (Raw nil).
func WriteDeclaration(era int, args any) ToolDeclaration {
	if era == WriteNone {
		return ToolDeclaration{Why: "this release's write tool declares nothing"}
	}
	raw, ok := argField(args, "path").(string)
	if !ok {
		return ToolDeclaration{Raw: string(TierWrite), Why: "path is not a string: write"}
	}
	path := UnwrapHashlinePath(raw)
	unwrapped := ""
	if path != raw {
		unwrapped = fmt.Sprintf(" (hashline header unwrapped to %q)", path)
	}
	if era == Write1834 {
		return write1834(path, unwrapped)
	}
	if name, ok := ParseXdName(path); ok {
		return xdDeclaration(name, unwrapped)
	}
	if strings.Contains(asciiLower(path), "ssh://") {
		return ToolDeclaration{Raw: string(TierExec), Why: "the path holds ssh:// (anywhere, any case): exec" + unwrapped}
	}
	n := normalizeLocal(expandWritePath(normalizeLocal(path)))
	scheme, internal := internalPrefix(n)
	if !internal {
		return ToolDeclaration{Raw: string(TierWrite), Why: "a plain path: write" + unwrapped}
	}
	if era == Write17 {
		// 17.x reads the scheme from the trimmed path, not the expanded one.
		m := urlScheme.FindStringSubmatch(JSTrim(path))
		if m == nil || !writeHandlers17[asciiLower(m[1])] {
			return ToolDeclaration{Raw: string(TierRead), Why: fmt.Sprintf("internal URL %s:// whose handler has no write hook: read", scheme) + unwrapped}
		}
		return ToolDeclaration{Raw: string(TierWrite), Why: fmt.Sprintf("internal URL %s:// whose handler writes: write", asciiLower(m[1])) + unwrapped}
	}
	if writeHandlers17[scheme] {
		return ToolDeclaration{Raw: string(TierWrite), Why: fmt.Sprintf("internal URL %s:// whose handler writes: write", scheme) + unwrapped}
	}
	return ToolDeclaration{Raw: string(TierRead), Why: fmt.Sprintf("internal URL %s:// whose handler has no write hook: read", scheme) + unwrapped}
}

func xdDeclaration(name, unwrapped string) ToolDeclaration {
	switch {
	case name == XdReportIssue:
		return ToolDeclaration{Raw: string(TierWrite), Why: "xd://report_issue: write" + unwrapped}
	case xdResolution[name]:
		return ToolDeclaration{Raw: string(TierRead), Why: fmt.Sprintf("xd://%s, a resolution device: read", name) + unwrapped}
	case name == "":
		return ToolDeclaration{Raw: string(TierExec), Why: "xd:// names no device: exec" + unwrapped}
	}
	return ToolDeclaration{Raw: string(TierExec), Why: fmt.Sprintf("xd://%s: no device is mounted (not modelled): exec", name) + unwrapped}
}

func write1834(path, unwrapped string) ToolDeclaration {
	url := path
	if m := singleSlashAlias.FindStringSubmatch(path); m != nil && asciiLower(m[1]) == "local" {
		url = m[1] + "://" + path[len(m[1])+2:]
	}
	m := urlScheme.FindStringSubmatch(url)
	if m == nil {
		return ToolDeclaration{Raw: string(TierWrite), Why: "not a URL of a registered scheme: write" + unwrapped}
	}
	scheme := asciiLower(m[1])
	spec, ok := Schemes1834[scheme]
	switch {
	case !ok:
		return ToolDeclaration{Raw: string(TierWrite), Why: fmt.Sprintf("%s:// is no built-in scheme: write", scheme) + unwrapped}
	case scheme == "xd":
		name, ok := ParseXdName(url)
		if !ok {
			return ToolDeclaration{Raw: string(TierExec), Why: "an xd:// name holding /, ? or #: exec" + unwrapped}
		}
		return xdDeclaration(name, unwrapped)
	case spec.Deny:
		reason := scheme + ":// URLs are read-only"
		return ToolDeclaration{Raw: map[string]any{"tier": string(TierWrite), "policy": string(PolicyDeny), "reason": reason}, Why: fmt.Sprintf("%s:// has no write: denied at the gate", scheme) + unwrapped}
	}
	return ToolDeclaration{Raw: string(spec.Tier), Why: fmt.Sprintf("%s:// declares %s for writes", scheme, spec.Tier) + unwrapped}
}

// WriteApprovalDetails is the write tool's prompt detail lines: the path
// ("(missing)" when not a string) and the content (empty when not a
// string), each truncated.
func WriteApprovalDetails(args any) []string {
	path, ok := argField(args, "path").(string)
	if !ok {
		path = "(missing)"
	}
	content, _ := argField(args, "content").(string)
	return []string{"Path: " + TruncateForPrompt(path, PromptTruncateChars), "Content:\n" + TruncateForPrompt(content, PromptTruncateChars)}
}

// RealTool returns the host's own bash or write tool in era, with the
// settings the declarations read; ok is false for any other name.
func RealTool(name string, era ToolEra, s BashSettings, faults Faults) (Tool, bool) {
	switch name {
	case "bash":
		if era.Bash == BashNone {
			return Tool{Name: name}, true
		}
		return Tool{Name: name, Approval: ApprovalFunc(func(args any) (any, error) {
			return bashDeclaration(era.Bash, s, args, faults).Raw, nil
		}), FormatApprovalDetails: BashApprovalDetails}, true
	case "write":
		if era.Write == WriteNone {
			return Tool{Name: name}, true
		}
		return Tool{Name: name, Approval: ApprovalFunc(func(args any) (any, error) {
			return WriteDeclaration(era.Write, args).Raw, nil
		}), FormatApprovalDetails: WriteApprovalDetails}, true
	}
	return Tool{}, false
}

// Declare returns the declaration of the host's own tool name for args.
func Declare(name string, era ToolEra, s BashSettings, args any, faults Faults) (ToolDeclaration, bool) {
	switch name {
	case "bash":
		return bashDeclaration(era.Bash, s, args, faults), true
	case "write":
		return WriteDeclaration(era.Write, args), true
	}
	return ToolDeclaration{}, false
}
