//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package audit

import (
	"bufio"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSyslog: a record reaches a local daemon listening on a datagram or
// a stream socket, in the format log/syslog uses for local daemons, with
// the severity of the decision; the first socket that accepts wins.
func TestSyslog(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 11, 2, 9, 4, 5, 0, time.UTC)

	dgram := filepath.Join(dir, "dgram.sock")
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: dgram, Net: "unixgram"})
	if err != nil {
		t.Skip("unixgram:", err)
	}
	defer c.Close()
	missing := filepath.Join(dir, "missing.sock")
	if err := syslogTo([]string{missing, dgram}, SevWarning, []byte(`{"decision":"deny"}`), now, 42); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	n, err := c.Read(buf)
	if err != nil {
		t.Fatal(err)
	}
	// Facility user (1<<3) | warning (4) = 12.
	if got, want := string(buf[:n]), "<12>Nov  2 09:04:05 safezone[42]: {\"decision\":\"deny\"}\n"; got != want {
		t.Errorf("datagram %q, want %q", got, want)
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
	if err := syslogTo([]string{stream}, SevInfo, []byte("x"), now, 1); err != nil {
		t.Fatal(err)
	}
	if g := <-got; g != "<14>Nov  2 09:04:05 safezone[1]: x\n" {
		t.Errorf("stream %q", g)
	}

	err = syslogTo([]string{missing}, SevErr, []byte("x"), now, 1)
	if err == nil || !strings.Contains(err.Error(), "no local syslog daemon") {
		t.Errorf("no daemon: %v", err)
	}
}
