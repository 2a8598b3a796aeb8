package classify

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/safezonehq/safezone/classify/glob"
	"github.com/safezonehq/safezone/classify/shell"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// maxGlobMatches bounds the expansion of one glob in a shell command; past
// it the command's targets are unknown (issue "Shell commands").
const maxGlobMatches = 1000

// maxGlobDirs bounds the directories the globs of one shell command may
// read while expanding: "cat /*/*/*/*/*/x*" would otherwise walk the whole
// disk before the hook's deadline. Past it the command is unknown.
const maxGlobDirs = 1000

var (
	errTooManyMatches = errors.New("too many matches")
	errTooManyDirs    = errors.New("too many directories")
)

// budgetFS counts the directories a glob expansion reads (ReadDir), and
// fails past the budget.
type budgetFS struct {
	fs.ReadLinkFS
	left *int
}

func (b budgetFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if *b.left <= 0 {
		return nil, errTooManyDirs
	}
	*b.left--
	return fs.ReadDir(b.ReadLinkFS, name)
}

// shellTargets turns the analysis of a shell command into targets: plain
// paths are resolved like any file tool's; a glob is expanded against the
// file system as bash would (bounded), each match becoming a target, and is
// also kept as a pattern target (checked against deny rules, so "cat .e*"
// reads .env-like files by name) and as its literal directory (so a glob in
// a directory outside is outside). A glob that matches nothing, or too much,
// makes its command unknown.
func shellTargets(sa *shell.Analysis, fsys fs.ReadLinkFS) []Target {
	var out []Target
	dirs := maxGlobDirs
	globFS := budgetFS{fsys, &dirs}
	for ci := range sa.Commands {
		cmd := &sa.Commands[ci]
		for _, st := range cmd.Targets {
			switch {
			case st.Pattern:
				out = append(out, Target{Field: "command", Given: st.Given, Access: accessOf(st.Access), Abs: st.Path, Globs: []string{st.Path}, Cmd: ci})
			case st.Glob:
				ts, why := expandShellGlob(st, ci, globFS)
				if why != "" && cmd.Unknown == "" {
					cmd.Unknown = why
				}
				out = append(out, ts...)
			default:
				t := newTarget(fsys, "command", st.Given, st.Path, accessOf(st.Access))
				t.Cmd, t.Recursive = ci, st.Recursive
				out = append(out, t)
			}
		}
	}
	return out
}

func expandShellGlob(st shell.Target, ci int, fsys budgetFS) ([]Target, string) {
	// Without bash's globstar, "**" is "*".
	pat := st.Path
	for strings.Contains(pat, "**") {
		pat = strings.ReplaceAll(pat, "**", "*")
	}
	prefix, rest := glob.LiteralPrefix(pat)
	out := []Target{{Field: "command", Given: st.Given, Access: accessOf(st.Access), Abs: path.Clean(pat), Globs: []string{pat}, Cmd: ci}}
	dir := newTarget(fsys, "command", path.Dir(st.Given)+" (the directory of "+st.Given+")", prefix, accessOf(st.Access))
	dir.Cmd = ci
	out = append(out, dir)
	if dir.Err != nil {
		return out, ""
	}
	for _, el := range strings.Split(rest, "/") {
		if el == ".." || el == "." {
			return out, "the glob " + st.Given + " has " + el + " after a wildcard"
		}
	}
	base := strings.TrimPrefix(dir.Res.Path, "/")
	full := rest
	if base != "" {
		full = glob.Escape(base) + "/" + rest
	}
	var matches []string
	err := doublestar.GlobWalk(fsys, full, func(p string, _ fs.DirEntry) error {
		if len(matches) >= maxGlobMatches {
			return errTooManyMatches
		}
		matches = append(matches, p)
		return nil
	}, doublestar.WithNoHidden())
	switch {
	case errors.Is(err, errTooManyMatches):
		return out, fmt.Sprintf("the glob %s matches more than %d paths", st.Given, maxGlobMatches)
	case errors.Is(err, errTooManyDirs) || *fsys.left <= 0: // doublestar skips directories it cannot read
		return out, fmt.Sprintf("the globs of the command read more than %d directories (%s)", maxGlobDirs, st.Given)
	case err != nil:
		return out, "the glob " + st.Given + " cannot be expanded: " + err.Error()
	case len(matches) == 0:
		return out, "the glob " + st.Given + " matches nothing (bash would pass it on as it is)"
	}
	for _, m := range matches {
		t := newTarget(fsys, "command", m, "/"+m, accessOf(st.Access))
		t.Cmd, t.Recursive = ci, st.Recursive
		out = append(out, t)
	}
	return out, ""
}

// callWrites reports whether the call may change files, for read mode: a
// shell command unless every command in it is a known read-only one with
// known targets.
func (d *decider) callWrites() bool {
	if d.shell == nil {
		return d.call.Writes
	}
	if !d.shell.Known() {
		return true
	}
	for i := range d.shell.Commands {
		if !d.shell.Commands[i].ReadOnly {
			return true
		}
	}
	return false
}

// shellFallback is the last row for a shell command (issue "Shell
// commands"): unknown targets or inline code ask (allow in agi); known
// targets all inside, or none, abstain in write mode (the host asks per
// command) and are allowed with -y, auto_approve, agi or host
// bypassPermissions. acceptEdits covers file edits, not shell commands, and
// the safe class does not apply.
func (d *decider) shellFallback() (policy.Decision, string, string) {
	if !d.shell.Known() {
		why := d.shell.Why()
		if d.modes.AGI {
			return policy.Allow, "unknown targets, allowed in agi mode", why
		}
		return policy.Ask, "targets safezone cannot know", why
	}
	if !d.modes.Read && (d.modes.AGI || d.pol.AutoApprove.Value || d.call.PermissionMode == hookio.PermBypass) {
		src := d.modes.AutoSource
		if d.call.PermissionMode == hookio.PermBypass && !d.modes.AGI && !d.pol.AutoApprove.Value {
			src = "host permission_mode bypassPermissions"
		}
		return policy.Allow, "auto-approve (" + src + ")", ""
	}
	return policy.Abstain, "known targets inside the sandbox", "the host asks as usual"
}

// shellRuleMatches applies a Bash(...) or PowerShell(...) rule: to every
// simple command of the analysis (an allow rule must cover all of them), or,
// when the command could not be parsed, to the whole command text (deny and
// ask only).
func (d *decider) shellRuleMatches(r *policy.Rule, allow bool) bool {
	if d.shell == nil {
		return false
	}
	var cmds []*shell.Command
	for i := range d.shell.Commands {
		c := &d.shell.Commands[i]
		if len(c.Argv) == 0 || strings.HasSuffix(c.Argv[0], "=") || c.Argv[0] == "(redirection)" {
			continue
		}
		cmds = append(cmds, c)
	}
	if len(cmds) == 0 {
		return !allow && matchRawCommand(r, d.call.Command)
	}
	for _, c := range cmds {
		m := matchShellRule(r, c.Argv, allow)
		if allow && !m {
			return false
		}
		if !allow && m {
			return true
		}
	}
	return allow
}

// protectedBelow reports whether a recursive write of t reaches a protected
// path that exists: for patterns anchored at a place (".git/**", an
// absolute path), the literal part of the pattern below t. Patterns that
// match names anywhere (".env*") would need a walk of the tree and are not
// checked here.
func (d *decider) protectedBelow(p *policy.Pattern, t *Target) (string, bool) {
	if p.Anchor == policy.AnyDepth {
		return "", false
	}
	prefix, _ := glob.LiteralPrefix(p.Glob)
	var cands []string
	switch p.Anchor {
	case policy.Absolute:
		cands = []string{prefix}
	case policy.ProjectRoot, policy.Home:
		bases := d.anchors.project
		if p.Anchor == policy.Home {
			bases = d.anchors.home
		}
		for _, b := range bases {
			cands = append(cands, path.Join(b, prefix))
		}
	}
	for _, v := range t.placeViews() {
		for _, c := range cands {
			if c == v || !within(v, c) {
				continue
			}
			if _, err := d.fsys.Lstat(strings.TrimPrefix(c, "/")); err == nil {
				return c, true
			}
		}
	}
	return "", false
}

// accessOf is the policy's access for a shell target's.
func accessOf(a shell.Access) policy.Access {
	if a == shell.Read {
		return policy.Read
	}
	return policy.Write
}
