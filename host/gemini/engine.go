package gemini

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// PolicyInput is one policy file a case writes.
type PolicyInput struct {
	Tier Tier
	// Name is the file's name (user.toml); Extension the extension's name
	// (extension tier only).
	Name, Extension string
	Text            string
}

// Settings are the settings the CLI hands the engine. A nil list is an
// absent key; an empty list is present (and, for tools.core, still adds
// its deny of every other tool).
type Settings struct {
	ToolsExclude, ToolsAllowed, ToolsCore, ToolsConfirmationRequired []string
	McpExcluded, McpAllowed                                          []string
	McpAutoAllowInHeadless                                           bool
	// McpServers are the configured servers in the order JavaScript's
	// Object.entries lists them.
	McpServers         []McpServer
	DisableAlwaysAllow bool
}

// McpServer is one configured MCP server.
type McpServer struct {
	Name  string
	Trust bool
}

// Remembered is one "Allow always" answer.
type Remembered struct {
	Tool string
	// Saved: "for all future sessions" (written to auto-saved.toml);
	// otherwise for this session.
	Saved bool
	// CommandPrefix for the shell; HasPrefix says whether the host sees
	// one (a non-empty string, or a list, even an empty one: JavaScript
	// truthiness). PrefixList: it was given as a list.
	CommandPrefix []string
	HasPrefix     bool
	PrefixList    bool
	// FilePath (HasFilePath: given) for an edit tool.
	FilePath    string
	HasFilePath bool
	McpServer   string
	AllTools    bool
	// AnsweredIn is the mode the answer was given in.
	AnsweredIn string
}

// Config is everything the engine is built from.
type Config struct {
	Release     Release
	Mode        string
	Interactive bool
	Trusted     bool
	Policies    []PolicyInput
	Settings    Settings
	Remembered  []Remembered
	Faults      Faults
	Mutation    Mutation
}

// Call is one tool call.
type Call struct {
	Name string
	// Args is the call's arguments as plain JSON values; HasArgs says
	// whether the call has any (absent is not null).
	Args    any
	HasArgs bool
	// Server, Subagent: "" when absent.
	Server, Subagent string
	// Annotations: nil when absent.
	Annotations map[string]any
}

// Engine is a built policy engine.
type Engine struct {
	rel                Release
	group              Group
	rules              []*Rule
	mode               string
	nonInteractive     bool
	defaultDecision    string
	disableAlwaysAllow bool
	trusted            bool
	faults             Faults
	mut                Mutation
	// Problems are the policy-file problems reported while building.
	Problems []PolicyProblem
	// Checkers: a loaded file declares safety checkers (not modelled).
	Checkers bool
}

// Decisions.
const (
	Allow   = "allow"
	Deny    = "deny"
	AskUser = "ask_user"
)

// Modes.
const (
	ModeDefault  = "default"
	ModeAutoEdit = "autoEdit"
	ModePlan     = "plan"
	ModeYolo     = "yolo"
)

// modesByPermissiveness is MODES_BY_PERMISSIVENESS.
var modesByPermissiveness = []string{ModePlan, ModeDefault, ModeAutoEdit, ModeYolo}

// tierBase is the tier's base priority, as the model's faults and
// mutants move it.
func (e *Engine) tierBase(t Tier) float64 {
	base := float64(t)
	switch t {
	case TierAdmin:
		if e.faults.Has(FaultAdminTier4) {
			base = 4
		}
		base += float64(e.mut.delta(MutTierAdmin))
	case TierUser:
		base += float64(e.mut.delta(MutTierUser))
	case TierDefault:
		base += float64(e.mut.delta(MutTierDefault))
	case TierExtension:
		base += float64(e.mut.delta(MutTierExtension))
	}
	return base
}

// alwaysAllowFraction is ALWAYS_ALLOW_PRIORITY_FRACTION.
func (e *Engine) alwaysAllowFraction() float64 {
	if e.mut.is(MutAlwaysAllowFraction) {
		return 50
	}
	return 950
}

// NewEngine builds the engine as the CLI does at start-up (spec §3.1).
func NewEngine(cfg Config) (*Engine, error) {
	e := &Engine{
		rel: cfg.Release, group: cfg.Release.Group, mode: cfg.Mode, nonInteractive: !cfg.Interactive,
		disableAlwaysAllow: cfg.Settings.DisableAlwaysAllow, trusted: cfg.Trusted, faults: cfg.Faults, mut: cfg.Mutation,
	}
	e.defaultDecision = AskUser
	if e.nonInteractive && !e.faults.Has(FaultHeadlessDefaultAsk) {
		e.defaultDecision = Deny
	}
	if e.mut.is(MutDefaultDecisionSwap) {
		if e.defaultDecision == AskUser {
			e.defaultDecision = Deny
		} else {
			e.defaultDecision = AskUser
		}
	}
	var rules []*Rule
	var outside error
	load := func(name, text string, t Tier) {
		f := e.loadOwnFile(name, text, t)
		outside = cmp.Or(outside, f.outside)
		rules = append(rules, f.rules...)
		e.Problems = append(e.Problems, f.problems...)
		e.Checkers = e.Checkers || f.checkers
	}
	// Admin, user (with the saved answers' file), then the release's own.
	for _, t := range []Tier{TierAdmin, TierUser} {
		for _, p := range cfg.Policies {
			if p.Tier == t {
				load(p.Name, p.Text, t)
			}
		}
		if t == TierUser {
			if text := e.savedFile(cfg.Remembered); text != "" {
				tier := TierUser
				if e.faults.Has(FaultSavedAtSessionPriority) {
					tier = 3
				}
				f := e.loadFile("auto-saved.toml", text, tier)
				for _, r := range f.rules {
					r.Remembered = true
					r.Source = "User: auto-saved.toml"
				}
				rules = append(rules, f.rules...)
				e.Problems = append(e.Problems, f.problems...)
			}
		}
	}
	files := defaultPolicies(cfg.Release)
	loaded := make([]loadedFile, len(files))
	n := 0
	dk := defaultsKey{base: e.tierBase(TierDefault)}
	for i := range files {
		key := e.defaultKeyOf(&files[i])
		loaded[i] = loadDefault(key, e)
		n += len(loaded[i].rules)
		if i < 64 && key.boundary {
			dk.bounds |= 1 << i
		}
	}
	if len(files) > 0 && len(files) <= 64 {
		dk.files = &files[0]
	}
	// The release's rules are most of the engine's: room for them, and
	// the settings', once.
	rules = slices.Grow(rules, n+16)
	userEnd, moved := len(rules), false
	for i := range files {
		before := len(rules)
		lf := loaded[i]
		rules = append(rules, lf.rules...)
		e.Problems = append(e.Problems, lf.problems...)
		e.Checkers = e.Checkers || lf.checkers
		for i, r := range rules[before:] {
			a := e.adjustDefault(r)
			rules[before+i], moved = a, moved || a != r
		}
	}
	defaultsEnd := len(rules)
	rules = append(rules, e.settingsRules(cfg.Settings)...)
	// The engine's constructor refuses an empty toolName, mcpName or
	// subagent: the CLI does not start.
	for _, r := range rules {
		if r.ToolName == "" || r.McpName != nil && *r.McpName == "" || r.Subagent != nil && *r.Subagent == "" {
			return nil, fmt.Errorf("the host refuses to build its policy engine: a rule of %s has an empty toolName, mcpName or subagent (Invalid policy rule)", r.Source)
		}
	}
	e.rules = rules
	if !moved && dk.files != nil {
		e.sortRulesSorted(userEnd, defaultsEnd, dk)
	} else {
		e.sortRules()
	}
	// Extensions: each file loaded on its own, allow and yolo rules
	// dropped, the rest added one by one. Their problems are logged by the
	// extension manager, not reported.
	for _, p := range cfg.Policies {
		if p.Tier != TierExtension {
			continue
		}
		f := e.loadFile(p.Name, p.Text, TierExtension)
		outside = cmp.Or(outside, f.outside)
		for _, r := range f.rules {
			if !e.faults.Has(FaultExtensionAllowKept) && (r.Decision == Allow || contains(r.Modes, ModeYolo)) {
				continue
			}
			r.Source = extensionSource(r.Source, p.Extension)
			e.addRule(r)
		}
	}
	for _, m := range cfg.Remembered {
		if m.Saved {
			continue
		}
		for _, r := range e.sessionRules(m) {
			e.addRule(r)
		}
	}
	if outside != nil {
		return nil, outside
	}
	return e, nil
}

// defaultKey is what loading a default policy file depends on: the file
// (one of the slices defaultPolicies keeps, so its address names it), and
// the two settings of the engine that loadFile reads for that tier (the
// tier's base priority and whether a prefix ends at a word).
type defaultKey struct {
	file     *policyFile
	base     float64
	boundary bool
}

// defaultsLoaded holds each default policy file as loadFile loaded it,
// by defaultKey; the files are the releases' own and the settings few, so
// it stays small. Its loadedFiles are only read.
var defaultsLoaded sync.Map

// defaultKeyOf is the defaultKey e loads f by.
func (e *Engine) defaultKeyOf(f *policyFile) defaultKey {
	key := defaultKey{file: f, base: e.tierBase(TierDefault), boundary: true}
	if f.prefixed {
		// Asked only of a file with a prefix, as loadFile asks it:
		// the faults a run asks about are the ones it checks.
		key.boundary = !e.faults.Has(FaultPrefixNoWordBoundary) && !e.mut.is(MutPrefixBoundary)
	}
	return key
}

// loadDefault is loadFile for a default policy file: every engine loads
// all of its release's, so each is loaded once per defaultKey, by the
// first engine to need it. The rules are shared by the engines and only
// read; adjustDefault copies the one it changes.
func loadDefault(key defaultKey, e *Engine) loadedFile {
	v, ok := defaultsLoaded.Load(key)
	if !ok {
		v, _ = defaultsLoaded.LoadOrStore(key, e.loadFile(key.file.Name, key.file.Text, TierDefault))
	}
	return v.(loadedFile)
}

// ownKey is what loading an admin or user policy file depends on: its
// name, text and tier, the tier's base priority, whether a prefix ends at
// a word (asked only of a file with a prefix), and whether the release's
// built-in tool names are G1's (they hold save_memory).
type ownKey struct {
	name, text string
	tier       Tier
	base       float64
	boundary   bool
	g1         bool
}

// ownLoaded holds admin and user policy files as loadFile loaded them, by
// ownKey, as many and as large as filesRead holds (their texts together
// within cachedTextBytes: a file's rules and their compiled patterns grow
// with its text): a case's files are loaded by an engine for each of its
// runs (under each fault, each mutant), and their rules are only read.
// The saved answers' file and the extensions' are not among them:
// NewEngine changes their rules.
var ownLoaded = struct {
	sync.Mutex
	m     map[ownKey]loadedFile
	bytes int
}{m: map[ownKey]loadedFile{}}

// loadOwnFile is loadFile for an admin or user file, loaded once per
// ownKey. It asks the faults loadFile asks: the tier's, when the file
// reads, and the prefix's, when one of its rules has a prefix.
func (e *Engine) loadOwnFile(name, text string, t Tier) loadedFile {
	read := readFile(text)
	if read.parseErr != nil || read.schemaErr != nil || len(text) > filesReadText {
		return e.loadFile(name, text, t)
	}
	key := ownKey{name: name, text: text, tier: t, base: e.tierBase(t), boundary: true, g1: e.group == G1}
	for _, r := range read.raws {
		if r.hasCommandPrefix {
			key.boundary = !e.faults.Has(FaultPrefixNoWordBoundary) && !e.mut.is(MutPrefixBoundary)
			break
		}
	}
	ownLoaded.Lock()
	f, ok := ownLoaded.m[key]
	ownLoaded.Unlock()
	if ok {
		return f
	}
	f = e.loadFile(name, text, t)
	ownLoaded.Lock()
	if len(ownLoaded.m) < filesReadLimit && ownLoaded.bytes+len(text) <= cachedTextBytes {
		ownLoaded.m[key] = f
		ownLoaded.bytes += len(text)
	}
	ownLoaded.Unlock()
	return f
}

// defaultsKey names the rules of all of a release's default files as an
// engine loads them: the release's list of files (its first, which
// defaultPolicies keeps), the default tier's base priority, and for each
// file whether a prefix ends at a word (bit i for file i).
type defaultsKey struct {
	files  *policyFile
	base   float64
	bounds uint64
}

// sortedDefaults holds, by defaultsKey, the release's default rules in
// the order byPriority gives them (highest first), and whether one of
// them has a NaN priority, which no merge can order as the sort does.
// The slices are only read.
var sortedDefaults sync.Map

type sortedRules struct {
	rules []*Rule
	nan   bool
}

// fastSort lets an engine merge its own few rules into its release's
// default rules sorted once, instead of sorting them all; tests switch it
// off to compare with the sort.
var fastSort = true

// sortRulesSorted is sortRules for rules whose [userEnd, defaultsEnd) are
// the release's default rules named by key, as loaded: when the order is
// the usual one (highest first, the earlier of equal rules first) and no
// priority is NaN, the stable sort's order is the one order of the rules
// by priority, ties in their place in the list, and so the merge of the
// rules before the defaults, the defaults and the rules after them, each
// sorted, in that order on ties. Otherwise it sorts as sortRules does.
func (e *Engine) sortRulesSorted(userEnd, defaultsEnd int, key defaultsKey) {
	desc := !e.mut.is(MutSortAscending)
	lastWins := e.faults.Has(FaultTieLastWins) || e.mut.is(MutReverseTies)
	if !fastSort || !desc || lastWins || hasNaN(e.rules[:userEnd]) || hasNaN(e.rules[defaultsEnd:]) {
		e.sortRules()
		return
	}
	v, ok := sortedDefaults.Load(key)
	if !ok {
		d := slices.Clone(e.rules[userEnd:defaultsEnd])
		nan := hasNaN(d)
		byPriority(d, true)
		v, _ = sortedDefaults.LoadOrStore(key, sortedRules{rules: d, nan: nan})
	}
	sd := v.(sortedRules)
	if sd.nan || len(sd.rules) != defaultsEnd-userEnd {
		e.sortRules()
		return
	}
	user, after := e.rules[:userEnd], e.rules[defaultsEnd:]
	byPriority(user, true)
	byPriority(after, true)
	e.rules = mergeByPriority(user, sd.rules, after)
}

// mergeByPriority merges lists, each sorted highest priority first, into
// one: of rules of the same priority, those of an earlier list first. No
// priority may be NaN.
func mergeByPriority(lists ...[]*Rule) []*Rule {
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	out := make([]*Rule, 0, n)
	at := make([]int, len(lists))
	for len(out) < n {
		best := -1
		for k, l := range lists {
			if at[k] < len(l) && (best < 0 || l[at[k]].Priority > lists[best][at[best]].Priority) {
				best = k
			}
		}
		out = append(out, lists[best][at[best]])
		at[best]++
	}
	return out
}

func hasNaN(rules []*Rule) bool {
	for _, r := range rules {
		if r.Priority != r.Priority {
			return true
		}
	}
	return false
}

// adjustDefault applies the faults and mutants that move a default rule:
// it returns r itself when none moves it, or a moved copy.
func (e *Engine) adjustDefault(r *Rule) *Rule {
	planDeny := r.File == "plan.toml" && r.ToolName == "*" && r.Decision == Deny && e.faults.Has(FaultPlanOverridesUser)
	yoloAllow := r.File == "yolo.toml" && r.ToolName == "*" && r.Decision == Allow && e.mut.is(MutYoloAllowAll)
	if !planDeny && !yoloAllow {
		return r
	}
	// The loaded rule is shared by every engine of the release: the
	// adjusted one is this engine's copy.
	cp := *r
	if planDeny {
		cp.Priority = 9
	}
	if yoloAllow {
		cp.Priority = e.tierBase(TierDefault) + 5.0/1000
	}
	return &cp
}

func (e *Engine) sortRules() {
	desc := !e.mut.is(MutSortAscending)
	lastWins := e.faults.Has(FaultTieLastWins) || e.mut.is(MutReverseTies)
	if lastWins {
		for i, j := 0, len(e.rules)-1; i < j; i, j = i+1, j-1 {
			e.rules[i], e.rules[j] = e.rules[j], e.rules[i]
		}
	}
	byPriority(e.rules, desc)
}

// byPriority sorts rules stably by priority, highest first when desc: the
// order sort.SliceStable gives with the less function "a's priority is
// above (desc) or below b's", by the same algorithm without reflection.
func byPriority(rules []*Rule, desc bool) {
	slices.SortStableFunc(rules, func(a, b *Rule) int {
		x, y := a.Priority, b.Priority
		if !desc {
			x, y = y, x
		}
		switch {
		case x > y:
			return -1
		case y > x:
			return 1
		}
		return 0
	})
}

func (e *Engine) addRule(r *Rule) {
	if e.faults.Has(FaultTieLastWins) || e.mut.is(MutReverseTies) {
		e.rules = append([]*Rule{r}, e.rules...)
	} else {
		e.rules = append(e.rules, r)
	}
	e.sortRules2()
}

// sortRules2 re-sorts after addRule: the host sorts the whole list again,
// stably, so an added rule goes after the rules of its priority.
func (e *Engine) sortRules2() {
	desc := !e.mut.is(MutSortAscending)
	byPriority(e.rules, desc)
}

// Rules are the engine's rules in the order it tries them.
func (e *Engine) Rules() []*Rule { return e.rules }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// settingsRules are the rules createPolicyEngineConfig adds from the
// settings, in its order.
func (e *Engine) settingsRules(s Settings) []*Rule {
	user := e.tierBase(TierUser)
	// The host computes these as 4 + 0.9 and so on, in floating point.
	var (
		mcpExcluded   = user + 0.9
		exclude       = user + 0.4
		confirmation  = user + 0.35
		allowed       = user + 0.3
		core          = user + 0.25
		trustedServer = user + 0.2
		allowedServer = user + 0.1
	)
	if e.mut.is(MutExcludeOffset) {
		exclude = user + 0.3
	}
	if e.faults.Has(FaultExcludeUnbeatable) {
		exclude = 1000
	}
	nonPlan := []string{ModeDefault, ModeAutoEdit, ModeYolo}
	var out []*Rule
	add := func(r *Rule) { out = append(out, r) }
	mcpWildcard := func(server string) string {
		if server == "*" {
			return "mcp_*"
		}
		return "mcp_" + server + "_*"
	}
	str := func(s string) *string { return &s }
	for _, srv := range s.McpExcluded {
		add(&Rule{ToolName: mcpWildcard(srv), McpName: str(srv), Decision: Deny, Priority: mcpExcluded, Source: "Settings (MCP Excluded)", Settings: "mcp.excluded"})
	}
	for _, t := range s.ToolsExclude {
		add(&Rule{ToolName: t, Decision: Deny, Priority: exclude, Source: "Settings (Tools Excluded)", Settings: "tools.exclude"})
	}
	mapTools := func(tools []string, priority float64, source, key string, modes []string, narrow bool) {
		narrowed := map[string]bool{}
		var narrowOrder []string
		for _, tool := range tools {
			name, args, isCall := cutToolCall(tool)
			if isCall {
				if name == "ShellTool" {
					name = "run_shell_command"
				}
				if name == "run_shell_command" {
					if !narrowed[name] {
						narrowed[name] = true
						narrowOrder = append(narrowOrder, name)
					}
					if args == "" {
						continue
					}
					pat := prefixPattern(args, !e.faults.Has(FaultPrefixNoWordBoundary) && !e.mut.is(MutPrefixBoundary))
					re, err := compileJS(pat)
					if err != nil {
						continue
					}
					add(&Rule{ToolName: name, Decision: Allow, Priority: priority, Pattern: re, PatternSource: pat, Source: source, Modes: modes, Settings: key, Prefix: args, HasPrefix: true})
					continue
				}
				add(&Rule{ToolName: name, Decision: Allow, Priority: priority, Source: source, Modes: modes, Settings: key})
				continue
			}
			if tool == "ShellTool" {
				tool = "run_shell_command"
			}
			add(&Rule{ToolName: tool, Decision: Allow, Priority: priority, Source: source, Modes: modes, Settings: key})
		}
		if narrow {
			offset := 0.01
			if e.mut.is(MutNarrowingOffset) {
				offset = 0
			}
			for _, name := range narrowOrder {
				add(&Rule{ToolName: name, Decision: Deny, Priority: priority - offset, Source: source + " (Narrowing Enforcement)", Modes: modes, Settings: key})
			}
		}
	}
	if s.ToolsAllowed != nil {
		mapTools(s.ToolsAllowed, allowed, "Settings (Tools Allowed)", "tools.allowed", nil, true)
	}
	for _, t := range s.ToolsConfirmationRequired {
		if t == "ShellTool" {
			t = "run_shell_command"
		}
		add(&Rule{ToolName: t, Decision: AskUser, Priority: confirmation, Source: "Settings (Confirmation Required)", Settings: "tools.confirmationRequired"})
	}
	if s.ToolsCore != nil {
		mapTools(s.ToolsCore, core, "Settings (Core Tools)", "tools.core", nonPlan, false)
		add(&Rule{ToolName: "*", Decision: Deny, Priority: core - 0.01, Source: "Settings (Core Tools Allowlist Enforcement)", Modes: nonPlan, Settings: "tools.core"})
	}
	for _, srv := range s.McpServers {
		if srv.Trust {
			add(&Rule{ToolName: "mcp_" + srv.Name + "_*", McpName: str(srv.Name), Decision: Allow, Priority: trustedServer, Source: "Settings (MCP Trusted)", Modes: nonPlan, Settings: "mcpServers.trust"})
		}
	}
	for _, srv := range s.McpAllowed {
		add(&Rule{ToolName: mcpWildcard(srv), McpName: str(srv), Decision: Allow, Priority: allowedServer, Source: "Settings (MCP Allowed)", Modes: nonPlan, Settings: "mcp.allowed"})
	}
	if e.group >= G2 && e.nonInteractive && s.McpAutoAllowInHeadless && s.McpServers != nil {
		for _, srv := range s.McpServers {
			if contains(s.McpAllowed, srv.Name) || contains(s.McpAllowed, "*") || srv.Trust {
				continue
			}
			add(&Rule{ToolName: mcpWildcard(srv.Name), McpName: str(srv.Name), Decision: Allow, Priority: allowedServer, Source: "Settings (Headless MCP Auto-Allow)", Modes: nonPlan, Settings: "mcp.autoAllowInHeadless"})
		}
	}
	return out
}

// cutToolCall reads the legacy form tool(args): ^([a-zA-Z0-9_-]+)\((.*)\)$.
// The name's class has no line terminator and JavaScript's `.` matches
// none, so an entry holding any of LF, CR, U+2028 or U+2029 is no call:
// it stays a plain tool name.
func cutToolCall(s string) (name, args string, ok bool) {
	open := strings.IndexByte(s, '(')
	if open <= 0 || !strings.HasSuffix(s, ")") || containsLineTerm(s) {
		return "", "", false
	}
	for _, c := range s[:open] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return "", "", false
		}
	}
	return s[:open], s[open+1 : len(s)-1], true
}

// modesFor is the modes a remembered answer is scoped to.
func modesFor(m Remembered) []string {
	for i, x := range modesByPermissiveness {
		if x == m.AnsweredIn {
			return modesByPermissiveness[i:]
		}
	}
	return nil
}

// narrowingTools are TOOLS_REQUIRING_NARROWING.
var narrowingTools = map[string]bool{
	"glob": true, "grep_search": true, "read_many_files": true, "read_file": true, "list_directory": true,
	"write_file": true, "replace": true, "run_shell_command": true,
}

// NeedsNarrowing reports whether the host drops an "always allow" for tool
// without a command prefix or file path.
func NeedsNarrowing(tool string) bool { return narrowingTools[tool] }

// filePathPattern is buildFilePathArgsPattern: it looks for the two
// characters \0, never the NUL the arguments carry.
func filePathPattern(path string) string {
	return `\\0` + escapeRegex(`"file_path":`+JSONString(path)) + `\\0`
}

// rememberedTool is the tool name an answer is published for.
func rememberedTool(m Remembered) string {
	if m.McpServer != "" && m.AllTools {
		return formatMcpToolName(m.McpServer, "*")
	}
	return m.Tool
}

// sessionRules are the rules the policy updater adds for a session answer.
func (e *Engine) sessionRules(m Remembered) []*Rule {
	tier := 3.0
	if e.faults.Has(FaultRememberedAboveUser) {
		tier = 4
	}
	priority := tier + e.alwaysAllowFraction()/1000
	tool := rememberedTool(m)
	var mcp *string
	if m.McpServer != "" {
		s := m.McpServer
		mcp = &s
	}
	base := Rule{ToolName: tool, Decision: Allow, Priority: priority, McpName: mcp, Modes: modesFor(m), Source: "Dynamic (Confirmed)", Remembered: true, Tier: 3}
	if m.HasPrefix {
		var out []*Rule
		for _, p := range m.CommandPrefix {
			pat := prefixPattern(p, !e.faults.Has(FaultPrefixNoWordBoundary) && !e.mut.is(MutPrefixBoundary))
			re, err := compileJS(pat)
			if err != nil {
				continue
			}
			r := base
			r.Pattern, r.PatternSource, r.Prefix, r.HasPrefix = re, pat, p, true
			out = append(out, &r)
		}
		return out
	}
	r := base
	if m.HasFilePath {
		pat := filePathPattern(m.FilePath)
		re, err := compileJS(pat)
		if err != nil {
			return nil
		}
		r.Pattern, r.PatternSource = re, pat
	} else if narrowingTools[tool] {
		return nil
	}
	return []*Rule{&r}
}

// savedFile is the auto-saved.toml the saved answers write, in the host's
// shape: a [[rule]] per answer, priority 950. An answer whose rule the
// file already holds (the same toolName, mcpName, commandPrefix written
// the same way and argsPattern: the updater's findMatchingRule) adds none:
// it sets that rule's modes to its own, as the updater does.
func (e *Engine) savedFile(list []Remembered) string {
	type saved struct {
		key, head, modes string
	}
	var rules []saved
	for _, m := range list {
		if !m.Saved {
			continue
		}
		tool := rememberedTool(m)
		if !m.HasPrefix && !m.HasFilePath && narrowingTools[tool] {
			continue
		}
		if m.McpServer != "" {
			tool = strings.TrimPrefix(tool, "mcp_"+m.McpServer+"_")
			if tool == "" {
				continue
			}
		}
		head := "[[rule]]\ndecision = \"allow\"\npriority = " + JSNumber(e.alwaysAllowFraction()) + "\ntoolName = " + tomlString(tool) + "\n"
		key := tool + "\x00"
		if m.McpServer != "" {
			head += "mcpName = " + tomlString(m.McpServer) + "\n"
			key += "m" + m.McpServer
		}
		key += "\x00"
		switch {
		case m.HasPrefix:
			if !m.PrefixList {
				head += "commandPrefix = " + tomlString(m.CommandPrefix[0]) + "\n"
				key += "s" + m.CommandPrefix[0]
			} else {
				parts := make([]string, len(m.CommandPrefix))
				for i, p := range m.CommandPrefix {
					parts[i] = tomlString(p)
				}
				head += "commandPrefix = [ " + strings.Join(parts, ", ") + " ]\n"
				key += "l" + strings.Join(parts, "\x00")
			}
		case m.HasFilePath:
			pat := filePathPattern(m.FilePath)
			head += "argsPattern = " + tomlString(pat) + "\n"
			key += "\x00a" + pat
		}
		modes := ""
		if ms := modesFor(m); ms != nil {
			parts := make([]string, len(ms))
			for i, p := range ms {
				parts[i] = tomlString(p)
			}
			modes = "modes = [ " + strings.Join(parts, ", ") + " ]\n"
		}
		found := false
		for i := range rules {
			if rules[i].key == key {
				found = true
				if modes != "" {
					rules[i].modes = modes
				}
				break
			}
		}
		if !found {
			rules = append(rules, saved{key, head, modes})
		}
	}
	var b strings.Builder
	for _, r := range rules {
		b.WriteString(r.head + r.modes + "\n")
	}
	return b.String()
}

// tomlString writes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\u00`)
			b.WriteByte("0123456789ABCDEF"[r>>4])
			b.WriteByte("0123456789ABCDEF"[r&15])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// TOMLString writes s as a TOML basic string, as deskcheck serialises a
// case's rules.
func TOMLString(s string) string { return tomlString(s) }

// extensionSource is a rule's source as loadExtensionPolicies rewrites it:
// source.replace(/^Extension: /, `Extension (${name}): `), whose
// replacement reads the extension's name as JavaScript reads a
// replacement string ($$, $&, $` and $' are patterns; the regular
// expression has no groups, so $1 and $<x> stay as written).
func extensionSource(source, name string) string {
	const prefix = "Extension: "
	if !strings.HasPrefix(source, prefix) {
		return source
	}
	repl := "Extension (" + name + "): "
	after := source[len(prefix):]
	var b strings.Builder
	for i := 0; i < len(repl); i++ {
		if repl[i] != '$' || i+1 == len(repl) {
			b.WriteByte(repl[i])
			continue
		}
		switch repl[i+1] {
		case '$':
			b.WriteByte('$')
		case '&':
			b.WriteString(prefix)
		case '`':
			// nothing comes before a match at the start
		case '\'':
			b.WriteString(after)
		default:
			b.WriteByte('$')
			continue
		}
		i++
	}
	return b.String() + after
}
