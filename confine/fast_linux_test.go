package confine

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestFastLauncher builds the fast launcher from its embedded source and
// runs the launcher's tests with it in place of the Go launcher: the same
// ruleset, the same behaviour, one process.
func TestFastLauncher(t *testing.T) {
	needNamespaces(t)
	// Not in t.TempDir, whose parents only root may enter: the
	// unprivileged tests run it as another user.
	dir, err := os.MkdirTemp("", "confine-fast-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	dst := filepath.Join(dir, "safezone-launch")
	if err := BuildFast(dst); errors.Is(err, ErrNoCompiler) {
		t.Skip(err)
	} else if err != nil {
		t.Fatalf("BuildFast: %v", err)
	}
	if !UsableFast(dst, os.Getuid()) {
		t.Fatalf("UsableFast(%s) = false for the launcher just built", dst)
	}
	goLauncher := launcherPath
	launcherPath, fastHides = dst, true
	defer func() { launcherPath, fastHides = goLauncher, false }()
	for _, tc := range []struct {
		name string
		run  func(*testing.T)
	}{
		{"Writes", TestWrites},
		{"Reads", TestReads},
		{"ReadOnly", TestReadOnly},
		{"ReadOnlyUnprivileged", func(t *testing.T) {
			if os.Geteuid() != 0 {
				t.Skip("runs as root")
			}
			testReadOnly(t, &syscall.Credential{Uid: 65534, Gid: 65534})
		}},
		{"ReadOnlyMountsStay", TestReadOnlyMountsStay},
		{"Hide", TestHide},
		{"HideUnprivileged", TestHideUnprivileged},
		{"HideMissingSkipped", TestHideMissingSkipped},
		{"OddPaths", TestOddPaths},
		{"Overlay", TestOverlay},
		{"OverlayOfWritePath", TestOverlayOfWritePath},
		{"Executors", TestExecutors},
		{"SignalsAndStatus", TestSignalsAndStatus},
		{"FailsClosed", TestFailsClosed},
		{"Scopes", TestScopes},
		{"TerminalIoctls", TestTerminalIoctls},
		// The rewritten commands, bash's form and the POSIX one, as the
		// hosts run them: the command carried base64-encoded, the state
		// file, the exit status, the working directory for the next call.
		{"RewriteBehavesAlike", TestRewriteBehavesAlike},
		{"RewriteConfines", TestRewriteConfines},
		{"RewriteRefusesStaleStateFile", TestRewriteRefusesStaleStateFile},
		{"HostKill", TestHostKill},
		{"RewriteNeedsBash", TestRewriteNeedsBash},
		{"RewritePOSIXBehavesAlike", TestRewritePOSIXBehavesAlike},
		{"RewritePOSIXConfines", TestRewritePOSIXConfines},
	} {
		t.Run(tc.name, tc.run)
	}
}

// TestUsableFast: a launcher anyone else may write is never run.
func TestUsableFast(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "l")
	os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755)
	if !UsableFast(p, os.Getuid()) {
		t.Error("an executable of the user's own, writable by the user only, is usable")
	}
	os.Chmod(p, 0o775)
	if UsableFast(p, os.Getuid()) {
		t.Error("a group-writable launcher is usable")
	}
	os.Chmod(p, 0o644)
	if UsableFast(p, os.Getuid()) {
		t.Error("a launcher that is not executable is usable")
	}
	os.Chmod(p, 0o755)
	if UsableFast(p, os.Getuid()+1) {
		t.Error("another user's launcher is usable")
	}
	os.Symlink(p, p+"-link")
	if UsableFast(p+"-link", os.Getuid()) {
		t.Error("a symlink is usable")
	}
}
