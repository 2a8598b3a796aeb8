//go:build !linux

package confine

import (
	"fmt"
	"runtime"
)

// errNoBackend says why this operating system cannot confine commands.
// A macOS backend would enforce a Ruleset with a Seatbelt profile
// (sandbox_init(3) before the exec) in place of Landlock.
var errNoBackend = fmt.Errorf("%w: confining commands is implemented for Linux (Landlock) only, not for %s", ErrUnavailable, runtime.GOOS)

// Available says whether the launcher can confine commands here: on this
// operating system it cannot.
func Available() Status {
	return Status{Landlock: errNoBackend, ReadOnly: errNoBackend}
}

func (l *launch) run() (int, error) { return 0, errNoBackend }

func checkPipe(fd int) error { return errNoBackend }

// ReachableSockets finds the sockets a confined command could reach: no
// command is confined on this operating system, so it reports errNoBackend.
func ReachableSockets(paths []string, skip func(string) bool) ([]string, error) {
	return nil, errNoBackend
}

// HelperMode is the launcher's mode of the network helper (Linux only).
const HelperMode = "nshelper"

func netHelper() int { return ExitCannotRun }
