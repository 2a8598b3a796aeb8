package shell

import (
	"path"
	"strings"
)

// findutils are find and xargs (GNU findutils).
var findutils = []cmdSpec{
	{name: "find", role: roleCustom, custom: findCmd},
	{name: "xargs", role: roleCustom, custom: xargsCmd},
}

// findArg is what a primary of find's expression does with the words
// after it (find(1) EXPRESSION).
type findArg uint8

const (
	findSkips      findArg = iota // one word that names no file (-type f, -mtime 1)
	findPattern                   // -name PATTERN: -exec's access applies to START/**/PATTERN
	findReads                     // one word, a file read (-newer FILE)
	findWrites                    // one word, a file written (-fprint FILE)
	findWritesThen                // a file written, then a format (-fprintf FILE FORMAT)
	findDeletes                   // no word: the files found are removed (-delete)
	findExecs                     // a command up to ";" or "+", run on each file (-exec)
)

// findPrimaries are the primaries of find's expression that take words or
// write (find(1) TESTS and ACTIONS). -newerXY takes one word too
// (findPrimary); any other primary takes none.
var findPrimaries = []struct {
	name string
	arg  findArg
}{
	{"-name", findPattern}, {"-iname", findPattern},
	{"-newer", findReads}, {"-anewer", findReads}, {"-cnewer", findReads}, {"-samefile", findReads},
	{"-path", findSkips}, {"-ipath", findSkips}, {"-wholename", findSkips}, {"-iwholename", findSkips},
	{"-regex", findSkips}, {"-iregex", findSkips}, {"-lname", findSkips}, {"-ilname", findSkips},
	{"-type", findSkips}, {"-xtype", findSkips}, {"-maxdepth", findSkips}, {"-mindepth", findSkips},
	{"-mtime", findSkips}, {"-atime", findSkips}, {"-ctime", findSkips}, {"-mmin", findSkips},
	{"-amin", findSkips}, {"-cmin", findSkips}, {"-size", findSkips}, {"-perm", findSkips},
	{"-user", findSkips}, {"-group", findSkips}, {"-uid", findSkips}, {"-gid", findSkips},
	{"-inum", findSkips}, {"-links", findSkips}, {"-printf", findSkips}, {"-regextype", findSkips},
	{"-fstype", findSkips}, {"-used", findSkips}, {"-context", findSkips}, {"-D", findSkips},
	{"-delete", findDeletes},
	{"-fprint", findWrites}, {"-fprint0", findWrites}, {"-fls", findWrites},
	{"-fprintf", findWritesThen},
	{"-exec", findExecs}, {"-execdir", findExecs}, {"-ok", findExecs}, {"-okdir", findExecs},
	{"-files0-from", findUnknown},
}

// findUnknown marks a primary whose start points or effects are not known
// (-files0-from FILE reads the start points from FILE).
const findUnknown findArg = findExecs + 1

// findPrimary returns what the primary t does, and false for a word that
// is no primary of findPrimaries. -newerXY REFERENCE compares with the
// time of the file REFERENCE, or with the time REFERENCE itself when Y is
// t (find(1) -newerXY).
func findPrimary(t string) (findArg, bool) {
	for _, p := range findPrimaries {
		if p.name == t {
			return p.arg, true
		}
	}
	if x, ok := strings.CutPrefix(t, "-newer"); ok && len(x) == 2 {
		if x[1] == 't' {
			return findSkips, true
		}
		return findReads, true
	}
	return 0, false
}

// findExpr is what find's expression does: the -name patterns, whether
// they select every file an action applies to (plain: no -o, ",", "!" or
// parentheses), the commands of -exec (as indices into analyzer.cmds), and
// whether it deletes.
type findExpr struct {
	names   []sword
	plain   bool
	execs   []findExecCmd
	deletes bool
}

// findExecCmd is a command of -exec, -execdir, -ok or -okdir: the first
// and last index in analyzer.cmds of what it runs, and its words.
type findExecCmd struct {
	from, to int
	words    []sword
	dir      bool // -execdir, -okdir: run in each file's directory
}

// findCmd: find START... EXPRESSION reads the start directories; -delete
// writes them; each -exec command is a command of its own, analysed with
// "{}" standing for the files found: START/**/NAME when -name NAME selects
// them, else START; -fprint FILE and friends write FILE (find(1)).
func findCmd(c *cmdCtx) {
	args := c.args
	i := 0
	for i < len(args) && args[i].unknown == "" && (args[i].lit == "-H" || args[i].lit == "-L" || args[i].lit == "-P" || strings.HasPrefix(args[i].lit, "-O")) {
		if args[i].lit == "-L" {
			c.unknown("find -L follows the symbolic links below what it reads")
			return
		}
		i++
	}
	for _, w := range args[i:] {
		if w.unknown == "" && w.lit == "-follow" {
			c.unknown("find -follow follows the symbolic links below what it reads")
			return
		}
	}
	var starts []sword
	for ; i < len(args); i++ {
		t := args[i].text()
		if args[i].unknown == "" && (strings.HasPrefix(t, "-") || t == "(" || t == "!" || t == ",") {
			break
		}
		if args[i].split {
			c.unknown("an unquoted expansion among find's start points may split into options")
		}
		starts = append(starts, args[i])
	}
	if len(starts) == 0 {
		starts = []sword{literal(".")}
	}
	c.findTargets(starts, c.findExpression(args, i))
}

// findExpression parses find's expression, args[i:], adding the files its
// primaries read and write. A word that is not static where a primary may
// stand could be any action (-delete): unknown.
func (c *cmdCtx) findExpression(args []sword, i int) findExpr {
	e := findExpr{plain: true}
	for ; i < len(args); i++ {
		w := args[i]
		if w.unknown != "" {
			c.unknown("a find expression word that is not static may be an action: " + w.src)
			continue
		}
		switch w.lit {
		case "-o", "-or", ",", "!", "-not", "(", ")":
			e.plain = false
		}
		arg, ok := findPrimary(w.text())
		if !ok {
			continue
		}
		if arg != findDeletes && arg != findExecs && i+1 < len(args) && args[i+1].split {
			c.unknown("an unquoted expansion after find's " + w.lit + " may split into more words")
		}
		switch arg {
		case findPattern:
			if i+1 < len(args) {
				e.names = append(e.names, args[i+1])
			}
		case findReads:
			if i+1 < len(args) {
				c.add(args[i+1], Read)
			}
		case findWrites, findWritesThen:
			if i+1 < len(args) {
				c.add(args[i+1], Write)
			}
			if arg == findWritesThen {
				i++
			}
		case findDeletes:
			e.deletes = true
			continue
		case findExecs:
			i = c.findExec(args, i, &e)
			continue
		case findUnknown:
			c.unknown("find " + w.lit + " reads its start points from a file")
		}
		i++
	}
	return e
}

// findExec analyses the command of -exec at args[i] (up to ";" or "+") as
// a command of its own, with "{}" as written, and returns the index of its
// end. -execdir runs it in each file's directory, which is not known.
func (c *cmdCtx) findExec(args []sword, i int, e *findExpr) int {
	j := i + 1
	for j < len(args) && args[j].text() != ";" && args[j].text() != "+" {
		j++
	}
	if j >= len(args) {
		c.unknown("find " + args[i].lit + " without its \\; or +")
	}
	words := args[i+1 : min(j, len(args))]
	if len(words) == 0 {
		return j
	}
	x := findExecCmd{from: len(c.a.cmds), words: words, dir: strings.HasSuffix(args[i].lit, "dir")}
	cwd := c.a.cwd
	if x.dir {
		c.a.cwd = []string{execdirCwd}
	}
	k := c.a.subcommand(words, c.depth)
	c.a.cwd = cwd
	x.to = len(c.a.cmds)
	if sub := &c.a.cmds[k]; sub.Runs != "" && sub.Unknown == "" {
		// What a program does with each file found is not known.
		sub.Unknown = "find " + args[i].lit + " runs " + sub.Runs + " on the files found, which safezone cannot see"
	}
	e.execs = append(e.execs, x)
	return j
}

// execdirCwd stands for the directory of each file -execdir runs in.
const execdirCwd = "/\x00execdir"

// subcommand analyses words as a command of its own, run by the current
// one (find -exec, xargs), and returns its index in cmds.
func (a *analyzer) subcommand(words []sword, depth int) int {
	cmd := Command{Cwd: a.cwd}
	a.simple(&cmd, words, depth)
	if cmd.Unknown == "" && a.later != "" {
		cmd.Unknown = a.later
	}
	cmd.ReadOnly = cmd.ReadOnly && !writesAny(cmd.Targets)
	a.cmds = append(a.cmds, cmd)
	return len(a.cmds) - 1
}

// findTargets adds the targets of find's start directories: each is read,
// and written recursively with -delete. Then the targets of its -exec
// commands that name "{}" become the files found (findSelect). The command
// is read only when nothing is deleted or written.
func (c *cmdCtx) findTargets(starts []sword, e findExpr) {
	for _, s := range starts {
		c.add(s, Read)
		if e.deletes {
			c.addT(s, Write, true)
		}
	}
	for _, x := range e.execs {
		for k := x.from; k < x.to; k++ {
			c.findSelect(&c.a.cmds[k], starts, e, x)
		}
		c.findInWords(&c.a.cmds[x.to-1], x.words)
	}
	c.cmd.ReadOnly = !e.deletes && !c.writes() && c.cmd.Unknown == ""
}

// findSelect rewrites the targets of cmd, run by -exec: a target given as
// "{}" or "{}SUFFIX" is each file found, START/**/NAME[SUFFIX] when the
// expression's -name NAME selects them all (a pattern), else START (a
// write reaching below it); under -execdir a relative target other than
// those is unknown, and the command works in START.
func (c *cmdCtx) findSelect(cmd *Command, starts []sword, e findExpr, x findExecCmd) {
	var out []Target
	for _, t := range cmd.Targets {
		suffix, found := strings.CutPrefix(t.Given, "{}")
		switch {
		case found:
			out = append(out, c.findFiles(starts, e, t, suffix)...)
		case strings.Contains(t.Given, "{}") && strings.Contains(t.Path, "{}"):
			// DIR/{}: a file found, named in DIR (cp {} DIR): below DIR.
			t.Path = path.Dir(t.Path[:strings.Index(t.Path, "{}")] + "x")
			t.Recursive = t.Access == Write
			out = append(out, t)
		case x.dir && t.Cwd:
			for _, s := range starts {
				ts, why := c.a.targets(s, Read)
				if why != "" {
					cmd.Unknown = why
				}
				for i := range ts {
					ts[i].Cwd = true
				}
				out = append(out, ts...)
			}
		case strings.HasPrefix(t.Path, execdirCwd):
			if cmd.Unknown == "" {
				cmd.Unknown = "find -execdir runs it in each file's directory: " + t.Given + " is relative to it"
			}
		default:
			out = append(out, t)
		}
	}
	cmd.Targets = out
	if x.dir {
		cmd.Cwd = nil
		for _, s := range starts {
			cmd.Cwd = append(cmd.Cwd, s.text()+"/**")
		}
	}
}

// findFiles returns the targets the files find selects stand for, as t
// ("{}" followed by suffix) names them.
func (c *cmdCtx) findFiles(starts []sword, e findExpr, t Target, suffix string) []Target {
	var out []Target
	for _, s := range starts {
		if len(e.names) == 0 || !e.plain || t.Recursive || strings.Contains(suffix, "/") {
			ts, why := c.a.targets(s, t.Access)
			if why != "" {
				c.unknown(why)
				continue
			}
			for i := range ts {
				ts[i].Recursive = t.Access == Write
			}
			out = append(out, ts...)
			continue
		}
		for _, n := range e.names {
			before := len(c.cmd.Targets)
			c.filter(s, withSuffix(n, suffix), t.Access)
			out = append(out, c.cmd.Targets[before:]...)
			c.cmd.Targets = c.cmd.Targets[:before]
		}
		if t.Access == Write {
			// Files found are replaced in their directories.
			ts, _ := c.a.targets(s, Write)
			out = append(out, ts...)
		}
	}
	return out
}

// findInWords makes cmd unknown when find puts the files' names inside a
// word of the command's (GNU find replaces "{}" anywhere in an -exec
// argument) that is not a path of its targets: in a script (sh -c
// 'cat {}') a file name is code.
func (c *cmdCtx) findInWords(cmd *Command, words []sword) {
	for _, w := range words {
		if w.unknown != "" || w.lit == "{}" || !strings.Contains(w.lit, "{}") || strings.HasPrefix(w.lit, "{}") && !strings.ContainsAny(w.lit, " \t\n;&|$`'\"<>()") {
			continue
		}
		if cmd.Unknown == "" {
			cmd.Unknown = "find puts each file name inside " + w.src + ": in a script a name can run commands"
		}
		return
	}
}

// stdinOperands stands, in a command's argv, for the operands xargs adds
// from its input.
const stdinOperands = "(stdin)"

// xargsCmd: xargs [OPTIONS] [COMMAND [ARGS]] runs COMMAND (echo by
// default) with operands read from stdin (xargs(1)): the command is a
// command of its own, given an operand that is not known; with -I
// REPLACE, the words holding REPLACE are not known. -a FILE reads FILE.
func xargsCmd(c *cmdCtx) {
	rest, repl, ok := c.xargsOptions()
	if !ok {
		return
	}
	c.cmd.ReadOnly = c.cmd.Unknown == ""
	if len(rest) == 0 {
		return // xargs echo
	}
	words := make([]sword, 0, len(rest)+1)
	for _, w := range rest {
		if repl != "" && w.unknown == "" && strings.Contains(w.lit, repl) {
			w = sword{src: w.src, unknown: "xargs replaces " + repl + " with words from stdin"}
		}
		words = append(words, w)
	}
	if repl == "" {
		words = append(words, sword{src: stdinOperands, unknown: "xargs adds operands from stdin", split: true})
	}
	k := c.a.subcommand(words, c.depth)
	c.cmd.Runs = c.a.cmds[k].Runs
}

// xargsShort are xargs' letters: without a value, with one, and with one
// attached or none (the obsolete -e, -i and -l; -i is -I {}).
const (
	xargsShort    = "0ortxp"
	xargsShortArg = "aEdIPLns"
	xargsShortOpt = "eil"
)

var (
	xargsLong    = []string{"null", "no-run-if-empty", "verbose", "exit", "interactive", "open-tty", "show-limits"}
	xargsLongArg = []string{"arg-file", "eof", "delimiter", "replace", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var"}
)

// xargsOptions parses xargs' options, which end at the command, reading
// the file of -a. It returns the command and the replacement string of -I
// or -i, if any, and false when an option is not known.
func (c *cmdCtx) xargsOptions() ([]sword, string, bool) {
	repl := ""
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		t := w.text()
		switch {
		case w.unknown != "" || !strings.HasPrefix(t, "-") || t == "-":
			return c.args[i:], repl, true
		case t == "--":
			return c.args[i+1:], repl, true
		case strings.HasPrefix(t, "--"):
			name, val, hasVal := strings.Cut(t[2:], "=")
			switch {
			case containsStr(xargsLong, name) && !hasVal:
				continue
			case !containsStr(xargsLongArg, name):
				c.unknown("xargs: option --" + name + " is not in safezone's table")
				return nil, "", false
			case !hasVal && i+1 < len(c.args):
				i++
				val = c.args[i].lit
				c.xargsValue(name, c.args[i])
			default:
				c.xargsValue(name, literal(val))
			}
			if name == "replace" {
				repl = val
			}
		default:
			var ok bool
			if i, repl, ok = c.xargsCluster(i, t[1:], repl); !ok {
				return nil, "", false
			}
		}
	}
	return nil, repl, true
}

// xargsCluster parses the letters of -letters at c.args[i].
func (c *cmdCtx) xargsCluster(i int, letters, repl string) (int, string, bool) {
	for j := 0; j < len(letters); j++ {
		l := letters[j]
		switch {
		case strings.IndexByte(xargsShortOpt, l) >= 0:
			if l == 'i' {
				repl = letters[j+1:]
				if repl == "" {
					repl = "{}"
				}
			}
			return i, repl, true
		case strings.IndexByte(xargsShortArg, l) >= 0:
			v := literal(letters[j+1:])
			if v.lit == "" {
				if i+1 >= len(c.args) {
					c.unknown("xargs -" + string(l) + " has no value")
					return i, repl, false
				}
				i++
				v = c.args[i]
			}
			c.xargsValue(string(l), v)
			if l == 'I' {
				repl = v.lit
			}
			return i, repl, true
		case strings.IndexByte(xargsShort, l) < 0:
			c.unknown("xargs: option -" + string(l) + " is not in safezone's table")
			return i, repl, false
		}
	}
	return i, repl, true
}

// xargsValue does what the value of an option means: -a FILE is read; a
// value that may split into several words is unknown.
func (c *cmdCtx) xargsValue(name string, v sword) {
	if v.split {
		c.unknown("xargs: an unquoted expansion as an option's value may split into several words")
	}
	if name == "a" || name == "arg-file" {
		c.add(v, Read)
	}
	if (name == "I" || name == "replace") && v.unknown != "" {
		c.unknown("xargs -I: the replacement string is not static")
	}
}
