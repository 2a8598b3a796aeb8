//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package audit

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"
)

// localSyslog are the sockets of a local syslog daemon, in the order the
// standard library's log/syslog tries them: systemd-journald and rsyslog
// listen on /dev/log, macOS's syslogd on /var/run/syslog, the BSDs' on
// /var/run/log.
var localSyslog = []string{"/dev/log", "/var/run/syslog", "/var/run/log"}

// Syslog sends msg (a record without its newline) to the local syslog
// daemon (journald, rsyslog, syslogd) with the tag "safezone", facility
// user, at severity sev: the first of [localSyslog] that accepts a
// datagram, else the first that accepts a stream connection, as log/syslog
// does. The line is in the form log/syslog sends to a local daemon (RFC 3164
// without the host name): "<PRI>Mmm dd hh:mm:ss safezone[PID]: MSG\n", the
// time local. The error says when no local daemon accepts the record.
//
// It talks to the socket with plain system calls: log/syslog would link
// the net package into every hook call.
func Syslog(sev Severity, msg []byte) error {
	var errs []error
	for _, network := range []string{"unixgram", "unix"} {
		for _, path := range localSyslog {
			err := syslogTo(network, path, sev, msg)
			if err == nil {
				return nil
			}
			errs = append(errs, err)
		}
	}
	return errs[0]
}

// syslogTo sends one record to the Unix socket at path: network is
// "unixgram" (a datagram) or "unix" (a stream connection). The error, when
// the socket is missing or refuses, says no local daemon listens.
func syslogTo(network, path string, sev Severity, msg []byte) error {
	typ := syscall.SOCK_DGRAM
	if network == "unix" {
		typ = syscall.SOCK_STREAM
	}
	line := syslogLine(sev, time.Now(), os.Getpid(), msg)
	fd, err := syscall.Socket(syscall.AF_UNIX, typ, 0)
	if err != nil {
		return fmt.Errorf("no local syslog daemon: socket: %w", err)
	}
	syscall.CloseOnExec(fd)
	defer syscall.Close(fd)
	if err := retry(func() error { return syscall.Connect(fd, &syscall.SockaddrUnix{Name: path}) }); err != nil {
		return fmt.Errorf("no local syslog daemon: %s %s: %w", network, path, err)
	}
	for len(line) > 0 {
		var n int
		err := retry(func() (err error) { n, err = syscall.Write(fd, line); return err })
		if err != nil {
			return fmt.Errorf("syslog %s: %w", path, err)
		}
		if n == 0 {
			return fmt.Errorf("syslog %s: %w", path, syscall.EIO)
		}
		line = line[n:]
	}
	return nil
}

// syslogLine formats one record the way log/syslog writes to a local
// daemon: facility user (1), the severity, time.Stamp in local time, the
// tag and pid, the message and a final newline.
func syslogLine(sev Severity, now time.Time, pid int, msg []byte) []byte {
	const facilityUser = 1 << 3
	// The syslog severities (RFC 5424, 6.2.1): err 3, warning 4, notice 5,
	// info 6.
	level := 6
	switch sev {
	case SevErr:
		level = 3
	case SevWarning:
		level = 4
	case SevNotice:
		level = 5
	}
	b := make([]byte, 0, len(msg)+48)
	b = append(b, '<')
	b = strconv.AppendInt(b, int64(facilityUser|level), 10)
	b = append(b, '>')
	b = now.AppendFormat(b, time.Stamp)
	b = append(b, " safezone["...)
	b = strconv.AppendInt(b, int64(pid), 10)
	b = append(b, "]: "...)
	b = append(b, msg...)
	if len(msg) == 0 || msg[len(msg)-1] != '\n' {
		b = append(b, '\n')
	}
	return b
}

// retry runs call again while it is interrupted by a signal.
func retry(call func() error) error {
	for {
		err := call()
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}
