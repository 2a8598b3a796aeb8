package pipeline

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/safezonehq/safezone/pipeline/pipelinetest"
)

// testSystem returns a system rooted at a temporary project.
func testSystem(t testing.TB) (*System, string) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return testSystemAt(t, dir)
}

// testSystemAt is testSystem rooted at dir (proj/, home/, outside/ made in
// it).
func testSystemAt(t testing.TB, dir string) (*System, string) {
	for _, d := range []string{"proj/src", "home", "outside"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	sys := OSSystem()
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
func runHook(t *testing.T, sys *System, stdin io.Reader, args ...string) runResult {
	t.Helper()
	var out, errb bytes.Buffer
	s := *sys
	exited := make(chan int, 1)
	s.Exit = func(code int) { exited <- code }
	returned := make(chan int, 1)
	go func() { returned <- Run(args, false, stdin, &out, &errb, &s) }()
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

func mustRead(tb testing.TB, p string) []byte {
	b, err := os.ReadFile(p)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// rootOutsideTmp makes a directory for a test's tree outside the temporary
// directory, which a confined command may write: safezone's state
// directory there could not be kept read-only without a user namespace,
// and nothing would be confined. It skips the test where there is none.
func rootOutsideTmp(t *testing.T) string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skip("no cache directory for a root outside $TMPDIR:", err)
	}
	root, err := os.MkdirTemp(cache, "safezone-pipeline-test-")
	if err != nil {
		t.Skip("cannot make a root outside $TMPDIR:", err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	root, err = filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// hookAnswer is the part of a PreToolUse answer (Claude Code's and
// Codex's shape) the tests read.
type hookAnswer struct {
	HSO struct {
		Decision string `json:"permissionDecision"`
		Reason   string `json:"permissionDecisionReason"`
		Updated  struct {
			Command string `json:"command"`
		} `json:"updatedInput"`
	} `json:"hookSpecificOutput"`
}

// answerOf decodes r's stdout as a hookAnswer, failing the test when it
// is not one.
func answerOf(t *testing.T, r runResult) hookAnswer {
	t.Helper()
	var out hookAnswer
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("%v: %q, stderr %q", err, r.stdout, r.stderr)
	}
	return out
}
