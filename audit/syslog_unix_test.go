//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package audit

import (
	"bufio"
	"net"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestSyslog: a record reaches a syslog daemon listening on a datagram or a
// stream socket, tagged safezone, facility user, with the severity of the
// decision.
func TestSyslog(t *testing.T) {
	dir := t.TempDir()
	dgram := filepath.Join(dir, "dgram.sock")
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: dgram, Net: "unixgram"})
	if err != nil {
		t.Skip("unixgram:", err)
	}
	defer c.Close()
	if err := syslogTo("unixgram", dgram, SevWarning, []byte(`{"decision":"deny"}`)); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	n, err := c.Read(buf)
	if err != nil {
		t.Fatal(err)
	}
	// Facility user (1<<3) | warning (4) = 12.
	if re := regexp.MustCompile(`^<12>[^<]+ safezone\[\d+\]: \{"decision":"deny"\}\n$`); !re.Match(buf[:n]) {
		t.Errorf("datagram %q, want it to match %s", buf[:n], re)
	}

	stream := filepath.Join(dir, "stream.sock")
	l, err := net.Listen("unix", stream)
	if err != nil {
		t.Skip("unix:", err)
	}
	defer l.Close()
	got := make(chan string, 1)
	go func() {
		conn, err := l.Accept()
		if err != nil {
			got <- err.Error()
			return
		}
		defer conn.Close()
		line, _ := bufio.NewReader(conn).ReadString('\n')
		got <- line
	}()
	if err := syslogTo("unix", stream, SevInfo, []byte("x")); err != nil {
		t.Fatal(err)
	}
	// Facility user | info (6) = 14.
	if g := <-got; !strings.HasPrefix(g, "<14>") || !strings.HasSuffix(g, " safezone["+g[strings.Index(g, "[")+1:strings.Index(g, "]")]+"]: x\n") {
		t.Errorf("stream %q", g)
	}

	err = syslogTo("unixgram", filepath.Join(dir, "missing.sock"), SevErr, []byte("x"))
	if err == nil || !strings.Contains(err.Error(), "no local syslog daemon") {
		t.Errorf("no daemon: %v", err)
	}
}
