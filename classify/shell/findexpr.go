package shell

import (
	"math/bits"
	"strings"
	"sync"
)

// This file parses find's expression (find(1), GNU findutils 4.9:
// OPTIONS, TESTS, ACTIONS, OPERATORS) and evaluates it symbolically: for
// each action that reaches files (-exec, -execdir, -ok, -okdir, -delete)
// and for -prune, the condition under which find evaluates it, as a union
// of branches, each the name and path tests that hold on the way to it and
// those that do not. Every other test (-type, -size, -newer, -perm, ...)
// may be true or false: it narrows what an action reaches, so leaving it
// out keeps the reach broader, never narrower.

// fop is the kind of a node of find's expression.
type fop uint8

const (
	fTest  fop = iota // a test that may be true or false (-type f, -size +1k, -newer F)
	fName             // a test of findExpr.tests (-name, -path, -regex and their i-forms)
	fTrue             // always true: -true, options (-maxdepth N), actions that print
	fFalse            // -false
	fAct              // an action of findExpr.acts: may be true or false
	fPrune            // -prune: true
	fNot
	fAnd
	fOr
	fComma
)

// fnode is a node of find's expression.
type fnode struct {
	op   fop
	idx  int // fName: the test; fAct: the action
	l, r *fnode
}

// findTest is a test of the expression that selects by name or path.
type findTest struct {
	src  string // as written: "-iname .ENV"
	pat  string // the pattern as written: ".ENV"
	kind uint8  // testName (the file name), testPath (the whole path, -path and -regex)
	// flat is the test's pattern, flattened (see flatten): on the file name
	// for testName, on the path find builds (START/...) for testPath.
	flat  [][]patom
	exact bool // flat matches exactly what the test does (see findpat.go)
}

const (
	testName uint8 = iota
	testPath
)

// findAct is an action of the expression that reaches the files found.
type findAct struct {
	delete bool
	exec   findExecCmd // the -exec family's command, unless delete
	reach  findReach
}

// findConj is one branch of a reach: the tests (bits of findExpr.tests)
// that hold and those that do not; maybe is set when the branch also went
// through a test or action whose outcome is not known (-type f, -exec).
type findConj struct {
	pos, neg uint64
	maybe    bool
}

// findReach is where an action is evaluated: any of its branches (none:
// never).
type findReach []findConj

// Limits of the symbolic evaluation; past them the command is unknown.
const (
	// maxFindTests bounds the name and path tests (one bit each).
	maxFindTests = 64
	// maxFindBranches bounds the branches of one condition.
	maxFindBranches = 256
	// maxFindFlat bounds the sequences one pattern flattens to, and the
	// globs one test becomes below one start point.
	maxFindFlat = 64
	// maxFindDepth bounds the nesting of the expression.
	maxFindDepth = 64
)

// findExpr is find's expression, parsed.
type findExpr struct {
	root   *fnode
	tests  []findTest
	acts   []findAct
	prunes findReach // where -prune is evaluated
	// depth: -depth, -d or -delete is given, and -prune does nothing.
	depth bool
	// refused: find refuses the expression (an option no find has) and
	// runs none of its actions.
	refused bool
}

// findPrim is what a primary of find's expression is.
type findPrim uint8

const (
	fpMaybe     findPrim = iota // a test that may be true or false
	fpTrue                      // an option or an action that only prints: true
	fpFalse                     // -false
	fpDepth                     // -depth, -d: true, and -prune does nothing
	fpName                      // -name PATTERN
	fpIName                     // -iname PATTERN
	fpPath                      // -path, -wholename PATTERN
	fpIPath                     // -ipath, -iwholename PATTERN
	fpRegex                     // -regex RE
	fpIRegex                    // -iregex RE
	fpRegexType                 // -regextype TYPE: true; the syntax of the -regex after it
	fpReads                     // a test comparing with FILE (-newer FILE): reads it
	fpWrites                    // -fprint FILE and the like: writes FILE, true
	fpWritesFmt                 // -fprintf FILE FORMAT
	fpPrune                     // -prune
	fpDelete                    // -delete
	fpExec                      // -exec, -execdir, -ok, -okdir
	fpUnknown                   // -follow, -files0-from: the command is unknown
)

// findPrimaries are the primaries of find's expression and the words they
// take (find(1) GLOBAL OPTIONS, POSITIONAL OPTIONS, TESTS, ACTIONS).
// -newerXY is in findPrimary.
var findPrimaries = sync.OnceValue(func() map[string]struct {
	kind findPrim
	args int
} {
	return map[string]struct {
		kind findPrim
		args int
	}{
		// Options: always true.
		"-daystart": {fpTrue, 0}, "-warn": {fpTrue, 0}, "-nowarn": {fpTrue, 0}, "-ignore_readdir_race": {fpTrue, 0},
		"-noignore_readdir_race": {fpTrue, 0}, "-mount": {fpTrue, 0}, "-xdev": {fpTrue, 0}, "-noleaf": {fpTrue, 0},
		"-help": {fpTrue, 0}, "--help": {fpTrue, 0}, "-version": {fpTrue, 0}, "--version": {fpTrue, 0},
		"-maxdepth": {fpTrue, 1}, "-mindepth": {fpTrue, 1}, "-depth": {fpDepth, 0}, "-d": {fpDepth, 0},
		"-regextype": {fpRegexType, 1},
		"-follow":    {fpUnknown, 0}, "-files0-from": {fpUnknown, 1},
		// Tests.
		"-true": {fpTrue, 0}, "-false": {fpFalse, 0},
		"-empty": {fpMaybe, 0}, "-executable": {fpMaybe, 0}, "-readable": {fpMaybe, 0}, "-writable": {fpMaybe, 0},
		"-nogroup": {fpMaybe, 0}, "-nouser": {fpMaybe, 0},
		"-amin": {fpMaybe, 1}, "-atime": {fpMaybe, 1}, "-cmin": {fpMaybe, 1}, "-ctime": {fpMaybe, 1},
		"-mmin": {fpMaybe, 1}, "-mtime": {fpMaybe, 1}, "-used": {fpMaybe, 1}, "-fstype": {fpMaybe, 1},
		"-gid": {fpMaybe, 1}, "-uid": {fpMaybe, 1}, "-group": {fpMaybe, 1}, "-user": {fpMaybe, 1},
		"-inum": {fpMaybe, 1}, "-links": {fpMaybe, 1}, "-perm": {fpMaybe, 1}, "-size": {fpMaybe, 1},
		"-type": {fpMaybe, 1}, "-xtype": {fpMaybe, 1}, "-context": {fpMaybe, 1},
		"-lname": {fpMaybe, 1}, "-ilname": {fpMaybe, 1},
		"-anewer": {fpReads, 1}, "-cnewer": {fpReads, 1}, "-newer": {fpReads, 1}, "-samefile": {fpReads, 1},
		"-name": {fpName, 1}, "-iname": {fpIName, 1},
		"-path": {fpPath, 1}, "-wholename": {fpPath, 1}, "-ipath": {fpIPath, 1}, "-iwholename": {fpIPath, 1},
		"-regex": {fpRegex, 1}, "-iregex": {fpIRegex, 1},
		// Actions.
		"-print": {fpTrue, 0}, "-print0": {fpTrue, 0}, "-ls": {fpTrue, 0}, "-printf": {fpTrue, 1}, "-quit": {fpTrue, 0},
		"-fprint": {fpWrites, 1}, "-fprint0": {fpWrites, 1}, "-fls": {fpWrites, 1}, "-fprintf": {fpWritesFmt, 2},
		"-prune": {fpPrune, 0}, "-delete": {fpDelete, 0},
		"-exec": {fpExec, 0}, "-execdir": {fpExec, 0}, "-ok": {fpExec, 0}, "-okdir": {fpExec, 0},
	}
})

// findPrimary returns what the primary t is and how many words it takes;
// false for a word that is no primary. -newerXY REFERENCE compares with
// the time of the file REFERENCE, or with the time REFERENCE itself when Y
// is t (find(1) -newerXY).
func findPrimary(t string) (findPrim, int, bool) {
	if p, ok := findPrimaries()[t]; ok {
		return p.kind, p.args, true
	}
	if x, ok := strings.CutPrefix(t, "-newer"); ok && len(x) == 2 && strings.IndexByte("aBcm", x[0]) >= 0 && strings.IndexByte("aBcmt", x[1]) >= 0 {
		if x[1] == 't' {
			return fpMaybe, 1, true
		}
		return fpReads, 1, true
	}
	return 0, 0, false
}

// findParser parses find's expression from args[i:], adding the files its
// primaries read and write to the command, and analysing the commands of
// -exec as commands of their own.
type findParser struct {
	c    *cmdCtx
	args []sword
	i    int
	e    *findExpr
	syn  reSyntax // the syntax of the next -regex (-regextype)
	why  string   // why the expression cannot be known: the command is unknown
}

// parseFind parses the expression args[i:]; an empty one is -print. It
// returns nil, the command unknown, on an expression find would refuse or
// one safezone cannot follow.
func (c *cmdCtx) parseFind(args []sword, i int) *findExpr {
	p := &findParser{c: c, args: args, i: i, e: &findExpr{}, syn: regexTypes()["findutils-default"]}
	if i == len(args) {
		p.e.root = &fnode{op: fTrue}
	} else {
		p.e.root = p.list(0)
		if p.why == "" && p.i < len(args) {
			p.fail("find's expression has an unexpected " + args[p.i].text())
		}
	}
	if p.why == "" {
		p.e.evaluate()
		if p.e.root == nil {
			p.fail("find's expression has more branches than safezone follows")
		}
	}
	if p.why != "" {
		c.unknown(p.why)
		return nil
	}
	return p.e
}

func (p *findParser) fail(why string) *fnode {
	if p.why == "" {
		p.why = why
	}
	return &fnode{op: fTrue}
}

// peek returns the next word's text, and false at the end, or on a word
// that is not static (it could be any primary).
func (p *findParser) peek() (string, bool) {
	if p.i >= len(p.args) {
		return "", false
	}
	w := p.args[p.i]
	if w.unknown != "" {
		p.fail("a find expression word that is not static may be an action: " + w.src)
		return "", false
	}
	return w.lit, true
}

// list: or (',' or)*, the lowest precedence.
func (p *findParser) list(depth int) *fnode {
	if depth > maxFindDepth {
		return p.fail("find's expression is nested too deep")
	}
	n := p.or(depth)
	for p.why == "" {
		if t, ok := p.peek(); !ok || t != "," {
			break
		}
		p.i++
		n = &fnode{op: fComma, l: n, r: p.or(depth)}
	}
	return n
}

// or: and ('-o' and)*.
func (p *findParser) or(depth int) *fnode {
	n := p.and(depth)
	for p.why == "" {
		if t, ok := p.peek(); !ok || t != "-o" && t != "-or" {
			break
		}
		p.i++
		n = &fnode{op: fOr, l: n, r: p.and(depth)}
	}
	return n
}

// and: not (['-a'] not)*: juxtaposition is -a.
func (p *findParser) and(depth int) *fnode {
	n := p.not(depth)
	for p.why == "" {
		t, ok := p.peek()
		if !ok || t == ")" || t == "-o" || t == "-or" || t == "," {
			break
		}
		if t == "-a" || t == "-and" {
			p.i++
		}
		n = &fnode{op: fAnd, l: n, r: p.not(depth)}
	}
	return n
}

// not: ('!' | '-not') not | '(' list ')' | primary.
func (p *findParser) not(depth int) *fnode {
	if depth > maxFindDepth {
		return p.fail("find's expression is nested too deep")
	}
	t, ok := p.peek()
	if !ok {
		return p.fail("find's expression ends where it expects a test")
	}
	switch t {
	case "!", "-not":
		p.i++
		return &fnode{op: fNot, l: p.not(depth + 1)}
	case "(":
		p.i++
		if t, ok := p.peek(); ok && t == ")" {
			return p.fail("find's expression has empty parentheses")
		}
		n := p.list(depth + 1)
		if t, ok := p.peek(); !ok || t != ")" {
			return p.fail("find's expression has an unclosed parenthesis")
		}
		p.i++
		return n
	case ")", "-o", "-or", ",", "-a", "-and":
		return p.fail("find's expression has " + t + " where it expects a test")
	}
	return p.primary(t)
}

// primary parses the primary t at p.i and the words it takes.
func (p *findParser) primary(t string) *fnode {
	kind, nargs, ok := findPrimary(t)
	switch {
	case !ok && strings.HasPrefix(t, "--"):
		// No find has such a primary (GNU's --help and --version are in
		// the table): it refuses the expression and runs nothing. What
		// the words before did as find read them stays (-fprint FILE is
		// opened then).
		p.e.refused = true
		p.i = len(p.args)
		return &fnode{op: fTrue}
	case !ok:
		return p.fail("find: " + t + " is not a primary safezone knows")
	}
	start := p.i
	p.i++
	if kind == fpExec {
		return p.exec(start)
	}
	if p.i+nargs > len(p.args) {
		return p.fail("find " + t + " lacks its value")
	}
	vals := p.args[p.i : p.i+nargs]
	p.i += nargs
	for _, v := range vals {
		if v.unknown != "" || v.split {
			return p.fail("find " + t + " takes a value that is not static: " + v.src)
		}
	}
	switch kind {
	case fpTrue:
		return &fnode{op: fTrue}
	case fpFalse:
		return &fnode{op: fFalse}
	case fpDepth:
		p.e.depth = true
		return &fnode{op: fTrue}
	case fpUnknown:
		if t == "-follow" {
			return p.fail("find -follow follows the symbolic links below what it reads")
		}
		return p.fail("find " + t + " reads its start points from a file")
	case fpRegexType:
		syn, known := regexTypes()[vals[0].lit]
		if !known {
			return p.fail("find -regextype " + vals[0].lit + " is a syntax safezone does not read")
		}
		p.syn = syn
		return &fnode{op: fTrue}
	case fpReads:
		p.c.add(vals[0], Read)
		return &fnode{op: fTest}
	case fpWrites, fpWritesFmt:
		p.c.add(vals[0], Write)
		return &fnode{op: fTrue}
	case fpPrune:
		return &fnode{op: fPrune}
	case fpDelete:
		p.e.depth = true
		p.e.acts = append(p.e.acts, findAct{delete: true})
		return &fnode{op: fAct, idx: len(p.e.acts) - 1}
	case fpName, fpIName, fpPath, fpIPath, fpRegex, fpIRegex:
		return p.test(t, kind, vals[0].lit)
	}
	return &fnode{op: fTest}
}

// test parses a name or path test.
func (p *findParser) test(t string, kind findPrim, pat string) *fnode {
	var n *pnode
	var exact bool
	var why string
	tk := testPath
	switch kind {
	case fpName, fpIName:
		tk = testName
		n, exact, why = fnmatchPattern(pat, false, kind == fpIName)
	case fpPath, fpIPath:
		n, exact, why = fnmatchPattern(pat, true, kind == fpIPath)
	default:
		if !gnuFind {
			return p.fail("find " + t + ": the regular expressions of this system's find are not GNU's")
		}
		n, exact, why = regexPattern(pat, p.syn, kind == fpIRegex)
	}
	if why != "" {
		return p.fail("find " + t + ": " + why)
	}
	flat, ok := flatten(n, maxFindFlat)
	if !ok {
		return p.fail("find " + t + " " + pat + " has more alternatives than safezone follows")
	}
	if len(p.e.tests) == maxFindTests {
		return p.fail("find's expression has more name and path tests than safezone follows")
	}
	p.e.tests = append(p.e.tests, findTest{src: t + " " + pat, pat: pat, kind: tk, flat: flat, exact: exact})
	return &fnode{op: fName, idx: len(p.e.tests) - 1}
}

// exec parses -exec COMMAND ; (or -exec COMMAND {} +) at args[at] and
// analyses COMMAND as a command of its own. "+" ends the command only
// right after "{}", and never for -ok and -okdir (find(1) -exec).
func (p *findParser) exec(at int) *fnode {
	name := p.args[at].lit
	plus := name == "-exec" || name == "-execdir"
	j := at + 1
	for ; j < len(p.args); j++ {
		t := p.args[j].text()
		if t == ";" || plus && t == "+" && j > at+1 && p.args[j-1].text() == "{}" {
			break
		}
	}
	if j >= len(p.args) {
		return p.fail("find " + name + " without its \\; or {} +")
	}
	p.i = j + 1
	words := p.args[at+1 : j]
	if len(words) == 0 {
		return p.fail("find " + name + " without a command")
	}
	x := p.c.findExec(name, words)
	p.e.acts = append(p.e.acts, findAct{exec: x})
	return &fnode{op: fAct, idx: len(p.e.acts) - 1}
}

// evaluate computes the reach of every action and of -prune; past
// maxFindBranches it sets root to nil.
func (e *findExpr) evaluate() {
	ev := &findEval{e: e}
	ev.eval(e.root, findReach{{}})
	if ev.over {
		e.root = nil
	}
}

// findEval is one symbolic evaluation.
type findEval struct {
	e    *findExpr
	over bool // a condition grew past maxFindBranches
}

// eval returns the conditions under which n is true and false when it is
// evaluated under pre, and adds pre to the reach of the actions in it.
func (v *findEval) eval(n *fnode, pre findReach) (t, f findReach) {
	if len(pre) == 0 {
		return nil, nil
	}
	switch n.op {
	case fTest:
		return pre.uncertain(), pre.uncertain()
	case fName:
		return pre.with(uint64(1)<<n.idx, true), pre.with(uint64(1)<<n.idx, false)
	case fTrue:
		return pre, nil
	case fFalse:
		return nil, pre
	case fAct:
		a := &v.e.acts[n.idx]
		a.reach = v.union(a.reach, pre)
		return pre.uncertain(), pre.uncertain()
	case fPrune:
		v.e.prunes = v.union(v.e.prunes, pre)
		return pre, nil
	case fNot:
		t, f = v.eval(n.l, pre)
		return f, t
	case fAnd:
		lt, lf := v.eval(n.l, pre)
		rt, rf := v.eval(n.r, lt)
		return rt, v.union(lf, rf)
	case fOr:
		lt, lf := v.eval(n.l, pre)
		rt, rf := v.eval(n.r, lf)
		return v.union(lt, rt), rf
	}
	// fComma: both are evaluated; the value is the right one's.
	v.eval(n.l, pre)
	return v.eval(n.r, pre)
}

// uncertain returns r with every branch marked maybe.
func (r findReach) uncertain() findReach {
	out := make(findReach, len(r))
	for i, c := range r {
		c.maybe = true
		out[i] = c
	}
	return out
}

// with returns r with test bit holding (pos) or not in every branch,
// leaving out the branches that contradict it.
func (r findReach) with(bit uint64, pos bool) findReach {
	out := make(findReach, 0, len(r))
	for _, c := range r {
		if pos {
			c.pos |= bit
		} else {
			c.neg |= bit
		}
		if c.pos&c.neg == 0 {
			out = append(out, c)
		}
	}
	return out
}

// union returns a ∪ b without duplicate branches.
func (v *findEval) union(a, b findReach) findReach {
	out := append(findReach(nil), a...)
	for _, c := range b {
		dup := false
		for _, o := range out {
			if o == c {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, c)
		}
	}
	if len(out) > maxFindBranches {
		v.over = true
		return out[:maxFindBranches]
	}
	return out
}

// tests returns the indices of the bits set in m.
func testBits(m uint64) []int {
	var out []int
	for m != 0 {
		i := bits.TrailingZeros64(m)
		out = append(out, i)
		m &^= 1 << i
	}
	return out
}
