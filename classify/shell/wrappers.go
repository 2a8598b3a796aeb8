package shell

import (
	"path"
	"strings"

	"github.com/safezonehq/safezone/classify/glob"
	"mvdan.cc/sh/v3/syntax"
)

// call analyses one simple command.
func (a *analyzer) call(c *syntax.CallExpr, depth int) {
	if len(c.Args) == 0 {
		// A bare assignment: no targets.
		for _, as := range c.Assigns {
			a.assign(as, depth)
		}
		a.cmds = append(a.cmds, Command{Argv: []string{assignText(c.Assigns)}, Cwd: a.cwd, ReadOnly: true, Unknown: execAssign(c.Assigns)})
		return
	}
	// Assignments before a command only set its environment; their
	// values still expand (and may run substitutions).
	execVar := ""
	for _, as := range c.Assigns {
		if as.Value != nil {
			a.word(as.Value, depth)
		}
		if as.Name != nil && isExecEnvVar(as.Name.Value) && execVar == "" {
			execVar = as.Name.Value
		}
	}
	words := make([]sword, len(c.Args))
	for i, w := range c.Args {
		words[i] = a.word(w, depth)
	}
	cmd := Command{Cwd: a.cwd}
	a.simple(&cmd, words, depth)
	if execVar != "" && cmd.Unknown == "" {
		cmd.Unknown = execVar + " names a command or code the program may run"
	}
	a.cmds = append(a.cmds, cmd)
}

// execAssign says why an assignment may make later commands run code it
// names (PAGER=..., export GIT_SSH_COMMAND=...), or "".
func execAssign(as []*syntax.Assign) string {
	for _, x := range as {
		if x.Name != nil && isExecEnvVar(x.Name.Value) {
			return "setting " + x.Name.Value + " names a command or code later programs may run"
		}
	}
	return ""
}

func assignText(as []*syntax.Assign) string {
	var parts []string
	for _, x := range as {
		if x.Name != nil {
			parts = append(parts, x.Name.Value+"=")
		}
	}
	return strings.Join(parts, " ")
}

// simple judges one command's words: wrappers are stripped, then the
// command is looked up in the table.
func (a *analyzer) simple(cmd *Command, words []sword, depth int) {
	words, why := stripWrappers(words)
	cmd.Argv = texts(words)
	if why != "" {
		cmd.Unknown = why
		return
	}
	if len(words) == 0 {
		cmd.ReadOnly = true
		return
	}
	if words[0].unknown != "" {
		cmd.Unknown = "the program name is not static (" + words[0].unknown + ")"
		return
	}
	name := path.Base(words[0].lit)
	cmd.Argv[0] = name
	s := a.spec(name)
	if s == nil {
		cmd.Runs = name // an ordinary program: no known targets
		return
	}
	ctx := &cmdCtx{a: a, spec: s, name: name, args: words[1:], depth: depth, cmd: cmd}
	ctx.run()
}

func texts(ws []sword) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.text()
	}
	return out
}

// stripWrappers removes the commands that only run another command (sudo,
// env, command, builtin, exec, nice, nohup, time, timeout, stdbuf, ionice,
// doas) with their options. It returns why the rest cannot be known, if so.
func stripWrappers(ws []sword) ([]sword, string) {
	for len(ws) > 0 {
		if ws[0].unknown != "" {
			return ws, ""
		}
		name := path.Base(ws[0].lit)
		args := ws[1:]
		var rest []sword
		var ok bool
		switch name {
		case "sudo", "doas":
			rest, ok = skipOptions(args, "ABbEeHiKklnPSsVv", "CDghpRrTtUu", []string{"preserve-env", "login", "shell", "non-interactive", "stdin", "background", "set-home", "reset-timestamp", "remove-timestamp", "validate", "list", "edit", "askpass", "bell"}, []string{"user", "group", "host", "prompt", "role", "type", "close-from", "chdir", "command-timeout", "other-user", "chroot", "preserve-env"})
			for _, w := range args[:len(args)-len(rest)] {
				if t := w.text(); t == "-i" || t == "-s" || t == "--login" || t == "--shell" || t == "-e" || t == "--edit" {
					return nil, "sudo " + t + " runs a shell or an editor"
				}
			}
			if ok && len(rest) == 0 {
				return nil, "" // sudo -v, sudo -k: no command
			}
		case "env":
			rest, ok = skipOptions(args, "i0v", "uCS", []string{"ignore-environment", "null", "debug"}, []string{"unset", "chdir", "split-string", "default-signal", "ignore-signal", "block-signal"})
			for _, w := range args[:len(args)-len(rest)] {
				if t := w.text(); t == "-S" || strings.HasPrefix(t, "--split-string") {
					return nil, "env -S splits a string into a command"
				}
				if t := w.text(); t == "-C" || strings.HasPrefix(t, "--chdir") {
					return nil, "env -C runs the command in another directory"
				}
			}
			for len(rest) > 0 && rest[0].unknown == "" && strings.Contains(rest[0].lit, "=") && !strings.HasPrefix(rest[0].lit, "=") {
				if name, _, _ := strings.Cut(rest[0].lit, "="); isExecEnvVar(name) {
					return nil, name + " names a command or code the program may run"
				}
				rest = rest[1:]
			}
		case "command":
			rest, ok = skipOptions(args, "pvV", "", nil, nil)
			for _, w := range args[:len(args)-len(rest)] {
				if t := w.text(); t == "-v" || t == "-V" {
					return nil, "" // command -v: a lookup, nothing runs
				}
			}
		case "builtin", "nohup":
			rest, ok = skipOptions(args, "", "", nil, nil)
		case "exec":
			rest, ok = skipOptions(args, "cl", "a", nil, nil)
		case "time":
			rest, ok = skipOptions(args, "pv", "fo", []string{"portability", "verbose", "append"}, []string{"format", "output"})
		case "nice":
			rest, ok = skipOptions(args, "", "n", nil, []string{"adjustment"})
			if ok && len(rest) > 0 && rest[0].unknown == "" && isNumber(strings.TrimPrefix(rest[0].lit, "-")) {
				rest = rest[1:]
			}
		case "timeout":
			rest, ok = skipOptions(args, "fpv", "ks", []string{"foreground", "preserve-status", "verbose"}, []string{"kill-after", "signal"})
			if ok && len(rest) > 0 {
				rest = rest[1:] // the duration
			}
		case "stdbuf":
			rest, ok = skipOptions(args, "", "ioe", nil, []string{"input", "output", "error"})
		case "ionice":
			rest, ok = skipOptions(args, "tu", "cnp", []string{"ignore"}, []string{"class", "classdata", "pid", "pgid", "uid"})
		default:
			return ws, ""
		}
		if !ok {
			return nil, name + ": an option safezone does not know"
		}
		ws = rest
	}
	return ws, ""
}

// skipOptions skips a wrapper's options and returns the command after them.
func skipOptions(ws []sword, short, shortArg string, long, longArg []string) ([]sword, bool) {
	c := &cmdCtx{spec: &cmdSpec{short: short, shortArg: shortArg, long: long, longArg: longArg}, args: ws, cmd: &Command{}}
	for i := 0; i < len(ws); i++ {
		t := ws[i].text()
		if ws[i].unknown != "" || !strings.HasPrefix(t, "-") || t == "-" {
			return ws[i:], true
		}
		if t == "--" {
			return ws[i+1:], true
		}
		c.args = ws[i : i+1]
		if name, ok := strings.CutPrefix(t, "--"); ok {
			name, _, hasVal := strings.Cut(name, "=")
			if containsStr(longArg, name) && !hasVal {
				i++
				continue
			}
			if containsStr(long, name) || containsStr(longArg, name) {
				continue
			}
			return nil, false
		}
		letters := t[1:]
		for j := 0; j < len(letters); j++ {
			switch {
			case strings.IndexByte(shortArg, letters[j]) >= 0:
				if j == len(letters)-1 {
					i++
				}
				j = len(letters)
			case strings.IndexByte(short, letters[j]) >= 0:
			default:
				return nil, false
			}
		}
	}
	return nil, true
}

func optionValue(ws []sword, names ...string) (sword, bool) {
	for i, w := range ws {
		for _, n := range names {
			if w.text() == n && i+1 < len(ws) {
				return ws[i+1], true
			}
			if v, ok := strings.CutPrefix(w.text(), n+"="); ok {
				return sword{lit: v, pat: glob.Escape(v), src: v}, true
			}
		}
	}
	return sword{}, false
}
