package shell

import (
	"path"
	"sort"
	"strings"

	"github.com/safezonehq/safezone/classify/glob"
)

// The command table: what safezone knows of each command, as data. A
// command that is not here is an ordinary program: it has no known
// targets, and Command.Runs names it. An option a known command's entry does
// not list makes that command's targets unknown: it might take a value and
// shift the operands. Sources: the POSIX utilities and the GNU coreutils,
// findutils, grep, sed, tar, curl, wget and git manuals. The entries are
// split by family of programs (builtins.go, coreutils.go, text.go,
// archive.go, network.go, findutils.go, git.go, interpreters.go,
// safezone.go), each beside the handlers of its commands.

// commands are the tables of every family, each sorted by name. Only
// Analyze refers to it: handlers look commands up through their analyzer
// ([analyzer.spec]), which lets the tables hold the handlers without an
// initialization cycle.
var commands = [...][]cmdSpec{builtins, coreutils, textTools, archivers, netTools, findutils, gitTools, interpreters, safezoneTools}

// spec returns a command's entry, or nil for an ordinary program.
func (a *analyzer) spec(name string) *cmdSpec {
	for _, table := range a.commands {
		i := sort.Search(len(table), func(i int) bool { return table[i].name >= name })
		if i < len(table) && table[i].name == name {
			return &table[i]
		}
	}
	return nil
}

// opaque is the handler of a command whose effects safezone cannot know
// (eval, at, watch): unknown, for cmdSpec.why.
func opaque(c *cmdCtx) { c.unknown(c.spec.why) }

// role says what a command does with its operands.
type role uint8

const (
	roleNone       role = iota // no file operands (echo, printf, pwd)
	roleRead                   // every operand is read (cat, head, wc)
	roleWrite                  // every operand is written (rm, touch, mkdir, tee)
	roleFirstRead              // the first operand is not a file (a pattern, a program), the rest are read (grep, awk)
	roleFirstWrite             // the first operand is a mode or owner, the rest are written (chmod, chown)
	roleCopy                   // the sources are read, the last operand (or -t DIR) is written (cp, install, rsync)
	roleMove                   // every operand is written, sources and destination (mv)
	roleLink                   // the last operand (or -t DIR) is written; without -s the sources are read and written (ln)
	roleCustom                 // handled by cmdSpec.custom
)

// optFile names an option whose value is a file the command reads or writes.
type optFile struct {
	name   string // a short letter ("o") or a long name ("output")
	access Access
}

// cmdSpec describes one command.
type cmdSpec struct {
	name string
	role role
	// Options: short letters without and with a value, long names without
	// and with a value. numeric accepts -NUM (head -5). lax accepts any
	// option without a value (commands with huge option sets whose
	// operands are positional anyway).
	short, shortArg string
	long, longArg   []string
	numeric, lax    bool
	// files are options whose value is a file.
	files []optFile
	// readOnly: the command only reads (with no write target).
	readOnly bool
	// noOperands: what reading "no operands" means: "" stdin (no target),
	// "cwd" the working directory (ls, du, rg, find).
	noOperands string
	// skipWith: options that provide what the first operand would
	// (grep -e, chmod --reference): then no operand is skipped.
	skipWith []string
	// recursive: options that make a write recursive (rm -r).
	recursive []string
	// execOpts: options whose value is a command the program runs
	// (rsync -e, sort --compress-program): inline code, so unknown.
	execOpts []string
	// custom handles the whole command (roleCustom): it parses its own
	// options and sets ReadOnly. why is the reason of opaque.
	custom func(*cmdCtx)
	why    string
}

// opt is one parsed option.
type opt struct {
	name string // letter or long name
	val  sword
	has  bool
}

// cmdCtx is one simple command being analysed.
type cmdCtx struct {
	a     *analyzer
	spec  *cmdSpec
	name  string
	args  []sword // the words after the program name
	depth int
	cmd   *Command
	opts  []opt
	ops   []sword
}

func (c *cmdCtx) unknown(why string) {
	if c.cmd.Unknown == "" {
		c.cmd.Unknown = why
	}
}

func (c *cmdCtx) has(names ...string) bool {
	for _, o := range c.opts {
		for _, n := range names {
			if o.name == n {
				return true
			}
		}
	}
	return false
}

// execOption marks the command unknown when one of the options given runs
// a command (cmdSpec.execOpts). For ssh's -o (scp, sftp) only the options
// that run a local command count: ProxyCommand, LocalCommand,
// KnownHostsCommand and Match exec (ssh_config(5)).
func (c *cmdCtx) execOption(names ...string) bool {
	for _, o := range c.opts {
		for _, n := range names {
			if o.name != n {
				continue
			}
			if n == "o" && (c.name == "scp" || c.name == "sftp") {
				v := strings.ToLower(strings.TrimLeft(o.val.lit, " "))
				if o.val.unknown == "" && !strings.HasPrefix(v, "proxycommand") && !strings.HasPrefix(v, "localcommand") &&
					!strings.HasPrefix(v, "knownhostscommand") && !strings.HasPrefix(v, "match") && !strings.HasPrefix(v, "permitlocalcommand") {
					continue
				}
			}
			c.unknown(c.name + " -" + n + " runs a command")
			return true
		}
	}
	return false
}

func (c *cmdCtx) value(names ...string) (sword, bool) {
	var v sword
	found := false
	for _, o := range c.opts {
		for _, n := range names {
			if o.name == n && o.has {
				v, found = o.val, true
			}
		}
	}
	return v, found
}

// add adds a word as a target.
func (c *cmdCtx) add(w sword, access Access) {
	c.addT(w, access, false)
}

func (c *cmdCtx) addT(w sword, access Access, recursive bool) {
	if w.unknown != "" {
		c.unknown(w.src + ": " + w.unknown)
		return
	}
	if w.lit == "-" || notAFile(w.lit) {
		return
	}
	ts, why := c.a.targets(w, access)
	if why != "" {
		c.unknown(why)
		return
	}
	for i := range ts {
		ts[i].Recursive = recursive
	}
	c.cmd.Targets = append(c.cmd.Targets, ts...)
}

// addCwd adds the working directory as a target.
func (c *cmdCtx) addCwd(access Access, recursive bool) {
	if c.a.cwd == nil {
		c.unknown("the directory it runs in is not known")
		return
	}
	for _, d := range c.a.cwd {
		c.cmd.Targets = append(c.cmd.Targets, Target{Path: d, Given: ".", Access: access, Recursive: recursive})
	}
}

// getopt parses c.args by c.spec's options into c.opts and c.ops. "--"
// ends the options; "-" is an operand; GNU-style options after operands
// count as options. It returns false, the command unknown, on an option
// the spec does not list or one missing its value.
func (c *cmdCtx) getopt() bool {
	args := c.args
	for i := 0; i < len(args); i++ {
		w := args[i]
		t := w.text()
		if w.unknown != "" || t == "-" || !strings.HasPrefix(t, "-") {
			c.ops = append(c.ops, w)
			continue
		}
		if t == "--" {
			c.ops = append(c.ops, args[i+1:]...)
			return true
		}
		var ok bool
		if name, long := strings.CutPrefix(t, "--"); long {
			i, ok = c.longOption(name, i)
		} else {
			i, ok = c.shortOptions(t[1:], i)
		}
		if !ok {
			return false
		}
	}
	return true
}

// longOption parses the long option --name (or --name=value) at c.args[i]
// and returns the index of its last word.
func (c *cmdCtx) longOption(name string, i int) (int, bool) {
	s := c.spec
	name, val, hasVal := strings.Cut(name, "=")
	switch {
	case containsStr(s.longArg, name):
		if hasVal {
			c.opts = append(c.opts, opt{name: name, val: sword{lit: val, pat: glob.Escape(val), src: val}, has: true})
		} else if i+1 < len(c.args) {
			i++
			c.opts = append(c.opts, opt{name: name, val: c.args[i], has: true})
		} else {
			c.unknown("option --" + name + " has no value")
			return i, false
		}
	case containsStr(s.long, name) && !hasVal, s.lax:
		c.opts = append(c.opts, opt{name: name})
	default:
		c.unknown("option --" + name + " is not in safezone's table for " + c.name)
		return i, false
	}
	return i, true
}

// shortOptions parses the cluster of short options letters at c.args[i]
// (-abc, -ofile, -o file, -5 with numeric) and returns the index of its
// last word.
func (c *cmdCtx) shortOptions(letters string, i int) (int, bool) {
	s := c.spec
	for j := 0; j < len(letters); j++ {
		l := letters[j]
		switch {
		case s.numeric && l >= '0' && l <= '9':
			for j+1 < len(letters) && letters[j+1] >= '0' && letters[j+1] <= '9' {
				j++
			}
		case strings.IndexByte(s.shortArg, l) >= 0:
			if rest := letters[j+1:]; rest != "" {
				c.opts = append(c.opts, opt{name: string(l), val: sword{lit: rest, pat: glob.Escape(rest), src: rest}, has: true})
			} else if i+1 < len(c.args) {
				i++
				c.opts = append(c.opts, opt{name: string(l), val: c.args[i], has: true})
			} else {
				c.unknown("option -" + string(l) + " has no value")
				return i, false
			}
			return i, true
		case strings.IndexByte(s.short, l) >= 0 || s.lax:
			c.opts = append(c.opts, opt{name: string(l)})
		default:
			c.unknown("option -" + string(l) + " is not in safezone's table for " + c.name)
			return i, false
		}
	}
	return i, true
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// run applies a spec: options, then operands by role.
func (c *cmdCtx) run() {
	s := c.spec
	switch s.role {
	case roleNone:
		c.cmd.ReadOnly = true
		return
	case roleCustom:
		c.spec.custom(c)
		return
	}
	if !c.getopt() {
		return
	}
	if c.execOption(s.execOpts...) {
		return
	}
	for _, f := range s.files {
		for _, o := range c.opts {
			if o.name == f.name && o.has {
				c.add(o.val, f.access)
			}
		}
	}
	recursive := c.has(s.recursive...)
	ops := c.ops
	switch s.role {
	case roleRead, roleWrite:
		access := Read
		if s.role == roleWrite {
			access = Write
		}
		if len(ops) == 0 && s.noOperands == "cwd" {
			c.addCwd(access, recursive)
		}
		for _, w := range ops {
			c.addT(w, access, recursive)
		}
	case roleFirstRead, roleFirstWrite:
		if !c.has(s.skipWith...) {
			if len(ops) == 0 {
				return
			}
			ops = ops[1:]
		}
		access := Read
		if s.role == roleFirstWrite {
			access = Write
		}
		if len(ops) == 0 && s.noOperands == "cwd" {
			c.addCwd(access, recursive)
		}
		for _, w := range ops {
			c.addT(w, access, recursive)
		}
	case roleCopy, roleMove, roleLink:
		c.copyLike(ops, recursive)
	}
	c.cmd.ReadOnly = s.readOnly && !c.writes()
}

func (c *cmdCtx) writes() bool {
	for _, t := range c.cmd.Targets {
		if t.Access == Write {
			return true
		}
	}
	return false
}

// copyLike handles cp, install, mv, ln, rsync and scp: sources and a
// destination, the last operand or -t DIR.
func (c *cmdCtx) copyLike(ops []sword, recursive bool) {
	dest, hasDest := c.value("t", "target-directory")
	if !hasDest {
		if len(ops) == 0 {
			return
		}
		if len(ops) == 1 && c.spec.role == roleLink {
			// ln TARGET: a link named after it, in the working directory.
			if ops[0].unknown == "" {
				c.add(sword{lit: path.Base(ops[0].lit), pat: glob.Escape(path.Base(ops[0].lit)), src: ops[0].src}, Write)
			}
		} else {
			dest, ops = ops[len(ops)-1], ops[:len(ops)-1]
			hasDest = true
		}
	}
	if hasDest && !remote(dest) {
		c.addT(dest, Write, recursive)
	}
	srcAccess := Read
	hardLink := c.spec.role == roleLink && !c.has("s", "symbolic")
	if c.spec.role == roleMove || hardLink || (c.name == "cp" && c.has("l", "link")) || (c.name == "rsync" && c.has("remove-source-files")) {
		// A move removes its sources; a hard link makes an outside file
		// reachable under an inside name, where a write through it would
		// change the outside file: the sources count as written.
		srcAccess = Write
	}
	if c.spec.role == roleLink && !hardLink {
		return // a symbolic link reads nothing; later calls resolve through it
	}
	for _, w := range ops {
		if !remote(w) {
			if hardLink {
				c.add(w, Read)
			}
			c.addT(w, srcAccess, recursive && srcAccess == Write)
		}
	}
}

// remote reports whether an operand names another host (host:path, a URL).
func remote(w sword) bool {
	if w.unknown != "" {
		return false
	}
	s := w.lit
	if strings.Contains(s, "://") {
		return true
	}
	i := strings.IndexByte(s, ':')
	return i > 0 && !strings.Contains(s[:i], "/")
}

// execEnvVars are environment variables whose value is a command, code or
// a place code is loaded from: a command run with one of them set, or a
// line that sets one, may run anything (GIT_EXTERNAL_DIFF='rm -rf ~' git
// diff). Sources: git(1) ENVIRONMENT VARIABLES, bash(1) Shell Variables,
// ld.so(8), less(1), man(1), perlrun(1), node(1), ruby(1).
var execEnvVars = map[string]bool{
	"BASH_ENV": true, "ENV": true, "PROMPT_COMMAND": true, "PS4": true, "SHELLOPTS": true, "BASHOPTS": true, "CDPATH": true, "PATH": true,
	"GIT_EXTERNAL_DIFF": true, "GIT_PAGER": true, "GIT_EDITOR": true, "GIT_SEQUENCE_EDITOR": true, "GIT_SSH": true, "GIT_SSH_COMMAND": true,
	"GIT_ASKPASS": true, "SSH_ASKPASS": true, "GIT_PROXY_COMMAND": true, "GIT_CONFIG": true, "GIT_CONFIG_GLOBAL": true, "GIT_CONFIG_SYSTEM": true,
	"GIT_CONFIG_PARAMETERS": true, "GIT_CONFIG_COUNT": true, "GIT_EXEC_PATH": true, "GIT_TEMPLATE_DIR": true, "GIT_DIR": true, "GIT_WORK_TREE": true,
	"PAGER": true, "MANPAGER": true, "SYSTEMD_PAGER": true, "EDITOR": true, "VISUAL": true, "BROWSER": true, "LESSOPEN": true, "LESSCLOSE": true,
	"LD_PRELOAD": true, "LD_AUDIT": true, "LD_LIBRARY_PATH": true, "PERL5OPT": true, "PERL5LIB": true, "PERLLIB": true,
	"PYTHONSTARTUP": true, "PYTHONPATH": true, "NODE_OPTIONS": true, "RUBYOPT": true, "RUBYLIB": true,
}

// isExecEnvVar reports whether setting name may make a command run code
// (execEnvVars, and git's GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n).
func isExecEnvVar(name string) bool {
	return execEnvVars[name] || strings.HasPrefix(name, "GIT_CONFIG_KEY_") || strings.HasPrefix(name, "GIT_CONFIG_VALUE_")
}
