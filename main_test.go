package main

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/safezonehq/safezone/audit"
	"github.com/safezonehq/safezone/confine"
	"github.com/safezonehq/safezone/pipeline"
	"github.com/safezonehq/safezone/pipeline/pipelinetest"
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
// proxyBesideInstalled builds safezone-proxy beside the safezone that
// testscript.Main put on PATH, once, as the install line puts it beside
// safezone: the default policy gives a confined command a network of its
// own, whose only way out is that proxy.
var proxyBesideInstalled = sync.OnceValue(func() error {
	bin, err := exec.LookPath("safezone")
	if err != nil {
		return err
	}
	if out, err := exec.Command("go", "build", "-o", filepath.Join(filepath.Dir(bin), "safezone-proxy"), "./cmd/safezone-proxy").CombinedOutput(); err != nil {
		return fmt.Errorf("building safezone-proxy: %v\n%s", err, out)
	}
	return nil
})

// stopProxies, where set, ends the proxy daemons a script's confined
// commands started, whose sockets are in the state directory given
// (XDG_STATE_HOME).
var stopProxies func(xdgState string)

func scriptParams(dir, root string) testscript.Params {
	return testscript.Params{
		WorkdirRoot:         root,
		Dir:                 dir,
		RequireExplicitExec: true,
		UpdateScripts:       *update,
		Setup: func(e *testscript.Env) error {
			if err := proxyBesideInstalled(); err != nil {
				return err
			}
			get := pipelinetest.Isolated(e.WorkDir, map[string]string{"HOME": e.WorkDir + "/home", "CLAUDE_PROJECT_DIR": e.WorkDir + "/proj"})
			for _, k := range []string{"HOME", "CLAUDE_PROJECT_DIR", "SAFEZONE_MANAGED_POLICY", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "SAFEZONE_CLAUDE_MANAGED_SETTINGS"} {
				e.Setenv(k, get(k))
			}
			if stopProxies != nil {
				state := get("XDG_STATE_HOME")
				e.Defer(func() { stopProxies(state) })
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
	got, err := pipelinetest.Judge(ts.ReadFile("stdout"))
	if err != nil {
		ts.Fatalf("%v", err)
	}
	if (got == args[0]) == neg {
		ts.Fatalf("decision %s, want %s%s", got, map[bool]string{true: "not "}[neg], args[0])
	}
}

// testSystem returns a system rooted at a temporary project.
func testSystem(t testing.TB) (*pipeline.System, string) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return testSystemAt(t, dir)
}

// testSystemAt is testSystem rooted at dir (proj/, home/, outside/ made in
// it).
func testSystemAt(t testing.TB, dir string) (*pipeline.System, string) {
	for _, d := range []string{"proj/src", "home", "outside"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	sys := pipeline.OSSystem()
	// The test binary is no safezone to start a daemon from: each call
	// walks (TestIndexDaemon starts one from a build).
	sys.StartIndex, sys.StartBuild = nil, nil
	sys.Getenv = pipelinetest.Isolated(dir, map[string]string{"HOME": dir + "/home", "CLAUDE_PROJECT_DIR": dir + "/proj"})
	sys.Now = func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }
	// The deadline counts from each call's start, and never ends the test
	// binary (runHook waits for the deadline's answer instead).
	sys.Start, sys.Exit = time.Time{}, nil
	return sys, dir
}

type runResult struct {
	code           int
	stdout, stderr string
	decision       string
}

// runHook runs the hook as a process would: it returns when run returns or,
// should the call's work be stuck (a hung file system, stdin never
// closed), when the deadline's answer would end the process (sys.exit).
func runHook(t *testing.T, sys *pipeline.System, stdin io.Reader, args ...string) runResult {
	t.Helper()
	var out, errb bytes.Buffer
	s := *sys
	exited := make(chan int, 1)
	s.Exit = func(code int) { exited <- code }
	returned := make(chan int, 1)
	go func() { returned <- run(args, stdin, &out, &errb, &s) }()
	var code int
	select {
	case code = <-returned:
	case code = <-exited:
	}
	r := runResult{code: code, stdout: out.String(), stderr: errb.String()}
	d, err := pipelinetest.Judge(r.stdout)
	if err != nil {
		t.Fatalf("%v (stderr %q)", err, r.stderr)
	}
	r.decision = d
	return r
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

// cmdRecords is the testscript command `records FILE N`: FILE holds exactly
// N audit records, each one whole line of strict JSON with a UTC RFC 3339
// time and a known decision.
func cmdRecords(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: records FILE N")
	}
	want, err := strconv.Atoi(args[1])
	ts.Check(err)
	recs, err := audit.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	if len(recs) != want {
		ts.Fatalf("%s holds %d records, want %d", args[0], len(recs), want)
	}
}
