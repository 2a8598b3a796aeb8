package shell

import (
	"path"
	"strings"

	"github.com/safezonehq/safezone/classify/glob"
)

// textTools are the searchers and stream editors, sorted by name.
var textTools = []cmdSpec{
	{name: "awk", role: roleCustom, custom: awkCmd},
	{name: "busybox-awk", role: roleCustom, custom: awkCmd},
	{name: "egrep", role: roleCustom, custom: grepCmd},
	{name: "fgrep", role: roleCustom, custom: grepCmd},
	{name: "gawk", role: roleCustom, custom: awkCmd},
	{name: "grep", role: roleCustom, custom: grepCmd},
	{name: "jq", role: roleCustom, custom: jqCmd},
	{name: "mawk", role: roleCustom, custom: awkCmd},
	{name: "nawk", role: roleCustom, custom: awkCmd},
	{name: "rg", role: roleCustom, custom: rgCmd},
	{name: "sed", role: roleCustom, custom: sedCmd},
	{name: "yq", role: roleCustom, custom: yqCmd},
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
			c.add(o.val, Read)
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
		c.add(w, Read)
		if recursive {
			for _, o := range c.opts {
				if o.name == "include" && o.has {
					c.filter(w, o.val, Read)
				}
			}
		}
	}
	c.cmd.ReadOnly = true
}

// filter adds a pattern target: the files below dir that pattern selects
// (a glob without "/" matches names at any depth).
func (c *cmdCtx) filter(dir, pattern sword, access Access) {
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
		c.cmd.Targets = append(c.cmd.Targets, Target{Path: strings.TrimSuffix(base, "/") + "/" + g, Given: path.Join(t.Given, pattern.lit), Access: access, Pattern: true})
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
			c.add(o.val, Read)
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
		c.add(w, Read)
		for _, o := range c.opts {
			if (o.name == "g" || o.name == "glob" || o.name == "iglob") && o.has {
				c.filter(w, o.val, Read)
			}
		}
	}
	c.cmd.ReadOnly = true
}

// sedOptions are sed's options but -i (sed(1)).
var sedOptions = cmdSpec{
	short:    "nrEsuzl",
	shortArg: "eflS",
	long:     []string{"quiet", "silent", "regexp-extended", "separate", "unbuffered", "null-data", "posix", "debug", "sandbox", "follow-symlinks"},
	longArg:  []string{"expression", "file", "line-length"},
}

// sedCmd: sed SCRIPT FILE... reads the files, or writes them with -i; a
// script's own w, W, r, R and e commands (and s///w, s///e) write, read or
// run other things, which makes the command unknown.
func sedCmd(c *cmdCtx) {
	c.spec = &sedOptions
	args, inPlace, suffix := sedInPlace(c.args)
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
			c.add(o.val, Read)
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
	access := Read
	if inPlace {
		access = Write
	}
	for _, w := range ops {
		c.add(w, access)
		if inPlace && suffix != "" {
			c.addBackup(w, suffix)
		}
	}
	c.cmd.ReadOnly = !inPlace && c.cmd.Unknown == ""
}

// sedInPlace takes sed's -i out of its arguments: -i[SUFFIX] and
// --in-place[=SUFFIX] take their value attached; in a cluster (-ni.bak)
// -i takes the rest of the word, after letters without a value. It
// returns the arguments left, whether -i was given, and its suffix.
func sedInPlace(in []sword) (args []sword, inPlace bool, suffix string) {
	for k, w := range in {
		t := w.text()
		if w.unknown != "" || !strings.HasPrefix(t, "-") || t == "-" {
			args = append(args, w)
			continue
		}
		if t == "--" {
			args = append(args, in[k:]...)
			break
		}
		if v, ok := strings.CutPrefix(t, "--in-place"); ok && (v == "" || v[0] == '=') {
			inPlace, suffix = true, strings.TrimPrefix(v, "=")
			continue
		}
		if !strings.HasPrefix(t, "--") {
			if j := sedInPlaceLetter(t[1:], sedOptions.shortArg); j >= 0 {
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
	return args, inPlace, suffix
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
		c.add(withSuffix(w, suffix), Write)
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
	c.add(sword{lit: name, pat: glob.Escape(name), src: name}, Write)
}

// sedScriptEffects reports sed commands that touch files or run commands
// (sed(1) COMMANDS): w/W (write), r/R (read), e (execute), and the w and e
// flags of s. It returns why the script is unknown, or "".
func sedScriptEffects(script string) string {
	for _, cmd := range strings.FieldsFunc(script, func(r rune) bool { return r == ';' || r == '\n' }) {
		cmd, ok := sedSkipAddress(strings.TrimSpace(cmd))
		if !ok {
			return "a sed address safezone cannot read"
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
		case 's':
			if strings.ContainsAny(sedSubstFlags(cmd), "we") {
				return "the sed script writes a file or runs a command (s///w or s///e)"
			}
		}
	}
	return ""
}

// sedSkipAddress returns a sed command without its address (sed(1)
// ADDRESSES: line numbers, $, /regexp/ and \cregexpc, ranges, steps and
// "!"), and false when a regexp does not end.
func sedSkipAddress(cmd string) (string, bool) {
	for len(cmd) > 0 {
		switch ch := cmd[0]; {
		case ch >= '0' && ch <= '9' || ch == '$' || ch == ',' || ch == '~' || ch == '!' || ch == ' ':
			cmd = cmd[1:]
		case ch == '/' || ch == '\\':
			d := ch
			if ch == '\\' && len(cmd) > 1 {
				d, cmd = cmd[1], cmd[1:]
			}
			end := strings.IndexByte(cmd[1:], d)
			if end < 0 {
				return "", false
			}
			cmd = cmd[end+2:]
		default:
			return cmd, true
		}
	}
	return cmd, true
}

// sedSubstFlags returns what follows the replacement of an s command
// (s/REGEXP/REPLACEMENT/FLAGS): its flags and any later text; "" when
// the command ends before.
func sedSubstFlags(cmd string) string {
	if len(cmd) < 2 {
		return ""
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
			return ""
		}
		rest = rest[i+1:]
	}
	return rest
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
			c.add(o.val, Read)
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
		c.add(w, Read)
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
				c.add(c.args[i+2], Read)
			}
			i += 2
		case t == "-f" || t == "--from-file":
			if i+1 < len(c.args) {
				c.add(c.args[i+1], Read)
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
		c.add(w, Read)
	}
	c.cmd.ReadOnly = true
}

// yqWithValue are yq's options whose value (the next word) names no file
// (yq --help).
var yqWithValue = []string{"-p", "-o", "--input-format", "--output-format", "--indent", "-I"}

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
				c.add(c.args[i+1], Read)
			}
			i++
		case containsStr(yqWithValue, t):
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
			c.add(ops[0], Read)
		}
		ops = ops[1:] // the expression
	}
	access := Read
	if inPlace {
		access = Write
	}
	for _, w := range ops {
		c.add(w, access)
	}
	c.cmd.ReadOnly = !inPlace
}
