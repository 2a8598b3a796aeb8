//go:build !linux

package index

import (
	"errors"
	"time"
)

// errNoDaemon says that the daemon is implemented for Linux only: elsewhere
// the hook walks the roots on each call (nothing is confined there anyway).
var errNoDaemon = errors.New("the index daemon needs Linux (inotify)")

// Serve is implemented for Linux only.
func Serve(Classifier, []string, string, time.Duration) error { return errNoDaemon }

// Query is implemented for Linux only.
func Query(string, time.Duration) (Found, error) { return Found{}, errNoDaemon }

// SocketFor is "" here: there is no daemon.
func SocketFor(string, string) string { return "" }
