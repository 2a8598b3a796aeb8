package shell

import (
	"math/bits"
	"path"
	"slices"
	"strings"

	"github.com/safezonehq/safezone/policy/glob"
)

// findutils are find and xargs (GNU findutils).
var findutils = []cmdSpec{
	{name: "find", role: roleCustom, custom: findCmd},
	{name: "xargs", role: roleCustom, custom: xargsCmd},
}

// findCmd: find [-H|-P] [-D OPTS] [-OLEVEL] [--] [START...] [EXPRESSION]
// (find(1)) reads its start points (the directories it lists); what its
// actions reach is what the expression selects (findTargets); -newer FILE
// and the like read FILE; -fprint FILE and the like write FILE. -L and
// -follow, which follow symbolic links below the start points, are
// unknown.
func findCmd(c *cmdCtx) {
	args := c.args
	i := 0
options:
	for i < len(args) && args[i].unknown == "" {
		switch t := args[i].lit; {
		case t == "-H" || t == "-P" || strings.HasPrefix(t, "-O") && len(t) > 2:
			i++
		case t == "-D":
			i += 2
		case t == "-L":
			c.unknown("find -L follows the symbolic links below what it reads")
			return
		case t == "--":
			i++
			break options
		default:
			break options
		}
	}
	var starts []sword
	for ; i < len(args); i++ {
		w := args[i]
		if w.unknown == "" && findExprWord(w.lit) {
			break
		}
		if w.split {
			c.unknown("an unquoted expansion among find's start points may split into options")
		}
		starts = append(starts, w)
	}
	if len(starts) == 0 {
		starts = []sword{literal(".")}
	}
	for _, s := range starts {
		c.add(s, Read)
	}
	if e := c.parseFind(args, i); e != nil && !e.refused {
		c.findTargets(starts, e)
	}
	c.cmd.ReadOnly = !c.writes() && c.cmd.Unknown == ""
}

// findExprWord reports whether a word where find's start points may be
// begins its expression: "-" followed by something, "(" or "!" (GNU find's
// looks_like_expression).
func findExprWord(t string) bool {
	return len(t) > 1 && t[0] == '-' || t == "(" || t == "!"
}

// findExecCmd is a command of -exec, -execdir, -ok or -okdir: the first
// and last index in analyzer.cmds of what it runs, and its words.
type findExecCmd struct {
	from, to int
	words    []sword
	name     string // -exec, -execdir, -ok, -okdir
	dir      bool   // -execdir, -okdir: run in each file's directory
}

// findExec analyses the command of the -exec family primary name as a
// command of its own, with "{}" as written. -execdir runs it in each
// file's directory, which is not known.
func (c *cmdCtx) findExec(name string, words []sword) findExecCmd {
	x := findExecCmd{from: len(c.a.cmds), words: words, name: name, dir: strings.HasSuffix(name, "dir")}
	cwd := c.a.cwd
	if x.dir {
		c.a.cwd = []string{execdirCwd}
	}
	k := c.a.subcommand(words, c.depth)
	c.a.cwd = cwd
	x.to = len(c.a.cmds)
	if sub := &c.a.cmds[k]; sub.Runs != "" && sub.Unknown == "" {
		// What a program does with each file found is not known.
		sub.Unknown = "find " + name + " runs " + sub.Runs + " on the files found, which safezone cannot see"
	}
	return x
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

// findTargets adds what the actions of find's expression reach: -delete
// writes the files it selects (findReached); the targets of an -exec
// command given as "{}" become the files its -exec selects (findSelect).
func (c *cmdCtx) findTargets(starts []sword, e *findExpr) {
	for i := range e.acts {
		a := &e.acts[i]
		if a.delete {
			c.cmd.Targets = append(c.cmd.Targets, c.findReached(starts, e, a.reach, Write, false, false, "")...)
			continue
		}
		for k := a.exec.from; k < a.exec.to; k++ {
			c.findSelect(&c.a.cmds[k], starts, e, a)
		}
		c.findInWords(&c.a.cmds[a.exec.to-1], a.exec.words)
	}
}

// findSelect rewrites the targets of cmd, run by -exec: a target given as
// "{}" or "{}SUFFIX" is each file found (findReached); "DIR/{}" is below
// DIR; under -execdir a relative target other than those is unknown, and
// the command works in START.
func (c *cmdCtx) findSelect(cmd *Command, starts []sword, e *findExpr, a *findAct) {
	var out []Target
	x := a.exec
	for _, t := range cmd.Targets {
		suffix, found := strings.CutPrefix(t.Given, "{}")
		switch {
		case found && (strings.Contains(suffix, "{}") || slices.Contains(strings.Split(suffix, "/"), "..")):
			// "{}{}" is "..{}" for the start point ".", "{}/.." the
			// start point's parent: not below it.
			if cmd.Unknown == "" {
				cmd.Unknown = "find " + x.name + " names " + t.Given + ", which may lead above the start point"
			}
		case found:
			// rm -r {} removes what it is given and what lies below; a
			// recursive write that may create files (cp -r x {}) reaches
			// the whole start point.
			removes := t.Recursive && t.Access == Write && len(cmd.Argv) > 0 && path.Base(cmd.Argv[0]) == "rm"
			ts := c.findReached(starts, e, a.reach, t.Access, t.Recursive && !removes, removes, suffix)
			if len(cmd.Argv) > 0 && slices.Contains(metadataReaders, path.Base(cmd.Argv[0])) {
				for i := range ts {
					ts[i].Below = false // ls {} reads no file's contents
				}
			}
			out = append(out, ts...)
		case strings.Contains(t.Given, "{}") && !strings.Contains(t.Given, "/{}"):
			// ".{}" is "../x" for the file "./x".
			if cmd.Unknown == "" {
				cmd.Unknown = "find " + x.name + " names " + t.Given + ": the file's name joined to what comes before it may lead elsewhere"
			}
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

// findReached returns the targets of the files an action reaching reach
// selects, as a target ("{}" followed by suffix) of the given access names
// them. For each start point: for a write, the start point (the files
// found are removed or replaced in their directories, and a write outside
// is judged there); the start point itself, suffixed, when the expression
// may select it; for each branch of reach that tests names or paths, a
// pattern target per test (START/**/NAME for -name NAME, the globs of
// -path and -regex below START), excepting the paths its exactly known
// negated tests and -prune leave out (Target.Except). A branch without
// such a test selects every file: the start point as a whole (a directory
// read, a recursive write). So does a recursive access that may create
// files (cp -r x {}) or a suffix with a "/", besides the patterns. With
// below (rm -r {}), what lies below each path found is reached too: the
// patterns followed by "/**" (without exceptions: they leave out paths
// found, not what lies below one), the start point recursively when it
// may be found.
func (c *cmdCtx) findReached(starts []sword, e *findExpr, reach findReach, access Access, recursive, below bool, suffix string) []Target {
	if len(reach) == 0 {
		return nil
	}
	all := recursive || strings.Contains(suffix, "/")
	for _, cj := range reach {
		all = all || cj.pos == 0
	}
	var out []Target
	for _, s := range starts {
		ts, why := c.a.targets(s, access)
		if why != "" {
			c.unknown(why)
			continue
		}
		for _, st := range ts {
			whole := st
			whole.Recursive = access == Write && (all || below && e.maySelectStart(reach, st))
			// A branch without a name or path test hands the action every
			// file below the start point.
			whole.Below = access == Read && all
			if access == Write || all && suffix == "" {
				out = append(out, whole)
			}
			if suffix != "" && !strings.Contains(suffix, "/") && (all || e.maySelectStart(reach, st)) {
				self := whole
				self.Given += suffix
				if st.Glob {
					self.Path += glob.Escape(suffix)
				} else {
					self.Path += suffix
				}
				out = append(out, self)
			} else if suffix == "" && !all && access == Read && e.maySelectStart(reach, st) {
				out = append(out, st)
			}
			out = append(out, c.findPatterns(e, reach, st, suffix, below)...)
		}
	}
	return out
}

// findPatterns returns the pattern targets of the branches of reach that
// test names or paths, below the start point st; with below, also what
// lies below each.
func (c *cmdCtx) findPatterns(e *findExpr, reach findReach, st Target, suffix string, below bool) []Target {
	var out []Target
	esc := glob.Escape(suffix)
	for _, cj := range reach {
		if cj.pos == 0 {
			continue
		}
		except, why := e.excepts(cj, st)
		if why != "" {
			c.unknown(why)
			return nil
		}
		for i := range except {
			except[i] += esc
		}
		for _, ti := range testBits(cj.pos) {
			gs, why := e.testGlobs(ti, st)
			if why != "" {
				c.unknown(why)
				return nil
			}
			for _, g := range gs {
				given := e.tests[ti].pat
				if e.tests[ti].kind == testName {
					given = path.Join(st.Given, given)
				}
				ts := []Target{{Path: g + esc, Given: given + suffix, Access: st.Access, Pattern: true, Except: except}}
				if below {
					ts = append(ts, Target{Path: g + esc + "/**", Given: given + suffix + "/**", Access: st.Access, Pattern: true})
				}
				for _, t := range ts {
					if !slices.ContainsFunc(out, func(o Target) bool { return o.Path == t.Path && slices.Equal(o.Except, t.Except) }) {
						out = append(out, t)
					}
				}
			}
		}
	}
	return out
}

// testGlobs returns absolute globs of the paths strictly below the start
// point st that test i selects: for a name test START/**/NAME; for a path
// test (-path, -regex), what may follow find's path for st and a "/" (the
// start point as given: "find ./ -path './x*'" tests "./x..." in GNU find,
// ".//x..." in BSD find: both count). A start point that is itself a glob
// leaves a path test unknown.
func (e *findExpr) testGlobs(i int, st Target) ([]string, string) {
	gs, _, why := e.testGlobsExact(i, st)
	return gs, why
}

// testGlobsExact is testGlobs, and whether the globs match exactly what
// the test holds for below st: the test's pattern is exact, and for a
// path test the start point does not end with "/" (where GNU and BSD find
// build different paths, the globs take both).
func (e *findExpr) testGlobsExact(i int, st Target) ([]string, bool, string) {
	te := &e.tests[i]
	base := st.Path
	if !st.Glob {
		base = glob.Escape(path.Clean(st.Path))
	}
	base = strings.TrimSuffix(base, "/")
	var rels []string
	add := func(f []patom, pre string) bool {
		gs, ok := relGlobs(f, maxFindFlat-len(rels))
		for _, g := range gs {
			rels = append(rels, pre+g)
		}
		return ok
	}
	tooMany := "find " + te.src + " makes more globs than safezone follows"
	switch te.kind {
	case testName:
		for _, f := range te.flat {
			if f, ok := nameAtoms(f); ok && !add(f, "**/") {
				return nil, false, tooMany
			}
		}
	default:
		if st.Glob {
			return nil, false, "find " + te.src + " below a start point that is a glob"
		}
		// GNU find puts a "/" between the start point and the rest
		// unless it ends with one; BSD find always does (".//x").
		prefixes := []string{st.Given + "/"}
		if strings.HasSuffix(st.Given, "/") {
			prefixes = append(prefixes, st.Given)
		}
		for _, f := range te.flat {
			for _, prefix := range prefixes {
				for _, r := range residuals(f, prefix) {
					if !add(r, "") {
						return nil, false, tooMany
					}
				}
			}
		}
	}
	slices.Sort(rels)
	rels = slices.Compact(rels)
	out := make([]string, len(rels))
	for k, r := range rels {
		out[k] = base + "/" + r
	}
	return out, te.exact && (te.kind == testName || !strings.HasSuffix(st.Given, "/")), ""
}

// nameAtoms returns f as it applies to a file name, which holds no "/";
// false when it then matches nothing.
func nameAtoms(f []patom) ([]patom, bool) {
	out := make([]patom, len(f))
	for i, a := range f {
		a.set = a.set.intersect(anyButSlash)
		if len(a.set) == 0 && !a.star {
			return nil, false
		}
		out[i] = a
	}
	return out, true
}

// excepts returns the globs of the paths below st that a branch leaves
// out: those of its negated tests whose globs are exact, and, unless
// -depth or -delete turns -prune off, the paths below those -prune is
// reached at by a branch of one exact test and nothing else (no test or
// action whose outcome is not known: "-path ./x -newer F -prune" prunes
// ./x only when it is newer).
func (e *findExpr) excepts(cj findConj, st Target) ([]string, string) {
	var out []string
	for _, ti := range testBits(cj.neg) {
		gs, exact, why := e.testGlobsExact(ti, st)
		if why != "" {
			return nil, why
		}
		if exact {
			out = append(out, gs...)
		}
	}
	if !e.depth {
		for _, p := range e.prunes {
			if p.neg != 0 || p.maybe || bits.OnesCount64(p.pos) != 1 {
				continue
			}
			gs, exact, why := e.testGlobsExact(bits.TrailingZeros64(p.pos), st)
			if why != "" {
				return nil, why
			}
			if !exact {
				continue
			}
			for _, g := range gs {
				out = append(out, g+"/**/*")
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out), ""
}

// maySelectStart reports whether a branch of reach may select the start
// point st itself: its tests hold for it as find tests it (the name with
// trailing slashes removed, the path as given), its exact negated tests
// do not.
func (e *findExpr) maySelectStart(reach findReach, st Target) bool {
	if st.Glob {
		return true
	}
	for _, cj := range reach {
		ok := true
		for _, ti := range testBits(cj.pos) {
			ok = ok && e.testMatches(ti, st.Given)
		}
		for _, ti := range testBits(cj.neg) {
			ok = ok && !(e.tests[ti].exact && e.testMatches(ti, st.Given))
		}
		if ok {
			return true
		}
	}
	return false
}

// testMatches reports whether test i may hold for find's path p.
func (e *findExpr) testMatches(i int, p string) bool {
	te := &e.tests[i]
	if te.kind == testName {
		// GNU find matches -name against the base name with its trailing
		// slashes removed ("find / -name /" matches /).
		if t := strings.TrimRight(p, "/"); t != "" {
			p = t[strings.LastIndexByte(t, '/')+1:]
		} else if p != "" {
			p = "/"
		}
	}
	for _, f := range te.flat {
		if matchesFlat(f, p) {
			return true
		}
	}
	return false
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

// metadataReaders are programs that, given a file, read its name and
// metadata but not its contents: find -exec ls {} + reads no secret.
var metadataReaders = []string{"ls", "stat", "du", "readlink", "realpath", "basename", "dirname", "echo", "printf", "test", "["}
