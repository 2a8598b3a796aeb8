//go:build e2e

package e2e

// What safezone makes of what Claude Code runs without asking when the
// hook abstains (issue 20): safezone answers allow, confined, for the
// commands the pinned Claude Code runs unasked in a mode
// (hookio.Claude.RunsUnasked), so that they run inside the kernel's
// boundary. TestClaudeCodeUnaskedConfined runs a few of them and asked
// neighbours, once with a hook that prints nothing (the host's own
// answer) and once with safezone registered: what the host ran unasked
// runs confined. TestClaudeCodeUnasked (unasked_test.go) tracks the
// host's whole list.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// unaskedConfinedCases: command, permission mode, whether the host runs
// it without asking when the hook abstains.
var unaskedConfinedCases = []struct {
	cmd, mode string
	ran       bool
	// guard is set where safezone's own guard asks (guards.lose_work)
	// whatever the host does: the safezone run expects the ask.
	guard bool
}{
	{cmd: "cat README.md", mode: "default", ran: true},
	{cmd: "cat ../outside.txt", mode: "default", ran: false}, // outside the working directories
	{cmd: "grep -rn readme .", mode: "default", ran: true},
	{cmd: "find . -name '*.go'", mode: "default", ran: true},
	{cmd: "find . -name '*.go' -exec cat {} +", mode: "default", ran: false},
	{cmd: "sort README.md", mode: "default", ran: true},
	{cmd: "sort -o sorted.txt README.md", mode: "default", ran: false},
	{cmd: "uniq README.md", mode: "default", ran: false},
	{cmd: "git status", mode: "default", ran: true},
	{cmd: "git add README.md", mode: "default", ran: false},
	{cmd: "echo hi > out.txt", mode: "default", ran: false},
	{cmd: "echo hi > out.txt", mode: "acceptEdits", ran: true},
	{cmd: "touch new.txt", mode: "default", ran: false},
	{cmd: "touch new.txt", mode: "acceptEdits", ran: true},
	{cmd: "touch -t 202001010000 README.md", mode: "acceptEdits", ran: false},
	{cmd: "rm -rf dir", mode: "acceptEdits", ran: true, guard: true},
	{cmd: "cp README.md copy.md", mode: "acceptEdits", ran: true},
	{cmd: "cp -r dir dir2", mode: "acceptEdits", ran: false},
	{cmd: "sed -i s/readme/x/ README.md", mode: "acceptEdits", ran: true},
	{cmd: "echo x | tee out2.txt", mode: "acceptEdits", ran: false},
}

// unaskedConfinedFiles is the project of every case.
var unaskedConfinedFiles = map[string]string{
	"proj/README.md": "readme-content\n", "proj/src/a.go": "package a\n", "proj/dir/x.txt": "x\n",
	"outside.txt": "outside\n",
}

func TestClaudeCodeUnaskedConfined(t *testing.T) {
	if env.skip != "" {
		t.Skip(env.skip)
	}
	base, err := runRoots()
	if err != nil {
		t.Fatal(err)
	}
	abstain := filepath.Join(t.TempDir(), "abstain.sh")
	if err := os.WriteFile(abstain, []byte("#!/bin/sh\ncat >/dev/null\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, hook := range []string{"abstaining", "safezone"} {
		for _, c := range unaskedConfinedCases {
			t.Run(fmt.Sprintf("%s/%s/%s", hook, c.mode, c.cmd), func(t *testing.T) {
				t.Parallel()
				w, err := newWorldIn(base, unaskedConfinedFiles, nil)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { os.RemoveAll(w.root) })
				bin := abstain
				if hook == "safezone" {
					bin = env.safezone
				}
				reg, err := registration(env.hooksJSON, bin, true)
				if err != nil {
					t.Fatal(err)
				}
				if err := w.writeSettings(reg); err != nil {
					t.Fatal(err)
				}
				s, err := runClaude(env.claude, w, newFakeAPI([]turn{bash(c.cmd)}), c.mode, nil)
				if err != nil {
					t.Fatal(err)
				}
				id := toolUseID(0)
				ranIt := s.post[id] != nil || s.postFail[id] != nil
				tr := s.toolResult[id]
				if hook == "safezone" && c.guard {
					if ranIt || !strings.Contains(tr.Text, "safezone: ask") {
						t.Fatalf("a guard's command: ran %v, tool_result %.300s; want safezone's ask", ranIt, tr.Text)
					}
					return
				}
				if ranIt != c.ran {
					t.Fatalf("ran %v, want %v (the pinned Claude Code's behaviour changed? see testdata/hosts/claude/unasked.md); tool_result: %.300s", ranIt, c.ran, tr.Text)
				}
				if hook == "safezone" && c.ran {
					// What the host runs unasked, safezone runs confined.
					if post := string(s.post[id]) + string(s.postFail[id]); !strings.Contains(post, "__confine") {
						t.Errorf("ran unconfined: %.400s", post)
					}
				}
			})
		}
	}
}
