package shell

import (
	"math/rand/v2"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/safezonehq/safezone/classify/shell/shelltest"
	"github.com/safezonehq/safezone/policy/glob"
)

// findTree is the in-memory tree FuzzFindExpr evaluates expressions over,
// below the project /p (a trailing "/" marks a directory).
var findTree = []string{
	".env", ".env.local", ".envrc", "a.tmp", "A.TMP", "key.pem", "b]c", "x*y", "é.txt", "[x]",
	"src/", "src/main.go", "src/.env", "src/sub/", "src/sub/x.go", "src/sub/.hidden",
	".git/", ".git/config", ".git/hooks/", ".git/hooks/pre-commit", "docs/", "docs/README.md", "empty/",
}

// findStarts are the start points FuzzFindExpr picks from.
var findStarts = []string{".", "./", "src", "./src/", ".git"}

// FuzzFindExpr parses find expressions and checks the symbolic evaluation
// against a direct one: never a panic; for a known expression, every path
// of findTree that the direct evaluation (each test evaluated on the path
// itself, each test that is not about names may be true or false, -prune
// cutting the walk as find does) brings an action to is covered by that
// action's targets (a pattern matching it and none of its exceptions, the
// path itself, a directory above it read or written recursively); and the
// globs of every exactly translated test match exactly the paths the test
// holds for.
//
//	go test ./classify/shell -run XXX -fuzz FuzzFindExpr -fuzztime=60s
func FuzzFindExpr(f *testing.F) {
	for _, c := range shelltest.Cases {
		for _, in := range c.In {
			if rest, ok := strings.CutPrefix(in, "find . "); ok && !strings.ContainsAny(rest, `'"\$`) {
				f.Add(uint8(0), rest)
			}
		}
	}
	for i, cmd := range findCommands(findKernelSeed, 60) {
		// The generator's commands, unquoted (the fuzz input is words).
		words := strings.Fields(cmd)
		j := 1
		for j < len(words) && !findExprWord(words[j]) {
			j++
		}
		expr := strings.NewReplacer(`\(`, "(", `\)`, ")", `\;`, ";", "'", "").Replace(strings.Join(words[j:], " "))
		f.Add(uint8(i), expr)
	}
	f.Add(uint8(1), "-path ./.git -prune -o -name *.go -exec cat {} +")
	f.Add(uint8(0), "-path ./.git -size -1k -prune -o -name config -exec rm {} +")
	f.Add(uint8(0), "! -name sub -name src -exec rm -rf {} +")
	f.Add(uint8(2), "-regextype posix-extended -regex .*/(a|b)[^/]* -delete")
	f.Add(uint8(3), "! ( -iname *.MD -o -ipath */SUB/* ) , -name .e[!x]* -exec cat {} ;")
	f.Fuzz(func(t *testing.T, start uint8, expr string) {
		if len(expr) > 400 {
			return
		}
		checkFindExpr(t, findStarts[int(start)%len(findStarts)], strings.Fields(expr))
	})
}

// checkFindExpr parses "find START WORDS..." and compares the symbolic
// evaluation with the direct one over findTree.
func checkFindExpr(t *testing.T, start string, words []string) {
	a := &analyzer{env: testEnv, vars: map[string]shellVar{}, commands: commands[:], walks: maxWalks, cwd: []string{shelltest.Cwd}}
	c := &cmdCtx{a: a, name: "find", cmd: &Command{}}
	args := make([]sword, len(words))
	for i, w := range words {
		args[i] = literal(w)
	}
	starts := []sword{literal(start)}
	e := c.parseFind(args, 0)
	if e == nil || c.cmd.Unknown != "" {
		return
	}
	c.findTargets(starts, e)
	if c.cmd.Unknown != "" {
		return
	}
	st, why := a.targets(starts[0], Read)
	if why != "" || len(st) != 1 {
		t.Fatalf("start %q: %v %q", start, st, why)
	}
	// Exact tests: their globs select what they hold for, no more.
	for i := range e.tests {
		gs, exact, why := e.testGlobsExact(i, st[0])
		if why != "" || !exact {
			continue
		}
		for _, p := range findPaths(start) {
			if p.path == start {
				continue // globs are of the paths below the start point
			}
			abs := path.Join(shelltest.Cwd, p.path)
			want := e.testMatches(i, p.path)
			got := slices.ContainsFunc(gs, func(g string) bool { return glob.Cache(nil).Match(g, abs) })
			if got != want {
				t.Errorf("find %s %s: test %s (exact) holds for %s: %v; its globs %q match %s: %v", start, strings.Join(words, " "), e.tests[i].src, p.path, want, gs, abs, got)
			}
		}
	}
	// Actions: what the direct evaluation reaches is covered.
	d := &findDirect{e: e}
	d.walk(start)
	for ai, paths := range d.reached {
		act := &e.acts[ai]
		var ts []Target
		if act.delete {
			ts = c.cmd.Targets
		} else {
			// Only programs that open their operands: what another does
			// with a file name ("echo {}") is its own table's answer.
			if !slices.Contains([]string{"cat", "rm", "wc", "head"}, act.exec.words[0].lit) ||
				!slices.ContainsFunc(act.exec.words, func(w sword) bool { return w.lit == "{}" }) {
				continue
			}
			for k := act.exec.from; k < act.exec.to; k++ {
				if a.cmds[k].Unknown != "" {
					return
				}
				ts = append(ts, a.cmds[k].Targets...)
			}
		}
		// rm -r removes what lies below too.
		recursive := !act.delete && act.exec.words[0].lit == "rm" && slices.ContainsFunc(act.exec.words, func(w sword) bool {
			return w.lit == "-r" || w.lit == "-rf" || w.lit == "-fr" || w.lit == "-R"
		})
		for _, p := range paths {
			reached := []string{path.Join(shelltest.Cwd, p)}
			if recursive {
				for _, q := range findPaths(start) {
					if strings.HasPrefix(q.path, strings.TrimSuffix(p, "/")+"/") {
						reached = append(reached, path.Join(shelltest.Cwd, q.path))
					}
				}
			}
			for _, abs := range reached {
				if !findTargetCovers(ts, abs) {
					t.Errorf("find %s %s: action %d reaches %s, not among its targets %v", start, strings.Join(words, " "), ai, abs, ts)
				}
			}
		}
	}
}

// findPath is a path of findTree as find names it below a start point.
type findPath struct {
	path string
	dir  bool
}

// findPaths returns the start point and the paths of findTree below it, as
// find builds them (the start point as given, then "/" and the rest).
func findPaths(start string) []findPath {
	clean := path.Clean(start)
	out := []findPath{{start, true}}
	for _, f := range findTree {
		name, dir := strings.CutSuffix(f, "/")
		rel := name
		if clean != "." {
			var ok bool
			if rel, ok = strings.CutPrefix(name, clean+"/"); !ok {
				continue
			}
		}
		p := start + "/" + rel
		if strings.HasSuffix(start, "/") {
			p = start + rel
		}
		out = append(out, findPath{p, dir})
	}
	return out
}

// findDirect evaluates an expression on each path directly.
type findDirect struct {
	e       *findExpr
	reached map[int][]string // the paths each action may be evaluated on
	pruned  bool             // -prune was surely evaluated on the current path
}

// walk evaluates the expression on the start point and the paths below it,
// in find's order, skipping what -prune surely cuts (unless -depth or
// -delete).
func (d *findDirect) walk(start string) {
	d.reached = map[int][]string{}
	var cut []string
	for _, p := range findPaths(start) {
		if slices.ContainsFunc(cut, func(c string) bool { return strings.HasPrefix(p.path, strings.TrimSuffix(c, "/")+"/") }) {
			continue
		}
		d.pruned = false
		d.eval(d.e.root, p.path, true)
		if d.pruned && p.dir && !d.e.depth {
			cut = append(cut, p.path)
		}
	}
}

// eval returns whether n may be true and may be false on p; sure is
// whether n is evaluated whatever the tests of unknown outcome answer.
func (d *findDirect) eval(n *fnode, p string, sure bool) (bool, bool) {
	switch n.op {
	case fTest:
		return true, true
	case fName:
		m := d.e.testMatches(n.idx, p)
		return m, !m
	case fTrue:
		return true, false
	case fFalse:
		return false, true
	case fAct:
		d.reached[n.idx] = append(d.reached[n.idx], p)
		return true, true
	case fPrune:
		d.pruned = d.pruned || sure
		return true, false
	case fNot:
		t, f := d.eval(n.l, p, sure)
		return f, t
	case fAnd:
		lt, lf := d.eval(n.l, p, sure)
		rt, rf := false, false
		if lt {
			rt, rf = d.eval(n.r, p, sure && !lf)
		}
		return rt, lf || rf
	case fOr:
		lt, lf := d.eval(n.l, p, sure)
		rt, rf := false, false
		if lf {
			rt, rf = d.eval(n.r, p, sure && !lt)
		}
		return lt || rt, rf
	}
	d.eval(n.l, p, sure)
	return d.eval(n.r, p, sure)
}

// findTargetCovers reports whether a target covers the absolute path abs
// (see TestShellKernelFind).
func findTargetCovers(ts []Target, abs string) bool {
	for _, t := range ts {
		if t.Pattern {
			if glob.Cache(nil).Match(t.Path, abs) && !slices.ContainsFunc(t.Except, func(x string) bool { return glob.Cache(nil).Match(x, abs) }) {
				return true
			}
			continue
		}
		tp := path.Clean(t.Path)
		if tp == abs || strings.HasPrefix(abs, tp+"/") && (t.Recursive || t.Access == Read) {
			return true
		}
	}
	return false
}

// Pools of the generator: patterns of -name, -path and -regex, and the
// actions.
var (
	findGenNames = []string{".env*", "*.tmp", "*.TMP", ".E*", "*.go", "[.]env", ".e[nm]v", "*", "?e*", "[!.]*",
		"*.[pP][eE][mM]", "config", ".git", "src", "pre-*", "*[[:upper:]]*", `\.env`, "*.md", "*.o", "sub", "[a-c]*"}
	findGenPaths = []string{"./src/*", "*/src/*", "./.git", "./.git/*", "*/.env*", "./build*", "*.tmp", "./[a-z]*",
		"*/.*", "./.E*", "*/node_modules/*", "src/*", "./src", "*sub*", "./*/*.go", "*/[!.]*"}
	findGenRegexes = []string{`.*\.go`, `.*/\.env.*`, `\./[a-z]*\.tmp`, `.*/\(src\|build\)/.*`, `.*[.]pem`, `\./\.git/.*`,
		`.*/[^/]*\.md`, `.*e?nv`, `.*/a.+`, `.*`, `\./.*/.*`, `.*/\.[a-z]+`, `.*\(tmp\|TMP\)`, `\./src/[^/]*`}
	findGenERE   = []string{`.*/(src|build)/.*`, `.*\.(go|md)`, `\./\.env(\..*)?`, `.*/[[:upper:]].*`, `.*[^o]`}
	findGenBRE   = []string{`.*/\(src\|build\)/.*`, `.*\.go\?`, `\./[a-z]\+\.tmp`, `.*[[:digit:]].*`, `.*/\.e.\+`}
	findGenTests = []string{"-type f", "-type d", "-empty", "-size -1k", "-true", "-false", "-readable", "-newer README.md"}
	findGenActs  = []string{"-exec cat {} +", `-exec cat {} \;`, "-delete", "-print", "-fprint out.txt", "-exec rm {} +",
		`-execdir cat {} \;`, "-prune", "-exec cat -- {} +", `-exec wc -c {} \;`, "-exec rm -rf {} +"}
	findGenStarts = []string{".", "./", "src", "./src", ". src", "build docs", ".git"}
)

// findCommands generates n find commands from seed: start points, global
// options, and expressions of -name, -iname, -path, -ipath, -regex,
// -iregex (in both syntaxes), other tests, the operators and parentheses,
// with actions that read, write, delete and prune.
func findCommands(seed uint64, n int) []string {
	r := rand.New(rand.NewPCG(seed, seed^0x5eed))
	out := make([]string, 0, n)
	for len(out) < n {
		g := &findGen{r: r}
		e := g.expr(0)
		if !g.act {
			e += " " + g.pick(findGenActs)
		}
		var opts []string
		if r.IntN(4) == 0 {
			opts = append(opts, "-maxdepth "+strconv.Itoa(r.IntN(3)+1))
		}
		if r.IntN(6) == 0 {
			opts = append(opts, "-depth")
		}
		pre := ""
		if r.IntN(8) == 0 {
			pre = "-H "
		}
		cmd := strings.Join(append([]string{"find " + pre + g.pick(findGenStarts)}, append(opts, e)...), " ")
		if !slices.Contains(out, cmd) {
			out = append(out, cmd)
		}
	}
	return out
}

// findGen generates one expression.
type findGen struct {
	r   *rand.Rand
	act bool // an action was placed
}

func (g *findGen) pick(pool []string) string { return pool[g.r.IntN(len(pool))] }

func (g *findGen) expr(depth int) string {
	k := g.r.IntN(10)
	if depth >= 3 {
		k = 0
	}
	switch k {
	case 0, 1, 2, 3:
		return g.leaf()
	case 4:
		return `! ` + g.expr(depth+1)
	case 5:
		return `\( ` + g.expr(depth+1) + ` \)`
	case 6:
		return g.expr(depth+1) + " -o " + g.expr(depth+1)
	case 7:
		return g.expr(depth+1) + " -a " + g.expr(depth+1)
	case 8:
		return g.expr(depth+1) + " , " + g.expr(depth+1)
	}
	return g.expr(depth+1) + " " + g.expr(depth+1)
}

func (g *findGen) leaf() string {
	q := func(s string) string { return "'" + s + "'" }
	switch g.r.IntN(13) {
	case 0, 1:
		return "-name " + q(g.pick(findGenNames))
	case 2:
		return "-iname " + q(g.pick(findGenNames))
	case 3:
		return "-path " + q(g.pick(findGenPaths))
	case 4:
		return "-ipath " + q(g.pick(findGenPaths))
	case 5:
		return "-regex " + q(g.pick(findGenRegexes))
	case 6:
		return "-iregex " + q(g.pick(findGenRegexes))
	case 7:
		return "-regextype posix-extended -regex " + q(g.pick(findGenERE))
	case 12:
		return "-regextype posix-basic -iregex " + q(g.pick(findGenBRE))
	case 8, 9:
		g.act = true
		return g.pick(findGenActs)
	}
	return g.pick(findGenTests)
}
