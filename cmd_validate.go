package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/safezonehq/safezone/pipeline"
	"github.com/safezonehq/safezone/policy"
)

const validateUsage = `Usage:
    safezone validate [FILE...]

Checks policy files (YAML) and Claude Code settings files (.json): the strict
schema, globs, rule syntax, rules for tools safezone does not know, allow
rules that can never fire because a deny rule always wins, and the flags and
onFailure setting of every safezone hook registered in the settings. Without
FILE it checks every layer found for the project (CLAUDE_PROJECT_DIR, else
the working directory): managed, user, project and local policies, and
Claude Code's managed, user, project and local settings.

Once every file parses, the layers are checked together, over the embedded
default: a remove: entry must name an entry of a lower layer (an error
otherwise), each removal is noted with the entry it takes out, and what a
file of the project's own (.safezone.yaml, .safezone.local.yaml,
.claude/settings*.json) widens without your trust is a warning (safezone
trust FILE applies it). A FILE given is layered over the embedded default
alone.

Each problem is printed as file:line:col: field: message; warnings say
"warning:", notes "note:". The exit status is 1 when there is an error,
else 0.
`

// validated is one file validate looked at.
type validated struct {
	path  string
	layer *policy.Layer
}

func cmdValidate(args []string, stdout, stderr io.Writer, sys *pipeline.System) int {
	fs := pipeline.NewFlagSet()
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pipeline.ErrHelp) {
			fmt.Fprint(stdout, validateUsage)
			return 0
		}
		fmt.Fprintf(stderr, "safezone: validate: %v\n%s", err, validateUsage)
		return 2
	}
	root := sys.ProjectRoot()
	files := namedFiles(fs.Args())
	if fs.NArg() == 0 {
		files = projectFiles(policy.DefaultLocations(sys.Getenv, root, sys.Getenv("HOME")), root)
	}
	if len(files) == 0 {
		fmt.Fprintf(stdout, "no policy or settings file found for %s; the embedded default applies (see safezone policy)\n", root)
		return 0
	}
	all := checkFiles(files, fs.NArg() == 0)
	if !slices.ContainsFunc(all, finding.isError) {
		all = append(all, checkLayers(files, fs.NArg() == 0, root, sys)...)
	}
	errs, warns := 0, 0
	for _, f := range all {
		fmt.Fprintln(stdout, f)
		switch {
		case f.warning:
			warns++
		case !f.note:
			errs++
		}
	}
	fmt.Fprintf(stdout, "%d error%s, %d warning%s in %d file%s\n", errs, plural(errs), warns, plural(warns), len(files), plural(len(files)))
	if errs > 0 {
		return 1
	}
	return 0
}

// checkedFile is a file validate checks: a policy file of a scope, or a
// Claude Code settings file (claude set).
type checkedFile struct {
	path   string
	scope  policy.Scope
	claude *policy.ClaudeSource
}

// namedFiles are the files given on the command line: .json files are
// Claude Code settings (project scope), the others policy files.
func namedFiles(args []string) []checkedFile {
	var files []checkedFile
	for _, f := range args {
		if strings.HasSuffix(f, ".json") {
			files = append(files, checkedFile{f, policy.ScopeProject, &policy.ClaudeSource{Scope: policy.ScopeProject, SlashBase: "./"}})
		} else {
			files = append(files, checkedFile{path: f, scope: policy.ScopeFile})
		}
	}
	return files
}

// projectFiles are the policy and settings files that exist for the
// project at root, in the order the hook layers them.
func projectFiles(loc policy.Locations, root string) []checkedFile {
	var files []checkedFile
	for _, f := range []checkedFile{
		{path: loc.Managed, scope: policy.ScopeManaged},
		{path: loc.User, scope: policy.ScopeUser},
		{path: filepath.Join(root, policy.ProjectFile), scope: policy.ScopeProject},
		{path: filepath.Join(root, policy.LocalFile), scope: policy.ScopeLocal},
	} {
		if _, err := os.Stat(f.path); err == nil {
			files = append(files, f)
		}
	}
	for _, s := range policy.ClaudeSettingsFiles(loc) {
		if _, err := os.Stat(s.Path); err == nil {
			src := s.Source
			files = append(files, checkedFile{path: s.Path, scope: src.Scope, claude: &src})
		}
	}
	return files
}

// checkFiles loads every file and returns its problems, each file's in the
// order of its lines, files in the order given. scoped checks each policy
// file against what its scope may set (the files were found by location).
func checkFiles(files []checkedFile, scoped bool) []finding {
	var all []finding
	var layers []validated
	for _, f := range files {
		var l *policy.Layer
		var err error
		if f.claude != nil {
			l, err = policy.LoadClaudeSettings(f.path, *f.claude)
			if err == nil && l == nil {
				err = fmt.Errorf("%s: no such file", f.path)
			}
			all = append(all, hookRegistrations(f.path)...)
		} else {
			l, err = policy.Load(f.path)
			if l != nil {
				l.Scope = f.scope
				if scoped {
					err = errors.Join(err, policy.CheckScope(l))
				}
			}
		}
		all = append(all, findings(err, false)...)
		if l != nil {
			for _, w := range l.Warnings {
				all = append(all, findings(w, true)...)
			}
			layers = append(layers, validated{f.path, l})
		}
	}
	all = append(all, shadowedAllows(layers)...)
	order := map[string]int{}
	for i, f := range files {
		order[f.path] = i
	}
	slices.SortStableFunc(all, func(a, b finding) int {
		return cmp.Or(cmp.Compare(order[a.file], order[b.file]), cmp.Compare(a.line, b.line), cmp.Compare(a.col, b.col))
	})
	return all
}

// checkLayers checks the layers together, over the embedded default: for
// the project (every file found, trust as the hook sees it), or each named
// policy file alone. It returns the removals that name nothing (errors),
// what the project's files widen without trust (warnings) and each removal
// (notes), in file order.
func checkLayers(files []checkedFile, project bool, root string, sys *pipeline.System) []finding {
	var out []finding
	var pols []*policy.Policy
	if project {
		opts, err := pipeline.ParseFlags(nil, false)
		if err != nil {
			return nil
		}
		pol, err := pipeline.LoadPolicy(opts, root, sys, nil)
		if err != nil {
			return findings(err, false)
		}
		pols = append(pols, pol)
	} else {
		for _, f := range files {
			if f.claude != nil {
				continue
			}
			l, err := policy.Load(f.path)
			if err != nil {
				continue // reported by checkFiles
			}
			l.Scope = policy.ScopeFile
			pol := policy.Merge(pipeline.EmbeddedDefault(), l)
			for _, e := range pol.Errors {
				out = append(out, findings(e, false)...)
			}
			pols = append(pols, pol)
		}
	}
	for _, pol := range pols {
		for _, u := range pol.Untrusted {
			out = append(out, finding{file: u.Pos.File, line: u.Pos.Line, col: u.Pos.Col, field: u.Key, warning: true,
				msg: fmt.Sprintf("%s widens the policy (%s): ignored until you trust this content with `safezone trust %s`", u.Value, u.Why, u.Pos.File)})
		}
		for _, r := range pol.Removed {
			out = append(out, finding{file: r.By.File, line: r.By.Line, col: r.By.Col, field: "remove." + r.Key, note: true,
				msg: fmt.Sprintf("removes %q (%s)", r.Value, r.Pos)})
		}
	}
	order := map[string]int{}
	for i, f := range files {
		order[f.path] = i
	}
	slices.SortStableFunc(out, func(a, b finding) int {
		return cmp.Or(cmp.Compare(order[a.file], order[b.file]), cmp.Compare(a.line, b.line), cmp.Compare(a.col, b.col))
	})
	return out
}

// shadowedAllows finds allow rules that can never fire because a deny rule
// (in any layer: a deny always wins) covers every call they match.
func shadowedAllows(layers []validated) []finding {
	var denies []policy.Rule
	for _, v := range layers {
		denies = append(denies, v.layer.Deny...)
	}
	var out []finding
	for _, v := range layers {
		for i, a := range v.layer.Allow {
			for _, d := range denies {
				if covers(d, a) {
					out = append(out, finding{file: a.Pos.File, line: a.Pos.Line, col: a.Pos.Col, field: fmt.Sprintf("rules.allow[%d]", i), warning: true,
						msg: fmt.Sprintf("%q can never fire: deny rule %q (%s) matches everything it does, and a deny always wins", a.Text, d.Text, d.Pos)})
					break
				}
			}
		}
	}
	return out
}

// covers reports whether deny rule d matches every call that allow rule a
// matches. It is conservative: it answers true only when that is sure.
func covers(d, a policy.Rule) bool {
	switch {
	case d.Kind == policy.RuleTool:
		// A bare tool or tool glob covers every rule for the tools it names.
		return !strings.ContainsAny(a.Tool, "*?[") && d.NamesTool(a.Tool) && !d.AnyAccess
	case d.Kind == policy.RulePath && a.Kind == policy.RulePath:
		sameTools := d.Tool == a.Tool || (d.AnyAccess && (d.Access == a.Access || d.Access == policy.Read))
		return sameTools && patternCovers(d.Path, a.Path)
	case d.Kind == policy.RuleCommand && a.Kind == policy.RuleCommand && d.Tool == a.Tool:
		// "Bash(npm *)" and "Bash(npm:*)" cover "Bash(npm test)" and
		// "Bash(npm test:*)"; anything subtler is not reported.
		prefix, ok := strings.CutSuffix(d.Command, " *")
		if d.Prefix {
			prefix, ok = d.Command, true
		}
		return (d.Command == a.Command && d.Prefix == a.Prefix) || (ok && strings.HasPrefix(a.Command, prefix+" "))
	}
	return false
}

// patternCovers reports whether every path pattern a matches is matched by
// d (or lies below a directory d matches), reading a's wildcards as literal
// text: true when d's glob matches a's glob as a string.
func patternCovers(d, a policy.Pattern) bool {
	match := func(s string) bool { ok, _ := doublestar.Match(d.Glob, s); return ok }
	switch {
	case d.Anchor == policy.AnyDepth:
		for _, el := range strings.Split(a.Glob, "/") {
			if el != "" && el != "**" && match(el) {
				return true
			}
		}
	case d.Anchor == a.Anchor:
		els := strings.Split(a.Glob, "/")
		for i := range els {
			if match(strings.Join(els[:i+1], "/")) {
				return true
			}
		}
	}
	return false
}

// hookRegistrations checks the safezone hooks registered in a Claude Code
// settings file: their flags must parse, and their entry should fail closed.
func hookRegistrations(path string) []finding {
	var out []finding
	for _, h := range safezoneEntries(path) {
		args := strings.Fields(h.command)[1:]
		if len(args) > 0 && args[0] == "explain" {
			out = append(out, finding{file: path, field: h.field, msg: "the hook runs `safezone explain`, which prints a trace, not a decision"})
			continue
		}
		if _, err := pipeline.ParseFlags(args, false); err != nil {
			out = append(out, finding{file: path, field: h.field, msg: fmt.Sprintf("command %q: %v: every call would be denied", h.command, err)})
		}
		if h.onFailure != "block" {
			out = append(out, finding{file: path, field: h.field, warning: true,
				msg: `no "onFailure": "block": if safezone cannot run (missing, killed, timed out), Claude Code runs the tool anyway`})
		}
	}
	return out
}

// hookEntry is one PreToolUse hook of a Claude Code settings file that
// runs safezone: its command, its onFailure and where it is
// ("hooks.PreToolUse[0].hooks[1]").
type hookEntry struct {
	command, onFailure, field string
}

// safezoneEntries returns the PreToolUse hooks of the Claude Code settings
// file at path whose command runs safezone (its first word, quotes
// removed, names a file called safezone); none when the file is missing
// or not JSON (the settings parser reports that).
func safezoneEntries(path string) []hookEntry {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var s struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Command   string `json:"command"`
				OnFailure string `json:"onFailure"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if json.Unmarshal(data, &s) != nil {
		return nil
	}
	var out []hookEntry
	for i, group := range s.Hooks["PreToolUse"] {
		for j, h := range group.Hooks {
			if w := strings.Fields(h.Command); len(w) > 0 && filepath.Base(strings.Trim(w[0], `"'`)) == "safezone" {
				out = append(out, hookEntry{command: h.Command, onFailure: h.OnFailure, field: fmt.Sprintf("hooks.PreToolUse[%d].hooks[%d]", i, j)})
			}
		}
	}
	return out
}
