package policy

import (
	"fmt"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Guards are families of shell commands that ask in every mode, bypass
// modes included, whatever else allows them (README, "Guards"): work that
// cannot be got back, and installs that write outside the sandbox. Each is
// ask (the default), deny, or off.
type Guards struct {
	// LoseWork: git reset --hard, git checkout -- . and git restore . (over
	// uncommitted changes), git clean -f, git stash drop and clear, git
	// push --force (not --force-with-lease), git branch -D, rm -r of a
	// top-level project directory.
	LoseWork Setting[Decision]
	// InstallOutside: package managers and installers that write outside
	// the sandbox (npm install -g, pip install --user or outside a
	// virtualenv, sudo, apt-get install, brew install, cargo install, go
	// install).
	InstallOutside Setting[Decision]
}

// GuardsLayer is the guards: mapping of one file; nil fields are not set.
type GuardsLayer struct {
	LoseWork       *Setting[Decision]
	InstallOutside *Setting[Decision]
}

// ConfineMode says which Bash commands run inside a kernel sandbox built
// from the policy (README, "What the kernel enforces").
type ConfineMode uint8

const (
	// ConfineAuto confines, where the kernel supports it, the commands that
	// run without anyone being asked and whose own file accesses safezone
	// cannot see (a program outside the command table, inline code, a
	// script).
	ConfineAuto ConfineMode = iota
	// ConfineAlways confines every Bash command that runs; in prompting
	// modes the host then asks about the confined form.
	ConfineAlways
	// ConfineOff never confines.
	ConfineOff
)

var confineNames = [...]string{ConfineAuto: "auto", ConfineAlways: "always", ConfineOff: "off"}

// String returns "auto", "always" or "off".
func (m ConfineMode) String() string {
	if int(m) < len(confineNames) {
		return confineNames[m]
	}
	return fmt.Sprintf("confine(%d)", uint8(m))
}

// Confine is the effective confine: mapping.
type Confine struct {
	Mode Setting[ConfineMode]
	// Write lists directories, besides the sandbox roots and the temp
	// directories, where a confined command may write: tool caches. Relative
	// entries are relative to their file's directory (Dir.Base); "~" is the
	// home directory.
	Write []Dir
	// ProgramWritable are protected trees that the programs a confined
	// command runs rewrite whole (git's objects and index, node_modules,
	// lock files): the kernel neither hides nor keeps read-only anything
	// below them. The analysis still judges what a command names there,
	// and the agent's own file tools still cannot write them.
	ProgramWritable []Pattern
}

// ConfineLayer is the confine: mapping of one file.
type ConfineLayer struct {
	Mode            *Setting[ConfineMode]
	Write           []Dir
	ProgramWritable []Pattern
}

type rawGuards struct {
	LoseWork       yaml.Node `yaml:"lose_work"`
	InstallOutside yaml.Node `yaml:"install_outside"`
}

type rawConfine struct {
	Mode            yaml.Node   `yaml:"mode"`
	Write           []yaml.Node `yaml:"write"`
	ProgramWritable []yaml.Node `yaml:"program_writable"`
}

// guards validates the guards: mapping: each value ask, deny or off.
func (p *parser) guards(g *rawGuards) {
	p.l.Guards.LoseWork = p.guard(&g.LoseWork, "guards.lose_work")
	p.l.Guards.InstallOutside = p.guard(&g.InstallOutside, "guards.install_outside")
}

// guard parses ask, deny or off (stored as Abstain).
func (p *parser) guard(n *yaml.Node, field string) *Setting[Decision] {
	if n.Kind == 0 {
		return nil
	}
	s, ok := p.str(n, field)
	if !ok {
		return nil
	}
	switch s {
	case "ask":
		return &Setting[Decision]{Value: Ask, Pos: p.pos(n)}
	case "deny":
		return &Setting[Decision]{Value: Deny, Pos: p.pos(n)}
	case "off":
		return &Setting[Decision]{Value: Abstain, Pos: p.pos(n)}
	}
	p.fail(n, field, fmt.Errorf("%w: %q (want ask, deny or off)", ErrBadValue, s))
	return nil
}

// confine validates the confine: mapping.
func (p *parser) confine(c *rawConfine) {
	if c.Mode.Kind != 0 {
		if s, ok := p.str(&c.Mode, "confine.mode"); ok {
			found := false
			for i, name := range confineNames {
				if s == name {
					p.l.Confine.Mode = &Setting[ConfineMode]{Value: ConfineMode(i), Pos: p.pos(&c.Mode)}
					found = true
				}
			}
			if !found {
				p.fail(&c.Mode, "confine.mode", fmt.Errorf("%w: %q (want auto, always or off)", ErrBadValue, s))
			}
		}
	}
	p.l.Confine.Write = p.dirList(c.Write, "confine.write")
	p.l.Confine.ProgramWritable = p.patterns(c.ProgramWritable, "confine.program_writable")
}

// GuardName is how reasons and explain name a guard's setting.
func GuardName(field string) string { return "guards." + field }

// mergeExtras merges read_dirs, guards and confine of layer l into p.
func mergeExtras(open opener, p *Policy, l *Layer) {
	p.ReadDirs = dirs(open, "sandbox.read_dirs", p.ReadDirs, l.ReadDirs, l.Dir)
	scalar(open, "guards.lose_work", &p.Guards.LoseWork, l.Guards.LoseWork)
	scalar(open, "guards.install_outside", &p.Guards.InstallOutside, l.Guards.InstallOutside)
	scalar(open, "confine.mode", &p.Confine.Mode, l.Confine.Mode)
	p.Confine.Write = dirs(open, "confine.write", p.Confine.Write, l.Confine.Write, l.Dir)
	p.Confine.ProgramWritable = patterns(open, "confine.program_writable", p.Confine.ProgramWritable, l.Confine.ProgramWritable)
	for _, t := range l.Templates {
		if open("paths.templates", func() string { return t.Value }, t.Pos) {
			p.Templates = append(p.Templates, t)
		}
	}
}

// templates validates paths.templates: bare file names, without "/" or a
// wildcard.
func (p *parser) templates(ns []yaml.Node) []Setting[string] {
	var out []Setting[string]
	for i := range ns {
		n := &ns[i]
		s, ok := p.str(n, "paths.templates")
		if !ok {
			continue
		}
		if s == "" || s == "." || s == ".." || strings.ContainsAny(s, "/*?[]{}\\") {
			p.fail(n, "paths.templates", fmt.Errorf("%w: %q is not a file name (want a name such as .env.example, without / or wildcards)", ErrBadValue, s))
			continue
		}
		out = append(out, Setting[string]{Value: s, Pos: p.pos(n)})
	}
	return out
}

// dirs appends a layer's directory entries, each keeping its layer's
// directory as its Base.
func dirs(open opener, key string, dst, src []Dir, base string) []Dir {
	for _, d := range src {
		if d.Base == "" {
			d.Base = base
		}
		if open(key, func() string { return d.Path }, d.Pos) {
			dst = append(dst, d)
		}
	}
	return dst
}

// ExpandDir makes a directory entry absolute: "~" and "~/x" against home,
// a relative path against its Base, else against projectRoot. It returns ""
// when "~" cannot be expanded (no home).
func ExpandDir(d Dir, home, projectRoot string) string {
	p := d.Path
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		if home == "" {
			return ""
		}
		p = home + strings.TrimPrefix(p, "~")
	case !filepath.IsAbs(p):
		base := d.Base
		if base == "" {
			base = projectRoot
		}
		p = filepath.Join(base, p)
	}
	return filepath.Clean(p)
}
