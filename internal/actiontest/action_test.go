package actiontest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xeipuuv/gojsonschema"
	"go.yaml.in/yaml/v3"

	"github.com/deskcheck/deskcheck/host/all"
)

// action is the part of action.yml the runner reads.
type action struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []step `yaml:"steps"`
	} `yaml:"runs"`
}

type step struct {
	Name  string            `yaml:"name"`
	ID    string            `yaml:"id"`
	If    string            `yaml:"if"`
	Shell string            `yaml:"shell"`
	Env   map[string]string `yaml:"env"`
	Run   string            `yaml:"run"`
	Uses  string            `yaml:"uses"`
	With  map[string]string `yaml:"with"`
}

// runner plays the part of the Actions runner for one job.
type runner struct {
	t       *testing.T
	inputs  map[string]string
	outputs map[string]map[string]string // step id → outputs
	env     []string
	path    []string // added by GITHUB_PATH
	temp    string
	summary string
	work    string // the checkout
}

var expr = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// value is what an expression of the action names.
func (r *runner) value(e string) string {
	switch {
	case strings.HasPrefix(e, "inputs."):
		v, ok := r.inputs[strings.TrimPrefix(e, "inputs.")]
		if !ok {
			r.t.Fatalf("action.yml names an unknown input: %s", e)
		}
		return v
	case strings.HasPrefix(e, "steps."):
		parts := strings.Split(e, ".")
		if len(parts) != 4 || parts[2] != "outputs" {
			r.t.Fatalf("action.yml: an expression this test does not know: %s", e)
		}
		return r.outputs[parts[1]][parts[3]]
	case e == "github.event_name":
		return "pull_request"
	}
	r.t.Fatalf("action.yml: an expression this test does not know: %s", e)
	return ""
}

func (r *runner) expand(s string) string {
	return expr.ReplaceAllStringFunc(s, func(m string) string { return r.value(expr.FindStringSubmatch(m)[1]) })
}

var (
	equals     = regexp.MustCompile(`^([a-z._-]+) (==|!=) '([^']*)'$`)
	startsWith = regexp.MustCompile(`^startsWith\(([a-z._]+), '([^']*)'\)$`)
)

// condition evaluates the if: of a step: terms joined by &&, each a
// comparison with a quoted string or a startsWith.
func (r *runner) condition(cond string) bool {
	if cond == "" {
		return true
	}
	for _, term := range strings.Split(cond, " && ") {
		term = strings.TrimSpace(term)
		if m := equals.FindStringSubmatch(term); m != nil {
			if (r.value(m[1]) == m[3]) != (m[2] == "==") {
				return false
			}
			continue
		}
		if m := startsWith.FindStringSubmatch(term); m != nil {
			if !strings.HasPrefix(r.value(m[1]), m[2]) {
				return false
			}
			continue
		}
		r.t.Fatalf("action.yml: a condition this test does not know: %q", term)
	}
	return true
}

// result is what one step did.
type result struct {
	skipped        bool
	code           int
	stdout, stderr string
}

// run runs one step as the runner would: bash with -e and pipefail, the
// step's env expanded, GITHUB_OUTPUT read back afterwards.
func (r *runner) run(s step) result {
	t := r.t
	if !r.condition(s.If) {
		return result{skipped: true}
	}
	if s.Uses != "" {
		return result{} // an action of its own; checked by the test
	}
	require.Equal(t, "bash", s.Shell, "step %q runs in bash", s.Name)
	outFile := filepath.Join(r.temp, "output-"+s.ID)
	pathFile := filepath.Join(r.temp, "path")
	require.NoError(t, os.WriteFile(outFile, nil, 0o644))
	env := append([]string{}, r.env...)
	env = append(env, "GITHUB_OUTPUT="+outFile, "GITHUB_PATH="+pathFile, "GITHUB_STEP_SUMMARY="+r.summary,
		"PATH="+strings.Join(append(append([]string{}, r.path...), os.Getenv("PATH")), string(os.PathListSeparator)))
	for k, v := range s.Env {
		env = append(env, k+"="+r.expand(v))
	}
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", s.Run)
	cmd.Dir, cmd.Env = r.work, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := result{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		res.code = exit.ExitCode()
	} else {
		require.NoError(t, err, "step %q", s.Name)
	}
	outs := map[string]string{}
	data, err := os.ReadFile(outFile)
	require.NoError(t, err)
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			outs[k] = v
		}
	}
	if s.ID != "" {
		r.outputs[s.ID] = outs
	}
	if data, err := os.ReadFile(pathFile); err == nil {
		sc := bufio.NewScanner(bytes.NewReader(data))
		r.path = nil
		for sc.Scan() {
			r.path = append([]string{sc.Text()}, r.path...)
		}
	}
	return res
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=deskcheck test", "-c", "user.email=test@example.invalid", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
	return string(out)
}

// seedHost is the host of the seed desk's family, which its faults are
// named by.
func seedHost(t *testing.T, root string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "cases", "boundary-desk.json"))
	require.NoError(t, err)
	var desk struct {
		Cases []struct {
			Scenario string `json:"scenario"`
		} `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(data, &desk))
	require.NotEmpty(t, desk.Cases)
	_, f, ok := all.Registry().Lookup(desk.Cases[0].Scenario)
	require.True(t, ok, desk.Cases[0].Scenario)
	return f.Host.Name
}

// scratch makes an origin with the seed desk on main and a clone of it on
// a branch whose one commit changes an expectation so that its case fails:
// a pull request as the action sees it.
func scratch(t *testing.T, root string) string {
	t.Helper()
	origin := filepath.Join(t.TempDir(), "origin")
	require.NoError(t, os.MkdirAll(filepath.Join(origin, "desks"), 0o755))
	desk, err := os.ReadFile(filepath.Join(root, "cases", "boundary-desk.json"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(origin, "desks", "boundary-desk.json"), desk, 0o644))
	git(t, origin, "init", "-q")
	git(t, origin, "add", ".")
	git(t, origin, "commit", "-qm", "the seed desk")
	work := filepath.Join(t.TempDir(), "work")
	git(t, filepath.Dir(work), "clone", "-q", origin, work)
	git(t, work, "checkout", "-qb", "change")
	i := bytes.Index(desk, []byte(`"id": "boundary-deny-one-call"`))
	j := i + bytes.Index(desk[i:], []byte(`"prompts": 1`))
	changed := append(append(append([]byte{}, desk[:j]...), `"prompts": 2`...), desk[j+len(`"prompts": 1`):]...)
	require.NoError(t, os.WriteFile(filepath.Join(work, "desks", "boundary-desk.json"), changed, 0o644))
	git(t, work, "commit", "-qam", "expect two prompts")
	return work
}

// job is one run of the action's steps.
type job struct {
	r       *runner
	a       action
	results map[string]result
	uses    []step // the steps that call an action of their own, as run
	code    int
}

// runJob runs the steps of action.yml in order on the checkout work, with
// the inputs given over the defaults, as a pull request.
func runJob(t *testing.T, root, work string, inputs map[string]string) job {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "action.yml"))
	require.NoError(t, err)
	var a action
	require.NoError(t, yaml.Unmarshal(data, &a))
	require.Equal(t, "composite", a.Runs.Using)

	temp := t.TempDir()
	r := &runner{t: t, inputs: map[string]string{}, outputs: map[string]map[string]string{}, temp: temp,
		summary: filepath.Join(temp, "summary.md"), work: work}
	for name, in := range a.Inputs {
		r.inputs[name] = in.Default
	}
	for k, v := range inputs {
		r.inputs[k] = v
	}
	r.env = append(os.Environ(), "GITHUB_ACTION_PATH="+root, "RUNNER_TEMP="+temp, "GITHUB_EVENT_NAME=pull_request", "GITHUB_BASE_REF=main",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	j := job{r: r, a: a, results: map[string]result{}}
	for _, s := range a.Runs.Steps {
		if j.code != 0 {
			j.results[s.ID] = result{skipped: true} // a failed step ends the job
			continue
		}
		res := r.run(s)
		if s.Uses != "" && !res.skipped {
			j.uses = append(j.uses, s)
		}
		j.results[s.ID] = res
		if res.code != 0 {
			t.Logf("step %q exited %d\n%s%s", s.Name, res.code, res.stdout, res.stderr)
			j.code = res.code
		}
	}
	return j
}

// annotations are the workflow commands that make annotations, over every
// step of the job, in order.
func (j job) annotations() []string {
	var out []string
	for _, s := range j.a.Runs.Steps {
		for _, line := range strings.Split(j.results[s.ID].stdout, "\n") {
			if strings.HasPrefix(line, "::error") || strings.HasPrefix(line, "::warning") || strings.HasPrefix(line, "::notice") {
				out = append(out, line)
			}
		}
	}
	return out
}

// uploaded is the step that calls the action named (its uses: up to @).
func (j job) uploaded(name string) (step, bool) {
	for _, s := range j.uses {
		if strings.HasPrefix(s.Uses, name+"@") {
			return s, true
		}
	}
	return step{}, false
}

func needTools(t *testing.T) {
	for _, tool := range []string{"bash", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: the action's steps need it", tool)
		}
	}
}

// TestActionSteps runs the steps of action.yml in order on a pull request
// that breaks a case: validate passes, verify annotates the failure and
// the warning, faults annotates the faults it misses on the desk that
// addresses them and writes the step summary with its strength section,
// SARIF is written, the diff against the merge base names the case that
// went from pass to fail in the summary, the report folder is uploaded,
// and the job fails with deskcheck's exit code, 1.
func TestActionSteps(t *testing.T) {
	needTools(t)
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	j := runJob(t, root, scratch(t, root), map[string]string{"faults": "true", "sarif": "true"})
	results, r, a := j.results, j.r, j.a

	assert.Equal(t, 0, results["validate"].code, results["validate"].stderr)
	assert.NotContains(t, results["validate"].stdout, "::", "validate annotates nothing when the desks read: verify does")
	// Two prompts but one scripted choice: lint warns, on its line, once.
	verify := results["verify"]
	assert.Regexp(t, `(?m)^::warning file=desks/boundary-desk\.json,line=\d+,col=\d+,title=deskcheck warning choices-vs-prompts::1 scripted choices but 2 prompts expected`, verify.stdout)
	assert.Regexp(t, `(?m)^::error file=desks/boundary-desk\.json,line=\d+,col=\d+,title=FAIL boundary-desk/boundary-deny-one-call`, verify.stdout, "the failure annotated on its line")
	assert.Contains(t, verify.stdout, "FAIL — 14 passed, 1 failed\n")
	assert.Equal(t, "1", r.outputs["verify"]["code"])
	faults := results["faults"]
	assert.Regexp(t, `(?m)^::error file=desks/boundary-desk\.json,title=fault `+regexp.QuoteMeta(seedHost(t, root))+`/[a-z-]+ missed::`, faults.stdout)
	assert.NotContains(t, faults.stdout, "title=FAIL", "faults does not annotate the cases again")

	summary, err := os.ReadFile(r.summary)
	require.NoError(t, err)
	assert.Contains(t, string(summary), "## deskcheck: strength FAIL")
	assert.Contains(t, string(summary), "### Suite strength: ")
	assert.Equal(t, 1, strings.Count(string(summary), "## deskcheck: "), "one report in the summary: the faults run's")
	assert.Contains(t, string(summary), "## deskcheck diff REGRESSION — 1 case went from pass to fail")

	diff := results["diff"]
	require.False(t, diff.skipped, "a pull request is compared")
	assert.Contains(t, diff.stdout, "boundary-deny-one-call", diff.stderr)
	assert.NotContains(t, diff.stdout, "::error", "the diff annotates nothing: verify annotated the case")
	assert.Equal(t, "1", r.outputs["diff"]["code"])

	up, ok := j.uploaded("github/codeql-action/upload-sarif")
	require.True(t, ok, "SARIF is uploaded")
	sarif, err := os.ReadFile(r.expand(up.With["sarif_file"]))
	require.NoError(t, err)
	schema, err := os.ReadFile(filepath.Join(root, "reports", "testdata", "sarif", "sarif-schema-2.1.0.json"))
	require.NoError(t, err)
	valid, err := gojsonschema.Validate(gojsonschema.NewBytesLoader(schema), gojsonschema.NewBytesLoader(sarif))
	require.NoError(t, err)
	assert.True(t, valid.Valid(), "%v", valid.Errors())
	var log struct {
		Runs []struct {
			Results []struct{ RuleID string } `json:"results"`
		} `json:"runs"`
	}
	require.NoError(t, json.Unmarshal(sarif, &log))
	assert.NotEmpty(t, log.Runs[0].Results)

	art, ok := j.uploaded("actions/upload-artifact")
	require.True(t, ok, "the report folder is uploaded")
	folder := r.expand(art.With["path"])
	assert.Equal(t, r.expand(a.Outputs["folder"].Value), folder)
	for _, f := range []string{"head/report.html", "head/report.json", "faults/report.json"} {
		assert.FileExists(t, filepath.Join(folder, f), "the uploaded folder holds %s", f)
	}

	assert.Equal(t, 1, j.code, "the job fails with deskcheck's exit code")
	assert.Equal(t, "1", r.outputs["result"]["code"])
	assert.Equal(t, "1", r.expand(a.Outputs["exit-code"].Value))
	assert.FileExists(t, r.expand(a.Outputs["report"].Value))
	assert.NotContains(t, git(t, r.work, "worktree", "list"), "deskcheck-base", "the merge base's worktree is removed")
	status := git(t, r.work, "status", "--porcelain")
	assert.Empty(t, status, "the action writes nothing into the checkout")
}

// GitHubJobAnnotations is the most annotations GitHub shows of one job.
const GitHubJobAnnotations = 50

// caseTitle reads the case an annotation is about from its title.
var caseTitle = regexp.MustCompile(`title=(?:FAIL|ERROR|pass→fail|fail→pass|new|removed)[^ ]* ([^ %:,]+/[^ %:,]+)`)

// TestActionAnnotationBudget: a pull request that adds 60 failing cases
// (each with a warning) gets at most 50 annotations in the whole job,
// over every step, and no case is annotated twice.
func TestActionAnnotationBudget(t *testing.T) {
	needTools(t)
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	work := scratch(t, root)
	desk, err := os.ReadFile(filepath.Join(work, "desks", "boundary-desk.json"))
	require.NoError(t, err)
	var d map[string]any
	require.NoError(t, json.Unmarshal(desk, &d))
	var one map[string]any
	for _, c := range d["cases"].([]any) {
		if c.(map[string]any)["id"] == "boundary-deny-one-call" {
			one = c.(map[string]any)
		}
	}
	require.NotNil(t, one)
	var cases []any
	for i := range 60 {
		c := map[string]any{}
		for k, v := range one {
			c[k] = v
		}
		c["id"] = "sixty-" + strconv.Itoa(i)
		cases = append(cases, c)
	}
	d["id"], d["cases"] = "sixty", cases
	data, err := json.MarshalIndent(d, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(work, "desks", "sixty.json"), data, 0o644))
	git(t, work, "add", ".")
	git(t, work, "commit", "-qm", "sixty failing cases")

	j := runJob(t, root, work, map[string]string{"faults": "true", "sarif": "true"})
	assert.Contains(t, j.results["verify"].stdout, "FAIL — 14 passed, 61 failed\n")
	notes := j.annotations()
	assert.LessOrEqual(t, len(notes), GitHubJobAnnotations, "annotations of the job:\n%s", strings.Join(notes, "\n"))
	seen := map[string]int{}
	for _, n := range notes {
		if m := caseTitle.FindStringSubmatch(n); m != nil {
			seen[m[1]]++
		}
	}
	assert.NotEmpty(t, seen)
	for c, n := range seen {
		assert.Equal(t, 1, n, "case %s annotated %d times", c, n)
	}
	assert.Regexp(t, `(?m)^::notice title=deskcheck%3A more than GitHub shows::\d+ more errors`, j.results["verify"].stdout, "the rest are counted")
	_, ok := j.uploaded("actions/upload-artifact")
	assert.True(t, ok, "the report folder is uploaded")
	assert.Equal(t, 1, j.code)
}
