//go:build windows || plan9

package audit

import (
	"fmt"
	"runtime"
)

// Syslog is not available on Windows and Plan 9.
func Syslog(Severity, []byte) error {
	return fmt.Errorf("syslog is not available on %s; use audit.path", runtime.GOOS)
}
