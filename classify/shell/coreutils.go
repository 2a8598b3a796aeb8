package shell

import (
	"path"
	"strings"

	"github.com/safezonehq/safezone/policy/glob"
)

// coreutils are the file utilities of GNU coreutils, diffutils, util-linux
// and procps (their manuals), sorted by name.
var coreutils = []cmdSpec{
	{name: "b2sum", role: roleRead, short: "bctwz", long: []string{"binary", "check", "tag", "text", "warn", "zero", "quiet", "status", "strict"}, readOnly: true, listOpts: []string{"c", "check"}},
	{name: "base32", role: roleRead, short: "di", shortArg: "w", long: []string{"decode", "ignore-garbage"}, longArg: []string{"wrap"}, readOnly: true},
	{name: "base64", role: roleRead, short: "di", shortArg: "w", long: []string{"decode", "ignore-garbage"}, longArg: []string{"wrap"}, readOnly: true},
	{name: "basename", role: roleNone},
	{name: "cat", role: roleRead, short: "AbeEnstTuv", long: []string{"show-all", "number-nonblank", "show-ends", "number", "squeeze-blank", "show-tabs", "show-nonprinting"}, readOnly: true},
	{name: "chgrp", role: roleFirstWrite, short: "cfvRhHLP", long: []string{"changes", "silent", "quiet", "verbose", "recursive", "dereference", "no-dereference", "preserve-root", "no-preserve-root"}, longArg: []string{"reference", "from"}, files: []optFile{{"reference", Read}}, skipWith: []string{"reference"}, recursive: []string{"R", "recursive"}},
	{name: "chmod", role: roleCustom, custom: chmodCmd, short: "cfvR", long: []string{"changes", "silent", "quiet", "verbose", "recursive", "preserve-root", "no-preserve-root"}, longArg: []string{"reference"}, files: []optFile{{"reference", Read}}, recursive: []string{"R", "recursive"}},
	{name: "chown", role: roleFirstWrite, short: "cfvRhHLP", long: []string{"changes", "silent", "quiet", "verbose", "recursive", "dereference", "no-dereference", "preserve-root", "no-preserve-root"}, longArg: []string{"reference", "from"}, files: []optFile{{"reference", Read}}, skipWith: []string{"reference"}, recursive: []string{"R", "recursive"}},
	{name: "cksum", role: roleRead, lax: true, readOnly: true},
	{name: "clear", role: roleNone},
	{name: "cmp", role: roleRead, short: "blsz", shortArg: "inI", long: []string{"print-bytes", "verbose", "quiet", "silent"}, longArg: []string{"ignore-initial", "bytes"}, readOnly: true},
	{name: "column", role: roleRead, short: "tnexJ", shortArg: "csorRNHlW", readOnly: true},
	{name: "comm", role: roleRead, short: "123iz", long: []string{"check-order", "nocheck-order", "total", "zero-terminated"}, longArg: []string{"output-delimiter"}, readOnly: true},
	{name: "cp", role: roleCopy, short: "aAbdfHilLnprRsPuvxTZ", shortArg: "tS", long: []string{"archive", "attributes-only", "backup", "copy-contents", "debug", "force", "interactive", "link", "dereference", "no-clobber", "no-dereference", "preserve", "parents", "recursive", "reflink", "remove-destination", "strip-trailing-slashes", "symbolic-link", "no-target-directory", "update", "verbose", "one-file-system", "context"}, longArg: []string{"target-directory", "suffix", "sparse", "no-preserve", "preserve", "backup", "update", "reflink"}, followOpts: []string{"L", "dereference"}},
	{name: "csplit", role: roleCustom, custom: splitCmd},
	{name: "cut", role: roleRead, short: "nsz", shortArg: "bcdf", long: []string{"complement", "only-delimited", "zero-terminated"}, longArg: []string{"bytes", "characters", "delimiter", "fields", "output-delimiter"}, readOnly: true},
	{name: "date", role: roleNone},
	{name: "dd", role: roleCustom, custom: ddCmd},
	{name: "df", role: roleNone},
	{name: "diff", role: roleRead, short: "abBcdeEfHilNnpPqrsStTuwyZ", shortArg: "CUIFxXLSWD", long: []string{"text", "ignore-space-change", "ignore-blank-lines", "ignore-case", "ignore-all-space", "new-file", "brief", "recursive", "report-identical-files", "side-by-side", "unified", "context", "expand-tabs", "initial-tab", "minimal", "speed-large-files", "strip-trailing-cr", "suppress-common-lines", "show-c-function", "no-dereference", "color"}, longArg: []string{"exclude", "exclude-from", "ignore-matching-lines", "label", "starting-file", "width", "unified", "context", "color", "palette", "from-file", "to-file"}, files: []optFile{{"X", Read}, {"exclude-from", Read}, {"from-file", Read}, {"to-file", Read}}, below: []string{"r", "recursive"}, readOnly: true},
	{name: "dirname", role: roleNone},
	{name: "du", role: roleRead, short: "0abcDhHklLmsSPx", shortArg: "BdtX", long: []string{"null", "all", "apparent-size", "bytes", "total", "dereference-args", "human-readable", "inodes", "dereference", "count-links", "no-dereference", "separate-dirs", "si", "summarize", "one-file-system"}, longArg: []string{"block-size", "max-depth", "threshold", "time", "time-style", "exclude", "exclude-from", "files0-from"}, files: []optFile{{"X", Read}, {"exclude-from", Read}, {"files0-from", Read}}, readOnly: true, noOperands: "cwd", listOpts: []string{"files0-from"}},
	{name: "expand", role: roleRead, short: "i", shortArg: "t", long: []string{"initial"}, longArg: []string{"tabs"}, numeric: true, readOnly: true},
	{name: "expr", role: roleNone},
	{name: "file", role: roleRead, short: "bcEhiklLNnprsvzZ0", shortArg: "fFmeP", long: []string{"brief", "mime", "mime-type", "mime-encoding", "keep-going", "dereference", "no-dereference", "no-pad", "no-buffer", "preserve-date", "raw", "special-files", "uncompress", "print0"}, longArg: []string{"files-from", "separator", "magic-file", "exclude", "parameter"}, files: []optFile{{"f", Read}, {"files-from", Read}, {"m", Read}, {"magic-file", Read}}, readOnly: true, listOpts: []string{"f", "files-from"}},
	{name: "fmt", role: roleRead, short: "cstu", shortArg: "pgw", numeric: true, readOnly: true},
	{name: "fold", role: roleRead, short: "bs", shortArg: "w", numeric: true, readOnly: true},
	{name: "free", role: roleNone},
	{name: "head", role: roleRead, short: "qvz", shortArg: "nc", long: []string{"quiet", "silent", "verbose", "zero-terminated"}, longArg: []string{"lines", "bytes"}, numeric: true, readOnly: true},
	{name: "hexdump", role: roleRead, short: "bcCdovx", shortArg: "efns", files: []optFile{{"f", Read}}, readOnly: true},
	{name: "hostname", role: roleNone},
	{name: "iconv", role: roleRead, short: "cls", shortArg: "fto", long: []string{"list", "silent"}, longArg: []string{"from-code", "to-code", "output"}, files: []optFile{{"o", Write}, {"output", Write}}, readOnly: true},
	{name: "id", role: roleNone},
	{name: "install", role: roleCustom, custom: installCmd, short: "bcCdDpsTv", shortArg: "gmotSZ", long: []string{"backup", "compare", "directory", "preserve-timestamps", "strip", "no-target-directory", "verbose", "debug"}, longArg: []string{"group", "mode", "owner", "target-directory", "suffix", "strip-program", "context"}},
	{name: "join", role: roleRead, short: "iz", shortArg: "aejot12v", long: []string{"ignore-case", "check-order", "nocheck-order", "header", "zero-terminated"}, readOnly: true},
	{name: "less", role: roleRead, short: "FIMNRSXcefimnqrsw", shortArg: "jxyzbhpPtT", files: []optFile{{"o", Write}, {"O", Write}}, readOnly: true},
	// link FILE1 FILE2 is ln without options (link(1), coreutils 9.1): a
	// hard link, which reads and writes FILE1.
	{name: "link", role: roleLink, long: []string{"help", "version"}},
	{name: "ln", role: roleLink, short: "bdfFinLPrsTv", shortArg: "tS", long: []string{"backup", "directory", "force", "interactive", "logical", "no-dereference", "physical", "relative", "symbolic", "no-target-directory", "verbose"}, longArg: []string{"target-directory", "suffix", "backup"}},
	{name: "ls", role: roleRead, short: "aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvwxXZ1", shortArg: "ITw", long: []string{"all", "almost-all", "author", "escape", "ignore-backups", "directory", "dired", "classify", "file-type", "full-time", "group-directories-first", "no-group", "human-readable", "si", "dereference-command-line", "dereference-command-line-symlink-to-dir", "inode", "kibibytes", "dereference", "numeric-uid-gid", "literal", "indicator-style", "hide-control-chars", "show-control-chars", "quote-name", "reverse", "recursive", "size", "context", "zero", "color", "hyperlink", "classify"}, longArg: []string{"block-size", "color", "format", "hide", "hyperlink", "ignore", "indicator-style", "quoting-style", "sort", "time", "time-style", "tabsize", "width", "classify"}, readOnly: true, noOperands: "cwd"},
	{name: "md5sum", role: roleRead, short: "bctwz", long: []string{"binary", "check", "tag", "text", "warn", "zero", "quiet", "status", "strict"}, readOnly: true, listOpts: []string{"c", "check"}},
	{name: "mkdir", role: roleWrite, short: "pv", shortArg: "m", long: []string{"parents", "verbose"}, longArg: []string{"mode", "context"}},
	{name: "mkfifo", role: roleWrite, shortArg: "mZ", longArg: []string{"mode", "context"}},
	{name: "more", role: roleRead, short: "dlfpcsu", numeric: true, readOnly: true},
	{name: "mv", role: roleMove, short: "bfinTuvZ", shortArg: "tS", long: []string{"backup", "force", "interactive", "no-clobber", "no-copy", "strip-trailing-slashes", "no-target-directory", "update", "verbose", "context", "exchange"}, longArg: []string{"target-directory", "suffix", "backup", "update"}},
	{name: "nl", role: roleRead, short: "p", shortArg: "bdfhilnsvw", readOnly: true},
	{name: "nproc", role: roleNone},
	{name: "od", role: roleRead, short: "bcdfiloxsv", shortArg: "AjNtwS", readOnly: true},
	{name: "paste", role: roleRead, short: "sz", shortArg: "d", long: []string{"serial", "zero-terminated"}, longArg: []string{"delimiters"}, readOnly: true},
	{name: "patch", role: roleCustom, custom: patchCmd},
	// pr paginates its files (pr(1), coreutils 9.1); -e, -i, -n, -s and -S
	// take their value attached only, so the letters after them in a
	// cluster are no options: those forms are refused as unknown options
	// rather than misread.
	{name: "pr", role: roleRead, short: "acdfFJmrtTv", shortArg: "DhlNowW", long: []string{"across", "show-control-chars", "double-space", "form-feed", "join-lines", "merge", "omit-header", "omit-pagination", "show-nonprinting", "no-file-warnings"}, longArg: []string{"pages", "columns", "date-format", "header", "length", "first-line-number", "indent", "width", "page-width"}, numeric: true, readOnly: true},
	{name: "printenv", role: roleNone},
	{name: "ps", role: roleNone},
	{name: "readlink", role: roleRead, short: "efmnqsvz", long: []string{"canonicalize", "canonicalize-existing", "canonicalize-missing", "no-newline", "quiet", "silent", "verbose", "zero"}, readOnly: true},
	{name: "realpath", role: roleRead, short: "eLmPqsz", long: []string{"canonicalize-existing", "canonicalize-missing", "logical", "physical", "quiet", "strip", "no-symlinks", "zero"}, longArg: []string{"relative-to", "relative-base"}, readOnly: true},
	{name: "rev", role: roleRead, readOnly: true},
	{name: "rm", role: roleWrite, short: "dfirRIv", long: []string{"force", "interactive", "recursive", "dir", "verbose", "one-file-system", "no-preserve-root", "preserve-root"}, longArg: []string{"interactive", "preserve-root"}, recursive: []string{"r", "R", "recursive"}},
	{name: "rmdir", role: roleWrite, short: "pv", long: []string{"parents", "verbose", "ignore-fail-on-non-empty"}},
	{name: "seq", role: roleNone},
	{name: "sha1sum", role: roleRead, short: "bctwz", long: []string{"binary", "check", "tag", "text", "warn", "zero", "quiet", "status", "strict"}, readOnly: true, listOpts: []string{"c", "check"}},
	{name: "sha256sum", role: roleRead, short: "bctwz", long: []string{"binary", "check", "tag", "text", "warn", "zero", "quiet", "status", "strict"}, readOnly: true, listOpts: []string{"c", "check"}},
	{name: "sha512sum", role: roleRead, short: "bctwz", long: []string{"binary", "check", "tag", "text", "warn", "zero", "quiet", "status", "strict"}, readOnly: true, listOpts: []string{"c", "check"}},
	{name: "shred", role: roleCustom, custom: shredCmd, short: "fuvxz", shortArg: "ns", long: []string{"force", "remove", "verbose", "exact", "zero"}, longArg: []string{"iterations", "size", "random-source"}, files: []optFile{{"random-source", Read}}},
	{name: "shuf", role: roleRead, short: "erz", shortArg: "inoi", longArg: []string{"head-count", "output", "random-source", "input-range"}, files: []optFile{{"o", Write}, {"output", Write}, {"random-source", Read}}, readOnly: true},
	{name: "sleep", role: roleNone},
	{name: "sort", role: roleRead, short: "bcCdfgiMhnRrsuVz", shortArg: "kotST", long: []string{"ignore-leading-blanks", "dictionary-order", "ignore-case", "general-numeric-sort", "ignore-nonprinting", "month-sort", "human-numeric-sort", "numeric-sort", "random-sort", "reverse", "version-sort", "check", "merge", "stable", "unique", "zero-terminated", "debug"}, longArg: []string{"key", "output", "field-separator", "temporary-directory", "buffer-size", "parallel", "random-source", "files0-from", "sort", "batch-size", "check", "compress-program"}, files: []optFile{{"o", Write}, {"output", Write}, {"random-source", Read}, {"files0-from", Read}}, execOpts: []string{"compress-program"}, readOnly: true, listOpts: []string{"files0-from"}},
	{name: "split", role: roleCustom, custom: splitCmd},
	{name: "stat", role: roleRead, short: "LfxtZ", shortArg: "c", long: []string{"dereference", "file-system", "terse"}, longArg: []string{"format", "printf", "cached"}, readOnly: true},
	{name: "strings", role: roleRead, short: "afwsU", shortArg: "ntTeo", longArg: []string{"bytes", "radix", "target", "encoding", "output-separator"}, numeric: true, readOnly: true},
	{name: "sum", role: roleRead, short: "rs", long: []string{"sysv"}, readOnly: true},
	{name: "tac", role: roleRead, short: "br", shortArg: "s", long: []string{"before", "regex"}, longArg: []string{"separator"}, readOnly: true},
	{name: "tail", role: roleRead, short: "fFqvrz", shortArg: "ncs", long: []string{"follow", "retry", "quiet", "silent", "verbose", "zero-terminated"}, longArg: []string{"lines", "bytes", "sleep-interval", "pid", "max-unchanged-stats", "follow"}, numeric: true, readOnly: true},
	{name: "tee", role: roleWrite, short: "aip", long: []string{"append", "ignore-interrupts", "output-error"}, longArg: []string{"output-error"}},
	{name: "touch", role: roleWrite, short: "acmhf", shortArg: "dtr", long: []string{"no-create", "no-dereference"}, longArg: []string{"date", "reference", "time"}, files: []optFile{{"r", Read}, {"reference", Read}}},
	{name: "tr", role: roleNone},
	{name: "tree", role: roleRead, short: "adfilpugsDhFqNrtvxACSnJX", shortArg: "LPIoH", long: []string{"noreport", "dirsfirst", "filesfirst", "prune", "du", "si", "inodes", "device", "gitignore", "matchdirs", "ignore-case"}, longArg: []string{"charset", "filelimit", "timefmt", "sort", "fromfile", "info"}, files: []optFile{{"o", Write}}, readOnly: true, noOperands: "cwd"},
	{name: "truncate", role: roleWrite, short: "co", shortArg: "sr", long: []string{"no-create", "io-blocks"}, longArg: []string{"size", "reference"}, files: []optFile{{"r", Read}, {"reference", Read}}},
	{name: "tsort", role: roleRead, readOnly: true},
	{name: "uname", role: roleNone},
	{name: "unexpand", role: roleRead, short: "a", shortArg: "t", long: []string{"all", "first-only"}, longArg: []string{"tabs"}, numeric: true, readOnly: true},
	{name: "uniq", role: roleCustom, custom: uniqCmd, short: "cdDiuz", shortArg: "fsw", long: []string{"count", "repeated", "ignore-case", "unique", "zero-terminated", "all-repeated", "group"}, longArg: []string{"skip-fields", "skip-chars", "check-chars", "all-repeated", "group"}},
	{name: "unlink", role: roleWrite},
	{name: "uptime", role: roleNone},
	{name: "wc", role: roleRead, short: "clmwL", long: []string{"bytes", "chars", "lines", "words", "max-line-length", "total"}, longArg: []string{"files0-from", "total"}, files: []optFile{{"files0-from", Read}}, readOnly: true, listOpts: []string{"files0-from"}},
	{name: "which", role: roleNone},
	{name: "whoami", role: roleNone},
	{name: "xxd", role: roleCustom, custom: xxdCmd},
	{name: "yes", role: roleNone},
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
		if !c.single(ops[0]) {
			return
		}
		ops = ops[1:]
	}
	if v, ok := c.value("reference"); ok {
		c.add(v, Read)
	}
	rec := c.has("R", "recursive")
	for _, w := range ops {
		c.addT(w, Write, rec)
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
			c.add(w, Write)
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
		c.add(c.ops[0], Read)
	}
	if len(c.ops) > 1 {
		c.add(c.ops[1], Write)
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
			c.add(val, Read)
		case "of":
			c.add(val, Write)
			ro = false
		}
	}
	c.cmd.ReadOnly = ro
}

// splitCmd: split [OPTIONS] [INPUT [PREFIX]] writes PREFIXaa, PREFIXab,
// ... (PREFIX "x" by default); csplit [OPTIONS] FILE PATTERN... writes
// PREFIX00, ... (-f PREFIX, "xx" by default). They read INPUT; split
// --filter runs a command (split(1), csplit(1)).
func splitCmd(c *cmdCtx) {
	prefix := literal("x")
	if c.name == "csplit" {
		c.spec = &cmdSpec{short: "kszq", shortArg: "bfn", long: []string{"keep-files", "quiet", "silent", "elide-empty-files", "suppress-matched"},
			longArg: []string{"suffix-format", "prefix", "digits"}}
		prefix = literal("xx")
	} else {
		c.spec = &cmdSpec{short: "dexu", shortArg: "abCltn", numeric: true,
			long:    []string{"elide-empty-files", "unbuffered", "verbose", "hex-suffixes", "numeric-suffixes", "separator"},
			longArg: []string{"suffix-length", "additional-suffix", "bytes", "line-bytes", "lines", "number", "filter", "separator", "numeric-suffixes", "hex-suffixes"}}
	}
	if !c.getopt() {
		return
	}
	if c.has("filter") {
		c.unknown("split --filter runs a command")
		return
	}
	if c.name == "csplit" && c.has("b", "suffix-format") || c.name == "split" && c.has("additional-suffix") {
		// The suffix makes the names: csplit -f .claude/ -b 'settings.json%.0d'.
		c.unknown(c.name + ": a suffix option names the files it writes")
		return
	}
	ops := c.ops
	if len(ops) > 0 {
		c.add(ops[0], Read)
	}
	switch v, ok := c.value("f", "prefix"); {
	case ok:
		prefix = v
	case c.name == "split" && len(ops) > 1:
		prefix = ops[1]
	}
	if prefix.unknown != "" {
		c.unknown(c.name + ": the prefix is not static")
		return
	}
	ts, why := c.a.targets(prefix, Write)
	if why != "" {
		c.unknown(why)
		return
	}
	for _, t := range ts {
		// The directory the files are made in, judged as a path (outside
		// the sandbox?), and the files PREFIX* as a pattern for the rules.
		dir := t
		if !strings.HasSuffix(t.Path, "/") {
			dir.Path, dir.Given = path.Dir(t.Path), path.Dir(t.Given)
		}
		c.cmd.Targets = append(c.cmd.Targets, dir)
		t.Path, t.Given, t.Pattern = glob.Escape(path.Clean(t.Path))+"*", t.Given+"*", true
		c.cmd.Targets = append(c.cmd.Targets, t)
	}
}

// patchCmd: patch changes the files its patch names, which safezone does
// not read: unknown. patch -o OUTFILE FILE [PATCHFILE] writes OUTFILE (and
// its rejects, OUTFILE.rej) and reads FILE and the patch (patch(1)).
func patchCmd(c *cmdCtx) {
	c.spec = &cmdSpec{short: "ceflnNRstuvZE", shortArg: "BDFgiopVYzr",
		long:    []string{"context", "ed", "normal", "unified", "forward", "force", "batch", "silent", "quiet", "reverse", "dry-run", "verbose", "ignore-whitespace", "remove-empty-files", "posix", "set-utc", "set-time"},
		longArg: []string{"input", "output", "strip", "fuzz", "directory", "reject-file", "prefix", "suffix", "basename-prefix", "backup-if-mismatch", "get", "quoting-style", "version-control", "merge", "read-only"}}
	if !c.getopt() {
		return
	}
	out, ok := c.value("o", "output")
	if !ok || len(c.ops) == 0 || c.has("d", "directory", "r", "reject-file", "B", "prefix", "Y", "basename-prefix", "z", "suffix") {
		c.unknown("patch writes the files its patch names")
		return
	}
	c.add(out, Write)
	if out.unknown == "" && out.lit != "-" {
		c.add(withSuffix(out, ".rej"), Write)
	}
	for _, w := range c.ops {
		c.add(w, Read)
	}
	if v, ok := c.value("i", "input"); ok {
		c.add(v, Read)
	}
}

// shredCmd: shred overwrites its files; -u (--remove) then renames each to
// names of zeros ("0", "00", ...) in its directory before removing it
// (shred(1)).
func shredCmd(c *cmdCtx) {
	c.spec.role = roleWrite
	c.run()
	c.spec.role = roleCustom
	if !c.has("u", "remove") {
		return
	}
	for _, w := range c.ops {
		if w.unknown != "" || w.glob {
			continue
		}
		ts, why := c.a.targets(w, Write)
		if why != "" {
			continue
		}
		for _, t := range ts {
			p := glob.Escape(path.Dir(path.Clean(t.Path))) + "/0*"
			c.cmd.Targets = append(c.cmd.Targets, Target{Path: p, Given: path.Join(path.Dir(t.Given), "0*"), Access: Write, Pattern: true})
		}
	}
}
