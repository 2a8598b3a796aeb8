//go:build linux

package confine

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// The network of a ruleset with Net (see [Ruleset]). The supervisor asks
// the proxy daemon (netproxy; started, detached, when nothing answers on
// its socket) to serve the command: it sends the command's configuration,
// its standard error, the read end of a pipe the supervisor holds until
// the command ends, and one end of a socket pair. The second stage,
// cloned into a network namespace of its own, brings its loopback
// interface up, makes the two listening sockets of the proxies there and
// sends them through the other end of the pair, with the read end of the
// command's lifetime pipe, whose write end every process of the command
// inherits. A socket stays in the namespace it was made in: the daemon
// accepts the command's connections on them and dials out from the
// machine's own network, until the lifetime pipe says every process of
// the command has ended. The second stage waits for the daemon's word
// that it serves them before it runs the command, so a daemon that
// cannot serve stops the command instead of leaving it without a network,
// unexplained.

// lifetimeFD is the lowest descriptor number the write end of the
// lifetime pipe gets in the command (above what shells use for
// redirections, below bash's 255).
const lifetimeFD = 100

// askProxy asks the daemon of n to serve a command: it returns the end of
// the socket pair for the second stage (inheritable) and the write end of
// the pipe the supervisor holds while the command runs (close-on-exec).
func askProxy(n *Net) (nsEnd, alive *os.File, err error) {
	conn, err := dialProxy(n)
	if err != nil {
		return nil, nil, err
	}
	defer unix.Close(conn)
	sp, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("socketpair: %w", err)
	}
	defer unix.Close(sp[0])
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		unix.Close(sp[1])
		return nil, nil, fmt.Errorf("pipe: %w", err)
	}
	defer unix.Close(p[0])
	if err := unix.Sendmsg(conn, n.Policy, unix.UnixRights(2, p[0], sp[0]), nil, 0); err != nil {
		unix.Close(sp[1])
		unix.Close(p[1])
		return nil, nil, fmt.Errorf("asking the network proxy %s to serve the command: %w", n.Socket, err)
	}
	// The second stage inherits its end: a copy without close-on-exec.
	ours, err := unix.Dup(sp[1])
	unix.Close(sp[1])
	if err != nil {
		unix.Close(p[1])
		return nil, nil, fmt.Errorf("dup: %w", err)
	}
	return os.NewFile(uintptr(ours), "netfd"), os.NewFile(uintptr(p[1]), "alive"), nil
}

// dialProxy connects to the daemon's socket, starting the daemon when
// nothing answers there and waiting up to 30 s for it.
func dialProxy(n *Net) (int, error) {
	dial := func() (int, error) {
		addr, done, err := SocketAddr(n.Socket)
		if err != nil {
			return -1, err
		}
		defer done()
		fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			return -1, err
		}
		if err := unix.Connect(fd, &unix.SockaddrUnix{Name: addr}); err != nil {
			unix.Close(fd)
			return -1, err
		}
		return fd, nil
	}
	fd, err := dial()
	if err == nil {
		return fd, nil
	}
	cmd := &exec.Cmd{
		Path:        n.Proxy,
		Args:        []string{n.Proxy, "daemon", n.Socket},
		Dir:         "/",
		SysProcAttr: &unix.SysProcAttr{Setsid: true},
	}
	if err := cmd.Start(); err != nil {
		return -1, fmt.Errorf("cannot start the network proxy %s: %w", n.Proxy, err)
	}
	began := time.Now()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for wait := time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		if fd, err = dial(); err == nil {
			return fd, nil
		}
		select {
		case e := <-exited:
			return -1, fmt.Errorf("the network proxy %s ended at its start (%v): run `%s daemon %s` to see why", n.Proxy, e, n.Proxy, n.Socket)
		case <-time.After(wait):
		}
		// A daemon that is still starting is waited for up to 30 s (a
		// loaded machine: the first start of the proxy's binary reads
		// it from disk); one that ended is reported at once, above.
		if time.Since(began) > 30*time.Second {
			return -1, fmt.Errorf("the network proxy %s does not answer on %s: %w", n.Proxy, n.Socket, err)
		}
	}
}

// SocketAddr returns the address to bind or connect a Unix socket at
// path by: path itself, or, where path is too long for a socket's address
// (108 bytes with its NUL), /proc/self/fd/N/NAME through a descriptor N
// of its directory (O_PATH), which done closes once the socket is bound
// or connected.
func SocketAddr(path string) (addr string, done func(), err error) {
	if len(path) < len(unix.RawSockaddrUnix{}.Path) {
		return path, func() {}, nil
	}
	dfd, err := unix.Open(filepath.Dir(path), unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return "", nil, err
	}
	addr = "/proc/self/fd/" + strconv.Itoa(dfd) + "/" + filepath.Base(path)
	if len(addr) >= len(unix.RawSockaddrUnix{}.Path) {
		unix.Close(dfd)
		return "", nil, fmt.Errorf("the socket's name %s is too long", filepath.Base(path))
	}
	return addr, func() { unix.Close(dfd) }, nil
}

// netUp is the second stage's part: loopback up; the daemon's list of
// ports read (those of the machine's loopback the command may use as its
// own: servers earlier commands left running, localhost services the
// policy names), and a listener made on 127.0.0.1 for each; the
// proxies' listening sockets made; the helper started (netHelper: it
// connects, inside the namespace, to the servers the command starts, for
// the daemon to forward to); all of them sent through netFD with the read
// end of the lifetime pipe (whose write end it leaves open, at
// lifetimeFD or above, for the command to inherit), and the daemon's
// one-byte answer awaited. It needs CAP_NET_ADMIN in the namespace.
func netUp(netFD int) error {
	defer unix.Close(netFD)
	if err := loopbackUp(); err != nil {
		return fmt.Errorf("bringing up the loopback interface of the command's network namespace: %w", err)
	}
	var b [4096]byte
	n, err := readRetry(netFD, b[:])
	if err != nil || n == 0 || b[0] != 'P' {
		return fmt.Errorf("the network proxy did not answer (%v): it ended while asked, or refused the request (its error, if any, is above)", cmp.Or(err, io.EOF))
	}
	var fds []int
	defer func() {
		for _, fd := range fds {
			unix.Close(fd)
		}
	}()
	for _, port := range []int{NetHTTPPort, NetSOCKSPort} {
		fd, err := listenLoopback(port)
		if err != nil {
			return fmt.Errorf("listening on 127.0.0.1:%d in the command's network namespace: %w", port, err)
		}
		fds = append(fds, fd)
	}
	helper, err := startHelper()
	if err != nil {
		return err
	}
	fds = append(fds, helper)
	// The forwards: a port that cannot be listened on is left out.
	var fwd []string
	for f := range strings.SplitSeq(string(b[1:n]), ",") {
		port, err := strconv.Atoi(f)
		if err != nil || port < 1 || port > 65535 || port == NetHTTPPort || port == NetSOCKSPort {
			continue
		}
		if fd, err := listenLoopback(port); err == nil {
			fds = append(fds, fd)
			fwd = append(fwd, f)
		}
	}
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		return fmt.Errorf("pipe: %w", err)
	}
	fds = append(fds[:3], append([]int{p[0]}, fds[3:]...)...)
	w, err := unix.FcntlInt(uintptr(p[1]), unix.F_DUPFD, lifetimeFD)
	unix.Close(p[1])
	if err != nil {
		return fmt.Errorf("the lifetime pipe: %w", err)
	}
	// http, socks, helper, lifetime, then one listener per forwarded port.
	if err := unix.Sendmsg(netFD, []byte("L"+strings.Join(fwd, ",")), unix.UnixRights(fds...), nil, 0); err != nil {
		unix.Close(w)
		return fmt.Errorf("handing the listening sockets to the network proxy: %w", err)
	}
	n, err = readRetry(netFD, b[:])
	switch {
	case err != nil:
		err = fmt.Errorf("waiting for the network proxy: %w", err)
	case n == 0:
		err = errors.New("the network proxy did not serve the command (its error is above)")
	case b[0] != 'R':
		err = fmt.Errorf("the network proxy answered %q", b[:n])
	}
	if err != nil {
		unix.Close(w)
	}
	return err
}

// readRetry is read(2) of fd, again after EINTR.
func readRetry(fd int, b []byte) (int, error) {
	for {
		n, err := unix.Read(fd, b)
		if !errors.Is(err, unix.EINTR) {
			return n, err
		}
	}
}

// HelperMode is the launcher's mode of the helper (see netHelper).
const HelperMode = "nshelper"

// startHelper starts the helper (this binary, mode HelperMode) with one
// end of a new socket pair as its descriptor 3, and returns the other.
// It is started before the command's lifetime pipe is made and before
// Landlock: it holds neither, and it ends when the daemon closes its end.
func startHelper() (int, error) {
	sp, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("socketpair: %w", err)
	}
	theirs := os.NewFile(uintptr(sp[1]), "helper")
	defer theirs.Close()
	cmd := &exec.Cmd{Path: "/proc/self/exe", Args: []string{"safezone", Subcommand, HelperMode}, ExtraFiles: []*os.File{theirs}, Dir: "/"}
	if err := cmd.Start(); err != nil {
		unix.Close(sp[0])
		return -1, fmt.Errorf("starting the network helper: %w", err)
	}
	cmd.Process.Release()
	return sp[0], nil
}

// netHelper is the helper, inside a command's network namespace: on each
// request from the daemon on descriptor 3 ("C4:PORT", "C6:PORT") it
// connects to 127.0.0.1 (or ::1) at PORT, or ("L4:PORT") listens on
// 127.0.0.1:PORT (a server another command started since, forwarded
// here), and sends the socket back ("F" with it, or "E" and why). It first closes what it inherited
// but descriptor 3 (a shell's state pipe must not live on here), and
// drops every capability.
func netHelper() int {
	if ents, err := os.ReadDir("/proc/self/fd"); err == nil {
		for _, e := range ents {
			fd, err := strconv.Atoi(e.Name())
			if err != nil || fd <= 3 {
				continue
			}
			if fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err == nil && fl&unix.FD_CLOEXEC == 0 {
				unix.Close(fd)
			}
		}
	}
	unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	var none [2]unix.CapUserData
	unix.Capset(&unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}, &none[0])
	const fd = 3
	// The daemon reads the namespace's listening sockets from this
	// process's /proc/PID/net.
	unix.Write(fd, []byte("H"+strconv.Itoa(os.Getpid())))
	var b [64]byte
	for {
		n, err := readRetry(fd, b[:])
		if err != nil || n == 0 {
			return 0
		}
		req := string(b[:n])
		var port int
		var op, family string
		if _, err := fmt.Sscanf(req, "%1s%1s:%d", &op, &family, &port); err != nil || port < 1 || port > 65535 || (op != "C" && op != "L") {
			unix.Write(fd, []byte("Ebad request"))
			continue
		}
		var c int
		if op == "L" {
			c, err = listenLoopback(port)
		} else {
			c, err = connectLoopback(family == "6", port)
		}
		if err != nil {
			unix.Write(fd, []byte("E"+err.Error()))
			continue
		}
		unix.Sendmsg(fd, []byte("F"), unix.UnixRights(c), nil, 0)
		unix.Close(c)
	}
}

// connectLoopback returns a TCP socket connected to 127.0.0.1:port, or
// [::1]:port for v6.
func connectLoopback(v6 bool, port int) (int, error) {
	family := unix.AF_INET
	var sa unix.Sockaddr = &unix.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}}
	if v6 {
		family = unix.AF_INET6
		sa = &unix.SockaddrInet6{Port: port, Addr: [16]byte{15: 1}}
	}
	fd, err := unix.Socket(family, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	for {
		err = unix.Connect(fd, sa)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

// loopbackUp sets the lo interface of the current network namespace up.
func loopbackUp() error {
	s, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(s)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(s, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("SIOCGIFFLAGS: %w", err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(s, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("SIOCSIFFLAGS: %w", err)
	}
	return nil
}

// listenLoopback returns a TCP socket listening on 127.0.0.1:port.
func listenLoopback(port int) (int, error) {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	if err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_REUSEADDR, 1); err == nil {
		err = unix.Bind(fd, &unix.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}})
		if err == nil {
			err = unix.Listen(fd, 512)
		}
		if err == nil {
			return fd, nil
		}
	}
	unix.Close(fd)
	return -1, err
}

// proxyVars are the variables a command in a network namespace of its own
// gets: the proxies inside it, for the programs that honour them (curl,
// wget, git over https, go, npm, pip, cargo, node's fetch from Node 24
// with NODE_USE_ENV_PROXY), and no proxy for the namespace's own
// loopback, where a server the command starts listens.
func proxyVars() []string {
	h := "http://127.0.0.1:" + strconv.Itoa(NetHTTPPort)
	s := "socks5h://127.0.0.1:" + strconv.Itoa(NetSOCKSPort)
	local := "localhost,127.0.0.1,::1"
	return []string{
		"HTTP_PROXY=" + h, "http_proxy=" + h, "HTTPS_PROXY=" + h, "https_proxy=" + h,
		"ALL_PROXY=" + s, "all_proxy=" + s, "NO_PROXY=" + local, "no_proxy=" + local,
		"npm_config_proxy=" + h, "npm_config_https_proxy=" + h, "npm_config_noproxy=" + local,
		"NODE_USE_ENV_PROXY=1",
	}
}

// withProxyVars returns env with proxyVars in place of any it had, and
// git's ssh command (GIT_SSH_COMMAND: the one env names, else ssh) with
// the option that sends its connection through the proxy program proxy
// (ssh's command line comes before any configuration file, ssh -F's
// too). Where env names GIT_SSH and no GIT_SSH_COMMAND, git's ssh is
// left as it is.
func withProxyVars(env []string, proxy string) []string {
	gitSSH, hasGitSSH := "", false
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GIT_SSH_COMMAND="); ok {
			gitSSH = v
		} else if strings.HasPrefix(kv, "GIT_SSH=") {
			hasGitSSH = true
		}
	}
	if gitSSH == "" && !hasGitSSH {
		gitSSH = "ssh"
	}
	if gitSSH != "" {
		env = append(slices.DeleteFunc(slices.Clone(env), func(kv string) bool { return strings.HasPrefix(kv, "GIT_SSH_COMMAND=") }),
			"GIT_SSH_COMMAND="+gitSSH+" -o "+shellQuote("ProxyCommand="+SSHProxyCommand(proxy)))
	}
	vars := proxyVars()
	out := make([]string, 0, len(env)+len(vars))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.EqualFold(name, "NO_PROXY") && !strings.EqualFold(name, "HTTP_PROXY") && !strings.EqualFold(name, "HTTPS_PROXY") && !strings.EqualFold(name, "ALL_PROXY") &&
			!strings.EqualFold(name, "npm_config_proxy") && !strings.EqualFold(name, "npm_config_https_proxy") && !strings.EqualFold(name, "npm_config_noproxy") && name != "NODE_USE_ENV_PROXY" {
			out = append(out, kv)
		}
	}
	return append(out, vars...)
}
