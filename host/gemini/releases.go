package gemini

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"
)

// Package is the npm package whose policy engine the model follows.
const Package = "@google/gemini-cli-core"

// Group is a behaviour group of the modelled releases: releases of one
// group give the same answer to every case (spec §1.4).
type Group int

// The behaviour groups, oldest first.
const (
	// G1 (0.40.0): a redirection asks in every mode; a command with a
	// syntax error is split into the parts found; a bare rg is known safe.
	G1 Group = iota + 1
	// G2 (0.44.1 … 0.50.0): no redirection downgrade in YOLO and autoEdit;
	// a parse failure denies in YOLO under a rule with a pattern.
	G2
	// G3 (0.52.0, 0.55.0): plan mode allows writing a plan file.
	G3
	// G4 (0.58.0, 0.59.0): git asks in an untrusted folder; the heuristics
	// no longer turn a deny into ask_user.
	G4
	// G5 (0.60.0): a working folder or file argument outside the workspace
	// asks; ln -s is dangerous.
	G5
	// G6 (0.61.0): build-file protection.
	G6
)

func (g Group) String() string { return fmt.Sprintf("G%d", int(g)) }

// Release is one modelled release.
type Release struct {
	Version string
	Group   Group
	// Composite is the first 12 hex digits of the SHA-256 of the
	// manifest of the release's policy modules (HashedModules): one line
	// per file, "SHA256HEX  PATH\n" as sha256sum writes it, "missing
	// PATH" for a file the release lacks, in HashedModules' order.
	Composite string
	// Tag is the date of the release's git tag, "" when it has none.
	Tag string
	// policies names the folder of policies/ holding the release's
	// default policy files.
	policies string
}

// releases are the modelled releases, oldest first.
var releases = []Release{
	{Version: "0.40.0", Group: G1, Composite: "72a26442b02e", Tag: "2026-04-28", policies: "v0.40.0"},
	{Version: "0.44.1", Group: G2, Composite: "2990a5853967", Tag: "2026-05-28", policies: "v0.44.1"},
	{Version: "0.45.0", Group: G2, Composite: "d0fcb77fa4cc", Tag: "2026-06-03", policies: "v0.44.1"},
	{Version: "0.50.0", Group: G2, Composite: "88f14894946c", Tag: "2026-07-08", policies: "v0.50.0"},
	{Version: "0.52.0", Group: G3, Composite: "bb5c4fe7f31e", Tag: "2026-07-22", policies: "v0.52.0"},
	{Version: "0.55.0", Group: G3, Composite: "bb5c4fe7f31e", Tag: "", policies: "v0.52.0"},
	{Version: "0.58.0", Group: G4, Composite: "26be349b21ce", Tag: "", policies: "v0.58.0"},
	{Version: "0.59.0", Group: G4, Composite: "26be349b21ce", Tag: "", policies: "v0.58.0"},
	{Version: "0.60.0", Group: G5, Composite: "5606c3bb95dd", Tag: "", policies: "v0.58.0"},
	{Version: "0.61.0", Group: G6, Composite: "777f05a1e9a1", Tag: "", policies: "v0.58.0"},
}

// HashedModules are the files of a release's tarball (under dist/src/)
// whose hashes group the releases; policy/policies/*.toml stands for
// every default policy file, in name order.
var HashedModules = []string{
	"policy/policy-engine.js", "policy/config.js", "policy/toml-loader.js", "policy/types.js", "policy/utils.js",
	"policy/stable-stringify.js", "policy/policies/*.toml", "utils/shell-utils.js", "sandbox/utils/commandSafety.js",
	"services/sandboxManager.js", "utils/paths.js", "utils/buildFileUtils.js", "utils/security.js", "tools/tool-names.js",
	"tools/mcp-tool.js", "config/storage.js", "scheduler/policy.js",
}

// Releases returns the modelled releases, oldest first.
func Releases() []Release { return append([]Release(nil), releases...) }

// Newest is the newest modelled release.
func Newest() Release { return releases[len(releases)-1] }

// Lookup finds a modelled release.
func Lookup(version string) (Release, error) {
	for _, r := range releases {
		if r.Version == version {
			return r, nil
		}
	}
	names := make([]string, len(releases))
	for i, r := range releases {
		names[i] = r.Version
	}
	return Release{}, fmt.Errorf("gemini %s is not a modelled release (modelled: %s)", version, strings.Join(names, ", "))
}

// Unmodelled are the stable releases the registry serves below 0.40.0,
// oldest first within each group, by what keeps them out of the model
// (spec §1.1). A case's range that reaches them is judged on the modelled
// releases it selects only, with the lint warning unmodelled-release.
var Unmodelled = []struct {
	Versions []string
	Why      string
}{
	{[]string{"0.32.1", "0.33.0", "0.33.1", "0.33.2", "0.34.0", "0.35.0", "0.35.2", "0.35.3", "0.36.0"}, "the engine turns a headless ask into deny"},
	{[]string{"0.31.0"}, "four tiers, admin 4"},
	{[]string{"0.24.0", "0.24.5", "0.25.0", "0.25.2", "0.26.0", "0.27.0", "0.27.4", "0.28.1", "0.28.2", "0.29.0", "0.30.0", "0.30.1"}, "three tiers; a session \"always allow\" beats user rules"},
	{[]string{"0.13.0", "0.14.0", "0.15.1", "0.15.3", "0.15.4", "0.16.0", "0.17.0", "0.17.1", "0.18.4", "0.19.1", "0.19.4", "0.20.0", "0.20.2", "0.21.3", "0.22.4"}, "the engine is not the only confirmation path"},
	{[]string{"0.1.4", "0.1.5", "0.1.7", "0.1.9", "0.1.10", "0.1.11", "0.1.13", "0.1.14", "0.1.15", "0.1.16", "0.1.18", "0.1.19", "0.1.20", "0.1.21", "0.1.22", "0.2.1", "0.2.2", "0.3.4", "0.4.0", "0.4.1", "0.5.5", "0.6.1", "0.7.0", "0.8.2", "0.9.0", "0.10.0", "0.11.3", "0.12.0"}, "no TOML loader in the core package"},
}

// Change is one behaviour change between groups.
type Change struct {
	Since string
	ID    string
	What  string
}

// Changes are the behaviour changes at each group boundary, oldest first.
func Changes() []Change {
	return []Change{
		{"0.44.1", "yolo-redirection", "a redirection no longer asks in YOLO and autoEdit"},
		{"0.44.1", "parse-failure-denies", "a command with a syntax error is a parse failure: YOLO denies it under a rule with a pattern"},
		{"0.44.1", "rg-absolute-only", "a bare rg is no longer known safe"},
		{"0.52.0", "plan-files", "plan mode allows writing a .md plan file"},
		{"0.58.0", "untrusted-git", "a git command in an untrusted folder asks"},
		{"0.58.0", "deny-kept", "the heuristics no longer turn a deny into ask_user for a dangerous command"},
		{"0.60.0", "outside-workspace", "a dir_path or file argument outside the workspace asks"},
		{"0.60.0", "ln-dangerous", "ln -s is dangerous"},
		{"0.61.0", "build-files", "an allowed edit of a build file asks (headless: deny)"},
	}
}

//go:embed policies
var policyFS embed.FS

// policyFile is one default policy file. prefixed: a rule of it has a
// commandPrefix (so that loading it asks whether a prefix ends at a word).
type policyFile struct {
	Name, Text string
	prefixed   bool
}

// defaultPolicies returns the release's own policy/policies/*.toml, in
// name order.
func defaultPolicies(r Release) []policyFile {
	if v, ok := defaultsRead.Load(r.policies); ok {
		return v.([]policyFile)
	}
	v, _ := defaultsRead.LoadOrStore(r.policies, readDefaultPolicies(r))
	return v.([]policyFile)
}

// defaultsRead holds each policies folder's files once read; the slices
// are only read.
var defaultsRead sync.Map

func readDefaultPolicies(r Release) []policyFile {
	dir := "policies/" + r.policies
	entries, err := fs.ReadDir(policyFS, dir)
	if err != nil {
		panic("gemini: the default policies of " + r.Version + " are not embedded: " + err.Error())
	}
	var out []policyFile
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".toml") {
			continue
		}
		data, err := policyFS.ReadFile(dir + "/" + e.Name())
		if err != nil {
			panic("gemini: " + err.Error())
		}
		out = append(out, policyFile{Name: e.Name(), Text: string(data)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	for i := range out {
		for _, r := range readFile(out[i].Text).raws {
			out[i].prefixed = out[i].prefixed || r.hasCommandPrefix
		}
	}
	return out
}

// DefaultPolicyFiles returns the release's default policy files by name,
// as the model embeds them.
func DefaultPolicyFiles(r Release) map[string]string {
	out := map[string]string{}
	for _, f := range defaultPolicies(r) {
		out[f.Name] = f.Text
	}
	return out
}
