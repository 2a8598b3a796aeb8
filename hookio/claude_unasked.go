package hookio

import (
	"errors"
	"io/fs"
	"path"
	"regexp"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// UnaskedVersion is the Claude Code version whose own Bash permission check
// [Claude.RunsUnasked] describes. The table below was measured on it, and
// the e2e test TestClaudeCodeUnasked fails when the pinned Claude Code
// (e2e/claude-code-version) no longer behaves so.
const UnaskedVersion = "2.1.330"

// maxUnaskedCommand bounds the command lines RunsUnasked parses; longer ones
// get false. No form measured comes near it.
const maxUnaskedCommand = 10 << 10

// UnaskedRunner is a Host whose own permission check runs some shell
// commands without asking anyone when every PreToolUse hook abstains.
type UnaskedRunner interface {
	// RunsUnasked reports whether the host would run command, in mode,
	// without asking, had the hook printed nothing. False is the safe
	// answer: it must be true only where the host was seen to run the
	// command unasked.
	RunsUnasked(mode PermissionMode, command string, env UnaskedEnv) bool
}

// UnaskedEnv is what [Claude.RunsUnasked] needs beyond the command line.
type UnaskedEnv struct {
	// Cwd is the call's cwd (absolute): relative paths in the command
	// are joined to it.
	Cwd string
	// Roots are the session's working directories: the project directory
	// (not the call's cwd, which follows the agent's cd) and its
	// additionalDirectories, absolute, clean, with symbolic links
	// resolved. None makes every answer false.
	Roots []string
	// Resolve returns where an absolute, clean path leads, following
	// symbolic links as the kernel would; a path that does not exist
	// resolves through its deepest existing ancestor. Claude Code 2.1.330
	// follows links: with proj/link -> ../other, "cat link/o.txt",
	// "ls link" and "echo x > link/o.txt" are asked. A path it cannot
	// resolve (a loop, no permission) must come back as "", inside no
	// root. Nil makes every answer false.
	Resolve func(path string) string
	// Lstat is os.Lstat, or a view of the file system like it; git
	// commands need it (see gitRepoSafe). Nil makes every git command
	// false.
	Lstat func(path string) (fs.FileInfo, error)
}

// RunsUnasked reports whether Claude Code 2.1.330, with every PreToolUse
// hook abstaining, runs the Bash command line in the given permission mode
// without asking (in claude -p, an ask is a denial). The answer is measured,
// not derived: every rule below names the forms seen to run and their asked
// neighbours (testdata/hosts/claude/unasked.md); whatever no rule covers is
// false, so the function errs towards "the host asks". True needs:
//
//   - mode default, plan or acceptEdits (the others were not measured);
//   - a line of printable ASCII, of simple commands joined by ";", a
//     newline, "&&", "||", "|" or in an if clause, with no subshell,
//     braces, background job, loop, function, assignment, here-document,
//     command or process substitution, arithmetic, variable expansion or
//     brace expansion, and each program named by a plain word ("ls", not
//     "'ls'" or "\ls");
//   - every simple command allowed by its rule in the mode: a read-only
//     program with the options seen to run and its paths inside the
//     working directories (every mode); or, in acceptEdits, touch, mkdir,
//     rm, rmdir, cp, mv, sed -i and output redirections whose paths are
//     inside and not among the files Claude Code protects;
//   - no word after a redirection ("echo x > out.txt ../secret" is asked);
//   - the call's cwd inside a root, no cd in a line that writes or runs
//     git, and no line that both writes and runs git.
//
// The question is asked of the whole line, not of each simple command: the
// host's answer depends on the line's shape (a subshell, "&", a cd before a
// write) and on words as written (nice ls is asked, ls is not), which an
// analysis that strips wrappers and expands words no longer shows.
func (Claude) RunsUnasked(mode PermissionMode, command string, env UnaskedEnv) bool {
	switch mode {
	case PermDefault, PermPlan, PermAcceptEdits:
	default:
		return false
	}
	if env.Resolve == nil || len(env.Roots) == 0 || !strings.HasPrefix(env.Cwd, "/") || len(command) > maxUnaskedCommand || !plainText(command) {
		return false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil || len(f.Stmts) == 0 {
		return false
	}
	w := &unaskedWalk{mode: mode, env: env, cwds: []string{path.Clean(env.Cwd)}}
	// A program without operands reads its directory (ls, find, grep -r,
	// rg), which must then be inside.
	if !w.inside(".") || !w.stmts(f.Stmts) {
		return false
	}
	// "mkdir x && cd x" and "cd src && touch n" are asked: Claude Code
	// cannot tell where the write lands. So is cd with git (2.1.330:
	// "Compound commands with cd and git require permission checks"). A
	// line that writes and runs git is not allowed here: the write may
	// make the files that make git run a program (Claude Code asks about
	// "compound commands that create git internal files and run git").
	if w.cd && (w.writes || w.git) || w.writes && w.git {
		return false
	}
	return !w.git || w.gitRepoSafe()
}

// plainText reports whether command is printable ASCII, spaces, tabs and
// newlines (a newline may only separate statements: staticWord refuses
// one in a word). Claude Code runs "cat é.txt" unasked, but control
// characters and other characters were not measured, and it treats some
// of them apart.
func plainText(command string) bool {
	for i := 0; i < len(command); i++ {
		if c := command[i]; c < ' ' && c != '\t' && c != '\n' || c > '~' {
			return false
		}
	}
	return true
}

// unaskedWalk walks one command line.
type unaskedWalk struct {
	mode PermissionMode
	env  UnaskedEnv
	// cwds are the directories relative paths are judged in: the call's
	// cwd and every directory a cd of the line moved to. A path must be
	// inside from each of them, whichever the host uses.
	cwds   []string
	cd     bool // the line runs cd
	writes bool // the line writes a file (acceptEdits)
	git    bool // the line runs git
	// wrapped is set while a command run through a wrapper (timeout,
	// command) is judged: it may not write.
	wrapped bool
}

func (w *unaskedWalk) stmts(ss []*syntax.Stmt) bool {
	for _, s := range ss {
		if !w.stmt(s) {
			return false
		}
	}
	return true
}

// stmt judges one statement. Measured: "a; b", "a && b", "a || b", "a | b",
// "! a" and "if a; then b; fi" run when each part would; "(ls)",
// "{ ls; }", "ls &", "time ls", for loops over variables and case are
// asked; "while false; do ls; done" and "[[ -f a.txt ]] && ls" run, but
// are not allowed here.
func (w *unaskedWalk) stmt(s *syntax.Stmt) bool {
	if s == nil || s.Background || s.Coprocess || s.Disown {
		return false
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		return w.call(c, s.Redirs)
	case *syntax.BinaryCmd:
		if len(s.Redirs) > 0 {
			return false
		}
		switch c.Op {
		case syntax.AndStmt, syntax.OrStmt, syntax.Pipe:
			return w.stmt(c.X) && w.stmt(c.Y)
		}
	case *syntax.IfClause:
		return len(s.Redirs) == 0 && w.ifClause(c)
	}
	return false
}

func (w *unaskedWalk) ifClause(c *syntax.IfClause) bool {
	for ; c != nil; c = c.Else {
		if !w.stmts(c.Cond) || !w.stmts(c.Then) {
			return false
		}
	}
	return true
}

// uword is a shell word made static for RunsUnasked.
type uword struct {
	lit   string // the value, quotes and backslashes removed
	glob  bool   // an unquoted *, ? or [ (its position: globAt)
	tilde bool   // starts with ~, quoted or not
	// globAt is the index in lit of the first unquoted glob character.
	globAt int
	// plain: the word is one unquoted literal without a backslash. A
	// program name must be plain: Claude Code matches some programs on
	// the text as written, and quoted names were measured only for cat
	// and git ("'cat' a.txt", "\cat a.txt" and "git 'status'" run).
	plain bool
}

// errDynamic is a word that is not static.
var errDynamic = errors.New("not a static word")

// staticWord returns the static value of w: literals, single quotes and
// double quotes holding only literals. Anything else ($X, ${X}, $(...),
// `...`, $((...)), $'...', <(...), an extended glob) and unquoted braces
// that may expand ({a,b}, {1..3}) are errDynamic: Claude Code asks about
// variables it cannot check ("echo $FOO", "ls $PWD", "echo ${HOME}") and
// brace expansion ("cat {a,b}.txt").
func staticWord(w *syntax.Word) (uword, error) {
	var u uword
	u.globAt = -1
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			v := p.Value
			// Any unquoted brace: brace expansion may span the
			// word's parts ({"a",b}).
			if strings.ContainsAny(v, "{}") {
				return u, errDynamic
			}
			for j := 0; j < len(v); j++ {
				ch := v[j]
				switch {
				case ch == '\\' && j+1 < len(v):
					j++
					b.WriteByte(v[j])
				case ch == '*' || ch == '?' || ch == '[' && strings.IndexByte(v[j:], ']') > 0:
					if !u.glob {
						u.glob, u.globAt = true, b.Len()
					}
					b.WriteByte(ch)
				default:
					b.WriteByte(ch)
				}
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				return u, errDynamic
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return u, errDynamic
			}
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return u, errDynamic
				}
				b.WriteString(l.Value)
			}
		default:
			return u, errDynamic
		}
	}
	u.lit = b.String()
	if strings.Contains(u.lit, "\n") {
		return u, errDynamic
	}
	if len(w.Parts) == 1 {
		l, ok := w.Parts[0].(*syntax.Lit)
		u.plain = ok && !strings.Contains(l.Value, "\\")
	}
	// Claude Code takes a leading "~" for the home directory even when
	// it is quoted or escaped: cat '~/h.txt', cat "~/h.txt" and
	// cat \~/h.txt are judged as cat ~/h.txt.
	u.tilde = strings.HasPrefix(u.lit, "~")
	return u, nil
}

// call judges one simple command and its redirections.
func (w *unaskedWalk) call(c *syntax.CallExpr, redirs []*syntax.Redirect) bool {
	// "X=1 ls", "FOO=bar cat a.txt" and "X=a.txt; cat $X" are asked.
	if len(c.Assigns) > 0 || len(c.Args) == 0 {
		return false
	}
	args := make([]uword, len(c.Args))
	for i, a := range c.Args {
		u, err := staticWord(a)
		if err != nil {
			return false
		}
		args[i] = u
	}
	// A word after a redirection is asked ("echo x > out.txt ../secret":
	// "Redirect has multiple targets").
	for _, r := range redirs {
		if !r.Pos().After(c.Args[len(c.Args)-1].Pos()) {
			return false
		}
	}
	stripped := stripUnaskedWrappers(args)
	// Claude Code looks through the wrappers for reading only:
	// "timeout 5 touch n.txt" is asked in acceptEdits.
	w.wrapped = len(stripped) != len(args)
	defer func() { w.wrapped = false }()
	for _, r := range redirs {
		if !w.redirect(r) {
			return false
		}
	}
	args = stripped
	if len(args) == 0 || !args[0].plain || args[0].glob || args[0].tilde {
		return false
	}
	name := args[0].lit
	if name == "git" {
		return w.gitCall(args[1:])
	}
	r, ok := unaskedRules()[name]
	if !ok || r.modes&modeBit(w.mode) == 0 {
		return false
	}
	if r.judge == nil {
		return judgeArgs(w, r, args[1:])
	}
	return r.judge(w, r, args[1:])
}

// stripUnaskedWrappers removes the wrappers Claude Code 2.1.330 looks
// through: "command CMD" and "timeout N CMD" ("command ls", "timeout 5 ls"
// run; "command cat ../secret", "timeout 5 cat ../secret" are asked, as
// their command is). "command -v", nice, env, nohup and sudo are asked.
func stripUnaskedWrappers(args []uword) []uword {
	for len(args) > 1 {
		switch {
		case args[0].lit == "command" && !args[0].glob && !strings.HasPrefix(args[1].lit, "-"):
			args = args[1:]
		case args[0].lit == "timeout" && len(args) > 2 && isDuration(args[1].lit) && !strings.HasPrefix(args[2].lit, "-"):
			args = args[2:]
		default:
			return args
		}
	}
	return args
}

var durationRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]+(\.[0-9]+)?[smhd]?$`) })

func isDuration(s string) bool { return durationRE().MatchString(s) }

// redirect judges one redirection. Measured: "2>&1", ">&2", ">/dev/null",
// "2>/dev/null", "< FILE" and "0< FILE" inside run in every mode;
// "> FILE", ">> FILE", ">| FILE", "1> FILE", "2> FILE", "2>> FILE" and
// ">& FILE" and "&> FILE" inside run in acceptEdits only; a
// here-document ("<<EOF"), "<>", "> /dev/stderr" and any redirection
// outside are asked.
func (w *unaskedWalk) redirect(r *syntax.Redirect) bool {
	if r.Hdoc != nil || r.Word == nil {
		return false
	}
	t, err := staticWord(r.Word)
	if err != nil {
		return false
	}
	fd := ""
	if r.N != nil {
		fd = r.N.Value
	}
	switch r.Op {
	case syntax.RdrIn:
		return (fd == "" || fd == "0") && w.readPath(t)
	case syntax.DplOut:
		if fd != "" && fd != "1" && fd != "2" {
			return false
		}
		if t.lit == "1" || t.lit == "2" {
			return true
		}
		return fd == "" && !isDigits(t.lit) && t.lit != "-" && w.writePath(t)
	case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.ClbOut:
		if fd != "" && fd != "1" && fd != "2" || r.Op == syntax.RdrAll && fd != "" {
			return false
		}
		if t.lit == "/dev/null" && !t.glob && !t.tilde {
			return true
		}
		return w.writePath(t)
	}
	return false
}

// readPath reports whether a word a command reads is a path Claude Code
// lets it read unasked: inside the working directories from every cwd of
// the line, without "~" ("cat ~/h.txt" is asked), without ".." after a
// name ("cat src/../a.txt" is asked, "cat ../proj/a.txt" runs), and for a
// glob its directory before the first glob character ("cat *" and
// "cat l*/o.txt" run, "cat link/*" and "cat ../*" are asked).
func (w *unaskedWalk) readPath(u uword) bool {
	if u.tilde || strings.HasPrefix(u.lit, "~") || u.lit == "" || u.lit == "-" {
		return false
	}
	p := u.lit
	if u.glob {
		p = p[:u.globAt]
		if i := strings.LastIndexByte(p, '/'); i >= 0 {
			p = p[:i+1]
		} else {
			p = "."
		}
	}
	if dotdotAfterName(p) {
		return false
	}
	return w.inside(p)
}

// writePath reports whether a path a command writes is one Claude Code lets
// it write unasked: only in acceptEdits, inside (from every cwd), neither a
// cwd nor a root nor above one ("rm -rf /abs/proj" is asked), static (no
// glob: "rm *.txt" is asked; no "~"), without ".." or a "." but a leading
// one, with no name starting with "." below its root, where it leads
// (".git", ".claude", ".bashrc", ".npmrc" and the like are asked; ".env"
// and ".gitignore" run, this table stays on the safe side), and no name
// Claude Code protects anywhere in the path as written or where it leads.
func (w *unaskedWalk) writePath(u uword) bool {
	if w.mode != PermAcceptEdits || w.wrapped || u.glob || u.tilde || strings.HasPrefix(u.lit, "~") ||
		u.lit == "" || u.lit == "-" || path.Clean(u.lit) == "." {
		return false
	}
	// No ".." and no "." but a leading one ("./dir" runs; "dir/." was
	// not measured).
	for i, name := range strings.Split(u.lit, "/") {
		if name == ".." || name == "." && i > 0 {
			return false
		}
	}
	for _, cwd := range w.cwds {
		abs := join(cwd, u.lit)
		r := w.env.Resolve(abs)
		root, ok := w.rootOf(r)
		if !ok || protectedPath(abs) || protectedPath(r) || w.containsCwd(abs) || w.containsCwd(r) {
			return false
		}
		for _, name := range strings.Split(strings.TrimPrefix(r, root), "/") {
			if strings.HasPrefix(name, ".") {
				return false
			}
		}
	}
	w.writes = true
	return true
}

// containsCwd reports whether abs is a cwd of the line or a root, or above
// one: "rm -rf ." and "rm -rf /abs/proj" are asked as dangerous removals.
func (w *unaskedWalk) containsCwd(abs string) bool {
	above := func(d string) bool {
		return d == abs || abs == "/" || strings.HasPrefix(d, abs+"/")
	}
	for _, cwd := range w.cwds {
		if above(cwd) || above(w.env.Resolve(cwd)) {
			return true
		}
	}
	for _, root := range w.env.Roots {
		if above(root) {
			return true
		}
	}
	return false
}

// rootOf returns the root that resolved path r is in.
func (w *unaskedWalk) rootOf(r string) (string, bool) {
	for _, root := range w.env.Roots {
		if r == root || strings.HasPrefix(r, root+"/") {
			return root, true
		}
	}
	return "", false
}

// inside reports whether p, joined to every cwd of the line, leads inside
// a root.
func (w *unaskedWalk) inside(p string) bool {
	for _, cwd := range w.cwds {
		if _, ok := w.rootOf(w.env.Resolve(join(cwd, p))); !ok {
			return false
		}
	}
	return true
}

// join returns p made absolute against cwd, lexically cleaned.
func join(cwd, p string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Join(cwd, p)
}

// dotdotAfterName reports whether p has a ".." after a name other than
// "." or "..": Claude Code 2.1.330 asks ("Path contains '..' traversal
// after a directory segment, which may follow a symlink outside the
// working directory").
func dotdotAfterName(p string) bool {
	named := false
	for _, e := range strings.Split(p, "/") {
		switch e {
		case "", ".":
		case "..":
			if named {
				return true
			}
		default:
			named = true
		}
	}
	return false
}

// protectedDirs and protectedFiles are the names Claude Code 2.1.330 will
// not let a shell command write without asking (its lists, compared in
// lower case; seen: touch .git/x, .claude/x, .vscode/x, .bashrc,
// lefthook.yml, bunfig.toml, pyrightconfig.json, echo x > .npmrc,
// src/.envrc, mkdir .idea). Names starting with "." are refused anyway by
// writePath in the part of the path the command gives; these lists also
// apply to the directories above it.
var (
	protectedDirs  = []string{".git", ".vscode", ".idea", ".claude", ".husky", ".cargo", ".devcontainer", ".yarn", ".mvn"}
	protectedFiles = []string{
		".gitconfig", ".gitmodules", ".bashrc", ".bash_profile", ".zshrc", ".zprofile", ".profile",
		".zshenv", ".zlogin", ".zlogout", ".bash_login", ".bash_aliases", ".bash_logout", ".envrc",
		".ripgreprc", ".mcp.json", ".claude.json", ".npmrc", ".yarnrc", ".yarnrc.yml", ".pnp.cjs",
		".pnp.loader.mjs", ".pnp.js", ".pnp.data.json", ".pnpmfile.cjs", "bunfig.toml", ".bunfig.toml",
		".bazelrc", ".bazelversion", ".bazeliskrc", ".pre-commit-config.yaml", "lefthook.yml",
		".lefthook.yml", "lefthook.yaml", ".lefthook.yaml", "gradle-wrapper.properties",
		"maven-wrapper.properties", ".devcontainer.json", "pyrightconfig.json",
	}
)

// protectedPath reports whether an absolute path has a protected name in
// it, or goes through .config/git.
func protectedPath(abs string) bool {
	names := strings.Split(strings.ToLower(abs), "/")
	for i, n := range names {
		for _, d := range protectedDirs {
			if n == d {
				return true
			}
		}
		for _, f := range protectedFiles {
			if n == f {
				return true
			}
		}
		if n == ".config" && i+1 < len(names) && names[i+1] == "git" {
			return true
		}
	}
	return false
}

func modeBit(m PermissionMode) uint8 { return 1 << m }

// Mode sets of the rules: readModes for read-only programs (the same in
// default, plan and acceptEdits on every form measured), editModes for
// what only acceptEdits runs.
const (
	readModes = 1<<PermDefault | 1<<PermPlan | 1<<PermAcceptEdits
	editModes = 1 << PermAcceptEdits
)
