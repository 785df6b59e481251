package gemini

import (
	"math"
	"strconv"
	"strings"
)

// The host validates a policy file with zod (version 3) against
// PolicyFileSchema (policy/toml-loader.js) and reports every issue zod
// finds, one line each, `  - Field "PATH": MESSAGE`, under "Invalid policy
// rule (rule #1):" (formatSchemaError, always given rule index 0). zod
// checks an object's keys in the schema's order, every key and every
// element of an array, and keeps going after an issue; its messages are
// its default English ones but where the schema gives its own (priority).
// zodIssues gives those lines for a parsed file, in zod's order. The
// model's own check (validateFile) decides whether the file loads; this
// only says what the host says of a file that does not.

// The enums' values, in their declaration order (policy/types.js).
var (
	zodDecisions = []string{"allow", "deny", "ask_user"}
	zodModes     = []string{"default", "autoEdit", "yolo", "plan"}
	zodCheckers  = []string{"allowed-path", "conseca"}
)

// zodType is zod's getParsedType of a parsed TOML value.
func zodType(v any) string {
	switch x := v.(type) {
	case nil:
		return "undefined"
	case string:
		return "string"
	case float64:
		if math.IsNaN(x) {
			return "nan"
		}
		return "number"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case jsBigInt:
		return "bigint"
	case tomlDate:
		return "date"
	}
	return "unknown"
}

// zodList is util.joinValues: strings quoted, joined by " | ".
func zodList(values []string) string {
	return "'" + strings.Join(values, "' | '") + "'"
}

type zodCheck struct{ lines []string }

func (z *zodCheck) add(path []string, msg string) {
	z.lines = append(z.lines, `  - Field "`+strings.Join(path, ".")+`": `+msg)
}

func at(path []string, key string) []string {
	return append(append([]string(nil), path...), key)
}

// invalidType is zod's invalid_type issue: "Required" for a missing
// value, else "Expected E, received R".
func (z *zodCheck) invalidType(path []string, expected string, v any) {
	if v == nil {
		z.add(path, "Required")
		return
	}
	z.add(path, "Expected "+expected+", received "+zodType(v))
}

// str is z.string(); optional when opt.
func (z *zodCheck) str(t map[string]any, path []string, key string, opt bool) {
	v, ok := t[key]
	if !ok && opt {
		return
	}
	if _, isStr := v.(string); !isStr {
		z.invalidType(at(path, key), "string", v)
	}
}

// boolean is z.boolean().optional().
func (z *zodCheck) boolean(t map[string]any, path []string, key string) {
	if v, ok := t[key]; ok {
		if _, isBool := v.(bool); !isBool {
			z.invalidType(at(path, key), "boolean", v)
		}
	}
}

// stringOrList is z.union([z.string(), z.array(z.string())]): any failure
// is one invalid_union issue, "Invalid input".
func (z *zodCheck) stringOrList(t map[string]any, path []string, key string, opt bool) {
	v, ok := t[key]
	if !ok && opt {
		return
	}
	switch x := v.(type) {
	case string:
		return
	case []any:
		all := true
		for _, e := range x {
			_, isStr := e.(string)
			all = all && isStr
		}
		if all {
			return
		}
	}
	z.add(at(path, key), "Invalid input")
}

// nativeEnum is z.nativeEnum(E): a string or number not among the values
// is invalid_enum_value; another type is invalid_type.
func (z *zodCheck) nativeEnum(path []string, v any, values []string) {
	switch x := v.(type) {
	case string:
		for _, s := range values {
			if x == s {
				return
			}
		}
		z.add(path, "Invalid enum value. Expected "+zodList(values)+", received '"+x+"'")
	case float64:
		if math.IsNaN(x) {
			z.invalidType(path, zodList(values), v)
			return
		}
		z.add(path, "Invalid enum value. Expected "+zodList(values)+", received '"+JSNumber(x)+"'")
	default:
		z.invalidType(path, zodList(values), v)
	}
}

// modes is z.array(z.nativeEnum(ApprovalMode)).optional().
func (z *zodCheck) modes(t map[string]any, path []string) {
	v, ok := t["modes"]
	if !ok {
		return
	}
	list, isList := v.([]any)
	if !isList {
		z.invalidType(at(path, "modes"), "array", v)
		return
	}
	for j, m := range list {
		z.nativeEnum(at(at(path, "modes"), strconv.Itoa(j)), m, zodModes)
	}
}

// record is z.record(...).optional().
func (z *zodCheck) record(t map[string]any, path []string, key string) {
	if v, ok := t[key]; ok {
		if _, isMap := v.(map[string]any); !isMap {
			z.invalidType(at(path, key), "object", v)
		}
	}
}

// rule is PolicyRuleSchema.
func (z *zodCheck) rule(t map[string]any, path []string) {
	z.stringOrList(t, path, "toolName", false)
	z.str(t, path, "subagent", true)
	z.str(t, path, "mcpName", true)
	z.str(t, path, "argsPattern", true)
	z.stringOrList(t, path, "commandPrefix", true)
	z.str(t, path, "commandRegex", true)
	z.nativeEnum(at(path, "decision"), t["decision"], zodDecisions)
	p := at(path, "priority")
	switch v, ok := t["priority"]; {
	case !ok:
		z.add(p, "priority is required")
	case zodType(v) != "number":
		z.add(p, "priority must be a number")
	default:
		f := v.(float64)
		if f != math.Trunc(f) || math.IsInf(f, 0) {
			z.add(p, "priority must be an integer")
		}
		if f < 0 {
			z.add(p, "priority must be >= 0")
		}
		if f > 999 {
			z.add(p, "priority must be <= 999 to prevent tier overflow. Priorities >= 1000 would jump to the next tier.")
		}
	}
	z.modes(t, path)
	z.boolean(t, path, "interactive")
	z.record(t, path, "toolAnnotations")
	z.boolean(t, path, "allowRedirection")
	z.boolean(t, path, "allow_redirection")
	z.str(t, path, "denyMessage", true)
	z.str(t, path, "deny_message", true)
}

// checker is SafetyCheckerRuleSchema.
func (z *zodCheck) checker(t map[string]any, path []string) {
	z.stringOrList(t, path, "toolName", false)
	z.str(t, path, "mcpName", true)
	z.str(t, path, "argsPattern", true)
	z.stringOrList(t, path, "commandPrefix", true)
	z.str(t, path, "commandRegex", true)
	if v, ok := t["priority"]; ok {
		if zodType(v) != "number" {
			z.invalidType(at(path, "priority"), "number", v)
		} else if f := v.(float64); f != math.Trunc(f) || math.IsInf(f, 0) {
			z.add(at(path, "priority"), "Expected integer, received float")
		}
	}
	z.modes(t, path)
	z.record(t, path, "toolAnnotations")
	cp := at(path, "checker")
	c, isMap := t["checker"].(map[string]any)
	if !isMap {
		z.invalidType(cp, "object", t["checker"])
		return
	}
	typ, _ := c["type"].(string)
	switch typ {
	case "in-process":
		z.nativeEnum(at(cp, "name"), c["name"], zodCheckers)
	case "external":
		z.str(c, cp, "name", false)
	default:
		z.add(at(cp, "type"), "Invalid discriminator value. Expected 'in-process' | 'external'")
		return
	}
	if v, ok := c["required_context"]; ok {
		list, isList := v.([]any)
		if !isList {
			z.invalidType(at(cp, "required_context"), "array", v)
		} else {
			for j, e := range list {
				if _, isStr := e.(string); !isStr {
					z.invalidType(at(at(cp, "required_context"), strconv.Itoa(j)), "string", e)
				}
			}
		}
	}
	z.record(c, cp, "config")
}

// list is z.array(item).optional() at the top of the file.
func (z *zodCheck) list(doc map[string]any, key string, item func(map[string]any, []string)) {
	v, ok := doc[key]
	if !ok {
		return
	}
	list, isList := v.([]any)
	if !isList {
		z.invalidType([]string{key}, "array", v)
		return
	}
	for i, e := range list {
		path := []string{key, strconv.Itoa(i)}
		t, isMap := e.(map[string]any)
		if !isMap {
			z.invalidType(path, "object", e)
			continue
		}
		item(t, path)
	}
}

// zodIssues is the host's formatSchemaError of PolicyFileSchema's issues
// with doc: "" when zod finds none.
func zodIssues(doc map[string]any) string {
	var z zodCheck
	z.list(doc, "rule", z.rule)
	z.list(doc, "safety_checker", z.checker)
	if len(z.lines) == 0 {
		return ""
	}
	return "Invalid policy rule (rule #1):\n" + strings.Join(z.lines, "\n")
}
