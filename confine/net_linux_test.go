package confine

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/safezonehq/safezone/netrule"
)

// proxyPath is cmd/safezone-proxy, built once for the tests that give a
// command a network of its own.
var proxyPath = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "confine-proxy-")
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, "safezone-proxy")
	out, err := exec.Command(goTool(), "build", "-o", p, "../cmd/safezone-proxy").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("building safezone-proxy: %v\n%s", err, out)
	}
	os.Chmod(dir, 0o755)
	return p, nil
})

// netRules is the fixture's ruleset with a network of its own whose proxy
// allows allow and denies deny, recording refusals in auditLog.
func netRules(t *testing.T, f *fixture, allow, deny []string, auditLog string) Ruleset {
	t.Helper()
	needNamespaces(t)
	p, err := proxyPath()
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := json.Marshal(map[string]any{"protocol": netrule.Protocol, "allow": allow, "deny": deny, "hint": "add it to network.allow in the test's policy",
		"audit": map[string]any{"path": auditLog, "session_id": "s1", "tool_use_id": "t1"}})
	if err != nil {
		t.Fatal(err)
	}
	rs := f.rules(false)
	sock := filepath.Join(f.root, "proxy.sock")
	rs.Net = &Net{Proxy: p, Socket: sock, Policy: cfg}
	rs.Hide = append(rs.Hide, sock)
	t.Cleanup(func() { stopDaemon(sock) })
	return rs
}

// stopDaemon ends the proxy daemon listening on sock, if any: the peer of
// a connection to it. It waits until the daemon has ended and removes
// its socket: a launcher that connected to a daemon still dying would
// have its request dropped with the daemon ("the network proxy did not
// answer"), the flake TestNetworkRegistries/go showed under load, when
// the next subtest's first command came within that window.
func stopDaemon(sock string) {
	StopProxyDaemon(sock)
}

// server is an HTTP server on the machine's own loopback, outside every
// command's namespace, counting the requests it got.
func server(t *testing.T) (*httptest.Server, *atomic.Int32, string) {
	var hits atomic.Int32
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		fmt.Fprint(w, "registry says hello")
	}))
	t.Cleanup(s.Close)
	_, port, _ := net.SplitHostPort(s.Listener.Addr().String())
	return s, &hits, port
}

// TestNetworkRefused runs, in a network namespace of the command's own,
// each way out that the policy does not name, and checks that none
// reaches a listener on the machine's loopback, that the refusals say
// why, and that what the policy allows gets through the proxies.
func TestNetworkRefused(t *testing.T) {
	f := newFixture(t)
	_, hits, port := server(t)
	_, hits2, port2 := server(t) // allowed by no entry
	udp, err := net.ListenPacket("udp4", "0.0.0.0:0")
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	_, udpPort, _ := net.SplitHostPort(udp.LocalAddr().String())
	log := filepath.Join(f.root, "audit.jsonl")
	rs := netRules(t, f, []string{"127.0.0.1:" + port, "localhost:" + port}, nil, log)
	curl := "env -u NO_PROXY -u no_proxy curl -sS --max-time 10 "

	for _, c := range []struct {
		name, script string
		want         string // in stdout+stderr
	}{
		{"tcp to the host's loopback", "bash -c 'exec 3<>/dev/tcp/127.0.0.1/" + port2 + " && echo CONNECTED'", "Connection refused"},
		{"http with --noproxy", "curl -sS --max-time 10 --noproxy '*' http://127.0.0.1:" + port2 + "/", "Couldn't connect"},
		{"a name not allowed, http", curl + "-x http://127.0.0.1:3128 http://example.com/", "example.com:80 is not in the network allowlist"},
		{"a name not allowed, CONNECT", curl + "-p -x http://127.0.0.1:3128 https://example.com/", "403"},
		{"a name not allowed, socks5", curl + "-x socks5h://127.0.0.1:1080 http://example.com/", "example.com:80 is not in the network allowlist"},
		{"the host's loopback through the proxy", curl + "-x http://127.0.0.1:3128 http://127.0.0.1:" + port2 + "/", "127.0.0.1:" + port2 + " is not in the network allowlist"},
		{"instance metadata through the proxy", curl + "-x http://127.0.0.1:3128 http://169.254.169.254/latest/meta-data/", "169.254.169.254:80 is not in the network allowlist"},
		{"instance metadata directly", "curl -sS --max-time 10 --noproxy '*' http://169.254.169.254/", "Couldn't connect"},
		{"raw DNS", "bash -c 'exec 3<>/dev/udp/8.8.8.8/53 && echo x >&3 && echo SENT'", "Network is unreachable"},
		{"udp to the host's loopback", "bash -c 'echo x >/dev/udp/127.0.0.1/" + udpPort + " && echo SENT-LOCAL'", "SENT-LOCAL"},
		{"udp to the host's address", "bash -c 'echo x >/dev/udp/" + hostAddr(t) + "/" + udpPort + " && echo SENT'", "Network is unreachable"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := sh(t, f.proj, rs, c.script)
			out := r.stdout + r.stderr
			if strings.Contains(out, "CONNECTED") || strings.Contains(out, "SENT\n") || strings.Contains(out, "registry says hello") {
				t.Errorf("got through: %s", out)
			}
			if !strings.Contains(out, c.want) {
				t.Errorf("output lacks %q:\n%s", c.want, out)
			}
		})
	}
	if n := hits2.Load(); n != 0 {
		t.Errorf("the listener no entry names got %d requests", n)
	}
	// A datagram sent to the namespace's own loopback leaves it not.
	udp.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	if n, from, err := udp.ReadFrom(make([]byte, 64)); err == nil {
		t.Errorf("the UDP listener got %d bytes from %v", n, from)
	}

	// What the policy names gets through, by each proxy.
	for _, c := range []struct{ name, script string }{
		{"http proxy", curl + "http://127.0.0.1:" + port + "/"},
		{"http proxy, CONNECT", curl + "-p -x http://127.0.0.1:3128 http://127.0.0.1:" + port + "/"},
		{"socks5", curl + "-x socks5h://127.0.0.1:1080 http://127.0.0.1:" + port + "/"},
		{"socks5 by name", curl + "-x socks5h://127.0.0.1:1080 http://localhost:" + port + "/"},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := hits.Load()
			r := sh(t, f.proj, rs, c.script)
			if !strings.Contains(r.stdout, "registry says hello") || hits.Load() != before+1 {
				t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
			}
		})
	}

	// The variables lead curl to the proxy: a server on the machine's own
	// address, which the policy names.
	t.Run("the variables", func(t *testing.T) {
		ip := hostAddr(t)
		var got atomic.Int32
		l, err := net.Listen("tcp", ip+":0")
		if err != nil {
			t.Fatal(err)
		}
		s := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			got.Add(1)
			fmt.Fprint(w, "registry says hello")
		}))
		s.Listener = l
		s.Start()
		defer s.Close()
		rs := netRules(t, f, []string{l.Addr().String()}, nil, "")
		r := sh(t, f.proj, rs, "curl -sS --max-time 10 http://"+l.Addr().String()+"/")
		if !strings.Contains(r.stdout, "registry says hello") || got.Load() != 1 {
			t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
		}
	})

	// Each refusal is in the audit log, with the call and the destination.
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"tool_use_id":"t1"`) || !strings.Contains(string(b), `"given":"169.254.169.254:80"`) || !strings.Contains(string(b), `"given":"example.com:443"`) {
		t.Errorf("audit log:\n%s", b)
	}
}

// TestNetworkAddresses checks the addresses a name resolves to: "*" opens
// every public name, not the machine's loopback a name leads to, and a
// deny entry wins over the allow entry.
func TestNetworkAddresses(t *testing.T) {
	f := newFixture(t)
	_, hits, port := server(t)
	curl := "env -u NO_PROXY -u no_proxy curl -sS --max-time 10 -x http://127.0.0.1:3128 "
	r := sh(t, f.proj, netRules(t, f, []string{"*"}, nil, ""), curl+"http://localhost:"+port+"/")
	if !strings.Contains(r.stdout+r.stderr, "resolves to 127.0.0.1, a loopback address") {
		t.Errorf("'*' reached localhost: %q %q", r.stdout, r.stderr)
	}
	r = sh(t, f.proj, netRules(t, f, []string{"localhost"}, []string{"127.0.0.0/8"}, ""), curl+"http://localhost:"+port+"/")
	if !strings.Contains(r.stdout+r.stderr, `matches network.deny "127.0.0.0/8"`) {
		t.Errorf("the deny entry did not refuse: %q %q", r.stdout, r.stderr)
	}
	if hits.Load() != 0 {
		t.Errorf("the server got %d requests", hits.Load())
	}
}

// TestNetworkProxyMissing: a proxy that cannot start stops the command.
func TestNetworkProxyMissing(t *testing.T) {
	f := newFixture(t)
	rs := netRules(t, f, nil, nil, "")
	rs.Net.Proxy = filepath.Join(f.root, "no-such-proxy")
	r := sh(t, f.proj, rs, "echo RAN")
	if strings.Contains(r.stdout, "RAN") || r.code != ExitCannotRun || !strings.Contains(r.stderr, "cannot start the network proxy") {
		t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	rs.Net.Proxy, _ = proxyPath()
	rs.Net.Policy = json.RawMessage(`{"protocol":` + strconv.Itoa(netrule.Protocol) + `,"allow":["bad entry"]}`)
	r = sh(t, f.proj, rs, "echo RAN")
	if strings.Contains(r.stdout, "RAN") || r.code != ExitCannotRun || !strings.Contains(r.stderr, "bad network entry") || !strings.Contains(r.stderr, "the command was not run") {
		t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// TestNetworkNone: a Net without a proxy (safezone-proxy is not
// installed) is a network namespace with no way out at all: the command
// runs, its own loopback works, nothing outside is reached, and the note
// is the first line of its standard error.
func TestNetworkNone(t *testing.T) {
	needNamespaces(t)
	f := newFixture(t)
	_, hits, port := server(t)
	rs := f.rules(false)
	rs.Net = &Net{Note: "this command has no network: no safezone-proxy beside safezone"}
	if err := rs.Validate(); err != nil {
		t.Fatal(err)
	}
	r := sh(t, f.proj, rs, "echo RAN; curl -sS --max-time 5 --noproxy '*' http://127.0.0.1:"+port+"/; "+
		`python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); s.listen(); c=socket.create_connection(s.getsockname()); print("LOOPBACK")'`)
	if !strings.Contains(r.stdout, "RAN") || !strings.Contains(r.stdout, "LOOPBACK") || hits.Load() != 0 ||
		!strings.HasPrefix(r.stderr, "safezone: this command has no network: no safezone-proxy beside safezone\n") || !strings.Contains(r.stderr, "Couldn't connect") {
		t.Errorf("exit %d, hits %d, stdout %q, stderr %q", r.code, hits.Load(), r.stdout, r.stderr)
	}
}

// hostAddr is an IPv4 address of this machine's other than loopback.
func hostAddr(t *testing.T) string {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() {
			return n.IP.String()
		}
	}
	t.Skip("this machine has no address but loopback")
	return ""
}

// TestNetworkRegistries installs from the registries this machine reaches
// (npm's and the Go module proxy), confined, through the proxy with the
// registry allowed, and checks the same install fails without it. Where
// the registry does not answer outside either, the case is skipped.
func TestNetworkRegistries(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads from the registries")
	}
	f := newFixture(t)
	for _, c := range []struct {
		name, tool, host, script, want string
	}{
		{"npm", "npm", "registry.npmjs.org", "cd " + f.proj + " && npm install --no-save --cache " + f.proj + "/.npm-cache is-number@7.0.0 >/dev/null && cat node_modules/is-number/package.json | grep '\"version\"'", `"version": "7.0.0"`},
		{"go", "go", "proxy.golang.org", "cd " + f.proj + " && GOMODCACHE=" + f.proj + "/gomod GOFLAGS=-modcacherw GOSUMDB=off GOPROXY=https://proxy.golang.org go mod download -json golang.org/x/sync@v0.10.0 | grep '\"Zip\"'", "sync/@v/v0.10.0.zip"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := exec.LookPath(c.tool); err != nil {
				t.Skipf("no %s here", c.tool)
			}
			conn, err := net.DialTimeout("tcp", c.host+":443", 5*time.Second)
			if err != nil {
				t.Skipf("%s is not reachable from here: %v", c.host, err)
			}
			conn.Close()
			rs := netRules(t, f, []string{c.host}, nil, "")
			rs.Write = append(rs.Write, os.TempDir())
			r := sh(t, f.proj, rs, c.script)
			if r.code != 0 || !strings.Contains(r.stdout, c.want) {
				t.Errorf("allowed: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
			}
			os.RemoveAll(f.proj + "/node_modules")
			os.RemoveAll(f.proj + "/.npm-cache")
			exec.Command("chmod", "-R", "u+w", f.proj+"/gomod").Run()
			os.RemoveAll(f.proj + "/gomod")
			r = sh(t, f.proj, netRules(t, f, []string{"example.org"}, nil, ""), c.script)
			if r.code == 0 || !strings.Contains(r.stderr, c.host+":443 is not in the network allowlist") {
				t.Errorf("not allowed: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// TestNetworkLifetime: a process the command leaves running keeps its
// network after the command ended (the daemon serves the namespace while
// a process of the command lives), and neither it nor the command can
// reach the daemon's socket.
func TestNetworkLifetime(t *testing.T) {
	f := newFixture(t)
	_, hits, port := server(t)
	rs := netRules(t, f, []string{"127.0.0.1:" + port}, nil, "")
	out := filepath.Join(f.proj, "later.txt")
	r := sh(t, f.proj, rs, "(sleep 1; env -u NO_PROXY -u no_proxy curl -sS --max-time 10 http://127.0.0.1:"+port+"/ > "+out+" 2>&1) >/dev/null 2>&1 &")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) && !strings.Contains(readIfAny(out), "hello") {
		time.Sleep(100 * time.Millisecond)
	}
	if got := readIfAny(out); !strings.Contains(got, "registry says hello") || hits.Load() != 1 {
		t.Errorf("the process left running got %q", got)
	}
	r = sh(t, f.proj, rs, `python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET); s.connect(sys.argv[1]); print("CONNECTED")' `+rs.Net.Socket)
	if strings.Contains(r.stdout, "CONNECTED") || !strings.Contains(r.stderr, "Permission denied") {
		t.Errorf("the daemon's socket: stdout %q, stderr %q", r.stdout, r.stderr)
	}
}

func readIfAny(p string) string {
	b, _ := os.ReadFile(p)
	return string(b)
}

// TestNetworkForward: a server a confined command leaves running in its
// namespace answers a client on the machine's 127.0.0.1 and a later
// confined command (whose own 127.0.0.1 has the port forwarded), until it
// ends; a localhost service the policy names is reached directly, without
// the proxy.
func TestNetworkForward(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	f := newFixture(t)
	_, hits, port := server(t)
	rs := netRules(t, f, []string{"127.0.0.1:" + port}, nil, "")
	os.MkdirAll(f.proj+"/site", 0o755)
	os.WriteFile(f.proj+"/site/ok.txt", []byte("served from inside\n"), 0o644)
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	_, srvPort, _ := net.SplitHostPort(l.Addr().String())
	l.Close()
	// A command that started before the server, and polls for it.
	early := make(chan result, 1)
	go func() {
		early <- sh(t, f.proj, rs, "for i in $(seq 100); do curl -s --max-time 1 http://127.0.0.1:"+srvPort+"/ok.txt && break; sleep 0.1; done")
	}()
	time.Sleep(time.Second)
	r := sh(t, f.proj, rs, "timeout 30 python3 -m http.server "+srvPort+" --bind 127.0.0.1 --directory site >/dev/null 2>&1 & echo $! > pid")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	defer func() {
		if pid, err := strconv.Atoi(strings.TrimSpace(readIfAny(f.proj + "/pid"))); err == nil {
			unix.Kill(pid, unix.SIGTERM)
		}
	}()
	url := "http://127.0.0.1:" + srvPort + "/ok.txt"
	var body string
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if resp, err := http.Get(url); err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if body = string(b); strings.Contains(body, "served") {
				break
			}
		}
	}
	if !strings.Contains(body, "served from inside") {
		t.Fatalf("a client outside got %q", body)
	}
	if r := <-early; !strings.Contains(r.stdout, "served from inside") {
		t.Errorf("a command started before the server: stdout %q, stderr %q", r.stdout, r.stderr)
	}
	r = sh(t, f.proj, rs, "curl -sS --max-time 10 "+url+"; curl -sS --max-time 10 --noproxy '*' http://127.0.0.1:"+port+"/")
	if !strings.Contains(r.stdout, "served from inside") || !strings.Contains(r.stdout, "registry says hello") || hits.Load() != 1 {
		t.Errorf("a later command: stdout %q, stderr %q", r.stdout, r.stderr)
	}
}

// scoped returns rs with its proxy configuration's Scope set to scope
// (the project the hook puts a command in).
func scoped(t *testing.T, rs Ruleset, scope string) Ruleset {
	t.Helper()
	var cfg map[string]any
	if err := json.Unmarshal(rs.Net.Policy, &cfg); err != nil {
		t.Fatal(err)
	}
	cfg["scope"] = scope
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	n := *rs.Net
	n.Policy = b
	rs.Net = &n
	return rs
}

// TestNetworkForwardScoped runs the attack of issue 29's red team: project
// A leaves a server on its namespace's 127.0.0.1 that records what it is
// sent; project B's commands, served by the same daemon, post to that
// port. A's own later command reaches the server, and so does a client on
// the machine's 127.0.0.1 (the user's browser), but neither a B command
// started before the server nor one started after gets anything to it,
// and B can listen on the port in its own namespace; a B command whose
// policy names localhost:PORT (a service the user allows) reaches it.
func TestNetworkForwardScoped(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	f := newFixture(t)
	projA, projB := f.proj+"/a", f.proj+"/b"
	os.MkdirAll(projA, 0o755)
	os.MkdirAll(projB, 0o755)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(l.Addr().String())
	l.Close()
	rsA := scoped(t, netRules(t, f, nil, nil, ""), projA)
	rsB := scoped(t, netRules(t, f, nil, nil, ""), projB)
	rsBNamed := scoped(t, netRules(t, f, []string{"localhost:" + port}, nil, ""), projB)
	got := projA + "/got.txt"
	srv, err := os.ReadFile("../testdata/net/post_recorder.py")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(projA+"/srv.py", srv, 0o644)
	post := func(data string) string {
		return "curl -sS --max-time 2 -d " + data + " http://localhost:" + port + "/"
	}
	// A command of B that started before A's server, and posts to the
	// port until after the server is forwarded.
	early := make(chan result, 1)
	go func() {
		early <- sh(t, projB, rsB, "for i in $(seq 50); do "+post("B-EARLY")+" 2>/dev/null; sleep 0.1; done; true")
	}()
	time.Sleep(time.Second)
	r := sh(t, projA, rsA, "nohup timeout 60 python3 srv.py "+port+" >/dev/null 2>&1 & echo $! > pid")
	if r.code != 0 {
		t.Fatalf("starting A's server: exit %d, stderr %q", r.code, r.stderr)
	}
	defer func() {
		if pid, err := strconv.Atoi(strings.TrimSpace(readIfAny(projA + "/pid"))); err == nil {
			unix.Kill(pid, unix.SIGTERM)
		}
	}()
	// The machine's 127.0.0.1 (the user's browser) reaches A's server.
	var body string
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if resp, err := http.Post("http://127.0.0.1:"+port+"/", "text/plain", strings.NewReader("MACHINE")); err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if body = string(b); strings.Contains(body, "A-SERVER") {
				break
			}
		}
	}
	if !strings.Contains(body, "A-SERVER") {
		t.Fatalf("a client on the machine's 127.0.0.1 got %q", body)
	}
	if r := sh(t, projA, rsA, post("A-DATA")); !strings.Contains(r.stdout, "A-SERVER got it") {
		t.Errorf("a later command of A: stdout %q, stderr %q", r.stdout, r.stderr)
	}
	r = sh(t, projB, rsB, post("B-DATA")+`; python3 -c 'import socket,sys; s=socket.socket(); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(); print("B-BOUND")' `+port)
	if strings.Contains(r.stdout, "A-SERVER") || !strings.Contains(r.stdout, "B-BOUND") {
		t.Errorf("a later command of B: stdout %q, stderr %q", r.stdout, r.stderr)
	}
	if r := <-early; strings.Contains(r.stdout, "A-SERVER") {
		t.Errorf("a command of B started before A's server: stdout %q, stderr %q", r.stdout, r.stderr)
	}
	if r := sh(t, projB, rsBNamed, post("B-NAMED")); !strings.Contains(r.stdout, "A-SERVER got it") {
		t.Errorf("a command of B whose policy names localhost:%s: stdout %q, stderr %q", port, r.stdout, r.stderr)
	}
	data := readIfAny(got)
	if strings.Contains(data, "B-DATA") || strings.Contains(data, "B-EARLY") {
		t.Errorf("A's server got B's data: %q", data)
	}
	if !strings.Contains(data, "A-DATA") || !strings.Contains(data, "MACHINE") || !strings.Contains(data, "B-NAMED") {
		t.Errorf("A's server got %q, want MACHINE, A-DATA and B-NAMED", data)
	}
}
