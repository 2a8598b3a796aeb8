package netproxy

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/proxy"

	"github.com/safezonehq/safezone/audit"
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

// A command that retries refused connections in a loop (the red team's
// made 32,990 in 15 s, and the audit log's rotation dropped its whole
// history) gets at most maxRecords records, then, at Flush (the daemon's,
// when the command ends), one that counts the rest; the program still
// gets each refusal.
func TestProxyRefusalsBounded(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "audit.jsonl")
	cfg, pol, err := ParseConfig(fmt.Sprintf(`{"protocol":%d,"allow":["allowed.example:443"],"audit":{"path":%q,"max_bytes":1048576,"keep":1,"host":"claude","session_id":"s","tool_use_id":"t"}}`,
		netrule.Protocol, logPath))
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{Config: cfg, Policy: pol, Stderr: io.Discard}
	h, _ := net.Listen("tcp", "127.0.0.1:0")
	s, _ := net.Listen("tcp", "127.0.0.1:0")
	go p.Serve(h, s)
	t.Cleanup(func() { h.Close(); s.Close() })
	pu, _ := url.Parse("http://" + h.Addr().String())
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu)}}
	const flood = 3000
	for i := range flood {
		resp, err := client.Get(fmt.Sprintf("http://flood-%d.example.invalid/", i))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Fatalf("refusal %d: %d", i, resp.StatusCode)
		}
	}
	p.Flush()
	p.Flush() // nothing more to count: no second record
	recs, err := audit.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(logPath + ".1"); err == nil {
		t.Error("the audit log was rotated")
	}
	if len(recs) != maxRecords+1 {
		t.Fatalf("%d records, want %d", len(recs), maxRecords+1)
	}
	if g := recs[0].Targets[0].Given; g != "flood-0.example.invalid:80" || recs[0].ToolUseID != "t" {
		t.Errorf("first record: %+v", recs[0])
	}
	last := recs[len(recs)-1]
	if want := fmt.Sprintf("and %d more refused connections", flood-maxRecords); !strings.Contains(last.Reason, want) || last.Tool != "network" || last.ToolUseID != "t" {
		t.Errorf("last record: %+v, want %q", last, want)
	}
}
