package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/scenario"
	"github.com/deskcheck/deskcheck/verifier"
)

// helpWidth is the width help SCENARIO wraps its descriptions to, the
// width of the rest of the help text.
const helpWidth = 80

// helpTopics are the names help takes: every command and every scenario.
func helpTopics(reg *scenario.Registry) []string {
	return append(commandNames(), reg.Names()...)
}

// helpScenario prints the reference of one scenario: what it is, every
// given and expected key with the description its schema fragment gives
// it (the one place the keys are listed), how each expected key is
// compared, its limits, its warnings and the faults of its host its cases
// can expose.
func helpScenario(w io.Writer, reg *scenario.Registry, name string) error {
	sc, fam, ok := reg.Lookup(name)
	if !ok {
		return fmt.Errorf("unknown scenario %q", name)
	}
	frag, err := parseSchemaNode(sc.Schema)
	if err != nil {
		return fmt.Errorf("scenario %s: its schema fragment: %v", name, err)
	}
	var b strings.Builder
	b.WriteString(wrapText(fmt.Sprintf("Scenario %s (host %s): %s.", sc.Name, fam.Host.Name, strings.TrimSuffix(sc.Description, ".")), "", helpWidth))
	fmt.Fprintf(&b, "Its trace counts %ss. Manual: %s\n", sc.Unit, all.Manual(*fam))
	fmt.Fprintf(&b, "deskcheck new %s prints a desk with every key.\n", sc.Name)

	given := frag.child("given")
	head := "Given keys"
	if d := given.description(frag); d != "" {
		head += ": " + strings.TrimSuffix(d, ".")
	}
	b.WriteString("\n" + wrapText(head+".", "", helpWidth))
	var keys []keyLine
	given.walk(frag, "", given.requiredSet(), &keys)
	writeKeys(&b, keys)

	expected := frag.child("expected")
	head = "Expected keys, with how each is compared"
	if d := expected.description(frag); d != "" {
		head += " (" + strings.TrimSuffix(d, ".") + ")"
	}
	b.WriteString("\n" + wrapText(head+".", "", helpWidth))
	keys = keys[:0]
	required := expected.requiredSet()
	props := expected.child("properties")
	for _, o := range sc.Expected {
		k := keyLine{key: o.Key, note: o.Comparer.Name(), desc: props.child(o.Key).description(frag)}
		if o.Count {
			k.note += ", a count"
		}
		if required[o.Key] {
			k.note += ", required"
		}
		keys = append(keys, k)
	}
	writeKeys(&b, keys)

	if len(sc.Limits) > 0 {
		fmt.Fprintf(&b, "\nLimits (set one with -limit %s.NAME=N):\n", sc.Name)
		keys = keys[:0]
		for _, l := range sc.Limits {
			keys = append(keys, keyLine{key: sc.Name + "." + l.Name, note: limitDefault(l), desc: l.Help})
		}
		writeKeys(&b, keys)
	}

	if len(sc.Warnings) > 0 {
		b.WriteString("\nWarnings of its lint, by the name an \"acknowledge\" key gives them:\n")
		keys = keys[:0]
		for _, wn := range sc.Warnings {
			keys = append(keys, keyLine{key: wn.Name, desc: wn.Help})
		}
		writeKeys(&b, keys)
	}

	keys = keys[:0]
	for _, f := range reg.Faults() {
		if f.Host == fam.Host.Name && (len(f.Scenarios) == 0 || slices.Contains(f.Scenarios, sc.Name)) {
			keys = append(keys, keyLine{key: f.FullName(), desc: f.Bug})
		}
	}
	if len(keys) > 0 {
		fmt.Fprintf(&b, "\nFaults of host %s its cases can expose (deskcheck faults -fault NAME):\n", fam.Host.Name)
		writeKeys(&b, keys)
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// limitDefault says a limit's default and what it bounds.
func limitDefault(l scenario.Limit) string {
	switch {
	case l.Measured:
		if l.Default%(1<<20) == 0 {
			return fmt.Sprintf("%d MiB of copied case data", l.Default>>20)
		}
		return verifier.Thousands(l.Default) + " bytes of copied case data"
	case l.Count:
		return "at most " + verifier.Thousands(l.Default) + " entries"
	}
	return "at most " + verifier.Thousands(l.Default)
}

// keyLine is one entry of a list: a key, a short note (a comparer, a
// default) and its description.
type keyLine struct {
	key, note, desc string
}

// writeKeys writes a list of keys, each on its own line followed by its
// note and its description wrapped under it.
func writeKeys(b *strings.Builder, keys []keyLine) {
	for _, k := range keys {
		b.WriteString("  " + k.key)
		if k.note != "" {
			b.WriteString("  (" + k.note + ")")
		}
		b.WriteString("\n")
		desc := k.desc
		if desc == "" {
			desc = "(no description)"
		}
		b.WriteString(wrapText(desc, "      ", helpWidth))
	}
}

// wrapText wraps text at spaces to width columns, each line indented.
func wrapText(text, indent string, width int) string {
	var b strings.Builder
	line := indent
	for _, word := range strings.Fields(text) {
		if len(line) > len(indent) && len(line)+1+len(word) > width {
			b.WriteString(line + "\n")
			line = indent
		}
		if len(line) > len(indent) {
			line += " "
		}
		line += word
	}
	b.WriteString(line + "\n")
	return b.String()
}

// schemaNode is a JSON Schema object with its keys in the order the
// fragment writes them, so that the keys are listed as the author of the
// fragment ordered them.
type schemaNode struct {
	keys []string
	vals map[string]json.RawMessage
}

// parseSchemaNode reads one JSON object keeping its key order; anything
// else is an empty node.
func parseSchemaNode(data []byte) (*schemaNode, error) {
	n := &schemaNode{vals: map[string]json.RawMessage{}}
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('{') {
		return n, nil
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, errors.New("an object key is not a string")
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		if _, dup := n.vals[key]; !dup {
			n.keys = append(n.keys, key)
		}
		n.vals[key] = raw
	}
	return n, nil
}

// child is the object under key (an empty node when there is none).
func (n *schemaNode) child(key string) *schemaNode {
	if n != nil {
		if raw, ok := n.vals[key]; ok {
			if c, err := parseSchemaNode(raw); err == nil {
				return c
			}
		}
	}
	return &schemaNode{vals: map[string]json.RawMessage{}}
}

// str is the string under key, "" when there is none.
func (n *schemaNode) str(key string) string {
	var s string
	if raw, ok := n.vals[key]; ok {
		_ = json.Unmarshal(raw, &s)
	}
	return s
}

// description is the node's own description, else that of the definition
// its $ref names (#/definitions/NAME of the fragment root).
func (n *schemaNode) description(root *schemaNode) string {
	if d := n.str("description"); d != "" {
		return d
	}
	if ref, ok := strings.CutPrefix(n.str("$ref"), "#/definitions/"); ok {
		return root.child("definitions").child(ref).str("description")
	}
	return ""
}

// requiredSet is the set of the node's required keys.
func (n *schemaNode) requiredSet() map[string]bool {
	var req []string
	if raw, ok := n.vals["required"]; ok {
		_ = json.Unmarshal(raw, &req)
	}
	set := make(map[string]bool, len(req))
	for _, k := range req {
		set[k] = true
	}
	return set
}

// walk lists the properties of n, and below each the properties of the
// object it holds or of the objects its array holds (prefix.key.sub,
// prefix.key[].sub), depth first in the fragment's order.
func (n *schemaNode) walk(root *schemaNode, prefix string, required map[string]bool, out *[]keyLine) {
	props := n.child("properties")
	for _, k := range props.keys {
		p := props.child(k)
		line := keyLine{key: prefix + k, desc: p.description(root)}
		if required[k] {
			line.note = "required"
		}
		*out = append(*out, line)
		if obj := p.resolve(root); obj.has("properties") {
			obj.walk(root, prefix+k+".", obj.requiredSet(), out)
		}
		if items := p.child("items").resolve(root); items.has("properties") {
			items.walk(root, prefix+k+"[].", items.requiredSet(), out)
		}
	}
}

// resolve is the definition n's $ref names, when n is only a reference
// (#/definitions/NAME of the fragment root); else n itself.
func (n *schemaNode) resolve(root *schemaNode) *schemaNode {
	if ref, ok := strings.CutPrefix(n.str("$ref"), "#/definitions/"); ok && !n.has("properties") {
		return root.child("definitions").child(ref)
	}
	return n
}

func (n *schemaNode) has(key string) bool {
	_, ok := n.vals[key]
	return ok
}

// helpUnknown is the message for a help topic that is neither a command
// nor a scenario.
func helpUnknown(reg *scenario.Registry, name string) string {
	topics := helpTopics(reg)
	sort.Strings(topics)
	return fmt.Sprintf("deskcheck: unknown command or scenario %q%s\nusage: deskcheck help COMMAND | SCENARIO (commands: %s; scenarios: %s)\n",
		name, didYouMean(name, topics), strings.Join(commandNames(), ", "), strings.Join(reg.Names(), ", "))
}

// helpTopic is help for a name that is not a command: a scenario's
// reference, or exit 2 with a suggestion.
func helpTopic(name string, stdout, stderr io.Writer) int {
	reg := all.Registry()
	if _, _, ok := reg.Lookup(name); !ok {
		fmt.Fprint(stderr, helpUnknown(reg, name))
		return exitInvalid
	}
	if err := helpScenario(stdout, reg, name); err != nil {
		fmt.Fprintf(stderr, "deskcheck: %v\n", err)
		return exitFail
	}
	return exitPass
}
