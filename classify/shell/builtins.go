package shell

import (
	"strings"

	"github.com/safezonehq/safezone/policy/glob"
)

// builtins are bash's builtins and the shell utilities that only print or
// test (echo, true, test), sorted by name. Wrappers (env, time, timeout)
// are stripped before the lookup; their entries cover a bare use.
var builtins = []cmdSpec{
	{name: ".", role: roleCustom, custom: sourceCmd},
	{name: ":", role: roleNone},
	{name: "[", role: roleNone},
	{name: "alias", role: roleCustom, custom: aliasCmd},
	{name: "bg", role: roleNone},
	{name: "break", role: roleNone},
	{name: "cd", role: roleCustom, custom: cdCmd},
	{name: "continue", role: roleNone},
	{name: "declare", role: roleNone},
	{name: "dirs", role: roleNone},
	{name: "disown", role: roleNone},
	{name: "echo", role: roleNone},
	{name: "enable", role: roleCustom, custom: opaque, why: "enable loads or hides builtins, which changes what later commands run"},
	{name: "env", role: roleNone},
	{name: "eval", role: roleCustom, custom: opaque, why: "eval runs a string as code"},
	{name: "exit", role: roleNone},
	{name: "export", role: roleNone},
	{name: "false", role: roleNone},
	{name: "fc", role: roleCustom, custom: opaque, why: "fc runs commands from the history, or an editor"},
	{name: "fg", role: roleNone},
	{name: "getopts", role: roleCustom, custom: readCmd},
	{name: "hash", role: roleCustom, custom: aliasCmd},
	{name: "history", role: roleCustom, custom: historyCmd},
	{name: "jobs", role: roleNone},
	{name: "kill", role: roleNone},
	{name: "local", role: roleNone},
	{name: "mapfile", role: roleCustom, custom: readCmd},
	{name: "popd", role: roleCustom, custom: popdCmd},
	{name: "printf", role: roleCustom, custom: printfCmd},
	{name: "pushd", role: roleCustom, custom: cdCmd},
	{name: "pwd", role: roleNone},
	{name: "read", role: roleCustom, custom: readCmd},
	{name: "readarray", role: roleCustom, custom: readCmd},
	{name: "return", role: roleNone},
	{name: "set", role: roleCustom, custom: setCmd},
	{name: "shift", role: roleNone},
	{name: "shopt", role: roleCustom, custom: shoptCmd},
	{name: "source", role: roleCustom, custom: sourceCmd},
	{name: "test", role: roleNone},
	{name: "time", role: roleNone},
	{name: "timeout", role: roleNone},
	{name: "trap", role: roleCustom, custom: trapCmd},
	{name: "true", role: roleNone},
	{name: "type", role: roleNone},
	{name: "ulimit", role: roleNone},
	{name: "umask", role: roleNone},
	{name: "unset", role: roleCustom, custom: unsetCmd},
	{name: "wait", role: roleNone},
}

func cdCmd(c *cmdCtx) {
	c.cmd.ReadOnly = true
	physical := false
	var dir *sword
	for i := range c.args {
		w := c.args[i]
		if w.unknown == "" && strings.HasPrefix(w.lit, "-") && w.lit != "-" {
			if w.lit == "-P" {
				physical = true
			}
			continue
		}
		dir = &c.args[i]
		break
	}
	if dir == nil {
		home := sword{lit: c.a.env.Home, pat: glob.Escape(c.a.env.Home), src: "~"}
		if c.a.env.Home == "" {
			home.unknown = "HOME is not set"
		}
		c.a.cd(home, physical)
		return
	}
	if dir.unknown == "" && dir.lit == "-" {
		c.a.cd(sword{src: "-", unknown: "cd - goes to $OLDPWD"}, physical)
		return
	}
	if c.name == "pushd" {
		c.a.dirs = append(c.a.dirs, c.a.cwd)
	}
	c.a.cd(*dir, physical)
}

func popdCmd(c *cmdCtx) {
	c.cmd.ReadOnly = true
	c.a.cdCount++
	if n := len(c.a.dirs); n > 0 {
		c.a.cwd, c.a.dirs = c.a.dirs[n-1], c.a.dirs[:n-1]
		c.a.cdTo = c.a.cwd
		return
	}
	c.a.cwd, c.a.cdTo = nil, nil
}

// readCmd: read and readarray make their variables unknown.
func readCmd(c *cmdCtx) {
	c.cmd.ReadOnly = true
	for _, w := range c.args {
		if w.unknown == "" && c.name != "read" && strings.HasPrefix(w.lit, "-") && strings.Contains(w.lit, "C") {
			// mapfile -C CALLBACK evaluates CALLBACK as shell code.
			c.cmd.ReadOnly = false
			c.unknown(c.name + " -C runs its callback as shell code")
			return
		}
	}
	for _, w := range c.args {
		if w.unknown == "" && !strings.HasPrefix(w.lit, "-") {
			c.a.setVar(w.lit, shellVar{})
		}
	}
}

// historyCmd: history lists the history; -r, -n, -w and -a read or write
// a history file ($HISTFILE or the operand) and -s adds an entry that
// -w then writes (bash(1) history): unknown, as is any option not static.
func historyCmd(c *cmdCtx) {
	c.cmd.ReadOnly = true
	for _, w := range c.args {
		if w.unknown != "" || strings.HasPrefix(w.lit, "-") && strings.ContainsAny(w.lit, "rnwas") {
			c.cmd.ReadOnly = false
			c.unknown("history reads or writes a history file")
			return
		}
	}
}

// unsetCmd: unset NAME removes a variable, or, when there is none, the
// function NAME; -f removes only functions, -v only variables (bash(1)
// unset). A function it may have removed is no longer sure.
func unsetCmd(c *cmdCtx) {
	c.cmd.ReadOnly = true
	fn, vr := false, false
	for _, w := range c.args {
		switch t := w.text(); {
		case w.unknown != "":
			c.unknown("unset: a name that is not static")
		case t == "-f":
			fn = true
		case t == "-v":
			vr = true
		case strings.HasPrefix(t, "-"):
		default:
			if !fn {
				c.a.setVar(t, shellVar{})
				if t == "GLOBIGNORE" {
					c.a.globIgnore(shellVar{}, false)
				}
			}
			if f := c.a.funcs[t]; f != nil && !vr {
				if fn {
					delete(c.a.funcs, t)
				} else {
					c.a.funcs[t] = &funcDef{body: f.body}
				}
			}
		}
	}
}

// printfCmd: printf -v VAR assigns a variable.
func printfCmd(c *cmdCtx) {
	c.cmd.ReadOnly = true
	for i, w := range c.args {
		if w.unknown == "" && w.lit == "-v" && i+1 < len(c.args) {
			c.a.setVar(c.args[i+1].lit, shellVar{})
		}
	}
}

// trapCmd: trap COMMAND SIGNAL... sets a command the shell runs later
// (bash(1) trap): walked when the shell ends (analyzer.runTraps). A
// command that is not static is unknown; trap -, trap -p and trap -l set
// none.
func trapCmd(c *cmdCtx) {
	c.cmd.ReadOnly = true
	if len(c.args) < 2 {
		return
	}
	w := c.args[0]
	switch {
	case w.unknown != "":
		c.unknown("the trap's command is not static")
	case strings.HasPrefix(w.lit, "-") && w.lit != "--":
	default:
		if w.lit == "--" {
			w = c.args[1]
		}
		c.a.traps = append(c.a.traps, pendingTrap{script: w, log: len(c.a.assignLog), cdCount: c.a.cdCount, cwd: c.a.cwd, depth: c.depth})
	}
}

// script analyses a static string as a nested script (bash -c).
func (c *cmdCtx) script(w sword) {
	if why := c.a.nested(w, nil, false, c.depth); why != "" {
		c.unknown(why)
	}
}

// sourceCmd: source FILE [ARGS] and . FILE read FILE and run its commands
// in this shell; they are judged where the caller can read the file
// (analyzer.sourceFile), else the command is unknown.
func sourceCmd(c *cmdCtx) {
	if len(c.args) == 0 {
		return
	}
	c.add(c.args[0], Read)
	if c.cmd.Unknown != "" {
		return
	}
	if why := c.a.sourceFile(c.args[0], c.args[1:], c.depth); why != "" {
		c.unknown(why)
	}
	c.cmd.ReadOnly = c.cmd.Unknown == ""
}

// aliasCmd: alias NAME=VALUE and hash -p PATH NAME change what a later
// command name runs; listing them changes nothing.
func aliasCmd(c *cmdCtx) {
	c.cmd.ReadOnly = true
	for _, w := range c.args {
		if w.unknown != "" || strings.Contains(w.lit, "=") || (c.name == "hash" && w.lit == "-p") {
			c.unknown(c.name + " changes what a later command name runs")
			return
		}
	}
}
