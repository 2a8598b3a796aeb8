package confine

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// launcherPath is the launcher under test: testdata/launcher, built by
// TestMain with CGO_ENABLED=0 as the safezone binary is; the fast launcher
// while TestFastLauncher runs, which sets fastHides.
var (
	launcherPath string
	fastHides    bool
)

func TestMain(m *testing.M) { os.Exit(testMain(m)) }

func testMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "confine-launcher-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	launcherPath = filepath.Join(dir, "launcher")
	build := exec.Command(goTool(), "build", "-o", launcherPath, "./testdata/launcher")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building the test launcher: %v\n%s", err, out)
		return 1
	}
	// Readable by the unprivileged user of TestReadOnlyUnprivileged.
	os.Chmod(dir, 0o755)
	return m.Run()
}

// goTool is the go command that runs these tests.
func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return filepath.Join(runtime.GOROOT(), "bin", "go")
}

// needLandlock skips the test where this kernel cannot confine commands.
func needLandlock(t *testing.T) Status {
	t.Helper()
	s := Available()
	if !s.Confine() {
		t.Skipf("confining is unavailable here: %v", s.Landlock)
	}
	return s
}

// namespaces caches one Probe of the test launcher.
var namespaces = sync.OnceValue(func() error { return Probe(launcherPath) })

// needNamespaces skips the test where ReadOnly paths cannot be enforced.
func needNamespaces(t *testing.T) {
	t.Helper()
	needLandlock(t)
	if s := Available(); s.ReadOnly != nil {
		t.Skipf("read-only paths are unavailable here: %v", s.ReadOnly)
	}
	if err := namespaces(); err != nil {
		t.Skipf("read-only paths are unavailable here: %v", err)
	}
}

// fixture is a directory tree for one test, all paths resolved:
//
//	proj/            the sandbox (writable)
//	  file           "in"
//	  .git/config    "cfg"
//	  .git/hooks/
//	  .claude/settings.json  "{}"
//	  link-out -> ../outside
//	  key -> ../home/.ssh/id_rsa
//	outside/existing "x"
//	home/notes       "notes"
//	home/.ssh/id_rsa "SECRET"
//	home/link-to-key -> .ssh/id_rsa
type fixture struct {
	root, proj, outside, home string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{root: root, proj: root + "/proj", outside: root + "/outside", home: root + "/home"}
	for _, d := range []string{"proj/.git/hooks", "proj/.claude", "outside", "home/.ssh"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range map[string]string{
		"proj/file": "in", "proj/.git/config": "cfg", "proj/.claude/settings.json": "{}",
		"outside/existing": "x", "home/notes": "notes", "home/.ssh/id_rsa": "SECRET",
	} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range map[string]string{
		"proj/link-out": "../outside", "proj/key": "../home/.ssh/id_rsa", "home/link-to-key": ".ssh/id_rsa",
	} {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// rules is the fixture's ruleset: proj and the devices writable, home/.ssh
// unreadable, and with readOnly the protected paths of proj read-only.
func (f *fixture) rules(readOnly bool) Ruleset {
	rs := Ruleset{
		Write:  append([]string{f.proj}, Devices()...),
		NoRead: []string{f.home + "/.ssh"},
	}
	if readOnly {
		rs.ReadOnly = []string{f.proj + "/.git/config", f.proj + "/.git/hooks", f.proj + "/.claude"}
	}
	return rs
}

type result struct {
	stdout, stderr string
	code           int
	signal         syscall.Signal // the signal that killed the launcher, or 0
}

// runLauncher runs the test launcher with args (after the subcommand) in dir.
func runLauncher(t *testing.T, dir string, cred *syscall.Credential, args ...string) result {
	t.Helper()
	cmd := exec.Command(launcherPath, append([]string{Subcommand}, args...)...)
	cmd.Dir = dir
	if cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	}
	return runCmd(t, cmd)
}

func runCmd(t *testing.T, cmd *exec.Cmd) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("%v: %v", cmd.Args, err)
	}
	r := result{stdout: stdout.String(), stderr: stderr.String(), code: cmd.ProcessState.ExitCode()}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		r.signal = ws.Signal()
	}
	return r
}

// sh runs script with /bin/sh under rs, in dir.
func sh(t *testing.T, dir string, rs Ruleset, script string) result {
	t.Helper()
	rules, err := rs.MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	return runLauncher(t, dir, nil, "exec", string(rules), "/bin/sh", "-c", script)
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWrites(t *testing.T) {
	needLandlock(t)
	for _, tc := range []struct {
		name   string
		script string
		ok     bool
		check  func(f *fixture) error // the state of the disk afterwards
	}{
		{name: "write inside", script: "echo a > proj/new && cat proj/new", ok: true},
		{name: "write outside", script: "echo a > outside/new",
			check: func(f *fixture) error { return absent(f.outside + "/new") }},
		{name: "mkdir outside", script: "mkdir outside/d",
			check: func(f *fixture) error { return absent(f.outside + "/d") }},
		{name: "write through a symlink in the project that points outside", script: "echo a > proj/link-out/new",
			check: func(f *fixture) error { return absent(f.outside + "/new") }},
		{name: "rename to outside", script: "mv proj/file outside/file",
			check: func(f *fixture) error {
				if !exists(f.proj + "/file") {
					return errors.New("proj/file is gone")
				}
				return absent(f.outside + "/file")
			}},
		{name: "hard link to outside", script: "ln proj/file outside/file",
			check: func(f *fixture) error { return absent(f.outside + "/file") }},
		{name: "truncate outside", script: ": > outside/existing",
			check: func(f *fixture) error { return content(f.outside+"/existing", "x") }},
		{name: "remove outside", script: "rm -f outside/existing",
			check: func(f *fixture) error { return content(f.outside+"/existing", "x") }},
		{name: "a grandchild is confined too", script: "sh -c 'sh -c \"echo a > outside/new\"'",
			check: func(f *fixture) error { return absent(f.outside + "/new") }},
		{name: "no new privileges", script: "grep -q '^NoNewPrivs:[[:space:]]*1$' /proc/self/status", ok: true},
		{name: "devices stay writable", script: "echo a > /dev/null && head -c 1 /dev/zero > /dev/null", ok: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			r := sh(t, f.root, f.rules(false), tc.script)
			if tc.ok && r.code != 0 {
				t.Fatalf("exit %d, want 0; stderr: %s", r.code, r.stderr)
			}
			if !tc.ok && (r.code == 0 || !strings.Contains(r.stderr, "ermission denied") && !strings.Contains(r.stderr, "not permitted")) {
				t.Fatalf("exit %d, stderr %q; want a permission error", r.code, r.stderr)
			}
			if tc.check != nil {
				if err := tc.check(f); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

func absent(p string) error {
	if exists(p) {
		return fmt.Errorf("%s was created", p)
	}
	return nil
}

func content(p, want string) error {
	b, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	if string(b) != want {
		return fmt.Errorf("%s holds %q, want %q", p, b, want)
	}
	return nil
}

func TestReads(t *testing.T) {
	needLandlock(t)
	for _, tc := range []struct {
		name   string
		script string
		ok     bool
		stdout string
	}{
		{name: "denied secret", script: "cat home/.ssh/id_rsa"},
		{name: "denied secret through a symlink beside it", script: "cat home/link-to-key"},
		{name: "denied secret through a symlink in the project", script: "cat proj/key"},
		{name: "denied secret through /proc/self/root", script: "cat /proc/self/root$PWD/home/.ssh/id_rsa"},
		{name: "denied secret copied", script: "cp home/.ssh/id_rsa proj/copy"},
		{name: "ordinary file beside the secret's directory", script: "cat home/notes", ok: true, stdout: "notes"},
		{name: "file in the project", script: "cat proj/file", ok: true, stdout: "in"},
		{name: "system file", script: "head -c 0 /etc/passwd && echo ok", ok: true, stdout: "ok\n"},
		{name: "names in a denied directory stay listable", script: "ls home/.ssh", ok: true, stdout: "id_rsa\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if fastHides && tc.name == "names in a denied directory stay listable" {
				// The fast launcher hides a NoRead directory whole: its
				// names are not listable either.
				tc.ok = false
			}
			f := newFixture(t)
			r := sh(t, f.root, f.rules(false), tc.script)
			if tc.ok {
				if r.code != 0 || r.stdout != tc.stdout {
					t.Fatalf("exit %d, stdout %q, want 0 and %q; stderr: %s", r.code, r.stdout, tc.stdout, r.stderr)
				}
				return
			}
			if r.code == 0 || !strings.Contains(r.stderr, "ermission denied") || strings.Contains(r.stdout, "SECRET") {
				t.Fatalf("exit %d, stdout %q, stderr %q; want a permission error", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// TestReadComplementCost shows the price of denying reads by complement: a
// file created after the command started, beside a denied path, cannot be
// read by the command that created it.
func TestReadComplementCost(t *testing.T) {
	needLandlock(t)
	f := newFixture(t)
	rs := Ruleset{Write: []string{f.proj}, NoRead: []string{f.proj + "/.git"}}
	r := sh(t, f.root, rs, "cat proj/file && echo new > proj/new && cat proj/new")
	if r.stdout != "in" || r.code == 0 || !strings.Contains(r.stderr, "proj/new: Permission denied") {
		t.Fatalf("exit %d, stdout %q, stderr %q; want proj/file read and proj/new unreadable", r.code, r.stdout, r.stderr)
	}
	if got := readFile(t, f.proj+"/new"); got != "new\n" {
		t.Errorf("proj/new holds %q", got)
	}
	// The next command lists proj anew and can read it.
	if r := sh(t, f.root, rs, "cat proj/new"); r.code != 0 || r.stdout != "new\n" {
		t.Errorf("next command: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

func TestReadOnly(t *testing.T) {
	needNamespaces(t)
	testReadOnly(t, nil)
}

// TestReadOnlyUnprivileged runs the read-only checks as an unprivileged
// user: there the second stage holds CAP_SYS_ADMIN in its user namespace
// only as an ambient capability, and the program gets none.
func TestReadOnlyUnprivileged(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("runs as root, switching to an unprivileged user (the tests already run unprivileged: see TestReadOnly)")
	}
	needNamespaces(t)
	testReadOnly(t, &syscall.Credential{Uid: 65534, Gid: 65534})
}

func testReadOnly(t *testing.T, cred *syscall.Credential) {
	uid := os.Getuid()
	if cred != nil {
		uid = int(cred.Uid)
	}
	for _, tc := range []struct {
		name   string
		inProj bool // run in proj, not in the fixture's root
		script string
		ok     bool
		stdout string
		check  func(f *fixture) error
	}{
		{name: "write a protected file", script: "echo x > proj/.claude/settings.json",
			check: func(f *fixture) error { return content(f.proj+"/.claude/settings.json", "{}") }},
		{name: "write beside it", script: "echo y > proj/other && cat proj/other", ok: true, stdout: "y\n"},
		{name: "append to .git/config", script: "echo x >> proj/.git/config",
			check: func(f *fixture) error { return content(f.proj+"/.git/config", "cfg") }},
		{name: "create a hook", script: "echo x > proj/.git/hooks/pre-commit",
			check: func(f *fixture) error { return absent(f.proj + "/.git/hooks/pre-commit") }},
		{name: "remove the protected directory", script: "rm -rf proj/.claude",
			check: func(f *fixture) error { return content(f.proj+"/.claude/settings.json", "{}") }},
		{name: "rename the protected directory", script: "mv proj/.claude proj/c2",
			check: func(f *fixture) error { return absent(f.proj + "/c2") }},
		{name: "rename the directory above a protected path", script: "mv proj/.git proj/g2",
			check: func(f *fixture) error { return absent(f.proj + "/g2") }},
		{name: "replace a protected file by a rename", script: "echo x > proj/c && mv proj/c proj/.git/config",
			check: func(f *fixture) error { return content(f.proj+"/.git/config", "cfg") }},
		{name: "writes outside stay denied", script: "echo a > outside/new",
			check: func(f *fixture) error { return absent(f.outside + "/new") }},
		{name: "the user ID is unchanged", script: "id -u", ok: true, stdout: fmt.Sprintln(uid)},
		{name: "no capabilities", script: "grep '^CapEff' /proc/self/status", ok: true, stdout: "CapEff:\t0000000000000000\n"},
		{name: "protected files stay readable", script: "cat proj/.git/config", ok: true, stdout: "cfg"},
		{name: "write a protected file relative to the project as working directory", inProj: true, script: "echo x > .claude/settings.json",
			check: func(f *fixture) error { return content(f.proj+"/.claude/settings.json", "{}") }},
		{name: "write a protected file through the supervisor's /proc entry", script: "echo x > /proc/$PPID/cwd/proj/.claude/settings.json",
			check: func(f *fixture) error { return content(f.proj+"/.claude/settings.json", "{}") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			if cred != nil {
				chownTree(t, f.root, int(cred.Uid), int(cred.Gid))
			}
			rules, _ := f.rules(true).MarshalText()
			dir := f.root
			if tc.inProj {
				dir = f.proj
			}
			r := runLauncher(t, dir, cred, "exec", string(rules), "/bin/sh", "-c", tc.script)
			if tc.ok {
				if r.code != 0 || r.stdout != tc.stdout {
					t.Fatalf("exit %d, stdout %q, want 0 and %q; stderr: %s", r.code, r.stdout, tc.stdout, r.stderr)
				}
			} else if r.code == 0 {
				t.Fatalf("exit 0, want a failure; stdout %q", r.stdout)
			}
			if tc.check != nil {
				if err := tc.check(f); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

func chownTree(t *testing.T, root string, uid, gid int) {
	t.Helper()
	for d := filepath.Dir(root); d != "/"; d = filepath.Dir(d) {
		os.Chmod(d, 0o755) // t.TempDir's parents are private to root
	}
	err := filepath.Walk(root, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, gid)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestReadOnlyMountsStay checks that the program cannot undo the bind mounts:
// Landlock denies mount(2) and umount(2) to a domain with file system rules.
func TestReadOnlyMountsStay(t *testing.T) {
	needNamespaces(t)
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("needs python3 to call umount2(2) and mount(2)")
	}
	f := newFixture(t)
	rules, _ := f.rules(true).MarshalText()
	const script = `
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
p = sys.argv[1].encode()
print(libc.umount2(p, 2), os.strerror(ctypes.get_errno()))
print(libc.mount(b"none", p, None, 32|4096|0x20, None), os.strerror(ctypes.get_errno()))
print(open(sys.argv[1] + "/settings.json", "a") and "writable")
`
	r := runLauncher(t, f.root, nil, "exec", string(rules), python, "-c", script, f.proj+"/.claude")
	if !strings.Contains(r.stdout, "-1 Operation not permitted\n-1 Operation not permitted\n") || strings.Contains(r.stdout, "writable") {
		t.Fatalf("stdout %q, stderr %q; want umount2 and mount refused and the file still read-only", r.stdout, r.stderr)
	}
}

// TestSignalsAndStatus checks that the exit status and a killing signal
// pass through, also through the supervisor of the namespace path.
func TestSignalsAndStatus(t *testing.T) {
	needLandlock(t)
	for _, readOnly := range []bool{false, true} {
		t.Run(fmt.Sprintf("readonly=%v", readOnly), func(t *testing.T) {
			if readOnly {
				needNamespaces(t)
			}
			f := newFixture(t)
			rs := f.rules(readOnly)
			if r := sh(t, f.root, rs, "echo out; echo err >&2; exit 7"); r.code != 7 || r.stdout != "out\n" || r.stderr != "err\n" {
				t.Errorf("exit %d, stdout %q, stderr %q; want 7, out, err", r.code, r.stdout, r.stderr)
			}
			if r := sh(t, f.root, rs, "kill -TERM $$"); r.signal != syscall.SIGTERM {
				t.Errorf("kill -TERM $$: exit %d, signal %v; want killed by SIGTERM", r.code, r.signal)
			}
			// A signal sent to the launcher alone reaches the program.
			rules, _ := rs.MarshalText()
			cmd := exec.Command(launcherPath, Subcommand, "exec", string(rules), "/bin/sh", "-c", "echo started; sleep 30")
			cmd.Dir = f.root
			out, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 8)
			if _, err := out.Read(buf); err != nil {
				t.Fatal(err)
			}
			cmd.Process.Signal(syscall.SIGTERM)
			cmd.Wait()
			if ws := cmd.ProcessState.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
				t.Errorf("SIGTERM to the launcher: %v; want killed by SIGTERM", cmd.ProcessState)
			}
		})
	}
}

// TestFailsClosed checks that a launcher that cannot apply its ruleset does
// not run the command.
func TestFailsClosed(t *testing.T) {
	needLandlock(t)
	f := newFixture(t)
	marker := f.proj + "/ran"
	script := "touch " + marker
	b64 := base64.StdEncoding.EncodeToString([]byte(script))
	good, _ := f.rules(false).MarshalText()
	if err := os.Symlink(f.home, f.root+"/home-link"); err != nil {
		t.Fatal(err)
	}
	throughLink, _ := Ruleset{Write: []string{f.proj}, NoRead: []string{f.root + "/home-link/.ssh"}}.MarshalText()
	stateFile := f.root + "/state"
	if err := os.WriteFile(stateFile, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	// A regular file as a state or directory descriptor: a name in a shared
	// directory, which another process could open too.
	file, err := os.OpenFile(stateFile, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"ruleset is not JSON", []string{"exec", "{", "/bin/sh", "-c", script}},
		{"ruleset has a relative path", []string{"exec", `{"write":["proj"]}`, "/bin/sh", "-c", script}},
		{"ruleset has an unknown field", []string{"exec", `{"write":["/"],"net":[]}`, "/bin/sh", "-c", script}},
		{"denied path behind a symlink", []string{"exec", string(throughLink), "/bin/sh", "-c", script}},
		{"unknown mode", []string{"run", string(good), "/bin/sh", "-c", script}},
		{"command is not base64", []string{"bash", string(good), "-", "/bin/bash", "bash", "%%%"}},
		{"relative shell", []string{"bash", string(good), "-", "bash", "bash", b64}},
		{"state descriptor not open", []string{"bash", string(good), "42", "/bin/bash", "bash", b64}},
		{"state descriptor is stdin", []string{"bash", string(good), "0", "/bin/bash", "bash", b64}},
		{"state descriptor is a regular file", []string{"bash", string(good), "3", "/bin/bash", "bash", b64}},
		{"the old form, with a state file", []string{"bash", string(good), "4", stateFile, "/bin/bash", "bash", b64}},
		{"program missing", []string{"exec", string(good), "/nonexistent/prog"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(launcherPath, append([]string{Subcommand}, tc.args...)...)
			cmd.Dir = f.root
			cmd.ExtraFiles = []*os.File{file, pr} // descriptors 3 and 4
			r := runCmd(t, cmd)
			if r.code != ExitCannotRun || !strings.HasPrefix(r.stderr, "safezone: confine: ") || !strings.Contains(r.stderr, "the command was not run") {
				t.Errorf("exit %d, stderr %q; want %d and a safezone: confine: message", r.code, r.stderr, ExitCannotRun)
			}
			if exists(marker) {
				t.Fatal("the command ran")
			}
		})
	}
}

func TestAvailable(t *testing.T) {
	s := needLandlock(t)
	if s.LandlockABI < 1 {
		t.Errorf("LandlockABI = %d with Landlock usable", s.LandlockABI)
	}
	// Available enforced a ruleset on a thread it threw away: this process
	// must still write where it likes.
	p := filepath.Join(t.TempDir(), "after")
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Errorf("writing after Available: %v", err)
	}
	t.Logf("Landlock ABI %d; read-only paths: %v", s.LandlockABI, s.ReadOnly)
}

// TestRestrictIsPerThread checks what the launcher relies on: enforcing a
// ruleset with restrictThread confines the calling thread only, and the
// process's other threads go on unconfined (which also makes Available's
// probe harmless). The launcher's program is confined because it is
// exec'd from the confined thread: see TestWrites.
func TestRestrictIsPerThread(t *testing.T) {
	s := needLandlock(t)
	inside, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	fd, _, err := buildRuleset(Ruleset{Write: []string{inside}}, s.LandlockABI)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	errs := make(chan [2]error)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		if err := restrictThread(fd, 0); err != nil {
			errs <- [2]error{err, err}
			return
		}
		errs <- [2]error{
			os.WriteFile(filepath.Join(inside, "a"), nil, 0o600),
			os.WriteFile(filepath.Join(outside, "a"), nil, 0o600),
		}
	}()
	got := <-errs
	if got[0] != nil || !errors.Is(got[1], syscall.EACCES) {
		t.Fatalf("on the confined thread: inside %v, outside %v; want nil and EACCES", got[0], got[1])
	}
	// This goroutine runs on another thread (the confined one was locked to
	// its goroutine and ended with it).
	if err := os.WriteFile(filepath.Join(outside, "b"), nil, 0o600); err != nil {
		t.Errorf("on another thread: %v; want the write allowed", err)
	}
}

// TestScopes: from Landlock ABI 6, a confined process cannot signal a
// process outside its domain, while it can signal its own children.
func TestScopes(t *testing.T) {
	needLandlock(t)
	if abi, err := landlockABI(); err != nil || abi < 6 {
		t.Skipf("Landlock ABI %d: no scopes before 6", abi)
	}
	f := newFixture(t)
	outside := exec.Command("sleep", "30")
	if err := outside.Start(); err != nil {
		t.Fatal(err)
	}
	defer outside.Process.Kill()
	r := sh(t, f.proj, f.rules(false), fmt.Sprintf("kill -0 %d; echo outside=$?; sleep 30 & kill $!; echo own=$?", outside.Process.Pid))
	if !strings.Contains(r.stdout, "outside=1") || !strings.Contains(r.stdout, "own=0") {
		t.Fatalf("signals: %+v", r)
	}
}

// TestTerminalIoctls: from Landlock ABI 5 a confined program cannot use the
// ioctls of a terminal it opens (TIOCSTI would type into the user's
// terminal or Claude Code's prompt where dev.tty.legacy_tiocsti allows
// it), while it can still make a pseudo-terminal, write to it, and use the
// data devices.
func TestTerminalIoctls(t *testing.T) {
	s := needLandlock(t)
	if s.LandlockABI < 5 {
		t.Skipf("Landlock ABI %d restricts no device ioctls (5 does)", s.LandlockABI)
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 to open a pseudo-terminal")
	}
	for _, tc := range []struct {
		name, script string
		ok           bool
	}{
		{"a pty is made and written", `python3 -c 'import os; m, s = os.openpty(); os.write(s, b"x"); assert os.read(m, 1) == b"x"'`, true},
		{"the data devices keep their ioctls", `python3 -c 'import fcntl, termios, struct; fcntl.ioctl(open("/dev/null"), termios.FIONREAD, struct.pack("i", 0))' 2>&1 | grep -qv 'Permission denied'`, true},
		{"a terminal's ioctls are denied", `python3 -c 'import os, termios; m, s = os.openpty(); termios.tcgetattr(s)'`, false},
		{"TIOCSTI is denied", `python3 -c 'import os, fcntl, termios; m, s = os.openpty(); fcntl.ioctl(s, termios.TIOCSTI, b"x")'`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			r := sh(t, f.root, f.rules(false), tc.script)
			if tc.ok && r.code != 0 {
				t.Fatalf("exit %d, want 0; stderr: %s", r.code, r.stderr)
			}
			if !tc.ok && (r.code == 0 || !strings.Contains(r.stderr, "ermission denied")) {
				t.Fatalf("exit %d, stderr %q; want a permission error", r.code, r.stderr)
			}
		})
	}
}

// TestReportUnwritable: a launcher whose registration cannot be written
// (Report.Dir below a read-only directory, as the state directory is
// inside Claude Code's or Codex's sandbox) still runs the command,
// confined, and says on standard error that its refusals are not reported.
// Run with the fast launcher by TestFastLauncher.
func TestReportUnwritable(t *testing.T) {
	needLandlock(t)
	f := newFixture(t)
	ro := filepath.Join(f.root, "ro")
	if err := os.Mkdir(ro, 0o755); err != nil {
		t.Fatal(err)
	}
	rs := f.rules(false)
	// A path that is not a directory: mkdir fails whoever runs it (root
	// writes a mode-0555 directory anyway).
	if err := os.WriteFile(filepath.Join(ro, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	rs.Report = &Report{Dir: filepath.Join(ro, "file", "launch"), Call: `{"session_id":"s"}`}
	r := sh(t, f.root, rs, "echo ran && echo a > outside/new")
	if !strings.Contains(r.stdout, "ran") {
		t.Fatalf("the command did not run: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "refusals are not reported") {
		t.Errorf("stderr %q does not say the refusals are not reported", r.stderr)
	}
	if err := absent(f.outside + "/new"); err != nil || r.code == 0 {
		t.Errorf("the command was not confined: exit %d, %v", r.code, err)
	}
}
