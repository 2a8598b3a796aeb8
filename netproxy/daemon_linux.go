//go:build linux

package netproxy

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// The daemon: one per user and proxy binary, serving every confined
// command of that user that has a network of its own. The launcher
// (confine's net_linux.go) connects to its socket, starting it when there
// is none, and sends one message per command:
//
//	data:   the command's configuration (Config, JSON)
//	rights: the command's standard error; the read end of a pipe the
//	        launcher holds until the command ends; one end of a socket
//	        pair whose other end the command's second stage holds
//
// The second stage sends, through that socket pair, the two listening
// sockets it made in the command's network namespace and the read end of
// a pipe every process of the command inherits (the lifetime pipe), and
// waits for the daemon's 'R'. The daemon serves the listeners until the
// lifetime pipe reads end of file (every process of the command has
// ended, or closed it), and writes its refusals on the command's standard
// error until the launcher's pipe does (then in the audit log only: a
// process the command leaves running must not hold the host's output
// open).

// idleExit is how long a daemon serving no command waits before it ends.
const idleExit = 10 * time.Minute

// Daemon serves on the Unix socket sock (SOCK_SEQPACKET, mode 0600, in a
// directory of the user's own) until it has served no command for
// idleExit. Only the daemon's own user may connect (SO_PEERCRED).
func Daemon(sock string) error {
	// Descriptors the starter left open (a shell's state pipe the host
	// waits on) must not live on here: those inherited are the ones
	// without close-on-exec (the runtime's own have it).
	if ents, err := os.ReadDir("/proc/self/fd"); err == nil {
		for _, e := range ents {
			fd, err := strconv.Atoi(e.Name())
			if err != nil || fd < 3 {
				continue
			}
			if fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err == nil && fl&unix.FD_CLOEXEC == 0 {
				unix.Close(fd)
			}
		}
	}
	if err := os.MkdirAll(filepath.Dir(sock), 0o700); err != nil {
		return err
	}
	os.Remove(sock)
	old := unix.Umask(0o077)
	l, err := net.ListenUnix("unixpacket", &net.UnixAddr{Name: sock, Net: "unixpacket"})
	unix.Umask(old)
	if err != nil {
		return err
	}
	l.SetUnlinkOnClose(true)
	defer l.Close()
	d := &daemon{last: time.Now()}
	go func() {
		for range time.Tick(time.Minute) {
			if d.idle() {
				// The socket goes first, so that a launcher connecting now
				// starts a new daemon rather than talking to a closing one.
				l.Close()
				return
			}
		}
	}()
	for {
		c, err := l.AcceptUnix()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			continue
		}
		go d.handle(c)
	}
}

// daemon counts the commands it serves.
type daemon struct {
	mu      sync.Mutex
	serving int
	last    time.Time
}

func (d *daemon) idle() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.serving == 0 && time.Since(d.last) > idleExit
}

func (d *daemon) add(n int) {
	d.mu.Lock()
	d.serving += n
	d.last = time.Now()
	d.mu.Unlock()
}

// handle serves one command's request on c.
func (d *daemon) handle(c *net.UnixConn) {
	defer c.Close()
	d.add(1)
	defer d.add(-1)
	if err := peerIsMe(c); err != nil {
		return
	}
	buf := make([]byte, 1<<20)
	oob := make([]byte, unix.CmsgSpace(3*4))
	n, oobn, _, _, err := c.ReadMsgUnix(buf, oob)
	if err != nil {
		return
	}
	fds := rights(oob[:oobn])
	if len(fds) != 3 {
		closeAll(fds)
		return
	}
	stderr, alive, ns := os.NewFile(uintptr(fds[0]), "stderr"), os.NewFile(uintptr(fds[1]), "alive"), fds[2]
	cfg, pol, err := ParseConfig(string(buf[:n]))
	if err != nil {
		fmt.Fprintf(stderr, "safezone: network proxy: %v\n", err)
		stderr.Close()
		alive.Close()
		unix.Close(ns)
		return
	}
	p := &Proxy{Config: cfg, Policy: pol, Stderr: stderr}
	// The command's standard error is the proxy's only while the launcher
	// waits for the command.
	go func() {
		io.Copy(io.Discard, alive)
		alive.Close()
		p.mu.Lock()
		p.Stderr = nil
		p.mu.Unlock()
		stderr.Close()
	}()
	httpL, socksL, lifetime, err := receive(ns)
	if err != nil {
		p.say(err.Error())
		return
	}
	go func() {
		// Every process of the command has ended: so does its service.
		io.Copy(io.Discard, lifetime)
		lifetime.Close()
		httpL.Close()
		socksL.Close()
	}()
	p.Serve(httpL, socksL)
}

// say writes one line on the command's standard error, while it has one.
func (p *Proxy) say(msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.Stderr != nil {
		fmt.Fprintf(p.Stderr, "safezone: network proxy: %s\n", msg)
	}
}

// peerIsMe checks that c's peer runs as this process's user.
func peerIsMe(c *net.UnixConn) error {
	raw, err := c.SyscallConn()
	if err != nil {
		return err
	}
	var cred *unix.Ucred
	var cerr error
	raw.Control(func(fd uintptr) { cred, cerr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED) })
	if cerr != nil {
		return cerr
	}
	if int(cred.Uid) != os.Getuid() {
		return fmt.Errorf("peer of user %d", cred.Uid)
	}
	return nil
}

// rights returns the descriptors of the SCM_RIGHTS messages in oob.
func rights(oob []byte) []int {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return nil
	}
	var out []int
	for i := range msgs {
		fds, err := unix.ParseUnixRights(&msgs[i])
		if err == nil {
			out = append(out, fds...)
		}
	}
	for _, fd := range out {
		unix.CloseOnExec(fd)
	}
	return out
}

func closeAll(fds []int) {
	for _, fd := range fds {
		unix.Close(fd)
	}
}

// receive reads the second stage's message on the socket fd: the HTTP
// and the SOCKS listening sockets, made in the command's network
// namespace, and the read end of the command's lifetime pipe; it answers
// 'R' and closes fd.
func receive(fd int) (httpL, socksL net.Listener, lifetime *os.File, err error) {
	defer unix.Close(fd)
	buf := make([]byte, 1)
	oob := make([]byte, unix.CmsgSpace(3*4))
	var n, oobn int
	for {
		n, oobn, _, _, err = unix.Recvmsg(fd, buf, oob, unix.MSG_CMSG_CLOEXEC)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("receiving the listening sockets: %w", err)
	}
	if n == 0 {
		return nil, nil, nil, errors.New("the launcher ended before it sent the listening sockets")
	}
	fds := rights(oob[:oobn])
	if len(fds) != 3 {
		closeAll(fds)
		return nil, nil, nil, fmt.Errorf("receiving the listening sockets: got %d descriptors, want 3", len(fds))
	}
	var ls [2]net.Listener
	for i, f := range fds[:2] {
		file := os.NewFile(uintptr(f), "listener")
		ls[i], err = net.FileListener(file)
		file.Close()
		if err != nil {
			return nil, nil, nil, fmt.Errorf("listener %d: %w", i, err)
		}
	}
	lifetime = os.NewFile(uintptr(fds[2]), "lifetime")
	if _, err := unix.Write(fd, []byte{'R'}); err != nil {
		ls[0].Close()
		ls[1].Close()
		lifetime.Close()
		return nil, nil, nil, err
	}
	return ls[0], ls[1], lifetime, nil
}

// Main is `safezone-proxy daemon SOCKET` (started by safezone's
// launcher, detached). Errors go to stderr, with exit status 1.
func Main(args []string, stderr io.Writer) int {
	if len(args) != 2 || args[0] != "daemon" || !filepath.IsAbs(args[1]) {
		fmt.Fprintln(stderr, "usage: safezone-proxy daemon SOCKET   (started by safezone's launcher)")
		return 2
	}
	if err := Daemon(args[1]); err != nil {
		fmt.Fprintf(stderr, "safezone: network proxy: %v\n", err)
		return 1
	}
	return 0
}
