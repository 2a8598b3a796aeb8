//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package audit

import (
	"fmt"
	"log/syslog"
)

// Syslog sends msg (a record without its newline) to the local syslog
// daemon (journald, rsyslog, syslogd) with the tag "safezone", facility
// user, at severity sev, through the standard library's log/syslog (which
// tries /dev/log, /var/run/syslog and /var/run/log, datagram then stream).
// The error says when no local daemon accepts the record.
func Syslog(sev Severity, msg []byte) error {
	return syslogTo("", "", sev, msg)
}

// syslogTo is Syslog with log/syslog's network and address: "" and "" for
// the local daemon; tests pass a Unix socket.
func syslogTo(network, raddr string, sev Severity, msg []byte) error {
	w, err := syslog.Dial(network, raddr, syslog.LOG_USER|syslog.LOG_INFO, "safezone")
	if err != nil {
		return fmt.Errorf("no local syslog daemon: %w", err)
	}
	defer w.Close()
	m := string(msg)
	switch sev {
	case SevErr:
		return w.Err(m)
	case SevWarning:
		return w.Warning(m)
	case SevNotice:
		return w.Notice(m)
	}
	return w.Info(m)
}
