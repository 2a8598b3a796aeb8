//go:build e2e

package e2e

// The repository as a Claude Code plugin: .claude-plugin/plugin.json,
// .claude-plugin/marketplace.json (a marketplace of this one plugin, source
// "./"), hooks/hooks.json (PreToolUse, matcher "*", onFailure: block) and
// hooks/safezone-hook, the launcher that execs the installed safezone or,
// when there is none, blocks every call with a deny that says how to install
// it.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// pluginLoad is how a case gives Claude Code the plugin.
type pluginLoad uint8

const (
	pluginDir      pluginLoad = iota // claude --plugin-dir <module root>
	pluginDirSpace                   // --plugin-dir on a copy of the plugin's files in "ROOT/plugin copy"
	marketplace                      // claude plugin marketplace add <module root>, then claude plugin install safezone@safezone, in the case's HOME
)

func (l pluginLoad) String() string {
	return [...]string{pluginDir: "plugin-dir", pluginDirSpace: "plugin-dir-with-space", marketplace: "marketplace"}[l]
}

// pluginFiles are the files the plugin is made of, relative to the module
// root; the rest of the repository is only carried along.
var pluginFiles = []string{".claude-plugin/plugin.json", "hooks/hooks.json", "hooks/safezone-hook"}

// installHint is the part of the launcher's reason that says how to install
// safezone.
const installHint = "go install github.com/safezonehq/safezone@latest"

// TestClaudeCodePluginValidate runs `claude plugin validate` on the module
// root, which checks plugin.json, marketplace.json and hooks/hooks.json. It
// passes with a warning: plugin.json has no "version", on purpose, so that
// Claude Code takes each commit as a new version of the plugin.
func TestClaudeCodePluginValidate(t *testing.T) {
	if env.skip != "" {
		fmt.Println("SKIPPED: e2e:", env.skip)
		t.Skip(env.skip)
	}
	root := moduleRoot(t)
	w, err := newWorld(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(w.root) })
	out, err := claudePlugin(w, "validate", root)
	if err != nil {
		t.Fatal(err)
	}
	// The hook must be there as hooks.json has it, not only parse.
	want := `hooks: PreToolUse * command "/bin/sh \"${CLAUDE_PLUGIN_ROOT}/hooks/safezone-hook\""`
	if !bytes.Contains(out, []byte("Validation passed")) || !bytes.Contains(out, []byte(want)) {
		t.Errorf("claude plugin validate %s: want %q and %q in:\n%s", root, "Validation passed", want, out)
	}
}

func moduleRoot(t *testing.T) string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatalf("finding the module root: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// installed says which safezone the launcher finds.
type installed uint8

const (
	notInstalled installed = iota // no PATH entry holds a safezone, and the case's HOME has no go/bin
	normalOnPath                  // the test build, first on PATH
	brokenOnPath                  // the build that exits 1, as safezone first on PATH
)

type pluginCase struct {
	name   string
	bin    installed
	turns  func(w *world) []turn
	effect func(w *world, result string) bool
	want   outcome // in bypassPermissions mode
	reason string  // must appear in the tool_result of a safezone deny
}

var pluginCases = []pluginCase{
	{
		name:   "write-outside",
		bin:    normalOnPath,
		turns:  func(w *world) []turn { return []turn{write("../outside.txt", "pwned\n")} },
		effect: func(w *world, _ string) bool { return w.exists("outside.txt") },
		want:   sfDeny,
		reason: "outside the sandbox",
	},
	{
		name:   "write-inside",
		bin:    normalOnPath,
		turns:  func(w *world) []turn { return []turn{write("notes/new.txt", "hello\n")} },
		effect: func(w *world, _ string) bool { return w.contains("proj/notes/new.txt", "hello") },
		want:   ran,
	},
	{
		// Without the binary the plugin must not fall open: the Write inside
		// the project, which safezone would allow, is blocked too.
		name:   "write-inside-not-installed",
		bin:    notInstalled,
		turns:  func(w *world) []turn { return []turn{write("notes/new.txt", "hello\n")} },
		effect: func(w *world, _ string) bool { return w.exists("proj/notes/new.txt") },
		want:   sfDeny,
		reason: installHint,
	},
	{
		// The launcher execs a safezone that exits 1: the plugin entry's
		// onFailure: block must stop the call.
		name:   "write-outside-broken-build",
		bin:    brokenOnPath,
		turns:  func(w *world) []turn { return []turn{write("../outside.txt", "pwned\n")} },
		effect: func(w *world, _ string) bool { return w.exists("outside.txt") },
		want:   hookFailed,
	},
}

// TestClaudeCodePlugin runs every plugin case under each way of loading the
// plugin, in bypassPermissions mode, where nothing but the hook stands
// between the model and the disk. The cases run one at a time: each sets
// PATH, which the claude process and so the launcher inherit.
//
// The plugin files are read from the module root as they are on disk,
// committed or not.
func TestClaudeCodePlugin(t *testing.T) {
	if env.skip != "" {
		fmt.Println("SKIPPED: e2e:", env.skip)
		t.Skip(env.skip)
	}
	root := moduleRoot(t)
	path, err := pathWithout("safezone", os.Getenv("PATH"))
	if err != nil {
		t.Skip(err)
	}
	for _, load := range []pluginLoad{pluginDir, pluginDirSpace, marketplace} {
		for _, c := range pluginCases {
			t.Run(load.String()+"/"+c.name, func(t *testing.T) {
				runPluginCase(t, root, path, load, &c)
			})
		}
	}
}

// pathWithout returns list without the entries that hold an executable
// named name (or name.exe). It fails when such an entry also holds sh,
// which the hook command needs.
func pathWithout(name, list string) (string, error) {
	var kept []string
	for _, dir := range filepath.SplitList(list) {
		if isExecutable(filepath.Join(dir, name)) || isExecutable(filepath.Join(dir, name+".exe")) {
			if isExecutable(filepath.Join(dir, "sh")) {
				return "", fmt.Errorf("%s is installed in %s, which also holds sh: the not-installed cases cannot hide it", name, dir)
			}
			continue
		}
		kept = append(kept, dir)
	}
	return strings.Join(kept, string(os.PathListSeparator)), nil
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// runPluginCase runs c with the plugin loaded as load, and checks the
// outcome. path is the PATH without any safezone; the case's safezone, if
// any, goes before it.
func runPluginCase(t *testing.T, root, path string, load pluginLoad, c *pluginCase) {
	w, err := newWorld(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv(envKeep) == "1" {
		t.Logf("kept in %s", w.root)
	} else {
		t.Cleanup(func() { os.RemoveAll(w.root) })
	}
	switch c.bin {
	case normalOnPath:
		path = filepath.Dir(env.safezone) + string(os.PathListSeparator) + path
	case brokenOnPath:
		dir := w.path("broken-bin")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(env.broken, filepath.Join(dir, "safezone")); err != nil {
			t.Fatal(err)
		}
		path = dir + string(os.PathListSeparator) + path
	}
	// The claude process, and so the launcher, inherit PATH.
	t.Setenv("PATH", path)
	// Only the recorders: the safezone hook comes from the plugin alone.
	if err := w.writeSettings(map[string]any{}); err != nil {
		t.Fatal(err)
	}
	var extra []string
	switch load {
	case pluginDir:
		extra = []string{"--plugin-dir", root}
	case pluginDirSpace:
		dir := w.path("plugin copy")
		if err := copyFiles(root, dir, pluginFiles); err != nil {
			t.Fatal(err)
		}
		extra = []string{"--plugin-dir", dir}
	case marketplace:
		if _, err := claudePlugin(w, "marketplace", "add", root); err != nil {
			t.Fatal(err)
		}
		if _, err := claudePlugin(w, "install", "safezone@safezone"); err != nil {
			t.Fatal(err)
		}
	}
	turns := c.turns(w)
	probe := len(turns) - 1
	tc := &testCase{name: c.name, effect: c.effect}
	s, err := runClaude(env.claude, w, newFakeAPI(turns), "bypassPermissions", extra)
	if err != nil {
		t.Fatal(err)
	}
	got := observe(tc, w, s, probe)
	id := toolUseID(probe)
	tr, hasResult := s.toolResult[id]
	t.Logf("%s: tool_result (is_error=%v): %s", got, tr.IsError, tr.Text)
	problem := ""
	switch {
	case s.timedOut:
		problem = fmt.Sprintf("claude did not finish within %v", claudeTimeout)
	case got != c.want:
		problem = fmt.Sprintf("expected %s, observed %s", c.want, got)
	case c.reason != "" && !strings.Contains(tr.Text, c.reason):
		problem = fmt.Sprintf("the reason does not say %q", c.reason)
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
	fmt.Fprintf(&b, "  project: %s", w.root)
	t.Error(b.String())
}

// claudePlugin runs `claude plugin ARGS...` with the case's HOME and the
// environment runClaude gives a session, and returns its output. The fake API
// stands in for api.anthropic.com: without it, these commands wait about
// 20 s for name lookups that an offline machine never answers.
func claudePlugin(w *world, args ...string) ([]byte, error) {
	api := newFakeAPI(nil)
	base, err := api.start()
	if err != nil {
		return nil, err
	}
	defer api.close()
	ctx, cancel := context.WithTimeout(context.Background(), claudeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, env.claude, append([]string{"plugin"}, args...)...)
	cmd.Dir = w.proj
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + w.home, "LANG=C.UTF-8", "SHELL=/bin/bash",
		"TMPDIR=" + os.TempDir(), "USER=" + os.Getenv("USER"),
		"ANTHROPIC_BASE_URL=" + base, "ANTHROPIC_API_KEY=dummy",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1",
		"DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1",
	}
	var output bytes.Buffer
	cmd.Stdout, cmd.Stderr = &output, &output
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("claude plugin %s: %v\n%s", strings.Join(args, " "), err, output.Bytes())
	}
	return output.Bytes(), nil
}

// copyFiles copies each of names from src to dst, keeping its mode.
func copyFiles(src, dst string, names []string) error {
	for _, name := range names {
		from, to := filepath.Join(src, name), filepath.Join(dst, name)
		fi, err := os.Stat(from)
		if err != nil {
			return err
		}
		if !fi.Mode().IsRegular() {
			return &fs.PathError{Op: "copy", Path: from, Err: errors.New("not a regular file")}
		}
		data, err := os.ReadFile(from)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(to, data, fi.Mode().Perm()); err != nil {
			return err
		}
	}
	return nil
}
