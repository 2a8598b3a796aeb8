package shell

import (
	"strings"

	"github.com/safezonehq/safezone/classify/glob"
)

// builtins are bash's builtins and the shell utilities that only print or
// test (echo, true, test), sorted by name. Wrappers (env, time, timeout)
// are stripped before the lookup; their entries cover a bare use.
var builtins = []cmdSpec{
	{name: ".", role: roleCustom, custom: sourceCmd},
	{name: "[", role: roleNone},
	{name: "alias", role: roleCustom, custom: aliasCmd},
	{name: "cd", role: roleCustom, custom: cdCmd},
	{name: "declare", role: roleNone},
	{name: "dirs", role: roleNone},
	{name: "echo", role: roleNone},
	{name: "enable", role: roleCustom, custom: opaque, why: "enable loads or hides builtins, which changes what later commands run"},
	{name: "env", role: roleNone},
	{name: "eval", role: roleCustom, custom: opaque, why: "eval runs a string as code"},
	{name: "exit", role: roleNone},
	{name: "export", role: roleNone},
	{name: "false", role: roleNone},
	{name: "hash", role: roleCustom, custom: aliasCmd},
	{name: "history", role: roleNone},
	{name: "jobs", role: roleNone},
	{name: "kill", role: roleNone},
	{name: "local", role: roleNone},
	{name: "popd", role: roleCustom, custom: popdCmd},
	{name: "printf", role: roleCustom, custom: printfCmd},
	{name: "pushd", role: roleCustom, custom: cdCmd},
	{name: "pwd", role: roleNone},
	{name: "read", role: roleCustom, custom: readCmd},
	{name: "readarray", role: roleCustom, custom: readCmd},
	{name: "set", role: roleNone},
	{name: "shift", role: roleNone},
	{name: "source", role: roleCustom, custom: sourceCmd},
	{name: "test", role: roleNone},
	{name: "time", role: roleNone},
	{name: "timeout", role: roleNone},
	{name: "trap", role: roleCustom, custom: trapCmd},
	{name: "true", role: roleNone},
	{name: "type", role: roleNone},
	{name: "umask", role: roleNone},
	{name: "unset", role: roleCustom, custom: readCmd},
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
	if n := len(c.a.dirs); n > 0 {
		c.a.cwd, c.a.dirs = c.a.dirs[n-1], c.a.dirs[:n-1]
		c.a.cdTo = c.a.cwd
		return
	}
	c.a.cwd, c.a.cdTo = nil, nil
}

// readCmd: read, readarray, unset make their variables unknown.
func readCmd(c *cmdCtx) {
	c.cmd.ReadOnly = true
	for _, w := range c.args {
		if w.unknown == "" && !strings.HasPrefix(w.lit, "-") {
			c.a.vars[w.lit] = shellVar{}
		}
	}
}

// printfCmd: printf -v VAR assigns a variable.
func printfCmd(c *cmdCtx) {
	c.cmd.ReadOnly = true
	for i, w := range c.args {
		if w.unknown == "" && w.lit == "-v" && i+1 < len(c.args) {
			c.a.vars[c.args[i+1].lit] = shellVar{}
		}
	}
}

// trapCmd analyses the command a trap will run.
func trapCmd(c *cmdCtx) {
	c.cmd.ReadOnly = true
	if len(c.args) > 1 && c.args[0].unknown == "" && !strings.HasPrefix(c.args[0].lit, "-") {
		c.script(c.args[0])
	}
}

// script analyses a static string as a nested script (bash -c).
func (c *cmdCtx) script(w sword) {
	if w.unknown != "" {
		c.unknown("the script is not static: " + w.unknown)
		return
	}
	st := c.a.save()
	c.a.script(w.lit, c.depth+1)
	c.a.restore(st)
}

// sourceCmd: source and . read the file and run its commands, which
// safezone cannot see.
func sourceCmd(c *cmdCtx) {
	if len(c.args) == 0 {
		return
	}
	c.add(c.args[0], Read)
	c.unknown("source runs the commands of " + c.args[0].text())
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
