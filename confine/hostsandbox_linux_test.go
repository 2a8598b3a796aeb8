package confine

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// inBwrap runs the test launcher with args under bubblewrap as Claude
// Code's own sandbox runs a command (sandbox-runtime: a new user namespace
// with --disable-userns, so the command can create none of its own), in
// dir.
func inBwrap(t *testing.T, dir string, args ...string) result {
	t.Helper()
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		t.Skip("bwrap is not installed")
	}
	if out, _ := exec.Command(bwrap, "--help").CombinedOutput(); !strings.Contains(string(out), "--disable-userns") {
		t.Skip("bwrap cannot --disable-userns (0.8.0 or later)")
	}
	cmd := exec.Command(bwrap, append([]string{"--dev-bind", "/", "/", "--unshare-user", "--disable-userns", "--", launcherPath, Subcommand}, args...)...)
	cmd.Dir = dir
	return runCmd(t, cmd)
}

// TestHostSandboxFallback: inside a sandbox that refuses user namespaces,
// a ruleset that needs one fails closed, unless the hook marked it
// (Ruleset.HostSandbox): then Landlock alone confines it, and a lost
// hidden socket takes Unix sockets away.
func TestHostSandboxFallback(t *testing.T) {
	needNamespaces(t)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	f := newFixture(t)
	sock := filepath.Join(f.proj, "agent.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if err := os.WriteFile(filepath.Join(f.proj, ".env"), []byte("ENV-SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := `echo in > new.txt; echo out > ../outside/o.txt; cat ../home/.ssh/id_rsa; ` +
		`python3 -c 'import socket; socket.socket(socket.AF_UNIX).connect("agent.sock"); print("CONNECTED")'; echo done`
	run := func(rs Ruleset) result {
		rules, err := rs.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		return inBwrap(t, f.proj, "exec", string(rules), "/bin/sh", "-c", script)
	}

	rs := f.rules(true)
	rs.Hide = []string{filepath.Join(f.proj, ".env"), sock}
	r := run(rs)
	if r.code != 126 || !strings.Contains(r.stderr, "cannot create a user and mount namespace") || exists(filepath.Join(f.proj, "new.txt")) {
		t.Fatalf("unmarked ruleset: exit %d, stderr %q, new.txt made: %v; want 126, the namespace error, nothing run", r.code, r.stderr, exists(filepath.Join(f.proj, "new.txt")))
	}

	rs.HostSandbox = "the test's bubblewrap"
	r = run(rs)
	if r.code != 0 || !strings.Contains(r.stdout, "done") {
		t.Fatalf("marked ruleset: exit %d, stdout %q, stderr %q; want it run", r.code, r.stdout, r.stderr)
	}
	if got := readFile(t, filepath.Join(f.proj, "new.txt")); got != "in\n" {
		t.Errorf("new.txt = %q, want the write inside", got)
	}
	if exists(filepath.Join(f.outside, "o.txt")) {
		t.Error("the write outside went through")
	}
	if strings.Contains(r.stdout, "SECRET") {
		t.Error("~/.ssh/id_rsa was read")
	}
	if strings.Contains(r.stdout, "CONNECTED") || !strings.Contains(r.stderr, "PermissionError") {
		t.Errorf("the hidden socket was reachable: stdout %q, stderr %q", r.stdout, r.stderr)
	}

	// A hidden socket outside the writable directories (NoRead there,
	// which connect(2) ignores) takes Unix sockets away too, and io_uring,
	// which connects without socket(2), is refused with them.
	outSock := filepath.Join(f.outside, "agent.sock")
	ln2, err := net.Listen("unix", outSock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln2.Close()
	rs.Hide = []string{filepath.Join(f.proj, ".env"), outSock}
	rules, err := rs.MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	r = inBwrap(t, f.proj, "exec", string(rules), "/usr/bin/env", "python3", "-c", `
import ctypes, socket
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall(425, 1, None)  # io_uring_setup(1, NULL): EFAULT where allowed
print("io_uring errno", ctypes.get_errno())
try:
    socket.socket(socket.AF_UNIX).connect("`+outSock+`"); print("CONNECTED")
except OSError as e:
    print("refused", e.errno)
`)
	if !strings.Contains(r.stdout, "io_uring errno 13") || !strings.Contains(r.stdout, "refused 13") {
		t.Errorf("socket outside the writable directories: stdout %q, stderr %q; want io_uring and the connect refused (EACCES)", r.stdout, r.stderr)
	}

	// With no socket lost, Unix sockets stay (socket(2) works; the
	// connect reaches the listener).
	rs.Hide = []string{filepath.Join(f.proj, ".env")}
	r = run(rs)
	if !strings.Contains(r.stdout, "CONNECTED") {
		t.Errorf("no socket lost: stdout %q, stderr %q; want Unix sockets usable", r.stdout, r.stderr)
	}
}

// TestNestedUserNS: the launcher falls back only inside a user namespace
// other than the initial one (whose uid_map maps every ID to itself).
func TestNestedUserNS(t *testing.T) {
	for _, tc := range []struct {
		uidMap string
		want   bool
	}{
		{"         0          0 4294967295\n", false},
		{"         0          0          1\n", true}, // bwrap --unshare-user, as root
		{"      1000       1000          1\n", true}, // bwrap, as user 1000
		{"         0       1000          1\n", true}, // unshare --map-root-user
		{"0 0 4294967295\n0 0 1\n", true},            // not the initial namespace's single line
		{"", true},
	} {
		if got := nestedUserNS(tc.uidMap); got != tc.want {
			t.Errorf("nestedUserNS(%q) = %v, want %v", tc.uidMap, got, tc.want)
		}
	}
}
