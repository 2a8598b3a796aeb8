// Package netproxy is the proxy a confined command with a network
// namespace of its own reaches the outside through (confine.Ruleset's
// Net): an HTTP proxy (CONNECT for https and any TCP, and plain http
// requests; github.com/elazarl/goproxy) and a SOCKS5 one (CONNECT only;
// github.com/armon/go-socks5), both serving listening sockets that the
// launcher made inside the command's namespace, and both dialing out from
// the machine's own network after the policy (package netrule) allowed
// the destination: the name first, before any look-up, then each address
// it resolves to.
//
// A refused connection gets, where the program shows it, an HTTP 403
// whose body names the destination, the rule and how to allow it (SOCKS5
// has only a reply code: "connection not allowed by ruleset"); the same
// line goes to the command's standard error, and a record to the audit
// log: at most maxRecords a command, then one that counts the rest.
//
// It links the net package, which the hook binary must not: it is built
// as a program of its own, cmd/safezone-proxy.
package netproxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	socks5 "github.com/armon/go-socks5"
	"github.com/elazarl/goproxy"

	"github.com/safezonehq/safezone/audit"
	"github.com/safezonehq/safezone/netrule"
)

// Config is the proxy's configuration (netrule.Config).
type Config = netrule.Config

// ParseConfig decodes s strictly (unknown fields are errors) and compiles
// its lists.
func ParseConfig(s string) (*Config, *netrule.Policy, error) {
	var c Config
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, nil, fmt.Errorf("the proxy's configuration: %w", err)
	}
	if c.Protocol != netrule.Protocol {
		return nil, nil, fmt.Errorf("this safezone-proxy speaks protocol %d and safezone %d: install both from the same version (go install github.com/safezonehq/safezone/cmd/safezone-proxy@VERSION)", netrule.Protocol, c.Protocol)
	}
	p, err := netrule.Compile(c.Allow, c.Deny)
	if err != nil {
		return nil, nil, err
	}
	return &c, p, nil
}

// Proxy serves the two listeners of one command.
type Proxy struct {
	Config *Config
	Policy *netrule.Policy
	// Stderr gets one line per refusal (the command's standard error, nil
	// once the command ended); guarded by mu.
	Stderr io.Writer
	// Resolver looks names up; nil for net.DefaultResolver.
	Resolver *net.Resolver

	mu sync.Mutex // orders the lines on Stderr

	recMu    sync.Mutex // guards recorded and dropped
	recorded int        // refusals written to the audit log
	dropped  int        // refusals past maxRecords, not yet counted in a record
}

// maxRecords bounds the audit records of one command's refusals (a
// program retrying in a loop would otherwise rotate the audit log's whole
// history away: audit.max_bytes and keep); the rest is counted in one
// record ([Proxy.Flush]). The collector of the kernel's refusals keeps
// the same bound (package refusals).
const maxRecords = 256

// errRefused wraps a refusal by the policy.
var errRefused = errors.New("refused by safezone's network policy")

// refusal is a destination the policy refused, and why.
type refusal struct {
	dest    string // host:port as the client named it
	addr    string // the address, when the refusal came after the look-up
	verdict netrule.Verdict
}

func (r *refusal) Error() string { return r.verdict.Why }
func (r *refusal) Unwrap() error { return errRefused }

// message is the refusal's text for the program and its user.
func (p *Proxy) message(r *refusal) string {
	hint := p.Config.Hint
	if hint == "" {
		hint = "add the host to network.allow in safezone's policy"
	}
	return fmt.Sprintf("safezone: network: refused a connection to %s: %s. To allow it, %s; or ask the user to.", r.dest, r.verdict.Why, hint)
}

// refused reports r: a line on Stderr and a record in the audit log, up
// to maxRecords of them (then it counts them for [Proxy.Flush]).
func (p *Proxy) refused(r *refusal, via string) {
	msg := p.message(r)
	p.mu.Lock()
	if p.Stderr != nil {
		fmt.Fprintln(p.Stderr, msg)
	}
	p.mu.Unlock()
	a := p.Config.Audit
	if a == nil || a.Path == "" {
		return
	}
	rule := r.verdict.Rule
	if rule != "" {
		rule = "network." + r.verdict.List + " " + strconv.Quote(rule)
	} else {
		rule = "network.allow"
	}
	p.recMu.Lock()
	if p.recorded >= maxRecords {
		p.dropped++
		p.recMu.Unlock()
		return
	}
	p.recorded++
	p.recMu.Unlock()
	p.record(audit.Target{Given: r.dest, Resolved: r.addr, Access: "connect (" + via + ")"}, rule, msg)
}

// Flush writes, when refusals went unrecorded past maxRecords since the
// last Flush, one record that counts them. The daemon calls it when the
// command's first process ends and when its last one does.
func (p *Proxy) Flush() {
	p.recMu.Lock()
	n := p.dropped
	p.dropped = 0
	p.recMu.Unlock()
	if n == 0 || p.Config.Audit == nil || p.Config.Audit.Path == "" {
		return
	}
	p.record(audit.Target{Access: "connect"}, "network.allow",
		fmt.Sprintf("safezone: network: and %d more refused connections of this command's, past the %d recorded", n, maxRecords))
}

// record appends one refusal record of the command's to the audit log.
func (p *Proxy) record(t audit.Target, rule, reason string) {
	a := p.Config.Audit
	rec := audit.Record{
		Time: time.Now().UTC().Format(audit.TimeFormat), Host: a.Host, SessionID: a.SessionID, ToolUseID: a.ToolUseID,
		Tool: "network", Cwd: a.Cwd, Targets: []audit.Target{t},
		Decision: "deny", Rule: rule, Reason: reason, Confined: true,
	}
	if line, err := json.Marshal(rec); err == nil {
		f := &audit.File{Path: a.Path, MaxBytes: a.MaxBytes, Keep: a.Keep}
		if err := f.Append(append(line, '\n')); err != nil {
			p.say(fmt.Sprintf("cannot record the refusal in the audit log: %v", err))
		}
	}
}

// dial connects to addr (host:port as the client named it) if the policy
// allows the name and then the address it dials; its error for a refusal
// is a *refusal.
func (p *Proxy) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, ps, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	port, err := strconv.Atoi(ps)
	if err != nil || port < 1 || port > 65535 {
		return nil, fmt.Errorf("bad port in %q", addr)
	}
	dest := netrule.JoinHostPort(netrule.NormalizeHost(host), port)
	byName := p.Policy.CheckName(host, port)
	if !byName.Allowed {
		return nil, &refusal{dest: dest, verdict: byName}
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(netrule.NormalizeHost(host)); err == nil {
		addrs = []netip.Addr{a}
	} else {
		r := p.Resolver
		if r == nil {
			r = net.DefaultResolver
		}
		if addrs, err = r.LookupNetIP(ctx, "ip", host); err != nil {
			return nil, err
		}
	}
	var first *refusal
	var lastErr error
	d := net.Dialer{Timeout: 30 * time.Second}
	for _, a := range addrs {
		v := p.Policy.CheckAddr(host, a, port, byName)
		if !v.Allowed {
			if first == nil {
				first = &refusal{dest: dest, addr: netrule.JoinHostPort(a.Unmap().String(), port), verdict: v}
			}
			continue
		}
		c, err := d.DialContext(ctx, "tcp", netip.AddrPortFrom(a.Unmap(), uint16(port)).String())
		if err == nil {
			return c, nil
		}
		lastErr = err
	}
	if lastErr != nil {
		return nil, lastErr
	}
	if first != nil {
		return nil, first
	}
	return nil, fmt.Errorf("%s resolves to no address", host)
}

// HTTP returns the HTTP proxy's handler.
func (p *Proxy) HTTP() http.Handler {
	gp := goproxy.NewProxyHttpServer()
	gp.Logger = log.New(io.Discard, "", 0)
	gp.Tr = &http.Transport{
		Proxy:               nil,
		DialContext:         p.dial,
		ForceAttemptHTTP2:   false,
		MaxIdleConns:        16,
		IdleConnTimeout:     30 * time.Second,
		TLSHandshakeTimeout: 15 * time.Second,
	}
	gp.NonproxyHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "safezone's network proxy: this is a proxy; send a proxy request (an absolute URL, or CONNECT)", http.StatusBadRequest)
	})
	forbid := func(r *refusal) *http.Response {
		return &http.Response{
			StatusCode: http.StatusForbidden, Status: "403 Forbidden", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header:        http.Header{"Content-Type": {"text/plain; charset=utf-8"}, "X-Safezone-Refused": {r.dest}},
			Body:          io.NopCloser(strings.NewReader(p.message(r) + "\n")),
			ContentLength: int64(len(p.message(r)) + 1),
		}
	}
	// Plain http: the name first; the transport's dial checks the address.
	gp.OnRequest().DoFunc(func(r *http.Request, ctx *goproxy.ProxyCtx) (*http.Request, *http.Response) {
		host, port := hostPort(r.URL.Host, r.URL.Scheme)
		if v := p.Policy.CheckName(host, port); !v.Allowed {
			rf := &refusal{dest: netrule.JoinHostPort(netrule.NormalizeHost(host), port), verdict: v}
			p.refused(rf, "http")
			resp := forbid(rf)
			resp.Request = r
			return r, resp
		}
		return r, nil
	})
	// CONNECT: dial here, so that a refusal after the look-up gets its 403
	// too, and relay.
	gp.OnRequest().HandleConnectFunc(func(host string, ctx *goproxy.ProxyCtx) (*goproxy.ConnectAction, string) {
		return &goproxy.ConnectAction{Action: goproxy.ConnectHijack, Hijack: func(req *http.Request, client net.Conn, _ *goproxy.ProxyCtx) {
			defer client.Close()
			target, err := p.dial(req.Context(), "tcp", withPort(host, "443"))
			if err != nil {
				var rf *refusal
				if errors.As(err, &rf) {
					p.refused(rf, "http-connect")
					resp := forbid(rf)
					resp.Write(client)
					return
				}
				body := "safezone's network proxy: cannot connect to " + host + ": " + err.Error() + "\n"
				fmt.Fprintf(client, "HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
				return
			}
			defer target.Close()
			if _, err := io.WriteString(client, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
				return
			}
			relay(client, target)
		}}, host
	})
	// A plain http request whose dial was refused after the look-up: the
	// transport's error comes back as goproxy's 500; make it the 403.
	gp.OnResponse().DoFunc(func(resp *http.Response, ctx *goproxy.ProxyCtx) *http.Response {
		var rf *refusal
		if resp == nil && errors.As(ctx.Error, &rf) {
			p.refused(rf, "http")
			out := forbid(rf)
			out.Request = ctx.Req
			return out
		}
		return resp
	})
	return gp
}

// SOCKS returns the SOCKS5 server: CONNECT only, names resolved here.
func (p *Proxy) SOCKS() (*socks5.Server, error) {
	return socks5.New(&socks5.Config{
		Resolver: noResolve{},
		Rules:    socksRules{p},
		Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := p.dial(ctx, network, addr)
			var rf *refusal
			if errors.As(err, &rf) {
				p.refused(rf, "socks5")
			}
			return c, err
		},
		Logger: log.New(io.Discard, "", 0),
	})
}

// noResolve leaves a name to the dial, which checks it before it looks it
// up.
type noResolve struct{}

func (noResolve) Resolve(ctx context.Context, name string) (context.Context, net.IP, error) {
	return ctx, nil, nil
}

// socksRules lets CONNECT to an allowed name through (the dial checks the
// addresses); BIND and UDP ASSOCIATE are refused.
type socksRules struct{ p *Proxy }

func (r socksRules) Allow(ctx context.Context, req *socks5.Request) (context.Context, bool) {
	host := req.DestAddr.FQDN
	if host == "" && req.DestAddr.IP != nil {
		host = req.DestAddr.IP.String()
	}
	dest := netrule.JoinHostPort(netrule.NormalizeHost(host), req.DestAddr.Port)
	if req.Command != socks5.ConnectCommand {
		r.p.refused(&refusal{dest: dest, verdict: netrule.Verdict{Why: "only CONNECT is served (no BIND, no UDP)"}}, "socks5")
		return ctx, false
	}
	if v := r.p.Policy.CheckName(host, req.DestAddr.Port); !v.Allowed {
		r.p.refused(&refusal{dest: dest, verdict: v}, "socks5")
		return ctx, false
	}
	return ctx, true
}

// Serve serves httpL and socksL until both fail (their sockets closed),
// or the process ends.
func (p *Proxy) Serve(httpL, socksL net.Listener) error {
	s, err := p.SOCKS()
	if err != nil {
		return err
	}
	errs := make(chan error, 2)
	go func() {
		srv := &http.Server{Handler: p.HTTP(), ReadHeaderTimeout: 30 * time.Second, ErrorLog: log.New(io.Discard, "", 0)}
		errs <- srv.Serve(httpL)
	}()
	go func() { errs <- s.Serve(socksL) }()
	err = <-errs
	<-errs
	return err
}

// relay copies both ways between a and b until both directions end.
func relay(a, b net.Conn) {
	done := make(chan struct{}, 2)
	cp := func(dst, src net.Conn) {
		io.Copy(dst, src)
		if c, ok := dst.(interface{ CloseWrite() error }); ok {
			c.CloseWrite()
		}
		done <- struct{}{}
	}
	go cp(a, b)
	go cp(b, a)
	<-done
	<-done
}

// hostPort splits an URL's host into the host and the port, the scheme's
// default when there is none.
func hostPort(h, scheme string) (string, int) {
	def := "80"
	if scheme == "https" {
		def = "443"
	}
	host, ps, err := net.SplitHostPort(withPort(h, def))
	if err != nil {
		return h, 0
	}
	port, _ := strconv.Atoi(ps)
	return host, port
}

// withPort adds the port def to h when it has none.
func withPort(h, def string) string {
	if _, _, err := net.SplitHostPort(h); err == nil {
		return h
	}
	return net.JoinHostPort(trimBrackets(h), def)
}

func trimBrackets(h string) string {
	if len(h) > 1 && h[0] == '[' && h[len(h)-1] == ']' {
		return h[1 : len(h)-1]
	}
	return h
}

// say writes one line on the command's standard error, while it has one.
func (p *Proxy) say(msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.Stderr != nil {
		fmt.Fprintf(p.Stderr, "safezone: network proxy: %s\n", msg)
	}
}
