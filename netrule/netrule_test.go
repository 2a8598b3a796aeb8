package netrule

import (
	"net/netip"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in, bad string
	}{
		{"example.com", ""}, {"Example.COM.", ""}, {"example.com:443", ""}, {"*.example.com", ""}, {"*.example.com:8443", ""},
		{"10.1.2.3", ""}, {"10.1.2.3:5432", ""}, {"[::1]:8080", ""}, {"::1", ""}, {"10.0.0.0/8", ""}, {"*", ""}, {"my_host", ""},
		{"", "empty"}, {" example.com", "blanks"}, {"example.com:0", "port"}, {"example.com:70000", "port"}, {"example.com:+1", "port"},
		{"exa mple.com", "not a host name"}, {"*.10.0.0.1", "a wildcard of an address"}, {"http://example.com", "port"}, {"a..b", "not a host name"},
		{"[::1]:0", "port 0"}, {"*.*.example.com", "not a host name"},
	} {
		_, err := Parse(c.in)
		if (err != nil) != (c.bad != "") || err != nil && !strings.Contains(err.Error(), c.bad) {
			t.Errorf("Parse(%q) = %v, want error %q", c.in, err, c.bad)
		}
	}
}

func TestCheck(t *testing.T) {
	p, err := Compile([]string{"registry.npmjs.org", "*.example.com:443", "localhost:5432", "10.0.0.0/8", "*", "metadata.internal", "169.254.169.254:80"},
		[]string{"evil.com", "10.9.0.0/16"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		host string
		port int
		addr string // "" for the name check only
		ok   bool
		why  string
	}{
		{"registry.npmjs.org", 443, "104.16.0.1", true, ""},
		{"REGISTRY.npmjs.org.", 80, "", true, ""},
		{"a.example.com", 443, "93.184.216.34", true, ""},
		{"a.example.com", 443, "127.0.0.1", false, "a loopback address"},
		{"example.com", 443, "93.184.216.34", true, ""}, // by "*"
		{"evil.com", 443, "", false, `matches network.deny "evil.com"`},
		{"localhost", 5432, "127.0.0.1", true, ""},
		{"localhost", 5433, "127.0.0.1", false, "a loopback address"},
		{"10.1.2.3", 22, "10.1.2.3", true, ""},
		{"10.9.1.1", 22, "10.9.1.1", false, `matches network.deny "10.9.0.0/16"`},
		{"192.168.1.1", 80, "192.168.1.1", false, "is not in the network allowlist"},
		{"169.254.169.254", 80, "169.254.169.254", true, ""},
		{"169.254.169.254", 8080, "", false, "is not in the network allowlist"},
		{"metadata.internal", 80, "169.254.169.254", true, ""},            // the address is named
		{"metadata.internal", 81, "169.254.169.254", false, "link-local"}, // the name alone does not open it
		{"db.corp", 5432, "100.64.1.1", false, "shared address space"},
		{"v6.example.org", 443, "fd00::1", false, "private"},
		{"v6.example.org", 443, "::ffff:127.0.0.1", false, "loopback"},
		// NAT64 (RFC 6052): the IPv4 address inside decides.
		{"v6.example.org", 443, "64:ff9b::7f00:1", false, "loopback (through NAT64)"},
		{"v6.example.org", 443, "64:ff9b::a9fe:a9fe", false, "link-local"},
		{"v6.example.org", 443, "64:ff9b::5db8:d822", true, ""},
	} {
		v := p.CheckName(c.host, c.port)
		if v.Allowed && c.addr != "" {
			v = p.CheckAddr(c.host, netip.MustParseAddr(c.addr), c.port, v)
		}
		if v.Allowed != c.ok || !strings.Contains(v.Why, c.why) {
			t.Errorf("%s:%d at %s: %+v, want allowed %v, why %q", c.host, c.port, c.addr, v, c.ok, c.why)
		}
	}
}
