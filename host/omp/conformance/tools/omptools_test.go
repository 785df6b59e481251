package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/deskcheck/deskcheck/host/omp"
	ompreal "github.com/deskcheck/deskcheck/host/omp/realhost"
	driver "github.com/deskcheck/deskcheck/realhost"
)

const (
	// generatedCases is how many tool calls one run compares per release.
	generatedCases = 3600
	generatedSeed  = 20261201
)

// era is one representative release of each era of the tools'
// declarations that can be installed exactly.
type era struct {
	version string
	// dir holds node_modules with the release.
	dir string
	// stubbed: the release runs on the nearest published dependencies,
	// with the modules and exports they lack replaced (absent-exports.ts).
	stubbed bool
}

const installHint = "install them with deskcheck-host (go run ./cmd/deskcheck-host install omp@17.3.5, omp@18.1.16, and -substitute omp@18.2.9, omp@18.3.4); it needs npm and the npm registry"

// releaseDir is where deskcheck-host installs release v: the one install
// of each release that the real-host runs, the conformance test and this
// differential share.
func releaseDir(t *testing.T, v string) string {
	t.Helper()
	cache, err := driver.CacheDir()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(cache, "omp@"+v)
}

func eras(t *testing.T) (bun string, list []era) {
	t.Helper()
	bun = os.Getenv("DESKCHECK_BUN")
	if bun == "" {
		bun = filepath.Join(releaseDir(t, "18.1.16"), "node_modules", "@oven", "bun-linux-x64-baseline", "bin", "bun")
	}
	// 18.2.9 runs on the nearest published dependencies (spec §1): its
	// results are obtained that way. 18.3.4 also needs the modules and
	// exports those lack replaced.
	list = []era{{"17.3.5", releaseDir(t, "17.3.5"), false}, {"18.1.16", releaseDir(t, "18.1.16"), false},
		{"18.2.9", releaseDir(t, "18.2.9"), false}, {"18.3.4", releaseDir(t, "18.3.4"), true}}
	// A release that keeps its native addon packed runs here, outside
	// the sandbox, from a tree of links with the addon inflated in place.
	for i, e := range list {
		if _, err := os.Stat(filepath.Join(e.dir, "node_modules")); err != nil {
			continue
		}
		whole := filepath.Join(t.TempDir(), "omp@"+e.version)
		if err := ompreal.WholeTree(e.dir, whole); err != nil {
			t.Fatalf("omp@%s: %v", e.version, err)
		}
		list[i].dir = whole
	}
	var missing []string
	if _, err := os.Stat(bun); err != nil {
		missing = append(missing, "bun is not installed at "+bun)
	}
	for _, e := range list {
		pkg, err := os.ReadFile(filepath.Join(e.dir, "node_modules", "@oh-my-pi", "pi-coding-agent", "package.json"))
		var meta struct{ Version string }
		if err != nil || json.Unmarshal(pkg, &meta) != nil || meta.Version != e.version {
			missing = append(missing, fmt.Sprintf("pi-coding-agent %s is not installed in %s", e.version, e.dir))
		}
	}
	if len(missing) == 0 {
		return bun, list
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("the tools differential is missing in CI: %s; %s", strings.Join(missing, "; "), installHint)
	}
	t.Skipf("skipping the tools differential: %s; %s", strings.Join(missing, "; "), installHint)
	return "", nil
}

// answer is one line of tools.ts.
type answer struct {
	ID       string   `json:"id"`
	Declared any      `json:"declared"`
	Details  []string `json:"details"`
	Error    string   `json:"error"`
	// Absent lists the stand-ins for missing dependencies the call touched.
	Absent []string `json:"absent"`
}

// runRelease feeds the cases to the release's real tools, over a pipe: the
// cases are data on standard input, never arguments or shell text.
func runRelease(t *testing.T, bun string, e era, cases []Case) map[string]answer {
	t.Helper()
	var in bytes.Buffer
	enc := json.NewEncoder(&in)
	enc.SetEscapeHTML(false)
	for _, c := range cases {
		if err := enc.Encode(c); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	home := t.TempDir()
	script, _ := filepath.Abs("tools.ts")
	argv := []string{"--no-install"}
	if e.stubbed {
		argv = append(argv, "--preload", "./absent-exports.ts")
	}
	cmd := exec.CommandContext(ctx, bun, append(argv, script, e.dir)...)
	cmd.Dir = filepath.Dir(script)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CACHE_HOME=" + home, "PI_CODING_AGENT_DIR=" + filepath.Join(home, "agent"),
		"BUN_RUNTIME_TRANSPILER_CACHE_PATH=0", "NO_COLOR=1", "SHELL=/bin/bash"}
	cmd.Stdin = &in
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("tools.ts on %s failed: %v\n%s", e.version, err, stderr.String())
	}
	out := map[string]answer{}
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(make([]byte, 0, 1<<16), 64<<20)
	for sc.Scan() {
		var a answer
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatalf("tools.ts printed a line that is not JSON: %v\n%s", err, sc.Text())
		}
		out[a.ID] = a
	}
	return out
}

// model is the model's answer for c in the era of version.
func model(version string, c Case) answer { return modelWith(version, c, omp.Faults{}) }

func modelWith(version string, c Case, faults omp.Faults) answer {
	era := omp.ToolEraFor(version)
	s := omp.BashSettings{}
	if c.Settings != nil {
		s.Patterns = c.Settings["bash.patterns"]
		s.AllowCompound, _ = c.Settings["bash.allowCompoundCommands"].(bool)
	}
	var args any = c.Args
	d, _ := omp.Declare(c.Tool, era, s, args, faults)
	a := answer{ID: c.ID, Declared: plain(d.Raw)}
	if c.Tool == "bash" {
		a.Details = omp.BashApprovalDetails(args)
	} else {
		a.Details = omp.WriteApprovalDetails(args)
	}
	return a
}

// plain round-trips v through JSON, as the release's answer arrives.
func plain(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// roundTrip gives the model the arguments as the release reads them.
func roundTrip(cases []Case) []Case {
	out := make([]Case, len(cases))
	for i, c := range cases {
		b, _ := json.Marshal(c)
		_ = json.Unmarshal(b, &out[i])
	}
	return out
}

// TestToolsDifferential: on every generated call, the release's real bash
// or write tool and the model declare the same (every key) and show the
// same prompt detail lines.
func TestToolsDifferential(t *testing.T) {
	bun, list := eras(t)
	cases := roundTrip(Generate(generatedSeed, generatedCases))
	for _, e := range list {
		t.Run(e.version, func(t *testing.T) {
			got := runRelease(t, bun, e, cases)
			bash, write, bad := 0, 0, 0
			for _, c := range cases {
				r, ok := got[c.ID]
				if !ok {
					t.Fatalf("tools.ts printed nothing for %s", c.ID)
				}
				m := model(e.version, c)
				if len(r.Absent) > 0 {
					t.Errorf("%s on %s touched a missing dependency's stand-in: %v", c.ID, e.version, r.Absent)
				}
				if r.Error != "" || !reflect.DeepEqual(r.Declared, m.Declared) || !reflect.DeepEqual(r.Details, m.Details) {
					bad++
					if bad <= 20 {
						args, _ := json.Marshal(c)
						t.Errorf("%s on %s: %s\n  release: %s %s %s\n  model:   %s %s", c.ID, e.version, clip(string(args)), clipJSON(r.Declared), clipJSON(r.Details), r.Error, clipJSON(m.Declared), clipJSON(m.Details))
					}
				}
				if c.Tool == "bash" {
					bash++
				} else {
					write++
				}
			}
			t.Logf("%s: compared %d tool calls (%d bash, %d write) with the release's real tools; %d disagreements", e.version, len(cases), bash, write, bad)

			// The comparison has teeth: with each fault of the tools'
			// declarations switched on, the model disagrees with the
			// release on some generated call.
			for _, f := range omp.FaultList {
				if !omp.ToolDeclarationFault(f.Fault) {
					continue
				}
				n := 0
				for _, c := range cases {
					m := modelWith(e.version, c, omp.Faults{}.With(f.Fault))
					if r := got[c.ID]; !reflect.DeepEqual(r.Declared, m.Declared) {
						n++
					}
				}
				if n == 0 {
					t.Errorf("with fault %s on, the model still agrees with %s on every generated call; %s", f.Name, e.version, f.Hint)
				} else {
					t.Logf("fault %s: %d generated calls disagree with %s", f.Name, n, e.version)
				}
			}
		})
	}
}

// clip shortens a long text for a failure message.
func clip(s string) string {
	if r := []rune(s); len(r) > 300 {
		return string(r[:300]) + fmt.Sprintf("…(%d more characters)", len(r)-300)
	}
	return s
}

func clipJSON(v any) string {
	b, _ := json.Marshal(v)
	return clip(string(b))
}

// TestGenerateCovers: the generator makes enough cases, of both tools, and
// is deterministic.
func TestGenerateCovers(t *testing.T) {
	a, b := Generate(generatedSeed, generatedCases), Generate(generatedSeed, generatedCases)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the generator is not deterministic")
	}
	if len(a) < 3000 {
		t.Fatalf("%d cases, want at least 3000", len(a))
	}
	readme, err := os.ReadFile("../../../../docs/real-host.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := fmt.Sprintf("%d,%03d calls", len(a)/1000, len(a)%1000); !strings.Contains(string(readme), n) {
		t.Errorf("the README does not say the differential generates %s", n)
	}
	tools := map[string]int{}
	compound := 0
	for _, c := range a {
		tools[c.Tool]++
		if v, _ := c.Settings["bash.allowCompoundCommands"].(bool); v {
			compound++
		}
	}
	if tools["bash"] < 1500 || tools["write"] < 800 || compound < 200 {
		t.Fatalf("too few of a kind: %v, %d compound", tools, compound)
	}
	// The generated calls reach every boundary between eras.
	differ := map[string]int{}
	for _, c := range roundTrip(a) {
		if !reflect.DeepEqual(model("17.3.5", c), model("18.1.16", c)) {
			differ[c.Tool+" 17.x/18.1.16"]++
		}
		if !reflect.DeepEqual(model("18.2.9", c), model("18.3.4", c)) {
			differ[c.Tool+" 18.2.9/18.3.4"]++
		}
	}
	// (17.x and 18.1.16 write alike on Linux: spec §1.)
	for _, k := range []string{"bash 17.x/18.1.16", "write 18.2.9/18.3.4"} {
		if differ[k] == 0 {
			t.Errorf("no generated call tells %s apart", k)
		}
	}
	fams := map[string]bool{}
	for _, c := range criticalCommands {
		for _, era := range []int{omp.Bash17, omp.Bash18} {
			for _, f := range omp.CriticalFamilies(era) {
				if f.Matches(c) {
					fams[f.Name] = true
				}
			}
		}
	}
	for _, f := range omp.CriticalFamilies(omp.Bash18) {
		if !fams[f.Name] {
			t.Errorf("no generated command matches the critical family %s", f.Name)
		}
	}
}

// TestNothingRuns: under strace, tools.ts starts no process but bun itself
// and opens no connection, and a canary command or path leaves no file,
// while the release classifies them.
func TestNothingRuns(t *testing.T) {
	bun, list := eras(t)
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("skipping the process check: strace is not installed (Debian: apt-get install strace)")
	}
	dir := t.TempDir()
	canary := filepath.Join(dir, "canary")
	cases := []Case{
		{ID: "rm", Tool: "bash", Args: map[string]any{"command": "touch " + canary + "-bash && rm -rf " + dir}},
		{ID: "chain", Tool: "bash", Args: map[string]any{"command": "touch " + canary + "-chain && ls"},
			Settings: map[string]any{"bash.allowCompoundCommands": true, "bash.patterns": []any{map[string]any{"match": "touch *", "approval": "allow"}}}},
		{ID: "write", Tool: "write", Args: map[string]any{"path": canary + "-write", "content": "x"}},
		{ID: "ssh", Tool: "write", Args: map[string]any{"path": "ssh://127.0.0.1:9/x", "content": "x"}},
	}
	var in bytes.Buffer
	for _, c := range cases {
		b, _ := json.Marshal(c)
		in.Write(append(b, '\n'))
	}
	var e era
	for _, x := range list {
		if x.version == "18.1.16" {
			e = x
		}
	}
	trace := filepath.Join(dir, "trace")
	script, _ := filepath.Abs("tools.ts")
	home := t.TempDir()
	cmd := exec.Command(strace, "-f", "-qq", "-e", "trace=execve,execveat,connect", "-o", trace, bun, "--no-install", script, e.dir)
	cmd.Dir = filepath.Dir(script)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "PI_CODING_AGENT_DIR=" + filepath.Join(home, "agent"), "NO_COLOR=1", "SHELL=/bin/bash"}
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tools.ts under strace: %v", err)
	}
	if n := strings.Count(string(out), "\n"); n != len(cases) {
		t.Fatalf("%d answers for %d calls:\n%s", n, len(cases), out)
	}
	log, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	execs := 0
	for _, line := range strings.Split(string(log), "\n") {
		switch {
		case strings.Contains(line, "execve(") || strings.Contains(line, "execveat("):
			execs++
		case strings.Contains(line, "connect("):
			t.Errorf("tools.ts opened a connection: %s", line)
		}
	}
	if execs != 1 {
		t.Errorf("tools.ts started %d programs, want only bun itself:\n%s", execs, log)
	}
	for _, suffix := range []string{"-bash", "-chain", "-write"} {
		if _, err := os.Stat(canary + suffix); err == nil {
			t.Errorf("%s exists: something ran or wrote", canary+suffix)
		}
	}
	t.Logf("%s: %d calls classified under strace; 1 execve (bun), 0 connect, no canary file", e.version, len(cases))
}
