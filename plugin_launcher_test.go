package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPluginLauncherPath: hooks/safezone-hook runs the safezone on PATH,
// searching its absolute entries only, and none where a confined command
// may write (the project, as Claude Code names it, the default caches). A relative entry (".", "node_modules/.bin", an empty one)
// names a directory of the project; so does an absolute one below it (an
// activated .venv/bin): a safezone planted there would run unconfined at
// every tool call in place of the real one (issue 27, item 1).
func TestPluginLauncherPath(t *testing.T) {
	launcher, err := filepath.Abs("hooks/safezone-hook")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	// The real one where a user installs it.
	inst, err := os.MkdirTemp(".", ".plugin-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(inst) })
	proj, bin := filepath.Join(root, "proj"), filepath.Join(inst, "bin")
	bin, err = filepath.Abs(bin)
	if err != nil {
		t.Fatal(err)
	}
	for dir, word := range map[string]string{filepath.Join(proj, "node_modules", ".bin"): "PLANTED", proj: "PLANTED", bin: "REAL"} {
		must(t, os.MkdirAll(dir, 0o755))
		must(t, os.WriteFile(filepath.Join(dir, "safezone"), []byte("#!/bin/sh\necho "+word+"\n"), 0o755))
	}
	for _, path := range []string{
		proj + "/node_modules/.bin:" + bin + ":/usr/bin:/bin",
		root + ":" + bin + ":/usr/bin:/bin",
		"node_modules/.bin:" + bin + ":/usr/bin:/bin",
		".:" + bin + ":/usr/bin:/bin",
		":" + bin + ":/usr/bin:/bin",
		bin + ":/usr/bin:/bin",
	} {
		cmd := exec.Command("/bin/sh", launcher)
		cmd.Dir = proj
		cmd.Env = []string{"PATH=" + path, "HOME=" + root, "CLAUDE_PROJECT_DIR=" + proj}
		out, err := cmd.Output()
		if got := strings.TrimSpace(string(out)); err != nil || got != "REAL" {
			t.Errorf("PATH=%s: the launcher ran %q (%v), want the safezone in %s", path, got, err, bin)
		}
	}
}
