//go:build !windows && !plan9

package audit

import "log/syslog"

// Syslog sends line (a record without its newline) to the local syslog
// daemon (journald, rsyslog) with the tag "safezone" and facility user, at
// severity sev.
func Syslog(sev Severity, line []byte) error {
	prio := syslog.LOG_USER
	switch sev {
	case SevWarning:
		prio |= syslog.LOG_WARNING
	case SevNotice:
		prio |= syslog.LOG_NOTICE
	case SevErr:
		prio |= syslog.LOG_ERR
	default:
		prio |= syslog.LOG_INFO
	}
	w, err := syslog.New(prio, "safezone")
	if err != nil {
		return err
	}
	defer w.Close()
	_, err = w.Write(line)
	return err
}
