package classify

import (
	"path"
	"sort"
	"strings"

	"github.com/safezonehq/safezone/classify/glob"

	"github.com/safezonehq/safezone/policy"
)

// This file holds, as data, what safezone knows of each command: which
// options take a value, which operands and option values are files, and
// whether they are read or written. A command that is not here is an
// ordinary program: it has no known targets (the host's prompt, or -y,
// decides). An option a known command's entry does not list makes that
// command's targets unknown: it might take a value and shift the operands.
// Sources: the POSIX utilities and the GNU coreutils, findutils, grep, sed,
// tar, curl, wget and git manuals.

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
	access policy.Access
}

// cmdSpec describes one command.
type cmdSpec struct {
	name string
	role role
	// Options: short letters without and with a value, long names without
	// and with a value. numeric accepts -NUM (head -5). lax accepts any
	// option without a value (commands with huge option sets whose
	// operands are positional anyway).
	short, shortArg string
	long, longArg   []string
	numeric, lax    bool
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
	// execOpts: options whose value is a command the program runs
	// (rsync -e, sort --compress-program): inline code, so unknown.
	execOpts []string
	// custom handles the whole command (roleCustom); why is the reason of
	// hOpaque.
	custom handler
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
	cmd   *ShellCommand
	opts  []opt
	ops   []sword
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
			c.unknown(c.name + " -" + n + " runs a command")
			return true
		}
	}
	return false
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
func (c *cmdCtx) add(w sword, access policy.Access) {
	c.addT(w, access, false)
}

func (c *cmdCtx) addT(w sword, access policy.Access, recursive bool) {
	if w.unknown != "" {
		c.unknown(w.src + ": " + w.unknown)
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
func (c *cmdCtx) addCwd(access policy.Access, recursive bool) {
	if c.a.cwd == nil {
		c.unknown("the directory it runs in is not known")
		return
	}
	for _, d := range c.a.cwd {
		c.cmd.Targets = append(c.cmd.Targets, ShellTarget{Path: d, Given: ".", Access: access, Recursive: recursive})
	}
}

// getopt parses c.args by c.spec's options into c.opts and c.ops. "--"
// ends the options; "-" is an operand; GNU-style options after operands
// count as options.
func (c *cmdCtx) getopt() bool {
	s := c.spec
	args := c.args
	for i := 0; i < len(args); i++ {
		w := args[i]
		t := w.text()
		if w.unknown != "" || t == "-" || !strings.HasPrefix(t, "-") {
			c.ops = append(c.ops, w)
			continue
		}
		if t == "--" {
			c.ops = append(c.ops, args[i+1:]...)
			return true
		}
		if name, ok := strings.CutPrefix(t, "--"); ok {
			name, val, hasVal := strings.Cut(name, "=")
			switch {
			case containsStr(s.longArg, name):
				if hasVal {
					c.opts = append(c.opts, opt{name: name, val: sword{lit: val, pat: glob.Escape(val), src: val}, has: true})
				} else if i+1 < len(args) {
					i++
					c.opts = append(c.opts, opt{name: name, val: args[i], has: true})
				} else {
					c.unknown("option --" + name + " has no value")
					return false
				}
			case containsStr(s.long, name) && !hasVal:
				c.opts = append(c.opts, opt{name: name})
			case s.lax:
				c.opts = append(c.opts, opt{name: name})
			default:
				c.unknown("option --" + name + " is not in safezone's table for " + c.name)
				return false
			}
			continue
		}
		letters := t[1:]
		for j := 0; j < len(letters); j++ {
			l := letters[j]
			switch {
			case s.numeric && l >= '0' && l <= '9':
				for j+1 < len(letters) && letters[j+1] >= '0' && letters[j+1] <= '9' {
					j++
				}
			case strings.IndexByte(s.shortArg, l) >= 0:
				if rest := letters[j+1:]; rest != "" {
					c.opts = append(c.opts, opt{name: string(l), val: sword{lit: rest, pat: glob.Escape(rest), src: rest}, has: true})
				} else if i+1 < len(args) {
					i++
					c.opts = append(c.opts, opt{name: string(l), val: args[i], has: true})
				} else {
					c.unknown("option -" + string(l) + " has no value")
					return false
				}
				j = len(letters)
			case strings.IndexByte(s.short, l) >= 0 || s.lax:
				c.opts = append(c.opts, opt{name: string(l)})
			default:
				c.unknown("option -" + string(l) + " is not in safezone's table for " + c.name)
				return false
			}
		}
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
		// The handler parses its own options and sets ReadOnly.
		c.runCustom()
		return
	}
	if !c.getopt() {
		return
	}
	if c.execOption(s.execOpts...) {
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
	ops := c.ops
	switch s.role {
	case roleRead, roleWrite:
		access := policy.Read
		if s.role == roleWrite {
			access = policy.Write
		}
		if len(ops) == 0 && s.noOperands == "cwd" {
			c.addCwd(access, recursive)
		}
		for _, w := range ops {
			c.addT(w, access, recursive)
		}
	case roleFirstRead, roleFirstWrite:
		if !c.has(s.skipWith...) {
			if len(ops) == 0 {
				return
			}
			ops = ops[1:]
		}
		access := policy.Read
		if s.role == roleFirstWrite {
			access = policy.Write
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
		if t.Access == policy.Write {
			return true
		}
	}
	return false
}

// copyLike handles cp, install, mv, ln, rsync and scp: sources and a
// destination, the last operand or -t DIR.
func (c *cmdCtx) copyLike(ops []sword, recursive bool) {
	dest, hasDest := c.value("t", "target-directory")
	if !hasDest {
		if len(ops) == 0 {
			return
		}
		if len(ops) == 1 && c.spec.role == roleLink {
			// ln TARGET: a link named after it, in the working directory.
			if ops[0].unknown == "" {
				c.add(sword{lit: path.Base(ops[0].lit), pat: glob.Escape(path.Base(ops[0].lit)), src: ops[0].src}, policy.Write)
			}
		} else {
			dest, ops = ops[len(ops)-1], ops[:len(ops)-1]
			hasDest = true
		}
	}
	if hasDest && !remote(dest) {
		c.addT(dest, policy.Write, recursive)
	}
	srcAccess := policy.Read
	hardLink := c.spec.role == roleLink && !c.has("s", "symbolic")
	if c.spec.role == roleMove || hardLink || (c.name == "cp" && c.has("l", "link")) || (c.name == "rsync" && c.has("remove-source-files")) {
		// A move removes its sources; a hard link makes an outside file
		// reachable under an inside name (issue "Shell commands").
		srcAccess = policy.Write
	}
	if c.spec.role == roleLink && !hardLink {
		return // a symbolic link reads nothing; later calls resolve through it
	}
	for _, w := range ops {
		if !remote(w) {
			if hardLink {
				c.add(w, policy.Read)
			}
			c.addT(w, srcAccess, recursive && srcAccess == policy.Write)
		}
	}
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

// specs is the table, sorted by name (see spec).
var specs = []cmdSpec{
	{name: ".", role: roleCustom, custom: hSourceCmd},
	{name: "[", role: roleNone},
	{name: "alias", role: roleCustom, custom: hAliasCmd},
	{name: "at", role: roleCustom, custom: hOpaque, why: "at schedules commands"},
	{name: "awk", role: roleCustom, custom: hAwkCmd},
	{name: "b2sum", role: roleRead, short: "bctwz", long: []string{"binary", "check", "tag", "text", "warn", "zero", "quiet", "status", "strict"}, readOnly: true},
	{name: "base32", role: roleRead, short: "di", shortArg: "w", long: []string{"decode", "ignore-garbage"}, longArg: []string{"wrap"}, readOnly: true},
	{name: "base64", role: roleRead, short: "di", shortArg: "w", long: []string{"decode", "ignore-garbage"}, longArg: []string{"wrap"}, readOnly: true},
	{name: "basename", role: roleNone},
	{name: "bash", role: roleCustom, custom: hShellCmd},
	{name: "batch", role: roleCustom, custom: hOpaque, why: "batch schedules commands"},
	{name: "bunzip2", role: roleCustom, custom: hCompressCmd},
	{name: "bzip2", role: roleCustom, custom: hCompressCmd},
	{name: "cat", role: roleRead, short: "AbeEnstTuv", long: []string{"show-all", "number-nonblank", "show-ends", "number", "squeeze-blank", "show-tabs", "show-nonprinting"}, readOnly: true},
	{name: "cd", role: roleCustom, custom: hCdCmd},
	{name: "chgrp", role: roleFirstWrite, short: "cfvRhHLP", long: []string{"changes", "silent", "quiet", "verbose", "recursive", "dereference", "no-dereference", "preserve-root", "no-preserve-root"}, longArg: []string{"reference", "from"}, files: []optFile{{"reference", policy.Read}}, skipWith: []string{"reference"}, recursive: []string{"R", "recursive"}},
	{name: "chmod", role: roleCustom, custom: hChmodCmd, short: "cfvR", long: []string{"changes", "silent", "quiet", "verbose", "recursive", "preserve-root", "no-preserve-root"}, longArg: []string{"reference"}, files: []optFile{{"reference", policy.Read}}, recursive: []string{"R", "recursive"}},
	{name: "chown", role: roleFirstWrite, short: "cfvRhHLP", long: []string{"changes", "silent", "quiet", "verbose", "recursive", "dereference", "no-dereference", "preserve-root", "no-preserve-root"}, longArg: []string{"reference", "from"}, files: []optFile{{"reference", policy.Read}}, skipWith: []string{"reference"}, recursive: []string{"R", "recursive"}},
	{name: "cksum", role: roleRead, lax: true, readOnly: true},
	{name: "clear", role: roleNone},
	{name: "cmp", role: roleRead, short: "blsz", shortArg: "inI", long: []string{"print-bytes", "verbose", "quiet", "silent"}, longArg: []string{"ignore-initial", "bytes"}, readOnly: true},
	{name: "column", role: roleRead, short: "tnexJ", shortArg: "csorRNHlW", readOnly: true},
	{name: "comm", role: roleRead, short: "123iz", long: []string{"check-order", "nocheck-order", "total", "zero-terminated"}, longArg: []string{"output-delimiter"}, readOnly: true},
	{name: "cp", role: roleCopy, short: "aAbdfHilLnprRsPuvxTZ", shortArg: "tS", long: []string{"archive", "attributes-only", "backup", "copy-contents", "debug", "force", "interactive", "link", "dereference", "no-clobber", "no-dereference", "preserve", "parents", "recursive", "reflink", "remove-destination", "strip-trailing-slashes", "symbolic-link", "no-target-directory", "update", "verbose", "one-file-system", "context"}, longArg: []string{"target-directory", "suffix", "sparse", "no-preserve", "preserve", "backup", "update", "reflink"}},
	{name: "crontab", role: roleCustom, custom: hOpaque, why: "crontab schedules commands"},
	{name: "csplit", role: roleCustom, custom: hOpaque, why: "csplit writes files named by a prefix"},
	{name: "curl", role: roleCustom, custom: hCurlCmd},
	{name: "cut", role: roleRead, short: "nsz", shortArg: "bcdf", long: []string{"complement", "only-delimited", "zero-terminated"}, longArg: []string{"bytes", "characters", "delimiter", "fields", "output-delimiter"}, readOnly: true},
	{name: "date", role: roleNone},
	{name: "dd", role: roleCustom, custom: hDdCmd},
	{name: "declare", role: roleNone},
	{name: "df", role: roleNone},
	{name: "diff", role: roleRead, short: "abBcdeEfHilNnpPqrsStTuwyZ", shortArg: "CUIFxXLSWD", long: []string{"text", "ignore-space-change", "ignore-blank-lines", "ignore-case", "ignore-all-space", "new-file", "brief", "recursive", "report-identical-files", "side-by-side", "unified", "context", "expand-tabs", "initial-tab", "minimal", "speed-large-files", "strip-trailing-cr", "suppress-common-lines", "show-c-function", "no-dereference", "color"}, longArg: []string{"exclude", "exclude-from", "ignore-matching-lines", "label", "starting-file", "width", "unified", "context", "color", "palette", "from-file", "to-file"}, files: []optFile{{"X", policy.Read}, {"exclude-from", policy.Read}, {"from-file", policy.Read}, {"to-file", policy.Read}}, readOnly: true},
	{name: "dirname", role: roleNone},
	{name: "dirs", role: roleNone},
	{name: "du", role: roleRead, short: "0abcDhHklLmsSPx", shortArg: "BdtX", long: []string{"null", "all", "apparent-size", "bytes", "total", "dereference-args", "human-readable", "inodes", "dereference", "count-links", "no-dereference", "separate-dirs", "si", "summarize", "one-file-system"}, longArg: []string{"block-size", "max-depth", "threshold", "time", "time-style", "exclude", "exclude-from", "files0-from"}, files: []optFile{{"X", policy.Read}, {"exclude-from", policy.Read}, {"files0-from", policy.Read}}, readOnly: true, noOperands: "cwd"},
	{name: "echo", role: roleNone},
	{name: "egrep", role: roleCustom, custom: hGrepCmd},
	{name: "enable", role: roleCustom, custom: hOpaque, why: "enable loads or hides builtins, which changes what later commands run"},
	{name: "env", role: roleNone},
	{name: "eval", role: roleCustom, custom: hOpaque, why: "eval runs a string as code"},
	{name: "exit", role: roleNone},
	{name: "export", role: roleNone},
	{name: "expr", role: roleNone},
	{name: "false", role: roleNone},
	{name: "fgrep", role: roleCustom, custom: hGrepCmd},
	{name: "file", role: roleRead, short: "bcEhiklLNnprsvzZ0", shortArg: "fFmeP", long: []string{"brief", "mime", "mime-type", "mime-encoding", "keep-going", "dereference", "no-dereference", "no-pad", "no-buffer", "preserve-date", "raw", "special-files", "uncompress", "print0"}, longArg: []string{"files-from", "separator", "magic-file", "exclude", "parameter"}, files: []optFile{{"f", policy.Read}, {"files-from", policy.Read}, {"m", policy.Read}, {"magic-file", policy.Read}}, readOnly: true},
	{name: "find", role: roleCustom, custom: hFindCmd},
	{name: "fmt", role: roleRead, short: "cstu", shortArg: "pgw", numeric: true, readOnly: true},
	{name: "fold", role: roleRead, short: "bs", shortArg: "w", numeric: true, readOnly: true},
	{name: "free", role: roleNone},
	{name: "git", role: roleCustom, custom: hGitCmd},
	{name: "grep", role: roleCustom, custom: hGrepCmd},
	{name: "gunzip", role: roleCustom, custom: hCompressCmd},
	{name: "gzip", role: roleCustom, custom: hCompressCmd},
	{name: "hash", role: roleCustom, custom: hAliasCmd},
	{name: "head", role: roleRead, short: "qvz", shortArg: "nc", long: []string{"quiet", "silent", "verbose", "zero-terminated"}, longArg: []string{"lines", "bytes"}, numeric: true, readOnly: true},
	{name: "hexdump", role: roleRead, short: "bcCdovx", shortArg: "efns", readOnly: true},
	{name: "history", role: roleNone},
	{name: "hostname", role: roleNone},
	{name: "iconv", role: roleRead, short: "cls", shortArg: "fto", long: []string{"list", "silent"}, longArg: []string{"from-code", "to-code", "output"}, files: []optFile{{"o", policy.Write}, {"output", policy.Write}}, readOnly: true},
	{name: "id", role: roleNone},
	{name: "install", role: roleCustom, custom: hInstallCmd, short: "bcCdDpsTv", shortArg: "gmotSZ", long: []string{"backup", "compare", "directory", "preserve-timestamps", "strip", "no-target-directory", "verbose", "debug"}, longArg: []string{"group", "mode", "owner", "target-directory", "suffix", "strip-program", "context"}},
	{name: "jobs", role: roleNone},
	{name: "join", role: roleRead, short: "iz", shortArg: "aejot12v", long: []string{"ignore-case", "check-order", "nocheck-order", "header", "zero-terminated"}, readOnly: true},
	{name: "jq", role: roleCustom, custom: hJqCmd},
	{name: "kill", role: roleNone},
	{name: "less", role: roleRead, short: "FIMNRSXcefimnqrsw", shortArg: "jxyzbhpPtT", files: []optFile{{"o", policy.Write}, {"O", policy.Write}}, readOnly: true},
	{name: "ln", role: roleLink, short: "bdfFinLPrsTv", shortArg: "tS", long: []string{"backup", "directory", "force", "interactive", "logical", "no-dereference", "physical", "relative", "symbolic", "no-target-directory", "verbose"}, longArg: []string{"target-directory", "suffix", "backup"}},
	{name: "local", role: roleNone},
	{name: "ls", role: roleRead, short: "aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvwxXZ1", shortArg: "ITw", long: []string{"all", "almost-all", "author", "escape", "ignore-backups", "directory", "dired", "classify", "file-type", "full-time", "group-directories-first", "no-group", "human-readable", "si", "dereference-command-line", "dereference-command-line-symlink-to-dir", "inode", "kibibytes", "dereference", "numeric-uid-gid", "literal", "indicator-style", "hide-control-chars", "show-control-chars", "quote-name", "reverse", "recursive", "size", "context", "zero", "color", "hyperlink", "classify"}, longArg: []string{"block-size", "color", "format", "hide", "hyperlink", "ignore", "indicator-style", "quoting-style", "sort", "time", "time-style", "tabsize", "width", "classify"}, readOnly: true, noOperands: "cwd"},
	{name: "lzma", role: roleCustom, custom: hCompressCmd},
	{name: "md5sum", role: roleRead, short: "bctwz", long: []string{"binary", "check", "tag", "text", "warn", "zero", "quiet", "status", "strict"}, readOnly: true},
	{name: "mkdir", role: roleWrite, short: "pv", shortArg: "m", long: []string{"parents", "verbose"}, longArg: []string{"mode", "context"}},
	{name: "mkfifo", role: roleWrite, shortArg: "mZ", longArg: []string{"mode", "context"}},
	{name: "more", role: roleRead, short: "dlfpcsu", numeric: true, readOnly: true},
	{name: "mv", role: roleMove, short: "bfinTuvZ", shortArg: "tS", long: []string{"backup", "force", "interactive", "no-clobber", "no-copy", "strip-trailing-slashes", "no-target-directory", "update", "verbose", "context", "exchange"}, longArg: []string{"target-directory", "suffix", "backup", "update"}},
	{name: "nl", role: roleRead, short: "p", shortArg: "bdfhilnsvw", readOnly: true},
	{name: "nproc", role: roleNone},
	{name: "od", role: roleRead, short: "bcdfiloxsv", shortArg: "AjNtwS", readOnly: true},
	{name: "paste", role: roleRead, short: "sz", shortArg: "d", long: []string{"serial", "zero-terminated"}, longArg: []string{"delimiters"}, readOnly: true},
	{name: "patch", role: roleCustom, custom: hOpaque, why: "patch writes the files its patch names"},
	{name: "perl", role: roleCustom, custom: hPerlCmd},
	{name: "popd", role: roleCustom, custom: hPopdCmd},
	{name: "printenv", role: roleNone},
	{name: "printf", role: roleCustom, custom: hPrintfCmd},
	{name: "ps", role: roleNone},
	{name: "pushd", role: roleCustom, custom: hCdCmd},
	{name: "pwd", role: roleNone},
	{name: "read", role: roleCustom, custom: hReadCmd},
	{name: "readarray", role: roleCustom, custom: hReadCmd},
	{name: "readlink", role: roleRead, short: "efmnqsvz", long: []string{"canonicalize", "canonicalize-existing", "canonicalize-missing", "no-newline", "quiet", "silent", "verbose", "zero"}, readOnly: true},
	{name: "realpath", role: roleRead, short: "eLmPqsz", long: []string{"canonicalize-existing", "canonicalize-missing", "logical", "physical", "quiet", "strip", "no-symlinks", "zero"}, longArg: []string{"relative-to", "relative-base"}, readOnly: true},
	{name: "rev", role: roleRead, readOnly: true},
	{name: "rg", role: roleCustom, custom: hRgCmd},
	{name: "rm", role: roleWrite, short: "dfirRIv", long: []string{"force", "interactive", "recursive", "dir", "verbose", "one-file-system", "no-preserve-root", "preserve-root"}, longArg: []string{"interactive", "preserve-root"}, recursive: []string{"r", "R", "recursive"}},
	{name: "rmdir", role: roleWrite, short: "pv", long: []string{"parents", "verbose", "ignore-fail-on-non-empty"}},
	{name: "rsync", role: roleCopy, lax: true, shortArg: "efBTM", longArg: []string{"rsh", "filter", "exclude", "include", "exclude-from", "include-from", "files-from", "password-file", "log-file", "log-file-format", "backup-dir", "suffix", "compare-dest", "copy-dest", "link-dest", "temp-dir", "partial-dir", "chmod", "chown", "usermap", "groupmap", "timeout", "contimeout", "bwlimit", "port", "block-size", "max-size", "min-size", "max-delete", "modify-window", "out-format", "info", "debug", "iconv", "checksum-choice", "compress-choice", "compress-level", "skip-compress", "rsync-path", "sockopts", "outbuf", "remote-option", "stop-after", "stop-at", "write-batch", "read-batch", "only-write-batch", "address", "protocol"}, files: []optFile{{"exclude-from", policy.Read}, {"include-from", policy.Read}, {"files-from", policy.Read}, {"password-file", policy.Read}, {"log-file", policy.Write}, {"write-batch", policy.Write}, {"only-write-batch", policy.Write}, {"read-batch", policy.Read}}, recursive: []string{"del", "delete", "delete-before", "delete-during", "delete-delay", "delete-after", "delete-excluded", "delete-missing-args", "remove-source-files"}, execOpts: []string{"e", "rsh"}},
	{name: "ruby", role: roleCustom, custom: hInterpreterCmd},
	{name: "safezone", role: roleCustom, custom: hSafezoneCmd},
	{name: "scp", role: roleCopy, short: "346ABCOpqRrTv", shortArg: "cFiJlmoPSX", files: []optFile{{"F", policy.Read}, {"i", policy.Read}}, execOpts: []string{"S", "o"}},
	{name: "screen", role: roleCustom, custom: hOpaque, why: "screen runs commands in another shell"},
	{name: "sed", role: roleCustom, custom: hSedCmd},
	{name: "seq", role: roleNone},
	{name: "set", role: roleNone},
	{name: "sh", role: roleCustom, custom: hShellCmd},
	{name: "sha1sum", role: roleRead, short: "bctwz", long: []string{"binary", "check", "tag", "text", "warn", "zero", "quiet", "status", "strict"}, readOnly: true},
	{name: "sha256sum", role: roleRead, short: "bctwz", long: []string{"binary", "check", "tag", "text", "warn", "zero", "quiet", "status", "strict"}, readOnly: true},
	{name: "sha512sum", role: roleRead, short: "bctwz", long: []string{"binary", "check", "tag", "text", "warn", "zero", "quiet", "status", "strict"}, readOnly: true},
	{name: "shift", role: roleNone},
	{name: "shuf", role: roleRead, short: "erz", shortArg: "inoi", longArg: []string{"head-count", "output", "random-source", "input-range"}, files: []optFile{{"o", policy.Write}, {"output", policy.Write}, {"random-source", policy.Read}}, readOnly: true},
	{name: "sleep", role: roleNone},
	{name: "sort", role: roleRead, short: "bcCdfgiMhnRrsuVz", shortArg: "kotST", long: []string{"ignore-leading-blanks", "dictionary-order", "ignore-case", "general-numeric-sort", "ignore-nonprinting", "month-sort", "human-numeric-sort", "numeric-sort", "random-sort", "reverse", "version-sort", "check", "merge", "stable", "unique", "zero-terminated", "debug"}, longArg: []string{"key", "output", "field-separator", "temporary-directory", "buffer-size", "parallel", "random-source", "files0-from", "sort", "batch-size", "check", "compress-program"}, files: []optFile{{"o", policy.Write}, {"output", policy.Write}, {"random-source", policy.Read}, {"files0-from", policy.Read}}, execOpts: []string{"compress-program"}, readOnly: true},
	{name: "source", role: roleCustom, custom: hSourceCmd},
	{name: "split", role: roleCustom, custom: hOpaque, why: "split writes files named by a prefix"},
	{name: "stat", role: roleRead, short: "LfxtZ", shortArg: "c", long: []string{"dereference", "file-system", "terse"}, longArg: []string{"format", "printf", "cached"}, readOnly: true},
	{name: "strings", role: roleRead, short: "afwsU", shortArg: "ntTeo", longArg: []string{"bytes", "radix", "target", "encoding", "output-separator"}, numeric: true, readOnly: true},
	{name: "tac", role: roleRead, short: "br", shortArg: "s", long: []string{"before", "regex"}, longArg: []string{"separator"}, readOnly: true},
	{name: "tail", role: roleRead, short: "fFqvrz", shortArg: "ncs", long: []string{"follow", "retry", "quiet", "silent", "verbose", "zero-terminated"}, longArg: []string{"lines", "bytes", "sleep-interval", "pid", "max-unchanged-stats", "follow"}, numeric: true, readOnly: true},
	{name: "tar", role: roleCustom, custom: hTarCmd},
	{name: "tee", role: roleWrite, short: "aip", long: []string{"append", "ignore-interrupts", "output-error"}, longArg: []string{"output-error"}},
	{name: "test", role: roleNone},
	{name: "time", role: roleNone},
	{name: "timeout", role: roleNone},
	{name: "tmux", role: roleCustom, custom: hOpaque, why: "tmux runs commands in another shell"},
	{name: "touch", role: roleWrite, short: "acmhf", shortArg: "dtr", long: []string{"no-create", "no-dereference"}, longArg: []string{"date", "reference", "time"}, files: []optFile{{"r", policy.Read}, {"reference", policy.Read}}},
	{name: "tr", role: roleNone},
	{name: "trap", role: roleCustom, custom: hTrapCmd},
	{name: "tree", role: roleRead, short: "adfilpugsDhFqNrtvxACSnJX", shortArg: "LPIoH", long: []string{"noreport", "dirsfirst", "filesfirst", "prune", "du", "si", "inodes", "device", "gitignore", "matchdirs", "ignore-case"}, longArg: []string{"charset", "filelimit", "timefmt", "sort", "fromfile", "info"}, files: []optFile{{"o", policy.Write}}, readOnly: true, noOperands: "cwd"},
	{name: "true", role: roleNone},
	{name: "truncate", role: roleWrite, short: "co", shortArg: "sr", long: []string{"no-create", "io-blocks"}, longArg: []string{"size", "reference"}, files: []optFile{{"r", policy.Read}, {"reference", policy.Read}}},
	{name: "type", role: roleNone},
	{name: "umask", role: roleNone},
	{name: "uname", role: roleNone},
	{name: "uniq", role: roleCustom, custom: hUniqCmd, short: "cdDiuz", shortArg: "fsw", long: []string{"count", "repeated", "ignore-case", "unique", "zero-terminated", "all-repeated", "group"}, longArg: []string{"skip-fields", "skip-chars", "check-chars", "all-repeated", "group"}},
	{name: "unlzma", role: roleCustom, custom: hCompressCmd},
	{name: "unset", role: roleCustom, custom: hReadCmd},
	{name: "unxz", role: roleCustom, custom: hCompressCmd},
	{name: "unzip", role: roleCustom, custom: hUnzipCmd},
	{name: "unzstd", role: roleCustom, custom: hCompressCmd},
	{name: "uptime", role: roleNone},
	{name: "watch", role: roleCustom, custom: hOpaque, why: "watch runs a command string"},
	{name: "wc", role: roleRead, short: "clmwL", long: []string{"bytes", "chars", "lines", "words", "max-line-length", "total"}, longArg: []string{"files0-from", "total"}, files: []optFile{{"files0-from", policy.Read}}, readOnly: true},
	{name: "wget", role: roleCustom, custom: hWgetCmd},
	{name: "which", role: roleNone},
	{name: "whoami", role: roleNone},
	{name: "xargs", role: roleCustom, custom: hXargsCmd},
	{name: "xxd", role: roleCustom, custom: hXxdCmd},
	{name: "xz", role: roleCustom, custom: hCompressCmd},
	{name: "yes", role: roleNone},
	{name: "yq", role: roleCustom, custom: hYqCmd},
	{name: "zip", role: roleCustom, custom: hZipCmd},
	{name: "zsh", role: roleCustom, custom: hShellCmd},
	{name: "zstd", role: roleCustom, custom: hCompressCmd},
}

// spec returns a command's entry, or nil for an ordinary program.
func spec(name string) *cmdSpec {
	i := sort.Search(len(specs), func(i int) bool { return specs[i].name >= name })
	if i < len(specs) && specs[i].name == name {
		return &specs[i]
	}
	switch name {
	case "python", "python2", "python3", "pypy", "pypy3", "node", "nodejs", "bun", "deno",
		"php", "lua", "luajit", "Rscript", "osascript", "pwsh", "powershell", "tclsh", "wish", "julia":
		return &interpreterSpec
	case "dash", "ksh", "mksh", "fish":
		return &shellSpec
	case "gawk", "mawk", "nawk", "busybox-awk":
		return &awkSpec
	case "zcat", "bzcat", "xzcat", "zstdcat", "zless", "zmore":
		return &catLike
	}
	return nil
}

var (
	interpreterSpec = cmdSpec{name: "interpreter", role: roleCustom, custom: hInterpreterCmd}
	shellSpec       = cmdSpec{name: "shell", role: roleCustom, custom: hShellCmd}
	awkSpec         = cmdSpec{name: "awk", role: roleCustom, custom: hAwkCmd}
	catLike         = cmdSpec{name: "zcat", role: roleRead, lax: true, readOnly: true}
)

// handler names a command's own analysis (cmdSpec.custom). An enum and a
// switch, not function values, keep the table plain data.
type handler uint8

const (
	hNone   handler = iota
	hOpaque         // unknown, for cmdSpec.why
	hAwkCmd
	hAliasCmd
	hCdCmd
	hChmodCmd
	hCompressCmd
	hCurlCmd
	hDdCmd
	hFindCmd
	hGitCmd
	hGrepCmd
	hInstallCmd
	hInterpreterCmd
	hJqCmd
	hPerlCmd
	hPopdCmd
	hPrintfCmd
	hReadCmd
	hRgCmd
	hSafezoneCmd
	hSedCmd
	hShellCmd
	hSourceCmd
	hTarCmd
	hTrapCmd
	hUniqCmd
	hUnzipCmd
	hWgetCmd
	hXargsCmd
	hXxdCmd
	hYqCmd
	hZipCmd
)

func (c *cmdCtx) runCustom() {
	switch c.spec.custom {
	case hOpaque:
		c.unknown(c.spec.why)
	case hAwkCmd:
		awkCmd(c)
	case hCdCmd:
		cdCmd(c)
	case hChmodCmd:
		chmodCmd(c)
	case hCompressCmd:
		compressCmd(c)
	case hCurlCmd:
		curlCmd(c)
	case hDdCmd:
		ddCmd(c)
	case hFindCmd:
		findCmd(c)
	case hGitCmd:
		gitCmd(c)
	case hGrepCmd:
		grepCmd(c)
	case hInstallCmd:
		installCmd(c)
	case hInterpreterCmd:
		interpreterCmd(c)
	case hJqCmd:
		jqCmd(c)
	case hPerlCmd:
		perlCmd(c)
	case hPopdCmd:
		popdCmd(c)
	case hPrintfCmd:
		printfCmd(c)
	case hReadCmd:
		readCmd(c)
	case hRgCmd:
		rgCmd(c)
	case hSedCmd:
		sedCmd(c)
	case hShellCmd:
		shellCmd(c)
	case hSourceCmd:
		sourceCmd(c)
	case hTarCmd:
		tarCmd(c)
	case hAliasCmd:
		aliasCmd(c)
	case hSafezoneCmd:
		safezoneCmd(c)
	case hTrapCmd:
		trapCmd(c)
	case hUniqCmd:
		uniqCmd(c)
	case hUnzipCmd:
		unzipCmd(c)
	case hWgetCmd:
		wgetCmd(c)
	case hXargsCmd:
		xargsCmd(c)
	case hXxdCmd:
		xxdCmd(c)
	case hYqCmd:
		yqCmd(c)
	case hZipCmd:
		zipCmd(c)
	default:
		c.unknown("safezone has no analysis for " + c.name)
	}
}

// execEnvVars are environment variables whose value is a command, code or
// a place code is loaded from: a command run with one of them set, or a
// line that sets one, may run anything (GIT_EXTERNAL_DIFF='rm -rf ~' git
// diff). Sources: git(1) ENVIRONMENT VARIABLES, bash(1) Shell Variables,
// ld.so(8), less(1), man(1), perlrun(1), node(1), ruby(1).
var execEnvVars = map[string]bool{
	"BASH_ENV": true, "ENV": true, "PROMPT_COMMAND": true, "PS4": true, "SHELLOPTS": true, "BASHOPTS": true, "CDPATH": true, "PATH": true,
	"GIT_EXTERNAL_DIFF": true, "GIT_PAGER": true, "GIT_EDITOR": true, "GIT_SEQUENCE_EDITOR": true, "GIT_SSH": true, "GIT_SSH_COMMAND": true,
	"GIT_ASKPASS": true, "SSH_ASKPASS": true, "GIT_PROXY_COMMAND": true, "GIT_CONFIG": true, "GIT_CONFIG_GLOBAL": true, "GIT_CONFIG_SYSTEM": true,
	"GIT_CONFIG_PARAMETERS": true, "GIT_CONFIG_COUNT": true, "GIT_EXEC_PATH": true, "GIT_TEMPLATE_DIR": true, "GIT_DIR": true, "GIT_WORK_TREE": true,
	"PAGER": true, "MANPAGER": true, "SYSTEMD_PAGER": true, "EDITOR": true, "VISUAL": true, "BROWSER": true, "LESSOPEN": true, "LESSCLOSE": true,
	"LD_PRELOAD": true, "LD_AUDIT": true, "LD_LIBRARY_PATH": true, "PERL5OPT": true, "PERL5LIB": true, "PERLLIB": true,
	"PYTHONSTARTUP": true, "PYTHONPATH": true, "NODE_OPTIONS": true, "RUBYOPT": true, "RUBYLIB": true,
}

// isExecEnvVar reports whether setting name may make a command run code
// (execEnvVars, and git's GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n).
func isExecEnvVar(name string) bool {
	return execEnvVars[name] || strings.HasPrefix(name, "GIT_CONFIG_KEY_") || strings.HasPrefix(name, "GIT_CONFIG_VALUE_")
}

// isGitExecKey reports whether a git configuration key (case-insensitive,
// as in "git -c key=value" or "git config key value") makes git run a
// command or load code: core.fsmonitor, core.pager, alias.*, filter
// drivers, credential helpers, ... (git-config(1)). An unknown key counts
// as such only when it ends in a command-like name.
func isGitExecKey(key string) bool {
	k := strings.ToLower(key)
	switch k {
	case "core.fsmonitor", "core.pager", "core.editor", "core.sshcommand", "core.hookspath", "core.askpass", "core.gitproxy",
		"diff.external", "sequence.editor", "credential.helper", "gpg.program", "include.path", "uploadpack.packobjectshook",
		"protocol.allow", "web.browser", "core.worktree", "core.alternaterefscommand", "sendemail.smtpserver":
		return true
	}
	for _, p := range []string{"alias.", "includeif.", "pager.", "filter.", "credential.", "gpg.", "man.", "browser.", "difftool.", "mergetool.", "merge.", "diff.", "remote.", "url.", "protocol.", "submodule.", "sendemail.", "trailer."} {
		if strings.HasPrefix(k, p) {
			for _, suf := range []string{".command", ".cmd", ".textconv", ".driver", ".clean", ".smudge", ".process", ".helper", ".program", ".path", ".uploadpack", ".receivepack", ".proxy", ".allow", ".insteadof", ".pushinsteadof", ".update"} {
				if strings.HasSuffix(k, suf) {
					return true
				}
			}
			if p == "alias." || p == "includeif." || p == "pager." || p == "filter." {
				return true
			}
		}
	}
	return strings.HasSuffix(k, "command") || strings.HasSuffix(k, "cmd") || strings.HasSuffix(k, ".program") || strings.HasSuffix(k, ".helper")
}
