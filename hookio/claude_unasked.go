package hookio

import (
	"path"
	"slices"
	"strings"
)

// UnaskedRunner is a host that runs some shell commands without asking the
// user when the hook leaves the decision to it (abstains): safezone answers
// those allow, confined by the kernel, instead (README, "What the kernel
// enforces"), so that whatever runs without a person's look runs confined.
type UnaskedRunner interface {
	// RunsUnasked reports whether the host runs, in permission mode mode,
	// without a question, a command line made of the simple commands cmds,
	// every one of whose targets lies inside the host's working
	// directories (the caller checks that). It must never say yes for a
	// command the host would ask about: that would take a person's look
	// away.
	RunsUnasked(mode PermissionMode, cmds []UnaskedCommand) bool
}

// UnaskedCommand is one simple command of a shell line, as the analysis
// sees it (package classify/shell): its words after wrapper stripping,
// whether it only reads, and whether it writes through its own operands or
// options (WritesOperands: rm x, sort -o x) or only through a redirection
// (WritesRedirect: cat x > y).
type UnaskedCommand struct {
	Argv           []string
	ReadOnly       bool
	WritesOperands bool
	WritesRedirect bool
}

// claudeReaders are the programs Claude Code 2.1.330 runs without asking,
// in default and acceptEdits modes, when the hook abstains and every path
// is inside its working directories, with any options (measured with an
// abstaining hook under the real CLI: testdata/hosts/claude/unasked.md).
// A form that writes (sort -o, find -delete, a redirection) is asked
// about in default mode; the caller passes ReadOnly.
var claudeReaders = []string{
	"[", "basename", "cat", "cd", "cmp", "column", "comm", "cut", "date", "diff", "dirname", "du", "echo",
	"file", "find", "fold", "grep", "head", "hostname", "id", "jq", "ls", "md5sum", "nl", "od", "printf",
	"pwd", "readlink", "realpath", "rev", "rg", "sed", "sha256sum", "sleep", "sort", "stat", "tac", "tail",
	"test", "tr", "tree", "true", "type", "uname", "wc", "which", "whoami",
}

// claudeReaderRefused are options of claudeReaders that run a command or
// write a file: a line with one is asked about (measured: find -exec,
// find -delete, sort -o), or, not measured, taken to be (they are what
// makes the host ask about find).
var claudeReaderRefused = map[string][]string{
	"find": {"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"},
	"sort": {"-o", "--output", "--compress-program"},
	"rg":   {"--pre", "--pre-glob"},
	"tree": {"-o"},
}

// claudeGitReaders are the git Subcommands Claude Code runs unasked
// (measured likewise); every other one (add, commit, stash, checkout,
// push...) is asked about.
var claudeGitReaders = []string{"blame", "branch", "diff", "log", "ls-files", "rev-parse", "show", "status"}

// claudeEditors are the programs Claude Code runs unasked in acceptEdits
// mode besides the readers, each with the options it was measured to take
// without asking (nil: none; cp -r, cp -p, cp -f, mv -f and touch -t are
// asked about): redirections to files inside (> and >>) are allowed too in
// that mode, tee is not.
var claudeEditors = map[string][]string{
	"sed":   {"-i", "-n", "-e", "-E", "-r"},
	"touch": nil,
	"mkdir": {"-p", "-m", "-v"},
	"rm":    {"-r", "-f", "-rf", "-fr", "-R", "-v"},
	"rmdir": {"-p"},
	"cp":    nil,
	"mv":    nil,
}

// RunsUnasked reports what Claude Code (2.1.330) runs without asking when
// the hook abstains: in default mode, lines of known read-only commands of
// claudeReaders and git's read-only Subcommands; in acceptEdits mode also
// claudeEditors with their measured options and redirections. In
// bypassPermissions everything runs, but safezone allows those itself;
// plan mode and the others are not measured: no.
func (Claude) RunsUnasked(mode PermissionMode, cmds []UnaskedCommand) bool {
	if mode != PermDefault && mode != PermAcceptEdits || len(cmds) == 0 {
		return false
	}
	for _, c := range cmds {
		if !claudeUnasked(mode, c) {
			return false
		}
	}
	return true
}

func claudeUnasked(mode PermissionMode, c UnaskedCommand) bool {
	if len(c.Argv) == 0 {
		return false
	}
	prog := c.Argv[0]
	if strings.Contains(prog, "/") {
		return false // a path: not the program the host's list names
	}
	reader := slices.Contains(claudeReaders, prog) && !refused(c.Argv[1:], claudeReaderRefused[prog])
	if prog == "git" {
		reader = gitReader(c.Argv[1:])
	}
	switch {
	case c.ReadOnly && !c.WritesOperands && !c.WritesRedirect:
		return reader
	case mode != PermAcceptEdits:
		return false
	case reader && !c.WritesOperands:
		// A reader whose only write is a redirection (cat x > y, echo hi
		// >> notes): measured unasked in acceptEdits; sort -o and tee are
		// asked about.
		return true
	}
	opts, ok := claudeEditors[prog]
	if !ok {
		return false
	}
	for _, a := range c.Argv[1:] {
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "-") && a != "-" && !slices.Contains(opts, a) {
			return false
		}
	}
	return true
}

// refused reports whether args hold one of opts, alone or with an
// attached value (--output=F, -oF).
func refused(args, opts []string) bool {
	for _, a := range args {
		for _, o := range opts {
			if a == o || strings.HasPrefix(a, o+"=") || len(o) == 2 && strings.HasPrefix(a, o) {
				return true
			}
		}
	}
	return false
}

// gitReader reports whether git's arguments name one of the read-only
// Subcommands Claude Code runs unasked, with no global option before it.
func gitReader(args []string) bool {
	return len(args) > 0 && slices.Contains(claudeGitReaders, path.Base(args[0]))
}
