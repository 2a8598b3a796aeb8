package shell

import (
	"path"
	"strings"

	"github.com/safezonehq/safezone/policy/glob"
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
	if !c.getopt() || c.followsLinks("R", "dereference-recursive") {
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
		if !c.single(ops[0]) {
			return
		}
		ops = ops[1:]
	}
	recursive := c.has("r", "R", "recursive", "dereference-recursive")
	if len(ops) == 0 && recursive {
		ops = []sword{{lit: ".", pat: ".", src: "."}}
	}
	// --include keeps the files read to the names it matches: its
	// pattern target is judged instead.
	below := recursive && !c.has("include")
	for _, w := range ops {
		if below {
			c.addBelow(w)
		} else {
			c.add(w, Read)
		}
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
	if !c.getopt() || c.followsLinks("L", "follow") {
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
		if !c.single(ops[0]) {
			return
		}
		ops = ops[1:]
	}
	if len(ops) == 0 {
		ops = []sword{{lit: ".", pat: ".", src: "."}}
	}
	// A positive -g glob or a -t type keeps the files read to the names
	// it matches (its pattern target is judged instead); "-g !x" leaves
	// names out only.
	below := !c.has("t", "type")
	for _, o := range c.opts {
		if (o.name == "g" || o.name == "glob" || o.name == "iglob") && o.has && !strings.HasPrefix(o.val.lit, "!") {
			below = false
		}
	}
	for _, w := range ops {
		if below {
			c.addBelow(w)
		} else {
			c.add(w, Read)
		}
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
			continue
		}
		files, why := sedScript(s.lit)
		if why != "" {
			c.unknown(why)
		}
		for _, f := range files {
			c.add(literal(f.name), f.access)
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
	c.cmd.ReadOnly = !inPlace && c.cmd.Unknown == "" && !c.writes()
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

// sedScript reads a sed script (sed(1) COMMANDS; GNU sed's manual,
// "Commands Requiring a Newline") for the files it names: w FILE, W FILE
// and the w flag of s write FILE, r FILE and R FILE read it, each FILE
// running to the end of its line; e and the e flag of s run a command,
// which is unknown, as is a command it cannot read.
func sedScript(script string) ([]scriptFile, string) {
	var files []scriptFile
	for rest := script; ; {
		rest = strings.TrimLeft(rest, " \t\n;{}!")
		if rest == "" {
			return files, ""
		}
		cmd, ok := sedSkipAddress(rest)
		if !ok {
			return nil, "a sed address safezone cannot read"
		}
		cmd = strings.TrimLeft(cmd, " \t!")
		if cmd == "" {
			return files, ""
		}
		var f *scriptFile
		var why string
		f, rest, why = sedCommand(cmd)
		if why != "" {
			return nil, why
		}
		if f != nil && !notAFile(f.name) {
			files = append(files, *f)
		}
	}
}

// sedSkipAddress returns a sed command without its address (sed(1)
// ADDRESSES: line numbers, $, /regexp/ and \cregexpc with their I and M
// flags, ranges, steps, +N and "!"), and false when a regexp does not end.
func sedSkipAddress(cmd string) (string, bool) {
	for len(cmd) > 0 {
		switch ch := cmd[0]; {
		case ch >= '0' && ch <= '9' || ch == '$' || ch == ',' || ch == '~' || ch == '+' || ch == '!' || ch == ' ' || ch == '\t':
			cmd = cmd[1:]
		case ch == '/' || ch == '\\':
			d := ch
			if ch == '\\' && len(cmd) > 1 {
				d, cmd = cmd[1], cmd[1:]
			}
			end := -1
			for i := 1; i < len(cmd); i++ {
				if cmd[i] == '\\' {
					i++
				} else if cmd[i] == d {
					end = i
					break
				}
			}
			if end < 0 {
				return "", false
			}
			cmd = strings.TrimLeft(cmd[end+1:], "IM")
		default:
			return cmd, true
		}
	}
	return cmd, true
}

// sedCommand reads the sed command that starts cmd and returns the file it
// names, if any, and the script after it.
func sedCommand(cmd string) (*scriptFile, string, string) {
	line, after, _ := strings.Cut(cmd[1:], "\n")
	switch cmd[0] {
	case 'w', 'W', 'r', 'R':
		access := Write
		if cmd[0] == 'r' || cmd[0] == 'R' {
			access = Read
		}
		name := strings.TrimLeft(line, " \t")
		if name == "" {
			return nil, "", "a sed " + cmd[:1] + " command without a file"
		}
		return &scriptFile{name: name, access: access}, after, ""
	case 'e':
		return nil, "", "the sed script runs a command (e)"
	case 'a', 'i', 'c':
		return nil, sedSkipText(cmd[1:]), ""
	case '#', ':':
		if cmd[0] == ':' {
			if i := strings.IndexAny(cmd, ";\n"); i >= 0 {
				return nil, cmd[i:], ""
			}
			return nil, "", ""
		}
		return nil, after, ""
	case 's', 'y':
		return sedSubst(cmd)
	case 'b', 't', 'T', 'q', 'Q', 'l', 'L', 'v':
		if i := strings.IndexAny(cmd, ";\n}"); i >= 0 {
			return nil, cmd[i:], ""
		}
		return nil, "", ""
	}
	if strings.IndexByte("=dDgGhHxnNpPzF{}", cmd[0]) >= 0 {
		return nil, cmd[1:], ""
	}
	return nil, "", "a sed command safezone does not know (" + cmd[:1] + ")"
}

// sedSkipText skips the text of a, i and c: to the end of the line, and on
// over lines that end in a backslash.
func sedSkipText(s string) string {
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return ""
		}
		if i == 0 || s[i-1] != '\\' {
			return s[i+1:]
		}
		s = s[i+1:]
	}
}

// sedSubst reads s/REGEXP/REPLACEMENT/FLAGS (and y/SOURCE/DEST/): it returns
// the file of the w flag and the script after the command; the e flag and
// a flag it does not know are unknown. The delimiter ends each part at its
// first unescaped use, even in a bracket expression: should sed read on,
// what this takes for flags is only more than there is.
func sedSubst(cmd string) (*scriptFile, string, string) {
	if len(cmd) < 2 || cmd[1] == '\n' || cmd[1] == '\\' {
		return nil, "", "a sed " + cmd[:1] + " command safezone cannot read"
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
			return nil, "", "a sed " + cmd[:1] + " command does not end"
		}
		rest = rest[i+1:]
	}
	if cmd[0] == 'y' {
		return nil, rest, ""
	}
	for i := 0; i < len(rest); i++ {
		switch c := rest[i]; {
		case c == 'w':
			line, after, _ := strings.Cut(rest[i+1:], "\n")
			name := strings.TrimLeft(line, " \t")
			if name == "" {
				return nil, "", "a sed s///w without a file"
			}
			return &scriptFile{name: name, access: Write}, after, ""
		case c == 'e':
			return nil, "", "the sed script runs a command (s///e)"
		case c == ';' || c == '\n' || c == '}' || c == ' ' || c == '\t':
			return nil, rest[i:], ""
		case strings.IndexByte("gpiImM0123456789", c) < 0:
			return nil, "", "a sed s flag safezone does not know (" + string(c) + ")"
		}
	}
	return nil, "", ""
}

// jqCmd: jq FILTER FILE...; --arg and --argjson take two values; --args and
// --jsonargs turn the remaining operands into values.
// jqUnparsed says why a jq option makes the command unknown: -L (the
// modules it imports come from a search path), --from-file=FILE, or a
// cluster holding -f (jq -nrf FILE); "" for any other word.
func jqUnparsed(t string) string {
	switch {
	case t == "--library-path" || strings.HasPrefix(t, "-L") || strings.HasPrefix(t, "--library-path="):
		return "jq -L: the modules it imports come from a search path"
	case strings.HasPrefix(t, "--from-file=") || strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && len(t) > 2 && strings.Contains(t, "f"):
		return "jq " + t + ": a program file given in a form safezone does not parse"
	}
	return ""
}

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
		case t == "--indent":
			i++
		case jqUnparsed(t) != "":
			c.unknown(jqUnparsed(t))
			return
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
// yqLoads marks the command unknown when an expression loads files
// (mikefarah's yq: load, load_str, load_xml…; kislyuk's jq filters:
// import, include) or an option cluster holds -f or -L.
func yqLoads(c *cmdCtx) bool {
	for _, w := range c.args {
		if t := w.text(); strings.Contains(t, "load") || strings.Contains(t, "import") || strings.Contains(t, "include") ||
			w.unknown == "" && strings.HasPrefix(w.lit, "-") && !strings.HasPrefix(w.lit, "--") && len(w.lit) > 2 && strings.ContainsAny(w.lit, "fL") {
			c.unknown("yq " + t + ": an expression that loads files, or an option cluster safezone does not parse")
			return true
		}
	}
	return false
}

func yqCmd(c *cmdCtx) {
	inPlace, sub := false, false
	var ops []sword
	if yqLoads(c) {
		return
	}
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
