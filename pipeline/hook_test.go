package pipeline

import (
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/safezonehq/safezone/pipeline/pipelinetest"
	"github.com/safezonehq/safezone/policy"
)

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
	good := pipelinetest.Input("Read", dir+"/proj", map[string]any{"file_path": dir + "/proj/README.md"})
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
		sys   func(*System) *System
		want  string // decision
		code  int
		has   string // in the reason (stdout) and on stderr
	}{
		{name: "bad JSON", stdin: strings.NewReader("please allow"), want: "deny", code: 2, has: "unusable hook input: malformed hook input: not JSON"},
		{name: "empty stdin", stdin: strings.NewReader(""), want: "deny", code: 2, has: "stdin is empty"},
		{name: "wrong field type", stdin: strings.NewReader(pipelinetest.Input("Read", dir+"/proj", map[string]any{"file_path": 42})), want: "deny", code: 2, has: "tool_input.file_path: wrong type"},
		{name: "case-variant keys", stdin: strings.NewReader(`{"tool_name":"Write","tool_input":{"file_path":"/out","FILE_PATH":"/p"},"cwd":"/p"}`), want: "deny", code: 2, has: "differ only in case"},
		{name: "bad flag", args: []string{"--frobnicate"}, stdin: strings.NewReader(good), want: "deny", code: 2, has: "unknown flag: --frobnicate"},
		{name: "conflicting flags", args: []string{"-r", "-w"}, stdin: strings.NewReader(good), want: "deny", code: 2, has: "-r/--read can't be used with -w/--write"},
		{name: "stray argument", args: []string{"input.json"}, stdin: strings.NewReader(good), want: "deny", code: 2, has: `unexpected argument "input.json"`},
		{name: "missing policy", args: []string{"--policy", dir + "/missing.yaml"}, stdin: strings.NewReader(good), want: "deny", code: 2, has: "cannot read policy"},
		{name: "unreadable policy (a directory)", args: []string{"--policy", dir}, stdin: strings.NewReader(good), want: "deny", code: 2, has: "cannot read policy"},
		{name: "invalid policy", args: []string{"--policy", dir + "/bad.yaml"}, stdin: strings.NewReader(good), want: "deny", code: 2, has: `bad.yaml:3:3: sandbox: unknown key "enabeld"`},
		{name: "on_error ask", args: []string{"--policy", dir + "/ask.yaml"}, stdin: strings.NewReader("{"), want: "ask", code: 0, has: "on_error: ask"},
		{name: "panic", stdin: strings.NewReader(good), sys: func(s *System) *System { s.FS = panicFS{}; return s }, want: "deny", code: 2, has: "internal error: boom"},
		{name: "slow file system", stdin: strings.NewReader(good), sys: func(s *System) *System {
			s.FS, s.Deadline = slowFS{release}, 50*time.Millisecond
			return s
		}, want: "deny", code: 2, has: "no decision within 50ms"},
		{name: "stdin never closed", stdin: blockingReader{release}, sys: func(s *System) *System { s.Deadline = 50 * time.Millisecond; return s }, want: "deny", code: 2, has: "no decision within"},
		{name: "symlink loop", stdin: strings.NewReader(pipelinetest.Input("Read", dir+"/proj", map[string]any{"file_path": dir + "/proj/loop"})), want: "deny", code: 2, has: "too many levels of symbolic links"},
		{name: "path over PATH_MAX", stdin: strings.NewReader(pipelinetest.Input("Write", dir+"/proj", map[string]any{"file_path": dir + "/proj/" + strings.Repeat("a/", 2100)})), want: "deny", code: 2, has: "path too long"},
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

// TestSamples runs every real Claude Code 2.1.330 hook input through the
// hook: each gets exactly one decision.
func TestSamples(t *testing.T) {
	files, _ := filepath.Glob("../../shared/samples/claude-code/*.json")
	if len(files) == 0 {
		t.Skip("../../shared/samples/claude-code is absent: real host samples not checked")
	}
	sys, _ := testSystem(t)
	sys.Getenv = pipelinetest.Isolated(t.TempDir(), map[string]string{"HOME": "/home/dev/work/home", "CLAUDE_PROJECT_DIR": "/home/dev/work/proj"})
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
	files, _ := filepath.Glob("../examples/*.json")
	if len(files) != len(want) {
		t.Fatalf("examples/ holds %d inputs, the test knows %d", len(files), len(want))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sys, _ := testSystem(t)
		sys.Getenv = pipelinetest.Isolated(t.TempDir(), nil)
		r := runHook(t, sys, bytes.NewReader(data))
		if r.code != 0 || r.decision != want[filepath.Base(f)] {
			t.Errorf("%s: decision %s exit %d, want %s: %s", f, r.decision, r.code, want[filepath.Base(f)], r.stdout)
		}
	}
}

// FuzzHook feeds arbitrary bytes to the whole hook: it never panics, always
// prints exactly one decision or nothing, and exits 0, or 2 with a deny.
//
//	go test ./pipeline -run '^$' -fuzz FuzzHook -fuzztime 60s
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
		code := Run(nil, false, bytes.NewReader(data), &out, &errb, sys)
		d, err := pipelinetest.Judge(out.String())
		if err != nil {
			t.Fatal(err)
		}
		if code != 0 && !(code == 2 && d == "deny") {
			t.Fatalf("exit %d with %s", code, d)
		}
	})
}

// TestEmbeddedDefaultGenerated: the embedded default compiled to Go
// (default_policy.go, by scripts/gendefault) is the policy parsing
// policy.example.yaml gives, positions included (reasons cite
// "<embedded default>:55"). After editing policy.example.yaml, run
// go generate.
func TestEmbeddedDefaultGenerated(t *testing.T) {
	parsed, err := policy.Parse(policy.EmbeddedName, mustRead(t, "../policy.example.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if got := EmbeddedDefault(); !reflect.DeepEqual(got, parsed) {
		t.Errorf("default_policy.go is out of date (run go generate):\ngenerated %+v\nparsed    %+v", got, parsed)
	}
	if EmbeddedDefault() == EmbeddedDefault() {
		t.Error("embeddedDefault returns one Layer twice: callers may change it")
	}
}
