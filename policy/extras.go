package policy

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/safezonehq/safezone/policy/yamldoc"
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
	// Sockets are sockets every confined command may still reach (the
	// kernel hides the others that lead to programs outside the sandbox):
	// absolute paths, ~/ paths, or $NAME for the path an environment
	// variable names ($SSH_AUTH_SOCK).
	Sockets []Setting[string]
	// Grants are what a confined command may reach when the analysis
	// establishes that it runs a given tool (git push over ssh, gh, docker):
	// secrets to read and sockets to use.
	Grants []Grant
}

// Grant lets a confined command reach what a tool needs (confine.grants):
// when every simple command of a Bash call is known to safezone and one of
// them matches Command, the command may read the paths Read names (though
// a Read deny rule matches them: the kernel does not hide them from it)
// and use the sockets Sockets names.
type Grant struct {
	Pos     Pos
	Command Rule      // a Bash(...) rule: "Bash(git push:*)"
	Read    []Pattern // paths to leave readable
	Sockets []string  // as in Confine.Sockets
}

// ConfineLayer is the confine: mapping of one file.
type ConfineLayer struct {
	Mode            *Setting[ConfineMode]
	Write           []Dir
	ProgramWritable []Pattern
	Sockets         []Setting[string]
	Grants          []Grant
}

type rawGuards struct {
	LoseWork       yamldoc.Node
	InstallOutside yamldoc.Node
}

type rawConfine struct {
	Mode            yamldoc.Node
	Write           []yamldoc.Node
	ProgramWritable []yamldoc.Node
	Sockets         []yamldoc.Node
	Grants          []rawGrant
}

type rawGrant struct {
	Command yamldoc.Node
	Read    []yamldoc.Node
	Sockets []yamldoc.Node
	bad     bool // not a mapping (reported)
}

// guards validates the guards: mapping: each value ask, deny or off.
func (p *parser) guards(g *rawGuards) {
	p.l.Guards.LoseWork = p.guard(&g.LoseWork, "guards.lose_work")
	p.l.Guards.InstallOutside = p.guard(&g.InstallOutside, "guards.install_outside")
}

// guard parses ask, deny or off (stored as Abstain).
func (p *parser) guard(n *yamldoc.Node, field string) *Setting[Decision] {
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
	p.l.Confine.Sockets = p.sockets(c.Sockets, "confine.sockets")
	for i := range c.Grants {
		g := &c.Grants[i]
		if g.bad {
			continue
		}
		field := fmt.Sprintf("confine.grants[%d]", i)
		if g.Command.Kind == 0 {
			at := &yamldoc.Node{}
			if len(g.Read) > 0 {
				at = &g.Read[0]
			} else if len(g.Sockets) > 0 {
				at = &g.Sockets[0]
			}
			p.fail(at, field, fmt.Errorf("%w: a grant needs a command (a Bash rule's specifier, such as \"git push:*\")", ErrBadValue))
			continue
		}
		cmd, ok := p.str(&g.Command, field+".command")
		if !ok {
			continue
		}
		rule, err, _ := CompileRule("Bash("+cmd+")", p.pos(&g.Command))
		if err != nil || rule.Kind != RuleCommand {
			p.fail(&g.Command, field+".command", fmt.Errorf("%w: %q is not a command pattern (write it as in Bash(...): \"git push:*\")", ErrBadValue, cmd))
			continue
		}
		grant := Grant{Pos: p.pos(&g.Command), Command: rule, Read: p.patterns(g.Read, field+".read")}
		for _, s := range p.sockets(g.Sockets, field+".sockets") {
			grant.Sockets = append(grant.Sockets, s.Value)
		}
		p.l.Confine.Grants = append(p.l.Confine.Grants, grant)
	}
}

// sockets validates a list of sockets: absolute paths, ~/ paths, or
// $NAME (an environment variable's name: letters, digits, underscores).
func (p *parser) sockets(ns []yamldoc.Node, key string) []Setting[string] {
	var out []Setting[string]
	for i := range ns {
		n := &ns[i]
		field := fmt.Sprintf("%s[%d]", key, i)
		v, ok := p.str(n, field)
		if !ok {
			continue
		}
		valid := filepath.IsAbs(v) || strings.HasPrefix(v, "~/")
		if name, ok := strings.CutPrefix(v, "$"); ok {
			valid = name != "" && strings.IndexFunc(name, func(r rune) bool {
				return !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
			}) < 0
		}
		if !valid || strings.ContainsRune(v, 0) {
			p.fail(n, field, fmt.Errorf("%w: %q: want an absolute path, a ~/ path or $VARIABLE", ErrBadValue, v))
			continue
		}
		out = append(out, Setting[string]{Value: v, Pos: p.pos(n)})
	}
	return out
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
	for _, s := range l.Confine.Sockets {
		if open("confine.sockets", func() string { return s.Value }, s.Pos) {
			p.Confine.Sockets = append(p.Confine.Sockets, s)
		}
	}
	for _, g := range l.Confine.Grants {
		if open("confine.grants", func() string { return g.Command.Text }, g.Pos) {
			p.Confine.Grants = append(p.Confine.Grants, g)
		}
	}
	for _, t := range l.Templates {
		if open("paths.templates", func() string { return t.Value }, t.Pos) {
			p.Templates = append(p.Templates, t)
		}
	}
}

// templates validates paths.templates: bare file names, without "/" or a
// wildcard.
func (p *parser) templates(ns []yamldoc.Node) []Setting[string] {
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
