//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package audit

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"
)

// Syslog sends msg (a record without its newline) to the local syslog
// daemon (journald, rsyslog, syslogd) with the tag "safezone", facility
// user, at severity sev.
//
// It speaks what log/syslog speaks to a local daemon, "<PRI>Mmm dd
// hh:mm:ss safezone[PID]: MSG\n" on the first of /dev/log,
// /var/run/syslog and /var/run/log that accepts a datagram or stream
// connection, but through package syscall: log/syslog links the net
// package's dialer, which costs every hook call some 60 µs of start-up
// whether or not syslog is on.
func Syslog(sev Severity, msg []byte) error {
	return syslogTo([]string{"/dev/log", "/var/run/syslog", "/var/run/log"}, sev, msg, time.Now(), os.Getpid())
}

// Syslog priorities (RFC 5424, section 6.2.1): facility user, and the
// severities safezone uses.
const (
	facilityUser = 1 << 3
	sevErr       = 3
	sevWarning   = 4
	sevNotice    = 5
	sevInfo      = 6
)

func syslogTo(sockets []string, sev Severity, msg []byte, now time.Time, pid int) error {
	level := sevInfo
	switch sev {
	case SevErr:
		level = sevErr
	case SevWarning:
		level = sevWarning
	case SevNotice:
		level = sevNotice
	}
	packet := fmt.Appendf(nil, "<%d>%s safezone[%d]: ", facilityUser|level, now.Format(time.Stamp), pid)
	packet = append(packet, msg...)
	packet = append(packet, '\n')
	var errs []string
	for _, path := range sockets {
		for _, typ := range []int{syscall.SOCK_DGRAM, syscall.SOCK_STREAM} {
			err := sendUnix(path, typ, packet)
			if err == nil {
				return nil
			}
			if typ == syscall.SOCK_STREAM {
				errs = append(errs, fmt.Sprintf("%s: %v", path, err))
			}
		}
	}
	return fmt.Errorf("no local syslog daemon (%s)", strings.Join(errs, "; "))
}

// sendUnix connects a socket of type typ to the Unix socket at path and
// writes packet.
func sendUnix(path string, typ int, packet []byte) error {
	fd, err := syscall.Socket(syscall.AF_UNIX, typ, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	syscall.CloseOnExec(fd)
	if err := syscall.Connect(fd, &syscall.SockaddrUnix{Name: path}); err != nil {
		return err
	}
	for len(packet) > 0 {
		n, err := syscall.Write(fd, packet)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return err
		}
		packet = packet[n:]
	}
	return nil
}
