package shell

import (
	"path"
	"strings"
	"sync"

	"github.com/safezonehq/safezone/policy/glob"
)

// archivers are tar, zip and the compressors, sorted by name.
var archivers = []cmdSpec{
	{name: "bunzip2", role: roleCustom, custom: compressCmd},
	{name: "bzcat", role: roleRead, lax: true, readOnly: true},
	{name: "bzip2", role: roleCustom, custom: compressCmd},
	{name: "gunzip", role: roleCustom, custom: compressCmd},
	{name: "gzip", role: roleCustom, custom: compressCmd},
	{name: "lzma", role: roleCustom, custom: compressCmd},
	{name: "tar", role: roleCustom, custom: tarCmd},
	{name: "unlzma", role: roleCustom, custom: compressCmd},
	{name: "unxz", role: roleCustom, custom: compressCmd},
	{name: "unzip", role: roleCustom, custom: unzipCmd},
	{name: "unzstd", role: roleCustom, custom: compressCmd},
	{name: "xz", role: roleCustom, custom: compressCmd},
	{name: "xzcat", role: roleRead, lax: true, readOnly: true},
	{name: "zcat", role: roleRead, lax: true, readOnly: true},
	{name: "zip", role: roleCustom, custom: zipCmd},
	{name: "zless", role: roleRead, lax: true, readOnly: true},
	{name: "zmore", role: roleRead, lax: true, readOnly: true},
	{name: "zstd", role: roleCustom, custom: compressCmd},
	{name: "zstdcat", role: roleRead, lax: true, readOnly: true},
}

// compressFormat is one compressor's format (the manuals: gzip(1) -S and
// "gunzip ... .gz, -gz, .z, -z, _z or .Z ... .tgz and .taz as shorthands
// for .tar.gz and .tar.Z", bzip2(1), xz(1), zstd(1)): the suffix
// compression appends, the suffixes decompression strips with what it puts
// instead, and the options of its programs.
type compressFormat struct {
	family string
	suffix string
	strip  [][2]string
	opts   cmdSpec
}

// compressFormats are gzip's, bzip2's, xz's and zstd's formats.
var compressFormats = []compressFormat{
	{family: "gzip", suffix: ".gz", strip: [][2]string{{".gz", ""}, {"-gz", ""}, {".z", ""}, {"-z", ""}, {"_z", ""}, {".Z", ""}, {".tgz", ".tar"}, {".taz", ".tar"}}, opts: gzipOptions},
	{family: "bzip2", suffix: ".bz2", strip: [][2]string{{".bz2", ""}, {".bz", ""}, {".tbz2", ".tar"}, {".tbz", ".tar"}}, opts: gzipOptions},
	{family: "xz", suffix: ".xz", strip: [][2]string{{".xz", ""}, {".txz", ".tar"}, {".lzma", ""}, {".tlz", ".tar"}},
		opts: cmdSpec{short: "zdtlkfcqvhHVeF0123456789", shortArg: "CTMS",
			long:    []string{"compress", "decompress", "uncompress", "test", "list", "keep", "force", "stdout", "to-stdout", "single-stream", "no-sparse", "extreme", "quiet", "verbose", "help", "long-help", "version", "robot", "no-adjust", "ignore-check", "lzma1", "lzma2", "x86", "powerpc", "ia64", "arm", "armthumb", "arm64", "sparc", "riscv", "delta", "flush-timeout"},
			longArg: []string{"suffix", "format", "check", "threads", "memlimit", "memory", "memlimit-compress", "memlimit-decompress", "memlimit-mt", "block-size", "block-list", "files", "files0", "filters", "filters1", "preset"}}},
	{family: "zstd", suffix: ".zst", strip: [][2]string{{".zst", ""}, {".tzst", ".tar"}},
		opts: cmdSpec{short: "cdfhklqrtvVz0123456789", shortArg: "oDTBLM",
			long:    []string{"stdout", "decompress", "uncompress", "compress", "force", "help", "keep", "rm", "quiet", "test", "verbose", "version", "ultra", "long", "fast", "rsyncable", "sparse", "no-sparse", "no-progress", "progress", "single-thread", "no-check", "check", "list", "exclude-compressed", "content-size", "no-content-size", "adapt", "auto-threads", "patch-from"},
			longArg: []string{"output-dir-flat", "output-dir-mirror", "threads", "memory", "format", "zstd", "block-size", "stream-size", "size-hint", "target-compressed-block-size", "filelist", "patch-from"}}},
}

// gzipOptions are the options of gzip and bzip2 (gzip(1), bzip2(1)).
var gzipOptions = cmdSpec{short: "acdfhklLnNqrstvVzZ0123456789", shortArg: "S",
	long:    []string{"ascii", "stdout", "to-stdout", "decompress", "uncompress", "force", "help", "keep", "list", "license", "no-name", "name", "quiet", "recursive", "rsyncable", "test", "verbose", "version", "fast", "best", "small", "compress", "synchronous", "no-time", "repeat-fast", "exponential"},
	longArg: []string{"suffix"}}

// compressors are the programs of compressFormats: each one's format and
// whether it decompresses by default.
var compressors = []struct {
	name, family string
	decompress   bool
}{
	{"bunzip2", "bzip2", true}, {"bzip2", "bzip2", false},
	{"gunzip", "gzip", true}, {"gzip", "gzip", false},
	{"lzma", "xz", false}, {"unlzma", "xz", true}, {"unxz", "xz", true}, {"xz", "xz", false},
	{"unzstd", "zstd", true}, {"zstd", "zstd", false},
}

// compressorOf returns the format of the compressor name and whether it
// decompresses by default. Every program compressCmd handles is in
// compressors; any other name is taken for gzip.
func compressorOf(name string) (*compressFormat, bool) {
	family, decompress := name, false
	for _, p := range compressors {
		if p.name == name {
			family, decompress = p.family, p.decompress
		}
	}
	for i := range compressFormats {
		if compressFormats[i].family == family {
			return &compressFormats[i], decompress
		}
	}
	return &compressFormats[0], decompress
}

// compressCmd: gzip, bzip2, xz and zstd, and their gunzip, bunzip2, unxz
// and unzstd. Compressing FILE writes FILE.SUFFIX and removes FILE;
// decompressing FILE.SUFFIX writes FILE and removes FILE.SUFFIX; -k (and
// zstd without --rm) keeps the input, which is then only read; -c, -t and
// -l only read; zstd -o names the output; -r recurses into directories.
func compressCmd(c *cmdCtx) {
	f, decompress := compressorOf(c.name)
	c.spec = &f.opts
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
			c.add(w, Read)
		}
		c.cmd.ReadOnly = true
		return
	}
	suffix, strip, why := c.compressSuffixes(f)
	if why != "" {
		c.unknown(why)
		return
	}
	if out, ok := c.value("o"); ok { // zstd -o FILE
		c.add(out, Write)
		for _, w := range c.ops {
			c.add(w, Read)
		}
		return
	}
	keep := c.has("k", "keep") || (f.family == "zstd" && !c.has("rm"))
	recursive := c.has("r", "recursive")
	for _, w := range c.ops {
		switch {
		case w.unknown != "" || w.lit == "-":
			c.add(w, Read) // unknown, or stdin to stdout
			continue
		case recursive:
			// A directory: every file below is replaced.
			c.addT(w, Write, true)
			continue
		case keep:
			c.add(w, Read)
		default:
			c.add(w, Write)
		}
		if !decompress {
			c.add(withSuffix(w, suffix), Write)
		} else if out, ok := decompressed(w, strip); ok {
			c.add(out, Write)
		}
	}
}

// compressSuffixes returns the suffix compression appends and the suffixes
// decompression strips: the format's, lzma's ".lzma", or those of -S
// (--suffix), which comes first. xz --format is unknown: the suffix
// follows the format.
func (c *cmdCtx) compressSuffixes(f *compressFormat) (string, [][2]string, string) {
	suffix, strip := f.suffix, f.strip
	if c.name == "lzma" {
		suffix = ".lzma"
	} else if c.has("format") {
		return "", nil, c.name + " --format: the suffix follows the format"
	}
	if v, ok := c.value("S", "suffix"); ok {
		if v.unknown != "" {
			return "", nil, c.name + " -S: the suffix is not static"
		}
		suffix = v.lit
		strip = append([][2]string{{suffix, ""}}, strip...)
	}
	return suffix, strip, ""
}

// decompressed returns the file that decompressing the static word w
// writes: w without the first suffix of strip it ends in, with what that
// suffix stands for (a.tgz: a.tar), and false when it ends in none.
func decompressed(w sword, strip [][2]string) (sword, bool) {
	for _, st := range strip {
		if base, ok := strings.CutSuffix(w.lit, st[0]); ok && base != "" && !strings.HasSuffix(base, "/") {
			out := w
			out.lit = base
			out.pat = strings.TrimSuffix(w.pat, glob.Escape(st[0]))
			out.src = strings.TrimSuffix(w.src, st[0])
			return withSuffix(out, st[1]), true
		}
	}
	return sword{}, false
}

// withSuffix returns the static word w with suf appended.
func withSuffix(w sword, suf string) sword {
	w.lit += suf
	w.pat += glob.Escape(suf)
	w.src += suf
	return w
}

// tarOptions are GNU tar's options (tar(1), tar 1.34 --help; argp takes
// a long option abbreviated). A name in both long and longArg takes an
// optional value (--backup[=CONTROL]).
var tarOptions = cmdSpec{
	short:    "AcdrtuxGnSkUWOmpsMBiajJzZhPlRvwo?",
	shortArg: "fgCTXFLbHVIKN",
	long: []string{"catenate", "concatenate", "create", "delete", "diff", "compare", "append", "test-label", "list", "update",
		"extract", "get", "check-device", "incremental", "ignore-failed-read", "no-check-device", "no-seek", "seek",
		"occurrence", "sparse", "exclude-backups", "exclude-caches", "exclude-caches-all", "exclude-caches-under",
		"exclude-vcs", "exclude-vcs-ignores", "no-null", "no-recursion", "no-unquote", "no-verbatim-files-from", "null",
		"recursion", "unquote", "verbatim-files-from", "anchored", "ignore-case", "no-anchored", "no-ignore-case",
		"no-wildcards", "no-wildcards-match-slash", "wildcards", "wildcards-match-slash", "keep-directory-symlink",
		"keep-newer-files", "keep-old-files", "no-overwrite-dir", "one-top-level", "overwrite", "overwrite-dir",
		"recursive-unlink", "remove-files", "skip-old-files", "unlink-first", "verify", "ignore-command-error",
		"no-ignore-command-error", "to-stdout", "atime-preserve", "clamp-mtime", "delay-directory-restore", "touch",
		"no-delay-directory-restore", "no-same-owner", "no-same-permissions", "numeric-owner", "preserve-permissions",
		"same-permissions", "same-owner", "preserve-order", "same-order", "acls", "no-acls", "no-selinux", "no-xattrs",
		"selinux", "xattrs", "force-local", "multi-volume", "read-full-records", "ignore-zeros", "old-archive",
		"portability", "posix", "auto-compress", "bzip2", "xz", "lzip", "lzma", "lzop", "no-auto-compress", "zstd", "gzip",
		"gunzip", "ungzip", "compress", "uncompress", "backup", "hard-dereference", "dereference", "one-file-system",
		"absolute-names", "checkpoint", "full-time", "check-links", "block-number", "show-defaults", "show-omitted-dirs",
		"show-snapshot-field-ranges", "show-transformed-names", "show-stored-names", "totals", "utc", "verbose",
		"interactive", "confirmation", "help", "restrict", "usage", "version"},
	longArg: []string{"listed-incremental", "hole-detection", "level", "occurrence", "sparse-version", "add-file", "directory",
		"exclude", "exclude-ignore", "exclude-ignore-recursive", "exclude-tag", "exclude-tag-all", "exclude-tag-under",
		"files-from", "exclude-from", "one-top-level", "to-command", "atime-preserve", "group", "group-map", "mode", "mtime",
		"owner", "owner-map", "sort", "xattrs-exclude", "xattrs-include", "file", "info-script", "new-volume-script",
		"tape-length", "rmt-command", "rsh-command", "volno-file", "blocking-factor", "record-size", "format", "pax-option",
		"label", "use-compress-program", "backup", "starting-file", "newer-mtime", "newer", "after-date", "suffix",
		"strip-components", "transform", "xform", "checkpoint", "checkpoint-action", "index-file", "no-quote-chars",
		"quote-chars", "quoting-style", "totals", "warning"},
	// -F (--info-script, --new-volume-script) runs a script at the end of
	// each volume, --to-command pipes each member to a command, -I
	// (--use-compress-program) filters through one, --rsh-command and
	// --rmt-command reach a remote archive through one.
	execOpts: []string{"F", "info-script", "new-volume-script", "to-command", "I", "use-compress-program", "rsh-command", "rmt-command"},
	// -g (--listed-incremental) reads and rewrites its snapshot file,
	// --volno-file its volume number, --index-file gets the verbose
	// listing; --add-file, -X, and the owner and group maps are read.
	// -T (--files-from) is read; the files it names are archived, which
	// is unknown (listOption), or extracted, which writes no other place.
	files: []optFile{{"g", Write}, {"listed-incremental", Write}, {"volno-file", Write}, {"index-file", Write},
		{"add-file", Read}, {"X", Read}, {"exclude-from", Read}, {"owner-map", Read}, {"group-map", Read},
		{"T", Read}, {"files-from", Read}},
}

// tarLetterArgs spreads the old-style first word of tar (tar cvfC a.tar
// DIR ...: letters without a dash, whose values are the words after it in
// order; tar(1) "Traditional usage") into options of their own.
func tarLetterArgs(args []sword) []sword {
	if len(args) == 0 || args[0].unknown != "" || strings.HasPrefix(args[0].lit, "-") {
		return args
	}
	letters, rest := args[0].lit, args[1:]
	var out []sword
	for i := 0; i < len(letters); i++ {
		l := string(letters[i])
		out = append(out, literal("-"+l))
		if strings.Contains(tarOptions.shortArg, l) && len(rest) > 0 {
			out, rest = append(out, rest[0]), rest[1:]
		}
	}
	return append(out, rest...)
}

// tarCmd: -c/--create writes the archive and reads the members;
// -x/--extract reads the archive and writes into -C DIR (or
// --one-top-level's, or the working directory); -t/--list and -d/--diff
// only read, and so does -x with -O (--to-stdout). Options that run a
// command (tarOptions.execOpts, --checkpoint-action=exec=) are unknown.
// Without -f, the archive is $TAPE or stdin.
func tarCmd(c *cmdCtx) {
	c.args = tarLetterArgs(c.args)
	c.spec = &tarOptions
	if !c.getopt() || c.refused(c.spec) {
		return
	}
	for _, o := range c.opts {
		if o.name == "checkpoint-action" && (o.val.unknown != "" || strings.HasPrefix(o.val.lit, "exec")) {
			c.unknown("tar --checkpoint-action=exec runs a command")
			return
		}
	}
	for _, f := range c.spec.files {
		for _, o := range c.opts {
			if o.name == f.name && o.has {
				c.add(o.val, f.access)
			}
		}
	}
	create := c.has("c", "create", "r", "append", "u", "update", "A", "catenate", "concatenate", "delete")
	extract := c.has("x", "extract", "get") && !c.has("O", "to-stdout")
	archive, hasArchive := c.value("f", "file")
	if create && (c.listOption("T", "files-from") || c.followsLinks("h", "dereference")) {
		return
	}
	dir, hasDir := c.value("C", "directory")
	switch {
	case create:
		if hasArchive {
			c.add(archive, Write)
		}
		if c.has("remove-files") {
			for _, w := range c.ops {
				c.addT(w, Write, true)
			}
		} else {
			for _, w := range c.ops {
				c.add(w, Read)
			}
		}
		if hasDir && len(c.ops) > 0 {
			c.unknown("tar -C moves the members' directory")
		}
	case extract:
		if c.has("P", "absolute-names") {
			c.unknown("tar -P extracts members to absolute paths and through \"..\"")
			return
		}
		if hasArchive {
			c.add(archive, Read)
		}
		c.tarExtract(dir, hasDir)
	default:
		if hasArchive {
			c.add(archive, Read)
		}
		c.cmd.ReadOnly = true
	}
}

// tarExtract adds where tar -x writes the members: --one-top-level[=DIR]
// (DIR defaults to the archive's base name, which is not followed here:
// the directory it is in), below -C DIR, else the working directory
// (extractHere).
func (c *cmdCtx) tarExtract(dir sword, hasDir bool) {
	top, hasTop := c.value("one-top-level")
	switch {
	case hasTop && hasDir:
		c.addT(joinWord(dir, top), Write, true)
	case hasTop:
		c.addT(top, Write, true)
	case hasDir:
		c.addT(dir, Write, true)
	default:
		c.extractHere()
	}
}

// unzipCmd: unzip ARCHIVE [MEMBER...] extracts into -d DIR or the working
// directory, which it does not leave: it drops "../" and a leading "/"
// from member names unless given -: (unzip(1)), an option not in its
// table here, so unknown; -l, -t, -v, -z and -p only read.
func unzipCmd(c *cmdCtx) {
	c.spec = &cmdSpec{short: "lvtTzjnoqaCKLMXVfucUpZ", shortArg: "dxPI"}
	if !c.getopt() {
		return
	}
	if len(c.ops) == 0 {
		return
	}
	c.add(c.ops[0], Read)
	if c.has("l", "t", "v", "z", "p", "Z") {
		c.cmd.ReadOnly = true
		return
	}
	if d, ok := c.value("d"); ok {
		c.addT(d, Write, true)
	} else {
		c.extractHere()
	}
}

// extractHere adds the working directory as the recursive write of an
// archive's members (Target.Members), and names the archive as what the
// command runs. Its members are not known: any file below the working
// directory (.claude/settings.json, .git/hooks/x, .safezone.yaml, .env)
// may be among them, from a file or from stdin (gunzip -c x.gz | tar x),
// so the command is unknown: it runs confined where the kernel can (where
// those files stay read-only), else it is asked.
func (c *cmdCtx) extractHere() {
	n := len(c.cmd.Targets)
	c.addCwd(Write, true)
	for i := n; i < len(c.cmd.Targets); i++ {
		c.cmd.Targets[i].Members = true
	}
	if c.cmd.Runs == "" {
		c.cmd.Runs = c.name + ": the members of an archive"
	}
	c.unknown(c.name + " extracts an archive in place: the files it writes below the working directory are not known")
}

// zipOptions are zip's options (zip(1), Info-ZIP zip 3.0), by their short
// name: zip's own parser reads a cluster one or two letters at a time
// (-lf is one option, not -l -f), and takes a long option for its short
// one (zipLong). zipValued take a value, attached or the next word.
var (
	zipShort1 = "aABcCdDeEfFgIhjJklLmoNpqrRSTuUvVwXyz0123456789@$!bnPsZOxit"
	zipShort2 = []string{"AC", "AS", "C2", "C5", "db", "dc", "dd", "df", "dg", "ds", "du", "dv", "DF", "FF", "FI", "FS", "h2", "ic",
		"jj", "la", "lf", "li", "ll", "MM", "nw", "RE", "sb", "sc", "sf", "so", "sp", "su", "sU", "sv", "tt", "TT", "UN", "VV", "ww", "ws"}
	zipValued = []string{"b", "n", "t", "tt", "P", "s", "ds", "Z", "lf", "TT", "O", "x", "i", "UN"}
)

// zipLong are zip's long options and their short names (zip(1)).
var zipLong = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"ascii": "a", "adjust-sfx": "A", "archive-clear": "AC", "archive-set": "AS", "binary": "B", "temp-path": "b",
		"entry-comments": "c", "preserve-case": "C", "preserve-case-2": "C2", "preserve-case-5": "C5", "delete": "d",
		"display-bytes": "db", "display-counts": "dc", "display-dots": "dd", "datafork": "df", "display-globaldots": "dg",
		"dot-size": "ds", "display-usize": "du", "display-volume": "dv", "no-dir-entries": "D", "difference-archive": "DF",
		"encrypt": "e", "longnames": "E", "freshen": "f", "fix": "F", "fixfix": "FF", "fifo": "FI", "filesync": "FS",
		"grow": "g", "help": "h", "more-help": "h2", "include": "i", "no-image": "I", "ignore-case": "ic", "junk-paths": "j",
		"absolute-path": "jj", "junk-sfx": "J", "DOS-names": "k", "to-crlf": "l", "log-append": "la", "logfile-path": "lf",
		"log-info": "li", "from-crlf": "ll", "license": "L", "move": "m", "must-match": "MM", "suffixes": "n",
		"no-wild": "nw", "notes": "N", "latest-time": "o", "output-file": "O", "out": "O", "paths": "p", "password": "P",
		"quiet": "q", "recurse-paths": "r", "recurse-patterns": "R", "regex": "RE", "split-size": "s", "split-bell": "sb",
		"show-command": "sc", "show-files": "sf", "show-options": "so", "split-pause": "sp", "show-unicode": "su",
		"show-just-unicode": "sU", "split-verbose": "sv", "system-hidden": "S", "from-date": "t", "before-date": "tt",
		"test": "T", "unzip-command": "TT", "update": "u", "copy-entries": "U", "unicode": "UN", "verbose": "v",
		"VMS-portable": "V", "VMS-specific": "VV", "VMS-versions": "w", "VMS-dot-versions": "ww", "wild-stop-dirs": "ws",
		"exclude": "x", "no-extra": "X", "symlinks": "y", "archive-comment": "z", "compression-method": "Z",
		"use-privileges": "!", "names-stdin": "@", "volume-label": "$", "version": "v",
	}
})

// zipGetopt parses zip's arguments into c.opts (short names) and c.ops;
// false, the command unknown, on an option not in zip's table.
func (c *cmdCtx) zipGetopt() bool {
	args := c.args
	for i := 0; i < len(args); i++ {
		w := args[i]
		t := w.text()
		switch {
		case w.unknown != "" || t == "-" || !strings.HasPrefix(t, "-"):
			c.ops = append(c.ops, w)
			continue
		case t == "--":
			c.ops = append(c.ops, args[i+1:]...)
			return true
		}
		var name, val string
		var hasVal bool
		if long, ok := strings.CutPrefix(t, "--"); ok {
			long, val, hasVal = strings.Cut(long, "=")
			if name = zipLongName(long); name == "" {
				c.unknown("option --" + long + " is not in safezone's table for zip")
				return false
			}
			var ok bool
			if i, ok = c.zipOpt(name, val, hasVal, i); !ok {
				return false
			}
			continue
		}
		for j := 1; j < len(t); {
			name = t[j : j+1]
			if j+2 <= len(t) && containsStr(zipShort2, t[j:j+2]) {
				name = t[j : j+2]
			} else if !strings.Contains(zipShort1, name) {
				c.unknown("option -" + name + " is not in safezone's table for zip")
				return false
			}
			j += len(name)
			if !containsStr(zipValued, name) {
				c.opts = append(c.opts, opt{name: name})
				continue
			}
			rest := strings.TrimPrefix(t[j:], "=")
			var ok bool
			if i, ok = c.zipOpt(name, rest, rest != "", i); !ok {
				return false
			}
			break
		}
	}
	return true
}

// zipLongName returns the short name of zip's long option long, spelt out
// or abbreviated to a prefix of one option; "" when there is none.
func zipLongName(long string) string {
	if n, ok := zipLong()[long]; ok {
		return n
	}
	found := ""
	for l, n := range zipLong() {
		if strings.HasPrefix(l, long) && long != "" {
			if found != "" && found != n {
				return ""
			}
			found = n
		}
	}
	return found
}

// zipOpt records the option name at args[i]: its value val (hasVal) or
// the next word, when it takes one.
func (c *cmdCtx) zipOpt(name, val string, hasVal bool, i int) (int, bool) {
	switch {
	case !containsStr(zipValued, name):
		c.opts = append(c.opts, opt{name: name})
	case hasVal:
		c.opts = append(c.opts, opt{name: name, val: literal(val), has: true})
	case i+1 < len(c.args) && c.single(c.args[i+1]):
		c.opts = append(c.opts, opt{name: name, val: c.args[i+1], has: true})
		i++
	default:
		c.unknown("zip -" + name + " has no value")
		return i, false
	}
	return i, true
}

// zipCmd: zip ARCHIVE INPUT... writes the archive and reads the inputs;
// -m (--move) deletes them, -O (--output-file) writes another archive (made
// as a temporary zi* beside ARCHIVE) and leaves ARCHIVE as it was; -b
// (--temp-path) writes its temporary archive in a directory, -lf
// (--logfile-path) a log (LOG.log for a name without an extension); -TT (--unzip-command) runs a
// command; -@ (--names-stdin) reads the inputs' names from stdin, and
// -i@FILE and -x@FILE patterns from FILE (zip(1)). With -d (--delete) or
// -U (--copy-entries), the operands after the archive are names in it.
func zipCmd(c *cmdCtx) {
	if !c.zipGetopt() {
		return
	}
	if c.has("TT") {
		c.unknown("zip -TT runs a command")
		return
	}
	if c.listOption("@") {
		return
	}
	if c.has("r", "R") && !c.has("y") {
		// zip stores what a symbolic link below leads to, unless -y.
		c.unknown("zip -r follows the symbolic links below what it archives (zip -y stores them as links)")
		return
	}
	for _, o := range c.opts {
		switch {
		case !o.has:
		case o.name == "b":
			c.add(o.val, Write)
		case o.name == "lf":
			// A name without an extension gets ".log" (seen with zip 3.0).
			c.add(o.val, Write)
			if o.val.unknown == "" && !strings.Contains(path.Base(o.val.lit), ".") {
				c.add(withSuffix(o.val, ".log"), Write)
			}
		case o.name == "O":
			c.add(o.val, Write)
		case (o.name == "x" || o.name == "i") && o.val.unknown == "" && strings.HasPrefix(o.val.lit, "@"):
			c.add(literal(o.val.lit[1:]), Read)
		}
	}
	if len(c.ops) == 0 {
		return
	}
	if _, out := c.value("O"); out {
		c.add(c.ops[0], Read)
		if _, temp := c.value("b"); !temp && c.ops[0].unknown == "" {
			// The new archive is made as a temporary file zi* in the
			// directory of ARCHIVE, then moved.
			c.addPattern(literal(path.Dir(c.ops[0].lit)), "/zi*")
		}
	} else {
		c.add(c.ops[0], Write)
	}
	if c.has("d", "U") {
		return
	}
	access := Read
	if c.has("m") {
		access = Write
	}
	for _, w := range c.ops[1:] {
		c.addT(w, access, access == Write)
	}
}
