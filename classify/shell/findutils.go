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
}

// findPrimary returns what the primary t does, and false for a word that
// is no primary of findPrimaries.
func findPrimary(t string) (findArg, bool) {
	for _, p := range findPrimaries {
		if p.name == t {
			return p.arg, true
		}
	}
	if strings.HasPrefix(t, "-newer") { // -newerXY REFERENCE
		return findSkips, true
	}
	return 0, false
}

// findExpr is what find's expression does: the -name patterns, the access
// of each -exec command to "{}", and whether it deletes.
type findExpr struct {
	names      []sword
	execAccess []Access
	deletes    bool
}

// findCmd: find START... EXPRESSION reads the start directories; -delete
// writes them; -exec CMD ... {} applies CMD's access (from the table) to
// START/**/NAME when -name NAME is given, else to START; -fprint FILE and
// friends write FILE (find(1)).
func findCmd(c *cmdCtx) {
	args := c.args
	i := 0
	for i < len(args) && args[i].unknown == "" && (args[i].lit == "-H" || args[i].lit == "-L" || args[i].lit == "-P" || strings.HasPrefix(args[i].lit, "-O")) {
		i++
	}
	var starts []sword
	for ; i < len(args); i++ {
		t := args[i].text()
		if args[i].unknown == "" && (strings.HasPrefix(t, "-") || t == "(" || t == "!" || t == ",") {
			break
		}
		starts = append(starts, args[i])
	}
	if len(starts) == 0 {
		starts = []sword{{lit: ".", pat: ".", src: "."}}
	}
	c.findTargets(starts, c.findExpression(args, i))
}

// findExpression parses find's expression, args[i:], adding the files its
// primaries read and write.
func (c *cmdCtx) findExpression(args []sword, i int) findExpr {
	var e findExpr
	for ; i < len(args); i++ {
		w := args[i]
		if w.unknown != "" {
			if i > 0 && (args[i-1].text() == "-name" || args[i-1].text() == "-iname") {
				c.unknown("a find -name pattern is not static")
			}
			continue
		}
		arg, ok := findPrimary(w.text())
		if !ok {
			continue
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
		}
		i++
	}
	return e
}

// findExec judges the command of -exec at args[i] (up to ";" or "+") and
// returns the index of its end.
func (c *cmdCtx) findExec(args []sword, i int, e *findExpr) int {
	j := i + 1
	for j < len(args) && args[j].text() != ";" && args[j].text() != "+" {
		j++
	}
	acc, why := c.execAccessOf(args[i+1 : min(j, len(args))])
	if why != "" {
		c.unknown(why)
	} else if acc != nil {
		e.execAccess = append(e.execAccess, *acc)
	}
	return j
}

// findTargets adds the targets of find's start directories: each is read,
// written recursively with -delete, and given each -exec command's access
// (to the files -name selects below it, when given). The command is read
// only when nothing is deleted or written by -exec.
func (c *cmdCtx) findTargets(starts []sword, e findExpr) {
	readOnly := !e.deletes
	for _, s := range starts {
		c.add(s, Read)
		if e.deletes {
			c.addT(s, Write, true)
		}
		for _, acc := range e.execAccess {
			if acc == Write {
				readOnly = false
			}
			if len(e.names) == 0 {
				c.addT(s, acc, acc == Write)
				continue
			}
			for _, n := range e.names {
				c.filter(s, n, acc)
				if acc == Write {
					c.addT(s, Write, false)
				}
			}
		}
	}
	c.cmd.ReadOnly = readOnly && c.cmd.Unknown == ""
}

// execAccessOf looks up what find -exec's command does with "{}": nil when
// it names no file (echo {}).
func (c *cmdCtx) execAccessOf(argv []sword) (*Access, string) {
	argv, why := stripWrappers(argv)
	if why != "" {
		return nil, why
	}
	if len(argv) == 0 || argv[0].unknown != "" {
		return nil, "find -exec runs a program that is not static"
	}
	name := path.Base(argv[0].lit)
	s := c.a.spec(name)
	if s == nil {
		return nil, "find -exec runs " + name + ", which is not in safezone's tables"
	}
	// Judge the command with a placeholder operand and see what "{}"
	// becomes.
	a := &analyzer{vars: map[string]shellVar{}, cwd: []string{"/\x00"}, commands: c.a.commands}
	cmd := &Command{}
	ctx := &cmdCtx{a: a, spec: s, name: name, args: argv[1:], cmd: cmd}
	ctx.run()
	if cmd.Unknown != "" {
		return nil, "find -exec " + name + ": " + cmd.Unknown
	}
	var acc *Access
	for _, t := range cmd.Targets {
		if strings.Contains(t.Path, "{}") {
			x := t.Access
			if acc == nil || x == Write {
				acc = &x
			}
		}
	}
	if acc == nil && s.role != roleNone {
		return nil, "find -exec " + name + ": safezone cannot tell what it does with {}"
	}
	return acc, ""
}

// xargsCmd: the command xargs runs gets its operands from stdin, which
// safezone cannot see: unknown if that command reads or writes operands.
func xargsCmd(c *cmdCtx) {
	rest, ok := skipOptions(c.args, "0ortxp", "aEdeIiLlnPs", []string{"null", "no-run-if-empty", "verbose", "exit", "interactive", "open-tty", "show-limits"}, []string{"arg-file", "eof", "delimiter", "replace", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var"})
	if !ok {
		c.unknown("xargs: an option safezone does not know")
		return
	}
	if v, ok := optionValue(c.args[:len(c.args)-len(rest)], "-a", "--arg-file"); ok {
		c.add(v, Read)
	}
	rest, why := stripWrappers(rest)
	if why != "" {
		c.unknown(why)
		return
	}
	if len(rest) == 0 {
		c.cmd.ReadOnly = true // xargs echo
		return
	}
	if rest[0].unknown != "" {
		c.unknown("xargs runs a program that is not static")
		return
	}
	s := c.a.spec(path.Base(rest[0].lit))
	switch {
	case s == nil:
		return // an ordinary program
	case s.role == roleNone:
		c.cmd.ReadOnly = true
	default:
		c.unknown("xargs feeds " + path.Base(rest[0].lit) + " operands from stdin, which safezone cannot see")
	}
}
