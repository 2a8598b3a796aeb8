//go:build linux

package confine

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// run applies l.rs and execs the program. It returns only on failure, or,
// for a ruleset with ReadOnly paths, with the exit status of the program it
// supervised.
func (l *launch) run() (int, error) {
	abi, err := landlockABI()
	if err != nil {
		return 0, err
	}
	denySockets := false
	if l.rs.NeedsNamespace() && !l.inNamespace {
		code, err := l.supervise()
		if !errors.Is(err, errNamespaceRefused) || l.rs.HostSandbox == "" {
			return code, err
		}
		// Only inside another user namespace, as the host's sandbox makes
		// one: a refusal in the initial one (a process left running that
		// used up the user's count of namespaces, where the command runs
		// outside the host's sandbox) is no reason to hide less.
		if nested, why := inNestedUserNS(); !nested {
			return code, fmt.Errorf("%w; the ruleset allows Landlock alone only inside %s, and this is not inside a sandbox's user namespace (%s)", err, l.rs.HostSandbox, why)
		}
		// Inside the host's sandbox (see Ruleset.HostSandbox): Landlock
		// alone, and no Unix sockets if it would have hidden one
		// (Landlock does not govern connect(2), wherever the socket is)
		// or given a directory of sockets a tmpfs.
		denySockets = hidesSockets(l.rs)
		l.rs, _ = l.rs.WithoutNamespace()
	}
	// This process is the one that restricts itself, and the one the
	// kernel's records will name: register it before the mounts, which
	// may make the directory read-only.
	// A registration that cannot be written (a read-only state directory,
	// as inside another sandbox) costs the report, not the command.
	if err := register(l.rs.Report); err != nil {
		fmt.Fprintf(os.Stderr, "safezone: this command's refusals are not reported: %v\n", err)
	}
	if l.inNamespace {
		if l.netOff {
			if err := loopbackUp(); err != nil {
				return 0, fmt.Errorf("bringing up the loopback interface of the command's network namespace: %w", err)
			}
		}
		if l.netFD >= 0 {
			if err := netUp(l.netFD); err != nil {
				return 0, err
			}
		}
		if err := mountAll(l.rs); err != nil {
			return 0, err
		}
		// The working directory still points into the mounts as they were:
		// a relative path from it would miss the new ones, so a program in
		// the project would write ./.claude through the writable original.
		// Enter it again by its path, through the new mounts.
		wd, err := os.Getwd()
		if err == nil {
			err = os.Chdir(wd)
		}
		if err != nil {
			return 0, fmt.Errorf("re-entering the working directory: %w", err)
		}
	}
	fd, _, err := buildRuleset(l.rs, abi)
	if err != nil {
		return 0, err
	}
	// The thread is never unlocked: it carries the Landlock domain into the
	// program, and if the exec fails the process exits.
	runtime.LockOSThread()
	if l.inNamespace {
		// The second stage got CAP_SYS_ADMIN and CAP_DAC_OVERRIDE (in its
		// own user namespace) as ambient capabilities to mount; the program
		// gets none.
		if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
			return 0, fmt.Errorf("prctl(PR_CAP_AMBIENT_CLEAR_ALL): %w", err)
		}
		if os.Geteuid() == 0 {
			// Root would get every capability of the namespace back at the
			// execve, and with CAP_DAC_OVERRIDE read through a hidden
			// directory's mode 000 (finding nothing, "No such file"
			// rather than "Permission denied"). With SECBIT_NOROOT, locked,
			// user ID 0 gains none there (capabilities(7), "The securebits
			// flags"); no_new_privs keeps file capabilities out too.
			bits := uintptr(secbitNoRoot | secbitNoRootLocked | secbitNoSetuidFixup | secbitNoSetuidFixupLocked)
			if err := unix.Prctl(unix.PR_SET_SECUREBITS, bits, 0, 0, 0); err != nil {
				return 0, fmt.Errorf("prctl(PR_SET_SECUREBITS): %w", err)
			}
		}
	}
	if err := restrictThread(fd, reportFlags(l.rs.Report, abi)); err != nil {
		return 0, err
	}
	unix.Close(fd)
	if denySockets {
		if err := denyUnixSockets(); err != nil {
			return 0, err
		}
	}
	env := l.env
	if env == nil {
		env = os.Environ()
	}
	if l.netFD >= 0 && l.rs.Net != nil {
		env = withProxyVars(env, l.rs.Net.Proxy)
	}
	err = syscall.Exec(l.path, l.argv, env)
	return 0, fmt.Errorf("exec %s: %w", l.path, err)
}

// hidesSockets reports whether rs hides a Unix socket, or gives a
// directory other than /dev/shm a tmpfs (the directories of sockets that
// lead outside: $XDG_RUNTIME_DIR, tmux's).
func hidesSockets(rs Ruleset) bool {
	for _, p := range rs.Hide {
		if st, err := os.Lstat(p); err == nil && st.Mode()&os.ModeSocket != 0 {
			return true
		}
	}
	for _, p := range rs.Tmpfs {
		if p != "/dev/shm" {
			return true
		}
	}
	return false
}

// inNestedUserNS reports whether this process runs in a user namespace
// other than the initial one, whose /proc/self/uid_map is the single line
// "0 0 4294967295" (user_namespaces(7)); why says what it found.
func inNestedUserNS() (bool, string) {
	b, err := os.ReadFile("/proc/self/uid_map")
	if err != nil {
		return false, err.Error()
	}
	if !nestedUserNS(string(b)) {
		return false, "the initial user namespace"
	}
	return true, ""
}

// nestedUserNS reports whether uidMap, the text of /proc/self/uid_map, is
// not the initial user namespace's.
func nestedUserNS(uidMap string) bool {
	f := strings.Fields(uidMap)
	return !(len(f) == 3 && f[0] == "0" && f[1] == "0" && f[2] == "4294967295")
}

// errNamespaceRefused is wrapped by supervise's error when the kernel
// refused the new user namespace before anything ran: EPERM (Claude Code
// 2.1.330's sandbox), or ENOSPC, the count of user namespaces allowed
// there being 0 (bubblewrap 0.8's --disable-userns).
var errNamespaceRefused = errors.New("user namespace refused")

// The securebits flags (linux/securebits.h).
const (
	secbitNoRoot              = 1 << 0
	secbitNoRootLocked        = 1 << 1
	secbitNoSetuidFixup       = 1 << 2
	secbitNoSetuidFixupLocked = 1 << 3
)

// checkPipe verifies that fd is open on a pipe: an anonymous one, which
// only the processes that inherit it hold (its /proc/PID/fd link opens only
// for a process that may ptrace the holder, which Landlock refuses to a
// confined process outside its own domain).
func checkPipe(fd int) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFIFO {
		return errors.New("is not a pipe")
	}
	return nil
}

// supervise runs the second stage of the launcher (the same binary, mode
// "ns") in a new user namespace and a new mount namespace, where it can
// bind-mount the ReadOnly paths, then waits for it and exits as it did.
//
// A Go process always has several threads and so cannot unshare(2) a user
// namespace itself (EINVAL); a child cloned with CLONE_NEWUSER|CLONE_NEWNS
// can. The child maps the caller's user and group IDs to themselves (so
// files keep their owners and `id` prints the same; other IDs show as the
// overflow ID 65534) and starts with CAP_SYS_ADMIN in its own namespace as
// an ambient capability, which survives its execve of /proc/self/exe, and
// CAP_DAC_OVERRIDE, without which overlayfs cannot make its work directory
// for a user other than root ("fsconfig create: permission denied"; the
// fast launcher, which does not exec, keeps every capability of its
// namespace). Both reach only the caller's own files: no other user ID is
// mapped.
//
// SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGWINCH and SIGALRM
// sent to the supervisor are passed on to the program (one sent to the
// whole process group reaches the program twice); if the supervisor is
// killed, the kernel kills the program (PR_SET_PDEATHSIG).
func (l *launch) supervise() (int, error) {
	rules, err := l.rs.MarshalText()
	if err != nil {
		return 0, err
	}
	// Pdeathsig fires when the thread that started the child ends: keep it.
	runtime.LockOSThread()
	flags, caps, netArg := uintptr(unix.CLONE_NEWUSER|unix.CLONE_NEWNS), []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_DAC_OVERRIDE}, "-"
	withNet := l.rs.Net != nil
	var netEnd *os.File
	if withNet && l.rs.Net.Proxy == "" {
		// A network namespace with no way out: the proxy is missing.
		if l.rs.Net.Note != "" {
			fmt.Fprintf(os.Stderr, "safezone: %s\n", l.rs.Net.Note)
		}
		flags |= unix.CLONE_NEWNET
		caps = append(caps, unix.CAP_NET_ADMIN)
		netArg = "off"
	} else if withNet {
		// A network namespace of the command's own, whose loopback the
		// second stage brings up (CAP_NET_ADMIN), and the proxy daemon it
		// hands its listening sockets to (net_linux.go). alive stays open,
		// close-on-exec, for as long as this process waits.
		var alive *os.File
		var err error
		netEnd, alive, err = askProxy(l.rs.Net)
		if err != nil && l.rs.HostSandbox != "" {
			// Inside the host's sandbox the proxy's daemon may not
			// start (its state directory read-only there), and no
			// namespace can be made: the caller falls back to Landlock
			// alone, without Net, where it may (inside a sandbox's
			// user namespace), and fails otherwise.
			return 0, fmt.Errorf("%w: %w", errNamespaceRefused, err)
		}
		if err != nil {
			return 0, err
		}
		defer netEnd.Close()
		defer alive.Close()
		flags |= unix.CLONE_NEWNET
		caps = append(caps, unix.CAP_NET_ADMIN)
		netArg = strconv.Itoa(int(netEnd.Fd()))
	}
	cmd := &exec.Cmd{
		Path:   "/proc/self/exe",
		Args:   append([]string{"safezone", Subcommand, "ns", string(rules), netArg, l.path}, l.argv...),
		Stdin:  os.Stdin,
		Stdout: os.Stdout,
		Stderr: os.Stderr,
		Env:    l.env, // nil: the launcher's own; the second stage execs with its own
		SysProcAttr: &syscall.SysProcAttr{
			Cloneflags:  flags,
			UidMappings: []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}},
			GidMappings: []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}},
			AmbientCaps: caps,
			Pdeathsig:   unix.SIGKILL,
		},
	}
	// Catch the signals before the program starts, and pass them on once it
	// has. One the supervisor started with ignored stays ignored.
	sigs := make(chan os.Signal, 8)
	for _, s := range []os.Signal{unix.SIGHUP, unix.SIGINT, unix.SIGQUIT, unix.SIGTERM, unix.SIGUSR1, unix.SIGUSR2, unix.SIGWINCH, unix.SIGALRM} {
		if !signal.Ignored(s) {
			signal.Notify(sigs, s)
		}
	}
	if err := cmd.Start(); err != nil {
		signal.Stop(sigs)
		what := "a user and mount namespace to keep the read-only paths read-only"
		if withNet {
			what = "a user, mount and network namespace"
		}
		if errors.Is(err, unix.EPERM) || errors.Is(err, unix.ENOSPC) {
			err = fmt.Errorf("%w: %w", errNamespaceRefused, err)
		}
		return 0, fmt.Errorf("%w: cannot create %s: %w", ErrUnavailable, what, err)
	}
	if netEnd != nil {
		// The second stage has its copy: the daemon must see the pair's
		// end of file should it end before it sends.
		netEnd.Close()
	}
	go func() {
		for s := range sigs {
			cmd.Process.Signal(s)
		}
	}()
	err = cmd.Wait()
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ok {
		return 0, fmt.Errorf("waiting for the program: %v", err)
	}
	if ws.Signaled() {
		// Die of the same signal, so that the shell sees, and reports, what
		// it would have seen without the supervisor. The Go runtime keeps
		// some signals to itself (SIGQUIT dumps the goroutines, SIGUSR1 is
		// dropped), so a plain shell, which gets them all at their default,
		// does it. No core file: the program's was its own to dump.
		sig := int(ws.Signal())
		signal.Stop(sigs)
		unix.Setrlimit(unix.RLIMIT_CORE, &unix.Rlimit{})
		syscall.Exec("/bin/sh", []string{"sh", "-c", "kill -" + strconv.Itoa(sig) + " $$; exit " + strconv.Itoa(128+sig)}, os.Environ())
		return 128 + sig, nil
	}
	return ws.ExitStatus(), nil
}

// next returns the path one element deeper than d on the way to p, which
// lies beneath d.
func next(d, p string) string {
	rest := p[len(d)+1:]
	if d == "/" {
		rest = p[1:]
	}
	i := strings.IndexByte(rest, '/')
	if i < 0 {
		return p
	}
	return join(d, rest[:i])
}

// openNoSymlinks opens p as an O_PATH descriptor, failing with ELOOP if any
// element of it is a symlink.
func openNoSymlinks(p string) (int, error) {
	fd, err := unix.Openat2(unix.AT_FDCWD, p, &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_CLOEXEC | unix.O_NOFOLLOW,
		Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	})
	if errors.Is(err, unix.ELOOP) {
		return -1, fmt.Errorf("a symlink is on the way (the ruleset must hold resolved paths): %w", err)
	}
	return fd, err
}

// bindSelf mounts a copy of the mount tree at p onto p, read-only if ro.
func bindSelf(p string, ro bool) error {
	fd, err := openNoSymlinks(p)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	tree, err := unix.OpenTree(fd, "", unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_EMPTY_PATH|unix.AT_RECURSIVE)
	if err != nil {
		return fmt.Errorf("open_tree: %w", err)
	}
	defer unix.Close(tree)
	if ro {
		attr := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}
		if err := unix.MountSetattr(tree, "", unix.AT_EMPTY_PATH|unix.AT_RECURSIVE, &attr); err != nil {
			return fmt.Errorf("mount_setattr: %w", err)
		}
	}
	if err := unix.MoveMount(tree, "", fd, "", unix.MOVE_MOUNT_F_EMPTY_PATH|unix.MOVE_MOUNT_T_EMPTY_PATH); err != nil {
		return fmt.Errorf("move_mount: %w", err)
	}
	return nil
}
