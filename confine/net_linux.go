//go:build linux

package confine

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// The network of a ruleset with Net (see [Ruleset]): the second stage,
// cloned into a network namespace of its own, brings its loopback
// interface up, makes the two listening sockets of the proxies there and
// sends them, over a socket pair, to the proxy program the supervisor
// started outside the namespace. A socket stays in the namespace it was
// made in: the proxy accepts the command's connections on them, and
// dials out from the machine's own network. The second stage waits for
// the proxy's word that it serves them before it runs the command, so a
// proxy that cannot start stops the command instead of leaving it without
// a network, unexplained.

// startProxy starts n.Proxy outside the namespaces with one end of a new
// socket pair as its descriptor 3, its policy as its argument and the
// launcher's standard error as its own (its refusals are the command's
// to show), in a process group of its own (a Ctrl-C for the command is
// not one for it), killed with the launcher's thread (the caller has
// locked it). It returns the process and the other end, which the second
// stage inherits at the descriptor number it is given.
func startProxy(n *Net) (*exec.Cmd, *os.File, error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("socketpair: %w", err)
	}
	theirs := os.NewFile(uintptr(fds[0]), "proxy")
	defer theirs.Close()
	cmd := &exec.Cmd{
		Path:       n.Proxy,
		Args:       []string{n.Proxy, "serve", string(n.Policy)},
		Stderr:     os.Stderr,
		ExtraFiles: []*os.File{theirs},
		Dir:        "/",
		SysProcAttr: &unix.SysProcAttr{
			Setpgid:   true,
			Pdeathsig: unix.SIGKILL,
		},
	}
	if err := cmd.Start(); err != nil {
		unix.Close(fds[1])
		return nil, nil, fmt.Errorf("cannot start the network proxy %s: %w", n.Proxy, err)
	}
	// The second stage inherits this end: a copy without close-on-exec.
	ours, err := unix.Dup(fds[1])
	unix.Close(fds[1])
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, nil, fmt.Errorf("dup: %w", err)
	}
	return cmd, os.NewFile(uintptr(ours), "netfd"), nil
}

// stopProxy ends the proxy started by startProxy, if any.
func stopProxy(cmd *exec.Cmd) {
	if cmd != nil {
		cmd.Process.Kill()
		cmd.Wait()
	}
}

// netUp is the second stage's part: loopback up, the proxies' listening
// sockets made and sent through netFD, and the proxy's one-byte answer
// awaited. It needs CAP_NET_ADMIN in the namespace.
func netUp(netFD int) error {
	defer unix.Close(netFD)
	if err := loopbackUp(); err != nil {
		return fmt.Errorf("bringing up the loopback interface of the command's network namespace: %w", err)
	}
	var ls []int
	defer func() {
		for _, fd := range ls {
			unix.Close(fd)
		}
	}()
	for _, port := range []int{NetHTTPPort, NetSOCKSPort} {
		fd, err := listenLoopback(port)
		if err != nil {
			return fmt.Errorf("listening on 127.0.0.1:%d in the command's network namespace: %w", port, err)
		}
		ls = append(ls, fd)
	}
	if err := unix.Sendmsg(netFD, []byte{'L'}, unix.UnixRights(ls...), nil, 0); err != nil {
		return fmt.Errorf("handing the listening sockets to the network proxy: %w", err)
	}
	var b [256]byte
	n, err := unix.Read(netFD, b[:])
	for errors.Is(err, unix.EINTR) {
		n, err = unix.Read(netFD, b[:])
	}
	switch {
	case err != nil:
		return fmt.Errorf("waiting for the network proxy: %w", err)
	case n == 0:
		return errors.New("the network proxy ended before it served the command (its error is above)")
	case b[0] != 'R':
		return fmt.Errorf("the network proxy answered %q", b[:n])
	}
	return nil
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

// withProxyVars returns env with proxyVars in place of any it had.
func withProxyVars(env []string) []string {
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
