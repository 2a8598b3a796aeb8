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

// findCmd: find START... EXPRESSION reads the start directories; -delete
// writes them; -exec CMD ... {} applies CMD's access (from the table) to
// START/**/NAME when -name NAME is given, else to START; -fprint FILE and
// friends write FILE.
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
	var names []sword
	var execAccess []Access
	deletes := false
	oneArg := map[string]bool{"-name": true, "-iname": true, "-path": true, "-ipath": true, "-wholename": true, "-iwholename": true,
		"-regex": true, "-iregex": true, "-lname": true, "-ilname": true, "-type": true, "-xtype": true, "-maxdepth": true,
		"-mindepth": true, "-mtime": true, "-atime": true, "-ctime": true, "-mmin": true, "-amin": true, "-cmin": true,
		"-size": true, "-perm": true, "-user": true, "-group": true, "-uid": true, "-gid": true, "-inum": true, "-links": true,
		"-printf": true, "-regextype": true, "-fstype": true, "-used": true, "-samefile": true, "-newer": true,
		"-anewer": true, "-cnewer": true, "-context": true, "-D": true}
	for ; i < len(args); i++ {
		w := args[i]
		t := w.text()
		switch {
		case w.unknown != "":
			if i > 0 && (args[i-1].text() == "-name" || args[i-1].text() == "-iname") {
				c.unknown("a find -name pattern is not static")
			}
		case t == "-name" || t == "-iname":
			if i+1 < len(args) {
				names = append(names, args[i+1])
			}
			i++
		case t == "-newer" || t == "-anewer" || t == "-cnewer" || t == "-samefile":
			if i+1 < len(args) {
				c.add(args[i+1], Read)
			}
			i++
		case oneArg[t] || strings.HasPrefix(t, "-newer"):
			i++
		case t == "-delete":
			deletes = true
		case t == "-fprint" || t == "-fprint0" || t == "-fls":
			if i+1 < len(args) {
				c.add(args[i+1], Write)
			}
			i++
		case t == "-fprintf":
			if i+1 < len(args) {
				c.add(args[i+1], Write)
			}
			i += 2
		case t == "-exec" || t == "-execdir" || t == "-ok" || t == "-okdir":
			j := i + 1
			for j < len(args) && args[j].text() != ";" && args[j].text() != "+" {
				j++
			}
			acc, why := c.execAccessOf(args[i+1 : min(j, len(args))])
			if why != "" {
				c.unknown(why)
			} else if acc != nil {
				execAccess = append(execAccess, *acc)
			}
			i = j
		}
	}
	readOnly := !deletes
	for _, s := range starts {
		c.add(s, Read)
		if deletes {
			c.addT(s, Write, true)
		}
		for _, acc := range execAccess {
			if acc == Write {
				readOnly = false
			}
			if len(names) == 0 {
				c.addT(s, acc, acc == Write)
				continue
			}
			for _, n := range names {
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
