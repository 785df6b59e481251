// Package realarena runs the arena's items on the real adapters: the three
// small Python programs of adapters/ (a plain loop over the openai client,
// LangGraph's prebuilt agent, an OpenAI Agents SDK agent), each in a venv
// installed from its hash-pinned lock, against the recorders of package
// recorders, which this process serves. The adapter is started by the
// driver, never the other way round, and its own words close an item's
// window and nothing else: every observation is read from the recorders.
package realarena

import (
	"bufio"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/deskcheck/deskcheck/recorders"
)

//go:embed adapters/*.py adapters/*/requirements.lock adapters/*/requirements.in adapters/constraints.txt
var adapterFiles embed.FS

// Adapters are the adapters the arena ships, in the order reports list
// them.
var Adapters = []string{"vanilla", "langgraph", "openai-agents"}

// ScriptName is the file of an adapter's program.
func ScriptName(adapter string) string {
	return "adapter_" + strings.ReplaceAll(adapter, "-", "_") + ".py"
}

// File returns one of the shipped adapter files by its path under
// adapters/.
func File(name string) ([]byte, error) { return adapterFiles.ReadFile("adapters/" + name) }

// Config says how to run one adapter process.
type Config struct {
	Adapter string
	// Python is the venv's interpreter.
	Python string
	// Fault switches on one of the adapter's faults ("" for none).
	Fault string
	// Network is "unix" (two sockets in the run folder, the default) or
	// "tcp" (two loopback ports).
	Network string
	// Wrap is put before the interpreter's command line: the sandbox,
	// e.g. ["unshare", "-rn", "--"]. Start, when set, is used instead.
	Wrap []string
	// Start starts the interpreter's command (a sandbox of the caller's
	// choosing); nil starts it here, after Wrap.
	Start func(context.Context, Command) (*Started, error)
	// MaxTurns and Timeout are the adapter's model-turn limit and
	// request timeout (6 and 60 s when zero); ItemLimit bounds one item
	// (120 s when zero).
	MaxTurns  int
	Timeout   time.Duration
	ItemLimit time.Duration
	// ProcessLimit bounds the whole process (10 minutes when zero).
	ProcessLimit time.Duration
	// Dir is the parent of the run folder (os.TempDir when empty).
	Dir string
}

// Hello is the adapter's first line: what it says it is. Provenance only.
type Hello struct {
	Adapter        string            `json:"adapter"`
	AdapterVersion string            `json:"adapterVersion"`
	Python         string            `json:"python"`
	Implementation string            `json:"implementation"`
	Packages       map[string]string `json:"packages"`
	HTTPLibrary    string            `json:"httpLibrary"`
	Deprecated     []string          `json:"deprecated"`
}

// Result is one adapter process's run: each item's record, in order.
type Result struct {
	Hello   Hello
	Records []*recorders.Record
	Strays  []recorders.Stray
	// Stderr is the adapter's standard error, clipped.
	Stderr string
	// Isolation says what held the adapter process, in a sentence.
	Isolation string
}

// Command is the adapter process a Config's Start starts: the venv's
// interpreter with its arguments, in the run folder (Dir, the one folder
// it may write, holding the recorders' sockets), with the whole
// environment. ReadOnly are the shipped files in the run folder, which
// the process may read and never write.
type Command struct {
	Python   string
	Args     []string
	Dir      string
	Env      []string
	ReadOnly []string
	Stderr   io.Writer
}

// Started is a started adapter process: its standard input and output,
// how to end it (with everything it started) and wait for it, and what
// held it.
type Started struct {
	Stdin     io.WriteCloser
	Stdout    io.Reader
	Kill      func()
	Wait      func() error
	Isolation string
}

// startHere starts c after wrap, in a process group of its own.
func startHere(c Command, wrap []string) (*Started, error) {
	args := append(append(append([]string(nil), wrap...), c.Python), c.Args...)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = c.Dir
	cmd.Env = c.Env
	cmd.Stderr = c.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	isolation := "no sandbox: the adapter sees every file the user can read"
	if len(wrap) > 0 {
		isolation = "started after " + strings.Join(wrap, " ")
	}
	return &Started{
		Stdin: stdin, Stdout: stdout, Isolation: isolation,
		Kill: func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) },
		Wait: cmd.Wait,
	}, nil
}

func (c Config) withDefaults() Config {
	if c.Network == "" {
		c.Network = "unix"
	}
	if c.MaxTurns == 0 {
		c.MaxTurns = 6
	}
	if c.Timeout == 0 {
		c.Timeout = 60 * time.Second
	}
	if c.ItemLimit == 0 {
		c.ItemLimit = 120 * time.Second
	}
	if c.ProcessLimit == 0 {
		c.ProcessLimit = 10 * time.Minute
	}
	return c
}

// Run runs items, one after another, in one fresh adapter process.
func Run(ctx context.Context, cfg Config, items []recorders.Item) (*Result, error) {
	p, err := StartProcess(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	recs, err := p.Items(items)
	if err != nil {
		return nil, err
	}
	res := p.End()
	res.Records = recs
	return res, nil
}

// Process is one running adapter process with its recorders and run
// folder: it has said hello, and runs items until it is ended.
type Process struct {
	cfg    Config
	ctx    context.Context
	cancel context.CancelFunc
	folder string
	rec    *recorders.Recorders
	proc   *Started
	lines  chan string
	stderr *clipped
	// Hello is what the adapter said it is; Isolation what held it.
	Hello     Hello
	Isolation string
	// runErr is the error that ended the process's items: every later
	// item is errored with it.
	runErr error
	ended  bool
}

// StartProcess makes the run folder (in cfg.Dir), serves the recorders
// in it, starts the adapter through cfg's Start (or after cfg.Wrap),
// sends the config and reads the hello, refusing a venv whose packages
// differ from the lock.
func StartProcess(ctx context.Context, cfg Config) (_ *Process, err error) {
	cfg = cfg.withDefaults()
	known := false
	for _, a := range Adapters {
		known = known || a == cfg.Adapter
	}
	if !known {
		return nil, fmt.Errorf("unknown adapter %q; the adapters are %s", cfg.Adapter, strings.Join(Adapters, ", "))
	}
	p := &Process{cfg: cfg, stderr: &clipped{}}
	p.ctx, p.cancel = context.WithTimeout(ctx, cfg.ProcessLimit)
	defer func() {
		if err != nil {
			p.Close()
		}
	}()
	if p.folder, err = os.MkdirTemp(cfg.Dir, "arena-"); err != nil {
		return p, err
	}
	for _, d := range []string{"home", "tmp"} {
		if err := os.Mkdir(filepath.Join(p.folder, d), 0o700); err != nil {
			return p, err
		}
	}
	for _, name := range []string{"arena_common.py", ScriptName(cfg.Adapter)} {
		b, err := File(name)
		if err != nil {
			return p, err
		}
		if err := os.WriteFile(filepath.Join(p.folder, name), b, 0o600); err != nil {
			return p, err
		}
	}
	if p.rec, err = recorders.Start(cfg.Network, filepath.Join(p.folder, "gateway.sock"), filepath.Join(p.folder, "fixture.sock")); err != nil {
		return p, err
	}
	folder := p.folder
	home := filepath.Join(folder, "home")
	command := Command{
		Python: cfg.Python,
		Args:   []string{"-B", "-E", "-s", "-X", "utf8", filepath.Join(folder, ScriptName(cfg.Adapter))},
		Dir:    folder,
		Env: []string{
			"HOME=" + home, "XDG_CONFIG_HOME=" + home, "XDG_CACHE_HOME=" + home, "XDG_DATA_HOME=" + home,
			"XDG_STATE_HOME=" + home, "TMPDIR=" + filepath.Join(folder, "tmp"), "PATH=/nonexistent",
			"LANG=C.UTF-8", "TZ=UTC", "PYTHONHASHSEED=0", "OPENAI_AGENTS_DISABLE_TRACING=1",
			"LANGSMITH_TRACING=false", "LANGCHAIN_TRACING_V2=false",
			// langchain-openai probes TCP keep-alive options on a throwaway
			// AF_INET socket unless this is 0; the gateway is a Unix socket.
			"LANGCHAIN_OPENAI_TCP_KEEPALIVE=0",
		},
		ReadOnly: []string{filepath.Join(folder, "arena_common.py"), filepath.Join(folder, ScriptName(cfg.Adapter))},
		Stderr:   p.stderr,
	}
	start := cfg.Start
	if start == nil {
		start = func(_ context.Context, c Command) (*Started, error) { return startHere(c, cfg.Wrap) }
	}
	if p.proc, err = start(p.ctx, command); err != nil {
		return p, err
	}
	p.Isolation = p.proc.Isolation
	p.lines = make(chan string)
	go func(stdout io.Reader, lines chan<- string) {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}(p.proc.Stdout, p.lines)
	var fault any
	if cfg.Fault != "" {
		fault = cfg.Fault
	}
	if err := writeLine(p.proc.Stdin, map[string]any{"config": map[string]any{
		"gateway": p.rec.Gateway.Addr, "fixture": p.rec.Fixture.Addr, "model": "arena-mock", "maxTurns": cfg.MaxTurns,
		"timeout": int(cfg.Timeout / time.Second), "fault": fault,
	}}); err != nil {
		return p, err
	}
	line, err := next(p.ctx, p.lines, cfg.ItemLimit)
	if err != nil {
		return p, fmt.Errorf("the adapter did not say hello: %w; stderr: %s", err, p.stderr.String())
	}
	var h struct {
		Hello *Hello `json:"hello"`
	}
	if err := json.Unmarshal([]byte(line), &h); err != nil || h.Hello == nil {
		return p, fmt.Errorf("the adapter's first line is not a hello: %q", line)
	}
	p.Hello = *h.Hello
	if p.Hello.Adapter != cfg.Adapter {
		return p, fmt.Errorf("the %s adapter introduced itself as %q", cfg.Adapter, p.Hello.Adapter)
	}
	if err := checkPackages(cfg.Adapter, p.Hello.Packages); err != nil {
		return p, err
	}
	return p, nil
}

// Items runs items one after another, each in its window, and returns
// the recorders' record of each. An adapter that does not finish an item
// within the item limit is killed: that item and every later one are
// errored with why.
func (p *Process) Items(items []recorders.Item) ([]*recorders.Record, error) {
	var out []*recorders.Record
	for _, it := range items {
		if err := p.rec.Session.Open(it); err != nil {
			return nil, err
		}
		done, text := false, ""
		if p.runErr == nil {
			p.runErr = writeLine(p.proc.Stdin, map[string]string{"item": it.ID, "prompt": it.Prompt})
		}
		if p.runErr == nil {
			line, err := next(p.ctx, p.lines, p.cfg.ItemLimit)
			if err != nil {
				p.runErr = fmt.Errorf("the adapter did not finish item %s: %w", it.ID, err)
				p.proc.Kill()
			} else {
				done, text = answer(line, it.ID)
			}
		}
		if p.runErr != nil {
			text = p.runErr.Error()
		}
		r, err := p.rec.Session.Close(done, text)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// End closes the adapter's input, waits 5 s for it to end (then kills
// it), and returns what was seen besides the items: the hello, the
// requests no item's window held, the adapter's standard error and what
// held it.
func (p *Process) End() *Result {
	if !p.ended {
		p.ended = true
		p.proc.Stdin.Close()
		waited := make(chan error, 1)
		go func() { waited <- p.proc.Wait() }()
		select {
		case <-waited:
		case <-time.After(5 * time.Second):
			p.proc.Kill()
			<-waited
		}
	}
	return &Result{Hello: p.Hello, Strays: p.rec.Session.Strays(), Stderr: p.stderr.String(), Isolation: p.Isolation}
}

// Close ends the process (killing what is left of it), stops the
// recorders and removes the run folder.
func (p *Process) Close() {
	if p.proc != nil {
		p.proc.Kill()
		if !p.ended {
			p.ended = true
			_ = p.proc.Wait()
		}
	}
	if p.rec != nil {
		p.rec.Close()
	}
	if p.folder != "" {
		os.RemoveAll(p.folder)
	}
	p.cancel()
}

func answer(line, id string) (done bool, text string) {
	var a struct {
		Item  string  `json:"item"`
		Done  bool    `json:"done"`
		Error *string `json:"error"`
	}
	if err := json.Unmarshal([]byte(line), &a); err != nil || a.Item != id {
		return false, fmt.Sprintf("the adapter answered %q for item %s", line, id)
	}
	if a.Error != nil {
		return false, *a.Error
	}
	return a.Done, ""
}

func writeLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

func next(ctx context.Context, lines <-chan string, limit time.Duration) (string, error) {
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case l, ok := <-lines:
		if !ok {
			return "", errors.New("the adapter ended")
		}
		return l, nil
	case <-t.C:
		return "", fmt.Errorf("no answer within %s", limit)
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// clipped keeps the first 64 KiB written to it.
type clipped struct {
	mu sync.Mutex
	b  []byte
}

func (c *clipped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := 64<<10 - len(c.b); room > 0 {
		c.b = append(c.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (c *clipped) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return string(c.b)
}
