package confine

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
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
	// BuildFast builds only in a directory, and its parent, that no one
	// else may write.
	if err := os.Mkdir(filepath.Join(dir, "fast"), 0o755); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, "fast", "safezone-launch")
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
		{"PrivateHome", TestPrivateHome},
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
		{"HideUnreachableSkipped", TestHideUnreachableSkipped},
		{"OddPaths", TestOddPaths},
		{"Overlay", TestOverlay},
		{"OverlayUnprivileged", TestOverlayUnprivileged},
		{"OverlayOfWritePath", TestOverlayOfWritePath},
		{"Executors", TestExecutors},
		{"SignalsAndStatus", TestSignalsAndStatus},
		{"FailsClosed", TestFailsClosed},
		{"Scopes", TestScopes},
		{"TerminalIoctls", TestTerminalIoctls},
		{"ReportUnwritable", TestReportUnwritable},
		// The rewritten commands, bash's form and the POSIX one, as the
		// hosts run them: the command carried base64-encoded, the state
		// pipes, the exit status, the working directory for the next call.
		{"RewriteBehavesAlike", TestRewriteBehavesAlike},
		{"RewriteConfines", TestRewriteConfines},
		{"StateChannelUnreachable", TestStateChannelUnreachable},
		{"HostKill", TestHostKill},
		{"RewriteNeedsBash", TestRewriteNeedsBash},
		{"RewritePOSIXBehavesAlike", TestRewritePOSIXBehavesAlike},
		{"RewritePOSIXConfines", TestRewritePOSIXConfines},
		{"RewriteBashConfines", TestRewriteBashConfines},
		// A network of the command's own, made by the fast launcher too.
		{"NetworkRefused", TestNetworkRefused},
		{"NetworkAddresses", TestNetworkAddresses},
		{"NetworkProxyMissing", TestNetworkProxyMissing},
		{"NetworkNone", TestNetworkNone},
		{"NetworkLifetime", TestNetworkLifetime},
		{"NetworkForward", TestNetworkForward},
		{"NetworkForwardScoped", TestNetworkForwardScoped},
		{"NetworkRegistries", TestNetworkRegistries},
	} {
		t.Run(tc.name, tc.run)
	}
}

// TestUsableFast: a launcher anyone else may write is never run, nor one
// whose content is not what BuildFast recorded.
func TestUsableFast(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "l")
	os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755)
	if UsableFast(p, os.Getuid()) {
		t.Error("a launcher without a sum is usable")
	}
	sum, err := fileSum(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeSum(p, sum, ""); err != nil {
		t.Fatal(err)
	}
	if !UsableFast(p, os.Getuid()) {
		t.Error("an executable of the user's own, writable by the user only, with its sum, is unusable")
	}
	fi, _ := os.Lstat(p)
	id, _, _ := fileIdentity(fi)
	if err := writeSum(p, sum, id); err != nil {
		t.Fatal(err)
	}
	if !UsableFast(p, os.Getuid()) {
		t.Error("a launcher with its sum and identity is unusable")
	}
	// The same owner and mode, other bytes: what a planted launcher looks
	// like to a check of owner and mode.
	os.WriteFile(p, []byte("#!/bin/sh\nevil\n"), 0o755)
	if UsableFast(p, os.Getuid()) {
		t.Error("a launcher whose content changed is usable")
	}
	// The bytes put back: the identity changed (ctime), the hash holds.
	os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755)
	if !UsableFast(p, os.Getuid()) {
		t.Error("a launcher rewritten with its own bytes is unusable")
	}
	os.Chmod(p+".sum", 0o666)
	if UsableFast(p, os.Getuid()) {
		t.Error("a launcher whose sum anyone may write is usable")
	}
	os.Chmod(p+".sum", 0o600)
	os.Link(p, p+"-hard")
	if UsableFast(p, os.Getuid()) {
		t.Error("a launcher with a second link is usable")
	}
	os.Remove(p + "-hard")
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
	os.Symlink(p+".sum", p+"-link.sum")
	if UsableFast(p+"-link", os.Getuid()) {
		t.Error("a symlink is usable")
	}
}

// TestBuildFastRace is the attack of issue 27 (1) on the build: a process
// left by an earlier confined command watches /tmp and swaps every file
// that appears there (the compiler's intermediate files, before the fix).
// The build runs in a private /tmp (bubblewrap) where the watcher sees
// everything: nothing of the build may appear there, and the launcher
// must come out whole.
func TestBuildFastRace(t *testing.T) {
	if os.Getenv("SAFEZONE_BUILD_RACE") != "" {
		buildRaceChild(t, os.Getenv("SAFEZONE_BUILD_RACE"))
		return
	}
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		t.Skip("needs bubblewrap (bwrap) for a private /tmp")
	}
	if !slices.ContainsFunc(trustedCompilers, ownedByRoot) {
		t.Skip(ErrNoCompiler)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	exeDir := filepath.Dir(exe)
	cmd := exec.Command(bwrap, "--bind", "/", "/", "--tmpfs", "/tmp", "--bind", exeDir, exeDir, "--bind", dir, dir,
		"--dev-bind", "/dev", "/dev", exe, "-test.run=^TestBuildFastRace$", "-test.v")
	cmd.Env = append(os.Environ(), "SAFEZONE_BUILD_RACE="+filepath.Join(dir, "state", "launcher", "safezone-launch"), "TMPDIR=")
	out, err := cmd.CombinedOutput()
	if strings.Contains(string(out), "bwrap:") && !strings.Contains(string(out), "=== RUN") {
		t.Skipf("bubblewrap cannot run here: %s", out)
	}
	if err != nil {
		t.Fatalf("the build under a watcher of /tmp: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

// buildRaceChild is TestBuildFastRace inside its private /tmp: it watches
// /tmp (inotify), overwrites every file created there with junk, and
// builds into dst.
func buildRaceChild(t *testing.T, dst string) {
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		t.Fatal(err)
	}
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := unix.InotifyAddWatch(fd, "/tmp", unix.IN_CREATE|unix.IN_MOVED_TO|unix.IN_CLOSE_WRITE); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []string
	swapped := map[string]bool{}
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := unix.Read(fd, buf)
			if err != nil || n <= 0 {
				return
			}
			for off := 0; off+unix.SizeofInotifyEvent <= n; {
				ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
				name := strings.TrimRight(string(buf[off+unix.SizeofInotifyEvent:off+unix.SizeofInotifyEvent+int(ev.Len)]), "\x00")
				off += unix.SizeofInotifyEvent + int(ev.Len)
				mu.Lock()
				if ev.Mask&unix.IN_CLOSE_WRITE == 0 {
					seen = append(seen, name)
				} else if !swapped[name] {
					// Once each file is written (the assembler's object,
					// before the linker reads it); the swap's own write
					// is not swapped again.
					swapped[name] = true
					os.WriteFile(filepath.Join("/tmp", name), []byte("junk planted by the watcher\n"), 0o755)
				}
				mu.Unlock()
			}
		}
	}()
	err = BuildFast(dst)
	mu.Lock()
	defer mu.Unlock()
	if len(seen) > 0 {
		t.Errorf("the build made files in /tmp, where a confined process can swap them: %q", seen)
	}
	if err != nil {
		t.Fatalf("BuildFast: %v", err)
	}
	if !UsableFast(dst, os.Getuid()) {
		t.Fatal("the launcher just built is unusable")
	}
	t.Logf("built %s; nothing appeared in /tmp", dst)
}
