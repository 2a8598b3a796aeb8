package confine

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// claude is a stand-in for Claude Code's Bash tool: it runs a command the
// way Claude Code 2.1.330 does, so that a command and its rewrite can be
// compared.
type claude struct {
	dir, home, tmp string // the working directory, $HOME, $TMPDIR
	snapshot       string // the shell snapshot sourced first
}

type claudeResult struct {
	stdout, stderr string
	code           int
	cwd            string // what `pwd -P >| cwdfile` recorded; "" when it did not run
}

// run runs command as Claude Code 2.1.330 does:
//
//	/bin/bash -c 'source SNAPSHOT 2>/dev/null || true && \builtin shopt -u extglob 2>/dev/null || true && eval '<command>' < /dev/null && pwd -P >| CWDFILE'
func (c *claude) run(t *testing.T, command string) claudeResult {
	t.Helper()
	cwdFile := filepath.Join(c.tmp, "claude-cwd")
	os.Remove(cwdFile)
	script := "source " + c.snapshot + ` 2>/dev/null || true && \builtin shopt -u extglob 2>/dev/null || true && eval '` +
		strings.ReplaceAll(command, "'", `'"'"'`) + "' < /dev/null && pwd -P >| " + shellQuote(cwdFile)
	cmd := exec.Command("/bin/bash", "-c", script)
	cmd.Dir = c.dir
	cmd.Env = []string{"HOME=" + c.home, "TMPDIR=" + c.tmp, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "EXPORTED=yes"}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	r := claudeResult{stdout: stdout.String(), stderr: stderr.String(), code: cmd.ProcessState.ExitCode()}
	if b, err := os.ReadFile(cwdFile); err == nil {
		r.cwd = string(b)
	}
	return r
}

// TestRewriteBehavesAlike runs each command as Claude Code would, once as it
// is and once rewritten to run confined, and compares stdout, stderr, the
// exit status and the directory Claude Code records for the next call.
func TestRewriteBehavesAlike(t *testing.T) {
	needLandlock(t)
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("needs /bin/bash")
	}
	snapshot, err := filepath.Abs("testdata/snapshot.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, command string
	}{
		{"quotes and expansions", `echo "it's" 'a"b' $'tab\there' "$HOME" '$x' ` + "`echo bq` $((6*7))"},
		{"newlines and unicode", "printf '%s\\n' 'ünïcødé ✓ 日本'\necho 'line 2'\n\n"},
		{"binary-looking bytes", "printf '%s' '\x01\x02\x1b[0m\x7f\xfe\xff'; echo"},
		{"trailing backslash-newline", "echo a \\\nb"},
		{"a here-document", "cat <<'EOF'\n$x 'y' \"z\"\nEOF\ncat <<EOF\n$HOME\nEOF"},
		{"exit status", "false"},
		{"exit status of a subshell", "(exit 42)"},
		{"exit", "echo before; exit 3; echo after"},
		{"stdout and stderr", "echo out; echo err >&2; echo out2"},
		{"command not found", "nosuchcommand_xyz arg"},
		{"command not found on line 2", "true\nnosuchcommand_xyz"},
		{"syntax error", "echo ("},
		{"positional parameters and the shell name", `echo "$#" "$@" "$0"`},
		{"snapshot function and aliases", "myfn a b; ll; ll2"},
		{"functions and aliases listed", "declare -F; alias"},
		{"options", "set +o; shopt -p; echo $-"},
		{"set -e on the left of an and-list", "set -e; false; echo still here"},
		{"line numbers", "echo $LINENO\necho $LINENO\n\nnosuchcommand_xyz"},
		{"cd persists", "mkdir -p sub && cd sub && pwd"},
		{"cd then failure", "cd sub 2>/dev/null || mkdir sub; cd sub; false"},
		{"cd to a directory with odd bytes", "mkdir -p \"$(printf 'd \\n\\x01')\" && cd \"$(printf 'd \\n\\x01')\""},
		{"stdin is /dev/null", `cat; read -r x; echo "[$x] $?"`},
		{"background job", "(sleep 0.1; echo bg) & wait; echo done"},
		{"environment and shell level", `echo "$EXPORTED" "$SHLVL" "${NOT_SET-unset}"`},
		{"outer wrapper variables are not visible", `echo "[${__sz_i-}${__sz_p-}${__sz_s-}${__sz_a-}]"`},
		{"traps", "trap 'echo bye' EXIT; echo hi"},
		{"limits and umask", "ulimit -n; ulimit -Sn; ulimit -Hn; umask"},
		{"noclobber off", "echo a > f; echo b > f; cat f"},
		{"a quote-heavy one-liner", `python3 -c 'import sys; print("x", sys.argv[1:])' "a b" 'c"d' 2>/dev/null || echo "no python"`},
	} {
		for _, readOnly := range []bool{false, true} {
			name := tc.name
			if readOnly {
				name += " with read-only paths"
			}
			t.Run(name, func(t *testing.T) {
				if readOnly {
					needNamespaces(t)
				}
				testBehavesAlike(t, snapshot, tc.command, readOnly)
			})
		}
	}
}

// testBehavesAlike runs command as is and rewritten, and compares.
func testBehavesAlike(t *testing.T, snapshot, command string, readOnly bool) {
	f := newFixture(t)
	tmp := filepath.Join(f.root, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	c := &claude{dir: f.proj, home: f.home, tmp: tmp, snapshot: snapshot}
	want := c.run(t, command)
	rewritten, err := Rewrite(command, launcherPath, f.rules(readOnly))
	if err != nil {
		t.Fatal(err)
	}
	// Undo what the first run did in the project, for the second.
	os.RemoveAll(filepath.Join(f.proj, "sub"))
	os.Remove(filepath.Join(f.proj, "f"))
	os.RemoveAll(filepath.Join(f.proj, "d \n\x01"))
	got := c.run(t, rewritten)
	if got != want {
		t.Errorf("command %q\nas is:     %+v\nrewritten: %+v", command, want, got)
	}
	if entries, _ := os.ReadDir(tmp); len(entries) > 1 { // Claude Code's own cwd file
		t.Errorf("the wrapper left files in $TMPDIR: %v", entries)
	}
}

// TestRewriteConfines checks that the rewritten command is confined, and
// that the outer shell's odd options do not break the wrapper.
func TestRewriteConfines(t *testing.T) {
	needLandlock(t)
	f := newFixture(t)
	tmp := filepath.Join(f.root, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	snapshot := filepath.Join(f.root, "strict.sh")
	if err := os.WriteFile(snapshot, []byte("set -o nounset -o noclobber -o pipefail\nshopt -s failglob nullglob\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := &claude{dir: f.proj, home: f.home, tmp: tmp, snapshot: snapshot}
	rewritten, err := Rewrite("cat ../home/.ssh/id_rsa; echo x > ../outside/new; echo y > inside; echo y > inside; cat inside; cd .git; echo $-", launcherPath, f.rules(false))
	if err != nil {
		t.Fatal(err)
	}
	got := c.run(t, rewritten)
	if !strings.Contains(got.stderr, "id_rsa: Permission denied") || !strings.Contains(got.stderr, "outside/new: Permission denied") ||
		!strings.Contains(got.stderr, "inside: cannot overwrite existing file") || exists(f.outside+"/new") {
		t.Errorf("stderr %q; want the secret and the outside write denied, and noclobber kept", got.stderr)
	}
	if got.stdout != "y\nhuBCc\n" || got.cwd != f.proj+"/.git\n" || got.code != 0 {
		t.Errorf("stdout %q, cwd %q, exit %d", got.stdout, got.cwd, got.code)
	}
}

// stateThief is a process a confined command leaves behind, trying what a
// process of an earlier call can against a later one's shell state: it
// opens, for appending, every descriptor of every process whose command
// line names the fixture ($ROOT), and every file in $TMPDIR, and writes a
// command there (the state is sourced by the confined shell) and a
// directory (the outer shell's cd), for $SECS seconds. It logs what it saw
// and what it opened in $PROJ/thief.log, and ends by creating $PROJ/done.
const stateThief = `end=$((SECONDS+SECS))
while [ $SECONDS -lt $end ]; do
	for d in /proc/[0-9]*; do
		case ${d#/proc/} in $$|$BASHPID) continue;; esac
		mapfile -d '' a 2>/dev/null <"$d/cmdline" || continue
		case "${a[*]}" in *"$ROOT"*) ;; *) continue;; esac
		for f in "$d"/fd/* "$TMPDIR"/*; do
			[ -e "$f" ] || [ -L "$f" ] || continue
			echo "saw $f" >>"$PROJ/thief.log"
			{ printf 'touch %s/pwned\n%s\0' "$PROJ" "$ROOT/outside" >>"$f"; } 2>/dev/null && echo "opened $f" >>"$PROJ/thief.log"
		done
	done
done
touch "$PROJ/done"
`

// TestStateChannelUnreachable runs the attack of issue 27 (2): a confined
// command leaves a process behind that watches for the next confined
// call's shell state and writes into it. The state travels in pipes only
// the outer shell and the launcher hold, and a confined process cannot
// open another process's descriptors through /proc (Landlock refuses it
// ptrace access to any process outside its own domain), so the next
// call runs nothing of the thief's and returns to its own directory.
func TestStateChannelUnreachable(t *testing.T) {
	needLandlock(t)
	f := newFixture(t)
	tmp := filepath.Join(f.root, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f.proj+"/thief.sh", []byte(stateThief), 0o644); err != nil {
		t.Fatal(err)
	}
	c := &claude{dir: f.proj, home: f.home, tmp: tmp, snapshot: "/dev/null"}
	for _, readOnly := range []bool{false, true} {
		if readOnly && Available().ReadOnly != nil {
			continue
		}
		os.Remove(f.proj + "/done")
		os.Remove(f.proj + "/thief.log")
		start, err := Rewrite("ROOT="+shellQuote(f.root)+" PROJ="+shellQuote(f.proj)+" SECS=3 bash thief.sh </dev/null >/dev/null 2>&1 &", launcherPath, f.rules(readOnly))
		if err != nil {
			t.Fatal(err)
		}
		if r := c.run(t, start); r.code != 0 {
			t.Fatalf("starting the thief: %+v", r)
		}
		victim, err := Rewrite("sleep 1; echo ran", launcherPath, f.rules(readOnly))
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			got := c.run(t, victim)
			if got.stdout != "ran\n" || got.code != 0 || got.cwd != f.proj+"\n" {
				t.Errorf("read-only %v: the next call: %+v; want it run as written, back in %s", readOnly, got, f.proj)
			}
		}
		deadline := time.Now().Add(30 * time.Second)
		for !exists(f.proj+"/done") && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		log, _ := os.ReadFile(f.proj + "/thief.log")
		if exists(f.proj + "/pwned") {
			t.Fatalf("read-only %v: the thief's line ran in a later call; its log:\n%s", readOnly, log)
		}
		if strings.Contains(string(log), "opened ") {
			t.Errorf("read-only %v: the thief opened a later call's descriptor or file:\n%s", readOnly, log)
		}
		if !strings.Contains(string(log), "saw /proc/") {
			t.Errorf("read-only %v: the thief saw no process of the later call (the test proves nothing):\n%s", readOnly, log)
		}
		if entries, _ := os.ReadDir(tmp); len(entries) > 1 {
			t.Errorf("read-only %v: the wrapper left files in $TMPDIR: %v", readOnly, entries)
		}
	}
}

// TestHostKill kills the command the way Claude Code 2.1.330 stops one (a
// timeout moved to the background, TaskStop, the end of the session):
// SIGTERM to the shell's process group, which it started detached, and to
// each of the shell's descendants, since with `set -o monitor` (in every
// snapshot) the command's processes have process groups of their own. Every
// process of the confined command must end, as every process of the
// command as is does.
func TestHostKill(t *testing.T) {
	needLandlock(t)
	snapshot, err := filepath.Abs("testdata/snapshot.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, variant := range []string{"as is", "rewritten", "rewritten with read-only paths"} {
		t.Run(variant, func(t *testing.T) {
			if variant == "rewritten with read-only paths" {
				needNamespaces(t)
			}
			f := newFixture(t)
			tmp := filepath.Join(f.root, "tmp")
			if err := os.Mkdir(tmp, 0o755); err != nil {
				t.Fatal(err)
			}
			command := "echo started; sleep 30; echo finished"
			if variant != "as is" {
				command, err = Rewrite(command, launcherPath, f.rules(variant != "rewritten"))
				if err != nil {
					t.Fatal(err)
				}
			}
			script := "source " + snapshot + ` 2>/dev/null || true && eval '` + strings.ReplaceAll(command, "'", `'"'"'`) + "' < /dev/null && pwd -P >| " + shellQuote(tmp+"/cwd")
			cmd := exec.Command("/bin/bash", "-c", script)
			cmd.Dir = f.proj
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 8)
			if _, err := io.ReadFull(out, buf); err != nil || string(buf) != "started\n" {
				t.Fatalf("read %q, %v", buf, err)
			}
			// Kill once the sleep runs, so that the whole tree is there.
			var tree []int
			for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
				tree = descendants(cmd.Process.Pid)
				if slices.ContainsFunc(tree, func(pid int) bool { return comm(pid) == "sleep" }) {
					break
				}
				if time.Since(start) > 10*time.Second {
					t.Fatalf("no sleep among the shell's descendants %v", tree)
				}
			}
			syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
			for _, pid := range tree {
				syscall.Kill(pid, syscall.SIGTERM)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the shell is still running 10 s after SIGTERM")
			}
			deadline := time.Now().Add(10 * time.Second)
			for _, pid := range tree {
				for alive(pid) {
					if time.Now().After(deadline) {
						t.Fatalf("process %d (%s) outlived the kill", pid, comm(pid))
					}
					time.Sleep(20 * time.Millisecond)
				}
			}
		})
	}
}

// descendants returns the process IDs of every descendant of pid, read from
// /proc.
func descendants(pid int) []int {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		fields := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(fields) > 1 {
			if ppid, err := strconv.Atoi(fields[1]); err == nil {
				children[ppid] = append(children[ppid], p)
			}
		}
	}
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	return out
}

// alive reports whether pid runs (a zombie does not).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	fields := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

func comm(pid int) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	return strings.TrimSpace(string(b))
}

// TestRewriteNeedsBash checks that a shell other than bash refuses the
// rewritten command instead of running part of it: dash and mksh say why
// and exit 126; zsh parses the whole text first and fails on it.
func TestRewriteNeedsBash(t *testing.T) {
	f := newFixture(t)
	rewritten, err := Rewrite("touch ran", launcherPath, f.rules(false))
	if err != nil {
		t.Fatal(err)
	}
	tried := 0
	for _, sh := range []string{"/bin/dash", "/bin/zsh", "/bin/mksh"} {
		if _, err := os.Stat(sh); err != nil {
			continue
		}
		tried++
		cmd := exec.Command(sh, "-c", "eval '"+strings.ReplaceAll(rewritten, "'", `'"'"'`)+"'")
		cmd.Dir = f.proj
		r := runCmd(t, cmd)
		if sh == "/bin/zsh" {
			if r.code == 0 || !strings.Contains(r.stderr, "parse error") || exists(f.proj+"/ran") {
				t.Errorf("%s: exit %d, stderr %q; want a parse error and the command not run", sh, r.code, r.stderr)
			}
			continue
		}
		if r.code != ExitCannotRun || !strings.Contains(r.stderr, "needs bash") || exists(f.proj+"/ran") {
			t.Errorf("%s: exit %d, stderr %q; want %d, a message, and the command not run", sh, r.code, r.stderr, ExitCannotRun)
		}
	}
	if tried == 0 {
		t.Skip("needs dash, zsh or mksh")
	}
}

// posixShells are the shells TestRewritePOSIXBehavesAlike runs commands
// in, as Codex CLI would (`SHELL -c COMMAND`), where they are installed.
var posixShells = []string{"/bin/bash", "/bin/sh", "/usr/bin/dash", "/usr/bin/zsh", "/bin/zsh", "/usr/bin/mksh", "/bin/ksh"}

// runShell runs command as Codex CLI 0.171.0 runs exec_command's command:
// `SHELL -c COMMAND` in the call's working directory, stdin from the
// caller (here empty).
func runShell(t *testing.T, shell, dir string, env []string, command string) claudeResult {
	t.Helper()
	cmd := exec.Command(shell, "-c", command)
	cmd.Dir = dir
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	code := cmd.ProcessState.ExitCode()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		code = 128 + int(ws.Signal())
	}
	return claudeResult{stdout: stdout.String(), stderr: stderr.String(), code: code}
}

// TestRewritePOSIXBehavesAlike runs each command in each installed POSIX
// shell as Codex CLI does, once as it is and once as RewritePOSIX writes
// it, and compares stdout, stderr and the exit status.
func TestRewritePOSIXBehavesAlike(t *testing.T) {
	needLandlock(t)
	commands := []struct{ name, command string }{
		{"quotes and expansions", `echo "it's" 'a"b' "$HOME" '$x' ` + "`echo bq` $((6*7))"},
		{"newlines and unicode", "printf '%s\\n' 'ünïcødé ✓ 日本'\necho 'line 2'\n\n"},
		{"binary-looking bytes", "printf '%s' '\x01\x02\x1b[0m\x7f\xfe\xff'; echo"},
		{"single quotes everywhere", `echo 'a'\''b' "'" ''`},
		{"a here-document", "cat <<'EOF'\n$x 'y' \"z\"\nEOF\ncat <<EOF\n$HOME\nEOF"},
		{"exit status", "false"},
		{"exit status of a subshell", "(exit 42)"},
		{"exit", "echo before; exit 3; echo after"},
		{"killed by a signal", "kill -TERM $$; echo after"},
		{"stdout and stderr", "echo out; echo err >&2; echo out2"},
		{"command not found", "nosuchcommand_xyz arg"},
		{"syntax error", "echo ("},
		{"positional parameters and the shell name", `echo "$#" "$@" "$0"`},
		{"cd", "mkdir -p sub && cd sub && pwd"},
		{"stdin", `cat; read -r x; echo "[$x] $?"`},
		{"background job", "(sleep 0.1; echo bg) & wait; echo done"},
		{"environment", `echo "$EXPORTED" "${NOT_SET-unset}"`},
		{"options", "echo $-"},
		{"limits and umask", "ulimit -n; umask"},
	}
	found := 0
	for _, shell := range posixShells {
		if _, err := os.Stat(shell); err != nil {
			continue
		}
		found++
		for _, tc := range commands {
			t.Run(filepath.Base(shell)+"/"+tc.name, func(t *testing.T) {
				f := newFixture(t)
				// zsh, mksh and ksh write here-documents in a temporary
				// directory: one in the project here (the fixture's own
				// directory is on the way to ~/.ssh, so a file created
				// in it could not be read back; see the package doc).
				tmp := filepath.Join(f.proj, "tmp")
				if err := os.Mkdir(tmp, 0o755); err != nil {
					t.Fatal(err)
				}
				env := []string{"HOME=" + f.home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "EXPORTED=yes",
					"TMPDIR=" + tmp, "TMPPREFIX=" + tmp + "/zsh"}
				want := runShell(t, shell, f.proj, env, tc.command)
				rewritten, err := RewritePOSIX(tc.command, launcherPath, f.rules(false))
				if err != nil {
					t.Fatal(err)
				}
				os.RemoveAll(filepath.Join(f.proj, "sub"))
				got := runShell(t, shell, f.proj, env, rewritten)
				if got != want {
					t.Errorf("%s -c %q\nas is:     %+v\nrewritten: %+v", shell, tc.command, want, got)
				}
			})
		}
	}
	if found == 0 {
		t.Skip("no POSIX shell found")
	}
}

// TestRewritePOSIXConfines checks, in each installed POSIX shell, that the
// command RewritePOSIX writes runs confined, read-only paths included.
func TestRewritePOSIXConfines(t *testing.T) {
	needLandlock(t)
	for _, shell := range posixShells {
		if _, err := os.Stat(shell); err != nil {
			continue
		}
		for _, readOnly := range []bool{false, true} {
			name := filepath.Base(shell)
			if readOnly {
				name += " with read-only paths"
			}
			t.Run(name, func(t *testing.T) {
				if readOnly {
					needNamespaces(t)
				}
				f := newFixture(t)
				env := []string{"HOME=" + f.home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}
				rewritten, err := RewritePOSIX("cat ../home/.ssh/id_rsa; echo x > ../outside/new; echo y > inside; cat inside; echo z >> .git/config", launcherPath, f.rules(readOnly))
				if err != nil {
					t.Fatal(err)
				}
				got := runShell(t, shell, f.proj, env, rewritten)
				if strings.Contains(got.stdout, "SECRET") || exists(f.outside+"/new") || got.stdout != "y\n" {
					t.Errorf("stdout %q, stderr %q: want the secret unread, no write outside, and the write inside done", got.stdout, got.stderr)
				}
				if err := content(f.proj+"/.git/config", "cfg"); readOnly && err != nil {
					t.Errorf("with read-only paths: %v", err)
				}
			})
		}
	}
}

// TestRewriteBashConfines runs RewriteBash's form as Gemini CLI 0.61.0
// runs a command (`bash -c '{ COMMAND }; __code=$?; ...; exit $__code;'`):
// confined, with the command's output and exit status, and the host's
// script going on after it.
func TestRewriteBashConfines(t *testing.T) {
	needLandlock(t)
	f := newFixture(t)
	rewritten, err := RewriteBash("cat ../home/.ssh/id_rsa; echo x > ../outside/new; echo in > inside; cat inside; exit 3", launcherPath, f.rules(false))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/bin/bash", "-c", "{ "+rewritten+"\n}; __code=$?; echo after; exit $__code;")
	cmd.Dir = f.proj
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Errorf("exit: %v, want status 3", err)
	}
	if stdout.String() != "in\nafter\n" || !strings.Contains(stderr.String(), "id_rsa: Permission denied") || !strings.Contains(stderr.String(), "outside/new: Permission denied") || exists(f.outside+"/new") {
		t.Errorf("stdout %q, stderr %q; want the secret and the write outside denied, the host's script going on", stdout.String(), stderr.String())
	}
}
