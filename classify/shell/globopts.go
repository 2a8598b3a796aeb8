package shell

import (
	"slices"
	"strings"
	"sync"

	"github.com/safezonehq/safezone/policy/glob"
)

// This file follows the shell options that change what a glob expands to
// (bash(1) Pathname Expansion, The Shopt Builtin, The Set Builtin, and
// GLOBIGNORE in Shell Variables) through the line: shopt -s/-u dotglob,
// nocaseglob, extglob, globstar, nullglob, failglob and globskipdots; set
// -f/+f and -o/+o noglob; GLOBIGNORE set, assigned before a command or
// unset (a non-empty value turns dotglob on, unsetting it turns dotglob
// off). A glob target carries every set of options that may be in force
// where bash expands it (Target.GlobOpts): an option changed where it may
// not have run (in a branch, after &&, in a loop) leaves both.
//
// The line starts from bash's defaults: what the host's shell inherits
// from the user's startup files is not seen (Claude Code's shell snapshot
// holds the user's shopt lines).

// maxGlobWorlds bounds the sets of options followed at once; past it the
// commands after are unknown. maxGlobEver bounds the sets met in the
// whole line, which a trap may run with; past it the traps are unknown.
const (
	maxGlobWorlds = 16
	maxGlobEver   = 4 * maxGlobWorlds
)

// globWorlds returns the option sets that may be in force now.
func (a *analyzer) globWorlds() []glob.ShellOptions {
	if len(a.glob) == 0 {
		return []glob.ShellOptions{{}}
	}
	return a.glob
}

// setGlob changes the options by f in every set in force; where the
// change may not happen (a.uncertain), the sets before stay possible too.
func (a *analyzer) setGlob(f func(*glob.ShellOptions)) {
	old := a.globWorlds()
	var next []glob.ShellOptions
	if a.uncertain > 0 {
		next = append(next, old...)
	}
	for _, o := range old {
		f(&o)
		next = append(next, o)
	}
	a.setWorlds(next)
}

// setWorlds sets the option sets in force, without repeats.
func (a *analyzer) setWorlds(ws []glob.ShellOptions) {
	var out []glob.ShellOptions
	for _, o := range ws {
		if !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	if len(out) > maxGlobWorlds {
		a.setLater("the shell options that change what globs match cannot be followed")
		out = out[:maxGlobWorlds]
	}
	a.glob = out
	for _, o := range out {
		if !slices.Contains(a.globEver, o) && len(a.globEver) < maxGlobEver {
			a.globEver = append(a.globEver, o)
		}
	}
}

// shoptGlob are the shopt options whose effect on globs is followed.
var shoptGlob = sync.OnceValue(func() map[string]func(o *glob.ShellOptions, on bool) {
	return map[string]func(o *glob.ShellOptions, on bool){
		"dotglob":      func(o *glob.ShellOptions, on bool) { o.DotGlob = on },
		"nocaseglob":   func(o *glob.ShellOptions, on bool) { o.NoCaseGlob = on },
		"extglob":      func(o *glob.ShellOptions, on bool) { o.ExtGlob = on },
		"globstar":     func(o *glob.ShellOptions, on bool) { o.GlobStar = on },
		"nullglob":     func(o *glob.ShellOptions, on bool) { o.NullGlob = on },
		"failglob":     func(o *glob.ShellOptions, on bool) { o.FailGlob = on },
		"globskipdots": func(o *glob.ShellOptions, on bool) { o.KeepDots = !on },
	}
})

// shoptLater are the shopt options that change what later names or files
// mean in ways the analysis does not follow: turning one on or off makes
// every later command unknown. globasciiranges off makes ranges follow
// the locale's collation; on is bash 5.2's default.
var shoptLater = []string{"expand_aliases", "cdable_vars", "sourcepath", "execfail"}

// shoptCmd: shopt -s or -u of a glob option (shoptGlob) changes the
// options later globs expand with; -o names set's options (noglob).
// Listing (-p, -q, no option) changes nothing.
func shoptCmd(c *cmdCtx) {
	c.cmd.ReadOnly = true
	mode, setO := byte(0), false
	for _, w := range c.args {
		t := w.text()
		switch {
		case w.unknown != "":
			c.a.setLater("shopt sets an option that is not static")
			return
		case strings.HasPrefix(t, "-") && len(t) > 1:
			for _, l := range t[1:] {
				switch l {
				case 's', 'u':
					mode = byte(l)
				case 'o':
					setO = true
				}
			}
		case mode == 0:
			return // shopt NAME: prints the option
		case setO:
			if t == "noglob" {
				on := mode == 's'
				c.a.setGlob(func(o *glob.ShellOptions) { o.NoGlob = on })
			}
		case shoptGlob()[t] != nil:
			on, f := mode == 's', shoptGlob()[t]
			c.a.setGlob(func(o *glob.ShellOptions) { f(o, on) })
		case t == "globasciiranges" && mode == 'u':
			c.a.setLater("shopt -u globasciiranges makes bracket ranges follow the locale's collation")
		case containsStr(shoptLater, t):
			c.a.setLater("shopt " + t + " changes what later names or files mean")
		}
	}
}

// setCmd: set -f and set -o noglob turn pathname expansion off, +f and
// +o noglob on (bash(1) The Set Builtin); other options and the
// positional parameters are not followed here. A word that is not static
// before "--" may be either.
func setCmd(c *cmdCtx) {
	c.cmd.ReadOnly = true
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		t := w.text()
		switch {
		case w.unknown != "":
			c.a.setWorlds(append(c.a.withNoGlob(true), c.a.withNoGlob(false)...))
			return
		case t == "--" || t == "-":
			return
		case t == "-o" || t == "+o":
			if i+1 < len(c.args) && c.args[i+1].text() == "noglob" {
				on := t[0] == '-'
				c.a.setGlob(func(o *glob.ShellOptions) { o.NoGlob = on })
			}
			i++
		case len(t) > 1 && (t[0] == '-' || t[0] == '+'):
			if strings.ContainsRune(t[1:], 'f') {
				on := t[0] == '-'
				c.a.setGlob(func(o *glob.ShellOptions) { o.NoGlob = on })
			}
			if strings.ContainsRune(t[1:], 'o') {
				i++ // -eo pipefail: the option name follows
				if i < len(c.args) && c.args[i].text() == "noglob" {
					on := t[0] == '-'
					c.a.setGlob(func(o *glob.ShellOptions) { o.NoGlob = on })
				}
			}
		default:
			return // the positional parameters
		}
	}
}

// withNoGlob returns the option sets in force with noglob set to on.
func (a *analyzer) withNoGlob(on bool) []glob.ShellOptions {
	var out []glob.ShellOptions
	for _, o := range a.globWorlds() {
		o.NoGlob = on
		out = append(out, o)
	}
	return out
}

// globIgnore applies a change of GLOBIGNORE to the options, as bash's
// setup_glob_ignore does (pathexp.c): a value with patterns turns dotglob
// on and filters; an empty one only stops filtering; unsetting it turns
// dotglob off. A value that is not known may be any of these: no
// filtering, dotglob on or as it was.
func (a *analyzer) globIgnore(v shellVar, set bool) {
	switch {
	case !set:
		a.setGlob(func(o *glob.ShellOptions) { o.Ignore, o.DotGlob = "", false })
	case !v.known || v.glob:
		old := a.globWorlds()
		var next []glob.ShellOptions
		if a.uncertain > 0 {
			next = append(next, old...)
		}
		for _, o := range old {
			o.Ignore = ""
			next = append(next, o)
			o.DotGlob = true
			next = append(next, o)
		}
		a.setWorlds(next)
	case v.value == "":
		a.setGlob(func(o *glob.ShellOptions) { o.Ignore = "" })
	case strings.ContainsAny(v.value, "'\"\\$`"):
		// bash splits such a value at its ":"s with its own quoting
		// rules (skip_to_delim); not filtering is the wider answer.
		a.setGlob(func(o *glob.ShellOptions) { o.Ignore, o.DotGlob = "", true })
	default:
		a.setGlob(func(o *glob.ShellOptions) { o.Ignore, o.DotGlob = v.value, true })
	}
}

// restoreVar puts a variable back as it was before a function call or a
// prefix assignment ended (had false: it was unset).
func (a *analyzer) restoreVar(name string, prev shellVar, had bool) {
	if had {
		a.vars[name] = prev
	} else {
		delete(a.vars, name)
	}
	a.assignLog = append(a.assignLog, name)
	if name == "GLOBIGNORE" {
		a.globIgnore(prev, had)
	}
}

// prefixGlobIgnore applies a GLOBIGNORE assigned before a command that is
// no function (GLOBIGNORE=x cat *): the command's own words expanded
// before it, but bash sets it for the command and puts it back after,
// each time as setup_glob_ignore does, which leaves dotglob changed.
func (a *analyzer) prefixGlobIgnore(prefix []prefixVar) {
	for _, p := range prefix {
		if p.name != "GLOBIGNORE" {
			continue
		}
		a.globIgnore(p.val, true)
		prev, had := a.vars["GLOBIGNORE"]
		a.globIgnore(prev, had)
	}
}

// shellWorlds returns the options a new shell starts with: bash's
// defaults, with ksh's extended globs on for ksh and mksh and recursive
// "**" for zsh. (BASHOPTS and SHELLOPTS, which would carry options to it,
// name code to run: setting them makes the commands after unknown.)
func shellWorlds(name string) []glob.ShellOptions {
	base := glob.ShellOptions{}
	switch name {
	case "ksh", "mksh":
		base.ExtGlob = true
	case "zsh":
		base.GlobStar = true
	}
	return []glob.ShellOptions{base}
}

// startShell sets the options of a new shell (shellWorlds) and applies
// a GLOBIGNORE exported to it.
func (a *analyzer) startShell(name string) {
	uncertain := a.uncertain
	a.uncertain = 0 // the shell starts so, if it runs at all
	defer func() { a.uncertain = uncertain }()
	a.glob = nil
	a.setWorlds(shellWorlds(name))
	if v, ok := a.vars["GLOBIGNORE"]; ok && v.exported {
		a.globIgnore(v, true)
	}
}

// globOpts returns the option sets a glob word expands with: those in
// force, and, for a word that takes its glob from a loop variable, the
// sets in force where the loop expanded it (alone when the word has no
// glob of its own).
//
// A word with an extended glob written in the line expands with extglob
// on too: bash parses such a line only where it is on (a shopt -u extglob
// in the same line turns it off for the matching alone).
func (a *analyzer) globOpts(w sword) []glob.ShellOptions {
	var out []glob.ShellOptions
	switch {
	case w.varOpts == nil:
		out = append(out, a.globWorlds()...)
	case !w.ownGlob:
		out = append(out, w.varOpts...)
	default:
		out = append(out, a.globWorlds()...)
		for _, o := range w.varOpts {
			if !slices.Contains(out, o) {
				out = append(out, o)
			}
		}
	}
	if w.extGlob {
		for _, o := range out {
			if o.ExtGlob = true; !slices.Contains(out, o) {
				out = append(out, o)
			}
		}
	}
	return out
}

// expandedHere returns the words of a call (a function's or a shell's
// arguments) with the shell options they expand with here recorded on
// each glob: "$1" names one of its matches wherever it is used, after any
// shopt in the function.
func (a *analyzer) expandedHere(words []sword) []sword {
	out := make([]sword, len(words))
	for i, w := range words {
		if w.glob && w.varOpts == nil {
			w.varOpts = a.globOpts(w)
		}
		out[i] = w
	}
	return out
}

// noGlobAll reports whether pathname expansion is off in every set.
func noGlobAll(ws []glob.ShellOptions) bool {
	for _, o := range ws {
		if !o.NoGlob {
			return false
		}
	}
	return len(ws) > 0
}
