package shell

import (
	"path"
	"strings"

	"github.com/safezonehq/safezone/classify/glob"
)

// gitTools is git, whose subcommands are in gitSubcommands.
var gitTools = []cmdSpec{
	{name: "git", role: roleCustom, custom: gitCmd},
}

// gitCmd: git's path-taking subcommands (the manuals of git-checkout,
// git-restore, git-rm, git-mv, git-clean, git-show, git-cat-file,
// git-diff, git-log). Working on a repository reads it (the working
// directory is a read target); git's own files under .git are its
// internals and are not targets otherwise; commands that rewrite the work
// tree write the working directory.
func gitCmd(c *cmdCtx) {
	args := c.args
	i := 0
	for ; i < len(args); i++ {
		t := args[i].text()
		if args[i].unknown != "" {
			c.unknown("a git option is not static")
			return
		}
		switch {
		case t == "-C":
			if i+1 >= len(args) {
				return
			}
			c.a.cdTemp(args[i+1])
			defer c.a.cdRestore()
			i++
		case t == "-c" || t == "--config-env":
			if i+1 < len(args) {
				key, _, _ := strings.Cut(args[i+1].lit, "=")
				if args[i+1].unknown != "" || isGitExecKey(key) {
					c.unknown("git " + t + " " + args[i+1].src + " makes git run a command")
					return
				}
			}
			i++
		case strings.HasPrefix(t, "--config-env="):
			if key, _, _ := strings.Cut(strings.TrimPrefix(t, "--config-env="), "="); isGitExecKey(key) {
				c.unknown("git " + t + " makes git run a command")
				return
			}
		case t == "--exec-path" || strings.HasPrefix(t, "--exec-path=") || t == "--git-dir" || t == "--work-tree" ||
			strings.HasPrefix(t, "--git-dir=") || strings.HasPrefix(t, "--work-tree="):
			// Another git's programs, or another repository's config
			// and hooks.
			c.unknown("git " + t + " runs programs or hooks safezone cannot see")
			return
		case t == "--namespace" || t == "--super-prefix" || t == "--list-cmds" || t == "--attr-source":
			i++
		case strings.HasPrefix(t, "-c"):
			c.unknown("git " + t + ": an attached -c value")
			return
		case strings.HasPrefix(t, "-"):
		default:
			goto sub
		}
	}
	c.cmd.ReadOnly = true
	return
sub:
	subcmd := args[i].lit
	rest := args[i+1:]
	switch subcmd {
	case "help":
		c.cmd.Runs = "git help (man)" // a manual page, through man and a pager
	case "version", "clone", "ls-remote", "init", "config":
	default:
		// Every other subcommand works on the repository found from the
		// working directory: its history, and the work tree git status,
		// diff, add and commit read file by file (seen by TestShellKernel).
		// The directory is a read target, so a repository outside the
		// sandbox is an outside read.
		c.addCwd(Read, false)
	}
	// Paths: operands after "--", or every non-option operand.
	paths := func(skip int) []sword {
		var out []sword
		seenDash := false
		n := 0
		for _, w := range rest {
			t := w.text()
			if !seenDash && w.unknown == "" && t == "--" {
				seenDash = true
				continue
			}
			if !seenDash && w.unknown == "" && strings.HasPrefix(t, "-") {
				continue
			}
			if !seenDash && n < skip {
				n++
				continue
			}
			out = append(out, w)
		}
		return out
	}
	afterDash := func() ([]sword, bool) {
		for k, w := range rest {
			if w.unknown == "" && w.text() == "--" {
				return rest[k+1:], true
			}
		}
		return nil, false
	}
	switch subcmd {
	case "status", "log", "shortlog", "branch", "tag", "remote", "rev-parse", "rev-list", "describe", "ls-files",
		"ls-tree", "ls-remote", "reflog", "blame", "annotate", "grep", "whatchanged", "name-rev", "merge-base",
		"count-objects", "fsck", "help", "version", "var", "check-ignore", "check-attr", "for-each-ref", "show-ref",
		"cherry", "range-diff", "verify-commit", "verify-tag", "diff", "diff-tree", "diff-files", "diff-index":
		if ps, ok := afterDash(); ok {
			for _, w := range ps {
				c.add(w, Read)
			}
		}
		if subcmd == "blame" || subcmd == "annotate" {
			for _, w := range paths(0) {
				c.add(w, Read)
			}
		}
		c.cmd.ReadOnly = true
	case "show", "cat-file":
		// REV:path reads path (as recorded in git); -- path too.
		for _, w := range rest {
			if w.unknown == "" && strings.Contains(w.lit, ":") && !strings.HasPrefix(w.lit, "-") {
				p := w.lit[strings.IndexByte(w.lit, ':')+1:]
				if p != "" {
					if !strings.HasPrefix(p, "/") && strings.HasPrefix(p, "./") {
						p = strings.TrimPrefix(p, "./")
					}
					c.add(sword{lit: p, pat: glob.Escape(p), src: p}, Read)
				}
			}
		}
		if ps, ok := afterDash(); ok {
			for _, w := range ps {
				c.add(w, Read)
			}
		}
		c.cmd.ReadOnly = true
	case "add", "commit", "fetch", "push", "init", "config", "gc", "prune", "notes", "bundle", "archive", "format-patch", "worktree", "submodule", "sparse-checkout", "maintenance", "lfs":
		if subcmd == "add" {
			for _, w := range paths(0) {
				c.add(w, Read)
			}
		}
		if subcmd == "archive" {
			if v, ok := optionValue(rest, "-o", "--output"); ok {
				c.add(v, Write)
			}
		}
		if subcmd == "init" {
			if ps := paths(0); len(ps) > 0 {
				c.add(ps[0], Write)
			}
		}
		if subcmd == "config" {
			gitConfigCmd(c, rest)
		}
	case "checkout", "switch":
		if ps, ok := afterDash(); ok {
			for _, w := range ps {
				c.add(w, Write)
			}
		} else {
			c.addCwd(Write, false)
		}
	case "restore":
		for _, w := range paths(0) {
			c.add(w, Write)
		}
	case "rm", "mv":
		for _, w := range paths(0) {
			c.add(w, Write)
		}
	case "clean", "reset", "stash", "merge", "rebase", "pull", "cherry-pick", "revert", "am", "apply", "bisect":
		c.addCwd(Write, subcmd == "clean")
	case "clone":
		ps := paths(0)
		if len(ps) >= 2 {
			c.addT(ps[1], Write, true)
		} else if len(ps) == 1 && ps[0].unknown == "" {
			name := strings.TrimSuffix(path.Base(strings.TrimSuffix(ps[0].lit, "/")), ".git")
			c.addT(sword{lit: name, pat: glob.Escape(name), src: name}, Write, true)
		} else {
			c.unknown("git clone's destination is not static")
		}
	default:
		c.unknown("git " + subcmd + " is not in safezone's table")
	}
}

// gitConfigCmd: git config reads or sets keys. Setting a key that makes
// git run a command (isGitExecKey) is inline code; --global, --system and
// --file name the file written; a repository's own .git/config is git's
// internal state, like its index.
func gitConfigCmd(c *cmdCtx, rest []sword) {
	var ops []sword
	get := false
	file, fileGiven := sword{}, false
	for k := 0; k < len(rest); k++ {
		w := rest[k]
		t := w.text()
		if w.unknown != "" {
			c.unknown("a git config argument is not static")
			return
		}
		switch {
		case t == "--get" || t == "--get-all" || t == "--get-regexp" || t == "--get-urlmatch" || t == "-l" || t == "--list" ||
			t == "get" || t == "list" || t == "--show-origin" && len(ops) == 0 || t == "--get-color" || t == "--get-colorbool":
			get = true
		case t == "--global":
			if c.a.env.Home == "" {
				c.unknown("git config --global without HOME")
				return
			}
			g := c.a.env.Home + "/.gitconfig"
			file, fileGiven = sword{lit: g, pat: glob.Escape(g), src: "~/.gitconfig"}, true
		case t == "--system":
			file, fileGiven = sword{lit: "/etc/gitconfig", src: "/etc/gitconfig"}, true
		case t == "-f" || t == "--file" || t == "--blob":
			if k+1 < len(rest) {
				file, fileGiven = rest[k+1], true
				k++
			}
		case strings.HasPrefix(t, "--file="):
			v := strings.TrimPrefix(t, "--file=")
			file, fileGiven = sword{lit: v, pat: glob.Escape(v), src: v}, true
		case strings.HasPrefix(t, "-"):
		default:
			ops = append(ops, w)
		}
	}
	if len(ops) > 0 && (ops[0].lit == "set" || ops[0].lit == "unset" || ops[0].lit == "get" || ops[0].lit == "list" || ops[0].lit == "edit" || ops[0].lit == "rename-section" || ops[0].lit == "remove-section") {
		if ops[0].lit == "get" || ops[0].lit == "list" {
			get = true
		}
		if ops[0].lit == "edit" {
			c.unknown("git config edit runs an editor")
			return
		}
		ops = ops[1:]
	}
	if get || len(ops) < 2 && !containsText(rest, "--unset") && !containsText(rest, "--add") && !containsText(rest, "--replace-all") {
		if fileGiven {
			c.add(file, Read)
		}
		c.cmd.ReadOnly = true
		return
	}
	if len(ops) > 0 && isGitExecKey(ops[0].lit) {
		c.unknown("git config " + ops[0].src + " makes git run a command")
		return
	}
	if fileGiven {
		c.add(file, Write)
	}
}

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
