package pipeline

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/safezonehq/safezone/confine"
	"github.com/safezonehq/safezone/pipeline/pipelinetest"
)

// TestDeadlineFor: the deadline keeps a fifth of the host's timeout, at
// least a second, at most half of it.
func TestDeadlineFor(t *testing.T) {
	for timeout, want := range map[time.Duration]time.Duration{
		10 * time.Second:       8 * time.Second,
		60 * time.Second:       48 * time.Second,
		3 * time.Second:        2 * time.Second,
		1 * time.Second:        500 * time.Millisecond,
		600 * time.Millisecond: 300 * time.Millisecond,
	} {
		if got := deadlineFor(timeout); got != want {
			t.Errorf("deadlineFor(%v) = %v, want %v", timeout, got, want)
		}
	}
}

// TestOwnTimeout: the timeout of the PreToolUse command hooks that run
// safezone in the settings read, the smallest when there are several;
// Claude Code's 60 s when one sets none; nothing for other commands.
func TestOwnTimeout(t *testing.T) {
	tests := []struct {
		name  string
		files []string
		want  time.Duration
	}{
		{"registered", []string{`{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"/usr/local/bin/safezone -y","timeout":30}]}]}}`}, 30 * time.Second},
		{"on PATH, quoted", []string{`{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"'safezone'","timeout":2.5}]}]}}`}, 2500 * time.Millisecond},
		{"no timeout", []string{`{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"safezone"}]}]}}`}, 60 * time.Second},
		{"the smallest of two files", []string{
			`{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"safezone","timeout":20}]}]}}`,
			`{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"safezone --policy p.yaml","timeout":15}]}]}}`}, 15 * time.Second},
		{"another hook", []string{`{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"lint.sh","timeout":3}]}]}}`}, 0},
		{"another event", []string{`{"hooks":{"PostToolUse":[{"hooks":[{"type":"command","command":"safezone","timeout":3}]}]}}`}, 0},
		{"not JSON", []string{`hooks: {"PreToolUse": 1}`}, 0},
		{"no hooks", []string{`{"permissions":{"allow":["Read"]}}`}, 0},
	}
	for _, tt := range tests {
		c := NewFileCache()
		for i, f := range tt.files {
			c.Files[filepath.Join("/settings", string(rune('a'+i)), "settings.json")] = CachedFile{Data: []byte(f)}
		}
		got, ok := ownTimeout(c, "/opt/bin/safezone")
		if got != tt.want || ok != (tt.want > 0) {
			t.Errorf("%s: %v %v, want %v", tt.name, got, ok, tt.want)
		}
	}
	// Codex's hooks.json has Claude Code's form, and the loading reads it
	// for what it runs: it is not Claude Code's registration.
	c := NewFileCache()
	c.Files["/home/.codex/hooks.json"] = CachedFile{Data: []byte(`{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"safezone","timeout":3}]}]}}`)}
	if got, ok := ownTimeout(c, "/opt/bin/safezone"); ok {
		t.Errorf("Codex's hooks.json: %v, want none", got)
	}
}

// slowTargetFS is the real root, where looking up the name slow hangs
// until release is closed: a decision stuck on its target, after the
// policy cache's check (which asks the same view about the policy's
// files) found the policy and the registration.
type slowTargetFS struct {
	fs.ReadLinkFS
	slow    string
	release chan struct{}
}

func (s slowTargetFS) Lstat(name string) (fs.FileInfo, error) {
	if name == s.slow {
		<-s.release
		return nil, fs.ErrNotExist
	}
	return s.ReadLinkFS.Lstat(name)
}

// TestDeadlineFromRegistration: the hook's deadline follows the timeout of
// its registration in the project's Claude Code settings (here 1 s, so
// 500ms), counted from the process start, when the policy is loaded and
// when it is read from the policy cache. A call whose decision does not
// finish writes no cache (the write waits for the decision, whose view of
// the disk it must not change); one that finishes does.
func TestDeadlineFromRegistration(t *testing.T) {
	sys, dir := testSystem(t)
	release := make(chan struct{})
	defer close(release)
	slow := slowTargetFS{os.DirFS("/").(fs.ReadLinkFS), strings.TrimPrefix(dir, "/") + "/proj/README.md", release}
	settings := `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"safezone","timeout":1}]}]}}`
	if err := os.MkdirAll(dir+"/proj/.claude", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir+"/proj/.claude/settings.json", []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	in := pipelinetest.Input("Read", dir+"/proj", map[string]any{"file_path": dir + "/proj/README.md"})
	sys.cacheSettle = cacheSettleForTest
	settle()
	stuck := func(i, caches int) {
		t.Helper()
		s := *sys
		s.FS = slow
		r := runHook(t, &s, strings.NewReader(in))
		if r.decision != "deny" || r.code != 2 || !strings.Contains(r.stdout, "no decision within 500ms") {
			t.Errorf("call %d: decision %s exit %d: %s", i, r.decision, r.code, r.stdout)
		}
		if n := len(cacheFiles(t, sys)); n != caches {
			t.Errorf("call %d: %d cache files, want %d", i, n, caches)
		}
	}
	stuck(0, 0) // the policy loaded
	if r := runHook(t, sys, strings.NewReader(in)); r.decision == "deny" {
		t.Fatalf("a call that finishes: decision %s: %s", r.decision, r.stdout)
	}
	if n := len(cacheFiles(t, sys)); n != 1 {
		t.Fatalf("a call that finishes: %d cache files, want 1", n)
	}
	// The policy, and the timeout found with it, read from the cache.
	stuck(1, 1)
	stuck(2, 1)
}

// TestKernelAskedOnlyWhenItMatters: the hook asks the kernel whether it
// confines (a thread's start) only for a shell command whose judgement
// could depend on it, and judges every command as the full check (explain's,
// which asks the kernel first) does, on a kernel that confines and on one
// that does not: the same decision, reason, confinement and audit note.
func TestKernelAskedOnlyWhenItMatters(t *testing.T) {
	sys, dir := testSystem(t)
	sys.Getenv = pipelinetest.Isolated(dir, map[string]string{"HOME": dir + "/home", "CLAUDE_PROJECT_DIR": dir + "/proj", "SHELL": "/bin/bash"})
	// One look at the machine's Unix sockets for every judgement: the
	// reason counts them, and other tests bind and close theirs meanwhile.
	sys.UnixSockets = snapshotSockets()
	known := pipelinetest.Input("Bash", dir+"/proj", map[string]any{"command": "grep -rn TODO src > notes.txt"})
	opaque := pipelinetest.Input("Bash", dir+"/proj", map[string]any{"command": "python3 -c 'print(1)'"})
	for _, kernel := range []bool{true, false} {
		status := confine.Status{}
		if !kernel {
			status.Landlock = fmt.Errorf("%w: test", confine.ErrUnavailable)
		}
		for _, tc := range []struct {
			in    string
			args  []string
			asked bool
		}{
			// Every command that may run without a question runs
			// confined: an allow; an abstain (the host asks) or an ask
			// is the same either way.
			{known, nil, false},
			{known, []string{"-y"}, true},
			{opaque, nil, false},
			{opaque, []string{"-y"}, true},
		} {
			judge := func(explain bool) (Verdict, int) {
				opts, err := ParseFlags(tc.args, false)
				if err != nil {
					t.Fatal(err)
				}
				opts.explain = explain
				asked := 0
				s := *sys
				s.Confine = &OnceStatus{Get: func() confine.Status { asked++; return status }}
				j := &Judger{Opts: opts, Sys: &s}
				return j.Decide([]byte(tc.in), nil, ""), asked
			}
			got, asked := judge(false)
			full, _ := judge(true)
			name := fmt.Sprintf("kernel %v, %v %.40s", kernel, tc.args, tc.in)
			if (asked > 0) != tc.asked {
				t.Errorf("%s: kernel asked %d times, want asked %v", name, asked, tc.asked)
			}
			a := &AuditSettings{}
			d1, r1 := Outcome(got)
			d2, r2 := Outcome(full)
			c1, c2 := Record(got, a, time.Time{}).Confine, Record(full, a, time.Time{}).Confine
			if d1 != d2 || r1 != r2 || (got.conf == nil) != (full.conf == nil) || c1 != c2 {
				t.Errorf("%s: %s %q confined %v note %q; full check: %s %q confined %v note %q",
					name, d1, r1, got.conf != nil, c1, d2, r2, full.conf != nil, c2)
			}
		}
	}
}

// snapshotSockets returns a System.UnixSockets that answers what
// confine.BoundSockets found once, for tests that compare two judgements
// made at different times.
func snapshotSockets() func() (confine.BoundList, error) {
	list, err := confine.BoundSockets()
	return func() (confine.BoundList, error) { return list, err }
}
