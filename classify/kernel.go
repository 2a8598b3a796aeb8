package classify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/safezonehq/safezone/policy"
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
	for i, m := range matched {
		if m {
			r.Grants = append(r.Grants, d.pol.Confine.Grants[i])
		}
	}
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
