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
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xeipuuv/gojsonschema"
	"go.yaml.in/yaml/v3"
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

// TestActionSteps runs the steps of action.yml in order on a pull request
// that breaks a case: validate passes, verify annotates the failure and
// writes the step summary, faults and SARIF run, the diff against the
// merge base names the case that went from pass to fail, and the job
// fails with deskcheck's exit code, 1.
func TestActionSteps(t *testing.T) {
	for _, tool := range []string{"bash", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: the action's steps need it", tool)
		}
	}
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	data, err := os.ReadFile(filepath.Join(root, "action.yml"))
	require.NoError(t, err)
	var a action
	require.NoError(t, yaml.Unmarshal(data, &a))
	require.Equal(t, "composite", a.Runs.Using)

	temp := t.TempDir()
	r := &runner{t: t, inputs: map[string]string{}, outputs: map[string]map[string]string{}, temp: temp,
		summary: filepath.Join(temp, "summary.md"), work: scratch(t, root)}
	for name, in := range a.Inputs {
		r.inputs[name] = in.Default
	}
	r.inputs["faults"], r.inputs["sarif"] = "true", "true"
	r.env = append(os.Environ(), "GITHUB_ACTION_PATH="+root, "RUNNER_TEMP="+temp, "GITHUB_EVENT_NAME=pull_request", "GITHUB_BASE_REF=main",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")

	results := map[string]result{}
	code := 0
	var uploads []step
	for _, s := range a.Runs.Steps {
		if code != 0 {
			results[s.ID] = result{skipped: true} // a failed step ends the job
			continue
		}
		res := r.run(s)
		if s.Uses != "" && !res.skipped {
			uploads = append(uploads, s)
		}
		results[s.ID] = res
		if res.code != 0 {
			t.Logf("step %q exited %d\n%s%s", s.Name, res.code, res.stdout, res.stderr)
			code = res.code
		}
	}

	assert.Equal(t, 0, results["validate"].code, results["validate"].stderr)
	// Two prompts but one scripted choice: lint warns, on its line.
	assert.Regexp(t, `(?m)^::warning file=desks/boundary-desk\.json,line=\d+,col=\d+,title=deskcheck warning choices-vs-prompts::1 scripted choices but 2 prompts expected`, results["validate"].stdout)
	assert.Regexp(t, `(?m)^validate PASS — 1 file, 0 errors, 1 warning$`, results["validate"].stdout)
	verify := results["verify"]
	assert.Regexp(t, `(?m)^::error file=desks/boundary-desk\.json,line=\d+,col=\d+,title=FAIL boundary-desk/boundary-deny-one-call`, verify.stdout, "the failure annotated on its line")
	assert.Contains(t, verify.stdout, "FAIL — 14 passed, 1 failed\n")
	assert.Equal(t, "1", r.outputs["verify"]["code"])
	assert.Regexp(t, `(?m)^::error file=desks/boundary-desk\.json,line=1,col=1,title=fault omp/[a-z-]+ missed::`, results["faults"].stdout)

	summary, err := os.ReadFile(r.summary)
	require.NoError(t, err)
	assert.Contains(t, string(summary), "## deskcheck: FAIL — 14 passed, 1 failed")
	assert.Contains(t, string(summary), "## deskcheck diff REGRESSION — 1 case went from pass to fail")

	diff := results["diff"]
	require.False(t, diff.skipped, "a pull request is compared")
	assert.Regexp(t, `(?m)^::error file=desks/boundary-desk\.json,line=\d+,col=\d+,title=pass→fail boundary-desk/boundary-deny-one-call`, diff.stdout, diff.stderr)
	assert.Equal(t, "1", r.outputs["diff"]["code"])

	require.Len(t, uploads, 1, "SARIF is uploaded")
	assert.True(t, strings.HasPrefix(uploads[0].Uses, "github/codeql-action/upload-sarif@"))
	sarifFile := r.expand(uploads[0].With["sarif_file"])
	sarif, err := os.ReadFile(sarifFile)
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

	assert.Equal(t, 1, code, "the job fails with deskcheck's exit code")
	assert.Equal(t, "1", r.outputs["result"]["code"])
	assert.Equal(t, "1", r.expand(a.Outputs["exit-code"].Value))
	assert.FileExists(t, r.expand(a.Outputs["report"].Value))
	assert.NotContains(t, git(t, r.work, "worktree", "list"), "deskcheck-base", "the merge base's worktree is removed")
	status := git(t, r.work, "status", "--porcelain")
	assert.Empty(t, status, "the action writes nothing into the checkout")
}
