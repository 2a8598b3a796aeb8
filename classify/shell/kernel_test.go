//go:build linux

package shell

// TestShellKernel is the differential test of the shell analysis against
// the kernel: every Bash command of the table tests (shelltest.Cases)
// and of the shared conformance corpus runs for real, in a throwaway copy
// of its fixture, under
//
//	bwrap --ro-bind / / --bind BASE BASE --dev /dev --proc /proc --unshare-net --unshare-pid ...
//	strace -ff -qq -y -e trace=openat,creat,unlinkat,renameat2,mkdirat,linkat,symlinkat,chdir,...
//
// The read-only root makes a write outside the fixture fail harmlessly while
// strace still records the attempt. Every path the kernel was asked to open
// for writing, create, remove, rename, link, truncate, chmod or chown
// anywhere, and every path it was asked to open for reading inside the
// fixture, must be covered by one of Analyze's targets (what `safezone
// explain --json` prints under "commands"): the same path, a directory above
// it, or a glob or pattern matching it, with the right access (a write
// target covers a read of the same path: Read deny rules apply to writes
// too). A command whose analysis is unknown is not run: the hook never
// allows it, whatever it does. kernelExclusions lists, with reasons, the
// only kernel events not compared.
//
// strace's -y prints each directory descriptor, AT_FDCWD included, with
// the directory it names, which is how relative paths are resolved against
// the traced chdirs (a process's cwd at the time of the call).
//
// The test skips, saying why, where bwrap or strace is missing or cannot
// run (no user namespaces, ptrace forbidden); -short skips it too.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/safezonehq/safezone/classify/shell/shelltest"
)

// kernelSyscalls are the system calls traced: every way a program names a
// path to create, change, remove or read a file.
const kernelSyscalls = "open,openat,openat2,creat,truncate,unlink,unlinkat,rmdir,rename,renameat,renameat2," +
	"mkdir,mkdirat,mknod,mknodat,link,linkat,symlink,symlinkat,chmod,fchmodat,chown,lchown,fchownat," +
	"utimes,utimensat,futimesat,chdir,fchdir"

// kernelTimeout bounds one command (tail -f and sleep do not end on their own).
const kernelTimeout = 5 * time.Second

// kernelTmpDir is the $TMPDIR of the commands run (Env.TmpDir): outside
// the fixture, read-only in the sandbox.
const kernelTmpDir = "/tmp"

// readSmallFile is Env.ReadFile for the kernel test, as a caller would
// give it: the file's contents, refused over 64 KiB.
func readSmallFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 64<<10+1))
	if err == nil && len(b) > 64<<10 {
		err = fmt.Errorf("%s is over 64 KiB", name)
	}
	return b, err
}

// kernelEvent is one path a traced process named to the kernel.
type kernelEvent struct {
	Syscall string
	Path    string // absolute, as the kernel was asked (dirfd or cwd joined, cleaned)
	Access  Access
	Cwd     string // the process's working directory at the call (AT_FDCWD's)
	Exe     string // the program that asked (base name of its last execve)
	// Opaque: the process (or an ancestor) runs a program or script the
	// analysis marked Command.Runs.
	Opaque bool
	Line   string // the strace line, for messages
}

// kernelRun is one command run for real.
type kernelRun struct {
	Cmd      string
	Fixture  string // the throwaway fixture, symlinks resolved
	Home     string
	Events   []kernelEvent
	Analysis Analysis
}

// kernelExclusions are the only kernel events the test does not compare,
// each with the reason it lies outside what the analysis judges. Keep
// every exclusion here.
var kernelExclusions = []struct {
	why  string
	skip func(r *kernelRun, e *kernelEvent) bool
}{
	{"reads outside the fixture: shared libraries, locale, /etc, the programs themselves",
		func(r *kernelRun, e *kernelEvent) bool {
			return e.Access == Read && !within(r.Fixture, e.Path)
		}},
	{"devices and kernel interfaces (/dev/null, /dev/tty, /proc, /sys): not files; the analysis names /dev/null and the like no target",
		func(r *kernelRun, e *kernelEvent) bool {
			return within("/dev", e.Path) || within("/proc", e.Path) || within("/sys", e.Path)
		}},
	{"git's own repository data (objects, index, refs, locks under .git/, read by git and its helpers such as git-remote-https) and its per-directory settings (.gitignore, .gitattributes, .mailmap): git's internals",
		func(r *kernelRun, e *kernelEvent) bool {
			if !strings.HasPrefix(e.Exe, "git") { // git, git-remote-https, ...
				return false
			}
			switch filepath.Base(e.Path) {
			case ".gitignore", ".gitattributes", ".mailmap", ".gitmodules":
				return e.Access == Read
			}
			return strings.Contains(e.Path, "/.git/") || strings.HasSuffix(e.Path, "/.git")
		}},
	{"processes running a program or script the tables do not know (Command.Runs: make, npm, ./build.sh, python3 x.py) and their children: judged like a command with no targets: the host's prompt or -y decides",
		func(r *kernelRun, e *kernelEvent) bool { return e.Opaque }},
	{"a program's own configuration and state in the home directory (~/.gitconfig, ~/.netrc, ~/.curlrc, ~/.wgetrc, ~/.popt, ~/.jq, ~/.lesskey, bash -l's ~/.profile, zsh's ~/.zshenv; ~/.wget-hsts, ~/.lesshst, ~/.npm): not operands",
		func(r *kernelRun, e *kernelEvent) bool {
			rel, err := filepath.Rel(r.Home, e.Path)
			if err != nil || strings.HasPrefix(rel, "..") {
				return false
			}
			for _, own := range []string{".gitconfig", ".config/git", ".netrc", ".curlrc", ".config/curlrc", ".wgetrc", ".wget-hsts", ".popt", ".jq",
				".less", ".lesskey", ".lesshst", ".config/lesskey", ".profile", ".bash_profile", ".bash_login", ".bashrc", ".bash_logout",
				".python_history", ".selected_editor", ".cache", ".npmrc", ".npm", ".zshenv"} {
				if rel == own || strings.HasPrefix(rel, own+"/") {
					return true
				}
			}
			return false
		}},
	{"a read-open of the process's own working directory: find and gzip hold it to come back to or to open files relative to it; it lists names, not contents",
		func(r *kernelRun, e *kernelEvent) bool { return e.Access == Read && e.Path == e.Cwd }},
	{"mkdir -p (and install -D, git clone) creating the missing ancestors of a written target, or finding them there (EEXIST): they lie on the target's path, judged through its deepest existing ancestor",
		func(r *kernelRun, e *kernelEvent) bool {
			if e.Syscall != "mkdir" && e.Syscall != "mkdirat" {
				return false
			}
			for _, t := range analysisTargets(&r.Analysis) {
				if t.Access == Write && within(e.Path, filepath.Clean(t.Path)) {
					return true
				}
			}
			return false
		}},
	{"git's lock file FILE.lock beside a FILE it writes, renamed over it (git config --global, --file)",
		func(r *kernelRun, e *kernelEvent) bool {
			if e.Exe != "git" || !strings.HasSuffix(e.Path, ".lock") {
				return false
			}
			for _, t := range analysisTargets(&r.Analysis) {
				if t.Access == Write && filepath.Clean(t.Path) == strings.TrimSuffix(e.Path, ".lock") {
					return true
				}
			}
			return false
		}},
	{"in-place editors' temporary file beside a written target (sed -i's DIR/sedXXXXXX, perl -i's, zip's ziXXXXXX, curl's DIR/HASH.tmp for --hsts and --alt-svc), renamed over it",
		func(r *kernelRun, e *kernelEvent) bool {
			if e.Access != Write {
				return false
			}
			base := filepath.Base(e.Path)
			if !(strings.HasPrefix(base, "sed") || strings.HasPrefix(base, "zi") || e.Exe == "perl" || e.Exe == "curl" && strings.HasSuffix(base, ".tmp")) {
				return false
			}
			for _, t := range analysisTargets(&r.Analysis) {
				if t.Access == Write && filepath.Dir(filepath.Clean(t.Path)) == filepath.Dir(e.Path) {
					return true
				}
			}
			return false
		}},
}

func TestShellKernel(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the kernel test runs every table and corpus command for real")
	}
	if why := kernelUsable(t.TempDir()); why != "" {
		t.Skip("TestShellKernel skipped: " + why)
	}
	template := tableFixture(t)
	type job struct {
		name string
		cmd  string
		// prepare makes the fixture in dir and returns it, the command's
		// working directory and home, and the command with its paths mapped
		// into the fixture.
		prepare func(dir string) (fixture, cwd, home, cmd string, err error)
	}
	var jobs []job
	for _, c := range shelltest.Cases {
		for _, in := range c.In {
			jobs = append(jobs, job{c.Name, in, func(dir string) (string, string, string, string, error) {
				fx := filepath.Join(dir, "f")
				out, err := exec.Command("cp", "-a", template, fx).CombinedOutput()
				if err != nil {
					return "", "", "", "", fmt.Errorf("copying the fixture: %v: %s", err, out)
				}
				fx = resolvedDir(fx)
				return fx, filepath.Join(fx, "p"), filepath.Join(fx, "h"), tableToFixture(in, fx), nil
			}})
		}
	}
	corpus, skipped := corpusBashCases(t)
	for _, c := range corpus {
		jobs = append(jobs, job{"corpus " + c.id, c.command, func(dir string) (string, string, string, string, error) {
			fx := filepath.Join(dir, "f")
			if err := os.Mkdir(fx, 0o755); err != nil {
				return "", "", "", "", err
			}
			fx = resolvedDir(fx)
			home := filepath.Join(fx, "home")
			setup := exec.Command("bash", "-c", c.setup)
			setup.Dir, setup.Env = fx, append(os.Environ(), "ROOT="+fx, "HOME="+home)
			if out, err := setup.CombinedOutput(); err != nil {
				return "", "", "", "", fmt.Errorf("setup: %v: %s", err, out)
			}
			sub := func(s string) string { return strings.ReplaceAll(s, "$ROOT", fx) }
			return fx, sub(c.cwd), home, sub(c.command), nil
		}})
	}

	var ran, unknown atomic.Int64
	work := make(chan job)
	var wg sync.WaitGroup
	var mu sync.Mutex
	base := t.TempDir()
	var seq atomic.Int64
	for range max(2, 2*runtime.NumCPU()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				dir := filepath.Join(base, strconv.FormatInt(seq.Add(1), 10))
				msgs, didRun, err := kernelCheck(dir, j.prepare)
				if didRun {
					ran.Add(1)
				} else if err == nil {
					unknown.Add(1)
				}
				os.RemoveAll(dir)
				mu.Lock()
				if err != nil {
					t.Errorf("%s: %q: %v", j.name, j.cmd, err)
				}
				for _, m := range msgs {
					t.Errorf("%s: %q: %s", j.name, j.cmd, m)
				}
				mu.Unlock()
			}
		}()
	}
	for _, j := range jobs {
		work <- j
	}
	close(work)
	wg.Wait()
	t.Logf("%d commands run under the kernel and compared, %d unknown to the analysis (never allowed, not run), %d corpus cases without a string command", ran.Load(), unknown.Load(), skipped)
	if ran.Load() == 0 {
		t.Fatal("no command ran")
	}
}

// kernelCheck prepares a fixture in dir, analyses cmd against it and, when
// the analysis is known, runs cmd under bwrap and strace and returns every
// kernel event no target covers.
func kernelCheck(dir string, prepare func(string) (string, string, string, string, error)) (msgs []string, ran bool, err error) {
	if err := os.MkdirAll(filepath.Join(dir, "trace"), 0o755); err != nil {
		return nil, false, err
	}
	fx, cwd, home, cmd, err := prepare(dir)
	if err != nil {
		return nil, false, err
	}
	r := &kernelRun{Cmd: cmd, Fixture: fx, Home: home}
	r.Analysis = Analyze(r.Cmd, Env{Cwd: cwd, Home: home, ProjectDir: cwd, TmpDir: kernelTmpDir, ReadFile: readSmallFile})
	if !r.Analysis.Known() {
		return nil, false, nil
	}
	var runs [][]string
	for _, c := range r.Analysis.Commands {
		if c.Runs != "" {
			runs = append(runs, c.Argv)
		}
	}
	r.Events, err = traceCommand(dir, cwd, home, r.Cmd, runs)
	if err != nil {
		return nil, true, err
	}
	targets := analysisTargets(&r.Analysis)
events:
	for i := range r.Events {
		e := &r.Events[i]
		for _, x := range kernelExclusions {
			if x.skip(r, e) {
				continue events
			}
		}
		if !covered(targets, e) {
			msgs = append(msgs, fmt.Sprintf("kernel %s of %s not among the targets %v\n\t%s", accessWord(e.Access), e.Path, describeTargets(targets), e.Line))
		}
	}
	return msgs, true, nil
}

// resolvedDir resolves symlinks in the fixture's own path (a TMPDIR
// behind a symlink), since the kernel reports resolved directories.
func resolvedDir(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// tableToFixture maps the table tests' absolute paths /p, /h and /o (the
// project, home and outside directories of shelltest) into the fixture.
func tableToFixture(cmd, fx string) string {
	var b strings.Builder
	for i := 0; i < len(cmd); i++ {
		if cmd[i] == '/' && i+1 < len(cmd) && strings.ContainsRune("pho", rune(cmd[i+1])) &&
			(i == 0 || strings.ContainsRune(" \t'\"=", rune(cmd[i-1]))) &&
			(i+2 == len(cmd) || strings.ContainsRune("/ \t'\";&|", rune(cmd[i+2]))) {
			b.WriteString(fx)
		}
		b.WriteByte(cmd[i])
	}
	return b.String()
}

func analysisTargets(a *Analysis) []Target {
	var out []Target
	for _, c := range a.Commands {
		out = append(out, c.Targets...)
	}
	return out
}

// covered reports whether some target accounts for e: the same path or a
// directory above it (globs and patterns matched), with a write target
// also covering reads.
func covered(targets []Target, e *kernelEvent) bool {
	for _, t := range targets {
		if e.Access == Write && t.Access != Write {
			continue
		}
		tp := filepath.Clean(t.Path)
		if t.Glob && e.Access == Read && e.Path == globDir(tp) {
			return true // the shell lists the directory to expand the glob
		}
		for p := e.Path; ; p = filepath.Dir(p) {
			if p == tp {
				return true
			}
			if t.Glob || t.Pattern {
				if ok, _ := doublestar.Match(tp, p); ok {
					return true
				}
			}
			if filepath.Dir(p) == p { // "/", or "." for a path without a directory
				break
			}
		}
	}
	return false
}

// globDir is the directory a glob's first wildcard component lies in.
func globDir(pattern string) string {
	i := strings.IndexAny(pattern, "*?[{")
	if i < 0 {
		return filepath.Dir(pattern)
	}
	return filepath.Dir(pattern[:i] + "x")
}

func accessWord(a Access) string {
	if a == Write {
		return "write"
	}
	return "read"
}

func describeTargets(ts []Target) []string {
	var out []string
	for _, t := range ts {
		out = append(out, accessWord(t.Access)+" "+t.Path)
	}
	return out
}

// bwrapArgs is the sandbox: the whole file system read-only but for dir.
func bwrapArgs(dir, cwd string) []string {
	return []string{"--ro-bind", "/", "/", "--bind", dir, dir, "--dev", "/dev", "--proc", "/proc",
		"--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
		"--die-with-parent", "--new-session", "--chdir", cwd}
}

// kernelUsable returns why bwrap and strace cannot run here, or "".
func kernelUsable(dir string) string {
	for _, p := range []string{"bwrap", "strace", "bash"} {
		if _, err := exec.LookPath(p); err != nil {
			return p + " is not installed (Debian packages bubblewrap and strace)"
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	args := append(bwrapArgs(dir, dir), "strace", "-qq", "-o", filepath.Join(dir, "probe"), "-e", "trace=openat", "true")
	if out, err := exec.CommandContext(ctx, "bwrap", args...).CombinedOutput(); err != nil {
		return fmt.Sprintf("bwrap and strace cannot run here: %v: %s", err, bytes.TrimSpace(out))
	}
	return ""
}

// traceCommand runs cmd with bash -c under bwrap and strace in cwd and
// returns the events of every process it started. A process that execs a
// command of runs (argv compared with Command.Argv), and every
// process it starts, is marked Opaque from then on.
func traceCommand(dir, cwd, home, cmd string, runs [][]string) ([]kernelEvent, error) {
	ctx, cancel := context.WithTimeout(context.Background(), kernelTimeout)
	defer cancel()
	trace := filepath.Join(dir, "trace", "t")
	args := append(bwrapArgs(dir, cwd), "strace", "-ff", "-qq", "-y", "-s", "4096",
		"-e", "trace="+kernelSyscalls+",execve,fork,vfork,clone,clone3", "-o", trace, "bash", "-c", cmd)
	c := exec.CommandContext(ctx, "bwrap", args...)
	c.Env = []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME=" + home, "PWD=" + cwd,
		"CLAUDE_PROJECT_DIR=" + cwd, "LC_ALL=C", "GIT_TERMINAL_PROMPT=0", "TERM=dumb", "TMPDIR=" + kernelTmpDir}
	c.WaitDelay = time.Second
	_ = c.Run() // the command's own failure is part of the test's input, not an error
	files, err := filepath.Glob(trace + ".*")
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("strace wrote no trace (%v)", err)
	}
	procs := map[int]*procTrace{}
	children := map[int]bool{}
	for _, f := range files {
		pid, err := strconv.Atoi(strings.TrimPrefix(filepath.Ext(f), "."))
		if err != nil {
			return nil, fmt.Errorf("trace file %s", f)
		}
		pt, err := parseTrace(f)
		if err != nil {
			return nil, err
		}
		procs[pid] = pt
		for _, rec := range pt.recs {
			if rec.child > 0 {
				children[rec.child] = true
			}
		}
	}
	var events []kernelEvent
	// walk follows the process tree from the root, handing each child
	// its parent's program, opacity and working directory (for a child
	// whose first calls name no AT_FDCWD, strace's cwd is the parent's).
	var walk func(pid int, exe string, opaque bool, cwd string)
	walk = func(pid int, exe string, opaque bool, cwd string) {
		pt := procs[pid]
		if pt == nil {
			return
		}
		delete(procs, pid) // each process once
		for _, rec := range pt.recs {
			switch {
			case rec.argv != nil:
				exe = filepath.Base(rec.argv[0])
				opaque = opaque || runsArgv(runs, rec.argv)
			case rec.child > 0:
				childCwd := rec.cwd
				if childCwd == "?" {
					childCwd = cwd
				}
				walk(rec.child, exe, opaque, childCwd)
			default:
				ev := rec.ev
				ev.Exe, ev.Opaque = exe, opaque
				if ev.Cwd == "?" {
					ev.Cwd = cwd
					if rel, ok := strings.CutPrefix(ev.Path, "?/"); ok {
						ev.Path = filepath.Join(cwd, rel)
					}
				} else {
					cwd = ev.Cwd
				}
				events = append(events, ev)
			}
		}
	}
	for pid := range procs {
		if !children[pid] {
			walk(pid, "", false, cwd)
		}
	}
	for pid := range procs { // orphans whose parent's clone was not seen
		walk(pid, "", false, cwd)
	}
	return events, nil
}

// runsArgv reports whether argv, as exec'd, is one of runs.
func runsArgv(runs [][]string, argv []string) bool {
	for _, r := range runs {
		if len(r) == len(argv) && r[0] == filepath.Base(argv[0]) && slices.Equal(r[1:], argv[1:]) {
			return true
		}
	}
	return false
}

// procTrace is one process's trace in order: events, execs and the
// children it started.
type procTrace struct{ recs []procRec }

type procRec struct {
	ev    kernelEvent
	argv  []string // a successful execve
	child int      // a fork, vfork or clone's new process
	cwd   string   // the working directory at the clone ("?" unknown)
}

// parseTrace reads one process's strace -y output (strace -ff: one file
// per process, so no line is split).
func parseTrace(file string) (*procTrace, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	pt := &procTrace{}
	curCwd := "?" // the working directory, from the last AT_FDCWD</dir> or chdir
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		open := strings.IndexByte(line, '(')
		if open <= 0 || strings.HasPrefix(line, "---") || strings.HasPrefix(line, "+++") {
			continue
		}
		name := line[:open]
		args := splitArgs(line[open+1:])
		ret := ""
		if k := strings.LastIndex(line, " = "); k >= 0 { // strace pads short calls: `chdir("x")      = 0`
			ret = line[k+3:]
		}
		if len(args) > 0 {
			if d := fdDir(args[0]); d != "" {
				curCwd = d
			}
		}
		ev := func(dirfd, p string, a Access) {
			if p == "" {
				return
			}
			path, ok := joinAt(dirfd, p)
			if !ok {
				return
			}
			pt.recs = append(pt.recs, procRec{ev: kernelEvent{Syscall: name, Path: path, Access: a, Cwd: curCwd, Line: line}})
		}
		str := func(i int) string {
			if i < len(args) {
				if s, ok := unquoteStrace(args[i]); ok {
					return s
				}
			}
			return ""
		}
		arg := func(i int) string {
			if i < len(args) {
				return args[i]
			}
			return ""
		}
		cwd := "AT_FDCWD<" + curCwd + ">"
		switch name {
		case "fchdir": // mkdir -p walks down with fchdir(3</dir>)
			if i, j := strings.IndexByte(arg(0), '<'), strings.LastIndexByte(arg(0), '>'); strings.HasPrefix(ret, "0") && i > 0 && j > i {
				curCwd = arg(0)[i+1 : j]
			}
		case "chdir":
			if strings.HasPrefix(ret, "0") {
				if p := str(0); filepath.IsAbs(p) {
					curCwd = filepath.Clean(p)
				} else {
					curCwd = filepath.Join(curCwd, p)
				}
			}
		case "execve":
			if strings.HasPrefix(ret, "0") && len(args) > 1 {
				var argv []string
				for _, a := range splitArgs(strings.TrimSuffix(strings.TrimPrefix(args[1], "["), "]")) {
					if s, ok := unquoteStrace(a); ok {
						argv = append(argv, s)
					}
				}
				if len(argv) == 0 {
					argv = []string{str(0)}
				}
				pt.recs = append(pt.recs, procRec{argv: argv})
			}
		case "fork", "vfork", "clone", "clone3":
			if f := strings.Fields(ret); len(f) > 0 {
				if n, err := strconv.Atoi(f[0]); err == nil && n > 0 {
					pt.recs = append(pt.recs, procRec{child: n, cwd: curCwd})
				}
			}
		case "open":
			ev(cwd, str(0), openAccess(arg(1)))
		case "openat", "openat2":
			if !strings.Contains(arg(2), "O_PATH") {
				ev(arg(0), str(1), openAccess(arg(2)))
			}
		case "creat", "truncate", "unlink", "rmdir", "mkdir", "mknod", "chmod", "chown", "lchown", "utimes":
			ev(cwd, str(0), Write)
		case "unlinkat", "mkdirat", "mknodat", "fchmodat", "fchownat", "utimensat", "futimesat":
			ev(arg(0), str(1), Write)
		case "rename":
			ev(cwd, str(0), Write)
			ev(cwd, str(1), Write)
		case "renameat", "renameat2":
			ev(arg(0), str(1), Write)
			ev(arg(2), str(3), Write)
		case "link":
			ev(cwd, str(0), Read)
			ev(cwd, str(1), Write)
		case "linkat":
			ev(arg(0), str(1), Read)
			ev(arg(2), str(3), Write)
		case "symlink":
			ev(cwd, str(1), Write)
		case "symlinkat":
			ev(arg(1), str(2), Write)
		}
	}
	return pt, sc.Err()
}

// fdDir returns the directory strace -y shows for an AT_FDCWD argument,
// "" for any other.
func fdDir(a string) string {
	if !strings.HasPrefix(a, "AT_FDCWD<") || !strings.HasSuffix(a, ">") {
		return ""
	}
	return a[len("AT_FDCWD<") : len(a)-1]
}

// openAccess is the access of open flags: any of write, read-write,
// create, truncate or append is a write.
func openAccess(flags string) Access {
	for _, f := range []string{"O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"} {
		if strings.Contains(flags, f) {
			return Write
		}
	}
	return Read
}

// joinAt joins p to the directory of dirfd as strace -y shows it
// ("AT_FDCWD</dir>", "3</dir>").
func joinAt(dirfd, p string) (string, bool) {
	if filepath.IsAbs(p) {
		return filepath.Clean(p), true
	}
	i, j := strings.IndexByte(dirfd, '<'), strings.LastIndexByte(dirfd, '>')
	if i < 0 || j < i {
		return "", false
	}
	return filepath.Join(dirfd[i+1:j], p), true
}

// splitArgs splits strace's argument list at top-level commas, keeping
// quoted strings, <decorations>, {structs} and [arrays] whole.
func splitArgs(s string) []string {
	var out []string
	depth, start := 0, 0
	inStr := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inStr:
			if c == '\\' {
				i++
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '<' || c == '{' || c == '[' || c == '(':
			depth++
		case c == '>' || c == '}' || c == ']':
			depth--
		case c == ')':
			if depth == 0 {
				return append(out, strings.TrimSpace(s[start:i]))
			}
			depth--
		case c == ',' && depth == 0:
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

// unquoteStrace decodes a strace string argument ("a\"b\n", possibly with
// a -y decoration after it is not expected for paths).
func unquoteStrace(a string) (string, bool) {
	if len(a) < 2 || a[0] != '"' {
		return "", false
	}
	end := strings.LastIndexByte(a, '"')
	if end <= 0 {
		return "", false
	}
	s, err := strconv.Unquote(a[:end+1])
	if err != nil {
		// strace's octal escapes (\33) are not Go's; fall back to the raw text.
		return a[1:end], true
	}
	return s, true
}

// tableFixture builds, once, the directory the table tests' spellings run
// in: the project p (a git repository with commits on main and a branch x,
// and every file the spellings name), the home h and the outside o.
func tableFixture(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "template")
	p, h, o := filepath.Join(root, "p"), filepath.Join(root, "h"), filepath.Join(root, "o")
	files := map[string]string{
		"p/a": "a\n", "p/b": "b\n", "p/f": "f\n1\n2\n3\n4\n5\n6\n", "p/x": "x\n", "p/y": "y\n", "p/.env": "KEY=v\n",
		"p/ref": "r\n", "p/pats": "KEY\n", "p/in": "in\n", "p/up": "up\n", "p/x.pl": "print 1;\n", "p/l0": "",
		"p/src/main.go": "package main\n", "p/src/k.pem": "pem\n", "p/k.pem": "pem\n", "p/d/.keep": "", "p/out/.keep": "",
		"p/.env.local": "K=v\n", "p/t.txt": "t\n", "p/s.sh": "true\n", "p/c": "",
		"h/x": "home x\n", "h/.gitconfig": "[user]\n\tname = t\n\temail = t@example.com\n[init]\n\tdefaultBranch = main\n",
		"o/x": "out x\n", "o/y.txt": "y\n", "o/z.txt": "z\n",
		"other/f":  "other\n",
		"p/x.diff": "--- a\n+++ a\n@@ -1 +1 @@\n-a\n+A\n", "p/urls": "https://x/f\n",
	}
	for name, body := range shelltest.Files { // the files lines source
		files[strings.TrimPrefix(name, "/")] = body
	}
	for name, body := range files {
		full := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(dir string, argv ...string) {
		t.Helper()
		c := exec.Command(argv[0], argv[1:]...)
		c.Dir = dir
		c.Env = append(os.Environ(), "HOME="+h, "GIT_CONFIG_NOSYSTEM=1")
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("fixture: %v: %v: %s", argv, err, out)
		}
	}
	run(p, "tar", "czf", "a.tgz", "a", "b")
	run(p, "zip", "-q", "a.zip", "a", "b")
	run(p, "git", "init", "-q", "-b", "main")
	run(p, "git", "add", "-A")
	run(p, "git", "commit", "-q", "-m", "one")
	run(p, "git", "branch", "x")
	run(p, "sh", "-c", "echo more >> a && git commit -q -am two && echo dirty >> b")
	_ = h
	_ = o
	return root
}

// corpusCase is a Bash case of the shared conformance corpus.
type corpusCase struct{ id, setup, cwd, command string }

// corpusBashCases reads ../../../shared/conformance/cases.jsonl (beside the
// project root) and returns its Bash cases with a string command, and how
// many Bash cases had none (malformed input cases). No corpus: none.
func corpusBashCases(t *testing.T) ([]corpusCase, int) {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "conformance", "cases.jsonl"))
	if err != nil {
		t.Logf("no conformance corpus (%v): table cases only", err)
		return nil, 0
	}
	var out []corpusCase
	skipped := 0
	for line := range bytes.Lines(b) {
		var c struct {
			ID    string `json:"id"`
			Setup string `json:"setup"`
			Input struct {
				ToolName  string          `json:"tool_name"`
				Cwd       string          `json:"cwd"`
				ToolInput json.RawMessage `json:"tool_input"`
			} `json:"input"`
		}
		if json.Unmarshal(line, &c) != nil || c.Input.ToolName != "Bash" {
			continue
		}
		var ti struct {
			Command any `json:"command"`
		}
		_ = json.Unmarshal(c.Input.ToolInput, &ti)
		cmd, ok := ti.Command.(string)
		if !ok || c.Input.Cwd == "" {
			skipped++
			continue
		}
		out = append(out, corpusCase{c.ID, c.Setup, c.Input.Cwd, cmd})
	}
	slices.SortFunc(out, func(a, b corpusCase) int { return strings.Compare(a.id, b.id) })
	return out, skipped
}

// within reports whether p is root or below it, by whole path components.
func within(root, p string) bool {
	if root == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == root || strings.HasPrefix(p, root+"/")
}
