package geminicheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/deskcheck/deskcheck/host/gemini"
)

// given is a decoded policy-check given block. It is only read after
// decoding.
type given struct {
	call        gemini.Call
	mode        string
	modeSet     bool
	interactive bool
	trusted     bool
	trustedSet  bool
	policies    []policyFile
	settings    gemini.Settings
	remembered  []gemini.Remembered
	// rememberedRaw keeps what each answer wrote, for lint.
	rememberedRaw []rawRemembered
	// settingsKeys lists the settings keys the case sets, for narration.
	settingsKeys []string
	// shellErr is set when the shell command uses syntax outside the
	// model.
	shellErr error
}

// policyFile is one policy file of the case, its text as written to disk.
type policyFile struct {
	tier      gemini.Tier
	name      string
	extension string
	text      string
	// fromRules: the text was written from rule objects.
	fromRules bool
}

type rawRemembered struct {
	Tool          string          `json:"tool"`
	Scope         string          `json:"scope"`
	CommandPrefix json.RawMessage `json:"commandPrefix"`
	FilePath      *string         `json:"filePath"`
	McpServer     string          `json:"mcpServer"`
	AllTools      bool            `json:"allTools"`
	AnsweredIn    *string         `json:"answeredIn"`
}

type rawGiven struct {
	Tool          string            `json:"tool"`
	Args          json.RawMessage   `json:"args"`
	Server        *string           `json:"server"`
	Annotations   json.RawMessage   `json:"annotations"`
	Subagent      *string           `json:"subagent"`
	Mode          *string           `json:"mode"`
	Interactive   *bool             `json:"interactive"`
	TrustedFolder *bool             `json:"trustedFolder"`
	Policies      []json.RawMessage `json:"policies"`
	Settings      json.RawMessage   `json:"settings"`
	Remembered    []rawRemembered   `json:"remembered"`
}

type rawPolicy struct {
	Tier      string   `json:"tier"`
	File      *string  `json:"file"`
	Extension *string  `json:"extension"`
	TOML      *string  `json:"toml"`
	Rules     ruleList `json:"rules"`
}

// ruleList is a policy's "rules" and whether the key is there at all
// (null included), read in the policy's one pass.
type ruleList struct {
	items   []json.RawMessage
	present bool
}

func (l *ruleList) UnmarshalJSON(data []byte) error {
	l.present = true
	return json.Unmarshal(data, &l.items)
}

// decodeGiven reads a schema-valid given block.
func decodeGiven(data []byte) (*given, error) {
	var raw rawGiven
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	g := &given{mode: gemini.ModeDefault, interactive: true, trusted: true}
	g.call.Name = raw.Tool
	if len(raw.Args) > 0 {
		var v any
		if err := json.Unmarshal(raw.Args, &v); err != nil {
			return nil, err
		}
		g.call.Args, g.call.HasArgs = v, true
	}
	if raw.Server != nil {
		g.call.Server = *raw.Server
	}
	if raw.Subagent != nil {
		g.call.Subagent = *raw.Subagent
	}
	if len(raw.Annotations) > 0 {
		var m map[string]any
		if err := json.Unmarshal(raw.Annotations, &m); err != nil {
			return nil, fmt.Errorf("annotations: %v", err)
		}
		g.call.Annotations = m
	}
	if raw.Mode != nil {
		g.mode, g.modeSet = *raw.Mode, true
	}
	if raw.Interactive != nil {
		g.interactive = *raw.Interactive
	}
	if raw.TrustedFolder != nil {
		g.trusted, g.trustedSet = *raw.TrustedFolder, true
	}
	if gemini.IsShellTool(g.call.Name) {
		if m, ok := g.call.Args.(map[string]any); ok {
			if c, present := m["command"]; present {
				s, isStr := c.(string)
				if !isStr && c != nil && c != false && c != 0.0 {
					return nil, fmt.Errorf("args.command is %s: the host's parser reads a string", jsonKind(c))
				}
				if isStr && s != "" {
					if err := checkShell(s); err != nil {
						g.shellErr = err
					}
				}
			}
			if d, present := m["dir_path"]; present {
				if _, isStr := d.(string); !isStr && d != nil && d != false && d != 0.0 && d != "" {
					return nil, fmt.Errorf("args.dir_path is %s: the host resolves a string", jsonKind(d))
				}
			}
		}
	}
	if err := g.decodePolicies(raw.Policies); err != nil {
		return nil, err
	}
	if len(raw.Settings) > 0 {
		if err := g.decodeSettings(raw.Settings); err != nil {
			return nil, err
		}
	}
	for i, r := range raw.Remembered {
		m := gemini.Remembered{Tool: r.Tool, Saved: r.Scope == "saved", McpServer: r.McpServer, AllTools: r.AllTools, AnsweredIn: g.mode}
		if r.AnsweredIn != nil {
			m.AnsweredIn = *r.AnsweredIn
		}
		if len(r.CommandPrefix) > 0 {
			var s string
			if json.Unmarshal(r.CommandPrefix, &s) == nil {
				m.CommandPrefix, m.HasPrefix = []string{s}, s != ""
			} else {
				var list []string
				if err := json.Unmarshal(r.CommandPrefix, &list); err != nil {
					return nil, fmt.Errorf("remembered[%d].commandPrefix: %v", i, err)
				}
				m.CommandPrefix, m.HasPrefix, m.PrefixList = list, true, true
			}
		}
		if r.FilePath != nil {
			m.FilePath, m.HasFilePath = *r.FilePath, true
		}
		if r.AllTools && r.McpServer == "" {
			return nil, fmt.Errorf("remembered[%d]: allTools needs mcpServer", i)
		}
		g.remembered = append(g.remembered, m)
		g.rememberedRaw = append(g.rememberedRaw, r)
	}
	return g, nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "not a string"
}

// checkShell reports a command (or a part of it, or a wrapped script)
// whose syntax is outside the model.
func checkShell(command string) error {
	p, err := gemini.ParseShell(command)
	if err != nil {
		return err
	}
	for _, part := range p.Parts {
		if s := gemini.StripShellWrapper(part.Text); s != part.Text && s != "" {
			if err := checkShell(s); err != nil {
				return err
			}
		}
	}
	return nil
}

func (g *given) decodePolicies(list []json.RawMessage) error {
	counts := map[string]int{}
	names := map[string]bool{}
	for i, item := range list {
		var p rawPolicy
		if err := json.Unmarshal(item, &p); err != nil {
			return err
		}
		at := fmt.Sprintf("policies[%d]", i)
		var tier gemini.Tier
		switch p.Tier {
		case "user":
			tier = gemini.TierUser
		case "admin":
			tier = gemini.TierAdmin
		case "extension":
			tier = gemini.TierExtension
		case "workspace":
			return fmt.Errorf("%s.tier workspace: the CLI never loads workspace policies in any modelled release (disableWorkspacePolicies)", at)
		case "default":
			return fmt.Errorf("%s.tier default: the default tier is the release's own policy files", at)
		default:
			return fmt.Errorf("%s.tier %q: one of user, admin, extension", at, p.Tier)
		}
		if p.Extension != nil && tier != gemini.TierExtension {
			return fmt.Errorf("%s.extension: only an extension-tier file names an extension", at)
		}
		if (p.TOML == nil) == !p.Rules.present {
			return fmt.Errorf("%s: exactly one of toml and rules", at)
		}
		ext := ""
		if tier == gemini.TierExtension {
			ext = "ext"
			if p.Extension != nil {
				ext = *p.Extension
			}
		}
		counts[p.Tier]++
		name := p.Tier + ".toml"
		if n := counts[p.Tier]; n > 1 {
			name = p.Tier + strconv.Itoa(n) + ".toml"
		}
		if p.File != nil {
			name = *p.File
			if !strings.HasSuffix(name, ".toml") || strings.Contains(name, "/") || name == ".toml" {
				return fmt.Errorf("%s.file %q: a file name ending in .toml, with no /", at, name)
			}
		}
		key := p.Tier + "\x00" + ext + "\x00" + name
		if names[key] {
			return fmt.Errorf("%s.file %q: the folder already holds a file of that name", at, name)
		}
		if tier == gemini.TierUser && name == "auto-saved.toml" && g.hasSaved() {
			return fmt.Errorf("%s.file auto-saved.toml: the saved answers write that file", at)
		}
		names[key] = true
		f := policyFile{tier: tier, name: name, extension: ext}
		if p.TOML != nil {
			f.text = *p.TOML
		} else {
			text, err := rulesTOML(p.Rules.items)
			if err != nil {
				return fmt.Errorf("%s.rules: %v", at, err)
			}
			f.text, f.fromRules = text, true
		}
		g.policies = append(g.policies, f)
	}
	return nil
}

func (g *given) hasSaved() bool {
	for _, r := range g.remembered {
		if r.Saved {
			return true
		}
	}
	return false
}

// ruleKeys is the order deskcheck writes a rule object's keys in.
var ruleKeys = []string{"toolName", "mcpName", "subagent", "argsPattern", "commandPrefix", "commandRegex", "decision",
	"priority", "modes", "interactive", "toolAnnotations", "allowRedirection", "denyMessage"}

// rulesTOML writes rule objects as TOML: one [[rule]] table per object,
// keys in ruleKeys order, strings as basic strings, numbers as written.
func rulesTOML(rules []json.RawMessage) (string, error) {
	var b strings.Builder
	for i, raw := range rules {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var obj map[string]any
		if err := dec.Decode(&obj); err != nil {
			return "", err
		}
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("[[rule]]\n")
		for _, k := range ruleKeys {
			v, ok := obj[k]
			if !ok {
				continue
			}
			text, err := tomlValue(v)
			if err != nil {
				return "", fmt.Errorf("%s: %v", k, err)
			}
			b.WriteString(k + " = " + text + "\n")
		}
	}
	return b.String(), nil
}

func tomlValue(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return gemini.TOMLString(x), nil
	case json.Number:
		return x.String(), nil
	case bool:
		return strconv.FormatBool(x), nil
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			t, err := tomlValue(e)
			if err != nil {
				return "", err
			}
			parts[i] = t
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			t, err := tomlValue(x[k])
			if err != nil {
				return "", err
			}
			parts[i] = tomlKey(k) + " = " + t
		}
		return "{ " + strings.Join(parts, ", ") + " }", nil
	case nil:
		return "", fmt.Errorf("TOML has no null")
	}
	return "", fmt.Errorf("a value TOML cannot hold")
}

func tomlKey(k string) string {
	if k == "" {
		return `""`
	}
	for _, c := range k {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return gemini.TOMLString(k)
		}
	}
	return k
}

type rawSettings struct {
	Tools *struct {
		Exclude              []string `json:"exclude"`
		Allowed              []string `json:"allowed"`
		Core                 []string `json:"core"`
		ConfirmationRequired []string `json:"confirmationRequired"`
	} `json:"tools"`
	Mcp *struct {
		Excluded            []string `json:"excluded"`
		Allowed             []string `json:"allowed"`
		AutoAllowInHeadless bool     `json:"autoAllowInHeadless"`
	} `json:"mcp"`
	McpServers json.RawMessage `json:"mcpServers"`
	Security   *struct {
		DisableAlwaysAllow bool `json:"disableAlwaysAllow"`
	} `json:"security"`
	Admin *struct {
		SecureModeEnabled bool `json:"secureModeEnabled"`
	} `json:"admin"`
}

// present turns a decoded list into the model's: nil stays absent, an
// empty list present.
func present(l []string, raw json.RawMessage, key string) []string {
	if l == nil && bytes.Contains(raw, []byte(`"`+key+`"`)) {
		return []string{}
	}
	return l
}

func (g *given) decodeSettings(raw json.RawMessage) error {
	var s rawSettings
	if err := json.Unmarshal(raw, &s); err != nil {
		return err
	}
	set := &g.settings
	if s.Tools != nil {
		set.ToolsExclude = present(s.Tools.Exclude, raw, "exclude")
		set.ToolsAllowed = present(s.Tools.Allowed, raw, "allowed")
		set.ToolsCore = present(s.Tools.Core, raw, "core")
		set.ToolsConfirmationRequired = present(s.Tools.ConfirmationRequired, raw, "confirmationRequired")
	}
	if s.Mcp != nil {
		set.McpExcluded = present(s.Mcp.Excluded, raw, "excluded")
		set.McpAllowed = present(s.Mcp.Allowed, raw, "allowed")
		set.McpAutoAllowInHeadless = s.Mcp.AutoAllowInHeadless
	}
	if len(s.McpServers) > 0 {
		servers, err := orderedServers(s.McpServers)
		if err != nil {
			return err
		}
		set.McpServers = servers
	}
	set.DisableAlwaysAllow = s.Security != nil && s.Security.DisableAlwaysAllow || s.Admin != nil && s.Admin.SecureModeEnabled
	for _, k := range []struct {
		on   bool
		name string
	}{
		{set.ToolsExclude != nil, "tools.exclude"}, {set.ToolsAllowed != nil, "tools.allowed"}, {set.ToolsCore != nil, "tools.core"},
		{set.ToolsConfirmationRequired != nil, "tools.confirmationRequired"}, {set.McpExcluded != nil, "mcp.excluded"},
		{set.McpAllowed != nil, "mcp.allowed"}, {set.McpAutoAllowInHeadless, "mcp.autoAllowInHeadless"},
		{set.McpServers != nil, "mcpServers"}, {set.DisableAlwaysAllow, "disableAlwaysAllow"},
	} {
		if k.on {
			g.settingsKeys = append(g.settingsKeys, k.name)
		}
	}
	return nil
}

// orderedServers reads mcpServers in the order JavaScript's Object.entries
// gives: integer-like keys ascending first, then the others as written
// (a repeated key keeps its first place and its last value).
func orderedServers(raw json.RawMessage) ([]gemini.McpServer, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	var order []string
	vals := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k := tok.(string)
		var v struct {
			Trust bool `json:"trust"`
		}
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if _, seen := vals[k]; !seen {
			order = append(order, k)
		}
		vals[k] = v.Trust
	}
	var ints, others []string
	for _, k := range order {
		if isArrayIndex(k) {
			ints = append(ints, k)
		} else {
			others = append(others, k)
		}
	}
	sort.Slice(ints, func(i, j int) bool {
		a, _ := strconv.ParseUint(ints[i], 10, 32)
		b, _ := strconv.ParseUint(ints[j], 10, 32)
		return a < b
	})
	out := []gemini.McpServer{}
	for _, k := range append(ints, others...) {
		out = append(out, gemini.McpServer{Name: k, Trust: vals[k]})
	}
	return out, nil
}

// isArrayIndex: a canonical integer below 2^32-1, which JavaScript orders
// first among an object's keys.
func isArrayIndex(k string) bool {
	if k == "" || len(k) > 1 && k[0] == '0' {
		return false
	}
	n, err := strconv.ParseUint(k, 10, 64)
	return err == nil && n < 1<<32-1
}

// config builds the model's configuration for one run.
func (g *given) config(r gemini.Release) gemini.Config {
	cfg := gemini.Config{Release: r, Mode: g.mode, Interactive: g.interactive, Trusted: g.trusted, Settings: g.settings, Remembered: g.remembered}
	for _, p := range g.policies {
		cfg.Policies = append(cfg.Policies, gemini.PolicyInput{Tier: p.tier, Name: p.name, Extension: p.extension, Text: p.text})
	}
	return cfg
}

// HarnessGiven is a given block as the real-code harness reads it: the
// same keys, each policy file as {tier, file, extension, toml} with the
// text the model reads (rule objects written as TOML, names defaulted).
func HarnessGiven(raw []byte) ([]byte, error) {
	g, err := decodeGiven(raw)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	type file struct {
		Tier      string `json:"tier"`
		File      string `json:"file"`
		Extension string `json:"extension,omitempty"`
		TOML      string `json:"toml"`
	}
	files := make([]file, len(g.policies))
	for i, p := range g.policies {
		files[i] = file{Tier: p.tier.String(), File: p.name, Extension: p.extension, TOML: p.text}
	}
	if len(files) > 0 {
		data, err := json.Marshal(files)
		if err != nil {
			return nil, err
		}
		m["policies"] = data
	}
	return json.Marshal(m)
}

// Check runs one given block on the model of release version, with the
// faults switched on (none for the correct model), as a run of the
// scenario does, and returns its observation.
func Check(raw []byte, version string, faults gemini.Faults) (map[string]any, error) {
	g, err := decodeGiven(raw)
	if err != nil {
		return nil, err
	}
	if g.shellErr != nil {
		return nil, g.shellErr
	}
	r, err := gemini.Lookup(version)
	if err != nil {
		return nil, err
	}
	cfg := g.config(r)
	cfg.Faults = faults
	res, eng, err := Judge(cfg, g.call)
	if err != nil {
		return nil, err
	}
	return Observed(res, eng, g.interactive, faults), nil
}
