package classify

import (
	"path"
	"strings"

	"github.com/safezonehq/safezone/classify/glob"

	"mvdan.cc/sh/v3/syntax"

	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// call analyses one simple command.
func (a *analyzer) call(c *syntax.CallExpr, depth int) {
	if len(c.Args) == 0 {
		// A bare assignment: no targets.
		for _, as := range c.Assigns {
			a.assign(as, depth)
		}
		a.cmds = append(a.cmds, ShellCommand{Argv: []string{assignText(c.Assigns)}, Cwd: a.cwd, ReadOnly: true, Unknown: execAssign(c.Assigns)})
		return
	}
	// Assignments before a command only set its environment; their
	// values still expand (and may run substitutions).
	execVar := ""
	for _, as := range c.Assigns {
		if as.Value != nil {
			a.word(as.Value, depth)
		}
		if as.Name != nil && isExecEnvVar(as.Name.Value) && execVar == "" {
			execVar = as.Name.Value
		}
	}
	words := make([]sword, len(c.Args))
	for i, w := range c.Args {
		words[i] = a.word(w, depth)
	}
	cmd := ShellCommand{Cwd: a.cwd}
	a.simple(&cmd, words, depth)
	if execVar != "" && cmd.Unknown == "" {
		cmd.Unknown = execVar + " names a command or code the program may run"
	}
	a.cmds = append(a.cmds, cmd)
}

// execAssign says why an assignment may make later commands run code it
// names (PAGER=..., export GIT_SSH_COMMAND=...), or "".
func execAssign(as []*syntax.Assign) string {
	for _, x := range as {
		if x.Name != nil && isExecEnvVar(x.Name.Value) {
			return "setting " + x.Name.Value + " names a command or code later programs may run"
		}
	}
	return ""
}

func assignText(as []*syntax.Assign) string {
	var parts []string
	for _, x := range as {
		if x.Name != nil {
			parts = append(parts, x.Name.Value+"=")
		}
	}
	return strings.Join(parts, " ")
}

// simple judges one command's words: wrappers are stripped, then the
// command is looked up in the table.
func (a *analyzer) simple(cmd *ShellCommand, words []sword, depth int) {
	words, why := stripWrappers(words)
	cmd.Argv = texts(words)
	if why != "" {
		cmd.Unknown = why
		return
	}
	if len(words) == 0 {
		cmd.ReadOnly = true
		return
	}
	if words[0].unknown != "" {
		cmd.Unknown = "the program name is not static (" + words[0].unknown + ")"
		return
	}
	name := path.Base(words[0].lit)
	cmd.Argv[0] = name
	s := spec(name)
	if s == nil {
		cmd.Runs = name // an ordinary program: no known targets
		return
	}
	ctx := &cmdCtx{a: a, spec: s, name: name, args: words[1:], depth: depth, cmd: cmd}
	ctx.run()
}

func texts(ws []sword) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.text()
	}
	return out
}

// stripWrappers removes the commands that only run another command (sudo,
// env, command, builtin, exec, nice, nohup, time, timeout, stdbuf, ionice,
// doas) with their options. It returns why the rest cannot be known, if so.
func stripWrappers(ws []sword) ([]sword, string) {
	for len(ws) > 0 {
		if ws[0].unknown != "" {
			return ws, ""
		}
		name := path.Base(ws[0].lit)
		args := ws[1:]
		var rest []sword
		var ok bool
		switch name {
		case "sudo", "doas":
			rest, ok = skipOptions(args, "ABbEeHiKklnPSsVv", "CDghpRrTtUu", []string{"preserve-env", "login", "shell", "non-interactive", "stdin", "background", "set-home", "reset-timestamp", "remove-timestamp", "validate", "list", "edit", "askpass", "bell"}, []string{"user", "group", "host", "prompt", "role", "type", "close-from", "chdir", "command-timeout", "other-user", "chroot", "preserve-env"})
			for _, w := range args[:len(args)-len(rest)] {
				if t := w.text(); t == "-i" || t == "-s" || t == "--login" || t == "--shell" || t == "-e" || t == "--edit" {
					return nil, "sudo " + t + " runs a shell or an editor"
				}
			}
			if ok && len(rest) == 0 {
				return nil, "" // sudo -v, sudo -k: no command
			}
		case "env":
			rest, ok = skipOptions(args, "i0v", "uCS", []string{"ignore-environment", "null", "debug"}, []string{"unset", "chdir", "split-string", "default-signal", "ignore-signal", "block-signal"})
			for _, w := range args[:len(args)-len(rest)] {
				if t := w.text(); t == "-S" || strings.HasPrefix(t, "--split-string") {
					return nil, "env -S splits a string into a command"
				}
				if t := w.text(); t == "-C" || strings.HasPrefix(t, "--chdir") {
					return nil, "env -C runs the command in another directory"
				}
			}
			for len(rest) > 0 && rest[0].unknown == "" && strings.Contains(rest[0].lit, "=") && !strings.HasPrefix(rest[0].lit, "=") {
				if name, _, _ := strings.Cut(rest[0].lit, "="); isExecEnvVar(name) {
					return nil, name + " names a command or code the program may run"
				}
				rest = rest[1:]
			}
		case "command":
			rest, ok = skipOptions(args, "pvV", "", nil, nil)
			for _, w := range args[:len(args)-len(rest)] {
				if t := w.text(); t == "-v" || t == "-V" {
					return nil, "" // command -v: a lookup, nothing runs
				}
			}
		case "builtin", "nohup":
			rest, ok = skipOptions(args, "", "", nil, nil)
		case "exec":
			rest, ok = skipOptions(args, "cl", "a", nil, nil)
		case "time":
			rest, ok = skipOptions(args, "pv", "fo", []string{"portability", "verbose", "append"}, []string{"format", "output"})
		case "nice":
			rest, ok = skipOptions(args, "", "n", nil, []string{"adjustment"})
			if ok && len(rest) > 0 && rest[0].unknown == "" && isNumber(strings.TrimPrefix(rest[0].lit, "-")) {
				rest = rest[1:]
			}
		case "timeout":
			rest, ok = skipOptions(args, "fpv", "ks", []string{"foreground", "preserve-status", "verbose"}, []string{"kill-after", "signal"})
			if ok && len(rest) > 0 {
				rest = rest[1:] // the duration
			}
		case "stdbuf":
			rest, ok = skipOptions(args, "", "ioe", nil, []string{"input", "output", "error"})
		case "ionice":
			rest, ok = skipOptions(args, "tu", "cnp", []string{"ignore"}, []string{"class", "classdata", "pid", "pgid", "uid"})
		default:
			return ws, ""
		}
		if !ok {
			return nil, name + ": an option safezone does not know"
		}
		ws = rest
	}
	return ws, ""
}

// skipOptions skips a wrapper's options and returns the command after them.
func skipOptions(ws []sword, short, shortArg string, long, longArg []string) ([]sword, bool) {
	c := &cmdCtx{spec: &cmdSpec{short: short, shortArg: shortArg, long: long, longArg: longArg}, args: ws, cmd: &ShellCommand{}}
	for i := 0; i < len(ws); i++ {
		t := ws[i].text()
		if ws[i].unknown != "" || !strings.HasPrefix(t, "-") || t == "-" {
			return ws[i:], true
		}
		if t == "--" {
			return ws[i+1:], true
		}
		c.args = ws[i : i+1]
		if name, ok := strings.CutPrefix(t, "--"); ok {
			name, _, hasVal := strings.Cut(name, "=")
			if containsStr(longArg, name) && !hasVal {
				i++
				continue
			}
			if containsStr(long, name) || containsStr(longArg, name) {
				continue
			}
			return nil, false
		}
		letters := t[1:]
		for j := 0; j < len(letters); j++ {
			switch {
			case strings.IndexByte(shortArg, letters[j]) >= 0:
				if j == len(letters)-1 {
					i++
				}
				j = len(letters)
			case strings.IndexByte(short, letters[j]) >= 0:
			default:
				return nil, false
			}
		}
	}
	return nil, true
}

// --- Builtins that move the analysis itself.

func cdCmd(c *cmdCtx) {
	c.cmd.ReadOnly = true
	physical := false
	var dir *sword
	for i := range c.args {
		w := c.args[i]
		if w.unknown == "" && strings.HasPrefix(w.lit, "-") && w.lit != "-" {
			if w.lit == "-P" {
				physical = true
			}
			continue
		}
		dir = &c.args[i]
		break
	}
	if dir == nil {
		home := sword{lit: c.a.env.Home, pat: glob.Escape(c.a.env.Home), src: "~"}
		if c.a.env.Home == "" {
			home.unknown = "HOME is not set"
		}
		c.a.cd(home, physical)
		return
	}
	if dir.unknown == "" && dir.lit == "-" {
		c.a.cd(sword{src: "-", unknown: "cd - goes to $OLDPWD"}, physical)
		return
	}
	if c.name == "pushd" {
		c.a.dirs = append(c.a.dirs, c.a.cwd)
	}
	c.a.cd(*dir, physical)
}

func popdCmd(c *cmdCtx) {
	c.cmd.ReadOnly = true
	if n := len(c.a.dirs); n > 0 {
		c.a.cwd, c.a.dirs = c.a.dirs[n-1], c.a.dirs[:n-1]
		c.a.cdTo = c.a.cwd
		return
	}
	c.a.cwd, c.a.cdTo = nil, nil
}

// readCmd: read, readarray, unset make their variables unknown.
func readCmd(c *cmdCtx) {
	c.cmd.ReadOnly = true
	for _, w := range c.args {
		if w.unknown == "" && !strings.HasPrefix(w.lit, "-") {
			c.a.vars[w.lit] = shellVar{}
		}
	}
}

// printfCmd: printf -v VAR assigns a variable.
func printfCmd(c *cmdCtx) {
	c.cmd.ReadOnly = true
	for i, w := range c.args {
		if w.unknown == "" && w.lit == "-v" && i+1 < len(c.args) {
			c.a.vars[c.args[i+1].lit] = shellVar{}
		}
	}
}

// trapCmd analyses the command a trap will run.
func trapCmd(c *cmdCtx) {
	c.cmd.ReadOnly = true
	if len(c.args) > 1 && c.args[0].unknown == "" && !strings.HasPrefix(c.args[0].lit, "-") {
		c.script(c.args[0])
	}
}

// script analyses a static string as a nested script (bash -c).
func (c *cmdCtx) script(w sword) {
	if w.unknown != "" {
		c.unknown("the script is not static: " + w.unknown)
		return
	}
	st := c.a.save()
	c.a.script(w.lit, c.depth+1)
	c.a.restore(st)
}

// sourceCmd: source and . read the file and run its commands, which
// safezone cannot see.
func sourceCmd(c *cmdCtx) {
	if len(c.args) == 0 {
		return
	}
	c.add(c.args[0], policy.Read)
	c.unknown("source runs the commands of " + c.args[0].text())
}

// shellCmd: bash, sh, zsh. -c SCRIPT is analysed as a script; a script file
// is read and runs as an ordinary program (ShellCommand.Runs); reading
// commands from stdin is unknown.
func shellCmd(c *cmdCtx) {
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		t := w.text()
		if w.unknown != "" {
			c.unknown("an argument of the shell is not static")
			return
		}
		switch {
		case t == "-c" || (strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.Contains(t, "c") && !strings.ContainsAny(t[1:], "o")):
			if i+1 >= len(c.args) {
				c.unknown("-c without a script")
				return
			}
			c.script(c.args[i+1])
			return
		case t == "-s" || t == "-i":
			c.unknown(c.name + " " + t + " reads its commands from stdin")
			return
		case t == "-o" || t == "+o" || t == "-O" || t == "+O" || t == "--rcfile" || t == "--init-file":
			i++
		case strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+"):
		default:
			c.runsScript(w)
			return
		}
	}
	c.unknown(c.name + " reads its commands from stdin")
}

// runsScript records that the command runs the script file w, which it
// reads: what the script does is not known (ShellCommand.Runs).
func (c *cmdCtx) runsScript(w sword) {
	c.add(w, policy.Read)
	c.cmd.Runs = c.name + " " + w.text()
}

// interpreterCmd: python -c, node -e, ruby -e, php -r, ...: inline code is
// opaque; with no script the interpreter reads stdin.
func interpreterCmd(c *cmdCtx) {
	inline := map[string]bool{"-c": true, "-e": true, "-E": true, "-p": true, "-r": true, "--eval": true, "--print": true, "-Command": true, "-command": true, "-EncodedCommand": true}
	for _, w := range c.args {
		t := w.text()
		if w.unknown != "" {
			c.unknown("an argument is not static")
			return
		}
		if inline[t] || strings.HasPrefix(t, "--eval=") || (c.name == "deno" && t == "eval") {
			c.unknown(c.name + " " + t + " runs inline code")
			return
		}
		if t == "-m" { // python -m module: an ordinary program
			c.cmd.Runs = strings.Join(c.cmd.Argv, " ")
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

// perlCmd: -e is inline code; -i edits the operands in place.
func perlCmd(c *cmdCtx) {
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
			c.add(w, policy.Write)
			if suffix != "" {
				c.addBackup(w, suffix)
			}
		}
	}
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
		c.add(v, policy.Read)
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
	s := spec(path.Base(rest[0].lit))
	switch {
	case s == nil:
		return // an ordinary program
	case s.role == roleNone:
		c.cmd.ReadOnly = true
	default:
		c.unknown("xargs feeds " + path.Base(rest[0].lit) + " operands from stdin, which safezone cannot see")
	}
}

func optionValue(ws []sword, names ...string) (sword, bool) {
	for i, w := range ws {
		for _, n := range names {
			if w.text() == n && i+1 < len(ws) {
				return ws[i+1], true
			}
			if v, ok := strings.CutPrefix(w.text(), n+"="); ok {
				return sword{lit: v, pat: glob.Escape(v), src: v}, true
			}
		}
	}
	return sword{}, false
}

// chmodCmd: the first operand is a mode, which may look like an option
// ("chmod -x file").
func chmodCmd(c *cmdCtx) {
	var args []sword
	mode := false
	for _, w := range c.args {
		if !mode && w.unknown == "" && isModeWord(w.lit) {
			mode = true
			continue
		}
		args = append(args, w)
	}
	c.args = args
	if !c.getopt() {
		return
	}
	ops := c.ops
	if !mode && !c.has("reference") && len(ops) > 0 {
		ops = ops[1:]
	}
	if v, ok := c.value("reference"); ok {
		c.add(v, policy.Read)
	}
	rec := c.has("R", "recursive")
	for _, w := range ops {
		c.addT(w, policy.Write, rec)
	}
}

func isModeWord(s string) bool {
	if len(s) < 2 || (s[0] != '-' && s[0] != '+' && s[0] != '=') {
		return false
	}
	return strings.Trim(s[1:], "rwxXstugo") == "" && strings.ContainsAny(s[1:], "rwxXst")
}

// installCmd: with -d every operand is a directory to create.
func installCmd(c *cmdCtx) {
	if !c.getopt() {
		return
	}
	if c.has("d", "directory") {
		for _, w := range c.ops {
			c.add(w, policy.Write)
		}
		return
	}
	c.copyLike(c.ops, false)
}

// uniqCmd: uniq [INPUT [OUTPUT]].
func uniqCmd(c *cmdCtx) { inOutCmd(c) }

// xxdCmd: xxd [INFILE [OUTFILE]].
func xxdCmd(c *cmdCtx) {
	c.spec = &cmdSpec{short: "abCeEiprudhuvR", shortArg: "cglosn", numeric: false}
	inOutCmd(c)
}

// inOutCmd: CMD [INPUT [OUTPUT]]: the first operand is read, the second
// written (stdin and stdout without them).
func inOutCmd(c *cmdCtx) {
	if !c.getopt() {
		return
	}
	if len(c.ops) > 0 {
		c.add(c.ops[0], policy.Read)
	}
	if len(c.ops) > 1 {
		c.add(c.ops[1], policy.Write)
	}
	c.cmd.ReadOnly = len(c.ops) < 2
}

// ddCmd: dd operands are key=value; if= is read, of= written.
func ddCmd(c *cmdCtx) {
	ro := true
	for _, w := range c.args {
		if w.unknown != "" {
			c.unknown("a dd operand is not static: " + w.unknown)
			continue
		}
		k, v, ok := strings.Cut(w.lit, "=")
		if !ok {
			continue
		}
		val := sword{lit: v, pat: glob.Escape(v), src: v}
		switch k {
		case "if":
			c.add(val, policy.Read)
		case "of":
			c.add(val, policy.Write)
			ro = false
		}
	}
	c.cmd.ReadOnly = ro
}

// compressFormats are the suffixes of gzip, bzip2, xz and zstd (their
// manuals: gzip(1) -S and "gunzip ... .gz, -gz, .z, -z, _z or .Z ... .tgz
// and .taz as shorthands for .tar.gz and .tar.Z", bzip2(1), xz(1),
// zstd(1)): the suffix compression appends, and the suffixes
// decompression strips with what it puts instead.
var compressFormats = map[string]struct {
	suffix string
	strip  [][2]string
}{
	"gzip":  {".gz", [][2]string{{".gz", ""}, {"-gz", ""}, {".z", ""}, {"-z", ""}, {"_z", ""}, {".Z", ""}, {".tgz", ".tar"}, {".taz", ".tar"}}},
	"bzip2": {".bz2", [][2]string{{".bz2", ""}, {".bz", ""}, {".tbz2", ".tar"}, {".tbz", ".tar"}}},
	"xz":    {".xz", [][2]string{{".xz", ""}, {".txz", ".tar"}, {".lzma", ""}, {".tlz", ".tar"}}},
	"zstd":  {".zst", [][2]string{{".zst", ""}, {".tzst", ".tar"}}},
}

// compressCmd: gzip, bzip2, xz and zstd, and their gunzip, bunzip2, unxz
// and unzstd. Compressing FILE writes FILE.SUFFIX and removes FILE;
// decompressing FILE.SUFFIX writes FILE and removes FILE.SUFFIX; -k (and
// zstd without --rm) keeps the input, which is then only read; -c, -t and
// -l only read; zstd -o names the output; -r recurses into directories.
func compressCmd(c *cmdCtx) {
	family, decompress := c.name, false
	switch c.name {
	case "gunzip":
		family, decompress = "gzip", true
	case "bunzip2":
		family, decompress = "bzip2", true
	case "unxz", "unlzma":
		family, decompress = "xz", true
	case "unzstd":
		family, decompress = "zstd", true
	case "lzma":
		family = "xz"
	}
	switch family {
	case "zstd":
		c.spec = &cmdSpec{short: "cdfhklqrtvVz0123456789", shortArg: "oDTBLM",
			long:    []string{"stdout", "decompress", "uncompress", "compress", "force", "help", "keep", "rm", "quiet", "test", "verbose", "version", "ultra", "long", "fast", "rsyncable", "sparse", "no-sparse", "no-progress", "progress", "single-thread", "no-check", "check", "list", "exclude-compressed", "content-size", "no-content-size", "adapt", "auto-threads", "patch-from"},
			longArg: []string{"output-dir-flat", "output-dir-mirror", "threads", "memory", "format", "zstd", "block-size", "stream-size", "size-hint", "target-compressed-block-size", "filelist", "patch-from"}}
	case "xz":
		c.spec = &cmdSpec{short: "zdtlkfcqvhHVeF0123456789", shortArg: "CTMS",
			long:    []string{"compress", "decompress", "uncompress", "test", "list", "keep", "force", "stdout", "to-stdout", "single-stream", "no-sparse", "extreme", "quiet", "verbose", "help", "long-help", "version", "robot", "no-adjust", "ignore-check", "lzma1", "lzma2", "x86", "powerpc", "ia64", "arm", "armthumb", "arm64", "sparc", "riscv", "delta", "flush-timeout"},
			longArg: []string{"suffix", "format", "check", "threads", "memlimit", "memory", "memlimit-compress", "memlimit-decompress", "memlimit-mt", "block-size", "block-list", "files", "files0", "filters", "filters1", "preset"}}
	default: // gzip, bzip2
		c.spec = &cmdSpec{short: "acdfhklLnNqrstvVzZ0123456789", shortArg: "S",
			long:    []string{"ascii", "stdout", "to-stdout", "decompress", "uncompress", "force", "help", "keep", "list", "license", "no-name", "name", "quiet", "recursive", "rsyncable", "test", "verbose", "version", "fast", "best", "small", "compress", "synchronous", "no-time", "repeat-fast", "exponential"},
			longArg: []string{"suffix"}}
	}
	if !c.getopt() {
		return
	}
	if c.has("files", "files0", "filelist") {
		c.unknown(c.name + " reads its file names from a file")
		return
	}
	if c.has("output-dir-flat", "output-dir-mirror") {
		c.unknown(c.name + ": an output directory safezone does not follow")
		return
	}
	decompress = decompress || c.has("d", "decompress", "uncompress")
	if c.has("c", "stdout", "to-stdout", "t", "test", "l", "list") {
		for _, w := range c.ops {
			c.add(w, policy.Read)
		}
		c.cmd.ReadOnly = true
		return
	}
	f := compressFormats[family]
	suffix := f.suffix
	if c.name == "lzma" || c.has("format") {
		if c.name != "lzma" {
			c.unknown(c.name + " --format: the suffix follows the format")
			return
		}
		suffix = ".lzma"
	}
	if v, ok := c.value("S", "suffix"); ok {
		if v.unknown != "" {
			c.unknown(c.name + " -S: the suffix is not static")
			return
		}
		suffix = v.lit
		f.strip = append([][2]string{{suffix, ""}}, f.strip...)
	}
	keep := c.has("k", "keep") || (family == "zstd" && !c.has("rm"))
	recursive := c.has("r", "recursive")
	if out, ok := c.value("o"); ok { // zstd -o FILE
		c.add(out, policy.Write)
		for _, w := range c.ops {
			c.add(w, policy.Read)
		}
		return
	}
	for _, w := range c.ops {
		if w.unknown != "" || w.lit == "-" {
			c.add(w, policy.Read) // unknown, or stdin to stdout
			continue
		}
		if recursive {
			// A directory: every file below is replaced.
			c.addT(w, policy.Write, true)
			continue
		}
		if keep {
			c.add(w, policy.Read)
		} else {
			c.add(w, policy.Write)
		}
		if decompress {
			for _, st := range f.strip {
				if base, ok := strings.CutSuffix(w.lit, st[0]); ok && base != "" && !strings.HasSuffix(base, "/") {
					out := w
					out.lit = base
					out.pat = strings.TrimSuffix(w.pat, glob.Escape(st[0]))
					out.src = strings.TrimSuffix(w.src, st[0])
					c.add(withSuffix(out, st[1]), policy.Write)
					break
				}
			}
		} else {
			c.add(withSuffix(w, suffix), policy.Write)
		}
	}
}

// withSuffix returns the static word w with suf appended.
func withSuffix(w sword, suf string) sword {
	w.lit += suf
	w.pat += glob.Escape(suf)
	w.src += suf
	return w
}

// grepCmd: grep PATTERN FILE... (or -e/-f); -r without files reads the
// working directory; --include globs name files below the searched
// directories.
func grepCmd(c *cmdCtx) {
	c.spec = &cmdSpec{
		short:    "abcEFGhHiIlLnoPqrRsTUvwxyzZ0",
		shortArg: "efmABCdD",
		long: []string{"extended-regexp", "fixed-strings", "basic-regexp", "perl-regexp", "ignore-case", "no-ignore-case",
			"word-regexp", "line-regexp", "null-data", "invert-match", "count", "color", "colour", "files-with-matches",
			"files-without-match", "only-matching", "quiet", "silent", "no-messages", "byte-offset", "with-filename",
			"no-filename", "line-number", "recursive", "dereference-recursive", "text", "null", "initial-tab",
			"line-buffered", "binary", "unix-byte-offsets", "no-index"},
		longArg: []string{"regexp", "file", "max-count", "after-context", "before-context", "context", "include",
			"exclude", "exclude-dir", "exclude-from", "binary-files", "devices", "directories", "label", "color", "colour", "group-separator"},
	}
	if !c.getopt() {
		return
	}
	for _, o := range c.opts {
		if (o.name == "f" || o.name == "file" || o.name == "exclude-from") && o.has {
			c.add(o.val, policy.Read)
		}
	}
	ops := c.ops
	if !c.has("e", "regexp", "f", "file") {
		if len(ops) == 0 {
			c.cmd.ReadOnly = true
			return
		}
		ops = ops[1:]
	}
	recursive := c.has("r", "R", "recursive", "dereference-recursive")
	if len(ops) == 0 && recursive {
		ops = []sword{{lit: ".", pat: ".", src: "."}}
	}
	for _, w := range ops {
		c.add(w, policy.Read)
		if recursive {
			for _, o := range c.opts {
				if o.name == "include" && o.has {
					c.filter(w, o.val, policy.Read)
				}
			}
		}
	}
	c.cmd.ReadOnly = true
}

// filter adds a pattern target: the files below dir that pattern selects
// (a glob without "/" matches names at any depth).
func (c *cmdCtx) filter(dir, pattern sword, access policy.Access) {
	if dir.unknown != "" || pattern.unknown != "" {
		c.unknown("a search directory or glob is not static")
		return
	}
	g := pattern.lit
	if strings.HasPrefix(g, "!") {
		return
	}
	if !strings.Contains(g, "/") {
		g = "**/" + g
	}
	ts, why := c.a.targets(sword{lit: dir.lit, pat: dir.pat, src: dir.src}, access)
	if why != "" {
		c.unknown(why)
		return
	}
	for _, t := range ts {
		base := t.Path
		if !t.Glob {
			base = glob.Escape(path.Clean(t.Path))
		}
		c.cmd.Targets = append(c.cmd.Targets, ShellTarget{Path: strings.TrimSuffix(base, "/") + "/" + g, Given: path.Join(t.Given, pattern.lit), Access: access, Pattern: true})
	}
}

// rgCmd: rg PATTERN [PATH...]; no path reads the working directory; -g/--glob
// name files below the searched paths; --pre runs a program per file.
func rgCmd(c *cmdCtx) {
	c.spec = &cmdSpec{
		short:    "abcFHhiIlLnNopPqsSuUvwxz0",
		shortArg: "efgtTmABCrMjEd",
		long: []string{"case-sensitive", "count", "count-matches", "fixed-strings", "follow", "hidden", "ignore-case",
			"files", "files-with-matches", "files-without-match", "line-number", "no-line-number", "only-matching",
			"quiet", "smart-case", "text", "unrestricted", "invert-match", "word-regexp", "line-regexp", "null",
			"no-ignore", "no-ignore-vcs", "no-heading", "heading", "json", "vimgrep", "with-filename", "no-filename",
			"pcre2", "multiline", "multiline-dotall", "search-zip", "trim", "sort-files", "stats", "column",
			"no-messages", "binary", "no-config", "one-file-system", "pretty", "byte-offset", "crlf", "passthru",
			"debug", "trace", "list-file-types", "type-list", "no-require-git", "hyperlink"},
		longArg: []string{"regexp", "file", "glob", "iglob", "type", "type-not", "max-count", "after-context",
			"before-context", "context", "replace", "max-columns", "threads", "encoding", "max-depth", "type-add",
			"sort", "sortr", "colors", "color", "path-separator", "ignore-file", "max-filesize", "engine",
			"field-match-separator", "field-context-separator", "context-separator", "dfa-size-limit",
			"regex-size-limit", "pre-glob", "hyperlink-format", "generate"},
	}
	for _, w := range c.args {
		if t := w.text(); t == "--pre" || strings.HasPrefix(t, "--pre=") {
			c.unknown("rg --pre runs a program on every file")
			return
		}
	}
	if !c.getopt() {
		return
	}
	for _, o := range c.opts {
		if (o.name == "f" || o.name == "file" || o.name == "ignore-file") && o.has {
			c.add(o.val, policy.Read)
		}
	}
	ops := c.ops
	if !c.has("e", "regexp", "f", "file") && !c.has("files", "type-list") {
		if len(ops) == 0 {
			c.cmd.ReadOnly = true
			return
		}
		ops = ops[1:]
	}
	if len(ops) == 0 {
		ops = []sword{{lit: ".", pat: ".", src: "."}}
	}
	for _, w := range ops {
		c.add(w, policy.Read)
		for _, o := range c.opts {
			if (o.name == "g" || o.name == "glob" || o.name == "iglob") && o.has {
				c.filter(w, o.val, policy.Read)
			}
		}
	}
	c.cmd.ReadOnly = true
}

// sedCmd: sed SCRIPT FILE... reads the files, or writes them with -i; a
// script's own w, W, r, R and e commands (and s///w, s///e) write, read or
// run other things, which makes the command unknown.
func sedCmd(c *cmdCtx) {
	c.spec = &cmdSpec{
		short:    "nrEsuzl",
		shortArg: "eflS",
		long:     []string{"quiet", "silent", "regexp-extended", "separate", "unbuffered", "null-data", "posix", "debug", "sandbox", "follow-symlinks"},
		longArg:  []string{"expression", "file", "line-length"},
	}
	// -i[SUFFIX] and --in-place[=SUFFIX] take their value attached; in a
	// cluster (-ni.bak) -i takes the rest of the word, after letters
	// without a value.
	inPlace, suffix := false, ""
	var args []sword
	for k, w := range c.args {
		t := w.text()
		if w.unknown != "" || !strings.HasPrefix(t, "-") || t == "-" {
			args = append(args, w)
			continue
		}
		if t == "--" {
			args = append(args, c.args[k:]...)
			break
		}
		if v, ok := strings.CutPrefix(t, "--in-place"); ok && (v == "" || v[0] == '=') {
			inPlace, suffix = true, strings.TrimPrefix(v, "=")
			continue
		}
		if !strings.HasPrefix(t, "--") {
			if j := sedInPlaceLetter(t[1:], c.spec.shortArg); j >= 0 {
				inPlace, suffix = true, t[1+j+1:]
				w.lit = t[:1+j]
				w.src = w.lit
				if w.lit == "-" {
					continue
				}
			}
		}
		args = append(args, w)
	}
	c.args = args
	if !c.getopt() {
		return
	}
	var scripts []sword
	for _, o := range c.opts {
		switch {
		case (o.name == "e" || o.name == "expression") && o.has:
			scripts = append(scripts, o.val)
		case (o.name == "f" || o.name == "file") && o.has:
			c.add(o.val, policy.Read)
			c.unknown("sed -f runs a script file safezone does not read")
		}
	}
	ops := c.ops
	if !c.has("e", "expression", "f", "file") {
		if len(ops) == 0 {
			return
		}
		scripts, ops = append(scripts, ops[0]), ops[1:]
	}
	for _, s := range scripts {
		if s.unknown != "" {
			c.unknown("the sed script is not static")
		} else if why := sedScriptEffects(s.lit); why != "" {
			c.unknown(why)
		}
	}
	access := policy.Read
	if inPlace {
		access = policy.Write
	}
	for _, w := range ops {
		c.add(w, access)
		if inPlace && suffix != "" {
			c.addBackup(w, suffix)
		}
	}
	c.cmd.ReadOnly = !inPlace && c.cmd.Unknown == ""
}

// sedInPlaceLetter returns the index of an -i in the option cluster
// letters (without the leading "-"), or -1: letters before it must take no
// value (in "-es/i/x/" the i is -e's).
func sedInPlaceLetter(letters, withValue string) int {
	for j := 0; j < len(letters); j++ {
		switch {
		case letters[j] == 'i':
			return j
		case strings.IndexByte(withValue, letters[j]) >= 0:
			return -1
		}
	}
	return -1
}

// addBackup adds the backup copy that sed -iSUFFIX and perl -iSUFFIX make
// of the file w: w with SUFFIX appended, or SUFFIX with each "*" replaced
// by w's base name, in w's directory (sed(1) --in-place, perlrun(1) -i).
// A backup into another directory ("bak/*") is unknown.
func (c *cmdCtx) addBackup(w sword, suffix string) {
	if w.unknown != "" || w.lit == "-" {
		return
	}
	if !strings.Contains(suffix, "*") {
		c.add(withSuffix(w, suffix), policy.Write)
		return
	}
	if strings.Contains(suffix, "/") {
		c.unknown(c.name + " -i" + suffix + ": a backup in another directory")
		return
	}
	if w.glob {
		c.unknown(c.name + " -i" + suffix + ": backups of a glob's matches")
		return
	}
	dir, base := path.Split(w.lit)
	name := dir + strings.ReplaceAll(suffix, "*", base)
	c.add(sword{lit: name, pat: glob.Escape(name), src: name}, policy.Write)
}

// sedScriptEffects reports sed commands that touch files or run commands:
// w/W (write), r/R (read), e (execute), and the w and e flags of s.
func sedScriptEffects(script string) string {
	for _, cmd := range strings.FieldsFunc(script, func(r rune) bool { return r == ';' || r == '\n' }) {
		cmd = strings.TrimSpace(cmd)
		// Skip an address: digits, $, /re/, and ranges.
		for len(cmd) > 0 {
			switch ch := cmd[0]; {
			case ch >= '0' && ch <= '9' || ch == '$' || ch == ',' || ch == '~' || ch == '!' || ch == ' ':
				cmd = cmd[1:]
				continue
			case ch == '/' || ch == '\\':
				d := ch
				if ch == '\\' && len(cmd) > 1 {
					d, cmd = cmd[1], cmd[1:]
				}
				end := strings.IndexByte(cmd[1:], d)
				if end < 0 {
					return "a sed address safezone cannot read"
				}
				cmd = cmd[end+2:]
				continue
			}
			break
		}
		if cmd == "" {
			continue
		}
		switch cmd[0] {
		case 'w', 'W':
			return "the sed script writes a file (w)"
		case 'r', 'R':
			return "the sed script reads a file (r)"
		case 'e':
			return "the sed script runs a command (e)"
		case 's', 'y':
			if cmd[0] == 'y' || len(cmd) < 2 {
				continue
			}
			d := cmd[1]
			rest := cmd[2:]
			for n := 0; n < 2; n++ {
				i := 0
				for i < len(rest) && rest[i] != d {
					if rest[i] == '\\' {
						i++
					}
					i++
				}
				if i >= len(rest) {
					rest = ""
					break
				}
				rest = rest[i+1:]
			}
			if strings.ContainsAny(rest, "we") {
				return "the sed script writes a file or runs a command (s///w or s///e)"
			}
		}
	}
	return ""
}

// awkCmd: awk PROGRAM FILE... reads the files; a program that prints to a
// file or a pipe, calls system() or getline from a command is unknown.
func awkCmd(c *cmdCtx) {
	c.spec = &cmdSpec{short: "bcCdDghlMNOopPrStVW", shortArg: "FfvEiL", longArg: []string{"field-separator", "file", "assign", "exec", "include", "load"}, lax: false}
	if !c.getopt() {
		return
	}
	var progs []sword
	for _, o := range c.opts {
		if (o.name == "f" || o.name == "file" || o.name == "E" || o.name == "exec" || o.name == "i" || o.name == "include") && o.has {
			c.add(o.val, policy.Read)
			c.unknown("an awk program file safezone does not read")
		}
	}
	ops := c.ops
	if !c.has("f", "file", "E", "exec") {
		if len(ops) == 0 {
			return
		}
		progs, ops = append(progs, ops[0]), ops[1:]
	}
	for _, p := range progs {
		if p.unknown != "" {
			c.unknown("the awk program is not static")
		} else if awkHasEffects(p.lit) {
			c.unknown("the awk program writes to a file or a command, or runs one")
		}
	}
	for _, w := range ops {
		if w.unknown == "" && strings.Contains(w.lit, "=") && !strings.Contains(w.lit, "/") {
			continue // var=value assignment operand
		}
		c.add(w, policy.Read)
	}
	c.cmd.ReadOnly = c.cmd.Unknown == ""
}

func awkHasEffects(prog string) bool {
	if strings.Contains(prog, "system") || strings.Contains(prog, "getline") || strings.Contains(prog, "|") || strings.Contains(prog, "fflush(") {
		return true
	}
	// print > "file", printf >> "file"
	for _, kw := range []string{"print", "printf"} {
		for i := strings.Index(prog, kw); i >= 0; {
			rest := prog[i+len(kw):]
			end := strings.IndexAny(rest, ";}\n")
			if end < 0 {
				end = len(rest)
			}
			if strings.Contains(rest[:end], ">") {
				return true
			}
			next := strings.Index(rest, kw)
			if next < 0 {
				break
			}
			i += len(kw) + next
		}
	}
	return false
}

// jqCmd: jq FILTER FILE...; --arg and --argjson take two values; --args and
// --jsonargs turn the remaining operands into values.
func jqCmd(c *cmdCtx) {
	var ops []sword
	filter := false
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		t := w.text()
		switch {
		case w.unknown != "" && !filter:
			c.unknown("the jq filter is not static")
			return
		case t == "--args" || t == "--jsonargs":
			i = len(c.args)
		case t == "--arg" || t == "--argjson":
			i += 2
		case t == "--slurpfile" || t == "--rawfile":
			if i+2 < len(c.args) {
				c.add(c.args[i+2], policy.Read)
			}
			i += 2
		case t == "-f" || t == "--from-file":
			if i+1 < len(c.args) {
				c.add(c.args[i+1], policy.Read)
			}
			filter = true
			i++
		case t == "--indent" || t == "-L":
			i++
		case strings.HasPrefix(t, "-") && t != "-":
		default:
			if !filter {
				filter = true
				continue
			}
			ops = append(ops, w)
		}
	}
	for _, w := range ops {
		c.add(w, policy.Read)
	}
	c.cmd.ReadOnly = true
}

// yqCmd: yq [eval|e|eval-all|ea] EXPR FILE...; -i writes the files.
func yqCmd(c *cmdCtx) {
	inPlace, sub := false, false
	var ops []sword
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		t := w.text()
		switch {
		case w.unknown != "":
			ops = append(ops, w)
		case t == "-i" || t == "--inplace":
			inPlace = true
		case t == "--from-file":
			if i+1 < len(c.args) {
				c.add(c.args[i+1], policy.Read)
			}
			i++
		case t == "-p" || t == "-o" || t == "--input-format" || t == "--output-format" || t == "--indent" || t == "-I":
			i++
		case strings.HasPrefix(t, "-") && t != "-":
		case len(ops) == 0 && !sub && (t == "eval" || t == "e" || t == "eval-all" || t == "ea"):
			sub = true
		default:
			ops = append(ops, w)
		}
	}
	if len(ops) > 0 {
		if sub {
			// Two programs are called yq: mikefarah's (yq e EXPR FILE...)
			// and kislyuk's (Debian's package, a jq wrapper: yq FILTER
			// FILE...), which takes "e" for the filter and reads EXPR as
			// a file (seen by TestShellKernel). Which one runs is not
			// known, so EXPR is a read too.
			c.add(ops[0], policy.Read)
		}
		ops = ops[1:] // the expression
	}
	access := policy.Read
	if inPlace {
		access = policy.Write
	}
	for _, w := range ops {
		c.add(w, access)
	}
	c.cmd.ReadOnly = !inPlace
}

// tarCmd: -c/--create writes the archive and reads the members; -x/--extract
// reads the archive and writes into -C DIR (or the working directory);
// -t/--list only reads.
func tarCmd(c *cmdCtx) {
	args := c.args
	// Old style: "tar czf x.tgz dir" (first word without a dash).
	if len(args) > 0 && args[0].unknown == "" && !strings.HasPrefix(args[0].lit, "-") {
		w := args[0]
		w.lit, w.src = "-"+w.lit, "-"+w.lit
		args = append([]sword{w}, args[1:]...)
	}
	c.args = args
	c.spec = &cmdSpec{
		short:    "cxtruAdzjJaZvkmOpPhSWBiMR",
		shortArg: "fCTXbgFIKLNV",
		long: []string{"create", "extract", "get", "list", "append", "update", "catenate", "concatenate", "diff", "compare",
			"delete", "gzip", "gunzip", "bzip2", "xz", "zstd", "lzma", "auto-compress", "verbose", "keep-old-files",
			"overwrite", "to-stdout", "preserve-permissions", "absolute-names", "dereference", "sparse", "verify",
			"no-same-owner", "same-owner", "numeric-owner", "remove-files", "strip-trailing-slashes", "totals", "wildcards",
			"no-recursion", "recursion", "one-file-system", "skip-old-files", "keep-newer-files", "warning", "ignore-failed-read",
			"show-transformed-names", "no-overwrite-dir", "unlink-first", "atime-preserve"},
		longArg: []string{"file", "directory", "files-from", "exclude", "exclude-from", "transform", "xform", "strip-components",
			"use-compress-program", "owner", "group", "mode", "mtime", "newer", "after-date", "label", "format", "blocking-factor",
			"record-size", "tape-length", "warning", "exclude-tag", "exclude-vcs-ignores", "index-file", "checkpoint-action"},
	}
	if !c.getopt() {
		return
	}
	if c.has("I", "use-compress-program", "to-command", "checkpoint-action") {
		c.unknown("tar runs a program of the command's choosing")
		return
	}
	create := c.has("c", "create", "r", "append", "u", "update", "A", "catenate", "concatenate", "delete")
	extract := c.has("x", "extract", "get")
	archive, hasArchive := c.value("f", "file")
	for _, o := range c.opts {
		if (o.name == "T" || o.name == "files-from" || o.name == "X" || o.name == "exclude-from") && o.has {
			c.add(o.val, policy.Read)
		}
	}
	dir, hasDir := c.value("C", "directory")
	switch {
	case create:
		if hasArchive {
			c.add(archive, policy.Write)
		}
		if c.has("remove-files") {
			for _, w := range c.ops {
				c.addT(w, policy.Write, true)
			}
		} else {
			for _, w := range c.ops {
				c.add(w, policy.Read)
			}
		}
		if hasDir && len(c.ops) > 0 {
			c.unknown("tar -C moves the members' directory")
		}
	case extract:
		if hasArchive {
			c.add(archive, policy.Read)
		}
		if hasDir {
			c.addT(dir, policy.Write, true)
		} else {
			c.addCwd(policy.Write, true)
		}
	default:
		if hasArchive {
			c.add(archive, policy.Read)
		}
		c.cmd.ReadOnly = true
	}
}

// unzipCmd: unzip ARCHIVE [MEMBER...] extracts into -d DIR or the working
// directory; -l, -t, -v, -z and -p only read.
func unzipCmd(c *cmdCtx) {
	c.spec = &cmdSpec{short: "lvtTzjnoqaCKLMXVfucUpZ", shortArg: "dxPI"}
	if !c.getopt() {
		return
	}
	if len(c.ops) == 0 {
		return
	}
	c.add(c.ops[0], policy.Read)
	if c.has("l", "t", "v", "z", "p", "Z") {
		c.cmd.ReadOnly = true
		return
	}
	if d, ok := c.value("d"); ok {
		c.addT(d, policy.Write, true)
	} else {
		c.addCwd(policy.Write, true)
	}
}

// zipCmd: zip ARCHIVE INPUT... writes the archive and reads the inputs
// (-m also deletes them).
func zipCmd(c *cmdCtx) {
	for _, w := range c.args {
		if t := w.text(); t == "-TT" || strings.HasPrefix(t, "--unzip-command") || strings.HasPrefix(t, "--unzip-c") {
			c.unknown("zip " + t + " runs a command")
			return
		}
	}
	c.spec = &cmdSpec{short: "rRjJmTuFgqvzDdfcAeXyloS0123456789@", shortArg: "xinbtP"}
	if !c.getopt() {
		return
	}
	if len(c.ops) == 0 {
		return
	}
	c.add(c.ops[0], policy.Write)
	access := policy.Read
	if c.has("m") {
		access = policy.Write
	}
	for _, w := range c.ops[1:] {
		c.addT(w, access, access == policy.Write)
	}
}

// curlCmd: URLs are not files; -o/--output, -D, -c, --trace write; -T, -K,
// -d @file, --data-binary @file, -F name=@file read; -O writes into the
// working directory (or --output-dir).
func curlCmd(c *cmdCtx) {
	fileOpts := map[string]policy.Access{
		"o": policy.Write, "output": policy.Write, "D": policy.Write, "dump-header": policy.Write,
		"c": policy.Write, "cookie-jar": policy.Write, "trace": policy.Write, "trace-ascii": policy.Write,
		"stderr": policy.Write, "output-dir": policy.Write, "libcurl": policy.Write, "etag-save": policy.Write,
		"T": policy.Read, "upload-file": policy.Read, "K": policy.Read, "config": policy.Read,
		"cert": policy.Read, "E": policy.Read, "key": policy.Read, "cacert": policy.Read, "capath": policy.Read,
		"netrc-file": policy.Read, "etag-compare": policy.Read,
	}
	dataOpts := map[string]bool{"d": true, "data": true, "data-binary": true, "data-raw": false, "data-ascii": true, "data-urlencode": true, "json": true}
	c.spec = &cmdSpec{
		lax:      true,
		shortArg: "oDcTKEdFHXuAebwmxUYyzrQtCPhJ",
		longArg: []string{"output", "dump-header", "cookie-jar", "trace", "trace-ascii", "stderr", "output-dir", "libcurl",
			"etag-save", "etag-compare", "upload-file", "config", "cert", "key", "cacert", "capath", "netrc-file", "data",
			"data-binary", "data-raw", "data-ascii", "data-urlencode", "json", "form", "form-string", "header", "request",
			"user", "user-agent", "referer", "cookie", "write-out", "max-time", "connect-timeout", "proxy", "proxy-user",
			"retry", "retry-delay", "retry-max-time", "url", "range", "resolve", "connect-to", "limit-rate", "max-filesize",
			"interface", "dns-servers", "oauth2-bearer", "aws-sigv4", "continue-at", "time-cond", "quote", "ciphers",
			"cert-type", "key-type", "pass", "expect100-timeout", "keepalive-time", "unix-socket", "variable", "url-query",
			"create-file-mode", "proto", "proto-redir", "proto-default", "max-redirs", "header-file"},
	}
	if !c.getopt() {
		return
	}
	remoteName := false
	for _, o := range c.opts {
		if o.name == "O" || o.name == "remote-name" || o.name == "remote-name-all" || o.name == "J" {
			remoteName = true
		}
		if !o.has {
			continue
		}
		if acc, ok := fileOpts[o.name]; ok {
			if !(o.val.unknown == "" && o.val.lit == "-") {
				c.add(o.val, acc)
			}
			continue
		}
		v := o.val
		switch {
		case dataOpts[o.name] && v.unknown == "" && strings.HasPrefix(v.lit, "@"):
			f := strings.TrimPrefix(v.lit, "@")
			c.add(sword{lit: f, pat: glob.Escape(f), src: f}, policy.Read)
		case o.name == "data-urlencode" && v.unknown == "" && strings.Contains(v.lit, "@"):
			f := v.lit[strings.IndexByte(v.lit, '@')+1:]
			c.add(sword{lit: f, pat: glob.Escape(f), src: f}, policy.Read)
		case (o.name == "F" || o.name == "form") && v.unknown == "":
			if _, val, ok := strings.Cut(v.lit, "="); ok && (strings.HasPrefix(val, "@") || strings.HasPrefix(val, "<")) {
				f := strings.SplitN(val[1:], ";", 2)[0]
				c.add(sword{lit: f, pat: glob.Escape(f), src: f}, policy.Read)
			}
		case (o.name == "H" || o.name == "header") && v.unknown == "" && strings.HasPrefix(v.lit, "@"):
			f := strings.TrimPrefix(v.lit, "@")
			c.add(sword{lit: f, pat: glob.Escape(f), src: f}, policy.Read)
		case (o.name == "d" || o.name == "data") && v.unknown != "":
			c.unknown("a curl data value is not static")
		}
	}
	if remoteName {
		if _, ok := c.value("output-dir"); !ok {
			c.addCwd(policy.Write, false)
		}
	}
	c.cmd.ReadOnly = !c.writes()
}

// wgetCmd: wget writes into the working directory unless -O FILE (or -P
// DIR); -o/-a write a log, -i/--post-file/--body-file read.
func wgetCmd(c *cmdCtx) {
	c.spec = &cmdSpec{
		lax:      true,
		shortArg: "OoaPiUtTwelADRQxyBIX",
		longArg: []string{"output-document", "output-file", "append-output", "directory-prefix", "input-file", "post-file",
			"body-file", "post-data", "body-data", "user-agent", "tries", "timeout", "wait", "execute", "level", "accept",
			"reject", "domains", "exclude-domains", "header", "user", "password", "http-user", "http-password",
			"load-cookies", "save-cookies", "limit-rate", "method", "referer", "base", "config", "ca-certificate",
			"certificate", "private-key", "restrict-file-names", "default-page", "quota", "bind-address", "cut-dirs"},
	}
	if !c.getopt() {
		return
	}
	out, hasOut := c.value("O", "output-document")
	for _, o := range c.opts {
		if !o.has {
			continue
		}
		switch o.name {
		case "o", "output-file", "a", "append-output", "save-cookies":
			c.add(o.val, policy.Write)
		case "i", "input-file", "post-file", "body-file", "load-cookies", "config", "ca-certificate", "certificate", "private-key":
			c.add(o.val, policy.Read)
		case "e", "execute":
			c.unknown("wget -e runs a wgetrc command")
		}
	}
	switch {
	case hasOut && !(out.unknown == "" && out.lit == "-"):
		c.add(out, policy.Write)
	case hasOut:
	default:
		if d, ok := c.value("P", "directory-prefix"); ok {
			c.addT(d, policy.Write, true)
		} else {
			c.addCwd(policy.Write, true)
		}
	}
	c.cmd.ReadOnly = !c.writes()
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
	var execAccess []policy.Access
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
				c.add(args[i+1], policy.Read)
			}
			i++
		case oneArg[t] || strings.HasPrefix(t, "-newer"):
			i++
		case t == "-delete":
			deletes = true
		case t == "-fprint" || t == "-fprint0" || t == "-fls":
			if i+1 < len(args) {
				c.add(args[i+1], policy.Write)
			}
			i++
		case t == "-fprintf":
			if i+1 < len(args) {
				c.add(args[i+1], policy.Write)
			}
			i += 2
		case t == "-exec" || t == "-execdir" || t == "-ok" || t == "-okdir":
			j := i + 1
			for j < len(args) && args[j].text() != ";" && args[j].text() != "+" {
				j++
			}
			acc, why := execAccessOf(args[i+1 : min(j, len(args))])
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
		c.add(s, policy.Read)
		if deletes {
			c.addT(s, policy.Write, true)
		}
		for _, acc := range execAccess {
			if acc == policy.Write {
				readOnly = false
			}
			if len(names) == 0 {
				c.addT(s, acc, acc == policy.Write)
				continue
			}
			for _, n := range names {
				c.filter(s, n, acc)
				if acc == policy.Write {
					c.addT(s, policy.Write, false)
				}
			}
		}
	}
	c.cmd.ReadOnly = readOnly && c.cmd.Unknown == ""
}

// execAccessOf looks up what find -exec's command does with "{}": nil when
// it names no file (echo {}).
func execAccessOf(argv []sword) (*policy.Access, string) {
	argv, why := stripWrappers(argv)
	if why != "" {
		return nil, why
	}
	if len(argv) == 0 || argv[0].unknown != "" {
		return nil, "find -exec runs a program that is not static"
	}
	name := path.Base(argv[0].lit)
	s := spec(name)
	if s == nil {
		return nil, "find -exec runs " + name + ", which is not in safezone's tables"
	}
	// Judge the command with a placeholder operand and see what "{}"
	// becomes.
	a := &analyzer{vars: map[string]shellVar{}, cwd: []string{"/\x00"}}
	cmd := &ShellCommand{}
	ctx := &cmdCtx{a: a, spec: s, name: name, args: argv[1:], cmd: cmd}
	ctx.run()
	if cmd.Unknown != "" {
		return nil, "find -exec " + name + ": " + cmd.Unknown
	}
	var acc *policy.Access
	for _, t := range cmd.Targets {
		if strings.Contains(t.Path, "{}") {
			x := t.Access
			if acc == nil || x == policy.Write {
				acc = &x
			}
		}
	}
	if acc == nil && s.role != roleNone {
		return nil, "find -exec " + name + ": safezone cannot tell what it does with {}"
	}
	return acc, ""
}

// gitCmd: git's path-taking subcommands (the manuals of git-checkout,
// git-restore, git-rm, git-mv, git-clean, git-show, git-cat-file,
// git-diff, git-log). Working on a repository reads it (the working
// directory is a read target); git's own files under .git are its
// internals and are not targets otherwise; commands that rewrite the work
// tree write the working directory.
func gitCmd(c *cmdCtx) {
	args := c.args
	i := 0
	for ; i < len(args); i++ {
		t := args[i].text()
		if args[i].unknown != "" {
			c.unknown("a git option is not static")
			return
		}
		switch {
		case t == "-C":
			if i+1 >= len(args) {
				return
			}
			c.a.cdTemp(args[i+1])
			defer c.a.cdRestore()
			i++
		case t == "-c" || t == "--config-env":
			if i+1 < len(args) {
				key, _, _ := strings.Cut(args[i+1].lit, "=")
				if args[i+1].unknown != "" || isGitExecKey(key) {
					c.unknown("git " + t + " " + args[i+1].src + " makes git run a command")
					return
				}
			}
			i++
		case strings.HasPrefix(t, "--config-env="):
			if key, _, _ := strings.Cut(strings.TrimPrefix(t, "--config-env="), "="); isGitExecKey(key) {
				c.unknown("git " + t + " makes git run a command")
				return
			}
		case t == "--exec-path" || strings.HasPrefix(t, "--exec-path=") || t == "--git-dir" || t == "--work-tree" ||
			strings.HasPrefix(t, "--git-dir=") || strings.HasPrefix(t, "--work-tree="):
			// Another git's programs, or another repository's config
			// and hooks.
			c.unknown("git " + t + " runs programs or hooks safezone cannot see")
			return
		case t == "--namespace" || t == "--super-prefix" || t == "--list-cmds" || t == "--attr-source":
			i++
		case strings.HasPrefix(t, "-c"):
			c.unknown("git " + t + ": an attached -c value")
			return
		case strings.HasPrefix(t, "-"):
		default:
			goto sub
		}
	}
	c.cmd.ReadOnly = true
	return
sub:
	subcmd := args[i].lit
	rest := args[i+1:]
	switch subcmd {
	case "help":
		c.cmd.Runs = "git help (man)" // a manual page, through man and a pager
	case "version", "clone", "ls-remote", "init", "config":
	default:
		// Every other subcommand works on the repository found from the
		// working directory: its history, and the work tree git status,
		// diff, add and commit read file by file (seen by TestShellKernel).
		// The directory is a read target, so a repository outside the
		// sandbox is an outside read.
		c.addCwd(policy.Read, false)
	}
	// Paths: operands after "--", or every non-option operand.
	paths := func(skip int) []sword {
		var out []sword
		seenDash := false
		n := 0
		for _, w := range rest {
			t := w.text()
			if !seenDash && w.unknown == "" && t == "--" {
				seenDash = true
				continue
			}
			if !seenDash && w.unknown == "" && strings.HasPrefix(t, "-") {
				continue
			}
			if !seenDash && n < skip {
				n++
				continue
			}
			out = append(out, w)
		}
		return out
	}
	afterDash := func() ([]sword, bool) {
		for k, w := range rest {
			if w.unknown == "" && w.text() == "--" {
				return rest[k+1:], true
			}
		}
		return nil, false
	}
	switch subcmd {
	case "status", "log", "shortlog", "branch", "tag", "remote", "rev-parse", "rev-list", "describe", "ls-files",
		"ls-tree", "ls-remote", "reflog", "blame", "annotate", "grep", "whatchanged", "name-rev", "merge-base",
		"count-objects", "fsck", "help", "version", "var", "check-ignore", "check-attr", "for-each-ref", "show-ref",
		"cherry", "range-diff", "verify-commit", "verify-tag", "diff", "diff-tree", "diff-files", "diff-index":
		if ps, ok := afterDash(); ok {
			for _, w := range ps {
				c.add(w, policy.Read)
			}
		}
		if subcmd == "blame" || subcmd == "annotate" {
			for _, w := range paths(0) {
				c.add(w, policy.Read)
			}
		}
		c.cmd.ReadOnly = true
	case "show", "cat-file":
		// REV:path reads path (as recorded in git); -- path too.
		for _, w := range rest {
			if w.unknown == "" && strings.Contains(w.lit, ":") && !strings.HasPrefix(w.lit, "-") {
				p := w.lit[strings.IndexByte(w.lit, ':')+1:]
				if p != "" {
					if !strings.HasPrefix(p, "/") && strings.HasPrefix(p, "./") {
						p = strings.TrimPrefix(p, "./")
					}
					c.add(sword{lit: p, pat: glob.Escape(p), src: p}, policy.Read)
				}
			}
		}
		if ps, ok := afterDash(); ok {
			for _, w := range ps {
				c.add(w, policy.Read)
			}
		}
		c.cmd.ReadOnly = true
	case "add", "commit", "fetch", "push", "init", "config", "gc", "prune", "notes", "bundle", "archive", "format-patch", "worktree", "submodule", "sparse-checkout", "maintenance", "lfs":
		if subcmd == "add" {
			for _, w := range paths(0) {
				c.add(w, policy.Read)
			}
		}
		if subcmd == "archive" {
			if v, ok := optionValue(rest, "-o", "--output"); ok {
				c.add(v, policy.Write)
			}
		}
		if subcmd == "init" {
			if ps := paths(0); len(ps) > 0 {
				c.add(ps[0], policy.Write)
			}
		}
		if subcmd == "config" {
			gitConfigCmd(c, rest)
		}
	case "checkout", "switch":
		if ps, ok := afterDash(); ok {
			for _, w := range ps {
				c.add(w, policy.Write)
			}
		} else {
			c.addCwd(policy.Write, false)
		}
	case "restore":
		for _, w := range paths(0) {
			c.add(w, policy.Write)
		}
	case "rm", "mv":
		for _, w := range paths(0) {
			c.add(w, policy.Write)
		}
	case "clean", "reset", "stash", "merge", "rebase", "pull", "cherry-pick", "revert", "am", "apply", "bisect":
		c.addCwd(policy.Write, subcmd == "clean")
	case "clone":
		ps := paths(0)
		if len(ps) >= 2 {
			c.addT(ps[1], policy.Write, true)
		} else if len(ps) == 1 && ps[0].unknown == "" {
			name := strings.TrimSuffix(path.Base(strings.TrimSuffix(ps[0].lit, "/")), ".git")
			c.addT(sword{lit: name, pat: glob.Escape(name), src: name}, policy.Write, true)
		} else {
			c.unknown("git clone's destination is not static")
		}
	default:
		c.unknown("git " + subcmd + " is not in safezone's table")
	}
}

// gitConfigCmd: git config reads or sets keys. Setting a key that makes
// git run a command (isGitExecKey) is inline code; --global, --system and
// --file name the file written; a repository's own .git/config is git's
// internal state, like its index.
func gitConfigCmd(c *cmdCtx, rest []sword) {
	var ops []sword
	get := false
	file, fileGiven := sword{}, false
	for k := 0; k < len(rest); k++ {
		w := rest[k]
		t := w.text()
		if w.unknown != "" {
			c.unknown("a git config argument is not static")
			return
		}
		switch {
		case t == "--get" || t == "--get-all" || t == "--get-regexp" || t == "--get-urlmatch" || t == "-l" || t == "--list" ||
			t == "get" || t == "list" || t == "--show-origin" && len(ops) == 0 || t == "--get-color" || t == "--get-colorbool":
			get = true
		case t == "--global":
			if c.a.env.Home == "" {
				c.unknown("git config --global without HOME")
				return
			}
			g := c.a.env.Home + "/.gitconfig"
			file, fileGiven = sword{lit: g, pat: glob.Escape(g), src: "~/.gitconfig"}, true
		case t == "--system":
			file, fileGiven = sword{lit: "/etc/gitconfig", src: "/etc/gitconfig"}, true
		case t == "-f" || t == "--file" || t == "--blob":
			if k+1 < len(rest) {
				file, fileGiven = rest[k+1], true
				k++
			}
		case strings.HasPrefix(t, "--file="):
			v := strings.TrimPrefix(t, "--file=")
			file, fileGiven = sword{lit: v, pat: glob.Escape(v), src: v}, true
		case strings.HasPrefix(t, "-"):
		default:
			ops = append(ops, w)
		}
	}
	if len(ops) > 0 && (ops[0].lit == "set" || ops[0].lit == "unset" || ops[0].lit == "get" || ops[0].lit == "list" || ops[0].lit == "edit" || ops[0].lit == "rename-section" || ops[0].lit == "remove-section") {
		if ops[0].lit == "get" || ops[0].lit == "list" {
			get = true
		}
		if ops[0].lit == "edit" {
			c.unknown("git config edit runs an editor")
			return
		}
		ops = ops[1:]
	}
	if get || len(ops) < 2 && !containsText(rest, "--unset") && !containsText(rest, "--add") && !containsText(rest, "--replace-all") {
		if fileGiven {
			c.add(file, policy.Read)
		}
		c.cmd.ReadOnly = true
		return
	}
	if len(ops) > 0 && isGitExecKey(ops[0].lit) {
		c.unknown("git config " + ops[0].src + " makes git run a command")
		return
	}
	if fileGiven {
		c.add(file, policy.Write)
	}
}

func containsText(ws []sword, s string) bool {
	for _, w := range ws {
		if strings.Contains(w.text(), s) {
			return true
		}
	}
	return false
}

// safezoneCmd: "safezone init" writes the project's policy, the host's hook
// registration and .gitignore files (or, with --user, the user's); every
// other use of safezone only reads.
func safezoneCmd(c *cmdCtx) {
	c.cmd.ReadOnly = true
	if len(c.args) == 0 || c.args[0].unknown != "" || c.args[0].lit != "init" {
		if len(c.args) > 0 && c.args[0].unknown != "" {
			c.unknown("safezone's subcommand is not static")
		}
		return
	}
	c.cmd.ReadOnly = false
	host, user := "claude", false
	for i, w := range c.args[1:] {
		t := w.text()
		switch {
		case w.unknown != "":
			c.unknown("a safezone init argument is not static")
			return
		case t == "--user":
			user = true
		case t == "--dry-run":
			c.cmd.ReadOnly = true
			return
		case t == "--host" && i+2 < len(c.args):
			host = c.args[i+2].lit
		case strings.HasPrefix(t, "--host="):
			host = strings.TrimPrefix(t, "--host=")
		}
	}
	base := c.a.env.ProjectDir
	if base == "" && len(c.a.cwd) == 1 {
		base = c.a.cwd[0]
	}
	files := []string{".safezone.yaml", ".gitignore", "agent_sandbox/.gitignore"}
	if user {
		base = c.a.env.Home
		files = []string{".config/safezone/policy.yaml"}
	}
	if base == "" {
		c.unknown("safezone init: no project directory or home")
		return
	}
	cfg, err := hookio.ConfigPath(host, base, base, user)
	if err != nil {
		c.unknown("safezone init: " + err.Error())
		return
	}
	for _, f := range append(files, cfg) {
		if !strings.HasPrefix(f, "/") {
			f = base + "/" + f
		}
		c.add(sword{lit: f, pat: glob.Escape(f), src: f}, policy.Write)
	}
}

// aliasCmd: alias NAME=VALUE and hash -p PATH NAME change what a later
// command name runs; listing them changes nothing.
func aliasCmd(c *cmdCtx) {
	c.cmd.ReadOnly = true
	for _, w := range c.args {
		if w.unknown != "" || strings.Contains(w.lit, "=") || (c.name == "hash" && w.lit == "-p") {
			c.unknown(c.name + " changes what a later command name runs")
			return
		}
	}
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
