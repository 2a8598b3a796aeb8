package shell

import (
	"path"
	"sort"
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

// wrapper is a command that only runs another command, and its options:
// letters without and with a value, long names without and with one.
type wrapper struct {
	name            string
	short, shortArg string
	long, longArg   []string
	// special are options (given as a word of their own) that make the
	// command unknown, or after which no command runs.
	special []wrapperOpt
	// skip removes the words between the options and the command (env's
	// NAME=VALUE, nice's adjustment, timeout's duration), or says why the
	// command is unknown.
	skip func(rest []sword) ([]sword, string)
}

// wrapperOpt is a special option of a wrapper.
type wrapperOpt struct {
	spelling string // the whole word ("-i"), or its start when prefix
	prefix   bool
	why      string // why the command is unknown; "" when no command runs (command -v)
}

// wrappers are the commands that only run another command, sorted by name
// (wrapperOf searches them).
// Sources: sudo(8), doas(1), env(1), bash(1) SHELL BUILTIN COMMANDS
// (command, builtin, exec, time), time(1), nice(1), nohup(1), timeout(1),
// stdbuf(1), ionice(1).
var wrappers = []wrapper{
	{name: "builtin"},
	{name: "command", short: "pvV", special: []wrapperOpt{
		{spelling: "-v"}, // a lookup, nothing runs
		{spelling: "-V"},
	}},
	{name: "doas", short: sudoShort, shortArg: sudoShortArg, long: sudoLong, longArg: sudoLongArg, special: sudoSpecial},
	{name: "env", short: "i0v", shortArg: "uCS", long: []string{"ignore-environment", "null", "debug"},
		longArg: []string{"unset", "chdir", "split-string", "default-signal", "ignore-signal", "block-signal"},
		special: []wrapperOpt{
			{spelling: "-S", why: envSplits},
			{spelling: "--split-string", prefix: true, why: envSplits},
			{spelling: "-C", why: envChdir},
			{spelling: "--chdir", prefix: true, why: envChdir},
		},
		skip: envAssignments},
	{name: "exec", short: "cl", shortArg: "a"},
	{name: "ionice", short: "tu", shortArg: "cnp", long: []string{"ignore"}, longArg: []string{"class", "classdata", "pid", "pgid", "uid"}},
	{name: "nice", shortArg: "n", longArg: []string{"adjustment"}, skip: niceAdjustment},
	{name: "nohup"},
	{name: "stdbuf", shortArg: "ioe", longArg: []string{"input", "output", "error"}},
	{name: "sudo", short: sudoShort, shortArg: sudoShortArg, long: sudoLong, longArg: sudoLongArg, special: sudoSpecial},
	{name: "time", short: "pv", shortArg: "fo", long: []string{"portability", "verbose", "append"}, longArg: []string{"format", "output"}},
	{name: "timeout", short: "fpv", shortArg: "ks", long: []string{"foreground", "preserve-status", "verbose"},
		longArg: []string{"kill-after", "signal"}, skip: timeoutDuration},
}

// The options of sudo and doas (sudo(8)).
const (
	sudoShort    = "ABbEeHiKklnPSsVv"
	sudoShortArg = "CDghpRrTtUu"
)

var (
	sudoLong = []string{"preserve-env", "login", "shell", "non-interactive", "stdin", "background", "set-home",
		"reset-timestamp", "remove-timestamp", "validate", "list", "edit", "askpass", "bell"}
	sudoLongArg = []string{"user", "group", "host", "prompt", "role", "type", "close-from", "chdir",
		"command-timeout", "other-user", "chroot", "preserve-env"}
	// sudoSpecial: -i and -s run a shell, -e an editor (sudoedit).
	sudoSpecial = []wrapperOpt{
		{spelling: "-i", why: "sudo -i runs a shell or an editor"},
		{spelling: "-s", why: "sudo -s runs a shell or an editor"},
		{spelling: "--login", why: "sudo --login runs a shell or an editor"},
		{spelling: "--shell", why: "sudo --shell runs a shell or an editor"},
		{spelling: "-e", why: "sudo -e runs a shell or an editor"},
		{spelling: "--edit", why: "sudo --edit runs a shell or an editor"},
	}
)

// Why env -S and env -C make the command unknown (env(1)).
const (
	envSplits = "env -S splits a string into a command"
	envChdir  = "env -C runs the command in another directory"
)

// wrapperOf returns the entry of a wrapper, or nil.
func wrapperOf(name string) *wrapper {
	i := sort.Search(len(wrappers), func(i int) bool { return wrappers[i].name >= name })
	if i < len(wrappers) && wrappers[i].name == name {
		return &wrappers[i]
	}
	return nil
}

// stripWrappers removes the commands that only run another command
// (wrappers: sudo, env, command, builtin, exec, nice, nohup, time, timeout,
// stdbuf, ionice, doas) with their options. It returns the command left,
// empty when none runs (sudo -v, command -v), and why it cannot be known,
// if so.
func stripWrappers(ws []sword) ([]sword, string) {
	for len(ws) > 0 {
		if ws[0].unknown != "" {
			return ws, ""
		}
		name := path.Base(ws[0].lit)
		w := wrapperOf(name)
		if w == nil {
			return ws, ""
		}
		args := ws[1:]
		rest, ok := skipOptions(args, w.short, w.shortArg, w.long, w.longArg)
		// When an option is not known, every word is judged as one.
		if stop, why := w.specialIn(args[:len(args)-len(rest)]); stop {
			return nil, why
		}
		if !ok {
			return nil, name + ": an option safezone does not know"
		}
		if w.skip != nil {
			var why string
			if rest, why = w.skip(rest); why != "" {
				return nil, why
			}
		}
		ws = rest
	}
	return ws, ""
}

// specialIn looks for a special option among the words opts: the first
// found says why the command is unknown, or that none runs (stop, "").
func (w *wrapper) specialIn(opts []sword) (stop bool, why string) {
	for _, o := range opts {
		t := o.text()
		for _, s := range w.special {
			if t == s.spelling || s.prefix && strings.HasPrefix(t, s.spelling) {
				return true, s.why
			}
		}
	}
	return false, ""
}

// envAssignments skips env's NAME=VALUE operands (env(1)); setting a
// variable that names code to run (isExecEnvVar) is unknown.
func envAssignments(rest []sword) ([]sword, string) {
	for len(rest) > 0 && rest[0].unknown == "" && strings.Contains(rest[0].lit, "=") && !strings.HasPrefix(rest[0].lit, "=") {
		if name, _, _ := strings.Cut(rest[0].lit, "="); isExecEnvVar(name) {
			return nil, name + " names a command or code the program may run"
		}
		rest = rest[1:]
	}
	return rest, ""
}

// niceAdjustment skips nice's obsolete -NUM adjustment (nice(1)).
func niceAdjustment(rest []sword) ([]sword, string) {
	if len(rest) > 0 && rest[0].unknown == "" && isNumber(strings.TrimPrefix(rest[0].lit, "-")) {
		rest = rest[1:]
	}
	return rest, ""
}

// timeoutDuration skips timeout's DURATION operand (timeout(1)).
func timeoutDuration(rest []sword) ([]sword, string) {
	if len(rest) > 0 {
		rest = rest[1:]
	}
	return rest, ""
}

// skipOptions skips a wrapper's options (letters without and with a
// value, long names without and with one) and returns the command after
// them, and false when an option is not among them.
func skipOptions(ws []sword, short, shortArg string, long, longArg []string) ([]sword, bool) {
	for i := 0; i < len(ws); i++ {
		t := ws[i].text()
		if ws[i].unknown != "" || !strings.HasPrefix(t, "-") || t == "-" {
			return ws[i:], true
		}
		if t == "--" {
			return ws[i+1:], true
		}
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
