// Package shell finds what a Bash command line reads, writes and runs,
// without running it. [Analyze] parses the line with mvdan.cc/sh (bash
// dialect) and walks every simple command in it: lists, pipes, subshells,
// groups, if, for, while, case, command and process substitutions, the
// scripts of "bash -c", "sh -c", "su -c" and the like, and the commands
// other commands run (find -exec, xargs, git bisect run). A function's
// body is walked where it is called, a for loop over static words once per
// word, and a sourced file, where Env.ReadFile reads it, as part of the
// line. For each command it gives the argv, the directory it runs in, the
// paths it reads or writes (from the redirections and from a table of what
// each known program does with its operands, table.go), the program or
// script it runs whose own accesses cannot be seen ([Command.Runs]), and
// why any of that is unknown. Symbolic links the line makes lead its later
// paths where they point ([Target.Via]).
//
// Only static words are trusted: literals, quotes, ANSI-C quotes, "~",
// $HOME, $PWD, $TMPDIR, $CLAUDE_PROJECT_DIR, variables assigned a literal
// earlier in the same line, loop variables over static words and the
// parameters of a function call or a "bash -c" script. Anything else in a
// target position (another expansion, a command substitution, arithmetic,
// inline code such as eval or python -c, an option the table does not
// know) makes the command's targets unknown; a caller deciding on the
// analysis must then ask, never allow.
//
// The package knows nothing of policies or decisions: it reports paths as
// the command names them (joined to the command's directory, not
// resolved), and globs as patterns.
package shell

import (
	"fmt"
	"path"
	"strings"

	"github.com/safezonehq/safezone/policy/glob"
	"mvdan.cc/sh/v3/syntax"
)

// Limits of the shell analysis; past them a command is unknown.
const (
	// MaxCommand is the longest command analysed (64 KiB).
	MaxCommand = 64 << 10
	// maxShellDepth bounds nesting: statements in statements, and "bash -c"
	// scripts in scripts.
	maxShellDepth = 32
	// maxCwds bounds the directories a command may run in after "cd"s whose
	// success is uncertain.
	maxCwds = 8
	// maxWalks bounds the bodies walked more than once or from elsewhere:
	// function calls, loop iterations, sourced files. Past it the line is
	// unknown.
	maxWalks = 64
	// maxLoopWords bounds the words of a for loop walked one by one; a
	// longer list leaves the loop variable unknown.
	maxLoopWords = 16
)

// Env is what the shell analysis takes from the hook's environment.
type Env struct {
	Cwd        string // the call's cwd, absolute
	Home       string // $HOME
	ProjectDir string // $CLAUDE_PROJECT_DIR
	// TmpDir is the hook's $TMPDIR; empty leaves $TMPDIR unknown.
	TmpDir string
	// StateDir is safezone's state directory (policy.StateDir), which
	// "safezone trust FILE" writes; empty when unknown.
	StateDir string
	// ReadFile, when set, returns the contents of a file the line sources
	// ("source ./env.sh", ". ./x"): its commands are then judged like a
	// script's, in the directory and with the variables in force. It must
	// refuse files over a size its caller chooses (an error) and never
	// fail open: an error leaves the source command unknown, as does a nil
	// ReadFile. The analysis stays a function of the command and Env.
	ReadFile func(path string) ([]byte, error)
	// LookPath, when set, returns the file a program name without a slash
	// runs when $PATH finds it in a directory the agent's commands may
	// write (a relative entry, one inside the sandbox or a temporary
	// directory), else "": such a program ("ls" found as ./ls) is judged
	// as a program safezone cannot see into (Command.Runs), never by the
	// table entry of its name. Bash builtins and functions are not looked
	// up, as bash runs them first.
	LookPath func(name string) string
}

// Target is one path a shell command reads or writes.
type Target struct {
	Path   string // absolute (the command's cwd joined), not cleaned
	Given  string // as written, after static expansion
	Access Access // read or write
	// Glob is true when Path is a pattern bash expands (unquoted glob
	// characters, bash's syntax, quoted characters escaped with a
	// backslash, Given the word itself): it is expanded against the file
	// system ([glob.Expand]) with each of GlobOpts, and as a pattern
	// checked against deny rules ([glob.FromShell]).
	Glob bool
	// GlobOpts are the shell options that may be in force where bash
	// expands the glob (several when a shopt or GLOBIGNORE before it may
	// or may not have run); never empty for a glob.
	GlobOpts []glob.ShellOptions
	// GlobDir is the directory a glob written relative expands in (Path
	// is it joined, escaped); GLOBIGNORE matches the names relative to
	// it. Empty for an absolute glob.
	GlobDir string
	// Pattern marks a target that only names files by pattern, like
	// find's DIR/**/NAME: it is judged against deny and ask rules, never
	// expanded.
	Pattern bool
	// Except, for a pattern target, are globs the paths it selects do
	// not match (find's negated tests, the directories -prune leaves
	// out): a path that matches one is not selected. Empty for most.
	Except []string
	// Recursive marks a write that reaches everything below a directory
	// (rm -r, find -delete, tar -x): protected paths below it count.
	Recursive bool
	// Below marks a read that reaches every file below a directory (grep
	// -r, rg, git grep, diff -r, find . -exec cat {} +): the files a deny
	// rule matches there count when no kernel hides them.
	Below bool
	// Cwd marks the working directory of a program whose own accesses are
	// not known (Command.Runs): a read of the directory it works in, so
	// that a program run in a directory outside is an outside read.
	Cwd bool
	// Members marks the recursive write of the working directory by a
	// program that chooses the files itself (an archive extracted in
	// place, git restoring the work tree from its objects): the files are
	// not known and the command runs confined (Command.Runs), so the
	// directory's protected files below are left to the kernel sandbox. A
	// file outside it needs an option (tar -P, -C DIR), which the
	// analysis sees.
	Members bool
	// Via is the symbolic link, made earlier in the same line (ln -s,
	// cp -s, mv of such a link), that Path goes through: Given named the
	// link, Path is where it leads, its directory joined lexically to its
	// target.
	Via string
}

// Command is one simple command of a shell command line, after
// wrapper stripping (sudo, env, nice, timeout, ...).
type Command struct {
	// Argv is the command's words made literal where they are static;
	// a word that is not is shown as written ("$X").
	Argv []string
	// Cwd is the directory the command runs in; several when a "cd"
	// before it may or may not have succeeded; empty when unknown.
	Cwd     []string
	Targets []Target
	// Unknown says why some target of this command cannot be known
	// statically; empty when every target is known.
	Unknown string
	// ReadOnly is true for a known command that only reads.
	ReadOnly bool
	// Untrusted says the program is not the one the table knows by its
	// name: a path outside the system's bin directories (./git), or a
	// name $PATH finds in a directory the agent may write; Runs names it.
	Untrusted bool
	// Runs names the program or script whose own file accesses safezone
	// cannot see: a program not in the tables (npm, go, ./build.sh), make,
	// or a script given to an interpreter (sh x.sh, python3 x.py, perl
	// x.pl). A caller judges such a command like one with no targets
	// beyond those listed (the script file is read, and the directory it
	// works in, Target.Cwd): its policy's mode and auto-approval decide,
	// as for any command it cannot see into. Empty for a command in the
	// tables.
	Runs string
}

// Analysis is what a shell command line reads and writes.
type Analysis struct {
	Commands []Command
	// Unknown says why the targets of the whole line cannot be known (a
	// parse error, a command over MaxCommand, too deep a nesting);
	// see also each command's Unknown.
	Unknown string
}

// Known reports whether every target of every command is known.
func (a *Analysis) Known() bool {
	if a.Unknown != "" {
		return false
	}
	for i := range a.Commands {
		if a.Commands[i].Unknown != "" {
			return false
		}
	}
	return true
}

// Why returns the first reason the analysis is unknown, or "".
func (a *Analysis) Why() string {
	if a.Unknown != "" {
		return a.Unknown
	}
	for i := range a.Commands {
		if c := &a.Commands[i]; c.Unknown != "" {
			return fmt.Sprintf("%s: %s", strings.Join(c.Argv, " "), c.Unknown)
		}
	}
	return ""
}

// Analyze parses cmd as bash (mvdan.cc/sh, bash dialect) and returns,
// for every simple command in it (lists, pipes, subshells, groups, if, for,
// while, case, function calls, command and process substitutions, the
// scripts of "bash -c" and the like, sourced files, and the commands find
// -exec and xargs run), its argv and the paths it reads or writes (see
// table.go for each command's operands).
//
// Only static words are trusted (see the package documentation). Anything
// else in a target position makes the command's targets unknown: callers
// must then ask, never allow. "cd" moves the directory relative targets
// resolve against; when a cd may have failed, both directories count. The
// analysis never panics: a panic in the parser is an unknown result.
func Analyze(cmd string, env Env) (res Analysis) {
	defer func() {
		if v := recover(); v != nil {
			res = Analysis{Unknown: fmt.Sprintf("the shell parser failed (%v)", v)}
		}
	}()
	return analyze(cmd, env)
}

// analyze is Analyze without the recover, for the fuzz test to
// tell the parser's panics from the walker's.
func analyze(cmd string, env Env) Analysis {
	a := &analyzer{env: env, vars: map[string]shellVar{}, assignedVal: map[string]shellVar{}, commands: commands[:], walks: maxWalks}
	a.cwd = []string{env.Cwd}
	a.setWorlds([]glob.ShellOptions{{}}) // bash's defaults
	a.shellScript(cmd, 0)
	return Analysis{Commands: a.cmds, Unknown: a.unknown}
}

// shellScript walks the script of a shell of its own (the hook's command,
// bash -c): its commands, then the traps it set, which run as it ends.
func (a *analyzer) shellScript(src string, depth int) {
	start := len(a.traps)
	a.script(src, depth)
	a.runTraps(start)
}

// runTraps walks the traps set since start (trap(1), bash(1) trap): a trap
// runs when its shell exits or gets its signal, at any point after it was
// set, with the functions defined by then. A variable assigned after it
// was set is unknown there, and so is the directory if any cd came after;
// a variable naming code set anywhere holds.
func (a *analyzer) runTraps(start int) {
	end := len(a.traps)
	for _, t := range a.traps[start:end] {
		st := a.save()
		if a.cdCount != t.cdCount {
			a.cwd = nil
		} else {
			a.cwd = t.cwd
		}
		for _, name := range a.assignLog[t.log:] {
			a.vars[name] = shellVar{}
		}
		a.later = a.laterEver
		// Any options set by then may be in force when it runs.
		a.glob = append([]glob.ShellOptions(nil), a.globEver...)
		if len(a.globEver) >= maxGlobEver {
			a.later = "the shell options a trap runs with cannot be followed"
		}
		a.uncertain++
		a.script(t.script.lit, t.depth+1)
		a.uncertain--
		a.restore(st)
	}
	a.traps = a.traps[:start]
}

// setVar assigns a variable: it stays exported if it was, and the
// assignment is logged for the traps.
func (a *analyzer) setVar(name string, v shellVar) {
	// However it is set (printf -v, read, mapfile, getopts, a for or
	// select loop), a variable that names code to run makes the commands
	// after it unknown, as an assignment does (assigned).
	if isExecEnvVar(name) {
		a.setLater("setting " + name + " names a command or code later programs may run")
	} else if namesEnvEffect(name) && !a.statement {
		// An assignment statement's files are its targets (assigned).
		a.setLater("setting " + name + " names a file later programs may read or write")
	} else if name == "IFS" {
		a.setLater("setting IFS changes how later words split")
	}
	if old, ok := a.vars[name]; ok && old.exported {
		v.exported = true
	}
	a.vars[name] = v
	a.assignLog = append(a.assignLog, name)
	if name == "GLOBIGNORE" {
		a.globIgnore(v, true)
	}
}

// shellVar is what the analysis knows of a variable.
type shellVar struct {
	value string
	known bool
	// glob is true for a loop variable bound to the matches of a glob
	// ("for f in *.go"): its value is one of the file names pat matches,
	// expanded with the options opts.
	glob bool
	pat  string
	opts []glob.ShellOptions
	// exported is true for a variable the shell's child processes see
	// (export, declare -x, a prefix assignment).
	exported bool
}

type analyzer struct {
	env     Env
	src     string // the script being walked (the command, or a -c string)
	cmds    []Command
	unknown string
	vars    map[string]shellVar
	// cwd holds the directories the next command may run in; nil means
	// unknown.
	cwd []string
	// dirs is the pushd stack.
	dirs [][]string
	// cdTo is where the last statement's cd went (nil: it was no cd), and
	// before where it came from.
	cdTo, before []string
	// uncertain counts the enclosing constructs whose statements may not
	// run (conditions, loops, functions, the right side of && and ||): an
	// assignment there leaves its variable unknown.
	uncertain int
	// commands is the command table (see table.go).
	commands [][]cmdSpec
	// funcs are the functions defined so far.
	funcs map[string]*funcDef
	// active are the functions being walked, innermost last.
	active []string
	// walks is how many more bodies may be walked (maxWalks).
	walks int
	// statement is true while the assignments of an assignment statement
	// (X=1, export X=1) are made; assignedVal holds their static values,
	// for assigned.
	statement   bool
	assignedVal map[string]shellVar
	// later says why every command from now on is unknown (a variable
	// naming code to run was set, IFS or a shell option the analysis
	// does not follow changed), or "".
	later string
	// laterEver is the first reason later was ever set (in a subshell
	// too): a trap that runs at an exit sees it.
	laterEver string
	// traps are the traps set and not yet walked (runTraps); assignLog
	// the names of the variables assigned, in order, and cdCount the
	// directory changes so far: what changed after a trap was set is not
	// known when it runs.
	traps     []pendingTrap
	assignLog []string
	cdCount   int
	// prefix are the assignments before the simple command being judged
	// (X=1 cmd): in force in a function it calls, a file it sources, and
	// the environment of a shell it runs.
	prefix []prefixVar
	// links are the symbolic links the line makes: later paths through
	// them lead elsewhere.
	links []madeLink
	// lastSimple is the index in cmds of the command the last simple
	// command made (its redirections are added to it), or -1.
	lastSimple int
	// pos are the positional parameters ($1, $2, ...; "$@") where known: in
	// a function call or a "bash -c" script given its arguments; posKnown
	// is false where they are not (the hook's own command).
	pos      []sword
	posKnown bool
	// frames hold, for each function being walked, the variables it made
	// local and their values outside, restored when it returns.
	frames [][]localVar
	// glob holds the sets of shell options that may be in force for
	// pathname expansion (globopts.go); nil is bash's defaults. globEver
	// holds every set met, for the traps.
	glob, globEver []glob.ShellOptions
}

// localVar is a variable a function made local, with its value outside.
type localVar struct {
	name string
	prev shellVar
	had  bool
}

// pendingTrap is a trap's command, walked when its shell ends with what
// is known then (runTraps).
type pendingTrap struct {
	script  sword
	log     int // len(assignLog) when it was set
	cdCount int
	cwd     []string
	depth   int
}

// prefixVar is an assignment before a simple command.
type prefixVar struct {
	name string
	val  shellVar
}

// funcDef is a function defined in the line (bash(1) Shell Function
// Definitions).
type funcDef struct {
	body *syntax.Stmt
	// sure is false for a definition that may not have run (in a branch
	// or a loop): a call may run it or a program of that name.
	sure bool
}

func (a *analyzer) fail(why string) {
	if a.unknown == "" {
		a.unknown = why
	}
}

// script parses and walks one script (the hook's command, or a -c string).
func (a *analyzer) script(src string, depth int) {
	if len(src) > MaxCommand {
		a.fail(fmt.Sprintf("the command is over %d bytes", MaxCommand))
		return
	}
	if depth > maxShellDepth {
		a.fail("the command nests too deeply")
		return
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		a.fail("it does not parse as bash: " + err.Error())
		return
	}
	outer := a.src
	a.src = src
	a.stmts(f.Stmts, depth)
	a.src = outer
}

func (a *analyzer) stmts(ss []*syntax.Stmt, depth int) {
	for _, s := range ss {
		a.stmt(s, depth)
	}
}

// saved is analyzer state that a subshell, pipe side or function body may
// change without effect on what follows.
// The links a line makes stay: they are on the disk, not in the shell.
type saved struct {
	cwd, cdTo []string
	vars      map[string]shellVar
	dirs      [][]string
	funcs     map[string]*funcDef
	later     string
	pos       []sword
	posKnown  bool
	glob      []glob.ShellOptions
}

func (a *analyzer) save() saved {
	vars := make(map[string]shellVar, len(a.vars))
	for k, v := range a.vars {
		vars[k] = v
	}
	var funcs map[string]*funcDef
	if len(a.funcs) > 0 {
		funcs = make(map[string]*funcDef, len(a.funcs))
		for k, v := range a.funcs {
			funcs[k] = v
		}
	}
	return saved{cwd: a.cwd, cdTo: a.cdTo, vars: vars, dirs: a.dirs, funcs: funcs, later: a.later, pos: a.pos, posKnown: a.posKnown, glob: a.glob}
}

func (a *analyzer) restore(s saved) {
	a.cwd, a.cdTo, a.vars, a.dirs, a.funcs, a.later = s.cwd, s.cdTo, s.vars, s.dirs, s.funcs, s.later
	a.pos, a.posKnown, a.glob = s.pos, s.posKnown, s.glob
}

// union merges the possible directories of two paths of execution.
func (a *analyzer) union(other []string) {
	if a.cwd == nil || other == nil {
		a.cwd = nil
		return
	}
	out := append([]string(nil), a.cwd...)
	for _, d := range other {
		if !contains(out, d) {
			out = append(out, d)
		}
	}
	if len(out) > maxCwds {
		out = nil
	}
	a.cwd = out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (a *analyzer) stmt(s *syntax.Stmt, depth int) {
	if depth > maxShellDepth {
		a.fail("the command nests too deeply")
		return
	}
	if s.Background || s.Coprocess {
		// A background job runs in a subshell: its cd and assignments
		// do not reach what follows.
		st := a.save()
		defer a.restore(st)
	}
	// The statement's status is its command's: only a cd that is the
	// command itself makes "cd DIR && ..." sure of DIR.
	a.cdTo = nil
	// Redirections are made before the command runs, in the directory it
	// starts in (bash(1) REDIRECTION); they apply to the command (for a
	// compound command or a function call, to all it runs).
	var redirs []Target
	why := ""
	for _, r := range s.Redirs {
		t, w := a.redirect(r, depth)
		redirs = append(redirs, t...)
		if w != "" && why == "" {
			why = w
		}
	}
	cwd := a.cwd
	before := len(a.cmds)
	a.lastSimple = -1
	a.command(s.Cmd, depth)
	if len(redirs) == 0 && why == "" {
		return
	}
	if _, simple := s.Cmd.(*syntax.CallExpr); simple && a.lastSimple >= before {
		c := &a.cmds[a.lastSimple]
		c.Targets = append(c.Targets, redirs...)
		if why != "" && c.Unknown == "" {
			c.Unknown = why
		}
		for _, t := range redirs {
			if t.Access == Write {
				c.ReadOnly = false
			}
		}
		return
	}
	// A redirection of a compound command, or one without a command.
	c := Command{Argv: []string{"(redirection)"}, Cwd: cwd, Targets: redirs, Unknown: why, ReadOnly: true}
	for _, t := range redirs {
		if t.Access == Write {
			c.ReadOnly = false
		}
	}
	a.cmds = append(a.cmds, c)
}

// command walks one command of a statement: a simple command is judged
// (call), a compound one walked with what it means for the directory and
// the variables of what follows (bash(1) SHELL GRAMMAR).
func (a *analyzer) command(cmd syntax.Command, depth int) {
	switch c := cmd.(type) {
	case nil:
	case *syntax.CallExpr:
		a.call(c, depth)
	case *syntax.BinaryCmd:
		a.binary(c, depth)
	case *syntax.Subshell:
		st := a.save()
		a.stmts(c.Stmts, depth+1)
		a.restore(st)
	case *syntax.Block:
		a.stmts(c.Stmts, depth+1)
	case *syntax.IfClause, *syntax.WhileClause, *syntax.ForClause:
		a.conditional(c, depth)
	case *syntax.CaseClause:
		a.word(c.Word, depth)
		a.conditional(c, depth)
	case *syntax.FuncDecl:
		// A definition runs nothing: each call walks the body where it
		// is called (call).
		a.define(c)
	case *syntax.DeclClause:
		a.declare(c, depth)
	case *syntax.TimeClause:
		if c.Stmt != nil {
			a.stmt(c.Stmt, depth+1)
		}
	case *syntax.TestClause:
		// [[ ... ]] reads no file contents; its words may hold
		// substitutions, which are commands.
		syntax.Walk(c, func(n syntax.Node) bool {
			if w, ok := n.(*syntax.Word); ok {
				a.word(w, depth)
				return false
			}
			return true
		})
	case *syntax.ArithmCmd, *syntax.LetClause:
		syntax.Walk(c, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst:
				a.fail("an arithmetic expression runs a command")
				return false
			case *syntax.Lit:
				// let PATH=1: arithmetic may assign any variable it names.
				if isExecEnvVar(n.Value) || namesEnvEffect(n.Value) || n.Value == "IFS" {
					a.setLater("arithmetic may set " + n.Value + ", which names code later programs run")
				}
				if n.Value == "GLOBIGNORE" {
					a.globIgnore(shellVar{}, true)
				}
			}
			return true
		})
	case *syntax.CoprocClause:
		st := a.save()
		a.stmt(c.Stmt, depth+1)
		a.restore(st)
	default:
		a.fail(fmt.Sprintf("safezone does not analyse %T", cmd))
	}
}

// binary walks X && Y, X || Y and the pipes X | Y, X |& Y.
func (a *analyzer) binary(c *syntax.BinaryCmd, depth int) {
	switch c.Op {
	case syntax.AndStmt:
		before := a.cwd
		a.cdTo = nil
		a.stmt(c.X, depth+1)
		if a.cdTo != nil {
			a.cwd = a.cdTo // "cd DIR && ...": the rest runs in DIR
		}
		a.uncertain++
		a.stmt(c.Y, depth+1)
		a.uncertain--
		// If X failed, Y did not run and nothing of X's cd may hold.
		a.union(before)
	case syntax.OrStmt:
		before := a.cwd
		a.stmt(c.X, depth+1)
		after := a.cwd
		a.cwd = before
		a.union(after)
		a.uncertain++
		a.stmt(c.Y, depth+1)
		a.uncertain--
		a.union(after)
	default: // pipes: each side runs in a subshell
		st := a.save()
		a.stmt(c.X, depth+1)
		a.restore(st)
		st = a.save()
		a.stmt(c.Y, depth+1)
		a.restore(st)
	}
}

// conditional walks if, while, for and case: their bodies may run or not,
// so the directory after them is any of those their paths end in, and
// what they assign is unknown.
func (a *analyzer) conditional(cmd syntax.Command, depth int) {
	before := a.cwd
	a.uncertain++
	defer func() { a.uncertain-- }()
	switch c := cmd.(type) {
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			a.stmts(ic.Cond, depth+1)
			a.stmts(ic.Then, depth+1)
			a.union(before)
		}
	case *syntax.WhileClause:
		a.stmts(c.Cond, depth+1)
		a.stmts(c.Do, depth+1)
		a.union(before)
	case *syntax.ForClause:
		if l, ok := c.Loop.(*syntax.WordIter); ok {
			a.forWords(l, c.Do, before, depth)
			return
		}
		a.fail("a C-style for loop computes its values")
		a.stmts(c.Do, depth+1)
		a.union(before)
	case *syntax.CaseClause:
		for _, item := range c.Items {
			a.stmts(item.Stmts, depth+1)
			a.union(before)
		}
	}
}

// assign records a variable assignment: a literal value in a statement that
// surely runs is known from then on; anything else leaves it unknown.
func (a *analyzer) assign(as *syntax.Assign, depth int) {
	if as.Name == nil {
		return
	}
	name := as.Name.Value
	if as.Naked || as.Array != nil || as.Index != nil || as.Append {
		if as.Array != nil {
			syntax.Walk(as.Array, func(n syntax.Node) bool {
				if w, ok := n.(*syntax.Word); ok {
					a.word(w, depth)
					return false
				}
				return true
			})
		}
		if !as.Naked {
			a.setVar(name, shellVar{})
		}
		return
	}
	v := shellVar{}
	if as.Value == nil {
		v = shellVar{value: "", known: true}
	} else {
		w := a.wordOf(as.Value, depth, true)
		if w.unknown == "" {
			v = shellVar{value: w.lit, known: true}
		}
	}
	if a.statement {
		// assigned judges the files the value names, which count
		// whether or not the assignment runs.
		a.assignedVal[name] = v
	}
	if a.uncertain > 0 {
		v = shellVar{}
	}
	a.setVar(name, v)
}

// substitution walks the commands of a command or process substitution:
// they run, in a subshell.
func (a *analyzer) substitution(ss []*syntax.Stmt, depth int) {
	st := a.save()
	a.uncertain++
	a.stmts(ss, depth+1)
	a.uncertain--
	a.restore(st)
}

// redirect returns the target of one redirection, or why it is unknown.
func (a *analyzer) redirect(r *syntax.Redirect, depth int) ([]Target, string) {
	if r.Hdoc != nil {
		// A here-document is no file; expansions in it still run.
		a.word(r.Hdoc, depth)
	}
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		if r.Op == syntax.WordHdoc {
			a.word(r.Word, depth)
		}
		return nil, ""
	}
	w := a.word(r.Word, depth)
	var access Access
	switch r.Op {
	case syntax.RdrIn:
		access = Read
	case syntax.DplIn, syntax.DplOut:
		// "2>&1", ">&-": a descriptor. ">& file" writes the file.
		if w.unknown == "" && (w.lit == "-" || isNumber(w.lit)) {
			return nil, ""
		}
		if r.Op == syntax.DplIn {
			access = Read
		} else {
			access = Write
		}
	default: // >, >>, >|, &>, &>>, <>, and zsh's clobbering forms
		access = Write
	}
	if w.unknown != "" {
		return nil, "redirection to " + w.src + ": " + w.unknown
	}
	if notAFile(w.lit) {
		return nil, ""
	}
	return a.targets(w, access)
}

// targets turns a static word into targets, one per directory the command
// may run in and per brace alternative; a path through a link made earlier
// in the line is also where the link leads (viaLinks).
func (a *analyzer) targets(w sword, access Access) ([]Target, string) {
	var out []Target
	ok := true
	if !w.brace {
		out, ok = a.targetsOf(w, access, out)
	} else {
		for _, alt := range a.expandBraceWord(w) {
			if alt.unknown != "" {
				return nil, alt.unknown
			}
			if out, ok = a.targetsOf(alt, access, out); !ok {
				break
			}
		}
	}
	if !ok {
		return nil, "the directory it runs in is not known (a cd to a directory that is not static)"
	}
	return a.viaLinks(out)
}

// targetsOf appends to out the targets of the static word w, which holds
// no brace expansion: one per directory the command may run in; false
// when w is relative and the directory is not known. A word bash expands
// as a glob (glob.IsPattern, unless set -f holds wherever it runs) is a
// glob target, with the shell options it expands with.
func (a *analyzer) targetsOf(w sword, access Access, out []Target) ([]Target, bool) {
	var opts []glob.ShellOptions
	isGlob := w.glob && glob.IsPattern(w.pat)
	if isGlob {
		opts = a.globOpts(w)
		isGlob = !noGlobAll(opts)
	}
	if !isGlob {
		if w.lit == "" {
			return out, true
		}
		if strings.HasPrefix(w.lit, "/") {
			return append(out, Target{Path: w.lit, Given: w.lit, Access: access}), true
		}
		if a.cwd == nil {
			return out, false
		}
		for _, d := range a.cwd {
			out = append(out, Target{Path: strings.TrimSuffix(d, "/") + "/" + w.lit, Given: w.lit, Access: access})
		}
		return out, true
	}
	if strings.HasPrefix(w.pat, "/") {
		return append(out, Target{Path: w.pat, Given: w.lit, Access: access, Glob: true, GlobOpts: opts}), true
	}
	if a.cwd == nil {
		return out, false
	}
	for _, d := range a.cwd {
		out = append(out, Target{Path: strings.TrimSuffix(glob.Escape(d), "/") + "/" + w.pat, Given: w.lit, Access: access,
			Glob: true, GlobOpts: opts, GlobDir: d})
	}
	return out, true
}

// hasBraceList reports whether s holds a brace group with a comma, the only
// kind bash expands ("{a,b}"; "{}" and "{x}" stay literal).
func hasBraceList(s string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			if depth > 0 {
				depth--
			}
		case ',':
			if depth > 0 {
				return true
			}
		}
	}
	return false
}

// cd moves the analysis to a directory (cd, pushd; -P resolves like the
// kernel, the default cleans lexically as bash's logical cd does).
func (a *analyzer) cd(dir sword, physical bool) {
	a.moveTo(dir, physical)
	// The next statement runs in the new directory if the cd worked and in
	// the old one if it did not; only "cd DIR && ..." is sure (see the
	// AndStmt case, which uses cdTo).
	next := a.cwd
	a.cwd = a.before
	a.union(next)
	a.cdTo = next
}

// moveTo sets cwd to dir, from before.
func (a *analyzer) moveTo(dir sword, physical bool) {
	a.before = a.cwd
	a.cdCount++
	if dir.unknown != "" || dir.glob {
		a.cwd = nil
		return
	}
	var next []string
	for _, d := range a.cwdOrHome() {
		p := dir.lit
		if !strings.HasPrefix(p, "/") {
			p = strings.TrimSuffix(d, "/") + "/" + p
		}
		if !physical {
			p = path.Clean(p)
		} else if len(a.links) > 0 {
			// cd -P resolves the links, those the line made too.
			q, _, why := a.overLinks(p)
			if why != "" {
				a.cwd = nil
				return
			}
			p = q
		}
		next = append(next, p)
	}
	if a.cwd == nil && !strings.HasPrefix(dir.lit, "/") {
		next = nil
	}
	a.cwd = next
}

func (a *analyzer) cwdOrHome() []string {
	if a.cwd == nil {
		return []string{""}
	}
	return a.cwd
}

// cdTemp and cdRestore move the analysis for one command (git -C).
func (a *analyzer) cdTemp(dir sword) {
	a.dirs = append(a.dirs, a.cwd)
	a.moveTo(dir, false)
}

func (a *analyzer) cdRestore() {
	if n := len(a.dirs); n > 0 {
		a.cwd, a.dirs = a.dirs[n-1], a.dirs[:n-1]
	}
}

// Access is what a command does to a path.
type Access uint8

const (
	Write Access = iota // the zero value: the stricter reading of an unset access
	Read
)

// String returns "write" or "read".
func (x Access) String() string {
	if x == Read {
		return "read"
	}
	return "write"
}
