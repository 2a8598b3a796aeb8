package shell

import (
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/safezonehq/safezone/policy/glob"
	"mvdan.cc/sh/v3/syntax"
)

// call analyses one simple command: a bare assignment, a call of a
// function defined in the line, or a command (simple).
func (a *analyzer) call(c *syntax.CallExpr, depth int) {
	if len(c.Args) == 0 {
		// A bare assignment: no targets.
		for _, as := range c.Assigns {
			a.statement = true
			a.assign(as, depth)
			a.statement = false
		}
		ts := a.assigned(c.Assigns)
		a.cmds = append(a.cmds, Command{Argv: []string{assignText(c.Assigns)}, Cwd: a.cwd, Targets: ts, ReadOnly: !writesAny(ts)})
		a.lastSimple = len(a.cmds) - 1
		return
	}
	// Assignments before a command only set its environment; their
	// values still expand (and may run substitutions).
	execVar := ""
	var envFiles []envFile
	a.prefix = a.prefix[:0]
	for _, as := range c.Assigns {
		v := shellVar{value: "", known: true}
		if as.Value != nil {
			if w := a.wordOf(as.Value, depth, true); w.unknown == "" {
				v = shellVar{value: w.lit, known: true}
			} else {
				v = shellVar{}
			}
		}
		if as.Name != nil {
			a.prefix = append(a.prefix, prefixVar{name: as.Name.Value, val: v})
			why, files := envEffect(as.Name.Value, v)
			if as.Name.Value == "IFS" {
				why = "IFS names a command or code the program may run"
			}
			if why != "" && execVar == "" {
				execVar = why
			}
			envFiles = append(envFiles, files...)
		}
	}
	words := a.callWords(c.Args, depth)
	if name, fn := a.function(words); fn != nil && execVar == "" && len(envFiles) == 0 {
		a.callFunction(name, fn, words, depth)
		a.prefix = a.prefix[:0]
		return
	}
	cmd := Command{Cwd: a.cwd}
	later := a.later // what this command sets holds for the next ones
	prefix := append([]prefixVar(nil), a.prefix...)
	envTs, envWhy := a.envTargets(envFiles)
	a.simple(&cmd, words, depth)
	a.prefixGlobIgnore(prefix)
	cmd.Targets = append(cmd.Targets, envTs...)
	switch {
	case cmd.Unknown != "":
	case execVar != "":
		cmd.Unknown = execVar
	case envWhy != "":
		cmd.Unknown = envWhy
	case later != "":
		cmd.Unknown = later
	}
	a.prefix = a.prefix[:0]
	a.globDirs(&cmd, words)
	// A command that writes is no read-only one, whatever its handler
	// said: a wrapper's file (time -o, nohup, flock) counts.
	cmd.ReadOnly = cmd.ReadOnly && !writesAny(cmd.Targets)
	a.cmds = append(a.cmds, cmd)
	a.lastSimple = len(a.cmds) - 1
}

// callWords makes a command's words static: "$@" becomes the positional
// parameters where they are known, and a brace expansion the words it
// makes (bash(1) EXPANSION).
func (a *analyzer) callWords(args []*syntax.Word, depth int) []sword {
	words := make([]sword, 0, len(args))
	for _, w := range args {
		if quoted, ok := allParams(w); ok && a.posKnown {
			for _, p := range a.pos {
				if !quoted && p.unknown == "" && strings.ContainsAny(p.lit, " \t\n") {
					p = sword{src: "$@", unknown: "an unquoted $@ holding spaces is split into several words", split: true}
				}
				words = append(words, p)
			}
			continue
		}
		sw := a.word(w, depth)
		if !sw.brace {
			words = append(words, sw)
			continue
		}
		words = append(words, a.expandBraceWord(sw)...)
	}
	return words
}

// globDirs adds, for each word bash expands as a glob that is not a
// target of the command already (echo ../o/*, a URL holding "?"), a read
// of the directory bash lists to expand it (bash(1) Pathname Expansion).
func (a *analyzer) globDirs(cmd *Command, words []sword) {
	for _, w := range words {
		if w.unknown != "" || !w.glob || !isPattern(w.pat) {
			continue
		}
		ts, why := a.targets(w, Read)
		if why != "" {
			continue // the command is unknown for it already, or the word names no file
		}
		for _, t := range ts {
			if hasTarget(cmd.Targets, t.Path) {
				continue
			}
			dir, _ := glob.LiteralPrefix(t.Path)
			if strings.Contains(t.Path[len(dir):], "/") || dir == t.Path {
				dir = path.Dir(dir + "/x")
			}
			cmd.Targets = append(cmd.Targets, Target{Path: dir, Given: path.Dir(t.Given + "x"), Access: Read})
		}
	}
}

// isPattern reports whether bash expands pat as a glob (glob.IsPattern):
// a lone "[", as in "[ -f x ]", is literal.
func isPattern(pat string) bool { return glob.IsPattern(pat) }

// hasTarget reports whether ts holds a target at p.
func hasTarget(ts []Target, p string) bool {
	for _, t := range ts {
		if t.Path == p {
			return true
		}
	}
	return false
}

// allParams reports whether w is "$@" or $@ (quoted says which).
func allParams(w *syntax.Word) (quoted, ok bool) {
	if len(w.Parts) != 1 {
		return false, false
	}
	p := w.Parts[0]
	if dq, isDq := p.(*syntax.DblQuoted); isDq && len(dq.Parts) == 1 {
		p, quoted = dq.Parts[0], true
	}
	pe, isPe := p.(*syntax.ParamExp)
	return quoted, isPe && pe.Param != nil && pe.Param.Value == "@" && !pe.Length && !pe.Excl && pe.Exp == nil &&
		pe.Slice == nil && pe.Repl == nil && pe.Index == nil && pe.Names == 0 && !pe.Width && pe.NestedParam == nil
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

// simple judges one command's words: wrappers are stripped (with what their
// own options do), then the command is looked up in the table; a program
// not there is an ordinary program (program).
func (a *analyzer) simple(cmd *Command, words []sword, depth int) {
	var runner []sword
	if len(words) > 0 && words[0].unknown == "" {
		if runs := a.untrustedProgram(words[0].lit); runs != "" {
			cmd.Untrusted = true
			cmd.Argv = texts(words)
			a.program(cmd, words, runs)
			return
		}
	}
	wrapped := false
	if len(words) > 0 && words[0].unknown == "" && wrapperOf(path.Base(words[0].lit)) != nil {
		wrapped = true
		// A command run by a wrapper other than command and builtin runs
		// in a process of its own: its cd and its assignments (sudo cd,
		// env -C) stay there.
		st := a.save()
		child := false
		defer func() {
			if child {
				a.restore(st)
			}
		}()
		var done bool
		if words, runner, child, done = a.unwrap(cmd, words, depth); done {
			return
		}
	}
	cmd.Argv = texts(words)
	if len(words) == 0 {
		cmd.ReadOnly = !writesAny(cmd.Targets)
		return
	}
	if words[0].unknown != "" {
		cmd.Unknown = "the program name is not static (" + words[0].unknown + ")"
		return
	}
	if wrapped {
		// A wrapper (env, sudo, nice, command, exec…) runs the word left
		// as a program too: ./cat after env is not cat.
		if runs := a.untrustedProgram(words[0].lit); runs != "" {
			cmd.Untrusted = true
			a.program(cmd, words, runs)
			return
		}
	}
	if runner != nil && runner[0].unknown == "" {
		if runs := a.untrustedProgram(runner[0].lit); runs != "" {
			cmd.Untrusted = true
			cmd.Argv = texts(runner)
			a.program(cmd, runner, runs)
			return
		}
	}
	name := path.Base(words[0].lit)
	cmd.Argv[0] = name
	s := a.spec(name)
	if s == nil {
		if runner != nil {
			// A package's program (npx eslint): judged as written.
			cmd.Argv = texts(runner)
			a.program(cmd, words, path.Base(runner[0].lit))
			return
		}
		a.program(cmd, words, name)
		return
	}
	ctx := &cmdCtx{a: a, spec: s, name: name, args: words[1:], depth: depth, cmd: cmd}
	ctx.run()
}

// unwrap strips the wrappers off words (unwrapper) and returns the command
// left, the words of a package runner stripped, if any, and whether a
// wrapper runs it in a process of its own; done is true when cmd is
// judged already (unknown, no command, a script run).
func (a *analyzer) unwrap(cmd *Command, words []sword, depth int) (rest, runner []sword, child, done bool) {
	u := unwrapper{a: a, cmd: cmd, depth: depth}
	rest = u.strip(words)
	cmd.Cwd = a.cwd
	switch {
	case u.why != "":
		cmd.Argv, cmd.Unknown = texts(words), u.why
		return nil, nil, true, true
	case u.stop || u.script != nil:
		cmd.Argv = texts(words)
		if u.script != nil {
			if why := a.nested(*u.script, nil, false, depth); why != "" {
				cmd.Unknown = why
			}
		}
		cmd.ReadOnly = !writesAny(cmd.Targets)
		return nil, nil, true, true
	}
	return rest, u.runner, u.child, false
}

// systemBin are the directories whose programs are judged by the table
// entry of their name when named by path (/usr/bin/cat is cat): only root
// writes them, and a write outside the sandbox is judged where it is made.
var systemBin = []string{"/bin", "/sbin", "/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin", "/opt/homebrew/bin"}

// untrustedProgram returns what a command word runs when that is not the
// program the command table knows by its name: a path outside systemBin
// (./ls, bin/cat, /tmp/x/git: a file the agent may have written), or a
// name $PATH finds in a directory the agent may write (Env.LookPath). It
// returns "" for a name the table may judge: a path in systemBin, a bash
// builtin, a function of the line, or a name $PATH finds elsewhere.
func (a *analyzer) untrustedProgram(word string) string {
	if strings.Contains(word, "/") {
		if slices.Contains(systemBin, path.Dir(path.Clean(word))) {
			return ""
		}
		return word
	}
	if a.env.LookPath == nil || bashBuiltins()[word] || a.funcs[word] != nil {
		return ""
	}
	if p := a.env.LookPath(word); p != "" {
		return p + " (found by $PATH)"
	}
	return ""
}

// bashBuiltins are the names bash runs itself, before any $PATH lookup
// (bash(1) SHELL BUILTIN COMMANDS).
var bashBuiltins = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		".": true, ":": true, "[": true, "alias": true, "bg": true, "bind": true, "break": true, "builtin": true,
		"caller": true, "cd": true, "command": true, "compgen": true, "complete": true, "compopt": true,
		"continue": true, "declare": true, "dirs": true, "disown": true, "echo": true, "enable": true,
		"eval": true, "exec": true, "exit": true, "export": true, "false": true, "fc": true, "fg": true,
		"getopts": true, "hash": true, "help": true, "history": true, "jobs": true, "kill": true, "let": true,
		"local": true, "logout": true, "mapfile": true, "popd": true, "printf": true, "pushd": true,
		"pwd": true, "read": true, "readarray": true, "readonly": true, "return": true, "set": true,
		"shift": true, "shopt": true, "source": true, "suspend": true, "test": true, "time": true,
		"times": true, "trap": true, "true": true, "type": true, "typeset": true, "ulimit": true,
		"umask": true, "unalias": true, "unset": true, "wait": true,
	}
})

// program judges an ordinary program, named runs: what it reads and writes
// itself is not known (Command.Runs), but it works in its directory, a
// read target (Target.Cwd), and a program run by its path (./build.sh,
// bin/tool, /opt/x.sh) has its file read, as "sh x.sh" reads x.sh.
func (a *analyzer) program(cmd *Command, words []sword, runs string) {
	cmd.Runs = runs
	if strings.Contains(words[0].lit, "/") {
		ts, why := a.targets(words[0], Read)
		if why != "" {
			cmd.Unknown = why
			return
		}
		cmd.Targets = append(cmd.Targets, ts...)
	}
	a.addWorkDir(cmd)
}

// addWorkDir adds the directories cmd runs in as read targets marked Cwd,
// or makes it unknown when they are not known.
func (a *analyzer) addWorkDir(cmd *Command) {
	if a.cwd == nil {
		if cmd.Unknown == "" {
			cmd.Unknown = "the directory it runs in is not known"
		}
		return
	}
	n := len(cmd.Targets)
	for _, d := range a.cwd {
		if !hasTarget(cmd.Targets[:n], d) {
			cmd.Targets = append(cmd.Targets, Target{Path: d, Given: ".", Access: Read, Cwd: true})
		}
	}
	if len(a.links) == 0 {
		return
	}
	ts, why := a.viaLinks(cmd.Targets[n:])
	if why != "" && cmd.Unknown == "" {
		cmd.Unknown = why
	}
	cmd.Targets = append(cmd.Targets[:n], ts...)
}

// nested analyses a static string as a script run by a shell of its own
// ("bash -c"), with pos as its positional parameters when posKnown: what
// it changes of the directory and the variables stays there. It sees the
// exported variables and the prefix assignments of the command that runs
// it; another variable the line assigned may or may not be in its
// environment: unknown. It returns why it cannot.
func (a *analyzer) nested(w sword, pos []sword, posKnown bool, depth int) string {
	return a.nestedShell(w, pos, posKnown, depth, "sh", nil)
}

// nestedShell is nested for the shell name (bash, sh, ksh, zsh...),
// started with the option changes opts (bash -O extglob).
func (a *analyzer) nestedShell(w sword, pos []sword, posKnown bool, depth int, shell string, opts []func(*glob.ShellOptions)) string {
	if w.unknown != "" {
		return "the script is not static: " + w.unknown
	}
	st := a.save()
	for name, v := range a.vars {
		if !v.exported {
			a.vars[name] = shellVar{}
		}
	}
	for _, p := range a.prefix {
		v := p.val
		v.exported = true
		a.vars[p.name] = v
	}
	a.prefix = nil
	a.pos, a.posKnown = a.expandedHere(pos), posKnown
	a.startShell(shell)
	uncertain := a.uncertain
	a.uncertain = 0
	for _, f := range opts {
		a.setGlob(f)
	}
	a.uncertain = uncertain
	a.shellScript(w.lit, depth+1)
	a.restore(st)
	return ""
}

func texts(ws []sword) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.text()
	}
	return out
}

func writesAny(ts []Target) bool {
	for _, t := range ts {
		if t.Access == Write {
			return true
		}
	}
	return false
}

// wrapper is a command that runs another command, and its options: letters
// without and with a value, long names without and with one, and long
// names whose value is optional (--name or --name=value).
type wrapper struct {
	name            string
	short, shortArg string
	long, longArg   []string
	longOpt         []string
	// numeric accepts -NUM (nice's obsolete adjustment).
	numeric bool
	// special are options that make the command unknown (why), or after
	// which no command runs (why ""), by name: "i" matches -i, -si and
	// -iu root; "split-string" matches --split-string=... too.
	special []wrapperOpt
	// then does what the options given mean and returns the command left
	// (nil: the words after the options are the command).
	then func(u *unwrapper, opts []opt, rest []sword) []sword
	// handle, when set, replaces the whole of the above (npm exec, su):
	// it returns the command left, or false when these words do not wrap
	// a command (npm test is npm itself).
	handle func(u *unwrapper, args []sword) ([]sword, bool)
}

// wrapperOpt is a special option of a wrapper.
type wrapperOpt struct {
	name string
	why  string // why the command is unknown; "" when no command runs (command -v)
}

// wrappers are the commands that run another command, sorted by name
// (wrapperOf searches them). Sources: sudo(8), doas(1), env(1), bash(1)
// SHELL BUILTIN COMMANDS (command, builtin, exec), time(1), nice(1),
// nohup(1), timeout(1), stdbuf(1), ionice(1), setsid(1), flock(1),
// chroot(8), su(1), runuser(1), parallel(1), npm-exec(1), pnpm exec,
// yarn exec.
var wrappers = []wrapper{
	{name: "builtin"},
	{name: "chroot", handle: unknownWrapper("chroot runs the command under another root directory")},
	{name: "command", short: "pvV", special: []wrapperOpt{{name: "v"}, {name: "V"}}},
	{name: "doas", short: "Lns", shortArg: "Cu", special: []wrapperOpt{
		{name: "s", why: "doas -s runs a shell"}, {name: "C"}, {name: "L"}}},
	{name: "env", short: "i0v", shortArg: "uCSa", long: []string{"ignore-environment", "null", "debug", "list-signal-handling"},
		longArg: []string{"unset", "chdir", "split-string", "argv0"}, longOpt: []string{"default-signal", "ignore-signal", "block-signal"},
		then: envThen},
	{name: "exec", short: "cl", shortArg: "a"},
	{name: "flock", handle: flockWrapper},
	{name: "ionice", short: "t", shortArg: "cnpPu", long: []string{"ignore"}, longArg: []string{"class", "classdata", "pid", "pgid", "uid"},
		special: []wrapperOpt{{name: "p"}, {name: "P"}, {name: "u"}, {name: "pid"}, {name: "pgid"}, {name: "uid"}}},
	{name: "nice", shortArg: "n", longArg: []string{"adjustment"}, numeric: true},
	{name: "nohup", then: nohupThen},
	{name: "npm", handle: npmWrapper},
	{name: "npx", handle: npxWrapper},
	{name: "parallel", handle: unknownWrapper("parallel builds the commands it runs from its input and arguments")},
	{name: "pnpm", handle: pnpmWrapper},
	{name: "runuser", handle: suWrapper},
	{name: "setsid", short: "cfw", long: []string{"ctty", "fork", "wait"}},
	{name: "stdbuf", shortArg: "ioe", longArg: []string{"input", "output", "error"}},
	{name: "su", handle: suWrapper},
	{name: "sudo", short: sudoShort, shortArg: sudoShortArg, long: sudoLong, longArg: sudoLongArg, longOpt: []string{"preserve-env"},
		special: sudoSpecial, then: chdirThen},
	{name: "time", short: "apqvV", shortArg: "fo", long: []string{"append", "portability", "quiet", "verbose", "version"},
		longArg: []string{"format", "output"}, then: timeThen},
	{name: "timeout", short: "fpv", shortArg: "ks", long: []string{"foreground", "preserve-status", "verbose"},
		longArg: []string{"kill-after", "signal"}, then: timeoutThen},
	{name: "yarn", handle: yarnWrapper},
}

// The options of sudo (sudo(8)).
const (
	sudoShort    = "ABbEHiKklnPSsVveh"
	sudoShortArg = "CDgpRrTtUu"
)

var (
	sudoLong = []string{"login", "shell", "non-interactive", "stdin", "background", "set-home",
		"reset-timestamp", "remove-timestamp", "validate", "list", "edit", "askpass", "bell", "help", "version"}
	sudoLongArg = []string{"user", "group", "host", "prompt", "role", "type", "close-from", "chdir",
		"command-timeout", "other-user", "chroot"}
	// sudoSpecial: -i and -s run a shell, -e an editor, -R another root;
	// -l, -v, -K, -V and -h run no command.
	sudoSpecial = []wrapperOpt{
		{name: "i", why: "sudo -i runs a login shell"}, {name: "login", why: "sudo --login runs a login shell"},
		{name: "s", why: "sudo -s runs a shell"}, {name: "shell", why: "sudo --shell runs a shell"},
		{name: "e", why: "sudo -e runs an editor"}, {name: "edit", why: "sudo --edit runs an editor"},
		{name: "R", why: "sudo -R runs the command under another root"}, {name: "chroot", why: "sudo --chroot runs the command under another root"},
		{name: "h", why: "sudo -h shows help or names a host"}, {name: "host", why: "sudo --host runs the command on another host"},
		{name: "l"}, {name: "list"}, {name: "v"}, {name: "validate"}, {name: "K"}, {name: "remove-timestamp"},
		{name: "V"}, {name: "version"}, {name: "help"},
	}
)

// wrapperOf returns the entry of a wrapper, or nil.
func wrapperOf(name string) *wrapper {
	i := sort.Search(len(wrappers), func(i int) bool { return wrappers[i].name >= name })
	if i < len(wrappers) && wrappers[i].name == name {
		return &wrappers[i]
	}
	return nil
}

// unwrapper strips the wrappers off a command (sudo, env, nice, ...),
// doing what their options say: the files they open become targets of
// the command (time -o, flock), a directory they run it in moves the
// analysis (sudo -D, env -C) until the command is judged.
type unwrapper struct {
	a     *analyzer
	cmd   *Command
	depth int
	// why says why the command is unknown; stop that no command runs.
	why  string
	stop bool
	// script is a shell script a wrapper runs instead of a command
	// (su -c, flock -c, npx -c).
	script *sword
	// runner are the words of a package runner (npx, npm exec) whose
	// command is a program not in the tables: judged as written.
	runner []sword
	// child is true once a wrapper that starts a process of its own is
	// stripped (all but command and builtin, bash's own).
	child bool
}

// strip removes the wrappers and returns the command left.
func (u *unwrapper) strip(ws []sword) []sword {
	for len(ws) > 0 && u.why == "" && !u.stop && u.script == nil {
		if ws[0].unknown != "" {
			return ws
		}
		w := wrapperOf(path.Base(ws[0].lit))
		if w == nil {
			return ws
		}
		rest, wraps := w.unwrap(u, ws[1:])
		if !wraps {
			return ws
		}
		u.child = u.child || w.name != "command" && w.name != "builtin"
		ws = rest
	}
	return ws
}

// unwrap strips one wrapper off args, the words after its name.
func (w *wrapper) unwrap(u *unwrapper, args []sword) ([]sword, bool) {
	if w.handle != nil {
		return w.handle(u, args)
	}
	opts, rest, ok := u.options(w, args)
	if !ok {
		return nil, true
	}
	for _, o := range opts {
		for _, s := range w.special {
			if o.name == s.name {
				u.why, u.stop = s.why, s.why == ""
				return nil, true
			}
		}
	}
	if w.then != nil {
		rest = w.then(u, opts, rest)
	}
	return rest, true
}

// options parses a wrapper's options, which end at its first operand (the
// command); it returns them, the words after, and false (the command
// unknown) on an option the wrapper's entry does not list, one missing its
// value, or a value that may split into several words.
func (u *unwrapper) options(w *wrapper, ws []sword) ([]opt, []sword, bool) {
	var opts []opt
	for i := 0; i < len(ws); i++ {
		t := ws[i].text()
		if ws[i].unknown != "" || !strings.HasPrefix(t, "-") || t == "-" {
			return opts, ws[i:], true
		}
		if t == "--" {
			return opts, ws[i+1:], true
		}
		var ok bool
		if name, long := strings.CutPrefix(t, "--"); long {
			opts, i, ok = u.longOption(w, ws, opts, name, i)
		} else {
			opts, i, ok = u.shortOptions(w, ws, opts, t[1:], i)
		}
		if !ok {
			return nil, nil, false
		}
	}
	return opts, nil, true
}

// longOption parses --name[=value] at ws[i] for options.
func (u *unwrapper) longOption(w *wrapper, ws []sword, opts []opt, name string, i int) ([]opt, int, bool) {
	name, val, hasVal := strings.Cut(name, "=")
	switch {
	case containsStr(w.longArg, name) && hasVal, containsStr(w.longOpt, name) && hasVal:
		return append(opts, opt{name: name, val: literal(val), has: true}), i, true
	case containsStr(w.longArg, name) && i+1 < len(ws):
		if ws[i+1].split {
			u.why = w.name + " --" + name + ": an unquoted expansion may split into several words"
			return nil, i, false
		}
		return append(opts, opt{name: name, val: ws[i+1], has: true}), i + 1, true
	case containsStr(w.long, name) && !hasVal, containsStr(w.longOpt, name):
		return append(opts, opt{name: name}), i, true
	}
	u.why = w.name + ": option --" + name + " is not in safezone's table"
	return nil, i, false
}

// shortOptions parses the cluster -letters at ws[i] for options.
func (u *unwrapper) shortOptions(w *wrapper, ws []sword, opts []opt, letters string, i int) ([]opt, int, bool) {
	if w.numeric && isNumber(letters) {
		return opts, i, true
	}
	for j := 0; j < len(letters); j++ {
		l := letters[j]
		switch {
		case strings.IndexByte(w.shortArg, l) >= 0:
			if rest := letters[j+1:]; rest != "" {
				return append(opts, opt{name: string(l), val: literal(rest), has: true}), i, true
			}
			if i+1 >= len(ws) || ws[i+1].split {
				u.why = w.name + " -" + string(l) + ": its value is missing or may split into several words"
				return nil, i, false
			}
			return append(opts, opt{name: string(l), val: ws[i+1], has: true}), i + 1, true
		case strings.IndexByte(w.short, l) >= 0:
			opts = append(opts, opt{name: string(l)})
		default:
			u.why = w.name + ": option -" + string(l) + " is not in safezone's table"
			return nil, i, false
		}
	}
	return opts, i, true
}

// value returns the last value of the named options.
func optValue(opts []opt, names ...string) (sword, bool) {
	var v sword
	found := false
	for _, o := range opts {
		if o.has && containsStr(names, o.name) {
			v, found = o.val, true
		}
	}
	return v, found
}

// add adds a file a wrapper opens as a target of the command.
func (u *unwrapper) add(w sword, access Access) {
	if w.unknown != "" {
		u.why = w.src + ": " + w.unknown
		return
	}
	if notAFile(w.lit) {
		return
	}
	ts, why := u.a.targets(w, access)
	if why != "" {
		u.why = why
		return
	}
	u.cmd.Targets = append(u.cmd.Targets, ts...)
}

// chdir moves the analysis to dir, where the command runs (the caller
// restores the directory after the command).
func (u *unwrapper) chdir(dir sword) {
	if dir.unknown != "" || dir.glob {
		u.a.cwd = nil
		return
	}
	u.a.moveTo(dir, false)
}

// unknownWrapper is the handler of a wrapper whose command is unknown.
func unknownWrapper(why string) func(*unwrapper, []sword) ([]sword, bool) {
	return func(u *unwrapper, _ []sword) ([]sword, bool) {
		u.why = why
		return nil, true
	}
}

// chdirThen: sudo -D DIR (--chdir=DIR) runs the command in DIR (sudo(8)).
func chdirThen(u *unwrapper, opts []opt, rest []sword) []sword {
	if d, ok := optValue(opts, "D", "chdir"); ok {
		u.chdir(d)
	}
	return rest
}

// envThen: env -C DIR runs the command in DIR (env(1)); -S STRING splits
// STRING into words, with env's own quoting, escapes and ${VAR}: unknown.
// NAME=VALUE operands set variables; one naming code to run is unknown.
func envThen(u *unwrapper, opts []opt, rest []sword) []sword {
	for _, o := range opts {
		switch o.name {
		case "C", "chdir":
			u.chdir(o.val)
		case "S", "split-string":
			u.why = "env -S splits a string into a command"
			return nil
		}
	}
	for len(rest) > 0 && rest[0].unknown == "" && strings.Contains(rest[0].lit, "=") && !strings.HasPrefix(rest[0].lit, "=") {
		name, value, _ := strings.Cut(rest[0].lit, "=")
		why, files := envEffect(name, shellVar{value: value, known: true})
		if name == "IFS" {
			why = name + " names a command or code the program may run"
		}
		if why != "" {
			u.why = why
			return nil
		}
		for _, f := range files {
			n := len(u.cmd.Targets)
			u.add(literal(f.path), f.access)
			for i := n; i < len(u.cmd.Targets); i++ {
				u.cmd.Targets[i].Recursive = f.recursive && f.access == Write
			}
		}
		rest = rest[1:]
	}
	return rest
}

// timeThen: time -o FILE (--output) writes its report to FILE (time(1)).
func timeThen(u *unwrapper, opts []opt, rest []sword) []sword {
	if f, ok := optValue(opts, "o", "output"); ok {
		u.add(f, Write)
	}
	return rest
}

// timeoutThen skips timeout's DURATION operand (timeout(1)).
func timeoutThen(u *unwrapper, _ []opt, rest []sword) []sword {
	if len(rest) > 0 {
		if rest[0].split {
			u.why = "timeout: an unquoted expansion as its duration may split into several words"
			return nil
		}
		rest = rest[1:]
	}
	return rest
}

// nohupThen: nohup appends the command's output to nohup.out in the
// working directory when it is a terminal (nohup(1)).
func nohupThen(u *unwrapper, _ []opt, rest []sword) []sword {
	u.add(literal("nohup.out"), Write)
	return rest
}

// flockWrapper: flock [OPTIONS] FILE COMMAND..., flock [OPTIONS] FILE -c
// COMMAND, flock [OPTIONS] FD (flock(1)). FILE is created if missing: a
// write. -c runs its command with sh -c.
func flockWrapper(u *unwrapper, args []sword) ([]sword, bool) {
	w := &wrapper{name: "flock", short: "sexunoFhV", shortArg: "wEc",
		long:    []string{"shared", "exclusive", "unlock", "nonblock", "nb", "close", "no-fork", "verbose", "help", "version"},
		longArg: []string{"timeout", "wait", "conflict-exit-code", "command"}}
	opts, rest, ok := u.options(w, args)
	if !ok {
		return nil, true
	}
	if len(rest) == 0 || len(rest) == 1 && rest[0].unknown == "" && isNumber(rest[0].lit) {
		u.stop = true // a lock on an open descriptor: no command
		return nil, true
	}
	u.add(rest[0], Write)
	rest = rest[1:]
	if len(rest) >= 2 && rest[0].unknown == "" && (rest[0].lit == "-c" || rest[0].lit == "--command") {
		u.script = &rest[1]
		return nil, true
	}
	if c, ok := optValue(opts, "c", "command"); ok {
		u.script = &c
		return nil, true
	}
	return rest, true
}

// suWrapper: su and runuser run a shell as another user (su(1),
// runuser(1)): -c COMMAND is a script for it, like bash -c; runuser -u
// USER COMMAND runs the command itself. A login shell ("-", -l) starts in
// the user's home; a shell without a command reads stdin; another shell
// (-s) is unknown.
func suWrapper(u *unwrapper, args []sword) ([]sword, bool) {
	w := &wrapper{name: "su", short: "flmpPh", shortArg: "cgGswu",
		long:    []string{"login", "fast", "preserve-environment", "pty", "help", "version"},
		longArg: []string{"command", "session-command", "group", "supp-group", "shell", "whitelist-environment", "user"}}
	// Options may follow the user (GNU getopt); "--" ends them.
	var opts []opt
	var operands []sword
	login := false
	for rest := args; len(rest) > 0; {
		if rest[0].unknown == "" && rest[0].lit == "-" {
			login, rest = true, rest[1:]
			continue
		}
		more, after, ok := u.options(w, rest)
		if !ok {
			return nil, true
		}
		opts = append(opts, more...)
		if len(after) > 0 && len(after) < len(rest) && rest[len(rest)-len(after)-1].text() == "--" {
			operands = append(operands, after...)
			break
		}
		if len(after) == 0 {
			break
		}
		operands, rest = append(operands, after[0]), after[1:]
	}
	for _, o := range opts {
		login = login || o.name == "l" || o.name == "login"
	}
	return u.suCommand(opts, operands, login), true
}

// suCommand is what su or runuser runs, given its options and operands.
func (u *unwrapper) suCommand(opts []opt, operands []sword, login bool) []sword {
	if sh, ok := optValue(opts, "s", "shell"); ok && (sh.unknown != "" || !isShellName(path.Base(sh.lit))) {
		u.why = "su -s runs a shell safezone does not know"
		return nil
	}
	c, hasC := optValue(opts, "c", "command", "session-command")
	_, runAs := optValue(opts, "u", "user")
	switch {
	case login:
		u.why = "su -l runs the command in the user's home directory"
	case hasC:
		u.script = &c
	case runAs:
		return operands
	default:
		u.why = "su runs a shell that reads its commands from stdin"
	}
	return nil
}

// isShellName reports whether name is a shell whose -c safezone reads.
func isShellName(name string) bool {
	switch name {
	case "sh", "bash", "dash", "zsh", "ksh", "mksh":
		return true
	}
	return false
}

// npxWrapper: npx [OPTIONS] COMMAND [ARGS] runs COMMAND from the project's
// or a package's binaries; -c STRING runs STRING as a shell script
// (npm-exec(1)). npm itself reads the project's package files: its
// working directory is a read (Target.Cwd). In a workspace the command
// runs elsewhere: its directory is unknown.
func npxWrapper(u *unwrapper, args []sword) ([]sword, bool) {
	w := &wrapper{name: "npx", short: "yq",
		long:    []string{"yes", "no", "workspaces", "include-workspace-root", "ignore-scripts", "quiet", "silent", "no-install", "prefer-offline", "offline"},
		longArg: []string{"package", "call", "workspace", "loglevel", "registry", "cache"}, shortArg: "pcw"}
	var words []sword
	for _, x := range args {
		if x.unknown == "" && x.lit == "-ws" { // npm's short form of --workspaces
			x = literal("--workspaces")
		}
		words = append(words, x)
	}
	opts, rest, ok := u.options(w, words)
	if !ok {
		return nil, true
	}
	if _, ws := optValue(opts, "w", "workspace"); ws || hasOpt(opts, "workspaces") {
		u.a.cwd = nil
	}
	if c, ok := optValue(opts, "c", "call"); ok {
		u.script = &c
		u.a.addWorkDir(u.cmd)
		return nil, true
	}
	if len(rest) == 0 {
		u.why = "npx without a command"
		return nil, true
	}
	u.runner = append([]sword{literal("npx")}, args...)
	u.a.addWorkDir(u.cmd) // npm reads the project's package.json, .npmrc, node_modules
	return rest, true
}

func hasOpt(opts []opt, name string) bool {
	for _, o := range opts {
		if o.name == name {
			return true
		}
	}
	return false
}

// npmWrapper: npm exec (and its alias npm x) is npx (npm-exec(1)); any
// other npm command is npm itself.
func npmWrapper(u *unwrapper, args []sword) ([]sword, bool) {
	if len(args) == 0 || args[0].unknown != "" || args[0].lit != "exec" && args[0].lit != "x" {
		return nil, false
	}
	rest, ok := npxWrapper(u, args[1:])
	if u.runner != nil {
		u.runner = append([]sword{literal("npm")}, args...)
	}
	return rest, ok
}

// pnpmWrapper: pnpm exec COMMAND runs COMMAND in the project; -c (shell
// mode) runs it with a shell; -r and --filter run it in other packages,
// whose directories are unknown. Any other pnpm command is pnpm itself.
func pnpmWrapper(u *unwrapper, args []sword) ([]sword, bool) {
	if len(args) == 0 || args[0].unknown != "" || args[0].lit != "exec" {
		return nil, false
	}
	w := &wrapper{name: "pnpm exec", short: "rc", long: []string{"recursive", "parallel", "shell-mode", "no-bail", "report-summary", "resume-from"},
		longArg: []string{"filter", "workspace-concurrency"}}
	opts, rest, ok := u.options(w, args[1:])
	if !ok {
		return nil, true
	}
	if _, f := optValue(opts, "filter"); f || hasOpt(opts, "r") || hasOpt(opts, "recursive") {
		u.a.cwd = nil
	}
	u.a.addWorkDir(u.cmd) // pnpm reads the project's package files
	if hasOpt(opts, "c") || hasOpt(opts, "shell-mode") {
		if len(rest) != 1 {
			u.why = "pnpm exec -c joins its words into a script"
			return nil, true
		}
		u.script = &rest[0]
		return nil, true
	}
	u.runner = append([]sword{literal("pnpm")}, args...)
	return rest, true
}

// yarnWrapper: yarn exec COMMAND runs COMMAND at the root of the active
// workspace, a directory the analysis does not know. Any other yarn
// command is yarn itself.
func yarnWrapper(u *unwrapper, args []sword) ([]sword, bool) {
	if len(args) == 0 || args[0].unknown != "" || args[0].lit != "exec" {
		return nil, false
	}
	u.a.cwd = nil
	u.runner = append([]sword{literal("yarn")}, args...)
	return args[1:], true
}
