package shell

import (
	"strings"

	"github.com/safezonehq/safezone/policy/glob"
)

// interpreters are the shells and interpreters that run a script or
// inline code, and the programs that run commands elsewhere or later
// (at, crontab, screen, tmux, watch), sorted by name (byte order:
// "Rscript" first).
var interpreters = []cmdSpec{
	{name: "Rscript", role: roleCustom, custom: interpreterCmd},
	{name: "at", role: roleCustom, custom: opaque, why: "at schedules commands"},
	{name: "bash", role: roleCustom, custom: shellCmd},
	{name: "batch", role: roleCustom, custom: opaque, why: "batch schedules commands"},
	{name: "bun", role: roleCustom, custom: interpreterCmd},
	{name: "crontab", role: roleCustom, custom: crontabCmd},
	{name: "dash", role: roleCustom, custom: shellCmd},
	{name: "deno", role: roleCustom, custom: interpreterCmd},
	{name: "fish", role: roleCustom, custom: shellCmd},
	{name: "gmake", role: roleCustom, custom: makeCmd},
	{name: "julia", role: roleCustom, custom: interpreterCmd},
	{name: "ksh", role: roleCustom, custom: shellCmd},
	{name: "lua", role: roleCustom, custom: interpreterCmd},
	{name: "luajit", role: roleCustom, custom: interpreterCmd},
	{name: "make", role: roleCustom, custom: makeCmd},
	{name: "mksh", role: roleCustom, custom: shellCmd},
	{name: "node", role: roleCustom, custom: interpreterCmd},
	{name: "nodejs", role: roleCustom, custom: interpreterCmd},
	{name: "osascript", role: roleCustom, custom: interpreterCmd},
	{name: "perl", role: roleCustom, custom: perlCmd},
	{name: "php", role: roleCustom, custom: interpreterCmd},
	{name: "powershell", role: roleCustom, custom: interpreterCmd},
	{name: "pwsh", role: roleCustom, custom: interpreterCmd},
	{name: "pypy", role: roleCustom, custom: interpreterCmd},
	{name: "pypy3", role: roleCustom, custom: interpreterCmd},
	{name: "python", role: roleCustom, custom: interpreterCmd},
	{name: "python2", role: roleCustom, custom: interpreterCmd},
	{name: "python3", role: roleCustom, custom: interpreterCmd},
	{name: "ruby", role: roleCustom, custom: interpreterCmd},
	{name: "screen", role: roleCustom, custom: opaque, why: "screen runs commands in another shell"},
	{name: "sh", role: roleCustom, custom: shellCmd},
	{name: "sqlite3", role: roleCustom, custom: sqliteCmd},
	{name: "tclsh", role: roleCustom, custom: interpreterCmd},
	{name: "tmux", role: roleCustom, custom: opaque, why: "tmux runs commands in another shell"},
	{name: "uv", role: roleCustom, custom: uvCmd},
	{name: "virtualenv", role: roleCustom, custom: virtualenvCmd},
	{name: "watch", role: roleCustom, custom: opaque, why: "watch runs a command string"},
	{name: "wish", role: roleCustom, custom: interpreterCmd},
	{name: "zsh", role: roleCustom, custom: shellCmd},
}

// shellCmd: bash, sh, zsh and the other shells (bash(1) OPTIONS and
// INVOCATION). With -c, alone or in a cluster (-ec, -lc), the first
// operand is a script, analysed like the line, and the words after it are
// its $0, $1, ...; without it, the first operand is a script file, read
// and run (Command.Runs); with neither, or with -s or -i, the shell reads
// its commands from stdin. fish's language is not bash's: fish -c is
// unknown. --version and --help run nothing.
func shellCmd(c *cmdCtx) {
	i, hasC, opts, done := c.shellOptions()
	if done {
		return
	}
	rest := c.args[min(i, len(c.args)):]
	switch {
	case hasC && c.name == "fish":
		c.unknown("fish -c: fish's language is not bash's")
	case hasC && len(rest) == 0:
		c.unknown("-c without a script")
	case hasC:
		// The words after the script are $0, $1, ...: known when static.
		var pos []sword
		if len(rest) > 2 {
			pos = rest[2:]
		}
		known := true
		for _, w := range rest[1:] {
			known = known && w.unknown == ""
		}
		if why := c.a.nestedShell(rest[0], pos, known, c.depth, c.name, opts); why != "" {
			c.unknown(why)
		}
	case len(rest) == 0:
		c.unknown(c.name + " reads its commands from stdin")
	default:
		c.runsScript(rest[0])
	}
}

// shellOptions parses a shell's options: it returns the index of its first
// operand, whether -c was given, the glob options it sets (-O and +O a
// shopt option, -f, -o noglob), and true when nothing more is to be done
// (the command is unknown, or only shows the version or help).
func (c *cmdCtx) shellOptions() (i int, hasC bool, opts []func(*glob.ShellOptions), done bool) {
	for ; i < len(c.args); i++ {
		w := c.args[i]
		t := w.text()
		switch {
		case w.unknown != "":
			c.unknown("an argument of the shell is not static")
			return i, hasC, nil, true
		case t == "--" || t == "-":
			return i + 1, hasC, opts, false
		case !strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "+"):
			return i, hasC, opts, false
		case t == "--version" || t == "--help":
			c.cmd.ReadOnly = true
			return i, hasC, nil, true
		case t == "--rcfile" || t == "--init-file":
			i++
		case strings.HasPrefix(t, "--"):
		case strings.ContainsAny(t[1:], "si") && t[0] == '-':
			c.unknown(c.name + " " + t + " reads its commands from stdin")
			return i, hasC, nil, true
		default:
			hasC = hasC || t[0] == '-' && strings.Contains(t[1:], "c")
			on := t[0] == '-'
			if strings.ContainsRune(t[1:], 'f') {
				opts = append(opts, func(o *glob.ShellOptions) { o.NoGlob = on })
			}
			// -o NAME and -O NAME take the next word, once per letter;
			// -O NAME sets a shopt option.
			for _, l := range t[1:] {
				if l != 'o' && l != 'O' {
					continue
				}
				i++
				if i >= len(c.args) {
					break
				}
				name := c.args[i].text()
				switch {
				case l == 'o' && name == "noglob":
					opts = append(opts, func(o *glob.ShellOptions) { o.NoGlob = on })
				case l == 'o':
				case shoptGlob()[name] != nil:
					f := shoptGlob()[name]
					opts = append(opts, func(o *glob.ShellOptions) { f(o, on) })
				case containsStr(shoptLater, name) || name == "globasciiranges" && !on:
					c.unknown(c.name + " " + t + " " + name + " changes what names or files mean")
					return i, hasC, nil, true
				}
			}
		}
	}
	return i, hasC, opts, false
}

// runsScript records that the command runs the script file w, which it
// reads: what the script does is not known (Command.Runs); it works in
// the command's directory (Target.Cwd).
func (c *cmdCtx) runsScript(w sword) {
	c.add(w, Read)
	c.cmd.Runs = c.name + " " + w.text()
	c.a.addWorkDir(c.cmd)
}

// versionFlags are, per interpreter, the options that alone print its
// version and run no program (python(1) -V, node(1) -v, ruby(1) -v,
// perlrun(1) -v, php(1) -v, lua(1) -v, julia --version, deno -V).
var versionFlags = []struct {
	names []string
	flags []string
}{
	{[]string{"python", "python2", "python3", "pypy", "pypy3"}, []string{"-V", "-VV", "--version"}},
	{[]string{"node", "nodejs", "bun"}, []string{"-v", "--version"}},
	{[]string{"ruby", "php", "lua", "luajit", "julia"}, []string{"-v", "--version"}},
	{[]string{"deno"}, []string{"-V", "--version"}},
	{[]string{"Rscript", "pwsh", "powershell", "osascript", "tclsh", "wish"}, []string{"--version"}},
}

// onlyVersion reports whether args are one option that prints c's version.
func (c *cmdCtx) onlyVersion() bool {
	if len(c.args) != 1 || c.args[0].unknown != "" {
		return false
	}
	for _, v := range versionFlags {
		if containsStr(v.names, c.name) && containsStr(v.flags, c.args[0].lit) {
			return true
		}
	}
	return false
}

// interpreterCmd: python -c, node -e, ruby -e, php -r, ...: inline code is
// opaque; with no script the interpreter reads stdin; alone, a version
// option runs nothing. python -m venv DIR writes DIR (venv(1)); any
// other -m module is a program (Command.Runs).
func interpreterCmd(c *cmdCtx) {
	if c.onlyVersion() {
		c.cmd.ReadOnly = true
		return
	}
	for i, w := range c.args {
		t := w.text()
		if w.unknown != "" {
			c.unknown("an argument is not static")
			return
		}
		if interpreterInline(c.name, t) {
			c.unknown(c.name + " " + t + " runs inline code")
			return
		}
		if t == "-m" { // python -m module
			if i+1 < len(c.args) && c.args[i+1].lit == "venv" && strings.HasPrefix(c.name, "py") {
				venvCmd(c, c.args[i+2:])
				return
			}
			c.cmd.Runs = strings.Join(c.cmd.Argv, " ")
			c.a.addWorkDir(c.cmd)
			return
		}
		if !strings.HasPrefix(t, "-") {
			c.runsScript(w)
			return
		}
		if t == "-" {
			break
		}
	}
	c.unknown(c.name + " reads its program from stdin")
}

// interpreterInline reports whether the option t of the interpreter name
// gives it inline code.
func interpreterInline(name, t string) bool {
	switch t {
	case "-c", "-e", "-E", "-p", "-r", "--eval", "--print", "-Command", "-command", "-EncodedCommand":
		return true
	}
	return strings.HasPrefix(t, "--eval=") || name == "deno" && t == "eval"
}

// venvCmd: python -m venv [OPTIONS] DIR... creates each DIR (venv(1)):
// recursive writes.
func venvCmd(c *cmdCtx, args []sword) {
	c.args = args
	c.spec = &cmdSpec{long: []string{"system-site-packages", "symlinks", "copies", "clear", "upgrade", "without-pip", "upgrade-deps", "without-scm-ignore-files"},
		longArg: []string{"prompt"}}
	if !c.getopt() {
		return
	}
	if len(c.ops) == 0 {
		c.unknown("python -m venv without a directory")
	}
	for _, w := range c.ops {
		c.addT(w, Write, true)
	}
}

// virtualenvCmd: virtualenv [OPTIONS] DEST creates DEST and fills its
// cache of seed packages under ~/.local/share/virtualenv (virtualenv's
// user guide, "app-data").
func virtualenvCmd(c *cmdCtx) {
	c.spec = &cmdSpec{short: "pqv", shortArg: "p",
		long: []string{"clear", "no-vcs-ignore", "system-site-packages", "symlinks", "copies", "always-copy", "no-download",
			"download", "never-download", "no-pip", "no-setuptools", "no-wheel", "quiet", "verbose", "no-periodic-update", "symlink-app-data", "reset-app-data", "read-only-app-data"},
		longArg: []string{"python", "prompt", "activators", "app-data", "seeder", "creator", "pip", "setuptools", "wheel"}}
	if !c.getopt() {
		return
	}
	if c.has("app-data") {
		v, _ := c.value("app-data")
		c.addT(v, Write, true)
	} else if home, why := c.a.home(); why == "" {
		c.addT(literal(home+"/.local/share/virtualenv"), Write, true)
	}
	if len(c.ops) != 1 {
		c.unknown("virtualenv takes one destination")
		return
	}
	c.addT(c.ops[0], Write, true)
}

// uvCmd: uv venv [DIR] creates DIR, .venv by default (uv venv --help);
// any other uv command is a program whose accesses are not known.
func uvCmd(c *cmdCtx) {
	if len(c.args) == 0 || c.args[0].unknown != "" || c.args[0].lit != "venv" {
		c.a.program(c.cmd, append([]sword{literal("uv")}, c.args...), "uv")
		return
	}
	c.args = c.args[1:]
	c.spec = &cmdSpec{short: "pq", shortArg: "p",
		long:    []string{"seed", "system-site-packages", "relocatable", "allow-existing", "clear", "quiet", "verbose", "no-project", "no-config", "offline", "native-tls", "no-cache"},
		longArg: []string{"python", "prompt", "index-strategy", "link-mode", "cache-dir", "exclude-newer", "index-url", "extra-index-url"}}
	if !c.getopt() {
		return
	}
	if len(c.ops) == 0 {
		c.ops = []sword{literal(".venv")}
	}
	for _, w := range c.ops {
		c.addT(w, Write, true)
	}
}

// crontabCmd: crontab -l lists the user's table (crontab(1)); installing
// one (FILE, -) or editing or removing it changes scheduled commands,
// which is unknown.
func crontabCmd(c *cmdCtx) {
	if len(c.args) == 1 && c.args[0].unknown == "" && c.args[0].lit == "-l" {
		c.cmd.ReadOnly = true
		return
	}
	c.unknown("crontab schedules commands")
}

// perlCmd: -e is inline code; -i edits the operands in place; -v alone
// prints the version.
func perlCmd(c *cmdCtx) {
	if len(c.args) == 1 && c.args[0].unknown == "" && (c.args[0].lit == "-v" || c.args[0].lit == "--version") {
		c.cmd.ReadOnly = true
		return
	}
	inPlace, suffix := false, ""
	var ops []sword
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		t := w.text()
		switch {
		case w.unknown != "":
			c.unknown("an argument is not static")
			return
		case t == "--":
			ops = append(ops, c.args[i+1:]...)
			i = len(c.args)
		case strings.HasPrefix(t, "-") && t != "-":
			if strings.ContainsAny(t[1:], "eE") {
				c.unknown("perl -e runs inline code")
			}
			if j := strings.IndexByte(t, 'i'); j > 0 && !strings.ContainsAny(t[1:j], "IMmlx0") {
				// -i[extension] takes the rest of the cluster (perlrun).
				inPlace, suffix = true, t[j+1:]
			}
			if t == "-I" || t == "-M" || t == "-m" {
				i++
			}
		default:
			ops = append(ops, w)
		}
	}
	if len(ops) == 0 {
		c.unknown("perl reads its program from stdin")
		return
	}
	// The first operand is the script (or -e's code), the rest its
	// arguments.
	if c.cmd.Unknown == "" {
		c.runsScript(ops[0])
	}
	if inPlace {
		for _, w := range ops[1:] {
			c.add(w, Write)
			if suffix != "" {
				c.addBackup(w, suffix)
			}
		}
	}
}

// makeOptions are GNU make's options (make(1), GNU Make 4.4; getopt_long
// takes a long one abbreviated): -O takes an optional value, attached;
// -j and -l take an optional number, which makeCmd drops beforehand; -E
// is --eval.
var makeOptions = cmdSpec{short: "bBdehiknpqrRsStvwL", shortArg: "CfIoWE", shortOpt: "O",
	long: []string{"always-make", "environment-overrides", "help", "ignore-errors", "keep-going", "check-symlink-times",
		"just-print", "dry-run", "recon", "print-data-base", "question", "no-builtin-rules", "no-builtin-variables",
		"silent", "quiet", "no-silent", "stop", "no-keep-going", "touch", "trace", "version", "print-directory",
		"no-print-directory", "warn-undefined-variables", "debug", "jobs", "load-average", "max-load", "output-sync", "shuffle"},
	longArg: []string{"directory", "file", "makefile", "include-dir", "old-file", "assume-old", "what-if", "new-file",
		"assume-new", "eval", "jobserver-auth", "jobserver-style", "debug", "jobs", "load-average", "max-load",
		"output-sync", "shuffle"}}

// makeCodeVars are make's variables that name the shell of the recipes,
// its flags, more make flags or makefiles to read (GNU make manual 5.3.2
// "Choosing the Shell", 9.7 "Overriding Variables", 6.14 "Other Special
// Variables"): given on the command line, they are code.
var makeCodeVars = []string{".SHELLFLAGS", "MAKESHELL", "MAKEFLAGS", "MFLAGS", "GNUMAKEFLAGS", "MAKEFILES", "MAKEOVERRIDES", ".RECIPEPREFIX"}

// makeProgramVars are the variables whose value is a program the recipes
// run (GNU make manual 10.3 "Variables Used by Implicit Rules", SHELL and
// MAKE): a value with arguments is a command line.
var makeProgramVars = []string{"SHELL", "MAKE", "AR", "AS", "CC", "CXX", "CPP", "FC", "M2C", "PC", "CO", "GET", "LEX", "YACC",
	"LINT", "MAKEINFO", "TEX", "TEXI2DVI", "WEAVE", "CWEAVE", "TANGLE", "CTANGLE", "RM", "LD"}

// makeAssignment says why a make operand that assigns a variable (NAME=VALUE,
// NAME:=VALUE, NAME!=COMMAND, ...) is inline code, or "": a value holding
// "$" or "`" expands in make ($(shell ...), $(file <F)) or in the recipe's
// shell, != runs its command, shell metacharacters splice commands into
// the recipes, the variables of makeCodeVars are code, and those of
// makeProgramVars with arguments a command line.
func makeAssignment(w sword) string {
	if w.unknown != "" {
		return ""
	}
	i := strings.IndexByte(w.lit, '=')
	if i <= 0 {
		return ""
	}
	name, value := w.lit[:i], w.lit[i+1:]
	op := ""
	for _, o := range []string{":::", "::", ":", "!", "+", "?"} {
		if n, ok := strings.CutSuffix(name, o); ok {
			name, op = n, o
			break
		}
	}
	name = strings.TrimSpace(name)
	if name == "" || strings.ContainsAny(name, " \t/") {
		return "" // a target named with "=", not an assignment
	}
	switch {
	case op == "!":
		return "the assignment " + name + "!= runs a command"
	case strings.ContainsAny(value, "$`"):
		return "the value of " + name + " expands: $(shell ...), $(file ...) or a command substitution"
	case strings.ContainsAny(value, ";|&<>()\n"):
		return "the value of " + name + " holds shell syntax the recipes run"
	case containsStr(makeCodeVars, name):
		return name + " changes how make reads makefiles or runs recipes"
	case containsStr(makeProgramVars, name) && strings.ContainsAny(strings.TrimSpace(value), " \t"):
		return name + " names a command line the recipes run"
	}
	return ""
}

// makeCmd: make runs the recipes of its makefile, shell commands safezone
// does not see: a program whose accesses are not known (Command.Runs). It
// reads the makefiles of -f (--file, --makefile) and the directories of -I
// (--include-dir), and works in -C DIR (--directory), where -f's relative
// names are; --eval (-E), a makefile from stdin (-f -) and the variable
// assignments of makeAssignment are inline code (make(1)).
func makeCmd(c *cmdCtx) {
	var args []sword
	for i, w := range c.args {
		if w.unknown == "" && (w.lit == "-j" || w.lit == "-l" || strings.HasPrefix(w.lit, "-j") && isNumber(w.lit[2:]) || strings.HasPrefix(w.lit, "-l") && isNumber(w.lit[2:])) {
			continue // -j and -l alone take no value
		}
		if w.unknown == "" && isNumber(w.lit) && i > 0 && (c.args[i-1].lit == "-j" || c.args[i-1].lit == "-l") {
			continue // their optional number
		}
		args = append(args, w)
	}
	c.args = args
	c.spec = &makeOptions
	if !c.getopt() {
		return
	}
	if c.has("eval", "E") {
		c.unknown("make --eval runs inline code")
		return
	}
	for _, w := range c.ops {
		if why := makeAssignment(w); why != "" {
			c.unknown(why)
			return
		}
	}
	for _, o := range c.opts {
		if (o.name == "C" || o.name == "directory") && o.has {
			c.a.cdTemp(o.val)
			defer c.a.cdRestore()
		}
	}
	for _, o := range c.opts {
		switch {
		case !o.has:
		case (o.name == "f" || o.name == "file" || o.name == "makefile") && o.val.unknown == "" && o.val.lit == "-":
			c.unknown("make -f - reads a makefile from stdin")
			return
		case o.name == "f" || o.name == "file" || o.name == "makefile" || o.name == "I" || o.name == "include-dir":
			c.add(o.val, Read)
		}
	}
	c.a.program(c.cmd, append([]sword{literal(c.name)}, c.ops...), c.name)
}

// sqliteCmd: sqlite3 [OPTIONS] DATABASE SQL... reads and writes DATABASE
// (only reads it with -readonly). SQL read from stdin, dot-commands
// (.shell, .output, .read, ...), -cmd and -init, and the functions that
// touch files or run programs (readfile, writefile, edit, load_extension,
// ATTACH, VACUUM INTO) are unknown (sqlite3(1), "Command Line Shell For
// SQLite").
func sqliteCmd(c *cmdCtx) {
	var ops []sword
	readOnly := false
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		t := w.text()
		switch {
		case w.unknown != "" && len(ops) == 0:
			c.unknown("the sqlite3 database is not static")
			return
		case w.unknown == "" && len(ops) == 0 && strings.HasPrefix(t, "-"):
			switch strings.TrimPrefix(t, "-") {
			case "cmd", "-cmd", "init", "-init", "A", "-A", "deserialize", "-deserialize":
				c.unknown("sqlite3 " + t + " runs commands safezone does not read")
				return
			case "readonly", "-readonly":
				readOnly = true
			case "separator", "-separator", "nullvalue", "-nullvalue", "newline", "-newline", "vfs", "-vfs",
				"lookaside", "-lookaside", "pagecache", "-pagecache", "maxsize", "-maxsize", "mmap", "-mmap", "heap", "-heap":
				i++
			}
		default:
			ops = append(ops, w)
		}
	}
	if len(ops) < 2 {
		c.unknown("sqlite3 reads its SQL from stdin")
		return
	}
	if db := ops[0]; db.lit != ":memory:" && db.lit != "" {
		if readOnly {
			c.add(db, Read)
		} else {
			c.add(db, Write)
		}
	}
	for _, sql := range ops[1:] {
		if why := sqliteUnsafe(sql); why != "" {
			c.unknown(why)
		}
	}
	c.cmd.ReadOnly = readOnly && c.cmd.Unknown == ""
}

// sqliteUnsafe says why a SQL argument of sqlite3 is unknown, or "".
func sqliteUnsafe(sql sword) string {
	if sql.unknown != "" {
		return "the SQL is not static"
	}
	low := strings.ToLower(sql.lit)
	for _, line := range strings.Split(low, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), ".") {
			return "sqlite3 runs a dot-command"
		}
	}
	for _, f := range []string{"readfile", "writefile", "edit", "load_extension", "attach", "vacuum", "fts3_tokenizer", "zipfile", "sqlar"} {
		if strings.Contains(low, f) {
			return "the SQL touches files or runs programs (" + f + ")"
		}
	}
	return ""
}
