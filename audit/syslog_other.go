//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package audit

import (
	"fmt"
	"runtime"
)

// Syslog is not available on this system (Windows has no local syslog).
func Syslog(Severity, []byte) error {
	return fmt.Errorf("syslog is not available on %s; use audit.path", runtime.GOOS)
}
