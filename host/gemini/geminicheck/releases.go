package geminicheck

import (
	"strings"

	"github.com/deskcheck/deskcheck/host/gemini"
	"github.com/deskcheck/deskcheck/scenario"
)

// Releases are the modelled releases as the engine knows them, oldest
// first, each with its behaviour group.
var Releases = func() []scenario.Release {
	var out []scenario.Release
	for _, r := range gemini.Releases() {
		out = append(out, scenario.Release{Version: r.Version, Group: r.Group.String()})
	}
	return out
}()

func releaseNames() string {
	var names []string
	for _, r := range gemini.Releases() {
		names = append(names, r.Version)
	}
	return strings.Join(names, ", ")
}

// Changes are the behaviour changes at the group boundaries, with what a
// case must do to exercise each (deskcheck drift lists those no case does).
var Changes = func() []scenario.ReleaseChange {
	on := func(f func(g *given) bool) func(*scenario.Compiled) bool {
		return func(c *scenario.Compiled) bool {
			g, ok := scenario.GivenOf[*given](c)
			return ok && f(g)
		}
	}
	command := func(g *given) string {
		if !gemini.IsShellTool(g.call.Name) {
			return ""
		}
		m, _ := g.call.Args.(map[string]any)
		s, _ := m["command"].(string)
		return s
	}
	redirects := func(g *given) bool {
		p, err := gemini.ParseShell(command(g))
		return err == nil && gemini.HasRedirection(command(g), p)
	}
	parseError := func(g *given) bool {
		p, err := gemini.ParseShell(command(g))
		return err == nil && command(g) != "" && p.HasError
	}
	uses := map[string]struct {
		unexercised string
		exercised   func(*given) bool
	}{
		"yolo-redirection": {"no case redirects a command in YOLO or autoEdit", func(g *given) bool {
			return (g.mode == gemini.ModeYolo || g.mode == gemini.ModeAutoEdit) && redirects(g)
		}},
		"parse-failure-denies": {"no case has a shell command with a syntax error in YOLO", func(g *given) bool { return g.mode == gemini.ModeYolo && parseError(g) }},
		"rg-absolute-only":     {"no case runs rg", func(g *given) bool { return strings.Contains(command(g), "rg") }},
		"plan-files": {"no case writes a file in plan mode", func(g *given) bool {
			return g.mode == gemini.ModePlan && (g.call.Name == "write_file" || g.call.Name == "replace")
		}},
		"untrusted-git": {"no case runs git in an untrusted folder", func(g *given) bool { return !g.trusted && strings.Contains(command(g), "git") }},
		"deny-kept":     {"no case has a deny decide a dangerous command without a pattern", func(g *given) bool { return command(g) != "" && hasDeny(g) }},
		"outside-workspace": {"no case names a path outside the workspace", func(g *given) bool {
			return strings.Contains(command(g), "/") || strings.Contains(command(g), "..") || hasDirPath(g)
		}},
		"ln-dangerous": {"no case runs ln -s", func(g *given) bool { return strings.Contains(command(g), "ln ") }},
		"build-files":  {"no case edits a build file", func(g *given) bool { return editsBuildFile(g) }},
	}
	var out []scenario.ReleaseChange
	for _, c := range gemini.Changes() {
		u := uses[c.ID]
		out = append(out, scenario.ReleaseChange{Since: c.Since, ID: c.ID, What: c.What, Unexercised: u.unexercised, Exercised: on(u.exercised)})
	}
	return out
}()

func hasDeny(g *given) bool {
	for _, p := range g.policies {
		if strings.Contains(p.text, `"deny"`) {
			return true
		}
	}
	return !g.interactive || g.mode == gemini.ModePlan
}

func hasDirPath(g *given) bool {
	m, _ := g.call.Args.(map[string]any)
	_, ok := m["dir_path"]
	return ok
}

func editsBuildFile(g *given) bool {
	m, _ := g.call.Args.(map[string]any)
	for _, k := range []string{"file_path", "path", "filePath", "file"} {
		if s, ok := m[k].(string); ok {
			for _, b := range []string{"package.json", "go.mod", "Makefile", "Cargo.toml", "Dockerfile", ".bzl", "BUILD", "pom.xml"} {
				if strings.Contains(s, b) {
					return true
				}
			}
		}
	}
	return false
}
