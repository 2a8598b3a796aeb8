//go:build !linux

package refusals

import (
	"errors"
	"os"
	"time"
)

var errNoLandlock = errors.New("only Linux's Landlock reports what it refuses")

// Available says why refusals cannot be read here.
func Available() error { return errNoLandlock }

// Listen says why refusals cannot be read here.
func Listen() error { return errNoLandlock }

// AuditEnabled is false: there is no Linux audit here.
func AuditEnabled() (bool, error) { return false, errNoLandlock }

// Collect returns at once: there is nothing to listen to.
func Collect(d Dirs, idle time.Duration, ready *os.File) error {
	if ready != nil {
		ready.Close()
	}
	return errNoLandlock
}
