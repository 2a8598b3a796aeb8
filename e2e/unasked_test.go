//go:build e2e

package e2e

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/safezonehq/safezone/hookio"
)

// TestClaudeCodeUnasked tracks Claude Code's own list of Bash commands it
// runs without asking when every PreToolUse hook abstains
// (hookio.Claude.RunsUnasked, testdata/hosts/claude/unasked.md). For each
// rule of that table it runs, with a hook that prints nothing, one command
// the host runs unasked and a neighbour it asks about, in default, plan and
// acceptEdits mode, and checks two things per call:
//
//   - the host: the call ran (a PostToolUse or PostToolUseFailure hook
//     fired) exactly in the modes the case lists. A new pinned Claude Code
//     that changes its list fails here: re-measure, then update the table.
//   - the table: RunsUnasked says the same, in this run's real project.
//
// The calls of one mode run in a few sessions, one Bash call per turn.
// Cases that change the session (a cd that runs) have a session of their
// own; writers use file names of their own.
func TestClaudeCodeUnasked(t *testing.T) {
	if env.skip != "" {
		fmt.Println("SKIPPED: e2e:", env.skip)
		t.Skip(env.skip)
	}
	if hookio.UnaskedVersion != env.pinned {
		t.Fatalf("hookio.UnaskedVersion is %s, the pinned Claude Code is %s: measure the new version (testdata/hosts/claude/unasked.md says how), then update the table and this test",
			hookio.UnaskedVersion, env.pinned)
	}
	var mu sync.Mutex
	failed, calls := 0, 0
	for _, mode := range []string{"default", "plan", "acceptEdits"} {
		for _, sess := range unaskedSessions(mode) {
			t.Run(mode+"/"+sess.name, func(t *testing.T) {
				t.Parallel()
				n, f := runUnaskedSession(t, mode, sess.cases)
				mu.Lock()
				calls, failed = calls+n, failed+f
				mu.Unlock()
			})
		}
	}
	t.Cleanup(func() {
		fmt.Printf("e2e: unasked: Claude Code %s (pinned %s), %d cases, %d calls, %d not as expected\n",
			env.claudeVersion, env.pinned, len(unaskedE2ECases), calls, failed)
	})
}

// unaskedSession is the cases of one claude session.
type unaskedSession struct {
	name  string
	cases []unaskedE2E
}

// Sessions hold at most unaskedPerSession calls: each takes 0.2 to 6 s (git
// is the slowest), and a session must end within claudeTimeout. In plan
// mode Claude Code 2.1.330 sends what it would ask about to the auto-mode
// classifier, which does not run offline, and ends the session after about
// ten such refusals ("every action that needs the check is refused"); so
// there, the asked calls go unaskedAskedPlan to a session.
const (
	unaskedPerSession = 12
	unaskedAskedPlan  = 4
)

// unaskedSessions splits the cases into sessions for mode; a named group is
// one session.
func unaskedSessions(mode string) []unaskedSession {
	var out []unaskedSession
	open := map[string]int{} // kind -> index in out of its session being filled
	groups := map[string][]unaskedE2E{}
	for _, c := range unaskedE2ECases {
		kind, limit := "calls", unaskedPerSession
		switch {
		case c.group != "":
			groups[c.group] = append(groups[c.group], c)
			continue
		case mode == "plan" && !strings.Contains(c.runs, "P"):
			kind, limit = "asked", unaskedAskedPlan
		}
		if i, ok := open[kind]; ok && len(out[i].cases) < limit {
			out[i].cases = append(out[i].cases, c)
			continue
		}
		open[kind] = len(out)
		out = append(out, unaskedSession{name: fmt.Sprintf("%s-%02d", kind, len(out)), cases: []unaskedE2E{c}})
	}
	for _, name := range slices.Sorted(maps.Keys(groups)) {
		out = append(out, unaskedSession{name: name, cases: groups[name]})
	}
	return out
}

// unaskedE2E is one command and the modes it runs unasked in: "DPA" =
// default, plan and acceptEdits, "A" = acceptEdits only, "" = asked in all.
type unaskedE2E struct {
	cmd  string
	runs string
	// group names the session the case runs in ("" is the main one).
	group string
}

// unaskedFiles is the project of every session: the fixture of the
// measurements (testdata/hosts/claude/unasked.md), plus the files the
// writers change, one per case.
var unaskedFiles = map[string]string{
	"secret":                     "TOPSECRET-outside\n",
	"other/o.txt":                "other-file\n",
	"home/h.txt":                 "home-file\n",
	"proj/a.txt":                 "alpha\nbeta\n",
	"proj/b.txt":                 "beta\ngamma\n",
	"proj/list.txt":              "a.txt\nb.txt\n",
	"proj/data.json":             "{\"k\": 1}\n",
	"proj/src/main.go":           "package main\n",
	"proj/dir/x.txt":             "x\n",
	"proj/rmdir/.keep":           "",
	"proj/rm-me.txt":             "x\n",
	"proj/rmr/x.txt":             "x\n",
	"proj/cp-me.txt":             "x\n",
	"proj/mv-me.txt":             "x\n",
	"proj/sed-me.txt":            "a\n",
	"proj/.git/HEAD":             "ref: refs/heads/main\n",
	"proj/.git/config":           "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n",
	"proj/.git/objects/.keep":    "",
	"proj/.git/refs/heads/.keep": "",
}

// unaskedE2ECases: for each rule of the table, a form the host runs and a
// neighbour it asks about (all measured on 2.1.330).
var unaskedE2ECases = []unaskedE2E{
	{cmd: "cat a.txt", runs: "DPA"}, {cmd: "cat ../secret", runs: ""},
	{cmd: "cat *.txt", runs: "DPA"}, {cmd: "cat link/o.txt", runs: ""},
	{cmd: "cat src/../a.txt", runs: ""}, {cmd: "cat '~/h.txt'", runs: ""},
	{cmd: "head -n 1 a.txt", runs: "DPA"}, {cmd: "head ../secret", runs: ""},
	{cmd: "tail -n 1 a.txt", runs: "DPA"}, {cmd: "tail ../secret", runs: ""},
	{cmd: "wc -l a.txt", runs: "DPA"}, {cmd: "wc ../secret", runs: ""},
	{cmd: "stat a.txt", runs: "DPA"}, {cmd: "stat ../secret", runs: ""},
	{cmd: "file a.txt", runs: "DPA"}, {cmd: "file -z a.txt", runs: ""},
	{cmd: "strings a.txt", runs: "DPA"}, {cmd: "od -c ../secret", runs: ""},
	{cmd: "od -c a.txt", runs: "DPA"}, {cmd: "hexdump -C a.txt", runs: "DPA"}, {cmd: "xxd a.txt", runs: ""},
	{cmd: "nl a.txt", runs: "DPA"}, {cmd: "tac a.txt", runs: "DPA"}, {cmd: "rev ../secret", runs: ""},
	{cmd: "cut -c1-3 a.txt", runs: "DPA"}, {cmd: "paste a.txt ../secret", runs: ""},
	{cmd: "column -t a.txt", runs: "DPA"}, {cmd: "fold -w 3 a.txt", runs: "DPA"}, {cmd: "fmt a.txt", runs: "DPA"},
	{cmd: "expand a.txt", runs: "DPA"}, {cmd: "tsort a.txt", runs: "DPA"}, {cmd: "pr a.txt", runs: "DPA"},
	{cmd: "diff a.txt b.txt", runs: "DPA"}, {cmd: "diff a.txt ../secret", runs: ""},
	{cmd: "cmp a.txt b.txt", runs: "DPA"}, {cmd: "comm a.txt b.txt", runs: "DPA"}, {cmd: "md5sum ../secret", runs: ""},
	{cmd: "md5sum a.txt", runs: "DPA"}, {cmd: "sha1sum a.txt", runs: "DPA"}, {cmd: "sha256sum a.txt", runs: "DPA"},
	{cmd: "cksum a.txt", runs: ""}, {cmd: "base64 a.txt", runs: "DPA"}, {cmd: "base64 ../secret", runs: ""},
	{cmd: "sort -r a.txt", runs: "DPA"}, {cmd: "sort -o out.txt a.txt", runs: ""},
	{cmd: "uniq -c", runs: "DPA"}, {cmd: "uniq a.txt", runs: ""},
	{cmd: "du -sh dir", runs: "DPA"}, {cmd: "tree -L 1", runs: "DPA"}, {cmd: "tree -o out.txt", runs: ""},
	{cmd: "ls -la", runs: "DPA"}, {cmd: "ls ..", runs: ""}, {cmd: "ls link", runs: ""},
	{cmd: "grep -rn alpha src", runs: "DPA"}, {cmd: "grep -r alpha ..", runs: ""}, {cmd: "grep -f ../secret a.txt", runs: ""},
	{cmd: "egrep 'al|be' a.txt", runs: "DPA"}, {cmd: "fgrep alpha a.txt", runs: "DPA"},
	{cmd: "rg -n alpha a.txt", runs: "DPA"}, {cmd: "rg --pre cat alpha", runs: ""},
	{cmd: "find . -name '*.go'", runs: "DPA"}, {cmd: "find . -name a.txt -exec cat {} \\;", runs: ""},
	{cmd: "find .. -name o.txt", runs: ""}, {cmd: "find . -fprint out.txt", runs: ""},
	{cmd: "sed -n 1p a.txt", runs: "DPA"}, {cmd: "sed -n '/alpha/p' a.txt", runs: ""},
	{cmd: "jq -r .k data.json", runs: "DPA"}, {cmd: "jq -n env", runs: ""},
	{cmd: "ls | xargs wc -l", runs: "DPA"}, {cmd: "echo a.txt | xargs cat", runs: ""},
	{cmd: "echo hello", runs: "DPA"}, {cmd: "echo $FOO", runs: ""},
	{cmd: "printf '%s\\n' a b", runs: "DPA"}, {cmd: "printf -v v x", runs: ""},
	{cmd: "pwd", runs: "DPA"}, {cmd: "pwd -P", runs: ""},
	{cmd: "whoami", runs: "DPA"}, {cmd: "whoami --help", runs: ""},
	{cmd: "uname -a", runs: "DPA"}, {cmd: "seq 3", runs: "DPA"}, {cmd: "seq $FOO", runs: ""},
	{cmd: "true", runs: "DPA"}, {cmd: "false", runs: "DPA"}, {cmd: "sleep 0", runs: "DPA"}, {cmd: "id -u", runs: "DPA"},
	{cmd: "uptime", runs: "DPA"}, {cmd: "nproc", runs: "DPA"}, {cmd: "groups", runs: "DPA"}, {cmd: "locale", runs: "DPA"},
	{cmd: "free -h", runs: "DPA"}, {cmd: "cal", runs: "DPA"}, {cmd: "expr 1 + 1", runs: "DPA"}, {cmd: "numfmt --to=si 1000", runs: "DPA"},
	{cmd: "basename /x/y.txt", runs: "DPA"}, {cmd: "dirname /x/y.txt", runs: "DPA"},
	{cmd: "hostname", runs: "DPA"}, {cmd: "hostname newname", runs: ""},
	{cmd: "df -h", runs: "DPA"}, {cmd: "date +%s", runs: "DPA"}, {cmd: "date -s 2020-01-01", runs: ""},
	{cmd: "which ls", runs: "DPA"}, {cmd: "type ls", runs: "DPA"}, {cmd: "command -v ls", runs: ""},
	{cmd: "which ../secret /bin/ls", runs: "DPA"}, {cmd: "which -", runs: ""}, {cmd: "echo -", runs: "DPA"},
	{cmd: "test -f -", runs: ""}, {cmd: "date -d -", runs: ""},
	{cmd: "realpath a.txt", runs: "DPA"}, {cmd: "readlink a.txt", runs: "DPA"},
	{cmd: "test -f a.txt", runs: "DPA"}, {cmd: "[ -f a.txt ]", runs: "DPA"}, {cmd: "env", runs: ""},
	{cmd: "tr a-z A-Z", runs: "DPA"}, {cmd: "pgrep -f bash", runs: "DPA"}, {cmd: "history", runs: "DPA"}, {cmd: "history -c", runs: ""},
	{cmd: "help cd", runs: "DPA"}, {cmd: "help /x", runs: ""}, {cmd: "man -k ls", runs: "DPA"}, {cmd: "man -P cat ls", runs: ""},
	{cmd: "tput cols", runs: "DPA"}, {cmd: "tput reset", runs: ""}, {cmd: "ps -ef", runs: "DPA"}, {cmd: "ps e", runs: ""},
	{cmd: "awk 'NR==1' a.txt", runs: ""}, {cmd: "npm --version", runs: ""},
	// git.
	{cmd: "git status --short", runs: "DPA"}, {cmd: "git status -uno", runs: ""},
	{cmd: "git log --oneline -n 1", runs: "DPA"}, {cmd: "git log --output=out.txt", runs: ""},
	{cmd: "git diff --stat", runs: "DPA"}, {cmd: "git diff --ext-diff", runs: ""},
	{cmd: "git show --stat", runs: "DPA"}, {cmd: "git show --output=out.txt", runs: ""},
	{cmd: "git branch -a", runs: "DPA"}, {cmd: "git branch newb", runs: ""},
	{cmd: "git tag -l", runs: "DPA"}, {cmd: "git tag v1", runs: ""},
	{cmd: "git rev-parse --show-toplevel", runs: "DPA"}, {cmd: "git ls-files", runs: "DPA"}, {cmd: "git blame a.txt", runs: "DPA"},
	{cmd: "git remote -v", runs: "DPA"}, {cmd: "git remote add o ../other", runs: ""},
	{cmd: "git grep -n alpha", runs: "DPA"}, {cmd: "git grep alpha ../other", runs: ""},
	{cmd: "git describe --tags", runs: "DPA"}, {cmd: "git cat-file -p HEAD", runs: "DPA"}, {cmd: "git reflog", runs: "DPA"},
	{cmd: "git shortlog -sn", runs: "DPA"}, {cmd: "git merge-base HEAD HEAD", runs: "DPA"}, {cmd: "git rev-list --count HEAD", runs: "DPA"},
	{cmd: "git for-each-ref", runs: "DPA"}, {cmd: "git stash list", runs: "DPA"}, {cmd: "git stash", runs: ""},
	{cmd: "git worktree list", runs: "DPA"}, {cmd: "git config --get user.name", runs: "DPA"}, {cmd: "git config user.name x", runs: ""},
	{cmd: "git -C src status", runs: ""}, {cmd: "git --no-pager log", runs: ""},
	// Line shapes and wrappers.
	{cmd: "cat a.txt | grep alpha | wc -l", runs: "DPA"}, {cmd: "cat a.txt; ls", runs: "DPA"}, {cmd: "cat a.txt || true", runs: "DPA"},
	{cmd: "if true; then ls; fi", runs: "DPA"}, {cmd: "! ls", runs: "DPA"},
	{cmd: "(ls)", runs: ""}, {cmd: "{ ls; }", runs: ""}, {cmd: "ls &", runs: ""}, {cmd: "X=1 ls", runs: ""},
	{cmd: "cat $(echo a.txt)", runs: ""}, {cmd: "cat {a,b}.txt", runs: ""}, {cmd: "cat <<EOF\nhi\nEOF", runs: ""},
	{cmd: "for f in *.txt; do cat $f; done", runs: ""},
	{cmd: "timeout 5 ls", runs: "DPA"}, {cmd: "command ls", runs: "DPA"}, {cmd: "timeout 5 cat ../secret", runs: ""},
	{cmd: "nice ls", runs: ""}, {cmd: "bash -c ls", runs: ""},
	// Redirections.
	{cmd: "ls >/dev/null 2>&1", runs: "DPA"}, {cmd: "cat < a.txt", runs: "DPA"}, {cmd: "cat < ../secret", runs: ""},
	{cmd: "cat < a.txt b.txt", runs: ""}, {cmd: "echo x > redir3.txt ../secret", runs: ""},
	{cmd: "echo x > redir.txt", runs: "A"}, {cmd: "echo x >> redir2.txt", runs: "A"}, {cmd: "echo x > ../out.txt", runs: ""},
	{cmd: "echo x > .git/x", runs: ""}, {cmd: "echo x > link/o.txt", runs: ""}, {cmd: "echo x > gitlink/y", runs: ""},
	// acceptEdits writers.
	{cmd: "touch touched.txt", runs: "A"}, {cmd: "touch -c a.txt", runs: ""}, {cmd: "touch ../x", runs: ""},
	{cmd: "touch .claude/x", runs: ""}, {cmd: "touch lefthook.yml", runs: ""}, {cmd: "touch gitlink/x", runs: ""},
	{cmd: "mkdir -p made/sub", runs: "A"}, {cmd: "mkdir ../outd", runs: ""},
	{cmd: "rm rm-me.txt", runs: "A"}, {cmd: "rm -rf rmr", runs: "A"}, {cmd: "rm -rf .", runs: ""}, {cmd: "rm *.txt", runs: ""},
	{cmd: "rm .git/config", runs: ""},
	{cmd: "rmdir rmdir", runs: "A"}, {cmd: "rmdir ../other", runs: ""},
	{cmd: "cp cp-me.txt copied.txt", runs: "A"}, {cmd: "cp -r dir dir2", runs: ""}, {cmd: "cp ../secret s.txt", runs: ""},
	{cmd: "mv mv-me.txt moved.txt", runs: "A"}, {cmd: "mv -f a.txt c.txt", runs: ""}, {cmd: "mv a.txt ../c.txt", runs: ""},
	{cmd: "sed -i 's/a/b/' sed-me.txt", runs: "A"}, {cmd: "sed -i.bak 's/a/b/' a.txt", runs: ""},
	{cmd: "timeout 5 touch t.txt", runs: ""}, {cmd: "ln -s a.txt l", runs: ""}, {cmd: "chmod +x a.txt", runs: ""},
	{cmd: "echo x | tee out.txt", runs: ""},
	// cd: a session of its own, the cd that runs last, since it moves the
	// session's directory for the calls after it.
	{cmd: "cd ..", runs: "", group: "cd"}, {cmd: "cd src && git status", runs: "", group: "cd"},
	{cmd: "mkdir x && cd x", runs: "", group: "cd"}, {cmd: "cd src && touch n.txt", runs: "", group: "cd"},
	{cmd: "cd src && cat main.go", runs: "DPA", group: "cd"},
	// A line that makes a repository's files and runs git: a session of
	// its own, since a HEAD in the project would make every later git
	// call asked, were it to run.
	{cmd: "touch HEAD && git status", runs: "", group: "githead"},
}

// runUnaskedSession runs cases in one claude session in mode and reports
// how many calls it made and how many were not as expected.
func runUnaskedSession(t *testing.T, mode string, cases []unaskedE2E) (calls, failed int) {
	w, err := newWorld(unaskedFiles, map[string]string{"proj/link": "../other", "proj/gitlink": ".git"})
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv(envKeep) == "1" {
		t.Logf("kept in %s", w.root)
	} else {
		t.Cleanup(func() { os.RemoveAll(w.root) })
	}
	// The hook under test abstains: it reads its input and prints nothing.
	abstain := map[string]any{"PreToolUse": []any{map[string]any{"matcher": "Bash",
		"hooks": []any{map[string]any{"type": "command", "command": "cat >/dev/null"}}}}}
	if err := w.writeSettings(abstain); err != nil {
		t.Fatal(err)
	}
	var turns []turn
	for _, c := range cases {
		turns = append(turns, bash(c.cmd))
	}
	s, err := runClaude(env.claude, w, newFakeAPI(turns), mode, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.timedOut {
		t.Errorf("claude did not finish within %v; the calls without a tool_result follow", claudeTimeout)
	}
	table := hookio.Claude{}
	uenv := hookio.UnaskedEnv{Cwd: w.proj, Roots: []string{w.proj}, Resolve: resolve, Lstat: os.Lstat}
	letter := map[string]string{"default": "D", "plan": "P", "acceptEdits": "A"}[mode]
	for i, c := range cases {
		id := toolUseID(i)
		tr, hasResult := s.toolResult[id]
		if !hasResult {
			t.Errorf("%s %q: no tool_result (the session stopped early?); claude exit %d, stderr %s", mode, c.cmd, s.exitCode, tail(s.stderr, 500))
			failed++
			continue
		}
		calls++
		want := strings.Contains(c.runs, letter)
		host := s.post[id] != nil || s.postFail[id] != nil
		if host != want {
			failed++
			t.Errorf("%s %q: Claude Code %s ran it: %v, the table (testdata/hosts/claude/unasked.md) says %v; tool_result: %s",
				mode, c.cmd, env.claudeVersion, host, want, tail(tr.Text, 300))
		}
		// The table must give the same answer in this project (the
		// session's directory is still proj: the only cd that runs is
		// the last call of its session).
		if got := table.RunsUnasked(hookio.ParsePermissionMode(mode), c.cmd, uenv); got != want {
			failed++
			t.Errorf("%s %q: hookio RunsUnasked = %v, want %v", mode, c.cmd, got, want)
		}
	}
	return calls, failed
}

// resolve follows symbolic links in p as the kernel would: the deepest
// existing ancestor is resolved with EvalSymlinks, the rest joined to it.
func resolve(p string) string {
	rest := ""
	for {
		r, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(r, rest)
		}
		if !errors.Is(err, fs.ErrNotExist) || p == "/" {
			return "" // cannot be resolved: inside no root
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = filepath.Dir(p)
	}
}
