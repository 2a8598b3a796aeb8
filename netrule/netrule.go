// Package netrule is the syntax and the matching of the network policy's
// entries (the policy's network.allow and network.deny, Claude Code's
// sandbox.network.allowedDomains and WebFetch(domain:...) rules): which
// host, and which port, a confined command may connect to through the
// proxy (package netproxy). It is plain data and string work, without the
// net package, so that the hook can check a policy's entries.
//
// An entry is one of
//
//	example.com          that host, any port
//	example.com:443      that host, that port
//	*.example.com        every name below example.com (not example.com itself)
//	*.example.com:443    the same, that port
//	10.1.2.3, 10.1.2.3:5432, [::1]:8080, ::1
//	                     that address (any port, or that port)
//	10.0.0.0/8           the addresses of that network (any port)
//	*                    every public host (never an address of the
//	                     machine, its networks, or link-local ones)
//
// Names are compared without case and without a final dot.
package netrule

import (
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// Entry is one parsed entry.
type Entry struct {
	Text string // as written
	// Name is the host name in lower case, without "*." for a Wildcard
	// one; "" for an address entry or "*".
	Name     string
	Wildcard bool         // *.Name
	Any      bool         // "*"
	Prefix   netip.Prefix // an address entry (a single address is a /32 or /128); invalid otherwise
	Port     int          // 0: any port
}

// ErrBadEntry is wrapped by the errors of [Parse].
var ErrBadEntry = errors.New("bad network entry")

// Parse parses one entry (see the package documentation).
func Parse(s string) (Entry, error) {
	e := Entry{Text: s}
	bad := func(why string) (Entry, error) {
		return Entry{}, fmt.Errorf("%w %q: %s (write host, host:port, *.domain, an address or a network such as 10.0.0.0/8)", ErrBadEntry, s, why)
	}
	if s == "" || strings.TrimSpace(s) != s {
		return bad("empty, or blanks around it")
	}
	if s == "*" {
		e.Any = true
		return e, nil
	}
	if p, err := netip.ParsePrefix(s); err == nil {
		e.Prefix = p.Masked()
		return e, nil
	}
	if a, err := netip.ParseAddr(s); err == nil {
		e.Prefix = netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen())
		return e, nil
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		if ap.Port() == 0 {
			return bad("port 0")
		}
		a := ap.Addr().Unmap()
		e.Prefix, e.Port = netip.PrefixFrom(a, a.BitLen()), int(ap.Port())
		return e, nil
	}
	host := s
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		p, err := strconv.Atoi(s[i+1:])
		if err != nil || p < 1 || p > 65535 || s[i+1] == '+' {
			return bad("the port is not a number from 1 to 65535")
		}
		host, e.Port = s[:i], p
	}
	if rest, ok := strings.CutPrefix(host, "*."); ok {
		e.Wildcard, host = true, rest
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if !validName(host) {
		return bad("not a host name")
	}
	if _, err := netip.ParseAddr(host); err == nil && e.Wildcard {
		return bad("a wildcard of an address")
	}
	e.Name = host
	return e, nil
}

// validName reports whether h is a DNS name: labels of letters, digits,
// '-' and '_', 1 to 63 bytes each, 253 bytes in all.
func validName(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	for l := range strings.SplitSeq(h, ".") {
		if l == "" || len(l) > 63 {
			return false
		}
		for _, c := range []byte(l) {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

// NormalizeHost returns the host name h in lower case, without a final
// dot, or an address's own form (unmapped), for matching.
func NormalizeHost(h string) string {
	h = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSuffix(h, "]"), "["), ".")
	if a, err := netip.ParseAddr(h); err == nil {
		return a.Unmap().String()
	}
	return strings.ToLower(h)
}

// MatchName reports whether e names the host host (normalised by
// [NormalizeHost]) at port: by its name, or, for an address written as
// the host, by that address.
func (e Entry) MatchName(host string, port int) bool {
	if e.Port != 0 && e.Port != port {
		return false
	}
	if a, err := netip.ParseAddr(host); err == nil {
		return e.Prefix.IsValid() && e.Prefix.Contains(a)
	}
	switch {
	case e.Any:
		return true
	case e.Name == "":
		return false
	case e.Wildcard:
		return strings.HasSuffix(host, "."+e.Name)
	}
	return host == e.Name
}

// Exact reports whether e names one host by its name (not a wildcard, not
// "*", not an address): the user named that host, so it may be reached at
// whatever address it resolves to (a local database named "localhost").
func (e Entry) Exact() bool { return e.Name != "" && !e.Wildcard }

// MatchAddr reports whether e is an address entry holding a at port.
func (e Entry) MatchAddr(a netip.Addr, port int) bool {
	return e.Prefix.IsValid() && (e.Port == 0 || e.Port == port) && e.Prefix.Contains(a.Unmap())
}

// Special says what kind of address a is when it is not a public one
// ("loopback", "link-local", "private", ...), "" for a public address.
// Such an address is reached only when an entry names it (or names the
// host exactly, except link-local): instance metadata services
// (169.254.169.254, fd00:ec2::254), the machine's own services and its
// networks' are closed unless named.
func Special(a netip.Addr) string {
	a = a.Unmap()
	if nat64.Contains(a) {
		b := a.As16()
		v4 := netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
		if k := Special(v4); k != "" {
			return k + " (through NAT64)"
		}
		return ""
	}
	switch {
	case !a.IsValid():
		return "invalid"
	case a.IsLoopback():
		return "loopback"
	case a.IsLinkLocalUnicast(), a.IsLinkLocalMulticast():
		return "link-local (instance metadata)"
	case a.IsUnspecified():
		return "unspecified"
	case a.IsMulticast(), a.IsInterfaceLocalMulticast():
		return "multicast"
	case a.IsPrivate():
		return "private"
	}
	for _, p := range specialNets {
		if p.n.Contains(a) {
			return p.what
		}
	}
	return ""
}

// nat64 is NAT64's well-known prefix (RFC 6052, section 2.1).
var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// specialNets are the ranges not public that netip does not name
// (RFC 6890's registry).
var specialNets = []struct {
	n    netip.Prefix
	what string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "this network"},
	{netip.MustParsePrefix("100.64.0.0/10"), "shared address space (carrier-grade NAT)"},
	{netip.MustParsePrefix("192.0.0.0/24"), "IETF protocol assignments"},
	{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"},
	{netip.MustParsePrefix("fd00:ec2::254/128"), "link-local (instance metadata)"},
	{netip.MustParsePrefix("64:ff9b:1::/48"), "local-use translation"},
	// NAT64's well-known prefix (RFC 6052) maps an IPv4 address into IPv6:
	// 64:ff9b::7f00:1 is 127.0.0.1 behind a NAT64 gateway. Its IPv4 part
	// is judged instead (Special's first step for this range).
}

// Verdict is the decision on one destination.
type Verdict struct {
	Allowed bool
	// Rule is the entry that decided, as written ("" when none matched),
	// and List the list it is in ("allow", "deny").
	Rule, List string
	// Why says, for a refusal, what refused it, in a sentence.
	Why string
}

// Policy is a parsed allow and deny list. A destination is allowed when an
// allow entry matches it and no deny entry does.
type Policy struct {
	Allow, Deny []Entry
}

// Compile parses allow and deny; the errors of all bad entries are joined.
func Compile(allow, deny []string) (*Policy, error) {
	var p Policy
	var errs []error
	for _, l := range []struct {
		in  []string
		out *[]Entry
	}{{allow, &p.Allow}, {deny, &p.Deny}} {
		for _, s := range l.in {
			e, err := Parse(s)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			*l.out = append(*l.out, e)
		}
	}
	return &p, errors.Join(errs...)
}

// CheckName decides on host (as the client named it: a name or an
// address) at port before any name is resolved: a name no allow entry
// matches is refused without a look-up (a look-up of a name made up of a
// secret would carry it out).
func (p *Policy) CheckName(host string, port int) Verdict {
	host = NormalizeHost(host)
	dest := JoinHostPort(host, port)
	for _, e := range p.Deny {
		if e.MatchName(host, port) {
			return Verdict{Rule: e.Text, List: "deny", Why: fmt.Sprintf("%s matches network.deny %q", dest, e.Text)}
		}
	}
	for _, e := range p.Allow {
		if e.MatchName(host, port) {
			return Verdict{Allowed: true, Rule: e.Text, List: "allow"}
		}
	}
	return Verdict{Why: fmt.Sprintf("%s is not in the network allowlist", dest)}
}

// CheckAddr decides on the address a that host (allowed by byName, the
// verdict of CheckName) resolved to: a deny entry of that address
// refuses it; an address that is not public is allowed only when an
// entry names the address, or (except a link-local one) when the entry
// that allowed the host names it exactly.
func (p *Policy) CheckAddr(host string, a netip.Addr, port int, byName Verdict) Verdict {
	a = a.Unmap()
	dest := JoinHostPort(a.String(), port)
	for _, e := range p.Deny {
		if e.MatchAddr(a, port) {
			return Verdict{Rule: e.Text, List: "deny", Why: fmt.Sprintf("%s (%s) matches network.deny %q", NormalizeHost(host), dest, e.Text)}
		}
	}
	kind := Special(a)
	if kind == "" {
		return byName
	}
	for _, e := range p.Allow {
		if e.MatchAddr(a, port) {
			return Verdict{Allowed: true, Rule: e.Text, List: "allow"}
		}
	}
	if !strings.HasPrefix(kind, "link-local") {
		for _, e := range p.Allow {
			if e.Text == byName.Rule && e.Exact() {
				return byName
			}
		}
	}
	return Verdict{Why: fmt.Sprintf("%s resolves to %s, a %s address, which only an allow entry naming the address opens", NormalizeHost(host), a, kind)}
}

// JoinHostPort is host:port, with brackets around an IPv6 address.
func JoinHostPort(host string, port int) string {
	if strings.IndexByte(host, ':') >= 0 {
		return "[" + host + "]:" + strconv.Itoa(port)
	}
	return host + ":" + strconv.Itoa(port)
}

// Protocol is the version of what the launcher (confine's net_linux.go)
// and the proxy daemon (netproxy) say to each other.
// 3: Config's Scope.
const Protocol = 3

// Config is the network proxy's argument (package netproxy), the JSON the
// hook writes into confine.Net.Policy.
type Config struct {
	// Protocol is the launcher's and the daemon's protocol ([Protocol]):
	// a daemon of another refuses to serve, and says to install the same
	// version of safezone and safezone-proxy.
	Protocol int      `json:"protocol"`
	Allow    []string `json:"allow,omitempty"`
	Deny     []string `json:"deny,omitempty"`
	// Hint is the sentence a refusal ends with: how to allow a host
	// ("add the host to network.allow in safezone's policy (...)").
	Hint string `json:"hint,omitempty"`
	// Audit is where refusals are recorded; nil for nowhere.
	Audit *Audit `json:"audit,omitempty"`
	// Scope is the project the command belongs to (the hook's project
	// root). A server a command leaves listening in its namespace is
	// forwarded into the namespaces of the commands of the same Scope
	// only: another project's command neither reaches it nor finds its
	// port taken. Commands without a Scope share the empty one.
	Scope string `json:"scope,omitempty"`
}

// Audit is the audit log and the call the refusals belong to.
type Audit struct {
	Path      string `json:"path"`
	MaxBytes  int64  `json:"max_bytes,omitempty"`
	Keep      int    `json:"keep,omitempty"`
	Host      string `json:"host,omitempty"`
	SessionID string `json:"session_id,omitempty"`
	ToolUseID string `json:"tool_use_id,omitempty"`
	Cwd       string `json:"cwd,omitempty"`
}
