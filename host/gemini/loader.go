package gemini

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf16"
)

// The TOML loader (policy/toml-loader.js loadPoliciesFromToml) and the
// rule patterns (policy/utils.js buildArgsPatterns).

// Tier is a policy tier; its number is the base of its rules' priorities.
type Tier int

// The tiers the model loads (the workspace tier is never loaded by the
// CLI in any modelled release).
const (
	TierDefault   Tier = 1
	TierExtension Tier = 2
	TierUser      Tier = 4
	TierAdmin     Tier = 5
)

func (t Tier) String() string {
	switch t {
	case TierDefault:
		return "default"
	case TierExtension:
		return "extension"
	case TierUser:
		return "user"
	case TierAdmin:
		return "admin"
	}
	return "workspace"
}

// Rule is one rule of the engine.
type Rule struct {
	ToolName    string
	Subagent    *string
	McpName     *string
	Decision    string
	Priority    float64
	Modes       []string
	Interactive *bool
	// Annotations are the rule's toolAnnotations (nil: none).
	Annotations map[string]any
	// Pattern is the compiled argsPattern (nil: none); PatternSource its
	// JavaScript text.
	Pattern          *JSRegExp
	PatternSource    string
	AllowRedirection bool
	Source           string
	DenyMessage      *string
	// Where the rule comes from, for narration and lint: its tier, its
	// file ("" for settings and remembered rules), the index of its
	// [[rule]] table in the file, and which prefix of a list it stands
	// for.
	Tier      Tier
	File      string
	Index     int
	Prefix    string
	HasPrefix bool
	// Remembered marks a rule added from a remembered answer.
	Remembered bool
	// Settings names the settings key a settings rule comes from.
	Settings string
}

// PolicyProblem is a problem the loader reports (coreEvents.emitFeedback).
type PolicyProblem struct {
	Warning bool
	Text    string
}

var (
	decisions = map[string]bool{"allow": true, "deny": true, "ask_user": true}
	modeNames = map[string]bool{"default": true, "autoEdit": true, "yolo": true, "plan": true}
)

// escapeRegex is the host's escapeRegex.
func escapeRegex(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`-[]{}()*+?.,\^$|#"`, r) || isJSSpace(r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// prefixPattern is the pattern a commandPrefix becomes.
func prefixPattern(prefix string, boundary bool) string {
	enc := JSONString(prefix)
	open := enc[:len(enc)-1]
	p := escapeRegex(`"command":` + open)
	if boundary {
		p += `(?:[\s"]|\\")`
	}
	return p
}

// loadedFile is what one policy file gives the engine.
type loadedFile struct {
	rules    []*Rule
	problems []PolicyProblem
	checkers bool
	// outside is the first valid pattern the model does not run (nil:
	// none): the engine refuses to decide rather than guess.
	outside error
}

// rawRule is one [[rule]] table after the schema check.
type rawRule struct {
	toolNames        []string
	toolNameList     bool
	subagent         *string
	mcpName          *string
	argsPattern      *string
	commandPrefix    []string
	hasCommandPrefix bool
	prefixPresent    bool
	commandRegex     *string
	decision         string
	priority         float64
	modes            []string
	hasModes         bool
	interactive      *bool
	annotations      map[string]any
	allowRedirection *bool
	denyMessage      *string
}

// readFileResult is a policy file's text parsed and validated: its rules,
// only read once made, and whether it declares safety checkers.
type readFileResult struct {
	// tables are the file's [[rule]] tables as written, for lint
	// (RuleTables); shared, so read and never changed.
	tables              []map[string]any
	raws                []rawRule
	checkers            bool
	parseErr, schemaErr error
	// schemaText is what the host says of a file zod refuses.
	schemaText string
	// notes are the loader's problems with the rules, in its order:
	// they depend on the rules and the release's built-in tool names
	// alone, so they are worked out with them, for G2 on ([0]) and G1.
	notes [2][]fileNote
}

// fileNote is one problem the loader finds with a file's rules, before
// the file's tier and name are put to it.
type fileNote struct {
	warning          bool
	message, details string
}

// ruleNotes finds what the loader says of a file's rules: the shell
// syntax of each, then for each rule an empty toolName (which drops the
// rule) or its unrecognised tool names.
func ruleNotes(raws []rawRule, builtins []string) []fileNote {
	var out []fileNote
	for i, r := range raws {
		if msg := shellSyntaxProblem(r, i); msg != "" {
			out = append(out, fileNote{false, "Invalid shell command syntax", msg})
		}
	}
	for i, r := range raws {
		empty := false
		for _, n := range r.toolNames {
			if n == "" {
				empty = true
			}
		}
		if empty {
			out = append(out, fileNote{false, "Invalid policy rule: toolName cannot be empty string", fmt.Sprintf("Rule #%d contains an empty toolName string. Use \"*\" to match all tools.", i+1)})
			continue
		}
		for _, n := range r.toolNames {
			if w := toolNameWarning(n, i, builtins); w != "" {
				out = append(out, fileNote{true, "Unrecognized tool name", w})
			}
		}
	}
	return out
}

// filesRead remembers the files read so far, up to filesReadLimit of them,
// each no longer than filesReadText and together no longer than
// cachedTextBytes: every engine reads the release's default policies, so
// the same texts are parsed once per case otherwise. What a file keeps
// grows with its text, so the texts' total bounds the cache's memory.
var filesRead = struct {
	sync.Mutex
	m     map[string]readFileResult
	bytes int
}{m: map[string]readFileResult{}}

const (
	filesReadLimit = 1024
	filesReadText  = 64 << 10
	// cachedTextBytes bounds the texts each of the caches of policy
	// files holds together (filesRead, ownLoaded).
	cachedTextBytes = 1 << 20
	// tablesKeptText: the rule tables as written (maps, several times
	// the text) are kept for lint only for a text this long at most; a
	// longer one is parsed again when lint asks.
	tablesKeptText = 4 << 10
)

// readFile parses and validates a policy file's text.
func readFile(text string) readFileResult {
	filesRead.Lock()
	r, ok := filesRead.m[text]
	filesRead.Unlock()
	if ok {
		return r
	}
	doc, err := parseTOML(text)
	if err != nil {
		r.parseErr = err
	} else {
		if len(text) <= tablesKeptText {
			r.tables = ruleTables(doc)
		}
		// zod decides whether the file loads and says why not;
		// validateFile reads the rules of a file it takes (and refuses
		// nothing zod takes: TestZodRefusesWhatTheModelRefuses).
		_, r.checkers = doc["safety_checker"]
		if r.schemaText = zodIssues(doc); r.schemaText != "" {
			r.schemaErr = errors.New(r.schemaText)
		} else if r.raws, r.schemaErr = validateFile(doc); r.schemaErr != nil {
			r.schemaText = r.schemaErr.Error()
		} else {
			r.notes[0], r.notes[1] = ruleNotes(r.raws, builtinTools), ruleNotes(r.raws, builtinToolsG1)
		}
	}
	if len(text) <= filesReadText {
		filesRead.Lock()
		if len(filesRead.m) < filesReadLimit && filesRead.bytes+len(text) <= cachedTextBytes {
			filesRead.m[text] = r
			filesRead.bytes += len(text)
		}
		filesRead.Unlock()
	}
	return r
}

// loadFile reads one policy file of tier t as the host's loader does.
func (e *Engine) loadFile(name, text string, t Tier) loadedFile {
	var out loadedFile
	tierName := t.String()
	// The host's formatPolicyError: "[TIER] Policy file error in NAME:",
	// the message, then the details.
	report := func(warning bool, message, details, suggestion string) {
		severity := "error"
		if warning {
			severity = "warning"
		}
		text := fmt.Sprintf("[%s] Policy file %s in %s:\n  %s", strings.ToUpper(tierName), severity, name, message)
		if details != "" {
			text += "\n" + details
		}
		if suggestion != "" {
			text += "\n  Suggestion: " + suggestion
		}
		out.problems = append(out.problems, PolicyProblem{Warning: warning, Text: text})
	}
	read := readFile(text)
	if read.parseErr != nil {
		report(false, "TOML parsing failed", read.parseErr.Error(), "Check for syntax errors like missing quotes, brackets, or commas")
		return out
	}
	if read.schemaErr != nil {
		report(false, "Schema validation failed", read.schemaText, "Ensure all required fields (decision, priority) are present with correct types")
		return out
	}
	raws := read.raws
	out.checkers = read.checkers
	notes := read.notes[0]
	if e.group == G1 {
		notes = read.notes[1]
	}
	for _, n := range notes {
		report(n.warning, n.message, n.details, "")
	}
	base := e.tierBase(t)
	source := strings.ToUpper(tierName[:1]) + tierName[1:] + ": " + name
	for i, r := range raws {
		patterns, prefixes := e.buildPatterns(r)
		for pi, pat := range patterns {
			for _, tn := range r.toolNames {
				effective := tn
				if r.mcpName != nil && *r.mcpName != "" {
					effective = formatMcpToolName(*r.mcpName, tn)
				}
				rule := &Rule{
					ToolName: effective, Subagent: r.subagent, McpName: r.mcpName, Decision: r.decision,
					Priority: base + r.priority/1000, Modes: r.modes, Interactive: r.interactive,
					Annotations: r.annotations, Source: source,
					DenyMessage: r.denyMessage, Tier: t, File: name, Index: i,
				}
				if r.allowRedirection != nil {
					rule.AllowRedirection = *r.allowRedirection
				}
				if prefixes != nil {
					rule.Prefix, rule.HasPrefix = prefixes[pi], true
				}
				if pat != nil {
					// The host compiles, then checks the pattern is safe: a
					// valid pattern outside the model is either unsafe, as on
					// the host, or the engine's refusal to decide.
					re, err := compileJS(*pat)
					outside := errors.Is(err, ErrRegexOutsideModel)
					if err != nil && !outside {
						report(false, "Invalid regex pattern", fmt.Sprintf("Pattern: %s\nError: %v", *pat, err), "Check regex syntax for errors like unmatched brackets or invalid escape sequences")
						continue
					}
					if !isSafeRegExp(*pat) {
						report(false, "Unsafe regex pattern (potential ReDoS)", "Pattern: "+*pat, "Avoid nested quantifiers or extremely long patterns")
						continue
					}
					if outside {
						if out.outside == nil {
							out.outside = fmt.Errorf("%s: argsPattern %s: %w", name, JSONString(*pat), err)
						}
						continue
					}
					rule.Pattern, rule.PatternSource = re, *pat
				}
				out.rules = append(out.rules, rule)
			}
		}
	}
	return out
}

// buildPatterns is buildArgsPatterns: one pattern per prefix, or the
// command regex, or the argsPattern (nil: none). prefixes names each
// pattern's prefix when they come from commandPrefix.
func (e *Engine) buildPatterns(r rawRule) ([]*string, []string) {
	if r.hasCommandPrefix {
		var out []*string
		for _, p := range r.commandPrefix {
			s := prefixPattern(p, !e.faults.Has(FaultPrefixNoWordBoundary) && !e.mut.is(MutPrefixBoundary))
			out = append(out, &s)
		}
		return out, r.commandPrefix
	}
	if r.commandRegex != nil && *r.commandRegex != "" {
		s := `"command":"` + *r.commandRegex
		return []*string{&s}, nil
	}
	if r.argsPattern != nil && *r.argsPattern == "" {
		return []*string{nil}, nil
	}
	return []*string{r.argsPattern}, nil
}

// isSafeRegExp is the host's: at most 2,048 characters, and no group with
// a quantifier inside followed by a quantifier. The host's test is a
// JavaScript RegExp, whose `.` stops at every line terminator
// (lineTermDot): a CR, U+2028 or U+2029 between the quantifier inside and
// the closing parenthesis keeps a pattern safe, as an LF does.
var nestedQuantifier = regexp.MustCompile(`\([^)]*[*+?{]` + lineTermDot + `*\)[*+?{]`)

func isSafeRegExp(p string) bool {
	// A string's UTF-16 length is at most its length in bytes, and the
	// pattern matches nothing without a parenthesis: most patterns are
	// answered without either.
	if len(p) > 2048 && utf16Len(p) > 2048 {
		return false
	}
	return strings.IndexByte(p, '(') < 0 || !nestedQuantifier.MatchString(p)
}

func shellSyntaxProblem(r rawRule, i int) string {
	if !r.prefixPresent && r.commandRegex == nil {
		return ""
	}
	if r.toolNameList || r.toolNames[0] != "run_shell_command" {
		// A list, even an empty one, is written as JSON.stringify
		// writes it; a single name is the rule's one name.
		var found string
		if r.toolNameList {
			quoted := make([]string, len(r.toolNames))
			for j, n := range r.toolNames {
				quoted[j] = JSONString(n)
			}
			found = "[" + strings.Join(quoted, ",") + "]"
		} else {
			found = JSONString(r.toolNames[0])
		}
		return fmt.Sprintf("Rule #%d: commandPrefix and commandRegex can only be used with toolName = \"run_shell_command\"\n  Found: toolName = %s\n  Fix: Set toolName = \"run_shell_command\" (not an array)", i+1, found)
	}
	if r.argsPattern != nil {
		return fmt.Sprintf("Rule #%d: cannot use both commandPrefix/commandRegex and argsPattern\n  These fields are mutually exclusive\n  Fix: Use either commandPrefix/commandRegex OR argsPattern, not both", i+1)
	}
	if r.prefixPresent && r.commandRegex != nil {
		return fmt.Sprintf("Rule #%d: cannot use both commandPrefix and commandRegex\n  These fields are mutually exclusive\n  Fix: Use either commandPrefix OR commandRegex, not both", i+1)
	}
	return ""
}

// validateFile reads the rules of a file zod takes (zodIssues), refusing
// what the model cannot read.
func validateFile(doc map[string]any) ([]rawRule, error) {
	var out []rawRule
	if v, ok := doc["rule"]; ok {
		list, isList := v.([]any)
		if !isList {
			return nil, fmt.Errorf(`field "rule": expected an array`)
		}
		for i, item := range list {
			t, isTable := item.(map[string]any)
			if !isTable {
				return nil, fmt.Errorf(`field "rule.%d": expected an object`, i)
			}
			r, err := validateRule(t)
			if err != nil {
				return nil, fmt.Errorf(`rule.%d.%v`, i, err)
			}
			out = append(out, r)
		}
	}
	return out, nil
}

func optString(t map[string]any, key string) (*string, error) {
	v, ok := t[key]
	if !ok {
		return nil, nil
	}
	s, isStr := v.(string)
	if !isStr {
		return nil, fmt.Errorf("%s: expected a string", key)
	}
	return &s, nil
}

func optBool(t map[string]any, key string) (*bool, error) {
	v, ok := t[key]
	if !ok {
		return nil, nil
	}
	b, isBool := v.(bool)
	if !isBool {
		return nil, fmt.Errorf("%s: expected a boolean", key)
	}
	return &b, nil
}

// stringOrList reads a string or a list of strings.
func stringOrList(v any, key string) ([]string, bool, error) {
	switch x := v.(type) {
	case string:
		return []string{x}, false, nil
	case []any:
		out := make([]string, len(x))
		for i, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, true, fmt.Errorf("%s.%d: expected a string", key, i)
			}
			out[i] = s
		}
		return out, true, nil
	}
	return nil, false, fmt.Errorf("%s: expected a string or a list of strings", key)
}

func validateRule(t map[string]any) (rawRule, error) {
	var r rawRule
	tn, ok := t["toolName"]
	if !ok {
		return r, fmt.Errorf("toolName: required")
	}
	var err error
	if r.toolNames, r.toolNameList, err = stringOrList(tn, "toolName"); err != nil {
		return r, err
	}
	for _, f := range []struct {
		key string
		dst **string
	}{{"subagent", &r.subagent}, {"mcpName", &r.mcpName}, {"argsPattern", &r.argsPattern}, {"commandRegex", &r.commandRegex}} {
		if *f.dst, err = optString(t, f.key); err != nil {
			return r, err
		}
	}
	if v, ok := t["commandPrefix"]; ok {
		list, isList, err := stringOrList(v, "commandPrefix")
		if err != nil {
			return r, err
		}
		// An empty string is falsy in JavaScript: no prefix pattern; a
		// list, even empty, is not.
		r.prefixPresent = true
		r.hasCommandPrefix = isList || list[0] != ""
		r.commandPrefix = list
	}
	d, ok := t["decision"].(string)
	if !ok || !decisions[d] {
		return r, fmt.Errorf("decision: expected allow, deny or ask_user")
	}
	r.decision = d
	pv, ok := t["priority"]
	if !ok {
		return r, fmt.Errorf("priority: priority is required")
	}
	p, isNum := pv.(float64)
	switch {
	case !isNum:
		return r, fmt.Errorf("priority: priority must be a number")
	case p != math.Trunc(p) || math.IsInf(p, 0):
		return r, fmt.Errorf("priority: priority must be an integer")
	case p < 0:
		return r, fmt.Errorf("priority: priority must be >= 0")
	case p > 999:
		return r, fmt.Errorf("priority: priority must be <= 999")
	}
	r.priority = p
	if v, ok := t["modes"]; ok {
		list, isList := v.([]any)
		if !isList {
			return r, fmt.Errorf("modes: expected an array")
		}
		r.hasModes = true
		r.modes = []string{}
		for i, m := range list {
			s, isStr := m.(string)
			if !isStr || !modeNames[s] {
				return r, fmt.Errorf("modes.%d: expected one of default, autoEdit, yolo, plan", i)
			}
			r.modes = append(r.modes, s)
		}
	}
	if r.interactive, err = optBool(t, "interactive"); err != nil {
		return r, err
	}
	if v, ok := t["toolAnnotations"]; ok {
		m, isMap := v.(map[string]any)
		if !isMap {
			return r, fmt.Errorf("toolAnnotations: expected an object")
		}
		r.annotations = m
	}
	ar, err := optBool(t, "allowRedirection")
	if err != nil {
		return r, err
	}
	ar2, err := optBool(t, "allow_redirection")
	if err != nil {
		return r, err
	}
	if ar == nil {
		ar = ar2
	}
	r.allowRedirection = ar
	dm, err := optString(t, "denyMessage")
	if err != nil {
		return r, err
	}
	dm2, err := optString(t, "deny_message")
	if err != nil {
		return r, err
	}
	if dm == nil {
		dm = dm2
	}
	r.denyMessage = dm
	return r, nil
}

// formatMcpToolName is the host's formatMcpToolName(server, tool).
func formatMcpToolName(server, tool string) string {
	switch {
	case server == "*" && tool == "*":
		return "mcp_*"
	case server == "*":
		return "mcp_*_" + tool
	case tool == "*":
		return "mcp_" + server + "_*"
	}
	return "mcp_" + server + "_" + tool
}

// parseMcpServer is the server part of mcp_<server>_<tool> ("" when the
// name is not of that form). The host reads the name after its mcp_ with
// /^([^_]+)_(.+)$/: the server is everything up to the first underscore,
// line terminators included, and the tool, the rest, must be at least one
// code unit with no line terminator in it, since JavaScript's `.` matches
// none.
func parseMcpServer(name string) string {
	rest, ok := strings.CutPrefix(name, "mcp_")
	if !ok {
		return ""
	}
	server, tool, found := strings.Cut(rest, "_")
	if !found || server == "" || tool == "" || containsLineTerm(tool) {
		return ""
	}
	return server
}

// builtinTools are ALL_BUILTIN_TOOL_NAMES, in the host's order, which a
// rule's toolName is checked against (policy/toml-loader.js
// validateToolName) and whose order breaks ties among its suggestions:
// from 0.44.1 on, save_memory is not among them; builtinToolsG1 is
// 0.40.0's list, which has it.
var (
	builtinTools = []string{
		"glob", "write_todos", "write_file", "google_web_search", "web_fetch", "replace", "run_shell_command",
		"grep_search", "read_many_files", "read_file", "list_directory", "activate_skill", "ask_user",
		"tracker_create_task", "tracker_update_task", "tracker_get_task", "tracker_list_tasks",
		"tracker_add_dependency", "tracker_visualize", "get_internal_docs", "enter_plan_mode", "exit_plan_mode",
		"update_topic", "complete_task", "invoke_agent", "read_mcp_resource", "list_mcp_resources",
	}
	builtinToolsG1 = slices.Insert(slices.Clone(builtinTools), slices.Index(builtinTools, "list_directory")+1, "save_memory")
)

// mcpSlug is the server name's pattern, /^[a-z0-9_.:-]+$/i in JavaScript, whose
// case folding without the u flag never maps a non-ASCII letter (ſ, the
// Kelvin sign) to an ASCII one, as Go's (?i) does.
var mcpSlug = regexp.MustCompile(`^[a-zA-Z0-9_.:-]+$`)

// validToolName is isValidToolName(name, {allowWildcards: true}).
func validToolName(name string, builtins []string) bool {
	for _, b := range builtins {
		if name == b {
			return true
		}
	}
	if name == "search_file_content" || strings.HasPrefix(name, "discovered_tool_") || name == "*" {
		return true
	}
	if strings.HasPrefix(name, "mcp_") {
		if name == "mcp_*" {
			return true
		}
		if strings.HasPrefix(name, "mcp__") {
			return false
		}
		rest := name[4:]
		server, tool, ok := strings.Cut(rest, "_")
		if !ok || server == "" || tool == "" || !mcpSlug.MatchString(server) {
			return false
		}
		if tool == "*" {
			return true
		}
		return strings.Trim(tool, "_") != ""
	}
	return false
}

// toolNameWarning is validateToolName: the deprecated __ syntax, or a name
// that is no known tool but within three edits of a built-in one, with
// getToolSuggestion's three nearest built-in names (a stable sort by
// distance: the first listed first among equals).
func toolNameWarning(name string, i int, builtins []string) string {
	if strings.Contains(name, "__") {
		return fmt.Sprintf("Rule #%d: The \"__\" syntax for MCP tools is strictly deprecated. Please use the 'mcpName = \"...\"' property or the 'mcp_server_tool' format instead.", i+1)
	}
	if validToolName(name, builtins) {
		return ""
	}
	// A name whose length differs from a built-in one's by more than
	// three is more than three edits from it (the built-in names are
	// ASCII: their UTF-16 length is their length), so no warning is
	// possible unless one is within three.
	n := utf16Count(name)
	near := false
	for _, b := range builtins {
		if abs(n-len(b)) <= 3 && levenshtein(name, b) <= 3 {
			near = true
			break
		}
	}
	if !near {
		return ""
	}
	type match struct {
		name string
		d    int
	}
	ms := make([]match, len(builtins))
	for j, b := range builtins {
		ms[j] = match{b, levenshtein(name, b)}
	}
	sort.SliceStable(ms, func(a, b int) bool { return ms[a].d < ms[b].d })
	quoted := make([]string, 0, 3)
	for _, m := range ms[:min(3, len(ms))] {
		quoted = append(quoted, `"`+m.name+`"`)
	}
	return fmt.Sprintf("Rule #%d: Unrecognized tool name %s. Did you mean one of: %s?", i+1, `"`+name+`"`, strings.Join(quoted, ", "))
}

// utf16Count is a string's JavaScript length, counted without a copy.
func utf16Count(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// levenshtein counts edits between the strings' UTF-16 code units, as
// fast-levenshtein does (it compares charCodeAt values).
func levenshtein(a, b string) int {
	ra, rb := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
