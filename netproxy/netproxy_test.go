package netproxy

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/proxy"

	"github.com/safezonehq/safezone/netrule"
)

// start serves a Proxy allowing allow on two listeners of this machine's
// loopback (the launcher's are in a command's namespace; the protocols
// are the same) and returns the HTTP and SOCKS addresses and what it said.
func start(t *testing.T, allow ...string) (httpAddr, socksAddr string, said *strings.Builder) {
	t.Helper()
	cfg, pol, err := ParseConfig(fmt.Sprintf(`{"protocol":%d,"allow":["%s"],"hint":"add it"}`, netrule.Protocol, strings.Join(allow, `","`)))
	if err != nil {
		t.Fatal(err)
	}
	said = &strings.Builder{}
	p := &Proxy{Config: cfg, Policy: pol, Stderr: said}
	h, _ := net.Listen("tcp", "127.0.0.1:0")
	s, _ := net.Listen("tcp", "127.0.0.1:0")
	go p.Serve(h, s)
	t.Cleanup(func() { h.Close(); s.Close() })
	return h.Addr().String(), s.Addr().String(), said
}

func TestProxyProtocols(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "hello") }))
	defer srv.Close()
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { t.Error("the listener no entry names got a request") }))
	defer other.Close()
	httpAddr, socksAddr, said := start(t, srv.Listener.Addr().String())
	pu, _ := url.Parse("http://" + httpAddr)
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu)}}

	// Plain http, allowed and refused.
	resp, err := client.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "hello" {
		t.Errorf("allowed: %d %q", resp.StatusCode, b)
	}
	resp, err = client.Get(other.URL)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(b), "is not in the network allowlist") || !strings.Contains(string(b), "add it") {
		t.Errorf("refused: %d %q", resp.StatusCode, b)
	}

	// CONNECT refused: the 403 with the reason.
	c, err := net.Dial("tcp", httpAddr)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %[1]s\r\n\r\n", other.Listener.Addr())
	resp, err = http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	c.Close()
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(b), "is not in the network allowlist") {
		t.Errorf("CONNECT refused: %d %q", resp.StatusCode, b)
	}

	// SOCKS5: allowed, and refused by name before any look-up.
	d, err := proxy.SOCKS5("tcp", socksAddr, nil, proxy.Direct)
	if err != nil {
		t.Fatal(err)
	}
	sc := &http.Client{Transport: &http.Transport{Dial: d.Dial}}
	resp, err = sc.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "hello" {
		t.Errorf("socks allowed: %q", b)
	}
	if _, err := d.Dial("tcp", "made-up-secret.example.invalid:80"); err == nil {
		t.Error("socks: a name not allowed was connected")
	}
	if !strings.Contains(said.String(), "made-up-secret.example.invalid:80 is not in the network allowlist") {
		t.Errorf("stderr: %s", said)
	}
}
