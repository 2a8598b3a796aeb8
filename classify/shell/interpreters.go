package shell

import "strings"

// interpreters are the shells and interpreters that run a script or
// inline code, and the programs that run commands elsewhere or later
// (at, crontab, screen, tmux, watch), sorted by name (byte order:
// "Rscript" first).
var interpreters = []cmdSpec{
	{name: "Rscript", role: roleCustom, custom: interpreterCmd},
	{name: "at", role: roleCustom, custom: opaque, why: "at schedules commands"},
	{name: "bash", role: roleCustom, custom: shellCmd},
	{name: "batch", role: roleCustom, custom: opaque, why: "batch schedules commands"},
	{name: "bun", role: roleCustom, custom: interpreterCmd},
	{name: "crontab", role: roleCustom, custom: opaque, why: "crontab schedules commands"},
	{name: "dash", role: roleCustom, custom: shellCmd},
	{name: "deno", role: roleCustom, custom: interpreterCmd},
	{name: "fish", role: roleCustom, custom: shellCmd},
	{name: "julia", role: roleCustom, custom: interpreterCmd},
	{name: "ksh", role: roleCustom, custom: shellCmd},
	{name: "lua", role: roleCustom, custom: interpreterCmd},
	{name: "luajit", role: roleCustom, custom: interpreterCmd},
	{name: "mksh", role: roleCustom, custom: shellCmd},
	{name: "node", role: roleCustom, custom: interpreterCmd},
	{name: "nodejs", role: roleCustom, custom: interpreterCmd},
	{name: "osascript", role: roleCustom, custom: interpreterCmd},
	{name: "perl", role: roleCustom, custom: perlCmd},
	{name: "php", role: roleCustom, custom: interpreterCmd},
	{name: "powershell", role: roleCustom, custom: interpreterCmd},
	{name: "pwsh", role: roleCustom, custom: interpreterCmd},
	{name: "pypy", role: roleCustom, custom: interpreterCmd},
	{name: "pypy3", role: roleCustom, custom: interpreterCmd},
	{name: "python", role: roleCustom, custom: interpreterCmd},
	{name: "python2", role: roleCustom, custom: interpreterCmd},
	{name: "python3", role: roleCustom, custom: interpreterCmd},
	{name: "ruby", role: roleCustom, custom: interpreterCmd},
	{name: "screen", role: roleCustom, custom: opaque, why: "screen runs commands in another shell"},
	{name: "sh", role: roleCustom, custom: shellCmd},
	{name: "tclsh", role: roleCustom, custom: interpreterCmd},
	{name: "tmux", role: roleCustom, custom: opaque, why: "tmux runs commands in another shell"},
	{name: "watch", role: roleCustom, custom: opaque, why: "watch runs a command string"},
	{name: "wish", role: roleCustom, custom: interpreterCmd},
	{name: "zsh", role: roleCustom, custom: shellCmd},
}

// shellCmd: bash, sh, zsh. -c SCRIPT is analysed as a script; a script file
// is read and runs as an ordinary program (Command.Runs); reading
// commands from stdin is unknown.
func shellCmd(c *cmdCtx) {
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		t := w.text()
		if w.unknown != "" {
			c.unknown("an argument of the shell is not static")
			return
		}
		switch {
		case t == "-c" || (strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.Contains(t, "c") && !strings.ContainsAny(t[1:], "o")):
			if i+1 >= len(c.args) {
				c.unknown("-c without a script")
				return
			}
			c.script(c.args[i+1])
			return
		case t == "-s" || t == "-i":
			c.unknown(c.name + " " + t + " reads its commands from stdin")
			return
		case t == "-o" || t == "+o" || t == "-O" || t == "+O" || t == "--rcfile" || t == "--init-file":
			i++
		case strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+"):
		default:
			c.runsScript(w)
			return
		}
	}
	c.unknown(c.name + " reads its commands from stdin")
}

// runsScript records that the command runs the script file w, which it
// reads: what the script does is not known (Command.Runs).
func (c *cmdCtx) runsScript(w sword) {
	c.add(w, Read)
	c.cmd.Runs = c.name + " " + w.text()
}

// interpreterCmd: python -c, node -e, ruby -e, php -r, ...: inline code is
// opaque; with no script the interpreter reads stdin.
func interpreterCmd(c *cmdCtx) {
	inline := map[string]bool{"-c": true, "-e": true, "-E": true, "-p": true, "-r": true, "--eval": true, "--print": true, "-Command": true, "-command": true, "-EncodedCommand": true}
	for _, w := range c.args {
		t := w.text()
		if w.unknown != "" {
			c.unknown("an argument is not static")
			return
		}
		if inline[t] || strings.HasPrefix(t, "--eval=") || (c.name == "deno" && t == "eval") {
			c.unknown(c.name + " " + t + " runs inline code")
			return
		}
		if t == "-m" { // python -m module: an ordinary program
			c.cmd.Runs = strings.Join(c.cmd.Argv, " ")
			return
		}
		if !strings.HasPrefix(t, "-") {
			c.runsScript(w)
			return
		}
		if t == "-" {
			break
		}
	}
	c.unknown(c.name + " reads its program from stdin")
}

// perlCmd: -e is inline code; -i edits the operands in place.
func perlCmd(c *cmdCtx) {
	inPlace, suffix := false, ""
	var ops []sword
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		t := w.text()
		switch {
		case w.unknown != "":
			c.unknown("an argument is not static")
			return
		case t == "--":
			ops = append(ops, c.args[i+1:]...)
			i = len(c.args)
		case strings.HasPrefix(t, "-") && t != "-":
			if strings.ContainsAny(t[1:], "eE") {
				c.unknown("perl -e runs inline code")
			}
			if j := strings.IndexByte(t, 'i'); j > 0 && !strings.ContainsAny(t[1:j], "IMmlx0") {
				// -i[extension] takes the rest of the cluster (perlrun).
				inPlace, suffix = true, t[j+1:]
			}
			if t == "-I" || t == "-M" || t == "-m" {
				i++
			}
		default:
			ops = append(ops, w)
		}
	}
	if len(ops) == 0 {
		c.unknown("perl reads its program from stdin")
		return
	}
	// The first operand is the script (or -e's code), the rest its
	// arguments.
	if c.cmd.Unknown == "" {
		c.runsScript(ops[0])
	}
	if inPlace {
		for _, w := range ops[1:] {
			c.add(w, Write)
			if suffix != "" {
				c.addBackup(w, suffix)
			}
		}
	}
}
