package shell

import (
	"path"
	"strings"
	"sync"

	"github.com/safezonehq/safezone/policy/glob"
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

// gitSub is what a group of git Subcommands does, from their manuals
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
	// fromObjects: what the subcommand writes in the work tree comes from
	// the repository's objects (gitFromObjects).
	fromObjects bool
	// handle does what the data above cannot; rest are the words after
	// the subcommand's name.
	handle func(c *cmdCtx, rest []sword)
}

// gitSubcommands are the git Subcommands safezone knows, by group; any
// other is unknown.
var gitSubcommands = []gitSub{
	{names: []string{"status", "log", "shortlog", "branch", "remote", "rev-parse", "rev-list", "describe", "ls-files",
		"ls-tree", "reflog", "whatchanged", "name-rev", "merge-base", "count-objects", "fsck", "var",
		"check-ignore", "check-attr", "for-each-ref", "show-ref", "cherry", "range-diff", "verify-commit", "verify-tag",
		"diff-tree", "diff-files", "diff-index"},
		repo: true, readOnly: true, afterDash: pathsRead},
	{names: []string{"tag"}, repo: true, readOnly: true, handle: gitMessageFile},
	// git-diff(1): "git diff [--no-index] PATH PATH" compares two files,
	// anywhere, when one is outside the repository.
	{names: []string{"diff"}, repo: true, readOnly: true, afterDash: pathsRead, operands: pathsRead},
	{names: []string{"grep"}, repo: true, readOnly: true, afterDash: pathsRead, handle: gitGrep},
	// git-blame(1): "git blame [OPTIONS] [REV] [--] FILE".
	{names: []string{"blame", "annotate"}, repo: true, readOnly: true, afterDash: pathsRead, operands: pathsRead, handle: gitBlame},
	{names: []string{"show", "cat-file"}, repo: true, readOnly: true, revPaths: true, afterDash: pathsRead},
	// These need no repository.
	{names: []string{"version", "ls-remote"}, readOnly: true, afterDash: pathsRead},
	{names: []string{"help"}, readOnly: true, afterDash: pathsRead, handle: gitHelp},
	{names: []string{"add"}, repo: true, operands: pathsRead},
	// These change only git's internals (objects, refs, the index) or a
	// remote.
	{names: []string{"commit", "fetch", "push", "gc", "prune", "notes", "lfs"}, repo: true, handle: gitMessageFile},
	{names: []string{"maintenance"}, repo: true, handle: gitMaintenance},
	{names: []string{"format-patch"}, repo: true, handle: gitFormatPatch},
	{names: []string{"bundle"}, repo: true, handle: gitBundle},
	{names: []string{"worktree"}, repo: true, handle: gitWorktree},
	{names: []string{"submodule"}, repo: true, handle: gitSubmodule},
	{names: []string{"archive"}, repo: true, handle: gitArchive},
	{names: []string{"init"}, handle: gitInit},
	{names: []string{"config"}, handle: gitConfigCmd},
	// These write the work tree from the repository's objects, which the
	// agent may have made without touching a file (git hash-object,
	// commit-tree, update-ref): a file they write is not known from the
	// command line (gitFromObjects).
	{names: []string{"checkout", "switch"}, repo: true, afterDash: pathsWritten, workTree: rewritesUnlessPaths, fromObjects: true},
	{names: []string{"restore"}, repo: true, handle: gitRestore},
	{names: []string{"reset"}, repo: true, handle: gitReset},
	{names: []string{"stash"}, repo: true, handle: gitStash},
	{names: []string{"bisect"}, repo: true, workTree: rewritesWorkTree, handle: gitBisect, fromObjects: true},
	{names: []string{"sparse-checkout"}, repo: true, workTree: cleansWorkTree, fromObjects: true},
	// git-apply(1) reads its patches; --cached and --index-only... change
	// the index only; --check and --stat only read.
	{names: []string{"apply"}, repo: true, handle: gitApply},
	{names: []string{"rm"}, repo: true, operands: pathsWritten},
	{names: []string{"mv"}, repo: true, handle: gitMv},
	// These make commits, which commit.gpgsign signs with keys the kernel
	// sandbox hides, or fetch: they run unconfined, the work tree as a
	// (non-recursive) write (README, "What the kernel enforces").
	{names: []string{"merge", "rebase", "pull", "cherry-pick", "revert"}, repo: true, workTree: rewritesWorkTree},
	// git-am(1) reads its mailboxes.
	{names: []string{"am"}, repo: true, operands: pathsRead, workTree: rewritesWorkTree},
	{names: []string{"clean"}, repo: true, handle: gitClean},
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

// gitRepo is what git's global options say of the repository: -C moves
// the analysis (until gitCmd returns); --git-dir names the repository,
// --work-tree its work tree.
type gitRepo struct {
	sub     int    // the index of the subcommand in c.args (len(c.args): none)
	gitDir  *sword // --git-dir, or nil
	hasTree bool   // --work-tree was given (the analysis's directories include it)
}

// gitCmd: git [GLOBAL OPTIONS] SUBCOMMAND ARGS (git(1)). The global
// options are parsed by gitGlobals; the subcommand's targets come from its
// entry in gitSubcommands and from the options that name files or
// programs (gitOptions). A subcommand not there is unknown, and reads the
// repository like most. git with no subcommand only reads.
func gitCmd(c *cmdCtx) {
	pushed := len(c.a.dirs)
	defer func() {
		for len(c.a.dirs) > pushed {
			c.a.cdRestore() // -C and --work-tree move only this command
		}
	}()
	g, ok := gitGlobals(c)
	if !ok {
		return
	}
	if g.sub == len(c.args) {
		c.cmd.ReadOnly = true
		return
	}
	name, rest := c.args[g.sub].lit, c.args[g.sub+1:]
	c.sub = name
	s := gitSubcommand(name)
	if s == nil {
		c.addCwd(Read, false)
		c.unknown("git " + name + " is not in safezone's table")
		return
	}
	if why := gitDynamic(rest); why != "" {
		c.unknown(why)
	}
	if s.repo {
		c.addCwd(Read, false)
		c.gitHooks(g, name, s.readOnly)
	}
	c.gitOptions(name, rest)
	n := len(c.cmd.Targets)
	c.gitPaths(s, rest)
	if s.fromObjects {
		c.gitFromObjects(n)
	}
	if s.handle != nil {
		s.handle(c, rest)
	}
	if s.readOnly {
		c.cmd.ReadOnly = !c.writes()
	}
}

// gitPaths adds the targets of a subcommand's path operands and of the
// work tree as its entry says.
func (c *cmdCtx) gitPaths(s *gitSub, rest []sword) {
	if s.revPaths {
		gitRevPaths(c, rest)
	}
	ps, dash := gitAfterDash(rest)
	c.addAll(ps, s.afterDash, s.workTree == rewritesUnlessPaths)
	if s.operands != pathsIgnored {
		c.addAll(gitOperands(rest), s.operands, s.operands == pathsWritten)
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
}

// gitHooks: a repository named by --git-dir is not the project's own: a
// subcommand that changes it writes it, and runs its hooks (githooks(5)),
// which safezone cannot see (Command.Runs). A repository whose .git the
// line changed earlier may run hooks the line put there: unknown.
func (c *cmdCtx) gitHooks(g gitRepo, name string, readOnly bool) {
	if readOnly {
		return
	}
	if g.gitDir != nil {
		c.addT(*g.gitDir, Write, true)
		c.cmd.Runs = "git hooks of " + g.gitDir.text()
	}
	for _, d := range c.a.cwd {
		for p := path.Clean(d); ; p = path.Dir(p) {
			if w := c.a.wroteAround(p+"/.git", "git"); w != "" {
				c.unknown("git " + name + " may run hooks that " + w + " put in " + p + "/.git earlier in the line")
				return
			}
			if p == "/" || p == "." {
				break
			}
		}
	}
}

// addAll adds every word as a target, read or written (pathsIgnored adds
// none); recursive makes the writes recursive (a directory restored or
// checked out is rewritten below).
func (c *cmdCtx) addAll(ws []sword, use pathUse, recursive bool) {
	if use == pathsIgnored {
		return
	}
	access := Read
	if use == pathsWritten {
		access = Write
	}
	for _, w := range ws {
		c.addT(w, access, recursive && access == Write)
	}
}

// gitGlobals parses git's options before the subcommand (git(1)
// OPTIONS): -C DIR moves the analysis until gitCmd returns; -c and
// --config-env set keys, checked by isGitExecKey; --exec-path runs
// another git's programs, which is unknown; --git-dir DIR reads DIR (and
// writes it, running its hooks, in gitHooks); --work-tree DIR adds DIR to
// the directories the command works in. It returns false when gitCmd has
// nothing more to do (then the command is unknown, or -C lacks its value).
func gitGlobals(c *cmdCtx) (gitRepo, bool) {
	args := c.args
	var g gitRepo
	for i := 0; i < len(args); i++ {
		t := args[i].text()
		if args[i].unknown != "" {
			c.unknown("a git option is not static")
			return g, false
		}
		name, val, hasVal := strings.Cut(t, "=")
		switch {
		case t == "-C":
			if i+1 >= len(args) {
				return g, false
			}
			c.a.cdTemp(args[i+1])
			i++
		case t == "-c" || t == "--config-env":
			if i+1 < len(args) && gitSetsExecKey(args[i+1]) {
				c.unknown("git " + t + " " + args[i+1].src + " makes git run a command")
				return g, false
			}
			if i+1 < len(args) {
				c.gitConfigValue(args[i+1].lit, t == "--config-env")
			}
			i++
		case name == "--config-env" && hasVal:
			if key, _, _ := strings.Cut(val, "="); isGitExecKey(key) {
				c.unknown("git " + t + " makes git run a command")
				return g, false
			}
			c.gitConfigValue(val, true)
		case name == "--exec-path" && (hasVal || i+1 < len(args) && !strings.HasPrefix(args[i+1].text(), "-")):
			c.unknown("git " + t + " runs another git's programs")
			return g, false
		case name == "--git-dir" || name == "--work-tree":
			v, next, ok := gitGlobalValue(c, args, i, hasVal, val)
			if !ok {
				return g, false
			}
			i = next
			c.gitRepoDir(&g, name, v)
		case containsStr(gitGlobalsWithValue, t):
			i++
		case strings.HasPrefix(t, "-c"):
			c.unknown("git " + t + ": an attached -c value")
			return g, false
		case strings.HasPrefix(t, "-"):
		default:
			g.sub = i
			return g, true
		}
	}
	g.sub = len(args)
	return g, true
}

// gitGlobalValue returns the value of the global option at args[i], given
// as --name=VALUE (hasVal, val) or --name VALUE, and the index of its last
// word; false, the command unknown, when it is missing or not static.
func gitGlobalValue(c *cmdCtx, args []sword, i int, hasVal bool, val string) (sword, int, bool) {
	if hasVal {
		return literal(val), i, true
	}
	if i+1 >= len(args) || args[i+1].unknown != "" {
		c.unknown("git " + args[i].text() + ": its value is missing or not static")
		return sword{}, i, false
	}
	return args[i+1], i + 1, true
}

// gitRepoDir records --git-dir or --work-tree: the directory is read;
// --work-tree joins the directories the command works in.
func (c *cmdCtx) gitRepoDir(g *gitRepo, name string, v sword) {
	c.add(v, Read)
	if name == "--git-dir" {
		g.gitDir = &v
		return
	}
	ts, why := c.a.targets(v, Read)
	if why != "" {
		c.unknown(why)
		return
	}
	c.a.dirs = append(c.a.dirs, c.a.cwd)
	dirs := append([]string(nil), c.a.cwd...)
	for _, t := range ts {
		if !contains(dirs, t.Path) {
			dirs = append(dirs, t.Path)
		}
	}
	c.a.cwd, g.hasTree = dirs, true
}

// gitGlobalsWithValue are git's global options whose value (the next word)
// names no file and runs nothing (git(1) OPTIONS).
var gitGlobalsWithValue = []string{"--namespace", "--super-prefix", "--list-cmds", "--attr-source"}

// gitSetsExecKey reports whether the value of git -c or --config-env,
// KEY=VALUE or KEY=ENVVAR, is not static or sets a key that runs a
// command (isGitExecKey).
func gitSetsExecKey(w sword) bool {
	key, _, _ := strings.Cut(w.lit, "=")
	return w.unknown != "" || isGitExecKey(key)
}

// gitValueShort and gitValueLong are the options of git's Subcommands whose
// value (the next word) is text that is neither a file nor a command: it
// may be dynamic (git commit -m "$(cat <<EOF ...)").
const gitValueShort = "mbBnSGe"

var gitValueLong = []string{"--message", "--author", "--date", "--format", "--pretty", "--max-count", "--since",
	"--until", "--after", "--before", "--grep", "--committer", "--branch", "--depth", "--shallow-since", "--trailer"}

// gitDynamic says why a subcommand's arguments are unknown: a word that is
// not static before "--", unless it is the value of an option of
// gitValueShort or gitValueLong, may be any option (--output=FILE,
// --upload-pack=CMD).
func gitDynamic(rest []sword) string {
	for k, w := range rest {
		if w.unknown == "" {
			if w.lit == "--" {
				return ""
			}
			continue
		}
		if attached := w.lit; strings.HasPrefix(attached, "-") {
			name, _, _ := strings.Cut(attached, "=")
			if containsStr(gitValueLong, name) || len(name) == 2 && strings.Contains(gitValueShort, name[1:]) {
				continue
			}
		}
		if k > 0 && rest[k-1].unknown == "" && !rest[k-1].split {
			prev := rest[k-1].lit
			if containsStr(gitValueLong, prev) || len(prev) >= 2 && prev[0] == '-' && prev[1] != '-' && strings.IndexByte(gitValueShort, prev[len(prev)-1]) >= 0 {
				if !w.split {
					continue
				}
			}
		}
		return "a git argument that is not static may be an option: " + w.src
	}
	return ""
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
		c.add(literal(p), Read)
	}
}

// gitValue returns the value of a subcommand's option: -o VALUE, -oVALUE,
// or in a cluster (-vo VALUE: gitShortOpts), --name=VALUE or --name VALUE,
// a long name abbreviated too (gitLongOpt), before any "--".
func (c *cmdCtx) gitValue(rest []sword, short string, long ...string) (sword, bool) {
	vs := c.gitValues(rest, short, long...)
	if len(vs) == 0 {
		return sword{}, false
	}
	return vs[0], true
}

// gitValues returns every value of a subcommand's option (gitValue), in
// order.
func (c *cmdCtx) gitValues(rest []sword, short string, long ...string) []sword {
	var out []sword
	for i, w := range rest {
		t := w.text()
		if w.unknown != "" {
			continue
		}
		if t == "--" {
			break
		}
		for _, l := range long {
			name, v, hasVal := strings.Cut(t, "=")
			if !gitLongOpt(name, "--"+l) {
				continue
			}
			if hasVal {
				out = append(out, literal(v))
			} else if i+1 < len(rest) {
				out = append(out, rest[i+1])
			}
		}
	}
	if short != "" {
		for _, o := range gitShortOpts(c.sub, rest) {
			if o.name == short && o.has {
				out = append(out, o.val)
			}
		}
	}
	return out
}

// gitHas reports whether a subcommand's arguments hold one of the options
// names, before any "--": a long one as written, with "=VALUE", or
// abbreviated (gitLongOpt); a short one ("-n") alone or in a cluster
// (gitShortOpts: -fdn, not the n of -mnote).
func (c *cmdCtx) gitHas(rest []sword, names ...string) bool {
	var shorts []opt
	for _, n := range names {
		if len(n) == 2 && n[0] == '-' && n[1] != '-' {
			shorts = gitShortOpts(c.sub, rest)
			break
		}
	}
	for _, n := range names {
		if len(n) == 2 && n[0] == '-' && n[1] != '-' {
			for _, o := range shorts {
				if o.name == n[1:] {
					return true
				}
			}
		}
	}
	for _, w := range rest {
		if w.unknown != "" {
			continue
		}
		if w.lit == "--" {
			return false
		}
		name, _, _ := strings.Cut(w.lit, "=")
		for _, n := range names {
			if strings.HasPrefix(n, "--") && (name == n || gitLongOpt(name, n)) {
				return true
			}
		}
	}
	return false
}

// gitValuedShort are the short options of git's Subcommands that take a
// value, as the next word or attached (git-<name>(1), git 2.39), and
// gitOptionalShort those whose value is optional and only attached
// (-S[KEYID], -u[MODE], grep's -O[PAGER], diff's -M[N]). In a cluster the
// letters before such a one are options of their own (git's
// parse-options, gitcli(7)).
var (
	gitValuedShort = sync.OnceValue(func() map[string]string {
		return map[string]string{
			"archive": "o", "blame": "LS", "annotate": "LS", "branch": "u", "checkout": "bBcC", "switch": "bBcC",
			"cherry-pick": "msX", "revert": "msX", "clean": "e", "clone": "bocuj", "commit": "mFtcC", "config": "f",
			"fetch": "jo", "pull": "sXj", "push": "o", "grep": "efABCm", "init": "b", "merge": "mFsX", "notes": "mFcC",
			"rebase": "xsX", "restore": "s", "stash": "m", "submodule": "b", "tag": "mFu", "worktree": "bB", "ls-files": "xX",
			"ls-remote": "o", "remote": "tm", "format-patch": "nSGOLov", "log": "nSGOL", "show": "nSGOL",
			"whatchanged": "nSGOL", "diff": "nSGOL", "diff-tree": "nSGOL", "diff-files": "nSGOL", "diff-index": "nSGOL",
			"range-diff": "nSGOL", "shortlog": "nc",
		}
	})
	gitOptionalShort = sync.OnceValue(func() map[string]string {
		return map[string]string{
			"commit": "Su", "tag": "n", "am": "CpS", "apply": "pC", "blame": "CM", "annotate": "CM", "cherry-pick": "S",
			"revert": "S", "merge": "S", "pull": "S", "rebase": "SC", "grep": "O", "status": "u", "shortlog": "w",
			"format-patch": "UMCBlX", "log": "UMCBlX", "show": "UMCBlX", "whatchanged": "UMCBlX", "diff": "UMCBlX",
			"diff-tree": "UMCBlX", "diff-files": "UMCBlX", "diff-index": "UMCBlX", "range-diff": "UMCBlX",
		}
	})
)

// gitShortOpts parses the short options of a subcommand's arguments
// before "--": each static word "-abc" is a cluster of letters, of which
// one of gitValuedShort takes the rest of the word, or the next word, as
// its value and one of gitOptionalShort the rest of the word; both end
// the cluster. A word that is the value of the one before is skipped.
func gitShortOpts(sub string, rest []sword) []opt {
	valued, optional := gitValuedShort()[sub], gitOptionalShort()[sub]
	var out []opt
	for i := 0; i < len(rest); i++ {
		w := rest[i]
		t := w.lit
		if w.unknown != "" || len(t) < 2 || t[0] != '-' || t[1] == '-' {
			if w.unknown == "" && t == "--" {
				break
			}
			continue
		}
		for j := 1; j < len(t); j++ {
			l := t[j : j+1]
			switch {
			case strings.Contains(valued, l):
				if r := t[j+1:]; r != "" {
					out = append(out, opt{name: l, val: literal(r), has: true})
				} else if i+1 < len(rest) {
					i++
					out = append(out, opt{name: l, val: rest[i], has: true})
				} else {
					out = append(out, opt{name: l})
				}
				j = len(t)
			case strings.Contains(optional, l):
				o := opt{name: l}
				if r := t[j+1:]; r != "" {
					o.val, o.has = literal(r), true
				}
				out = append(out, o)
				j = len(t)
			default:
				out = append(out, opt{name: l})
			}
		}
	}
	return out
}

// gitLongOpt reports whether the word w (its part before any "=") names
// the long option long: spelt out, or abbreviated, as git's parse-options
// accepts any unambiguous prefix of a long option (gitcli(7)): "--ha" is
// "--hard". Any prefix counts here, ambiguous or not: git refuses an
// ambiguous one, and counting it errs on the side of the option.
func gitLongOpt(w, long string) bool {
	return strings.HasPrefix(long, "--") && len(w) > 2 && strings.HasPrefix(w, "--") && strings.HasPrefix(long, w)
}

// gitRunsOptions are options of git's Subcommands that run a program given
// on the command line (git-fetch(1) --upload-pack, git-push(1)
// --receive-pack and --exec, git-clone(1) -u and --template, whose hooks
// run, git-archive(1) --exec, git-grep(1) -O).
var gitRunsOptions = []string{"--upload-pack", "--receive-pack", "--exec", "--template", "--open-files-in-pager", "--ext-diff-cmd"}

// gitDiffFamily are the Subcommands that take the diff options
// (git-diff(1) OPTIONS, gitdiffcore(7)), -O<orderfile> among them.
var gitDiffFamily = []string{"diff", "log", "show", "whatchanged", "diff-tree", "diff-files", "diff-index", "format-patch", "range-diff", "stash"}

// gitMergeStrategies are git's own merge strategies (git-merge(1) MERGE
// STRATEGIES); another name runs the program git-merge-NAME.
var gitMergeStrategies = []string{"ort", "recursive", "resolve", "octopus", "ours", "subtree"}

// gitOptions adds what the options of any subcommand do: --output=FILE
// writes FILE (git-diff(1), git-log(1), git-format-patch(1));
// --pathspec-from-file=FILE reads FILE, whose paths a subcommand that
// writes paths would write; the options of gitRunsOptions run a program;
// merge -s and rebase --exec and -x run one (judged as a script, from the
// top of the work tree, whose place is not known), and so does grep -O; the
// diff options' -O<orderfile> and ls-files -X read their file; an ext::
// URL runs a command where the ext transport is allowed (git-remote-ext(1):
// GIT_ALLOW_PROTOCOL, protocol.ext.allow). Short options are read in
// clusters and long ones abbreviated (gitValue, gitHas).
func (c *cmdCtx) gitOptions(name string, rest []sword) {
	if v, ok := c.gitValue(rest, "", "output"); ok {
		c.add(v, Write)
	}
	if v, ok := c.gitValue(rest, "", "pathspec-from-file"); ok {
		c.add(v, Read)
		if name != "add" && name != "commit" {
			c.unknown("git " + name + " --pathspec-from-file: the paths it changes are in a file")
		}
	}
	for _, o := range gitRunsOptions {
		if c.gitHas(rest, o) && !(o == "--exec" && name == "rebase") {
			c.unknown("git " + name + " " + o + " runs a program of the command's choosing")
		}
	}
	if name == "clone" || name == "ls-remote" {
		if c.gitHas(rest, "-u") {
			c.unknown("git " + name + " -u runs a program of the command's choosing")
		}
	}
	if name == "merge" || name == "pull" || name == "rebase" || name == "cherry-pick" || name == "revert" {
		if v, ok := c.gitValue(rest, "s", "strategy"); ok && (v.unknown != "" || !containsStr(gitMergeStrategies, v.lit)) {
			c.unknown("git " + name + " -s " + v.text() + " runs the program git-merge-" + v.text())
		}
	}
	if name == "rebase" {
		c.gitRebaseExec(rest)
	}
	if name == "grep" && c.gitHas(rest, "-O", "--open-files-in-pager") {
		c.unknown("git grep -O runs a pager of the command's choosing")
	}
	if containsStr(gitDiffFamily, name) {
		// -O<orderfile> (diff-options) reads the order of the files.
		if v, ok := c.gitValue(rest, "O"); ok {
			c.add(v, Read)
		}
	}
	if name == "ls-files" {
		if v, ok := c.gitValue(rest, "X", "exclude-from"); ok {
			c.add(v, Read)
		}
	}
	for _, w := range rest {
		if w.unknown == "" && (strings.HasPrefix(w.lit, "ext::") || strings.Contains(w.lit, "=ext::")) {
			c.unknown("git " + name + " " + w.lit + ": an ext:: URL runs a command (where the ext transport is allowed)")
		}
	}
}

// gitRebaseExec: git rebase --exec CMD and -x CMD run CMD with the shell
// after each commit, from the top of the work tree (git-rebase(1)), in
// every form: --exe=CMD (abbreviated), -qxCMD (clustered).
func (c *cmdCtx) gitRebaseExec(rest []sword) {
	for _, script := range c.gitValues(rest, "x", "exec") {
		c.atTopLevel(func() { c.script(script) })
	}
}

// atTopLevel runs f with the analysis in the top directory of the work
// tree, which it does not know: relative targets are unknown there.
func (c *cmdCtx) atTopLevel(f func()) {
	cwd := c.a.cwd
	c.a.cwd = nil
	f()
	c.a.cwd = cwd
}

// gitHelp: git help shows a manual page, through man and a pager.
func gitHelp(c *cmdCtx, _ []sword) {
	c.cmd.Runs = "git help (man)"
}

// gitGrep: git grep -f FILE reads its patterns from FILE; with
// --no-index the operands after the pattern are files, anywhere
// (git-grep(1)).
func gitGrep(c *cmdCtx, rest []sword) {
	if v, ok := c.gitValue(rest, "f", "file"); ok {
		c.add(v, Read)
	}
	// It searches the files below its directory, or below each PATH
	// operand: the tracked ones (a committed .env among them), with
	// --untracked and --no-index the others too.
	ops := c.gitOperandsValued(rest, gitGrepValued)
	if !c.gitHas(rest, "-e", "-f", "--file") && len(ops) > 0 {
		ops = ops[1:]
	}
	if len(ops) == 0 {
		ops = []sword{{lit: ".", pat: ".", src: "."}}
	}
	for _, w := range ops {
		c.addBelow(w)
	}
}

// gitGrepValued are git grep's options whose value is the next word
// (git-grep(1)).
var gitGrepValued = []string{"-e", "-f", "--file", "-A", "-B", "-C", "-m", "--max-count", "--max-depth", "--threads",
	"--context", "--after-context", "--before-context"}

// gitArchiveValued are git archive's options whose value is the next word
// (git-archive(1)).
var gitArchiveValued = []string{"-o", "--output", "--format", "--prefix", "--remote", "--exec", "--mtime", "--add-file", "--add-virtual-file"}

// gitArchive: git archive [OPTIONS] TREE-ISH [PATH...] writes -o FILE
// (--output), reads --add-file's files, and reads each PATH from the
// repository: a file the tree holds (git archive HEAD .env), relative to
// the working directory (git-archive(1)); with --remote, the PATHs are the
// remote's, and a repository on this machine is read.
func gitArchive(c *cmdCtx, rest []sword) {
	if v, ok := c.gitValue(rest, "o", "output"); ok {
		c.add(v, Write)
	}
	for _, v := range c.gitValues(rest, "", "add-file") {
		c.add(v, Read)
	}
	if v, ok := c.gitValue(rest, "", "remote"); ok {
		c.gitLocalRemote(v, Read)
		return
	}
	if ops := c.gitOperandsValued(rest, gitArchiveValued); len(ops) > 1 && !c.gitHas(rest, "-l", "--list") {
		c.addAll(ops[1:], pathsRead, false)
	}
}

// gitBlame: git blame --contents FILE, --ignore-revs-file FILE and -S
// REVS-FILE read FILE (git-blame(1)); "-" is stdin.
func gitBlame(c *cmdCtx, rest []sword) {
	for _, v := range c.gitValues(rest, "S", "contents", "ignore-revs-file") {
		if !(v.unknown == "" && v.lit == "-") {
			c.add(v, Read)
		}
	}
}

// gitMaintenance: git maintenance register and unregister add the
// repository to, or remove it from, maintenance.repo in the user's global
// configuration (or --config-file FILE); start and stop also change the
// system's scheduler (cron, systemd timers, launchd, schtasks), which then
// runs git outside the session: unknown. run works in the repository
// (git-maintenance(1)).
func gitMaintenance(c *cmdCtx, rest []sword) {
	ops := gitOptionOperands(rest, []string{"--config-file", "--scheduler", "--task", "--schedule"})
	if len(ops) == 0 || ops[0].unknown != "" {
		return
	}
	switch sub := ops[0].lit; sub {
	case "start", "stop":
		c.unknown("git maintenance " + sub + " changes the system's scheduler, which runs git outside the session")
	case "register", "unregister":
		if v, ok := c.gitValue(rest, "", "config-file"); ok {
			c.add(v, Write)
			return
		}
		if c.a.env.Home == "" {
			c.unknown("git maintenance " + sub + " writes the global configuration, and HOME is not known")
			return
		}
		c.add(literal(c.a.env.Home+"/.gitconfig"), Write)
	}
}

// gitFormatPatch: git format-patch writes one file per commit,
// NNNN-SUBJECT.patch, into -o DIR (--output-directory), else into the
// working directory (git-format-patch(1)); --stdout and --output write
// none of those.
func gitFormatPatch(c *cmdCtx, rest []sword) {
	if c.gitHas(rest, "--stdout", "--output") {
		return
	}
	dir, ok := c.gitValue(rest, "o", "output-directory")
	if !ok {
		dir = literal(".")
	}
	ts, why := c.a.targets(dir, Write)
	if why != "" {
		c.unknown(why)
		return
	}
	for _, t := range ts {
		c.cmd.Targets = append(c.cmd.Targets, t)
		t.Path, t.Given, t.Pattern = glob.Escape(path.Clean(t.Path))+"/*.patch", path.Join(t.Given, "*.patch"), true
		c.cmd.Targets = append(c.cmd.Targets, t)
	}
}

// gitBundle: git bundle create FILE writes FILE; verify, list-heads and
// unbundle read it (git-bundle(1)).
func gitBundle(c *cmdCtx, rest []sword) {
	ops := gitOperands(rest)
	if len(ops) < 2 {
		return
	}
	if ops[0].lit == "create" {
		c.add(ops[1], Write)
		return
	}
	c.add(ops[1], Read)
}

// gitWorktree: git worktree add [-b BRANCH] PATH [COMMIT] checks out into
// PATH; remove PATH deletes it; move FROM TO moves it (git-worktree(1)):
// recursive writes.
func gitWorktree(c *cmdCtx, rest []sword) {
	var ops []sword
	for i := 0; i < len(rest); i++ {
		t := rest[i].text()
		switch {
		case t == "-b" || t == "-B" || t == "--reason" || t == "--expire":
			i++
		case rest[i].unknown == "" && strings.HasPrefix(t, "-"):
		default:
			ops = append(ops, rest[i])
		}
	}
	if len(ops) < 2 {
		return
	}
	switch ops[0].lit {
	case "add", "remove":
		c.addT(ops[1], Write, true)
	case "move":
		for _, w := range ops[1:] {
			c.addT(w, Write, true)
		}
	}
}

// gitSubmodule: git submodule add URL [PATH] clones into PATH; update and
// deinit check out or remove the submodules' work trees; foreach runs a
// command in each, with the shell (git-submodule(1)).
func gitSubmodule(c *cmdCtx, rest []sword) {
	ops := gitOperands(rest)
	if len(ops) == 0 {
		return
	}
	switch ops[0].lit {
	case "add":
		ops = gitOptionOperands(rest, []string{"-b", "--branch", "--name", "--reference", "--depth"})
		switch {
		case len(ops) >= 3:
			c.addT(ops[2], Write, true)
		case len(ops) == 2 && ops[1].unknown == "":
			name := strings.TrimSuffix(path.Base(strings.TrimSuffix(ops[1].lit, "/")), ".git")
			c.addT(literal(name), Write, true)
		default:
			c.unknown("git submodule add: its path is not static")
		}
	case "update", "deinit", "absorbgitdirs":
		// They write the submodules' directories, which .gitmodules names
		// (the agent may have written it): files the line does not name,
		// like an archive's members (extractHere).
		n := len(c.cmd.Targets)
		c.addCwd(Write, true)
		for i := n; i < len(c.cmd.Targets); i++ {
			c.cmd.Targets[i].Members = true
		}
		if c.cmd.Runs == "" {
			c.cmd.Runs = "git submodule " + ops[0].lit + ": the paths .gitmodules names"
		}
	case "foreach":
		if len(ops) > 1 {
			c.cmd.Runs = "git submodule foreach"
			c.atTopLevel(func() { c.script(ops[len(ops)-1]) })
		}
	}
}

// gitMv: git mv SOURCE... DESTINATION moves the sources (a directory with
// all below it) to DESTINATION, or into it when it is a directory
// (git-mv(1)).
func gitMv(c *cmdCtx, rest []sword) {
	ops := gitOperands(rest)
	if len(ops) < 2 {
		return
	}
	srcs := ops[:len(ops)-1]
	for _, w := range srcs {
		c.addT(w, Write, true)
	}
	c.moveInto(srcs, ops[len(ops)-1], len(srcs) > 1)
}

// gitBisect: git bisect run CMD [ARGS] runs CMD at each step, from the top
// of the work tree (git-bisect(1)): it is judged as a command of its own
// there, whose place is not known.
func gitBisect(c *cmdCtx, rest []sword) {
	ops := gitOperands(rest)
	if len(ops) < 2 || ops[0].unknown != "" || ops[0].lit != "run" {
		return
	}
	c.atTopLevel(func() {
		k := c.a.subcommand(ops[1:], c.depth)
		if c.a.cmds[k].Runs != "" {
			c.cmd.Runs = "git bisect run " + c.a.cmds[k].Runs
		}
	})
}

// gitInit: git init [DIRECTORY] creates the repository in DIRECTORY
// (git-init(1)); without one, the .git it makes in the working directory
// is git's internals, no target. --separate-git-dir DIR writes DIR.
func gitInit(c *cmdCtx, rest []sword) {
	ops := gitOptionOperands(rest, []string{"-b", "--initial-branch", "--object-format", "--ref-format", "--separate-git-dir", "--template", "--shared"})
	if v, ok := c.gitValue(rest, "", "separate-git-dir"); ok {
		c.addT(v, Write, true)
	}
	if len(ops) > 0 {
		c.addT(ops[0], Write, true)
	}
}

// gitCloneValued are git clone's options that take a value (git-clone(1)).
var gitCloneValued = []string{"-b", "--branch", "--depth", "-o", "--origin", "-c", "--config", "--reference", "--reference-if-able",
	"--separate-git-dir", "--shallow-since", "--shallow-exclude", "-j", "--jobs", "--filter", "--server-option", "--bundle-uri",
	"--revision", "-u", "--upload-pack", "--template", "--ref-format"}

// gitClone: git clone REPOSITORY [DIRECTORY] writes DIRECTORY, by default
// the repository's base name without ".git"; --separate-git-dir DIR writes
// DIR; -c KEY=VALUE sets the new repository's configuration
// (git-clone(1)).
func gitClone(c *cmdCtx, rest []sword) {
	for _, v := range c.gitValues(rest, "c", "config") {
		if gitSetsExecKey(v) {
			c.unknown("git clone -c " + v.text() + " makes git run a command")
			return
		}
		c.gitConfigValue(v.lit, false)
	}
	if v, ok := c.gitValue(rest, "", "separate-git-dir"); ok {
		c.addT(v, Write, true)
	}
	ps := gitOptionOperands(rest, gitCloneValued)
	if len(ps) > 0 {
		c.gitLocalRemote(ps[0], Read)
	}
	switch {
	case len(ps) >= 2:
		c.addT(ps[1], Write, true)
	case len(ps) == 1 && ps[0].unknown == "":
		name := strings.TrimSuffix(path.Base(strings.TrimSuffix(ps[0].lit, "/")), ".git")
		c.addT(literal(name), Write, true)
	default:
		c.unknown("git clone's destination is not static")
	}
}

// gitOptionOperands returns the operands of a subcommand whose options
// valued take the next word as their value.
func gitOptionOperands(rest []sword, valued []string) []sword {
	var out []sword
	for i := 0; i < len(rest); i++ {
		t := rest[i].text()
		switch {
		case rest[i].unknown == "" && t == "--":
			return append(out, rest[i+1:]...)
		case rest[i].unknown == "" && containsStr(valued, t):
			i++
		case rest[i].unknown == "" && strings.HasPrefix(t, "-"):
		default:
			out = append(out, rest[i])
		}
	}
	return out
}

// gitOperandsValued returns a subcommand's operands: the words that are
// no options and no option's value, a short one's in a cluster too
// (gitValuedShort: -vo FILE), a long one of valued given as the next
// word; every word after "--".
func (c *cmdCtx) gitOperandsValued(rest []sword, valued []string) []sword {
	var out []sword
	short := gitValuedShort()[c.sub]
	for i := 0; i < len(rest); i++ {
		w := rest[i]
		t := w.lit
		switch {
		case w.unknown != "":
			out = append(out, w)
		case t == "--":
			return append(out, rest[i+1:]...)
		case strings.HasPrefix(t, "--"):
			if !strings.Contains(t, "=") && containsStr(valued, t) {
				i++
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
			for j := 1; j < len(t); j++ {
				if strings.IndexByte(short, t[j]) >= 0 {
					if j == len(t)-1 {
						i++ // the value is the next word
					}
					break
				}
			}
		default:
			out = append(out, w)
		}
	}
	return out
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

// gitConfigWrites are the options of git config that change the file
// (git-config(1)); with an action of gitConfigActions but get and list, or
// KEY VALUE, it is written too.
var gitConfigWrites = []string{"--unset", "--unset-all", "--add", "--replace-all", "--remove-section"}

// gitConfigCmd: git config reads or sets keys (git-config(1)). Setting a
// key that makes git run a command (isGitExecKey) is inline code, and so
// is renaming a section (its keys may become such keys); --global,
// --system and --file name the file written; a repository's own
// .git/config is git's internal state, like its index. edit and -e run an
// editor.
func gitConfigCmd(c *cmdCtx, rest []sword) {
	g, why := parseGitConfig(c.a.env.Home, rest)
	if why != "" {
		c.unknown(why)
		return
	}
	ops := g.ops
	action := ""
	if len(ops) > 0 && containsStr(gitConfigActions, ops[0].lit) {
		action, ops = ops[0].lit, ops[1:]
	}
	switch {
	case action == "edit" || containsText(rest, "--edit") || c.gitHas(rest, "-e"):
		c.unknown("git config edit runs an editor")
		return
	case action == "rename-section" || c.gitHas(rest, "--rename-section"):
		c.unknown("git config rename-section may make its keys ones that run a command")
		return
	}
	writes := action != "" || len(ops) >= 2 || c.gitHas(rest, gitConfigWrites...)
	if g.get || !writes {
		if g.fileGiven {
			c.add(g.file, Read)
		}
		c.cmd.ReadOnly = true
		return
	}
	if len(ops) > 0 && isGitExecKey(ops[0].lit) && action != "unset" && !c.gitHas(rest, "--unset", "--unset-all") {
		c.unknown("git config " + ops[0].src + " makes git run a command")
		return
	}
	if len(ops) >= 2 && action != "unset" && !c.gitHas(rest, "--unset", "--unset-all") {
		c.gitConfigValue(ops[0].lit+"="+ops[1].lit, false)
	}
	if g.fileGiven {
		c.add(g.file, Write)
	}
}

// gitConfigValued are git config's options whose value is the next word
// when not attached with "=".
var gitConfigValued = []string{"--type", "--default", "--comment", "--value", "--url"}

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
			g.file, g.fileGiven = literal(home+"/.gitconfig"), true
		case t == "--system":
			g.file, g.fileGiven = literal("/etc/gitconfig"), true
		case t == "-f" || t == "--file" || t == "--blob":
			if k+1 < len(rest) {
				g.file, g.fileGiven = rest[k+1], true
				k++
			}
		case strings.HasPrefix(t, "--file="):
			g.file, g.fileGiven = literal(strings.TrimPrefix(t, "--file=")), true
		case containsStr(gitConfigValued, t):
			k++
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

// gitPathKeys are the configuration keys whose value is a file git reads
// or writes (git-config(1), git 2.39), lower-cased; an http.<url>.<name>
// key counts as http.<name>. user.signingKey names a file when it looks
// like a path (gpg.format ssh). The trace2 targets are written, as
// GIT_TRACE2 is (gitEnvEffect).
var gitPathKeys = sync.OnceValue(func() map[string]Access {
	return map[string]Access{
		"blame.ignorerevsfile": Read, "core.excludesfile": Read, "core.attributesfile": Read, "commit.template": Read,
		"mailmap.file": Read, "gpg.ssh.allowedsignersfile": Read, "gpg.ssh.revocationfile": Read, "diff.orderfile": Read,
		"format.signaturefile": Read, "sendemail.aliasesfile": Read, "sendemail.smtpsslcertpath": Read, "user.signingkey": Read,
		"http.sslcert": Read, "http.sslkey": Read, "http.proxysslcert": Read, "http.proxysslkey": Read, "http.pinnedpubkey": Read,
		"http.cookiefile": Write, "format.outputdirectory": Write, "trace2.normaltarget": Write, "trace2.perftarget": Write,
		"trace2.eventtarget": Write,
	}
})

// gitConfigValue judges a configuration setting KEY=VALUE given on the
// command line (git -c, clone -c) or written (git config KEY VALUE): a key
// of gitPathKeys makes VALUE a target ("~/" is git's home); fromEnv means
// VALUE names an environment variable (--config-env), which is unknown
// for such a key. A key that runs a command is the caller's.
func (c *cmdCtx) gitConfigValue(setting string, fromEnv bool) {
	key, val, _ := strings.Cut(setting, "=")
	k := strings.ToLower(key)
	if strings.HasPrefix(k, "http.") && strings.Count(k, ".") > 1 {
		k = "http." + k[strings.LastIndexByte(k, '.')+1:]
	}
	access, ok := gitPathKeys()[k]
	switch {
	case !ok || val == "" && !fromEnv:
		return
	case fromEnv:
		c.unknown("git --config-env " + key + ": a file named by an environment variable")
		return
	case strings.HasPrefix(k, "trace2."):
		if strings.HasPrefix(strings.ToLower(val), "af_unix:") {
			c.unknown("git " + key + " sends git's trace to a Unix socket")
			return
		}
		if !strings.HasPrefix(val, "/") {
			return // off, or a descriptor
		}
	case k == "user.signingkey" && !strings.ContainsAny(val, "/~"):
		return // a key ID
	case k == "http.pinnedpubkey" && strings.HasPrefix(val, "sha256//"):
		return
	}
	if rest, ok := strings.CutPrefix(val, "~/"); ok {
		if c.a.env.Home == "" {
			c.unknown("git " + key + " names a file below HOME, which is not known")
			return
		}
		val = c.a.env.Home + "/" + rest
	}
	c.addT(literal(val), access, access == Write && (k == "format.outputdirectory" || strings.HasPrefix(k, "trace2.")))
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
		"protocol.allow", "web.browser", "core.worktree", "core.alternaterefscommand", "sendemail.smtpserver",
		"init.templatedir", "interactive.difffilter", "imap.tunnel":
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

// gitFromObjects marks the writes added since the n-th target as written
// with files from the repository's objects: a commit the agent made with
// plumbing (hash-object, commit-tree, update-ref) may hold any file, a
// protected one (.claude/settings.json) too, while the command line names
// only a directory. Each such write is recursive, and the command runs
// confined (Command.Runs), where .claude, .git/config and .git/hooks stay
// read-only. A write of the working directory itself (a branch switch,
// "git restore .") is Target.Members: the protected files below it are
// left to the kernel sandbox (git never writes the work tree's .git this
// way); a directory named otherwise (git checkout -- .claude) is judged
// with the protected files below it.
func (c *cmdCtx) gitFromObjects(n int) {
	marked := false
	for i := n; i < len(c.cmd.Targets); i++ {
		if t := &c.cmd.Targets[i]; t.Access == Write {
			t.Recursive, marked = true, true
			t.Members = path.Clean(t.Given) == "."
		}
	}
	if marked && c.cmd.Runs == "" {
		c.cmd.Runs = c.name + " " + c.sub + ": files from the repository's objects"
	}
}

// gitRestore: git restore [--staged] [--worktree] PATH... (git-restore(1))
// writes PATHs in the work tree unless only --staged (-S) is given, which
// changes the index only.
func gitRestore(c *cmdCtx, rest []sword) {
	staged := c.gitHas(rest, "--staged", "-S")
	tree := c.gitHas(rest, "--worktree", "-W")
	if staged && !tree {
		return
	}
	n := len(c.cmd.Targets)
	c.addAll(gitOptionOperands(rest, []string{"-s", "--source", "--pathspec-from-file", "--conflict"}), pathsWritten, true)
	c.gitFromObjects(n)
}

// gitReset: git reset --hard, --keep and --merge rewrite the work tree
// (git-reset(1)); the other forms change only the index and HEAD.
func gitReset(c *cmdCtx, rest []sword) {
	if !c.gitHas(rest, "--hard", "--keep", "--merge") {
		return
	}
	n := len(c.cmd.Targets)
	c.addCwd(Write, true)
	c.gitFromObjects(n)
}

// gitStash: git stash list and show only read, drop and clear change only
// refs; push (the default), save, pop, apply and branch rewrite the work
// tree (git-stash(1)).
func gitStash(c *cmdCtx, rest []sword) {
	ops := gitOperands(rest)
	sub := ""
	if len(ops) > 0 {
		sub = ops[0].lit
	}
	switch sub {
	case "list", "show":
		c.cmd.ReadOnly = true
		return
	case "drop", "clear", "create", "store":
		return
	}
	n := len(c.cmd.Targets)
	c.addCwd(Write, true)
	c.gitFromObjects(n)
}

// gitApply: git apply reads its patches; --check, --stat, --numstat and
// --summary only read, --cached changes the index only; else it writes
// the work tree (git-apply(1)), where a patch may name any file.
func gitApply(c *cmdCtx, rest []sword) {
	c.addAll(gitOperands(rest), pathsRead, false)
	if c.gitHas(rest, "--check", "--stat", "--numstat", "--summary") {
		c.cmd.ReadOnly = true
		return
	}
	if c.gitHas(rest, "--cached") {
		return
	}
	n := len(c.cmd.Targets)
	c.addCwd(Write, true)
	c.gitFromObjects(n)
}

// gitClean: git clean -n (--dry-run) only lists; otherwise it removes
// untracked files below the working directory (git-clean(1)), never in
// .git: a recursive write whose protected files below are left to the
// kernel sandbox (Target.Members) and the lose_work guard.
func gitClean(c *cmdCtx, rest []sword) {
	if c.gitHas(rest, "-n", "--dry-run") {
		c.cmd.ReadOnly = true
		return
	}
	n := len(c.cmd.Targets)
	ops := gitOptionOperands(rest, []string{"-e", "--exclude"})
	if len(ops) == 0 {
		c.addCwd(Write, true)
	} else {
		c.addAll(ops, pathsWritten, true)
	}
	c.gitFromObjects(n)
}

// gitMessageFile: git commit, tag and notes take a message from -F FILE
// (--file) and commit a template from -t FILE (--template), which they
// read (git-commit(1), git-tag(1), git-notes(1)); the message then lands
// in the repository, where the agent reads it back.
func gitMessageFile(c *cmdCtx, rest []sword) {
	switch c.sub {
	case "push", "fetch":
		// git push REPOSITORY writes it, git fetch REPOSITORY reads it,
		// when it is a path on this machine.
		access := Read
		if c.sub == "push" {
			access = Write
		}
		if ps := gitOptionOperands(rest, []string{"--repo", "--receive-pack", "--exec", "--upload-pack", "-o", "--push-option", "--depth", "--deepen", "--shallow-since", "--shallow-exclude", "-j", "--jobs", "--negotiation-tip", "--server-option", "--refmap", "--recurse-submodules-default", "--filter"}); len(ps) > 0 {
			c.gitLocalRemote(ps[0], access)
		}
		if v, ok := c.gitValue(rest, "", "repo"); ok {
			c.gitLocalRemote(v, access)
		}
		return
	}
	if v, ok := c.gitValue(rest, "F", "file"); ok && !(v.unknown == "" && v.lit == "-") {
		c.add(v, Read)
	}
	if c.sub == "commit" {
		if v, ok := c.gitValue(rest, "t", "template"); ok {
			c.add(v, Read)
		}
	}
}

// gitLocalRemote adds a git repository named by a local path or a file://
// URL as a target (recursive): push writes it, fetch and clone read it
// (git-push(1), gitglossary(7) "repository", git-clone(1) GIT URLS). A
// remote's name or another URL (https:, ssh:, host:path) adds nothing.
func (c *cmdCtx) gitLocalRemote(w sword, access Access) {
	if w.unknown != "" {
		c.unknown("a git repository that is not static")
		return
	}
	p := w.lit
	if rest, ok := cutPrefixFold(p, "file://"); ok {
		p = rest
	} else if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "./") && !strings.HasPrefix(p, "../") && p != "." && p != ".." && !strings.HasPrefix(p, "~") {
		return
	}
	c.addT(literal(p), access, access == Write)
}

// gitPathEnvVars are git's environment variables whose value is a file or
// directory git reads or writes (git(1) ENVIRONMENT VARIABLES, git 2.39):
// the index, the object store and its alternates (colon-separated), the
// shallow file, the TLS files of git-http (http.c: GIT_SSL_CERT, ...), and
// the redirections of Git for Windows. A relative value is relative to
// the top of the work tree, which is not known here.
var gitPathEnvVars = sync.OnceValue(func() map[string]envFile {
	return map[string]envFile{
		"GIT_INDEX_FILE": {access: Write}, "GIT_OBJECT_DIRECTORY": {access: Write, recursive: true},
		"GIT_ALTERNATE_OBJECT_DIRECTORIES": {access: Read, recursive: true}, "GIT_SHALLOW_FILE": {access: Write},
		"GIT_SSL_CERT": {access: Read}, "GIT_SSL_KEY": {access: Read}, "GIT_PROXY_SSL_CERT": {access: Read},
		"GIT_PROXY_SSL_KEY": {access: Read}, "GIT_REDIRECT_STDIN": {access: Read}, "GIT_REDIRECT_STDOUT": {access: Write},
		"GIT_REDIRECT_STDERR": {access: Write},
	}
})

// gitTraceSettings are the GIT_TRACE* variables that set something other
// than where a trace goes (git(1) "Debugging"): flags, counts, lists.
var gitTraceSettings = []string{"GIT_TRACE_REDACT", "GIT_TRACE_CURL_NO_DATA", "GIT_TRACE2_CONFIG_PARAMS", "GIT_TRACE2_ENV_VARS",
	"GIT_TRACE2_EVENT_NESTING", "GIT_TRACE2_PERF_BRIEF", "GIT_TRACE2_BRIEF", "GIT_TRACE2_REDACT", "GIT_TRACE2_MAX_FILES",
	"GIT_TRACE2_DST_DEBUG"}

// gitEnvEffect is envEffect for git's variables; ok is false for a name
// that is not one of them. GIT_TRACE and the other trace targets
// (GIT_TRACE_PACKET, GIT_TRACE2_EVENT, ...) write to an absolute path (a
// directory: a new file in it each run), go to a descriptor for 1, 2-9,
// true, and to a Unix socket for af_unix: (unknown) (git(1) "Debugging",
// api-trace2 "Trace2 targets"); GIT_ALLOW_PROTOCOL allowing ext lets
// ext:: URLs run commands (git-remote-ext(1)).
func gitEnvEffect(name string, v shellVar) (string, []envFile, bool) {
	if name == "GIT_ALLOW_PROTOCOL" {
		if !v.known || v.glob {
			return "GIT_ALLOW_PROTOCOL is not static: it may allow ext:: URLs, which run commands", nil, true
		}
		for _, p := range strings.Split(v.value, ":") {
			if strings.EqualFold(p, "ext") {
				return "GIT_ALLOW_PROTOCOL allows ext:: URLs, which run commands", nil, true
			}
		}
		return "", nil, true
	}
	f, isPath := gitPathEnvVars()[name]
	isTrace := strings.HasPrefix(name, "GIT_TRACE") && !containsStr(gitTraceSettings, name)
	switch {
	case !isPath && !isTrace:
		return "", nil, false
	case !v.known || v.glob:
		return name + " names a file, and its value is not static", nil, true
	case isTrace:
		val := strings.ToLower(v.value)
		switch {
		case strings.HasPrefix(val, "af_unix:"):
			return name + " sends git's trace to a Unix socket", nil, true
		case !strings.HasPrefix(v.value, "/"):
			return "", nil, true // off, a descriptor, or a relative path git ignores
		}
		return "", []envFile{{path: v.value, access: Write, recursive: true}}, true
	case v.value == "":
		return "", nil, true
	}
	var files []envFile
	vals := []string{v.value}
	if name == "GIT_ALTERNATE_OBJECT_DIRECTORIES" {
		vals = strings.Split(v.value, ":")
	}
	for _, p := range vals {
		if p == "" {
			continue
		}
		if !strings.HasPrefix(p, "/") {
			return name + "=" + p + " is relative to the top of the work tree, which is not known", nil, true
		}
		g := f
		g.path = p
		files = append(files, g)
	}
	return "", files, true
}
