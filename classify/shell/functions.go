package shell

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/safezonehq/safezone/policy/glob"
	"mvdan.cc/sh/v3/syntax"
)

// This file holds the bodies the analysis walks where they run rather than
// where they are written: function calls (bash(1) FUNCTIONS), the
// iterations of a for loop over static words, and sourced files. Each walk
// past the first counts against maxWalks.

// define records a function definition (bash(1) Shell Function
// Definitions). It runs nothing: each call walks the body at the call site.
// A command run earlier by the same name may have run this function (in a
// loop's next iteration, or from a trap that runs at the end): it is
// unknown. An anonymous function (zsh's, which runs at once) is unknown.
func (a *analyzer) define(f *syntax.FuncDecl) {
	names := f.Names
	if f.Name != nil {
		names = []*syntax.Lit{f.Name}
	}
	if len(names) == 0 {
		a.fail("safezone does not analyse an anonymous function")
		return
	}
	for _, n := range names {
		a.defineName(n.Value, f.Body)
	}
}

// defineName records the function name with the body body. An earlier
// command of that name, run directly or not, becomes unknown.
func (a *analyzer) defineName(name string, body *syntax.Stmt) {
	for i := range a.cmds {
		if c := &a.cmds[i]; len(c.Argv) > 0 && c.Argv[0] == name && c.Unknown == "" {
			c.Unknown = "a function " + name + " defined later in the line may run here (in a loop or a trap)"
		}
	}
	if a.funcs == nil {
		a.funcs = map[string]*funcDef{}
	}
	a.funcs[name] = &funcDef{body: body, sure: a.uncertain == 0}
}

// function returns the function a simple command calls, or nil: bash looks
// a command name without a "/" up among the functions first (bash(1)
// COMMAND EXECUTION). A wrapper (sudo f, command f, xargs f) runs a
// program, never a function.
func (a *analyzer) function(words []sword) (string, *funcDef) {
	if len(words) == 0 || words[0].unknown != "" || strings.Contains(words[0].lit, "/") {
		return "", nil
	}
	name := words[0].lit
	return name, a.funcs[name]
}

// callFunction walks the body of the function fn, called as words, in the
// directory, with the variables and redirections in force here: its
// arguments are the positional parameters; what it changes of the
// directory and the global variables stays; the variables it made local
// get their values back. The call itself is a command of its own with no
// targets but its redirections. A recursive call, or a function whose
// definition may not have run, is unknown.
func (a *analyzer) callFunction(name string, fn *funcDef, words []sword, depth int) {
	a.cmds = append(a.cmds, Command{Argv: texts(words), Cwd: a.cwd, ReadOnly: true})
	idx := len(a.cmds) - 1
	a.lastSimple = idx
	switch {
	case !fn.sure:
		a.cmds[idx].Unknown = name + " may be a function defined in a branch that did not run, or a program"
		return
	case containsStr(a.active, name):
		a.cmds[idx].Unknown = "safezone does not follow the recursive call of " + name
		return
	case a.walks <= 0:
		a.fail("the line calls functions, loops or sources files too many times to follow")
		return
	case a.later != "":
		a.cmds[idx].Unknown = a.later
	}
	a.walks--
	undo := a.applyPrefix()
	defer undo()
	pos, posKnown := a.pos, a.posKnown
	a.pos, a.posKnown = a.expandedHere(words[1:]), true
	a.active = append(a.active, name)
	a.frames = append(a.frames, nil)
	// After a "return", the rest of the body may not run: what it assigns
	// is then not sure.
	returns := hasReturn(fn.body)
	if returns {
		a.uncertain++
	}
	a.stmt(fn.body, depth+1)
	if returns {
		a.uncertain--
	}
	frame := a.frames[len(a.frames)-1]
	for i := len(frame) - 1; i >= 0; i-- {
		if frame[i].had {
			a.setVar(frame[i].name, frame[i].prev)
		} else {
			a.restoreVar(frame[i].name, shellVar{}, false)
		}
	}
	a.frames = a.frames[:len(a.frames)-1]
	a.active = a.active[:len(a.active)-1]
	a.pos, a.posKnown = pos, posKnown
}

// applyPrefix sets the prefix assignments of the command being judged (X=1
// f, X=1 source f.sh), exported, and returns what puts the variables back:
// bash keeps them for the call only.
func (a *analyzer) applyPrefix() func() {
	if len(a.prefix) == 0 {
		return func() {}
	}
	prefix := a.prefix
	prev := make([]localVar, len(prefix))
	for i, p := range prefix {
		old, had := a.vars[p.name]
		prev[i] = localVar{name: p.name, prev: old, had: had}
		v := p.val
		v.exported = true
		a.setVar(p.name, v)
	}
	a.prefix = nil
	return func() {
		for i := len(prev) - 1; i >= 0; i-- {
			a.restoreVar(prev[i].name, prev[i].prev, prev[i].had)
		}
	}
}

// hasReturn reports whether a function body holds a "return" command.
func hasReturn(body *syntax.Stmt) bool {
	found := false
	syntax.Walk(body, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			if l, ok := c.Args[0].Parts[0].(*syntax.Lit); ok && l.Value == "return" {
				found = true
			}
		}
		return !found
	})
	return found
}

// declare walks declare, typeset, local, export and readonly (bash(1)
// SHELL BUILTIN COMMANDS): their assignments, of which local ones (local,
// and declare or typeset without -g, in a function) end with the call.
func (a *analyzer) declare(c *syntax.DeclClause, depth int) {
	local := false
	if n := len(a.frames); n > 0 {
		switch c.Variant.Value {
		case "local":
			local = true
		case "declare", "typeset":
			local = !declGlobal(c.Args)
		}
	}
	export := c.Variant.Value == "export" || declFlag(c.Args, 'x')
	if declFlag(c.Args, 'n') {
		// declare -n r=PATH; r=.: a nameref assigns the variable it names.
		a.setLater(c.Variant.Value + " -n makes a name that assigns another variable")
	}
	for _, as := range c.Args {
		if as.Name != nil && local {
			prev, had := a.vars[as.Name.Value]
			top := &a.frames[len(a.frames)-1]
			*top = append(*top, localVar{name: as.Name.Value, prev: prev, had: had})
			if as.Naked && as.Name.Value == "GLOBIGNORE" {
				// "local GLOBIGNORE" makes a local that is unset.
				a.globIgnore(shellVar{}, false)
			}
		}
		a.statement = true
		a.assign(as, depth)
		a.statement = false
		if v, ok := a.vars[nameOf(as)]; ok && export {
			v.exported = true
			a.vars[nameOf(as)] = v
		}
	}
	ts := a.assigned(c.Args)
	a.cmds = append(a.cmds, Command{Argv: []string{c.Variant.Value}, Cwd: a.cwd, Targets: ts, ReadOnly: !writesAny(ts)})
}

// nameOf is the name an assignment sets, or "".
func nameOf(as *syntax.Assign) string {
	if as.Name == nil {
		return ""
	}
	return as.Name.Value
}

// declGlobal reports whether declare's options hold -g.
func declGlobal(args []*syntax.Assign) bool {
	for _, as := range args {
		if as.Naked && as.Name == nil && as.Value != nil {
			if l, ok := as.Value.Parts[0].(*syntax.Lit); ok && strings.HasPrefix(l.Value, "-") && strings.Contains(l.Value, "g") {
				return true
			}
		}
	}
	return declFlag(args, 'g')
}

// declFlag reports whether declare's options hold the letter flag.
func declFlag(args []*syntax.Assign, flag byte) bool {
	for _, as := range args {
		if as.Naked && as.Name == nil && as.Value != nil {
			if l, ok := as.Value.Parts[0].(*syntax.Lit); ok && strings.HasPrefix(l.Value, "-") && strings.IndexByte(l.Value, flag) >= 0 {
				return true
			}
		}
	}
	return false
}

// assigned notes what the assignments of a statement that runs nothing
// else (X=1; export PAGER=less) mean for the commands after it: setting a
// variable that names code to run (envEffect) or IFS makes them unknown,
// and one that names a file (GIT_INDEX_FILE, GIT_TRACE, TAPE) makes the
// file a target of the statement, which any later program may read or
// write. The assignment itself changes no file, and dies with the Bash
// call's shell.
func (a *analyzer) assigned(as []*syntax.Assign) []Target {
	var out []Target
	for _, x := range as {
		if x.Name == nil {
			continue
		}
		name := x.Name.Value
		if name == "IFS" {
			a.setLater("setting IFS changes how later words split")
			continue
		}
		v, ok := a.assignedVal[name]
		if !ok {
			v = shellVar{} // an array, or an assignment that is not static
		}
		delete(a.assignedVal, name)
		why, files := envEffect(name, v)
		if isExecEnvVar(name) {
			why = "setting " + name + " names a command or code later programs may run"
		}
		if why == "" && len(files) > 0 {
			var ts []Target
			ts, why = a.envTargets(files)
			out = append(out, ts...)
		}
		if why != "" {
			a.setLater(why)
		}
	}
	return out
}

// setLater makes every later command unknown, for why.
func (a *analyzer) setLater(why string) {
	if a.later == "" {
		a.later = why
	}
	if a.laterEver == "" {
		a.laterEver = why
	}
}

// forWords walks "for NAME in WORDS; do BODY; done" (bash(1) Compound
// Commands). When every word is static (literals, and globs whose matches
// the variable then names), the body is walked once per word with NAME
// bound to it; otherwise once, with NAME unknown. The body may run any
// number of times: the directory after the loop is any of those its
// iterations end in, and NAME is unknown after it.
func (a *analyzer) forWords(l *syntax.WordIter, body []*syntax.Stmt, before []string, depth int) {
	name := l.Name.Value
	vals, ok := a.loopValues(l, depth)
	if !ok || len(vals)-1 > a.walks {
		a.setVar(name, shellVar{})
		a.stmts(body, depth+1)
		a.union(before)
		return
	}
	if len(vals) > 1 {
		a.walks -= len(vals) - 1
	}
	for _, v := range vals {
		a.setVar(name, v)
		a.stmts(body, depth+1)
		a.union(before)
	}
	a.setVar(name, shellVar{})
}

// loopValues returns the values a for loop's variable takes, in order, and
// false when they are not static (an expansion; "for x" alone, which
// loops over "$@" unless its words are known) or too many.
func (a *analyzer) loopValues(l *syntax.WordIter, depth int) ([]shellVar, bool) {
	var words []sword
	if !l.InPos.IsValid() {
		if !a.posKnown {
			return nil, false
		}
		words = a.pos
	}
	static := true
	for _, w := range l.Items {
		sw := a.word(w, depth) // walks substitutions
		if sw.unknown != "" {
			static = false
			continue
		}
		words = append(words, a.expandBraceWord(sw)...)
	}
	if !static || len(words) > maxLoopWords {
		return nil, false
	}
	vals := make([]shellVar, 0, len(words))
	for _, w := range words {
		switch {
		case w.unknown != "":
			return nil, false
		case w.glob && hasGlobMeta(w.pat) && !noGlobAll(a.globOpts(w)):
			// The list is expanded here: the options in force now hold
			// for the value, and a pattern that matches nothing only
			// leaves the loop shorter (nullglob and failglob aside).
			var opts []glob.ShellOptions
			for _, o := range a.globOpts(w) {
				o.NullGlob, o.FailGlob = false, false
				opts = append(opts, o)
			}
			vals = append(vals, shellVar{value: w.lit, pat: w.pat, glob: true, known: true, opts: opts})
		default:
			vals = append(vals, shellVar{value: w.lit, known: true})
		}
	}
	return vals, true
}

// sourceFile walks the file a "source" or "." command runs, in this shell
// (bash(1) source): its commands are judged like a script's, in the
// directory and with the variables in force, and what it changes of them
// stays. args, when given, are its positional parameters. It returns why
// the file cannot be walked: no reader (Env.ReadFile), a name without "/"
// (bash looks it up in PATH first), a file the line may have changed
// before sourcing it, one the reader refuses.
func (a *analyzer) sourceFile(w sword, args []sword, depth int) string {
	switch {
	case w.unknown != "" || w.glob:
		return "source runs the commands of a file that is not static"
	case a.env.ReadFile == nil:
		return "source runs the commands of " + w.lit + ", which safezone does not read"
	case !strings.Contains(w.lit, "/"):
		return "source looks " + w.lit + " up in PATH before the working directory"
	}
	p := w.lit
	if !strings.HasPrefix(p, "/") {
		if len(a.cwd) != 1 {
			return "source: the directory it runs in is not sure"
		}
		p = strings.TrimSuffix(a.cwd[0], "/") + "/" + p
	}
	if via := a.throughLink(p); via != "" {
		return "source runs a file through the link " + via + " made earlier in the line"
	}
	if c := a.changedEarlier(p); c != "" {
		return "source runs " + w.lit + ", which " + c + " may change before it runs"
	}
	if a.walks <= 0 {
		return "the line calls functions, loops or sources files too many times to follow"
	}
	data, err := a.env.ReadFile(p)
	if err != nil {
		return "source runs " + w.lit + ", which safezone cannot read: " + err.Error()
	}
	a.walks--
	undo := a.applyPrefix()
	defer undo()
	pos, posKnown := a.pos, a.posKnown
	if len(args) > 0 {
		a.pos, a.posKnown = args, true
	}
	returns := strings.Contains(string(data), "return")
	if returns {
		a.uncertain++
	}
	a.script(string(data), depth+1)
	if returns {
		a.uncertain--
	}
	if len(args) > 0 {
		a.pos, a.posKnown = pos, posKnown
	}
	return ""
}

// changedEarlier returns the command that ran earlier in the line and may
// have changed the file at p (a write of p or of a directory above it, a
// glob or pattern write, a program whose accesses are not known, an
// unknown command), or "".
func (a *analyzer) changedEarlier(p string) string {
	for i := range a.cmds {
		c := &a.cmds[i]
		if c.ReadOnly && c.Unknown == "" && c.Runs == "" {
			continue
		}
		if c.Unknown != "" || c.Runs != "" {
			return strings.Join(c.Argv, " ")
		}
		for _, t := range c.Targets {
			if t.Access != Write {
				continue
			}
			if t.Glob || t.Pattern || under(path.Clean(t.Path), path.Clean(p)) {
				return strings.Join(c.Argv, " ")
			}
		}
	}
	return ""
}

// wroteAround returns the command that wrote, earlier in the line, the
// directory dir, something below it, or a directory above it (a program
// named skip aside), or "".
func (a *analyzer) wroteAround(dir, skip string) string {
	for i := range a.cmds {
		c := &a.cmds[i]
		if len(c.Argv) > 0 && c.Argv[0] == skip {
			continue
		}
		for _, t := range c.Targets {
			p := path.Clean(t.Path)
			if t.Glob || t.Pattern {
				p, _ = glob.LiteralPrefix(t.Path)
			}
			if t.Access == Write && (under(dir, p) || under(p, dir)) {
				return strings.Join(c.Argv, " ")
			}
		}
	}
	return ""
}

// expandBraceWord returns the words bash's brace expansion makes of the
// static word w ("{a,b}c" is "ac" and "bc"; "x{1..3}" is x1 x2 x3; bash(1)
// Brace Expansion), or w itself. A word with too many alternatives is
// unknown. As bash expands tildes after braces, an alternative that starts
// the word with an unquoted "~" ("{cat,~/.ssh/id_rsa}") has it expanded
// (tildeAfterBrace).
func (a *analyzer) expandBraceWord(w sword) []sword {
	if w.unknown != "" || !w.brace {
		return []sword{w}
	}
	pat, ok := braceSequences(w.pat)
	if !ok {
		w.unknown = "too many brace alternatives in " + w.src
		return []sword{w}
	}
	if !hasBraceList(pat) {
		if pat == w.pat {
			return []sword{w}
		}
		return []sword{braceAlternative(w, pat)}
	}
	alts, ok := glob.ExpandBraces(pat, glob.MaxAlternatives)
	if !ok {
		w.unknown = "too many brace alternatives in " + w.src
		return []sword{w}
	}
	out := make([]sword, len(alts))
	for i, alt := range alts {
		out[i] = a.tildeAfterBrace(w, braceAlternative(w, alt))
	}
	return out
}

// tildeAfterBrace expands the "~" that starts alt, an alternative of the
// brace word w, when w's source has an unquoted "~" after a "{" or ","
// (bash(1) EXPANSION: brace expansion comes before tilde expansion); a
// "~user" or a home not known makes it unknown.
func (a *analyzer) tildeAfterBrace(w, alt sword) sword {
	if !strings.HasPrefix(alt.lit, "~") || !(strings.Contains(w.src, "{~") || strings.Contains(w.src, ",~")) {
		return alt
	}
	rest, ok := strings.CutPrefix(alt.lit, "~")
	if ok && rest != "" && !strings.HasPrefix(rest, "/") {
		alt.unknown = "~" + rest + " is not expanded"
		return alt
	}
	home, why := a.home()
	if why != "" {
		alt.unknown = why
		return alt
	}
	alt.lit, alt.src = home+rest, home+rest
	alt.pat = glob.Escape(home) + strings.TrimPrefix(alt.pat, "~")
	return alt
}

// braceAlternative is the word w made of one of its brace alternatives,
// the pattern alt, whose braces left are literal.
func braceAlternative(w sword, alt string) sword {
	lit := glob.Unescape(alt)
	alt = escapeBraces(alt)
	return sword{lit: lit, pat: alt, glob: w.glob && hasGlobMeta(alt), src: lit}
}

// escapeBraces escapes the braces of a pattern that are not escaped.
func escapeBraces(p string) string {
	if !strings.ContainsAny(p, "{}") {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			b.WriteByte(p[i])
			i++
		case '{', '}':
			b.WriteByte('\\')
		}
		if i < len(p) {
			b.WriteByte(p[i])
		}
	}
	return b.String()
}

// hasGlobMeta reports whether bash expands the pattern p as a glob
// (glob.IsPattern).
func hasGlobMeta(p string) bool { return glob.IsPattern(p) }

// under reports whether p is root or below it, by whole path components.
func under(root, p string) bool {
	if root == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == root || strings.HasPrefix(p, root+"/")
}

// braceSequences rewrites the sequence expressions of a pattern, {X..Y} and
// {X..Y..INCR} with X and Y integers or single letters (bash(1) Brace
// Expansion), as lists: "{1..3}" is "{1,2,3}". It returns false past
// glob.MaxAlternatives terms. Any other brace is left as it is.
func braceSequences(p string) (string, bool) {
	if !strings.Contains(p, "..") {
		return p, true
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			b.WriteByte(p[i])
			if i+1 < len(p) {
				i++
				b.WriteByte(p[i])
			}
			continue
		case '{':
			end := strings.IndexByte(p[i:], '}')
			if end > 0 {
				if terms, ok, isSeq := sequenceTerms(p[i+1 : i+end]); isSeq {
					if !ok {
						return "", false
					}
					if len(terms) == 1 {
						b.WriteString(terms[0])
					} else {
						b.WriteString("{" + strings.Join(terms, ",") + "}")
					}
					i += end
					continue
				}
			}
		}
		b.WriteByte(p[i])
	}
	return b.String(), true
}

// sequenceTerms returns the terms of the sequence expression s (the text
// between the braces), whether there are at most glob.MaxAlternatives,
// and whether s is one.
func sequenceTerms(s string) (terms []string, ok, isSeq bool) {
	parts := strings.Split(s, "..")
	if len(parts) != 2 && len(parts) != 3 {
		return nil, false, false
	}
	incr := 1
	if len(parts) == 3 {
		n, err := strconv.Atoi(parts[2])
		if err != nil {
			return nil, false, false
		}
		incr = max(n, -n, 1)
	}
	x, errX := strconv.Atoi(parts[0])
	y, errY := strconv.Atoi(parts[1])
	letters := errX != nil || errY != nil
	if letters {
		if len(parts[0]) != 1 || len(parts[1]) != 1 || !isLetter(parts[0][0]) || !isLetter(parts[1][0]) {
			return nil, false, false
		}
		x, y = int(parts[0][0]), int(parts[1][0])
	}
	if (max(x, y)-min(x, y))/incr+1 > glob.MaxAlternatives {
		return nil, false, true
	}
	step := incr
	if y < x {
		step = -incr
	}
	// A term with a leading zero pads every term to the widest's width.
	width := 0
	for _, t := range parts[:2] {
		if d := strings.TrimPrefix(t, "-"); !letters && len(d) > 1 && d[0] == '0' {
			width = max(len(parts[0]), len(parts[1]))
		}
	}
	for v := x; (step > 0 && v <= y) || (step < 0 && v >= y); v += step {
		switch {
		case letters:
			terms = append(terms, glob.Escape(string(rune(v))))
		case width > 0:
			terms = append(terms, fmt.Sprintf("%0*d", width, v))
		default:
			terms = append(terms, strconv.Itoa(v))
		}
	}
	return terms, true, true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
