package shell

import (
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/safezonehq/safezone/policy/glob"
)

// The command table: what safezone knows of each command, as data. A
// command that is not here is an ordinary program: it has no known
// targets, and Command.Runs names it. An option a known command's entry does
// not list makes that command's targets unknown: it might take a value and
// shift the operands. Sources: the POSIX utilities and the GNU coreutils,
// findutils, grep, sed, tar, curl, wget and git manuals. The entries are
// split by family of programs (builtins.go, coreutils.go, text.go,
// archive.go, network.go, findutils.go, git.go, interpreters.go,
// safezone.go, hosts.go; awk.go holds awk's), each beside the handlers of
// its commands. Wrappers, which run another command, are in wrappers.go.

// commands are the tables of every family, each sorted by name. Only
// Analyze refers to it: handlers look commands up through their analyzer
// ([analyzer.spec]), which lets the tables hold the handlers without an
// initialization cycle.
var commands = [...][]cmdSpec{builtins, coreutils, textTools, archivers, netTools, findutils, gitTools, interpreters, safezoneTools, hostTools}

// spec returns a command's entry, or nil for an ordinary program.
func (a *analyzer) spec(name string) *cmdSpec {
	for _, table := range a.commands {
		i := sort.Search(len(table), func(i int) bool { return table[i].name >= name })
		if i < len(table) && table[i].name == name {
			return &table[i]
		}
	}
	return nil
}

// opaque is the handler of a command whose effects safezone cannot know
// (eval, at, watch): unknown, for cmdSpec.why.
func opaque(c *cmdCtx) { c.unknown(c.spec.why) }

// role says what a command does with its operands.
type role uint8

const (
	roleNone       role = iota // no file operands (echo, printf, pwd)
	roleRead                   // every operand is read (cat, head, wc)
	roleWrite                  // every operand is written (rm, touch, mkdir, tee)
	roleFirstRead              // the first operand is not a file (a pattern, a program), the rest are read (grep, awk)
	roleFirstWrite             // the first operand is a mode or owner, the rest are written (chmod, chown)
	roleCopy                   // the sources are read, the last operand (or -t DIR) is written (cp, install, rsync)
	roleMove                   // every operand is written, sources and destination (mv)
	roleLink                   // the last operand (or -t DIR) is written; without -s the sources are read and written (ln)
	roleCustom                 // handled by cmdSpec.custom
)

// optFile names an option whose value is a file the command reads or writes.
type optFile struct {
	name   string // a short letter ("o") or a long name ("output")
	access Access
}

// cmdSpec describes one command.
type cmdSpec struct {
	name string
	role role
	// Options: short letters without and with a value, long names without
	// and with a value. A long name in both long and longArg takes an
	// optional value, given only as --name=VALUE (ls --color[=WHEN]);
	// shortOpt are the short letters whose value is optional and only
	// attached (-d[FILE]). numeric accepts -NUM (head -5). lax accepts any
	// option without a value (commands with huge option sets whose
	// operands are positional anyway).
	short, shortArg, shortOpt string
	long, longArg             []string
	numeric, lax              bool
	// exactLong: the program takes its long options only spelt out; by
	// default a long option may be abbreviated to any prefix that names
	// one option only, as getopt_long(3) and argp accept (--out=F is
	// --output=F).
	exactLong bool
	// optEnd: the options end at the first operand, as POSIX getopt(3)
	// has it (awk: the words after the program are operands, "-F" too);
	// by default options may follow operands, as GNU getopt permutes them.
	optEnd bool
	// files are options whose value is a file.
	files []optFile
	// readOnly: the command only reads (with no write target).
	readOnly bool
	// noOperands: what reading "no operands" means: "" stdin (no target),
	// "cwd" the working directory (ls, du, rg, find).
	noOperands string
	// skipWith: options that provide what the first operand would
	// (grep -e, chmod --reference): then no operand is skipped.
	skipWith []string
	// recursive: options that make a write recursive (rm -r).
	recursive []string
	// below: options that make a read reach every file below a
	// directory operand (diff -r): Target.Below.
	below []string
	// execOpts: options whose value is a command the program runs
	// (rsync -e, sort --compress-program): inline code, so unknown.
	execOpts []string
	// listOpts: options whose value is a file of the names of the files
	// the program then reads (sort --files0-from, file -f, tar -T): which
	// files is not known, so unknown.
	listOpts []string
	// followOpts: options that make the program follow the symbolic links
	// below its operands (cp -L, rsync -L): unknown (followsLinks).
	followOpts []string
	// custom handles the whole command (roleCustom): it parses its own
	// options and sets ReadOnly. why is the reason of opaque.
	custom func(*cmdCtx)
	why    string
}

// opt is one parsed option.
type opt struct {
	name string // letter or long name
	val  sword
	has  bool
}

// cmdCtx is one simple command being analysed.
type cmdCtx struct {
	a     *analyzer
	spec  *cmdSpec
	name  string
	args  []sword // the words after the program name
	depth int
	cmd   *Command
	opts  []opt
	ops   []sword
	sub   string // the subcommand of a program that has them (git), once known
}

func (c *cmdCtx) unknown(why string) {
	if c.cmd.Unknown == "" {
		c.cmd.Unknown = why
	}
}

func (c *cmdCtx) has(names ...string) bool {
	for _, o := range c.opts {
		for _, n := range names {
			if o.name == n {
				return true
			}
		}
	}
	return false
}

// execOption marks the command unknown when one of the options given runs
// a command (cmdSpec.execOpts). For ssh's -o (scp, sftp) only the options
// that run a local command count: ProxyCommand, LocalCommand,
// KnownHostsCommand and Match exec (ssh_config(5)).
func (c *cmdCtx) execOption(names ...string) bool {
	for _, o := range c.opts {
		for _, n := range names {
			if o.name != n {
				continue
			}
			if n == "o" && (c.name == "scp" || c.name == "sftp") {
				v := strings.ToLower(strings.TrimLeft(o.val.lit, " "))
				if o.val.unknown == "" && !strings.HasPrefix(v, "proxycommand") && !strings.HasPrefix(v, "localcommand") &&
					!strings.HasPrefix(v, "knownhostscommand") && !strings.HasPrefix(v, "match") && !strings.HasPrefix(v, "permitlocalcommand") {
					continue
				}
			}
			c.unknown(c.name + " " + optText(n) + " runs a command")
			return true
		}
	}
	return false
}

// refused reports whether an option given makes the command unknown: it
// runs a command, names a file of file names or follows symbolic links
// (cmdSpec.execOpts, listOpts, followOpts).
func (c *cmdCtx) refused(s *cmdSpec) bool {
	return c.execOption(s.execOpts...) || c.listOption(s.listOpts...) || c.followsLinks(s.followOpts...)
}

// listOption marks the command unknown when one of the options given
// names a file of file names (cmdSpec.listOpts).
func (c *cmdCtx) listOption(names ...string) bool {
	for _, o := range c.opts {
		if containsStr(names, o.name) {
			c.unknown(c.name + " " + optText(o.name) + ": the files it reads are named in a file")
			return true
		}
	}
	return false
}

// followsLinks marks the command unknown when one of the options given
// makes it follow the symbolic links it meets below its operands (grep -R,
// rg -L, find -L, tar -h, cp -L, rsync -L): a link in the tree may lead
// anywhere, ~/.ssh too, and where is not judged.
func (c *cmdCtx) followsLinks(names ...string) bool {
	for _, o := range c.opts {
		if containsStr(names, o.name) {
			c.unknown(c.name + " " + optText(o.name) + " follows the symbolic links below what it reads")
			return true
		}
	}
	return false
}

// optText spells an option's name as given on a command line.
func optText(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

func (c *cmdCtx) value(names ...string) (sword, bool) {
	var v sword
	found := false
	for _, o := range c.opts {
		for _, n := range names {
			if o.name == n && o.has {
				v, found = o.val, true
			}
		}
	}
	return v, found
}

// add adds a word as a target.
func (c *cmdCtx) add(w sword, access Access) {
	c.addT(w, access, false)
}

// addBelow adds w as a read that reaches every file below it
// (Target.Below), when it is a directory.
func (c *cmdCtx) addBelow(w sword) {
	n := len(c.cmd.Targets)
	c.addT(w, Read, false)
	for i := n; i < len(c.cmd.Targets); i++ {
		c.cmd.Targets[i].Below = true
	}
}

func (c *cmdCtx) addT(w sword, access Access, recursive bool) {
	if w.unknown != "" {
		if w.src == stdinOperands {
			c.unknown(w.unknown) // the command's argv already ends with it
		} else {
			c.unknown(w.src + ": " + w.unknown)
		}
		return
	}
	if w.lit == "-" || notAFile(w.lit) {
		return
	}
	ts, why := c.a.targets(w, access)
	if why != "" {
		c.unknown(why)
		return
	}
	for i := range ts {
		ts[i].Recursive = recursive
	}
	c.cmd.Targets = append(c.cmd.Targets, ts...)
}

// addCwd adds the working directory as a target.
func (c *cmdCtx) addCwd(access Access, recursive bool) {
	if c.a.cwd == nil {
		c.unknown("the directory it runs in is not known")
		return
	}
	var ts []Target
	for _, d := range c.a.cwd {
		ts = append(ts, Target{Path: d, Given: ".", Access: access, Recursive: recursive})
	}
	ts, why := c.a.viaLinks(ts)
	if why != "" {
		c.unknown(why)
		return
	}
	c.cmd.Targets = append(c.cmd.Targets, ts...)
}

// getopt parses c.args by c.spec's options into c.opts and c.ops. "--"
// ends the options; "-" is an operand; GNU-style options after operands
// count as options (unless cmdSpec.optEnd). A long option may be
// abbreviated (longName); a cluster of short letters (-abc) ends at a
// letter that takes a value, which is the rest of the word (-ofile) or the
// next word (getopt(3), getopt_long(3)). It returns false, the command
// unknown, on an option the spec does not list or one missing its value.
func (c *cmdCtx) getopt() bool {
	args := c.args
	for i := 0; i < len(args); i++ {
		w := args[i]
		t := w.text()
		if w.unknown != "" || t == "-" || !strings.HasPrefix(t, "-") {
			if c.spec.optEnd {
				c.ops = append(c.ops, args[i:]...)
				return true
			}
			c.ops = append(c.ops, w)
			continue
		}
		if t == "--" {
			c.ops = append(c.ops, args[i+1:]...)
			return true
		}
		var ok bool
		if name, long := strings.CutPrefix(t, "--"); long {
			i, ok = c.longOption(name, i)
		} else {
			i, ok = c.shortOptions(t[1:], i)
		}
		if !ok {
			return false
		}
	}
	return true
}

// longName returns the option of the spec that the long option name (as
// given, without "--" and "=VALUE") stands for: the name itself, or the one
// option it abbreviates. getopt_long(3) and argp take any prefix of one
// option only, exact names first (an ambiguous prefix is an error of the
// program: unknown here too); cmdSpec.exactLong takes exact names only.
// It returns "" and why when name is no option of the spec.
func (s *cmdSpec) longName(name string) (string, string) {
	lists := [][]string{s.long, s.longArg, s.execOpts, s.listOpts, s.followOpts, s.recursive, s.skipWith}
	for _, l := range lists {
		if containsStr(l, name) {
			return name, ""
		}
	}
	for _, f := range s.files {
		if f.name == name && len(name) > 1 {
			return name, ""
		}
	}
	if s.exactLong || name == "" {
		return "", "is not in safezone's table"
	}
	var found []string
	add := func(n string) {
		if len(n) > 1 && strings.HasPrefix(n, name) && !containsStr(found, n) {
			found = append(found, n)
		}
	}
	for _, l := range lists {
		for _, n := range l {
			add(n)
		}
	}
	for _, f := range s.files {
		add(f.name)
	}
	switch len(found) {
	case 0:
		return "", "is not in safezone's table"
	case 1:
		return found[0], ""
	}
	sort.Strings(found)
	return "", "is ambiguous (" + strings.Join(found, ", ") + ")"
}

// longOption parses the long option --name (or --name=value) at c.args[i]
// and returns the index of its last word.
func (c *cmdCtx) longOption(name string, i int) (int, bool) {
	s := c.spec
	name, val, hasVal := strings.Cut(name, "=")
	full, why := s.longName(name)
	if full == "" && !s.lax {
		c.unknown("option --" + name + " " + why + " for " + c.name)
		return i, false
	}
	if full == "" {
		full = name // lax: an option without a value
	}
	optional := containsStr(s.long, full) && containsStr(s.longArg, full)
	switch {
	case containsStr(s.longArg, full) && (hasVal || !optional):
		if hasVal {
			c.opts = append(c.opts, opt{name: full, val: sword{lit: val, pat: glob.Escape(val), src: val}, has: true})
		} else if i+1 < len(c.args) {
			i++
			if !c.single(c.args[i]) {
				return i, false
			}
			c.opts = append(c.opts, opt{name: full, val: c.args[i], has: true})
		} else {
			c.unknown("option --" + full + " has no value")
			return i, false
		}
	case !hasVal, s.lax:
		c.opts = append(c.opts, opt{name: full})
	default:
		c.unknown("option --" + full + " of " + c.name + " takes no value")
		return i, false
	}
	return i, true
}

// shortOptions parses the cluster of short options letters at c.args[i]
// (-abc, -ofile, -o file, -5 with numeric, -dFILE with shortOpt) and
// returns the index of its last word.
func (c *cmdCtx) shortOptions(letters string, i int) (int, bool) {
	s := c.spec
	for j := 0; j < len(letters); j++ {
		l := letters[j]
		switch {
		case s.numeric && l >= '0' && l <= '9':
			for j+1 < len(letters) && letters[j+1] >= '0' && letters[j+1] <= '9' {
				j++
			}
		case strings.IndexByte(s.shortOpt, l) >= 0:
			o := opt{name: string(l)}
			if rest := letters[j+1:]; rest != "" {
				o.val, o.has = sword{lit: rest, pat: glob.Escape(rest), src: rest}, true
			}
			c.opts = append(c.opts, o)
			return i, true
		case strings.IndexByte(s.shortArg, l) >= 0:
			if rest := letters[j+1:]; rest != "" {
				c.opts = append(c.opts, opt{name: string(l), val: sword{lit: rest, pat: glob.Escape(rest), src: rest}, has: true})
			} else if i+1 < len(c.args) {
				i++
				if !c.single(c.args[i]) {
					return i, false
				}
				c.opts = append(c.opts, opt{name: string(l), val: c.args[i], has: true})
			} else {
				c.unknown("option -" + string(l) + " has no value")
				return i, false
			}
			return i, true
		case strings.IndexByte(s.short, l) >= 0 || s.lax:
			c.opts = append(c.opts, opt{name: string(l)})
		default:
			c.unknown("option -" + string(l) + " is not in safezone's table for " + c.name)
			return i, false
		}
	}
	return i, true
}

// single reports whether w is surely one word; a word holding an unquoted
// expansion that is not static may be several or none, shifting the
// operands after it (sword.split): the command is then unknown.
func (c *cmdCtx) single(w sword) bool {
	if w.split {
		c.unknown("an unquoted expansion may split into several words: " + w.src)
		return false
	}
	return true
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// run applies a spec: options, then operands by role.
func (c *cmdCtx) run() {
	s := c.spec
	switch s.role {
	case roleNone:
		c.cmd.ReadOnly = true
		return
	case roleCustom:
		c.spec.custom(c)
		return
	}
	if !c.getopt() {
		return
	}
	if c.refused(s) {
		return
	}
	for _, f := range s.files {
		for _, o := range c.opts {
			if o.name == f.name && o.has {
				c.add(o.val, f.access)
			}
		}
	}
	recursive := c.has(s.recursive...)
	below := len(s.below) > 0 && c.has(s.below...)
	ops := c.ops
	switch s.role {
	case roleRead, roleWrite:
		access := Read
		if s.role == roleWrite {
			access = Write
		}
		if len(ops) == 0 && s.noOperands == "cwd" {
			c.addCwd(access, recursive)
		}
		for _, w := range ops {
			if below && access == Read {
				c.addBelow(w)
				continue
			}
			c.addT(w, access, recursive)
		}
	case roleFirstRead, roleFirstWrite:
		if !c.has(s.skipWith...) {
			if len(ops) == 0 || !c.single(ops[0]) {
				return
			}
			ops = ops[1:]
		}
		access := Read
		if s.role == roleFirstWrite {
			access = Write
		}
		if len(ops) == 0 && s.noOperands == "cwd" {
			c.addCwd(access, recursive)
		}
		for _, w := range ops {
			c.addT(w, access, recursive)
		}
	case roleCopy, roleMove, roleLink:
		c.copyLike(ops, recursive)
	}
	c.cmd.ReadOnly = s.readOnly && !c.writes()
}

func (c *cmdCtx) writes() bool {
	for _, t := range c.cmd.Targets {
		if t.Access == Write {
			return true
		}
	}
	return false
}

// copyLike handles cp, install, mv, ln, rsync and scp: sources and a
// destination, the last operand or -t DIR (their manuals). The sources
// are read; a move writes them, recursively (a directory moved takes all
// below it away); a hard link reads and writes them. The destination is
// written, and so is DEST/NAME, where a source lands when DEST is a
// directory (moveInto). Symbolic links made are recorded for the commands
// after (analyzer.link).
func (c *cmdCtx) copyLike(ops []sword, recursive bool) {
	dest, into := c.value("t", "target-directory")
	if !into {
		if len(ops) == 0 {
			return
		}
		if len(ops) == 1 && c.spec.role == roleLink {
			// ln TARGET: a link named after it, in the working directory.
			dest, into = literal("."), true
		} else {
			dest, ops = ops[len(ops)-1], ops[:len(ops)-1]
			into = len(ops) > 1
		}
	}
	hardLink := c.spec.role == roleLink && !c.has("s", "symbolic")
	symLink := c.spec.role == roleLink && !hardLink || c.name == "cp" && c.has("s", "symbolic-link")
	if c.name == "rsync" {
		c.rsyncDirs(dest)
	}
	if !c.remoteOperand(dest) {
		switch {
		case c.name != "rsync" && c.name != "scp" && c.has("T", "no-target-directory"):
			c.addT(dest, Write, c.copyRecursive())
		default:
			c.moveInto(ops, dest, into)
		}
	}
	if symLink {
		c.linksTo(ops, dest, into)
	}
	srcAccess := Read
	if c.spec.role == roleMove || hardLink || (c.name == "cp" && c.has("l", "link")) || (c.name == "rsync" && c.has("remove-source-files")) {
		// A move removes its sources; a hard link makes an outside file
		// reachable under an inside name, where a write through it would
		// change the outside file: the sources count as written.
		srcAccess = Write
	}
	if symLink {
		return // a symbolic link reads nothing; later paths resolve through it
	}
	for _, w := range ops {
		if c.remoteOperand(w) {
			continue
		}
		if hardLink {
			c.add(w, Read)
		}
		c.addT(w, srcAccess, srcAccess == Write && (recursive || c.spec.role == roleMove))
	}
}

// moveInto adds the destination of a copy or move of srcs: DEST itself
// (unless it is surely a directory: ".", "..", a trailing "/"), and
// DEST/NAME for each source, where it lands when DEST is a directory (into:
// it must be, as for -t DIR or several sources). A copy or move of a
// directory (recursive; a move always may be one) writes all below them.
// rsync copies the contents of a source that ends in "/", not the source,
// as cp -r does of SRC/.: DEST is then written below.
func (c *cmdCtx) moveInto(srcs []sword, dest sword, into bool) {
	recursive := c.copyRecursive()
	if dest.unknown != "" || dest.glob {
		c.addT(dest, Write, recursive || dest.glob)
		return
	}
	isDir := into || surelyDir(dest.lit)
	contents := false
	for _, s := range srcs {
		if s.unknown == "" && (c.name == "rsync" && strings.HasSuffix(s.lit, "/") || path.Base(s.lit) == ".") {
			contents = true // rsync's SRC/, cp -r SRC/.: the contents land in DEST
		}
	}
	c.addT(dest, Write, recursive && (!isDir || contents))
	for _, s := range srcs {
		base, ok := c.sourceBase(s)
		if !ok {
			continue
		}
		c.joinDest(dest, s, base, recursive)
		if c.spec.role == roleMove && !c.remoteOperand(s) {
			c.movedLinks(s, dest, base, isDir)
		}
	}
}

// surelyDir reports whether a destination names a directory whatever is
// on the disk: ".", "..", or a trailing "/".
func surelyDir(p string) bool {
	d := strings.TrimSuffix(p, "/")
	return d != p || d == "" || d == "." || d == ".." || strings.HasSuffix(d, "/.") || strings.HasSuffix(d, "/..")
}

// sourceBase returns the name a source takes in a destination directory
// (a remote host:path's too, for rsync and scp), and false when it takes
// none of its own (".", rsync's "SRC/", whose contents are copied).
func (c *cmdCtx) sourceBase(s sword) (string, bool) {
	if s.unknown != "" {
		return "", false
	}
	base := s.lit
	if i := strings.LastIndexByte(base, ':'); c.remoteOperand(s) && i >= 0 {
		base = base[i+1:]
	}
	base = path.Base(strings.TrimSuffix(base, "/"))
	if base == "." || base == "/" || base == ".." || c.name == "rsync" && strings.HasSuffix(s.lit, "/") {
		return "", false
	}
	return base, true
}

// copyRecursive reports whether a copy, move or link takes what is below
// its sources: a move always may (a directory moved), a copy with -r, -R
// or -a (rsync -a, scp -r).
func (c *cmdCtx) copyRecursive() bool {
	return c.spec.role == roleMove || c.name == "git" ||
		c.spec.role != roleLink && (c.has(c.spec.recursive...) || c.has("r", "R", "recursive", "a", "archive"))
}

// joinDest adds DEST/BASE, the place of a source in the directory dest; a
// glob source's names are a pattern there, written in the policy's syntax
// for each set of shell options it may expand with (glob.FromShell).
func (c *cmdCtx) joinDest(dest, src sword, base string, recursive bool) {
	if !src.glob || !hasGlobMeta(src.pat) || noGlobAll(c.a.globOpts(src)) {
		c.addT(literal(path.Join(dest.lit, base)), Write, recursive)
		return
	}
	ts, why := c.a.targets(dest, Write)
	if why != "" {
		c.unknown(why)
		return
	}
	basePat := path.Base(strings.TrimSuffix(src.pat, "/"))
	for _, t := range ts {
		p := strings.TrimSuffix(glob.Escape(path.Clean(t.Path)), "/") + "/" + basePat
		var seen []string
		for _, o := range c.a.globOpts(src) {
			if o.NoGlob {
				o = glob.ShellOptions{} // the word as it is: its escapes are the pattern's
			}
			for _, g := range glob.FromShell(p, o) {
				if !slices.Contains(seen, g) {
					seen = append(seen, g)
					c.cmd.Targets = append(c.cmd.Targets, Target{Path: g, Given: path.Join(t.Given, base), Access: Write, Pattern: true, Recursive: recursive})
				}
			}
		}
	}
}

// movedLinks carries the links made earlier in the line along with a move
// of src to dest (or into it, as dest/base).
func (c *cmdCtx) movedLinks(src, dest sword, base string, isDir bool) {
	if src.glob || dest.unknown != "" {
		return
	}
	for _, from := range c.absolute(src.lit) {
		for _, to := range c.absolute(dest.lit) {
			if !isDir {
				c.a.moveLinks(from, to)
			}
			c.a.moveLinks(from, path.Join(to, base))
		}
	}
}

// absolute returns p joined to each directory the command may run in.
func (c *cmdCtx) absolute(p string) []string {
	if strings.HasPrefix(p, "/") {
		return []string{p}
	}
	var out []string
	for _, d := range c.a.cwd {
		out = append(out, path.Join(d, p))
	}
	return out
}

// linksTo records the symbolic links ln -s and cp -s make: for each
// source (the link's target as written), a link at dest, or at
// dest/NAME when dest is a directory (or may be one). With -r (ln
// --relative) the target is relative to the working directory, not to
// the link's.
func (c *cmdCtx) linksTo(srcs []sword, dest sword, into bool) {
	if dest.unknown != "" || dest.glob {
		return
	}
	exact := c.has("T", "no-target-directory")
	into = into || !exact && surelyDir(dest.lit)
	for _, s := range srcs {
		content := s
		if c.has("r", "relative") && s.unknown == "" && !strings.HasPrefix(s.lit, "/") && len(c.a.cwd) == 1 {
			content = literal(path.Join(c.a.cwd[0], s.lit))
		}
		for _, d := range c.absolute(dest.lit) {
			if !into {
				c.a.link(d, content)
			}
			if !exact && s.unknown == "" {
				c.a.link(path.Join(d, path.Base(strings.TrimSuffix(s.lit, "/"))), content)
			}
		}
	}
}

// rsyncDirs adds the directories of rsync's options (rsync(1)): the
// --backup-dir, where what it replaces or deletes is kept, --temp-dir (-T)
// and --partial-dir, where it writes its temporary files, and --link-dest,
// whose files it hard-links into the destination (a write through them
// writes them), are written with all below them; --compare-dest and
// --copy-dest are read. A relative DIR is relative to the destination
// (--temp-dir's and --partial-dir's to the working directory too).
func (c *cmdCtx) rsyncDirs(dest sword) {
	for _, d := range []struct {
		names  []string
		access Access
	}{{[]string{"backup-dir", "temp-dir", "T", "partial-dir", "link-dest"}, Write}, {[]string{"compare-dest", "copy-dest"}, Read}} {
		for _, o := range c.opts {
			if !containsStr(d.names, o.name) || !o.has {
				continue
			}
			v := o.val
			if (o.name == "temp-dir" || o.name == "T" || o.name == "partial-dir") && (v.unknown != "" || !strings.HasPrefix(v.lit, "/")) {
				c.addT(v, d.access, d.access == Write)
			}
			if v.unknown == "" && !strings.HasPrefix(v.lit, "/") {
				if dest.unknown != "" || remote(dest) {
					continue
				}
				v = literal(path.Join(dest.lit, v.lit))
			}
			c.addT(v, d.access, d.access == Write)
		}
	}
}

// remoteOperand reports whether the operand w of a copy, move or link
// names another host: only scp and rsync read host:path and URLs (cp, mv,
// install and ln take "a:b" as a local name); a glob names local files,
// as bash expands it before the program runs.
func (c *cmdCtx) remoteOperand(w sword) bool {
	if c.name != "scp" && c.name != "rsync" || w.glob && glob.IsPattern(w.pat) {
		return false
	}
	return remote(w)
}

// remote reports whether an operand names another host (host:path, a URL).
func remote(w sword) bool {
	if w.unknown != "" {
		return false
	}
	s := w.lit
	if strings.Contains(s, "://") {
		return true
	}
	i := strings.IndexByte(s, ':')
	return i > 0 && !strings.Contains(s[:i], "/")
}

// execEnvVars are environment variables whose value is a command, code, a
// place code or configuration that names code is loaded from, or options
// a program reads as its own: a command run with one of them set, or a
// line that sets one, may run anything (GIT_EXTERNAL_DIFF='rm -rf ~' git
// diff, TAR_OPTIONS=--to-command=x tar xf a.tar, HOME=/tmp/x git status
// reading /tmp/x/.gitconfig). Sources: git(1) ENVIRONMENT VARIABLES,
// bash(1) Shell Variables, ld.so(8), dyld(1), less(1), man(1),
// perlrun(1), node(1), ruby(1), python(1), java(1), sudo(8), tar(1),
// rsync(1), unzip(1), zip(1) (ZIP, ZIPOPT), wget(1) (WGET_ASKPASS, the
// system wgetrc), curl(1), xz(1), gzip(1), make(1), gawk(1) (AWKPATH,
// AWKLIBPATH: where -f, -i and -l find code), GNU tar's remote shell (RSH).
var execEnvVars = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"BASH_ENV": true, "ENV": true, "PROMPT_COMMAND": true, "PS4": true, "SHELLOPTS": true, "BASHOPTS": true, "CDPATH": true, "PATH": true, "HISTFILE": true,
		"GIT_EXTERNAL_DIFF": true, "GIT_PAGER": true, "GIT_EDITOR": true, "GIT_SEQUENCE_EDITOR": true, "GIT_SSH": true, "GIT_SSH_COMMAND": true,
		"GIT_ASKPASS": true, "SSH_ASKPASS": true, "GIT_PROXY_COMMAND": true, "GIT_CONFIG": true, "GIT_CONFIG_GLOBAL": true, "GIT_CONFIG_SYSTEM": true,
		"GIT_CONFIG_PARAMETERS": true, "GIT_CONFIG_COUNT": true, "GIT_EXEC_PATH": true, "GIT_TEMPLATE_DIR": true, "GIT_DIR": true, "GIT_WORK_TREE": true,
		"GIT_COMMON_DIR": true, "GIT_MAN_VIEWER": true, "GIT_ASK_YESNO": true,
		"PAGER": true, "MANPAGER": true, "SYSTEMD_PAGER": true, "EDITOR": true, "VISUAL": true, "BROWSER": true, "LESSOPEN": true, "LESSCLOSE": true,
		"LD_PRELOAD": true, "LD_AUDIT": true, "LD_LIBRARY_PATH": true, "PERL5OPT": true, "PERL5LIB": true, "PERLLIB": true,
		"PYTHONSTARTUP": true, "PYTHONPATH": true, "NODE_OPTIONS": true, "RUBYOPT": true, "RUBYLIB": true,
		"DYLD_INSERT_LIBRARIES": true, "DYLD_LIBRARY_PATH": true, "DYLD_FRAMEWORK_PATH": true, "DYLD_FALLBACK_LIBRARY_PATH": true,
		"GCONV_PATH": true, "PYTHONHOME": true, "PYTHONUSERBASE": true, "NODE_PATH": true, "PERL5DB": true,
		"JAVA_TOOL_OPTIONS": true, "_JAVA_OPTIONS": true, "JDK_JAVA_OPTIONS": true, "SUDO_ASKPASS": true, "SUDO_EDITOR": true, "FCEDIT": true,
		"TAR_OPTIONS": true, "RSYNC_RSH": true, "RSYNC_CONNECT_PROG": true, "UNZIP": true, "UNZIPOPT": true, "ZIPOPT": true,
		"LESS": true, "LESSKEY": true, "WGETRC": true, "CURL_HOME": true, "XZ_OPT": true, "XZ_DEFAULTS": true, "GZIP": true, "BZIP2": true,
		"MAKEFLAGS": true, "MAKEFILES": true, "GNUMAKEFLAGS": true, "MFLAGS": true, "ZIP": true, "WGET_ASKPASS": true,
		"SYSTEM_WGETRC": true, "AWKPATH": true, "AWKLIBPATH": true, "RSH": true, "HOME": true, "XDG_CONFIG_HOME": true, "ZDOTDIR": true, "INPUTRC": true,
	}
})

// isExecEnvVar reports whether setting name may make a command run code
// (execEnvVars, and git's GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n).
func isExecEnvVar(name string) bool {
	return execEnvVars()[name] || strings.HasPrefix(name, "GIT_CONFIG_KEY_") || strings.HasPrefix(name, "GIT_CONFIG_VALUE_")
}

// fileEnvVars are environment variables whose value names a file a
// program reads or writes, relative to the directory it runs in unless
// absolute: tar(1) TAPE (the archive without -f); SSLKEYLOGFILE, where
// curl, wget, git over https and the TLS libraries append the session
// keys; curl(1) QLOGDIR, where HTTP/3 logs are written; gawk(1)
// GAWK_PERSIST_FILE, its persistent memory; rsync(1) RSYNC_PARTIAL_DIR,
// --partial-dir's default, relative to each destination directory (a
// relative one is unknown). (A CA bundle, CURL_CA_BUNDLE or SSL_CERT_FILE,
// is public and only trusted: not a target.) Git's are gitEnvEffect's.
var fileEnvVars = sync.OnceValue(func() map[string]envFile {
	return map[string]envFile{
		"TAPE": {access: Write}, "SSLKEYLOGFILE": {access: Write}, "QLOGDIR": {access: Write, recursive: true},
		"GAWK_PERSIST_FILE": {access: Write}, "RSYNC_PARTIAL_DIR": {access: Write, recursive: true, absOnly: true},
	}
})

// envFile is a file an environment variable's value names.
type envFile struct {
	path      string
	access    Access
	recursive bool
	absOnly   bool // a relative value is relative to a directory not known here
}

// envEffect says what setting the environment variable name to v does to
// the programs that see it: why they are unknown (its value names code,
// or is not static where it names a file), or the files it names
// (fileEnvVars, gitEnvEffect).
func envEffect(name string, v shellVar) (string, []envFile) {
	if isExecEnvVar(name) {
		return name + " names a command or code the program may run", nil
	}
	if why, files, ok := gitEnvEffect(name, v); ok {
		return why, files
	}
	f, ok := fileEnvVars()[name]
	switch {
	case !ok || v.known && v.value == "":
		return "", nil
	case !v.known || v.glob:
		return name + " names a file, and its value is not static", nil
	case f.absOnly && !strings.HasPrefix(v.value, "/"):
		return name + "=" + v.value + " is relative to a directory that is not known", nil
	}
	f.path = v.value
	return "", []envFile{f}
}

// namesEnvEffect reports whether setting name may change what a later
// program runs, reads or writes (envEffect), whatever its value.
func namesEnvEffect(name string) bool {
	why, files := envEffect(name, shellVar{})
	return why != "" || len(files) > 0
}

// envTargets returns the targets of the files of envEffect, or why they
// are not known.
func (a *analyzer) envTargets(files []envFile) ([]Target, string) {
	var out []Target
	for _, f := range files {
		ts, why := a.targets(literal(f.path), f.access)
		if why != "" {
			return nil, why
		}
		for i := range ts {
			ts[i].Recursive = f.recursive && f.access == Write
		}
		out = append(out, ts...)
	}
	return out, ""
}
