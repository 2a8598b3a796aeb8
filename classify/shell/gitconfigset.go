package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// harmlessGitKeys are the git configuration keys (lower case) whose value
// git never runs, loads as code, reads as a file name or uses to reach
// another repository (git-config(1), git 2.39 to 2.47): who a commit is
// by, line endings and file modes, the defaults of pull, push, fetch,
// merge and rebase, colours and advice. Keys that only look harmless stay
// out: commit.gpgsign (then git runs gpg.program at every commit),
// user.signingkey (a key file), help.autocorrect (runs a guessed
// command), remote.*, branch.* and submodule.* (URLs, update commands).
var harmlessGitKeys = []string{
	"user.name", "user.email", "author.name", "author.email", "committer.name", "committer.email",
	"core.autocrlf", "core.eol", "core.filemode", "core.ignorecase", "core.safecrlf", "core.quotepath",
	"core.symlinks", "core.precomposeunicode", "core.abbrev",
	"init.defaultbranch", "pull.rebase", "pull.ff", "push.default", "push.autosetupremote", "push.followtags",
	"fetch.prune", "fetch.prunetags", "merge.ff", "merge.conflictstyle", "rebase.autostash", "rebase.autosquash",
	"rebase.updaterefs", "color.ui", "column.ui", "commit.verbose", "commit.cleanup", "log.date", "log.decorate",
	"diff.renames", "diff.algorithm", "diff.colormoved", "status.showuntrackedfiles", "status.short", "status.branch",
	"branch.sort", "tag.sort", "rerere.enabled",
}

// HarmlessGitKey reports whether git never runs, loads or opens anything
// named by the value of the configuration key (case-insensitive):
// harmlessGitKeys, and advice.*.
func HarmlessGitKey(key string) bool {
	k := strings.ToLower(key)
	if rest, ok := strings.CutPrefix(k, "advice."); ok {
		return rest != "" && !strings.Contains(rest, ".")
	}
	for _, h := range harmlessGitKeys {
		if k == h {
			return true
		}
	}
	return false
}

// GitConfigSets reports whether the bash command line cmd does nothing
// but set or unset harmless keys (HarmlessGitKey) in the repository's own
// configuration, and returns those keys: one or more simple commands,
// joined by ";", newlines, "&&" or "||", each
//
//	git config [--local] KEY VALUE
//	git config [--local] set KEY VALUE
//	git config [--local] --unset KEY
//	git config [--local] unset KEY
//
// (git-config(1), git 2.39 to 2.47; "set" and "unset" from 2.46), with
// static words (quoted or not, nothing expanded), no variable assignment,
// no redirection, no pipe, background job or other option. Any other line,
// or one that does not parse, is false. Such a line reads no file but the
// configuration, runs nothing the configuration names and writes only the
// repository's config file (and its config.lock).
func GitConfigSets(cmd string) ([]string, bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
	if err != nil || len(f.Stmts) == 0 {
		return nil, false
	}
	var keys []string
	var stmt func(s *syntax.Stmt) bool
	stmt = func(s *syntax.Stmt) bool {
		if s.Background || s.Coprocess || s.Disown || len(s.Redirs) > 0 {
			return false
		}
		switch c := s.Cmd.(type) {
		case *syntax.BinaryCmd:
			return (c.Op == syntax.AndStmt || c.Op == syntax.OrStmt) && stmt(c.X) && stmt(c.Y)
		case *syntax.CallExpr:
			if len(c.Assigns) > 0 {
				return false
			}
			var argv []string
			for _, w := range c.Args {
				lit, ok := staticWord(w)
				if !ok {
					return false
				}
				argv = append(argv, lit)
			}
			k, ok := gitConfigSet(argv)
			if ok {
				keys = append(keys, k)
			}
			return ok
		}
		return false
	}
	for _, s := range f.Stmts {
		if !stmt(s) {
			return nil, false
		}
	}
	return keys, true
}

// staticWord returns the word's value when it holds nothing that expands:
// unquoted text without glob characters or a leading "~", '…', and "…"
// of plain text.
func staticWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for i, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "*?[]{}\\~$`") || i == 0 && strings.HasPrefix(p.Value, "~") {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok || strings.ContainsAny(l.Value, "\\$`") {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// gitConfigSet recognises one git config command of GitConfigSets and
// returns its key.
func gitConfigSet(argv []string) (string, bool) {
	if len(argv) < 3 || argv[0] != "git" || argv[1] != "config" {
		return "", false
	}
	rest := argv[2:]
	if rest[0] == "--local" {
		rest = rest[1:]
	}
	var key string
	switch {
	case len(rest) == 2 && !strings.HasPrefix(rest[0], "-"):
		key = rest[0] // KEY VALUE
	case len(rest) == 3 && rest[0] == "set":
		key = rest[1]
	case len(rest) == 2 && (rest[0] == "--unset" || rest[0] == "unset"):
		key = rest[1]
	default:
		return "", false
	}
	for _, w := range rest {
		if strings.HasPrefix(w, "-") && w != "--unset" {
			return "", false // git would take it for an option
		}
	}
	if !HarmlessGitKey(key) {
		return "", false
	}
	return key, true
}
