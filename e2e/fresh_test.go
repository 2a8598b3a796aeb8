//go:build e2e

package e2e

// The README's quick start from a fresh clone, through the plugin: clone the
// committed HEAD, install it as the README says, run safezone init, validate
// and doctor in a new project, then run one Claude Code session with the
// plugin loaded from the clone.

import (
	"bytes"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestClaudeCodeFreshClone checks the "done when": on a fresh clone,
// the README's install, `safezone init` and one Claude Code session with the
// plugin block a Write outside the project, and let a Write inside run.
//
// It tests what is committed: uncommitted changes of the module root are not
// in the clone. The install runs with GOPROXY=off, so it fails rather than
// download anything; the modules come from this machine's module cache.
func TestClaudeCodeFreshClone(t *testing.T) {
	if env.skip != "" {
		fmt.Println("SKIPPED: e2e:", env.skip)
		t.Skip(env.skip)
	}
	for _, tool := range []string{"git", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			fmt.Printf("SKIPPED: e2e: fresh clone: %s is not on PATH\n", tool)
			t.Skipf("%s is not on PATH", tool)
		}
	}
	path, err := pathWithout("safezone", os.Getenv("PATH"))
	if err != nil {
		fmt.Println("SKIPPED: e2e: fresh clone:", err)
		t.Skip(err)
	}
	root := moduleRoot(t)
	// Under the cache directory, as the confinement cases: the default
	// policy that init writes confines commands, which may write in the
	// temporary directories.
	base, err := runRoots()
	if err != nil {
		t.Fatal(err)
	}
	w, err := newWorldIn(base, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv(envKeep) == "1" {
		t.Logf("kept in %s", w.root)
	} else {
		t.Cleanup(func() { os.RemoveAll(w.root) })
	}
	start := time.Now()
	step := func(name string) {
		t.Logf("%5.1fs %s", time.Since(start).Seconds(), name)
	}

	// 1. The fresh clone.
	clone := w.path("clone")
	if _, err := command("", nil, "git", "clone", "--quiet", root, clone); err != nil {
		t.Fatal(err)
	}
	head, _ := command(clone, nil, "git", "rev-parse", "--short", "HEAD")
	step("cloned " + root + " at " + strings.TrimSpace(head))
	if dirty, _ := command(root, nil, "git", "status", "--porcelain", "--untracked-files=no"); dirty != "" {
		t.Logf("%s has uncommitted changes; they are not in the clone", root)
	}

	// 2. The README's install, in the clone: go install . ./cmd/safezone-proxy
	// GOBIN puts the binary in the run's root instead of ~/go/bin.
	bin := w.path("bin")
	goEnv := append(os.Environ(), "GOBIN="+bin, "GOPROXY=off")
	if _, err := command(clone, goEnv, "go", "install", ".", "./cmd/safezone-proxy"); err != nil {
		t.Fatal(err)
	}
	installed := filepath.Join(bin, "safezone")
	if runtime.GOOS == "linux" {
		// The README: a plain build is static (no net, no libc).
		if interp, err := elfInterpreter(installed); err != nil {
			t.Fatal(err)
		} else if interp {
			t.Errorf("%s is linked dynamically (it has a PT_INTERP program header), not static as the README says of a plain go install", installed)
		}
	}
	step("installed " + installed)

	// The install's bin directory first, then a PATH without any other
	// safezone: for safezone init, and for the claude process and so the
	// plugin's launcher.
	t.Setenv("PATH", bin+string(os.PathListSeparator)+path)
	onPath, err := exec.LookPath("safezone")
	if err != nil || onPath != installed {
		t.Fatalf("safezone on PATH is %q (%v), want %s", onPath, err, installed)
	}

	// 3. A new project, a git repository. The recorder hooks go in
	// settings.local.json, so that init finds the project without a
	// .claude/settings.json, as a new user's is.
	if _, err := command(w.proj, nil, "git", "init", "--quiet"); err != nil {
		t.Fatal(err)
	}
	if err := w.writeSettings(map[string]any{}); err != nil {
		t.Fatal(err)
	}
	settings := filepath.Join(w.proj, ".claude", "settings.json")
	if err := os.Rename(settings, filepath.Join(w.proj, ".claude", "settings.local.json")); err != nil {
		t.Fatal(err)
	}
	// As the README has it: cd your-project && safezone init, then
	// safezone validate && safezone doctor. In the case's HOME and a clean
	// environment, as the session gets: nothing of the caller's (a
	// CLAUDE_PROJECT_DIR, XDG directories) leaks in.
	quick := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + w.home, "LANG=C.UTF-8", "TMPDIR=" + os.TempDir(), "USER=" + os.Getenv("USER")}
	out, err := command(w.proj, quick, "safezone", "init")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("safezone init:\n%s", out)
	for _, f := range []struct{ name, says string }{
		{".safezone.yaml", "created: adds nothing to the built-in default yet"},
		{".claude/settings.json", "created; registered " + installed},
		{"agent_sandbox/.gitignore", "created"},
		{".gitignore", "ignores .safezone.local.yaml"},
	} {
		if !strings.Contains(out, f.name+": "+f.says) {
			t.Errorf("safezone init does not say %q", f.name+": "+f.says)
		}
		if _, err := os.Stat(filepath.Join(w.proj, f.name)); err != nil {
			t.Errorf("safezone init: %v", err)
		}
	}
	for _, sub := range []string{"validate", "doctor"} {
		out, err := command(w.proj, quick, "safezone", sub)
		t.Logf("safezone %s:\n%s", sub, out)
		if err != nil {
			t.Error(err)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	step("safezone init, validate, doctor")

	// 4. One session with the plugin loaded from the clone. init's
	// registration in .claude/settings.json stays: that is the README's
	// set-up, so safezone runs twice for each call (see README.md). The
	// Write inside runs first (a set-up call that must run), then the Write
	// outside, the call under test.
	turns := []turn{write("notes/new.txt", "hello\n"), write("../outside.txt", "pwned\n")}
	probe := len(turns) - 1
	tc := &testCase{name: "fresh-clone", effect: func(w *world, _ string) bool { return w.exists("outside.txt") }}
	debug := w.path("claude-debug.txt")
	s, err := runClaude(env.claude, w, newFakeAPI(turns), "bypassPermissions", []string{"--plugin-dir", clone, "--debug-file", debug})
	if err != nil {
		t.Fatal(err)
	}
	step("claude session")
	got := observe(tc, w, s, probe)
	id := toolUseID(probe)
	tr, hasResult := s.toolResult[id]
	t.Logf("Write ../outside.txt: %s: tool_result (is_error=%v): %s", got, tr.IsError, tr.Text)
	// The rule, from the embedded default: the policy file init wrote adds
	// nothing to it.
	reason := "outside the sandbox (" + w.proj + "); sandbox.outside_write is deny (<embedded default>:"
	// Both registrations give the same answer and the model gets one
	// reason, so only Claude Code's debug log tells that the plugin's hook
	// decided, and not init's alone. Its lines (Claude Code 2.1.330):
	//   Hook PreToolUse (COMMAND) returned permissionDecision: allow (reason: ...)
	debugLog, err := os.ReadFile(debug)
	if err != nil {
		t.Fatal(err)
	}
	decided := func(command, decision string) int {
		return strings.Count(string(debugLog), "Hook PreToolUse ("+command+") returned permissionDecision: "+decision+" ")
	}
	plugin := `/bin/sh "${CLAUDE_PLUGIN_ROOT}/hooks/safezone-hook"`
	t.Logf("decisions in claude's debug log: plugin %d allow, %d deny; init's registration %d allow, %d deny",
		decided(plugin, "allow"), decided(plugin, "deny"), decided(installed, "allow"), decided(installed, "deny"))
	problem := ""
	switch {
	case s.timedOut:
		problem = fmt.Sprintf("claude did not finish within %v", claudeTimeout)
	case got == setupFailed:
		problem = "the Write inside the project (notes/new.txt) did not run"
	case got != sfDeny:
		problem = fmt.Sprintf("the Write outside the project: expected %s, observed %s", sfDeny, got)
	case !strings.Contains(tr.Text, reason):
		problem = fmt.Sprintf("safezone's reason does not say %q", reason)
	case !w.contains("proj/notes/new.txt", "hello"):
		problem = "proj/notes/new.txt was not written"
	case decided(plugin, "allow") != 1 || decided(plugin, "deny") != 1:
		problem = fmt.Sprintf("claude's debug log does not show the plugin's hook (%s) allowing the Write inside and denying the one outside", plugin)
	}
	if problem == "" {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", problem)
	fmt.Fprintf(&b, "  hook stdin:  %s\n", orNone(string(s.pre[id])))
	if hasResult {
		fmt.Fprintf(&b, "  tool_result: (is_error=%v) %s\n", tr.IsError, tr.Text)
	} else {
		fmt.Fprintf(&b, "  tool_result: (none)\n")
	}
	fmt.Fprintf(&b, "  PostToolUse fired: %v, PostToolUseFailure fired: %v\n", s.post[id] != nil, s.postFail[id] != nil)
	fmt.Fprintf(&b, "  claude: exit %d, %d API requests, %.1fs, result %q\n", s.exitCode, s.requests, s.seconds, tail(s.result, 300))
	fmt.Fprintf(&b, "  claude stderr (tail): %s\n", orNone(tail(s.stderr, 1500)))
	if os.Getenv(envKeep) == "1" {
		fmt.Fprintf(&b, "  root: %s (kept; claude's debug log is %s)", w.root, debug)
	} else {
		fmt.Fprintf(&b, "  root: %s (removed; set %s=1 to keep it)", w.root, envKeep)
	}
	t.Error(b.String())
}

// command runs name with args in dir (the test's directory when ""), with
// the environment env (the test's when nil), and returns its standard
// output. The error carries the standard error.
func command(dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, stdout.Bytes(), stderr.Bytes())
	}
	return stdout.String(), nil
}

// elfInterpreter reports whether the ELF file at p names a program
// interpreter, that is, whether it is linked dynamically.
func elfInterpreter(p string) (bool, error) {
	f, err := elf.Open(p)
	if err != nil {
		return false, err
	}
	defer f.Close()
	for _, prog := range f.Progs {
		if prog.Type == elf.PT_INTERP {
			return true, nil
		}
	}
	return false, nil
}
