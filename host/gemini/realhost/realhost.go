// Package realhost runs policy-check cases on a release's own policy engine
// of @google/gemini-cli-core: a node harness (harness/) reads one case per
// line on stdin and answers one line per case, with the decision, the rule
// the engine reports, the heuristics its debug lines name and the policy
// files' problems. Nothing of a case is executed: the harness hands the
// call to the engine's check.
//
// The package prepares a run folder (the harness, an empty workspace, a
// home and a temporary folder), says which process to start (Command), and
// speaks the harness's protocol (Session) over any pair of pipes: it
// starts no process itself. Open starts the harness with the Start the
// driver passes (the sandbox); the strace test starts it under strace.
package realhost

import (
	"bufio"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/deskcheck/deskcheck/host/gemini"
	"github.com/deskcheck/deskcheck/internal/realcode"
)

//go:embed harness/*.mjs
var harnessFS embed.FS

// Command is the process a run starts: node with the stand-in loader and
// the harness, in the run's empty workspace, with an environment that
// holds HOME, TMPDIR and a PATH with node only.
type Command struct {
	Program string
	Args    []string
	Env     []string
	Dir     string
	// Root is the run's folder; everything the run writes lies inside it.
	Root string
}

// Prepare makes the run folder under root (the harness, ws/, home/, tmp/)
// and returns the command that runs the release installed at coreDir (the
// unpacked package, with node_modules beside its dist/), in the run's
// folders as the host sees them; InSandbox says how the sandbox shows them.
func Prepare(root, coreDir, node string) (Command, error) {
	if _, err := os.Stat(filepath.Join(coreDir, "dist", "src", "policy", "policy-engine.js")); err != nil {
		return Command{}, fmt.Errorf("no gemini policy engine installed at %s: %w", coreDir, err)
	}
	for _, d := range []string{"harness", "ws", "home", "tmp"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			return Command{}, err
		}
	}
	entries, err := harnessFS.ReadDir("harness")
	if err != nil {
		return Command{}, err
	}
	for _, e := range entries {
		data, err := harnessFS.ReadFile("harness/" + e.Name())
		if err != nil {
			return Command{}, err
		}
		if err := os.WriteFile(filepath.Join(root, "harness", e.Name()), data, 0o644); err != nil {
			return Command{}, err
		}
	}
	h := filepath.Join(root, "harness")
	return Command{
		Program: node,
		Args:    []string{"--import", filepath.Join(h, "stubs.mjs"), filepath.Join(h, "harness.mjs"), coreDir, root},
		Env:     []string{"HOME=" + filepath.Join(root, "home"), "TMPDIR=" + filepath.Join(root, "tmp"), "PATH=" + filepath.Dir(node), "LANG=C.UTF-8"},
		Dir:     filepath.Join(root, "ws"),
		Root:    root,
	}, nil
}

// InSandbox is c as the sandbox runs it: the run's ws folder seen at
// gemini.Workspace and its home folder at gemini.Home, the folders the
// model takes them to be, so that a path a case names (/workspace/a.txt,
// ~/x) means the same to the release as to the model; node starts in the
// workspace, which the harness hands to the engine. Only the sandbox can
// show a folder at another path: a run without it is refused
// (realcode.ErrNoBind), never run with other paths.
func (c Command) InSandbox() (dir string, env []string, binds []realcode.Bind) {
	env = make([]string, len(c.Env))
	for i, e := range c.Env {
		if strings.HasPrefix(e, "HOME=") {
			e = "HOME=" + gemini.Home
		}
		env[i] = e
	}
	binds = []realcode.Bind{
		{From: filepath.Join(c.Root, "ws"), To: gemini.Workspace},
		{From: filepath.Join(c.Root, "home"), To: gemini.Home},
	}
	return gemini.Workspace, env, binds
}

// Hello is the harness's first line.
type Hello struct {
	Release     string   `json:"release"`
	Node        string   `json:"node"`
	Adaptations []string `json:"adaptations"`
}

// Answer is the harness's line for one case.
type Answer struct {
	ID             string         `json:"id"`
	Decision       string         `json:"decision"`
	Outcome        string         `json:"outcome"`
	Rule           map[string]any `json:"rule"`
	Heuristics     []string       `json:"heuristics"`
	Subcommands    *int           `json:"subcommands"`
	PolicyErrors   int            `json:"policyErrors"`
	PolicyWarnings int            `json:"policyWarnings"`
	PolicyMessages []string       `json:"policyMessages"`
	Error          string         `json:"error"`
}

// Observed is the answer keyed as a policy-check case's expected block,
// in the values the model's observation uses.
func (a Answer) Observed() map[string]any {
	var rule any
	if a.Rule != nil {
		rule = a.Rule
	}
	h := append([]string(nil), a.Heuristics...)
	sort.Strings(h)
	heur := make([]any, len(h))
	for i, x := range h {
		heur[i] = x
	}
	var sub any
	if a.Subcommands != nil {
		sub = float64(*a.Subcommands)
	}
	msgs := make([]any, len(a.PolicyMessages))
	for i, m := range a.PolicyMessages {
		msgs[i] = m
	}
	return map[string]any{
		"decision": a.Decision, "outcome": a.Outcome, "rule": rule, "heuristics": heur, "subcommands": sub,
		"policyErrors": float64(a.PolicyErrors), "policyWarnings": float64(a.PolicyWarnings), "policyErrorIncludes": msgs,
	}
}

// Session speaks the harness's protocol over its stdin and stdout.
type Session struct {
	in    io.Writer
	out   *bufio.Reader
	Hello Hello
}

// NewSession reads the hello line.
func NewSession(stdin io.Writer, stdout io.Reader) (*Session, error) {
	s := &Session{in: stdin, out: bufio.NewReaderSize(stdout, 1<<16)}
	line, err := s.out.ReadBytes('\n')
	if err != nil {
		return nil, fmt.Errorf("the harness said no hello: %w", err)
	}
	if err := json.Unmarshal(line, &s.Hello); err != nil || s.Hello.Release == "" {
		return nil, fmt.Errorf("the harness's hello is not one: %q", line)
	}
	return s, nil
}

// Check sends one case's given block (with its policy files as TOML text,
// see geminicheck.HarnessGiven) and reads the answer.
func (s *Session) Check(id string, given json.RawMessage) (Answer, error) {
	req, err := json.Marshal(struct {
		ID    string          `json:"id"`
		Given json.RawMessage `json:"given"`
	}{id, given})
	if err != nil {
		return Answer{}, err
	}
	if _, err := s.in.Write(append(req, '\n')); err != nil {
		return Answer{}, err
	}
	line, err := s.out.ReadBytes('\n')
	if err != nil {
		return Answer{}, fmt.Errorf("the harness stopped answering: %w", err)
	}
	var a Answer
	if err := json.Unmarshal(line, &a); err != nil {
		return Answer{}, fmt.Errorf("the harness's answer is not JSON: %q", line)
	}
	if a.ID != id {
		return Answer{}, fmt.Errorf("the harness answered %q for case %q", a.ID, id)
	}
	if a.Error != "" {
		return a, errors.New(a.Error)
	}
	return a, nil
}
