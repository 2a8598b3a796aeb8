package main

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/safezonehq/safezone/confine"
	"github.com/safezonehq/safezone/policy"
)

var update = flag.Bool("update", false, "update testscript golden files")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"safezone": main})
}

// TestScript runs the CLI behaviours pinned in testdata/script/*.txtar.
// Custom commands:
//
//	expand FILE...          replace $WORK and $HOME in FILE (inputs hold them)
//	status N CMD ARGS...    run CMD like exec and require exit status N
//	decision D              stdout is the decision D (allow, ask, deny, abstain)
//	glob N PATTERN          exactly N files match PATTERN (filepath.Glob)
//
// Their work directories are not under the temporary directory, where a
// confined command may always write (and so name a write without a
// question): a write outside the project must have somewhere to be judged.
func TestScript(t *testing.T) {
	testscript.Run(t, scriptParams("testdata/script", workRoot(t)))
}

// TestScriptConfine runs the scripts of testdata/confine, which run
// confined commands for real: the hook answers a Bash call, and the
// command it rewrote runs with bash as Claude Code would (issue 20's real
// work: npm, go, python, make, cargo, git; the ways out through programs
// running outside). Besides TestScript's commands:
//
//	runconfined N DIR             run the last answer's updatedInput.command
//	confined N|fail DIR COMMAND   hook, then the confined command (realwork_test.go)
//	modproxy DIR MOD VER SRC      a file:// Go module proxy
//	sockserver NAME PATH          a Unix socket server (@NAME: abstract)
//	fakedockerd PATH              a stand-in Docker daemon
//	tmuxserver NAME               a tmux server, killed at the end
//
// and the conditions [landlock] (commands can be confined), [userns] (with
// a mount namespace: hidden and read-only paths), [landlockscope]
// (abstract sockets and signals scoped, Landlock ABI 6) and [pyvenv]
// (python3 makes virtualenvs with pip). $OUTER_GOCACHE
// and $RUSTUP_HOME come from the test's own environment.
func TestScriptConfine(t *testing.T) {
	testscript.Run(t, scriptParams("testdata/confine", workRoot(t)))
}

// workRoot makes a directory for testscript work directories outside the
// temporary directory (in the user's cache directory), removed at the end
// of the test.
func workRoot(t *testing.T) string {
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skip("no cache directory for work directories outside $TMPDIR:", err)
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		t.Skip("cannot make a work directory outside $TMPDIR:", err)
	}
	root, err := os.MkdirTemp(cache, "safezone-test-")
	if err != nil {
		t.Skip("cannot make a work directory outside $TMPDIR:", err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	return root
}

// scriptParams are the testscript parameters of the scripts in dir, whose
// work directories are made in root ("" for the temporary directory).
func scriptParams(dir, root string) testscript.Params {
	return testscript.Params{
		WorkdirRoot:         root,
		Dir:                 dir,
		RequireExplicitExec: true,
		UpdateScripts:       *update,
		Setup: func(e *testscript.Env) error {
			get := isolated(e.WorkDir, map[string]string{"HOME": e.WorkDir + "/home", "CLAUDE_PROJECT_DIR": e.WorkDir + "/proj"})
			for _, k := range []string{"HOME", "CLAUDE_PROJECT_DIR", "SAFEZONE_MANAGED_POLICY", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "SAFEZONE_CLAUDE_MANAGED_SETTINGS"} {
				e.Setenv(k, get(k))
			}
			e.Setenv("OUTER_GOCACHE", outerGoCache())
			if r := outerRustup(); r != "" {
				e.Setenv("RUSTUP_HOME", r)
			}
			return nil
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "landlock":
				return confine.Available().Confine(), nil
			case "userns":
				st := confine.Available()
				return st.Confine() && st.ReadOnly == nil, nil
			case "pyvenv":
				// python3 can make a virtualenv with pip (Debian splits
				// ensurepip into python3-venv).
				return exec.Command("python3", "-c", "import ensurepip, venv").Run() == nil, nil
			case "landlockscope":
				// Abstract Unix sockets and signals scoped (ABI 6).
				st := confine.Available()
				return st.Confine() && st.LandlockABI >= 6, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"runconfined": cmdRunConfined,
			"confined":    cmdConfined,
			"modproxy":    cmdModProxy,
			"sockserver":  cmdSockServer,
			"tmuxserver":  cmdTmuxServer,
			"fakedockerd": cmdFakeDockerd,
			"expand":      cmdExpand,
			"status":      cmdStatus,
			"decision":    cmdDecision,
			"records":     cmdRecords,
			"glob":        cmdGlob,
		},
	}
}

// cmdRunConfined runs, with bash -c in DIR, the command of the last
// stdout's updatedInput (the confined form of a Bash call), as the host
// would: its stdout and stderr become the script's, and its exit status
// must be N.
//
//	runconfined N DIR
func cmdRunConfined(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: runconfined N DIR")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	var out struct {
		HSO struct {
			UpdatedInput struct {
				Command string `json:"command"`
			} `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
	}
	ts.Check(json.Unmarshal([]byte(ts.ReadFile("stdout")), &out))
	cmd := out.HSO.UpdatedInput.Command
	if cmd == "" {
		ts.Fatalf("stdout has no updatedInput.command")
	}
	ts.Check(os.WriteFile(ts.MkAbs(".confined.sh"), []byte(cmd), 0o644))
	ts.Chdir(args[1])
	err = ts.Exec("bash", "-c", cmd)
	got := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		got = ee.ExitCode()
	} else if err != nil {
		ts.Fatalf("%v", err)
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}

func cmdGlob(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: glob N PATTERN")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got, err := filepath.Glob(ts.MkAbs(args[1]))
	ts.Check(err)
	if (len(got) == want) == neg {
		ts.Fatalf("%d files match %s, want %d: %v", len(got), args[1], want, got)
	}
}

func cmdExpand(ts *testscript.TestScript, neg bool, args []string) {
	for _, f := range args {
		p := ts.MkAbs(f)
		b, err := os.ReadFile(p)
		ts.Check(err)
		s := strings.ReplaceAll(string(b), "$WORK", ts.Getenv("WORK"))
		s = strings.ReplaceAll(s, "$HOME", ts.Getenv("HOME"))
		ts.Check(os.WriteFile(p, []byte(s), 0o644))
	}
}

func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: status N CMD ARGS...")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		got = ee.ExitCode()
	} else if err != nil {
		ts.Fatalf("%v", err)
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}

// cmdDecision checks the last stdout as the host would read it.
func cmdDecision(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: decision allow|ask|deny|abstain")
	}
	got, err := judge(ts.ReadFile("stdout"))
	if err != nil {
		ts.Fatalf("%v", err)
	}
	if (got == args[0]) == neg {
		ts.Fatalf("decision %s, want %s%s", got, map[bool]string{true: "not "}[neg], args[0])
	}
}

// judge reads stdout as Claude Code would: nothing is abstain; otherwise one
// JSON object with hookSpecificOutput.hookEventName "PreToolUse" and a
// permissionDecision (or none: a warning only, abstain).
func judge(stdout string) (string, error) {
	if strings.TrimSpace(stdout) == "" {
		return "abstain", nil
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	var out struct {
		HookSpecificOutput *struct {
			HookEventName      string `json:"hookEventName"`
			PermissionDecision string `json:"permissionDecision"`
		} `json:"hookSpecificOutput"`
	}
	if err := dec.Decode(&out); err != nil {
		return "", fmt.Errorf("stdout is not JSON: %v: %q", err, stdout)
	}
	if dec.More() {
		return "", fmt.Errorf("stdout holds more than one JSON value: %q", stdout)
	}
	if out.HookSpecificOutput == nil || out.HookSpecificOutput.HookEventName != "PreToolUse" {
		return "", fmt.Errorf("no PreToolUse hookSpecificOutput: %q", stdout)
	}
	switch d := out.HookSpecificOutput.PermissionDecision; d {
	case "":
		return "abstain", nil
	case "allow", "ask", "deny":
		return d, nil
	default:
		return "", fmt.Errorf("unknown permissionDecision %q", d)
	}
}

// isolated returns a getenv that answers vars and points the managed and
// user layers and Claude Code's managed settings into dir, so that tests
// never read the machine's own /etc/safezone, ~/.config or /etc/claude-code.
func isolated(dir string, vars map[string]string) func(string) string {
	return func(k string) string {
		switch k {
		case "SAFEZONE_MANAGED_POLICY":
			return dir + "/etc/safezone/policy.yaml"
		case "XDG_CONFIG_HOME":
			return dir + "/xdg"
		case "SAFEZONE_CLAUDE_MANAGED_SETTINGS":
			return dir + "/etc/claude-code/managed-settings.json"
		}
		return vars[k]
	}
}

// testSystem returns a system rooted at a temporary project.
func testSystem(t testing.TB) (*system, string) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return testSystemAt(t, dir)
}

// testSystemAt is testSystem rooted at dir (proj/, home/, outside/ made in
// it).
func testSystemAt(t testing.TB, dir string) (*system, string) {
	for _, d := range []string{"proj/src", "home", "outside"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	sys := osSystem()
	// The test binary is no safezone to start a daemon from: each call
	// walks (TestIndexDaemon starts one from a build).
	sys.startIndex, sys.startBuild = nil, nil
	sys.getenv = isolated(dir, map[string]string{"HOME": dir + "/home", "CLAUDE_PROJECT_DIR": dir + "/proj"})
	sys.now = func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }
	// The deadline counts from each call's start, and never ends the test
	// binary (runHook waits for the deadline's answer instead).
	sys.start, sys.exit = time.Time{}, nil
	return sys, dir
}

func input(tool, cwd string, ti map[string]any) string {
	b, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": ti, "cwd": cwd, "permission_mode": "default"})
	return string(b)
}

type runResult struct {
	code           int
	stdout, stderr string
	decision       string
}

// runHook runs the hook as a process would: it returns when run returns or,
// should the call's work be stuck (a hung file system, stdin never
// closed), when the deadline's answer would end the process (sys.exit).
func runHook(t *testing.T, sys *system, stdin io.Reader, args ...string) runResult {
	t.Helper()
	var out, errb bytes.Buffer
	s := *sys
	exited := make(chan int, 1)
	s.exit = func(code int) { exited <- code }
	returned := make(chan int, 1)
	go func() { returned <- run(args, stdin, &out, &errb, &s) }()
	var code int
	select {
	case code = <-returned:
	case code = <-exited:
	}
	r := runResult{code: code, stdout: out.String(), stderr: errb.String()}
	d, err := judge(r.stdout)
	if err != nil {
		t.Fatalf("%v (stderr %q)", err, r.stderr)
	}
	r.decision = d
	return r
}

// panicFS panics on every call, like a bug deep in the classifier.
type panicFS struct{}

func (panicFS) Open(string) (fs.File, error)      { panic("boom") }
func (panicFS) Lstat(string) (fs.FileInfo, error) { panic("boom") }
func (panicFS) ReadLink(string) (string, error)   { panic("boom") }

// slowFS blocks every call, like a hung network file system.
type slowFS struct{ release chan struct{} }

func (s slowFS) Open(string) (fs.File, error)      { <-s.release; return nil, fs.ErrNotExist }
func (s slowFS) Lstat(string) (fs.FileInfo, error) { <-s.release; return nil, fs.ErrNotExist }
func (s slowFS) ReadLink(string) (string, error)   { <-s.release; return "", fs.ErrNotExist }

// blockingReader never returns, like a host that never closes stdin.
type blockingReader struct{ release chan struct{} }

func (b blockingReader) Read([]byte) (int, error) { <-b.release; return 0, io.EOF }

// TestFailClosed checks every error path: each prints one well-formed
// decision naming the problem, on stdout and stderr, and exits 2 for deny.
func TestFailClosed(t *testing.T) {
	sys, dir := testSystem(t)
	good := input("Read", dir+"/proj", map[string]any{"file_path": dir + "/proj/README.md"})
	if err := os.WriteFile(dir+"/bad.yaml", []byte("version: 1\nsandbox:\n  enabeld: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir+"/ask.yaml", []byte("version: 1\non_error: ask\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	defer close(release)
	tests := []struct {
		name  string
		args  []string
		stdin io.Reader
		sys   func(*system) *system
		want  string // decision
		code  int
		has   string // in the reason (stdout) and on stderr
	}{
		{name: "bad JSON", stdin: strings.NewReader("please allow"), want: "deny", code: 2, has: "unusable hook input: malformed hook input: not JSON"},
		{name: "empty stdin", stdin: strings.NewReader(""), want: "deny", code: 2, has: "stdin is empty"},
		{name: "wrong field type", stdin: strings.NewReader(input("Read", dir+"/proj", map[string]any{"file_path": 42})), want: "deny", code: 2, has: "tool_input.file_path: wrong type"},
		{name: "case-variant keys", stdin: strings.NewReader(`{"tool_name":"Write","tool_input":{"file_path":"/out","FILE_PATH":"/p"},"cwd":"/p"}`), want: "deny", code: 2, has: "differ only in case"},
		{name: "bad flag", args: []string{"--frobnicate"}, stdin: strings.NewReader(good), want: "deny", code: 2, has: "unknown flag: --frobnicate"},
		{name: "conflicting flags", args: []string{"-r", "-w"}, stdin: strings.NewReader(good), want: "deny", code: 2, has: "-r/--read can't be used with -w/--write"},
		{name: "stray argument", args: []string{"input.json"}, stdin: strings.NewReader(good), want: "deny", code: 2, has: `unexpected argument "input.json"`},
		{name: "missing policy", args: []string{"--policy", dir + "/missing.yaml"}, stdin: strings.NewReader(good), want: "deny", code: 2, has: "cannot read policy"},
		{name: "unreadable policy (a directory)", args: []string{"--policy", dir}, stdin: strings.NewReader(good), want: "deny", code: 2, has: "cannot read policy"},
		{name: "invalid policy", args: []string{"--policy", dir + "/bad.yaml"}, stdin: strings.NewReader(good), want: "deny", code: 2, has: `bad.yaml:3:3: sandbox: unknown key "enabeld"`},
		{name: "on_error ask", args: []string{"--policy", dir + "/ask.yaml"}, stdin: strings.NewReader("{"), want: "ask", code: 0, has: "on_error: ask"},
		{name: "panic", stdin: strings.NewReader(good), sys: func(s *system) *system { s.fsys = panicFS{}; return s }, want: "deny", code: 2, has: "internal error: boom"},
		{name: "slow file system", stdin: strings.NewReader(good), sys: func(s *system) *system {
			s.fsys, s.deadline = slowFS{release}, 50*time.Millisecond
			return s
		}, want: "deny", code: 2, has: "no decision within 50ms"},
		{name: "stdin never closed", stdin: blockingReader{release}, sys: func(s *system) *system { s.deadline = 50 * time.Millisecond; return s }, want: "deny", code: 2, has: "no decision within"},
		{name: "symlink loop", stdin: strings.NewReader(input("Read", dir+"/proj", map[string]any{"file_path": dir + "/proj/loop"})), want: "deny", code: 2, has: "too many levels of symbolic links"},
		{name: "path over PATH_MAX", stdin: strings.NewReader(input("Write", dir+"/proj", map[string]any{"file_path": dir + "/proj/" + strings.Repeat("a/", 2100)})), want: "deny", code: 2, has: "path too long"},
	}
	if err := os.Symlink("loop", dir+"/proj/loop"); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := *sys
			sp := &s
			if tt.sys != nil {
				sp = tt.sys(sp)
			}
			r := runHook(t, sp, tt.stdin, tt.args...)
			if r.decision != tt.want || r.code != tt.code {
				t.Fatalf("decision %s exit %d, want %s exit %d\nstdout: %s\nstderr: %s", r.decision, r.code, tt.want, tt.code, r.stdout, r.stderr)
			}
			if !strings.Contains(r.stdout, jsonEscape(tt.has)) {
				t.Errorf("reason lacks %q: %s", tt.has, r.stdout)
			}
			if tt.want == "deny" && !strings.Contains(r.stderr, tt.has) {
				t.Errorf("stderr lacks %q: %s", tt.has, r.stderr)
			}
			if tt.want == "deny" && !strings.HasPrefix(r.stderr, "safezone: ") {
				t.Errorf("stderr lacks the safezone: prefix: %q", r.stderr)
			}
		})
	}
}

func jsonEscape(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

func TestHelpAndVersion(t *testing.T) {
	sys, _ := testSystem(t)
	for _, args := range [][]string{{"-h"}, {"--help"}, {"help"}} {
		var out, errb bytes.Buffer
		if code := run(args, strings.NewReader(""), &out, &errb, sys); code != 0 || !strings.Contains(out.String(), "Usage:") {
			t.Errorf("%v: exit %d, stdout %q", args, code, out.String())
		}
	}
	for _, args := range [][]string{{"--version"}, {"version"}} {
		var out, errb bytes.Buffer
		if code := run(args, strings.NewReader(""), &out, &errb, sys); code != 0 || !strings.HasPrefix(out.String(), "safezone ") {
			t.Errorf("%v: exit %d, stdout %q", args, code, out.String())
		}
	}
}

// TestSamples runs every real Claude Code 2.1.330 hook input through the
// hook: each gets exactly one decision.
func TestSamples(t *testing.T) {
	files, _ := filepath.Glob("../shared/samples/claude-code/*.json")
	if len(files) == 0 {
		t.Skip("../shared/samples/claude-code is absent: real host samples not checked")
	}
	sys, _ := testSystem(t)
	sys.getenv = isolated(t.TempDir(), map[string]string{"HOME": "/home/dev/work/home", "CLAUDE_PROJECT_DIR": "/home/dev/work/proj"})
	want := map[string]string{
		"Read.json": "deny", "Write.json": "deny", "Edit.json": "abstain", "NotebookEdit.json": "abstain",
		"Glob.json": "ask", "Grep.json": "ask", "Bash.json": "",
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r := runHook(t, sys, bytes.NewReader(data))
		if r.code != 0 {
			t.Errorf("%s: exit %d: %s", f, r.code, r.stderr)
		}
		if w := want[filepath.Base(f)]; w != "" && r.decision != w {
			t.Errorf("%s: decision %s, want %s: %s", f, r.decision, w, r.stdout)
		}
		t.Logf("%s: %s", filepath.Base(f), r.decision)
	}
}

// TestExamples runs the inputs in examples/ that the README shows, as a
// fresh clone would: no CLAUDE_PROJECT_DIR, the embedded default policy.
func TestExamples(t *testing.T) {
	want := map[string]string{
		"write-outside.json": "deny",  // outside_write: deny in the default policy
		"read-env.json":      "deny",  // Read(.env*), bypassPermissions or not
		"edit-src.json":      "allow", // acceptEdits, with a warning: src/** is warned
		"glob-parent.json":   "ask",   // outside_read: ask
	}
	files, _ := filepath.Glob("examples/*.json")
	if len(files) != len(want) {
		t.Fatalf("examples/ holds %d inputs, the test knows %d", len(files), len(want))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sys, _ := testSystem(t)
		sys.getenv = isolated(t.TempDir(), nil)
		r := runHook(t, sys, bytes.NewReader(data))
		if r.code != 0 || r.decision != want[filepath.Base(f)] {
			t.Errorf("%s: decision %s exit %d, want %s: %s", f, r.decision, r.code, want[filepath.Base(f)], r.stdout)
		}
	}
}

// FuzzHook feeds arbitrary bytes to the whole hook: it never panics, always
// prints exactly one decision or nothing, and exits 0, or 2 with a deny.
//
//	go test . -run '^$' -fuzz FuzzHook -fuzztime 60s
func FuzzHook(f *testing.F) {
	for _, s := range []string{
		`{"tool_name":"Write","tool_input":{"file_path":"/tmp/x"},"cwd":"/tmp"}`,
		`{"tool_name":"Read","tool_input":{"file_path":"~/.ssh/id_rsa"},"cwd":"/"}`,
		`{"tool_name":"Glob","tool_input":{"pattern":"{a,../b}/**"},"cwd":"/tmp","permission_mode":"plan"}`,
		`{"tool_name":"mcp__x__write","tool_input":{"paths":["/etc/x"]},"cwd":"/"}`,
		`{"tool_name":"Bash","tool_input":{"command":"rm -rf /"},"cwd":"/"}`,
		"", "null", `{"a":1,"A":1}`,
	} {
		f.Add([]byte(s))
	}
	sys, _ := testSystem(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		var out, errb bytes.Buffer
		code := run(nil, bytes.NewReader(data), &out, &errb, sys)
		d, err := judge(out.String())
		if err != nil {
			t.Fatal(err)
		}
		if code != 0 && !(code == 2 && d == "deny") {
			t.Fatalf("exit %d with %s", code, d)
		}
	})
}

// defaultPolicy is the example policy, which default_policy.go compiles to
// Go: the embedded default.
//
//go:embed policy.example.yaml
var defaultPolicy []byte

// TestEmbeddedDefaultGenerated: the embedded default compiled to Go
// (default_policy.go, by scripts/gendefault) is the policy parsing
// policy.example.yaml gives, positions included (reasons cite
// "<embedded default>:55"). After editing policy.example.yaml, run
// go generate.
func TestEmbeddedDefaultGenerated(t *testing.T) {
	parsed, err := policy.Parse(policy.EmbeddedName, defaultPolicy)
	if err != nil {
		t.Fatal(err)
	}
	if got := embeddedDefault(); !reflect.DeepEqual(got, parsed) {
		t.Errorf("default_policy.go is out of date (run go generate):\ngenerated %+v\nparsed    %+v", got, parsed)
	}
	if embeddedDefault() == embeddedDefault() {
		t.Error("embeddedDefault returns one Layer twice: callers may change it")
	}
}

// TestVersionFromVCS: a binary built from a git checkout says which
// revision it is, and whether the tree had uncommitted changes (Go stamps
// a pseudo-version such as v0.0.0-20261125155612-abcdef123456+dirty, or
// safezone prints the revision from the build information).
func TestVersionFromVCS(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the binary")
	}
	rev, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skip("not a git checkout:", err)
	}
	bin := filepath.Join(t.TempDir(), "safezone")
	if out, err := exec.Command("go", "build", "-buildvcs=true", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	short := string(rev[:12])
	if !strings.Contains(string(out), short) {
		t.Errorf("version %q does not name the revision %s", out, short)
	}
	if strings.TrimSpace(string(out)) == "safezone (devel)" {
		t.Error("a bare (devel)")
	}
}
