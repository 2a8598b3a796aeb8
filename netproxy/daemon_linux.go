//go:build linux

package netproxy

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/safezonehq/safezone/confine"
	"github.com/safezonehq/safezone/netrule"
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
//
// A server a command leaves listening on its namespace's loopback is
// forwarded from the machine's 127.0.0.1 (for the user's browser) and
// into the namespaces of the commands of the same project only (the
// Config's Scope): one project's command never reaches another's server
// through the daemon, nor finds the port taken in its own namespace.

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
	addr, done, err := confine.SocketAddr(sock)
	if err != nil {
		return err
	}
	old := unix.Umask(0o077)
	l, err := net.ListenUnix("unixpacket", &net.UnixAddr{Name: addr, Net: "unixpacket"})
	unix.Umask(old)
	done()
	if err != nil {
		return err
	}
	// Unlinked by its own name (it may have been bound through a
	// descriptor of its directory, which is closed now).
	l.SetUnlinkOnClose(false)
	defer os.Remove(sock)
	defer l.Close()
	d := &daemon{last: time.Now()}
	go func() {
		for range time.Tick(time.Minute) {
			if d.idle() {
				// The socket goes first, so that a launcher connecting now
				// starts a new daemon rather than talking to a closing one.
				os.Remove(sock)
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
	mu        sync.Mutex
	serving   int
	last      time.Time
	forwarded map[int]string // ports of the machine's 127.0.0.1 forwarded from a namespace, with its scope
	spaces    map[*namespace]bool
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
		p.Flush() // the count of the refusals past the bound, so far
	}()
	// The ports of the machine's loopback the command may use as its own.
	scope := cfg.Scope
	offer := d.offer(pol, scope, true)
	if _, err := unix.Write(ns, []byte("P"+joinPorts(offer))); err != nil {
		unix.Close(ns)
		return
	}
	got, err := receive(ns)
	if err != nil {
		p.say(err.Error())
		return
	}
	defer got.helper.Close()
	var wg sync.WaitGroup
	named := d.offer(&netrule.Policy{Allow: pol.Allow}, scope, false)
	for i, l := range got.forwards {
		port := got.ports[i]
		// What listens at the port on the machine when a connection
		// comes must still be what the command was given it for: a
		// localhost service the policy names, or a server another
		// command of the same project left running (not whatever took
		// the port since).
		ok := func() bool {
			return d.isForwarded(port, scope) || slices.Contains(named, port)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			serveForward(l, port, ok)
		}()
	}
	ns2 := &namespace{d: d, scope: scope, helper: got.helper, own: map[int]bool{}, in: map[int]net.Listener{}, named: named, hello: make(chan struct{})}
	for _, port := range got.ports {
		ns2.own[port] = true
	}
	done := make(chan struct{})
	go func() {
		// Every process of the command has ended: so does its service.
		io.Copy(io.Discard, got.lifetime)
		got.lifetime.Close()
		got.http.Close()
		got.socks.Close()
		for _, l := range got.forwards {
			l.Close()
		}
		close(done)
	}()
	d.join(ns2)
	go ns2.watch(done)
	p.Serve(got.http, got.socks)
	wg.Wait()
	<-done
	p.Flush()
	d.leave(ns2)
	ns2.stop()
}

// join adds n to the namespaces served, and gives it a listener for each
// port forwarded now from its scope that it did not get at its start;
// leave takes it out.
func (d *daemon) join(n *namespace) {
	d.mu.Lock()
	if d.spaces == nil {
		d.spaces = map[*namespace]bool{}
	}
	d.spaces[n] = true
	var ports []int
	for port, scope := range d.forwarded {
		if scope == n.scope {
			ports = append(ports, port)
		}
	}
	d.mu.Unlock()
	for _, port := range ports {
		go n.addForward(port)
	}
}

func (d *daemon) leave(n *namespace) {
	d.mu.Lock()
	delete(d.spaces, n)
	d.mu.Unlock()
}

// isForwarded reports whether port is forwarded now from a namespace of
// scope.
func (d *daemon) isForwarded(port int, scope string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	s, ok := d.forwarded[port]
	return ok && s == scope
}

// addForward gives n a listener on its 127.0.0.1:port (made by its
// helper), relayed to the machine's 127.0.0.1:port while the port is
// forwarded from another namespace of n's scope: a server a command of
// the same project started after n.
func (n *namespace) addForward(port int) {
	if !n.greeted() {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.own[port] || n.in == nil || n.forwards[port] != nil {
		return
	}
	n.own[port] = true
	f, err := n.request("L4", port)
	if err != nil {
		return
	}
	defer f.Close()
	l, err := net.FileListener(f)
	if err != nil {
		return
	}
	n.in[port] = l
	go serveForward(l, port, func() bool { return n.d.isForwarded(port, n.scope) || slices.Contains(n.named, port) })
}

// removeForward closes n's listener for port, made by addForward.
func (n *namespace) removeForward(port int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if l := n.in[port]; l != nil {
		l.Close()
		delete(n.in, port)
		delete(n.own, port)
	}
}

// offer returns the ports a new command gets a listener for on its own
// 127.0.0.1, forwarded to the machine's: those this daemon forwards from
// the namespaces of other commands of scope (a server an earlier command
// of the same project left running), when forwarded is set, and those of
// the policy's loopback entries (localhost:5432, 127.0.0.1:5432,
// [::1]:5432).
func (d *daemon) offer(pol *netrule.Policy, scope string, forwarded bool) []int {
	var out []int
	if forwarded {
		d.mu.Lock()
		for port, s := range d.forwarded {
			if s == scope {
				out = append(out, port)
			}
		}
		d.mu.Unlock()
	}
	for _, e := range pol.Allow {
		if e.Port == 0 {
			continue
		}
		loop := e.Name == "localhost" || e.Prefix.IsValid() && e.Prefix.IsSingleIP() && e.Prefix.Addr().IsLoopback()
		if loop && !slices.Contains(out, e.Port) {
			out = append(out, e.Port)
		}
	}
	slices.Sort(out)
	return out
}

func joinPorts(ps []int) string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(p))
	}
	return b.String()
}

// serveForward relays each connection to l (a listener on a command's
// 127.0.0.1:port) to the machine's own 127.0.0.1:port (or [::1]:port),
// while ok says the port is still the command's to reach.
func serveForward(l net.Listener, port int, ok func() bool) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			if !ok() {
				return
			}
			t, err := net.DialTimeout("tcp", netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), uint16(port)).String(), 10*time.Second)
			if err != nil {
				t, err = net.DialTimeout("tcp", netip.AddrPortFrom(netip.IPv6Loopback(), uint16(port)).String(), 10*time.Second)
			}
			if err != nil {
				return
			}
			defer t.Close()
			relay(c, t)
		}()
	}
}

// namespace is one command's namespace, whose servers the daemon forwards
// from the machine's 127.0.0.1.
type namespace struct {
	d      *daemon
	scope  string // the project it belongs to (Config.Scope)
	helper *os.File
	pid    int
	own    map[int]bool // ports forwarded into it (not its servers)

	named    []int                // its policy's loopback ports
	mu       sync.Mutex           // serialises the helper's requests
	forwards map[int]net.Listener // its servers, forwarded from the machine's 127.0.0.1
	in       map[int]net.Listener // listeners on its 127.0.0.1 for others' servers (addForward)
	hello    chan struct{}        // closed once the helper's PID is known
}

// greeted waits up to 5 s for the helper's greeting.
func (n *namespace) greeted() bool {
	select {
	case <-n.hello:
		return n.pid > 0
	case <-time.After(5 * time.Second):
		return false
	}
}

// watch reads the helper's greeting (its PID), then, until done, looks at
// the namespace's listening sockets every watchEvery and forwards each
// new one from the machine's 127.0.0.1 (when that port is free there),
// and stops forwarding those that went.
func (n *namespace) watch(done <-chan struct{}) {
	var b [32]byte
	k, err := n.helper.Read(b[:])
	n.mu.Lock()
	n.forwards = map[int]net.Listener{}
	if err == nil && k >= 2 && b[0] == 'H' {
		n.pid, _ = strconv.Atoi(string(b[1:k]))
	}
	n.mu.Unlock()
	close(n.hello)
	if n.pid <= 0 {
		return
	}
	t := time.NewTicker(watchEvery)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
		}
		live, err := listening(n.pid)
		if err != nil {
			continue
		}
		n.mu.Lock()
		for port, l := range n.forwards {
			if _, ok := live[port]; !ok {
				l.Close()
				delete(n.forwards, port)
				n.d.unforward(port)
			}
		}
		for port, v6 := range live {
			if _, ok := n.forwards[port]; ok || n.own[port] || port == confineHTTP || port == confineSOCKS {
				continue
			}
			l, err := net.Listen("tcp", netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), uint16(port)).String())
			if err != nil {
				continue // taken on the machine: not forwarded
			}
			n.forwards[port] = l
			n.d.forward(port, n)
			go n.serveInbound(l, port, v6)
		}
		n.mu.Unlock()
	}
}

// stop ends every forward of n.
func (n *namespace) stop() {
	n.mu.Lock()
	defer n.mu.Unlock()
	for port, l := range n.forwards {
		l.Close()
		n.d.unforward(port)
	}
	for _, l := range n.in {
		l.Close()
	}
	n.forwards, n.in = nil, nil
}

// The ports of the proxies inside a namespace (confine.NetHTTPPort and
// NetSOCKSPort), never forwarded.
const (
	confineHTTP  = 3128
	confineSOCKS = 1080
)

// watchEvery is how often a namespace's listening sockets are looked at.
const watchEvery = 250 * time.Millisecond

// serveInbound relays each connection to l (on the machine's
// 127.0.0.1:port) to the namespace's server on port, through a socket
// the helper connects inside.
func (n *namespace) serveInbound(l net.Listener, port int, v6 bool) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			t, err := n.connect(port, v6)
			if err != nil {
				return
			}
			defer t.Close()
			relay(c, t)
		}()
	}
}

// connect asks the helper for a socket connected to port inside.
func (n *namespace) connect(port int, v6 bool) (net.Conn, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	op := "C4"
	if v6 {
		op = "C6"
	}
	f, err := n.request(op, port)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return net.FileConn(f)
}

// request sends the helper op ("C4", "C6", "L4") for port and returns the
// socket it answers with; n.mu is held.
func (n *namespace) request(op string, port int) (*os.File, error) {
	fd := int(n.helper.Fd())
	if _, err := unix.Write(fd, []byte(op+":"+strconv.Itoa(port))); err != nil {
		return nil, err
	}
	buf := make([]byte, 256)
	oob := make([]byte, unix.CmsgSpace(4))
	k, oobn, _, _, err := unix.Recvmsg(fd, buf, oob, unix.MSG_CMSG_CLOEXEC)
	if err != nil {
		return nil, err
	}
	fds := rights(oob[:oobn])
	if k < 1 || buf[0] != 'F' || len(fds) != 1 {
		closeAll(fds)
		return nil, fmt.Errorf("the helper: %s", buf[:k])
	}
	return os.NewFile(uintptr(fds[0]), "socket"), nil
}

// listening returns the TCP ports listening on loopback or every address
// in the network namespace of process pid (from /proc/PID/net/tcp and
// tcp6; proc(5)), each with whether only IPv6 has it.
func listening(pid int) (map[int]bool, error) {
	out := map[int]bool{}
	for _, name := range []string{"tcp", "tcp6"} {
		data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/net/" + name)
		if err != nil {
			return nil, err
		}
		for _, line := range strings.Split(string(data), "\n")[1:] {
			f := strings.Fields(line)
			if len(f) < 4 || f[3] != "0A" { // TCP_LISTEN
				continue
			}
			addr, portHex, ok := strings.Cut(f[1], ":")
			if !ok {
				continue
			}
			port, err := strconv.ParseUint(portHex, 16, 16)
			if err != nil {
				continue
			}
			switch addr {
			case "0100007F", "00000000", // 127.0.0.1, 0.0.0.0
				"00000000000000000000000001000000", "00000000000000000000000000000000", // ::1, ::
				"0000000000000000FFFF00000100007F": // ::ffff:127.0.0.1
			default:
				continue
			}
			if _, seen := out[int(port)]; !seen || name == "tcp" {
				out[int(port)] = name == "tcp6"
			}
		}
	}
	return out, nil
}

// forward and unforward keep the daemon's list of forwarded ports.
// A new one is given to every other namespace served of the same scope
// (addForward).
func (d *daemon) forward(port int, from *namespace) {
	d.mu.Lock()
	if d.forwarded == nil {
		d.forwarded = map[int]string{}
	}
	d.forwarded[port] = from.scope
	var others []*namespace
	for n := range d.spaces {
		if n != from && n.scope == from.scope {
			others = append(others, n)
		}
	}
	d.mu.Unlock()
	for _, n := range others {
		go n.addForward(port)
	}
}

func (d *daemon) unforward(port int) {
	d.mu.Lock()
	delete(d.forwarded, port)
	var all []*namespace
	for n := range d.spaces {
		all = append(all, n)
	}
	d.mu.Unlock()
	for _, n := range all {
		go n.removeForward(port)
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

// received is what the second stage sent: the proxies' listeners, the
// helper's socket, the read end of the lifetime pipe, and the listeners
// of the forwarded ports.
type received struct {
	http, socks net.Listener
	helper      *os.File
	lifetime    *os.File
	forwards    []net.Listener
	ports       []int
}

// receive reads the second stage's message on the socket fd, answers 'R'
// and closes fd.
func receive(fd int) (*received, error) {
	defer unix.Close(fd)
	buf := make([]byte, 4096)
	oob := make([]byte, unix.CmsgSpace(64*4))
	var n, oobn int
	var err error
	for {
		n, oobn, _, _, err = unix.Recvmsg(fd, buf, oob, unix.MSG_CMSG_CLOEXEC)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("receiving the listening sockets: %w", err)
	}
	if n == 0 || buf[0] != 'L' {
		return nil, errors.New("the launcher ended before it sent the listening sockets")
	}
	fds := rights(oob[:oobn])
	var ports []int
	if n > 1 {
		for f := range strings.SplitSeq(string(buf[1:n]), ",") {
			p, err := strconv.Atoi(f)
			if err != nil {
				closeAll(fds)
				return nil, fmt.Errorf("bad port %q", f)
			}
			ports = append(ports, p)
		}
	}
	if len(fds) != 4+len(ports) {
		closeAll(fds)
		return nil, fmt.Errorf("receiving the listening sockets: got %d descriptors, want %d", len(fds), 4+len(ports))
	}
	r := &received{helper: os.NewFile(uintptr(fds[2]), "helper"), lifetime: os.NewFile(uintptr(fds[3]), "lifetime"), ports: ports}
	listener := func(fd int) (net.Listener, error) {
		f := os.NewFile(uintptr(fd), "listener")
		defer f.Close()
		return net.FileListener(f)
	}
	if r.http, err = listener(fds[0]); err == nil {
		r.socks, err = listener(fds[1])
	}
	for _, fd := range fds[4:] {
		if err != nil {
			unix.Close(fd)
			continue
		}
		var l net.Listener
		if l, err = listener(fd); err == nil {
			r.forwards = append(r.forwards, l)
		}
	}
	if err == nil {
		_, err = unix.Write(fd, []byte{'R'})
	}
	if err != nil {
		r.helper.Close()
		r.lifetime.Close()
		for _, l := range append([]net.Listener{r.http, r.socks}, r.forwards...) {
			if l != nil {
				l.Close()
			}
		}
		return nil, fmt.Errorf("the listening sockets: %w", err)
	}
	return r, nil
}

// Main is `safezone-proxy daemon SOCKET` (started by safezone's
// launcher, detached), or `safezone-proxy connect HOST PORT` (ssh's
// ProxyCommand in a command's namespace, see [Connect]). Errors go to
// stderr, with exit status 1.
func Main(args []string, stderr io.Writer) int {
	if len(args) == 3 && args[0] == "connect" {
		return Connect(args[1], args[2], os.Stdin, os.Stdout, stderr)
	}
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
