package shell

import (
	"path"
	"strings"

	"github.com/safezonehq/safezone/classify/glob"
)

// gitTools is git: gitCmd parses its global options, and gitSubcommands
// say what each subcommand does.
var gitTools = []cmdSpec{
	{name: "git", role: roleCustom, custom: gitCmd},
}

// pathUse is what a git subcommand does with a set of its path operands.
type pathUse uint8

const (
	pathsIgnored pathUse = iota // no targets (revisions, remotes, or git's internals)
	pathsRead
	pathsWritten
)

// workTree is what a git subcommand does to the work tree as a whole.
type workTree uint8

const (
	keepsWorkTree       workTree = iota
	rewritesWorkTree             // the working directory is written (merge, reset)
	cleansWorkTree               // written recursively: files below it are removed (clean)
	rewritesUnlessPaths          // the paths after "--", else the whole work tree (checkout)
)

// gitSub is what a group of git subcommands does, from their manuals
// (git-<name>(1)). Git's own files under .git (objects, index, refs,
// config) are its internals and never targets.
type gitSub struct {
	names []string
	// repo: the subcommand works on the repository found from the
	// working directory: its history, and the work tree that git status,
	// diff, add and commit read file by file. The directory is a read
	// target, so a repository outside the sandbox is an outside read.
	repo bool
	// readOnly: the subcommand changes nothing but git's internals.
	readOnly bool
	// revPaths: an operand REV:PATH reads PATH as recorded in git.
	revPaths bool
	// afterDash: what is done to the paths after "--".
	afterDash pathUse
	// operands: what is done to every path operand: the words that are
	// not options, and every word after "--" (gitOperands).
	operands pathUse
	workTree workTree
	// handle does what the data above cannot; rest are the words after
	// the subcommand's name.
	handle func(c *cmdCtx, rest []sword)
}

// gitSubcommands are the git subcommands safezone knows, by group; any
// other is unknown.
var gitSubcommands = []gitSub{
	{names: []string{"status", "log", "shortlog", "branch", "tag", "remote", "rev-parse", "rev-list", "describe", "ls-files",
		"ls-tree", "reflog", "grep", "whatchanged", "name-rev", "merge-base", "count-objects", "fsck", "var",
		"check-ignore", "check-attr", "for-each-ref", "show-ref", "cherry", "range-diff", "verify-commit", "verify-tag",
		"diff", "diff-tree", "diff-files", "diff-index"},
		repo: true, readOnly: true, afterDash: pathsRead},
	// git-blame(1): "git blame [OPTIONS] [REV] [--] FILE".
	{names: []string{"blame", "annotate"}, repo: true, readOnly: true, afterDash: pathsRead, operands: pathsRead},
	{names: []string{"show", "cat-file"}, repo: true, readOnly: true, revPaths: true, afterDash: pathsRead},
	// These need no repository.
	{names: []string{"version", "ls-remote"}, readOnly: true, afterDash: pathsRead},
	{names: []string{"help"}, readOnly: true, afterDash: pathsRead, handle: gitHelp},
	{names: []string{"add"}, repo: true, operands: pathsRead},
	// These change only git's internals (objects, refs, the index) or a
	// remote.
	{names: []string{"commit", "fetch", "push", "gc", "prune", "notes", "bundle", "format-patch", "worktree", "submodule",
		"sparse-checkout", "maintenance", "lfs"}, repo: true},
	{names: []string{"archive"}, repo: true, handle: gitArchive},
	{names: []string{"init"}, handle: gitInit},
	{names: []string{"config"}, handle: gitConfigCmd},
	{names: []string{"checkout", "switch"}, repo: true, afterDash: pathsWritten, workTree: rewritesUnlessPaths},
	{names: []string{"restore", "rm", "mv"}, repo: true, operands: pathsWritten},
	{names: []string{"reset", "stash", "merge", "rebase", "pull", "cherry-pick", "revert", "am", "apply", "bisect"},
		repo: true, workTree: rewritesWorkTree},
	{names: []string{"clean"}, repo: true, workTree: cleansWorkTree},
	{names: []string{"clone"}, handle: gitClone},
}

// gitSubcommand returns the entry of a git subcommand, or nil.
func gitSubcommand(name string) *gitSub {
	for i := range gitSubcommands {
		if containsStr(gitSubcommands[i].names, name) {
			return &gitSubcommands[i]
		}
	}
	return nil
}

// gitCmd: git [GLOBAL OPTIONS] SUBCOMMAND ARGS (git(1)). The global
// options are parsed by gitGlobals; the subcommand's targets come from its
// entry in gitSubcommands. A subcommand not there is unknown, and reads
// the repository like most. git with no subcommand only reads.
func gitCmd(c *cmdCtx) {
	pushed := len(c.a.dirs)
	defer func() {
		for len(c.a.dirs) > pushed {
			c.a.cdRestore() // -C moves only this command
		}
	}()
	i, ok := gitGlobals(c)
	if !ok {
		return
	}
	if i == len(c.args) {
		c.cmd.ReadOnly = true
		return
	}
	name, rest := c.args[i].lit, c.args[i+1:]
	s := gitSubcommand(name)
	if s == nil {
		c.addCwd(Read, false)
		c.unknown("git " + name + " is not in safezone's table")
		return
	}
	if s.repo {
		c.addCwd(Read, false)
	}
	if s.revPaths {
		gitRevPaths(c, rest)
	}
	ps, dash := gitAfterDash(rest)
	c.addAll(ps, s.afterDash)
	if s.operands != pathsIgnored {
		c.addAll(gitOperands(rest), s.operands)
	}
	switch s.workTree {
	case rewritesWorkTree:
		c.addCwd(Write, false)
	case cleansWorkTree:
		c.addCwd(Write, true)
	case rewritesUnlessPaths:
		if !dash {
			c.addCwd(Write, false)
		}
	}
	if s.handle != nil {
		s.handle(c, rest)
	}
	if s.readOnly {
		c.cmd.ReadOnly = true
	}
}

// addAll adds every word as a target, read or written (pathsIgnored adds
// none).
func (c *cmdCtx) addAll(ws []sword, use pathUse) {
	if use == pathsIgnored {
		return
	}
	access := Read
	if use == pathsWritten {
		access = Write
	}
	for _, w := range ws {
		c.add(w, access)
	}
}

// gitGlobals parses git's options before the subcommand (git(1)
// OPTIONS): -C DIR moves the analysis until gitCmd returns; -c and
// --config-env set keys, checked by isGitExecKey; --exec-path, --git-dir
// and --work-tree run another git's programs or another repository's
// config and hooks, which is unknown. It returns the index of the
// subcommand in c.args (len(c.args) when there is none), and false when
// gitCmd has nothing more to do (then the command is unknown, or -C lacks
// its value).
func gitGlobals(c *cmdCtx) (int, bool) {
	args := c.args
	for i := 0; i < len(args); i++ {
		t := args[i].text()
		if args[i].unknown != "" {
			c.unknown("a git option is not static")
			return 0, false
		}
		switch {
		case t == "-C":
			if i+1 >= len(args) {
				return 0, false
			}
			c.a.cdTemp(args[i+1])
			i++
		case t == "-c" || t == "--config-env":
			if i+1 < len(args) && gitSetsExecKey(args[i+1]) {
				c.unknown("git " + t + " " + args[i+1].src + " makes git run a command")
				return 0, false
			}
			i++
		case strings.HasPrefix(t, "--config-env="):
			if key, _, _ := strings.Cut(strings.TrimPrefix(t, "--config-env="), "="); isGitExecKey(key) {
				c.unknown("git " + t + " makes git run a command")
				return 0, false
			}
		case gitElsewhere(t):
			c.unknown("git " + t + " runs programs or hooks safezone cannot see")
			return 0, false
		case containsStr(gitGlobalsWithValue, t):
			i++
		case strings.HasPrefix(t, "-c"):
			c.unknown("git " + t + ": an attached -c value")
			return 0, false
		case strings.HasPrefix(t, "-"):
		default:
			return i, true
		}
	}
	return len(args), true
}

// gitGlobalsWithValue are git's global options whose value (the next word)
// names no file and runs nothing (git(1) OPTIONS).
var gitGlobalsWithValue = []string{"--namespace", "--super-prefix", "--list-cmds", "--attr-source"}

// gitElsewhere reports whether a global option makes git run another
// git's programs (--exec-path) or use another repository's config and
// hooks (--git-dir, --work-tree), with or without "=VALUE".
func gitElsewhere(t string) bool {
	name, _, _ := strings.Cut(t, "=")
	return name == "--exec-path" || name == "--git-dir" || name == "--work-tree"
}

// gitSetsExecKey reports whether the value of git -c or --config-env,
// KEY=VALUE or KEY=ENVVAR, is not static or sets a key that runs a
// command (isGitExecKey).
func gitSetsExecKey(w sword) bool {
	key, _, _ := strings.Cut(w.lit, "=")
	return w.unknown != "" || isGitExecKey(key)
}

// gitAfterDash returns the words after the first "--" of a subcommand's
// arguments, and whether there is one.
func gitAfterDash(rest []sword) ([]sword, bool) {
	for k, w := range rest {
		if w.unknown == "" && w.text() == "--" {
			return rest[k+1:], true
		}
	}
	return nil, false
}

// gitOperands returns a subcommand's path operands: every word after the
// first "--", and before it every word that is not a static option.
func gitOperands(rest []sword) []sword {
	var out []sword
	seenDash := false
	for _, w := range rest {
		t := w.text()
		if !seenDash && w.unknown == "" && t == "--" {
			seenDash = true
			continue
		}
		if !seenDash && w.unknown == "" && strings.HasPrefix(t, "-") {
			continue
		}
		out = append(out, w)
	}
	return out
}

// gitRevPaths reads the PATH of every operand REV:PATH (git show and
// git cat-file, gitrevisions(7) "<rev>:<path>"), a leading "./" removed.
func gitRevPaths(c *cmdCtx, rest []sword) {
	for _, w := range rest {
		if w.unknown != "" || strings.HasPrefix(w.lit, "-") {
			continue
		}
		_, p, ok := strings.Cut(w.lit, ":")
		if !ok || p == "" {
			continue
		}
		p = strings.TrimPrefix(p, "./")
		c.add(sword{lit: p, pat: glob.Escape(p), src: p}, Read)
	}
}

// gitHelp: git help shows a manual page, through man and a pager.
func gitHelp(c *cmdCtx, _ []sword) {
	c.cmd.Runs = "git help (man)"
}

// gitArchive: git archive -o FILE (--output=FILE) writes FILE
// (git-archive(1)).
func gitArchive(c *cmdCtx, rest []sword) {
	if v, ok := optionValue(rest, "-o", "--output"); ok {
		c.add(v, Write)
	}
}

// gitInit: git init [DIRECTORY] creates the repository in DIRECTORY
// (git-init(1)); without one, the .git it makes in the working directory
// is git's internals, no target.
func gitInit(c *cmdCtx, rest []sword) {
	if ps := gitOperands(rest); len(ps) > 0 {
		c.add(ps[0], Write)
	}
}

// gitClone: git clone REPOSITORY [DIRECTORY] writes DIRECTORY, by default
// the repository's base name without ".git" (git-clone(1)).
func gitClone(c *cmdCtx, rest []sword) {
	ps := gitOperands(rest)
	switch {
	case len(ps) >= 2:
		c.addT(ps[1], Write, true)
	case len(ps) == 1 && ps[0].unknown == "":
		name := strings.TrimSuffix(path.Base(strings.TrimSuffix(ps[0].lit, "/")), ".git")
		c.addT(sword{lit: name, pat: glob.Escape(name), src: name}, Write, true)
	default:
		c.unknown("git clone's destination is not static")
	}
}

// gitConfigArgs is the command line of git config, parsed.
type gitConfigArgs struct {
	ops       []sword // the operands: [ACTION] KEY [VALUE]
	get       bool    // an option or action that only reads (--get, --list, get)
	file      sword   // the file --global, --system, --file or --blob names
	fileGiven bool
}

// gitConfigGets are the options and actions of git config that only read
// (git-config(1)); "get" and "list" count wherever they stand.
var gitConfigGets = []string{"--get", "--get-all", "--get-regexp", "--get-urlmatch", "-l", "--list", "get", "list",
	"--get-color", "--get-colorbool"}

// gitConfigActions are the actions that may lead git config's operands
// (git-config(1) COMMANDS); "get" and "list" are in gitConfigGets.
var gitConfigActions = []string{"set", "unset", "edit", "rename-section", "remove-section"}

// gitConfigCmd: git config reads or sets keys (git-config(1)). Setting a
// key that makes git run a command (isGitExecKey) is inline code;
// --global, --system and --file name the file written; a repository's own
// .git/config is git's internal state, like its index.
func gitConfigCmd(c *cmdCtx, rest []sword) {
	g, why := parseGitConfig(c.a.env.Home, rest)
	if why != "" {
		c.unknown(why)
		return
	}
	ops := g.ops
	if len(ops) > 0 && containsStr(gitConfigActions, ops[0].lit) {
		if ops[0].lit == "edit" {
			c.unknown("git config edit runs an editor")
			return
		}
		ops = ops[1:]
	}
	if g.get || len(ops) < 2 && !containsText(rest, "--unset") && !containsText(rest, "--add") && !containsText(rest, "--replace-all") {
		if g.fileGiven {
			c.add(g.file, Read)
		}
		c.cmd.ReadOnly = true
		return
	}
	if len(ops) > 0 && isGitExecKey(ops[0].lit) {
		c.unknown("git config " + ops[0].src + " makes git run a command")
		return
	}
	if g.fileGiven {
		c.add(g.file, Write)
	}
}

// parseGitConfig parses git config's arguments (home is $HOME, for
// --global), or says why they are unknown.
func parseGitConfig(home string, rest []sword) (gitConfigArgs, string) {
	var g gitConfigArgs
	for k := 0; k < len(rest); k++ {
		w := rest[k]
		t := w.text()
		if w.unknown != "" {
			return g, "a git config argument is not static"
		}
		switch {
		case containsStr(gitConfigGets, t) || t == "--show-origin" && len(g.ops) == 0:
			g.get = true
		case t == "--global":
			if home == "" {
				return g, "git config --global without HOME"
			}
			f := home + "/.gitconfig"
			g.file, g.fileGiven = sword{lit: f, pat: glob.Escape(f), src: "~/.gitconfig"}, true
		case t == "--system":
			g.file, g.fileGiven = sword{lit: "/etc/gitconfig", src: "/etc/gitconfig"}, true
		case t == "-f" || t == "--file" || t == "--blob":
			if k+1 < len(rest) {
				g.file, g.fileGiven = rest[k+1], true
				k++
			}
		case strings.HasPrefix(t, "--file="):
			v := strings.TrimPrefix(t, "--file=")
			g.file, g.fileGiven = sword{lit: v, pat: glob.Escape(v), src: v}, true
		case strings.HasPrefix(t, "-"):
		default:
			g.ops = append(g.ops, w)
		}
	}
	return g, ""
}

// containsText reports whether some word's text holds s.
func containsText(ws []sword, s string) bool {
	for _, w := range ws {
		if strings.Contains(w.text(), s) {
			return true
		}
	}
	return false
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
