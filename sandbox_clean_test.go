package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestSandboxClean runs scripts/sandbox-clean: it lists, then removes with
// --apply, the dated folders of agent_sandbox/ older than --days, and never
// anything else: recent folders, names that are not dates, files, symlinks
// (and what they point to) stay; a symlinked agent_sandbox is refused.
func TestSandboxClean(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a bash script")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	script, _ := filepath.Abs("scripts/sandbox-clean")
	dir := t.TempDir()
	proj, outside := filepath.Join(dir, "proj"), filepath.Join(dir, "outside")
	day := func(ago int) string { return time.Now().AddDate(0, 0, -ago).Format("2006-01-02") }
	old, older, recent := day(30), day(400), day(3)
	for _, d := range []string{
		"agent_sandbox/" + old + "/topic", "agent_sandbox/" + older, "agent_sandbox/" + recent + "/topic",
		"agent_sandbox/notes", "agent_sandbox/2020-13-01", "outside/" + old,
	} {
		if err := os.MkdirAll(filepath.Join(dir, strings.Replace(d, "agent_sandbox", "proj/agent_sandbox", 1)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"proj/agent_sandbox/" + old + "/topic/a.md", "proj/agent_sandbox/" + old + "/b.md", "proj/agent_sandbox/2020-01-02", "outside/" + old + "/keep.md", "proj/agent_sandbox/" + recent + "/topic/c.md"} {
		writeFile(t, filepath.Join(dir, f), "x\n")
	}
	// A dated name that is a symlink to a directory outside the sandbox.
	if err := os.Symlink(filepath.Join(outside, old), filepath.Join(proj, "agent_sandbox", "2001-01-01")); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, error) {
		cmd := exec.Command(bash, append([]string{script}, args...)...)
		cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR=")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	out, err := run(proj)
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := "agent_sandbox/" + older + "/ (0 files)\nagent_sandbox/" + old + "/ (2 files)\n2 dated folder(s) older than 14 days"
	if !strings.HasPrefix(out, want) {
		t.Errorf("listing:\n%s\nwant prefix:\n%s", out, want)
	}
	if _, err := os.Stat(filepath.Join(proj, "agent_sandbox", old, "topic", "a.md")); err != nil {
		t.Error("listing removed something:", err)
	}

	out, err = run("--days", "7", "--apply", proj)
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if !strings.Contains(out, "removed 2 dated folder(s) older than 7 days") {
		t.Errorf("apply: %s", out)
	}
	for _, gone := range []string{old, older} {
		if _, err := os.Lstat(filepath.Join(proj, "agent_sandbox", gone)); !os.IsNotExist(err) {
			t.Errorf("%s not removed: %v", gone, err)
		}
	}
	for _, kept := range []string{"proj/agent_sandbox/" + recent + "/topic/c.md", "proj/agent_sandbox/notes", "proj/agent_sandbox/2020-13-01", "proj/agent_sandbox/2020-01-02", "proj/agent_sandbox/2001-01-01", "outside/" + old + "/keep.md"} {
		if _, err := os.Lstat(filepath.Join(dir, kept)); err != nil {
			t.Errorf("%s was touched: %v", kept, err)
		}
	}

	// --days 0 takes everything before today, the recent folder too.
	out, _ = run("--days", "0", proj)
	if !strings.Contains(out, "agent_sandbox/"+recent+"/") {
		t.Errorf("--days 0: %s", out)
	}
	if out, err := run("--days", "two", proj); err == nil || !strings.Contains(out, "whole number") {
		t.Errorf("--days two: %v %s", err, out)
	}

	// A symlinked agent_sandbox is refused.
	other := filepath.Join(dir, "other")
	os.MkdirAll(filepath.Join(other), 0o755)
	os.Symlink(filepath.Join(outside), filepath.Join(other, "agent_sandbox"))
	if out, err := run("--apply", "--days", "0", other); err == nil || !strings.Contains(out, "is a symlink") {
		t.Errorf("symlinked sandbox: %v %s", err, out)
	}
	if _, err := os.Stat(filepath.Join(outside, old, "keep.md")); err != nil {
		t.Error("the symlinked sandbox's target was touched:", err)
	}
}
