package shell

import (
	"strings"

	"github.com/safezonehq/safezone/classify/glob"
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
			c.add(w, Read)
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
		c.add(out, Write)
		for _, w := range c.ops {
			c.add(w, Read)
		}
		return
	}
	for _, w := range c.ops {
		if w.unknown != "" || w.lit == "-" {
			c.add(w, Read) // unknown, or stdin to stdout
			continue
		}
		if recursive {
			// A directory: every file below is replaced.
			c.addT(w, Write, true)
			continue
		}
		if keep {
			c.add(w, Read)
		} else {
			c.add(w, Write)
		}
		if decompress {
			for _, st := range f.strip {
				if base, ok := strings.CutSuffix(w.lit, st[0]); ok && base != "" && !strings.HasSuffix(base, "/") {
					out := w
					out.lit = base
					out.pat = strings.TrimSuffix(w.pat, glob.Escape(st[0]))
					out.src = strings.TrimSuffix(w.src, st[0])
					c.add(withSuffix(out, st[1]), Write)
					break
				}
			}
		} else {
			c.add(withSuffix(w, suffix), Write)
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
			c.add(o.val, Read)
		}
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
		if hasArchive {
			c.add(archive, Read)
		}
		if hasDir {
			c.addT(dir, Write, true)
		} else {
			c.addCwd(Write, true)
		}
	default:
		if hasArchive {
			c.add(archive, Read)
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
	c.add(c.ops[0], Read)
	if c.has("l", "t", "v", "z", "p", "Z") {
		c.cmd.ReadOnly = true
		return
	}
	if d, ok := c.value("d"); ok {
		c.addT(d, Write, true)
	} else {
		c.addCwd(Write, true)
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
	c.add(c.ops[0], Write)
	access := Read
	if c.has("m") {
		access = Write
	}
	for _, w := range c.ops[1:] {
		c.addT(w, access, access == Write)
	}
}
